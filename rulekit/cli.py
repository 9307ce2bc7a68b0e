"""The `rulekit` command line: thin click commands that call the stages and render results."""

from __future__ import annotations

import click


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="rulekit")
def main() -> None:
    """rulekit — write, check, test and playtest 瘟疫到来 cards as data."""


# Each command lives with its stage; they register here.
