"""What every command shares: bilingual help, seeds, output any console can take, one clear message for bad content and agents."""

from __future__ import annotations

import sys
import unicodedata

import click

from rulekit import registry
from rulekit.agents import seat_agents
from rulekit.model import Content
from rulekit.language.diagnostics import ContentError, concise

# Help is bilingual everywhere, Chinese first then English, like the rest of rulekit's output: the
# designers read Chinese first, and the English keeps the commands searchable and reviewable.
HELP_OPTION = "显示本说明并退出 / Show this message and exit."


class _BilingualHelpOption:
    """-h/--help says what it does in both languages (click's own text is English only)."""

    def get_help_option(self, ctx: click.Context) -> click.Option | None:
        option = super().get_help_option(ctx)  # type: ignore[misc]  # a mixin before click.Command
        if option is not None:
            option.help = HELP_OPTION
        return option


class Command(_BilingualHelpOption, click.Command):
    """A rulekit command."""


class Group(_BilingualHelpOption, click.Group):
    """rulekit's command group: bilingual help, and output that never fails on a console's encoding."""

    command_class = Command

    def main(self, *args, **kwargs):
        tolerate_console_encoding()
        return super().main(*args, **kwargs)


def tolerate_console_encoding() -> None:
    """Let stdout and stderr replace what their encoding cannot show (a latin-1 console gets '?' for 瘟疫).

    Names and numbers stay readable, and a legacy console never turns a finished game into a traceback.
    """
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None and getattr(stream, "errors", "strict") == "strict":
            reconfigure(errors="replace")


# Characters a terminal does not show as text: control codes (an escape sequence clears the screen
# or sets the window title), format marks such as the bidi controls that turn text around, and
# line and paragraph separators. Line breaks and tabs of rulekit's own output are kept.
_NOT_TEXT = ("Cc", "Cf", "Cs", "Zl", "Zp")


def safe(text: str) -> str:
    """Text fit for a terminal, whatever a card or a file holds: what is not text is written as U+XXXX."""
    if text.isprintable():
        return text
    return "".join(f"U+{ord(ch):04X}" if ch not in "\n\t" and unicodedata.category(ch) in _NOT_TEXT else ch
                   for ch in text)


def echo(text: str = "", err: bool = False) -> None:
    """Print a line that may hold what a designer wrote (card names, messages about them): safely."""
    click.echo(safe(text), err=err)


class WholeNumber(click.ParamType):
    """A whole number from `lo` to `hi`, refused in both languages with its range (click's words are English only)."""

    def __init__(self, name: str, lo: int, hi: int, zh: str, en: str, advice: str = ""):
        self.name, self.lo, self.hi, self.zh, self.en, self.advice = name, lo, hi, zh, en, advice

    def convert(self, value, param, ctx):
        number = value
        if type(number) is not int:
            try:
                number = int(str(value).strip())
            except ValueError:      # not a whole number, or more digits than Python reads
                number = None
        if number is None or not self.lo <= number <= self.hi:
            shown = repr(value)
            self.fail(f"{self.zh} / {self.en} (got {shown if len(shown) <= 40 else shown[:40] + '…'}){self.advice}",
                      param, ctx)
        return number


# A game's or a batch's seed. Negative seeds are refused rather than folded onto positive ones: `--seed -5`
# and `--seed 5` would otherwise be different games, or the same game, depending on who reads the number.
# The ceiling keeps every seed storable and typeable (a batch's own game seeds are all below it).
_TOP = registry.LIMITS["seed"].value
SEED = WholeNumber("seed", 0, _TOP, f"种子须为 0 到 {_TOP:,} 之间的整数", f"a seed is a whole number from 0 to {_TOP:,}")


def load_or_exit(content_dir, include_tbd: bool = False, only_designed: bool = False) -> Content:
    """Load content, or print every error (file:line:col) and exit 1."""
    from rulekit.content.loader import load_content

    try:
        return load_content(content_dir, include_tbd=include_tbd, only_designed=only_designed)
    except ContentError as err:
        errors = [d for d in err.diagnostics if d.severity == "error"]
        for d in errors:
            echo(concise(d), err=True)
        echo(f"The content in {content_dir} has {len(errors)} error(s); "
             f"`rulekit lint {content_dir}` explains each.", err=True)
        raise SystemExit(1) from None


def agents_or_usage_error(value: str, players: int) -> list[str]:
    """`--agents` as one name per seat, or a usage error (exit 2) in plain words."""
    try:
        return seat_agents([a.strip() for a in value.split(",") if a.strip()], players)
    except ValueError as err:
        raise click.BadParameter(str(err), param_hint="--agents") from None
