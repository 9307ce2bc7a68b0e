"""Diagnostic values: a problem found in content, with its code, severity and exact position.

A check makes one with `Diagnostic.of(R.EMPTY_CHOICE, message, file, line, col, ...)`: the rule's
code and severity come from the table (rulekit.diagnostics.codes), never from the check.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from rulekit.diagnostics.codes import CAUSES, R, rule
from rulekit.diagnostics.codes import SEVERITIES as SEVERITIES


@dataclass(frozen=True)
class Diagnostic:
    """One problem. Lines and columns are 1-based, in the file's own numbering; end exclusive."""

    code: str
    severity: str
    message: str
    file: str = ""
    line: int = 0
    col: int = 0
    end_line: int = 0
    end_col: int = 0
    hint: str | None = None

    @classmethod
    def of(cls, code: R | str, message: str, file: str = "", line: int = 0, col: int = 0, end_line: int = 0,
           end_col: int = 0, hint: str | None = None) -> Diagnostic:
        """A problem of a rule, with the rule's code and severity. A code given as a string ("RK223", as
        modules not yet converted write it) is looked up in the table: one no rule has is a ValueError."""
        r = rule(code)
        return cls(r.code, r.severity, message, file, line, col, end_line, end_col, hint)

    def at(self, file: str) -> Diagnostic:
        return replace(self, file=file)

    def sort_key(self) -> tuple[bool, str, int, int, str, str]:
        """Causes first: the problems of files and folders as such (codes.CAUSES: RK00x, and the
        links and sizes of RK016 and RK017), which can leave cards unknown and so explain later
        problems; then each file's, in order."""
        return (self.code not in CAUSES, self.file, self.line, self.col, self.code, self.message)


class ContentError(Exception):
    """Raised when content has errors: carries every diagnostic found."""

    def __init__(self, diagnostics: list[Diagnostic]):
        self.diagnostics = sorted(diagnostics, key=Diagnostic.sort_key)
        super().__init__("\n".join(concise(d) for d in self.diagnostics))


def concise(d: Diagnostic) -> str:
    where = f"{d.file}:{d.line}:{d.col}" if d.line else (d.file or "<content>")
    hint = f" ({d.hint})" if d.hint else ""
    return f"{where}: {d.code} {d.message}{hint}"


def nearest(word: str, known: Iterable[str]) -> str | None:
    """The known word `word` is a slip of the pen for, or None.

    Only a typo counts: one letter wrong, missing, extra or two swapped (two for words of 7
    letters or more). A different word that looks alike ('revive' for 'reveal', 'move' for
    'remove') is not suggested: it would send a designer to something that means another thing.
    """
    most = 1 if len(word) < 7 else 2
    best, best_key = None, (most + 1, 1)
    low = word.lower()
    for candidate in known:
        if abs(len(candidate) - len(word)) > most:
            continue
        d = _typos(low, candidate.lower(), best_key[0] + 1)
        # Of two as close, the one that starts like the word: slips rarely hit the first letter.
        key = (d, candidate[:1].lower() != low[:1])
        if d <= most and key < best_key:
            best, best_key = candidate, key
    return best


def _typos(a: str, b: str, stop: int) -> int:
    """Edits (change, insert, delete, swap two neighbours) from a to b, counted up to `stop`."""
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        row = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = a[i - 1] != b[j - 1]
            row[j] = min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                row[j] = min(row[j], prev2[j - 2] + 1)
        if min(row) >= stop:
            return stop
        prev2, prev = prev, row
    return prev[-1]
