"""Which diagnostics a run shows: `--select`/`--ignore` by code or prefix, and `# rulekit: noqa` comments."""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from rulekit.language.diagnostics import Diagnostic
from rulekit.lint.rules import closest

_NOQA = re.compile(r"#\s*rulekit:\s*noqa\b(?P<colon>\s*:\s*(?P<codes>[A-Za-z]+[0-9]*(?:\s*,\s*[A-Za-z]+[0-9]*)*))?",
                   re.IGNORECASE)


class SelectorError(ValueError):
    """A `--select`/`--ignore` value that names no rule."""


def parse_selectors(values: Iterable[str], option: str, known: Collection[str]) -> tuple[str, ...]:
    """`RK2,RK301` (repeatable) -> ('RK2', 'RK301'); each must be a code or the prefix of one."""
    out: list[str] = []
    for value in values:
        for part in value.split(","):
            sel = part.strip().upper()
            if not sel:
                continue
            if not any(code.startswith(sel) for code in known):
                guess = closest(sel)
                tip = f" — did you mean '{guess}'?" if guess else " (run `rulekit rule` for the list)"
                raise SelectorError(f"{option}: no rule has the code '{part.strip()}'{tip}")
            out.append(sel)
    return tuple(out)


@dataclass(frozen=True)
class Selection:
    """Like ruff: the most specific matching selector wins; on a tie, --ignore wins."""

    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()

    def wants(self, code: str) -> bool:
        chosen = max((len(s) for s in self.select if code.startswith(s)), default=-1 if self.select else 0)
        ignored = max((len(s) for s in self.ignore if code.startswith(s)), default=-1)
        return chosen >= 0 and chosen > ignored


def noqa_lines(lines: Sequence[str]) -> dict[int, tuple[str, ...] | None]:
    """1-based line -> the codes its `# rulekit: noqa: …` silences (None: every code)."""
    out: dict[int, tuple[str, ...] | None] = {}
    for number, line in enumerate(lines, 1):
        if "noqa" not in line:
            continue
        match = _NOQA.search(line)
        if match is None:
            continue
        codes = match.group("codes")
        out[number] = None if codes is None else tuple(c.strip().upper() for c in codes.split(","))
    return out


def silenced(d: Diagnostic, noqa: dict[int, tuple[str, ...] | None]) -> bool:
    if d.line not in noqa:
        return False
    codes = noqa[d.line]
    return codes is None or any(d.code.startswith(c) for c in codes)
