"""What `rulekit lint` checks: the loader's two-stage pipeline (rulekit.content.loader), with the file
facts of stage 1 taken from a Source — the lint cache's (cache.py), or one that computes every file.

The pipeline is the one `load_content` and `check_paths` run, so lint's diagnostics are theirs:
tests/test_lint_engine.py holds lint, cold and warm, to check_paths on every rule's example.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from rulekit.content.loader import Source, check_folders
from rulekit.language.diagnostics import Diagnostic


def check(paths: Iterable[str | Path], source: Source | None = None) -> list[Diagnostic]:
    """The diagnostics `check_paths(paths)` gives, with file facts taken from `source`."""
    return check_folders(paths, source)[1]
