"""One lint run: check the paths (through the cache), drop what --select/--ignore and noqa silence."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rulekit.content.loader import absolute
from rulekit.language.diagnostics import Diagnostic
from rulekit.lint import engine
from rulekit.lint.cache import CachedSource
from rulekit.lint.filters import Selection, noqa_lines, silenced
from rulekit.lint.render import split_lines


@dataclass
class Report:
    """What a run found, after filtering, and the text of every file it read."""

    diagnostics: list[Diagnostic]
    files: int
    texts: dict[str, bytes]
    _lines: dict[str, list[str]] = field(default_factory=dict, repr=False)

    def lines(self, file: str) -> Sequence[str] | None:
        """The file's lines as YAML numbers them (None: not a file this run read)."""
        if file not in self._lines:
            raw = self.texts.get(file)
            if raw is None:
                return None
            self._lines[file] = _numbered_lines(raw)
        return self._lines[file]

    def count(self, severity: str) -> int:
        return sum(1 for d in self.diagnostics if d.severity == severity)


def _numbered_lines(raw: bytes) -> list[str]:
    """Lines as the diagnostics count them: YAML's line breaks, or plain newlines in a file
    that is not UTF-8 (where YAML never ran)."""
    try:
        return split_lines(raw.decode("utf-8-sig"))
    except UnicodeDecodeError:
        return [line.rstrip("\r") for line in raw.decode("utf-8", errors="replace").split("\n")]


def lint(paths: Iterable[str | Path], selection: Selection | None = None, use_cache: bool = True) -> Report:
    """Every diagnostic of the paths that the selection and the files' noqa comments let through."""
    paths = list(paths)
    selection = selection or Selection()
    source = CachedSource(use_cache)
    found = engine.check(paths, source)
    source.save()
    report = Report([], _files_asked(source.texts, paths), source.texts)
    noqa: dict[str, dict] = {}
    for d in found:
        if not selection.wants(d.code):
            continue
        if d.line:
            if d.file not in noqa:
                lines = report.lines(d.file)
                noqa[d.file] = noqa_lines(lines) if lines is not None else {}
            if silenced(d, noqa[d.file]):
                continue
        report.diagnostics.append(d)
    return report


def _files_asked(texts: dict[str, bytes], paths: Sequence[str | Path]) -> int:
    """How many files the asked paths hold (a file given alone is checked with its whole folder)."""
    wanted = [absolute(Path(p)) for p in paths]
    count = 0
    for file in texts:
        p = absolute(Path(file))
        if any(p == w or w in p.parents for w in wanted):
            count += 1
    return count
