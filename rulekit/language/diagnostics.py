"""Diagnostic values: a problem found in content, with its code, severity and exact position."""

from __future__ import annotations

import difflib
from dataclasses import dataclass, replace

SEVERITIES = ("error", "warning", "info")


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

    def at(self, file: str) -> "Diagnostic":
        return replace(self, file=file)

    def sort_key(self):
        """Causes first: the problems of files and folders as such (RK0xx below RK010), which
        can leave cards unknown and so explain later problems; then each file's, in order."""
        return (not self.code.startswith("RK00"), self.file, self.line, self.col, self.code, self.message)


class ContentError(Exception):
    """Raised when content has errors: carries every diagnostic found."""

    def __init__(self, diagnostics: list[Diagnostic]):
        self.diagnostics = sorted(diagnostics, key=Diagnostic.sort_key)
        super().__init__("\n".join(concise(d) for d in self.diagnostics))


def concise(d: Diagnostic) -> str:
    where = f"{d.file}:{d.line}:{d.col}" if d.line else (d.file or "<content>")
    hint = f" ({d.hint})" if d.hint else ""
    return f"{where}: {d.code} {d.message}{hint}"


def did_you_mean(word: str, known, what: str) -> str:
    """'unknown track 'medicl' — did you mean 'medical'?' in one place for every lookup."""
    close = difflib.get_close_matches(word, list(known), n=1, cutoff=0.6)
    msg = f"unknown {what} '{word}'"
    if close:
        msg += f" — did you mean '{close[0]}'?"
    return msg


def nearest(word: str, known) -> str | None:
    close = difflib.get_close_matches(word, list(known), n=1, cutoff=0.6)
    return close[0] if close else None
