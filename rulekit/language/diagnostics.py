"""Diagnostic values: a problem found in content, with its code, severity and exact position."""

from __future__ import annotations

from dataclasses import dataclass, replace

SEVERITIES = ("error", "warning", "info")
FILE_CODES = ("RK016", "RK017")        # problems of a file as such, numbered after the RK00x ones


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

    def at(self, file: str) -> Diagnostic:
        return replace(self, file=file)

    def sort_key(self):
        """Causes first: the problems of files and folders as such (RK0xx below RK010, and the
        links and sizes of RK016 and RK017), which can leave cards unknown and so explain later
        problems; then each file's, in order."""
        cause = self.code.startswith("RK00") or self.code in FILE_CODES
        return (not cause, self.file, self.line, self.col, self.code, self.message)


class ContentError(Exception):
    """Raised when content has errors: carries every diagnostic found."""

    def __init__(self, diagnostics: list[Diagnostic]):
        self.diagnostics = sorted(diagnostics, key=Diagnostic.sort_key)
        super().__init__("\n".join(concise(d) for d in self.diagnostics))


def concise(d: Diagnostic) -> str:
    where = f"{d.file}:{d.line}:{d.col}" if d.line else (d.file or "<content>")
    hint = f" ({d.hint})" if d.hint else ""
    return f"{where}: {d.code} {d.message}{hint}"


def nearest(word: str, known) -> str | None:
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
