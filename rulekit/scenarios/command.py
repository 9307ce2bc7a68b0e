"""`rulekit test PATH...`: run scenario files and report (the format: docs/scenarios.md)."""

from __future__ import annotations

import sys

import click

from rulekit.console import Command, echo, safe
from rulekit.language.diagnostics import ContentError, concise
from rulekit.scenarios.reader import ContentSource
from rulekit.scenarios.report import report_lines
from rulekit.scenarios.runner import find_scenarios, run_paths


@click.command("test", cls=Command)
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--content", "content_dir", default="content", show_default=True,
              type=click.Path(exists=True, file_okay=False),
              help="场景所用的内容文件夹 / The content folder the scenarios use.")
@click.option("-v", "--verbose", is_flag=True,
              help="显示每一步、每个回答的问题和每条预期 / Show each step, each question answered and each expectation.")
def test_command(paths: tuple[str, ...], content_dir: str, verbose: bool) -> None:
    """运行 PATH 下的场景文件（*.scenario.yaml） / Run the scenario files (*.scenario.yaml) found under PATH..."""
    if not find_scenarios(paths):
        echo(f"no scenario files (*.scenario.yaml) under {', '.join(paths)}", err=True)
        sys.exit(1)
    source = ContentSource(content_dir)
    problems = content_problems(source)
    if problems:
        _print(problems)
        sys.exit(1)
    results = run_paths(paths, source, verbose=verbose)
    _print(report_lines(results, verbose=verbose))
    sys.exit(0 if all(r.passed for r in results) else 1)


def content_problems(source: ContentSource) -> list[tuple[str, str | None]]:
    """The content folder's own errors, listed once: with them no scenario can run, so none is tried."""
    try:
        source.base()
    except ContentError as err:
        errors = [d for d in err.diagnostics if d.severity == "error"]
        summary = (f"The content in {source.root} has {len(errors)} error{'s' if len(errors) != 1 else ''}, "
                   f"so no scenario can run; `rulekit lint {source.root}` explains each.")
        return [(concise(d), "red") for d in errors] + [(summary, "bold red")]
    return []


def _print(lines) -> None:
    if sys.stdout.isatty():
        from rich.console import Console
        from rich.text import Text

        console = Console(highlight=False, soft_wrap=True)
        for text, style in lines:
            console.print(Text(safe(text), style=style or ""))
        return
    for text, _ in lines:
        echo(text)
