"""What every command does with bad content and agent lists: one clear message, then exit — never a traceback."""

from __future__ import annotations

import click

from rulekit.agents import seat_agents
from rulekit.content.model import Content
from rulekit.language.diagnostics import ContentError, concise


def load_or_exit(content_dir, include_tbd: bool = False, only_designed: bool = False) -> Content:
    """Load content, or print every error (file:line:col) and exit 1."""
    from rulekit.content.loader import load_content

    try:
        return load_content(content_dir, include_tbd=include_tbd, only_designed=only_designed)
    except ContentError as err:
        errors = [d for d in err.diagnostics if d.severity == "error"]
        for d in errors:
            click.echo(concise(d), err=True)
        click.echo(f"The content in {content_dir} has {len(errors)} error(s); "
                   f"`rulekit lint {content_dir}` explains each.", err=True)
        raise SystemExit(1)


def agents_or_usage_error(value: str, players: int) -> list[str]:
    """`--agents` as one name per seat, or a usage error (exit 2) in plain words."""
    try:
        return seat_agents([a.strip() for a in value.split(",") if a.strip()], players)
    except ValueError as err:
        raise click.BadParameter(str(err), param_hint="--agents") from None
