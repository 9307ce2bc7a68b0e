"""A designer's edits never break the project's tests: the suite passes against rewritten content, and no
test reads the shipped content/ folder (the designer owns it; the tests play tests/fixtures/)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from rulekit.content.loader import load_content
from tests import designer_copy

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.skipif(os.environ.get(designer_copy.IN_COPY) == "1", reason="this is the copy")
def test_the_suite_passes_against_edited_content():
    """The copy (tests/designer_copy.py) started when the tests were collected; here its outcome is read."""
    copy = designer_copy.start()
    edited = load_content(copy.content)                     # a real edit: the content still loads
    assert edited.lookup(copy.rewritten).price == (copy.price,)
    assert edited.lookup(copy.rewritten).status == "designed"
    assert edited.lookup(designer_copy.NEW_CARD_ID) is not None
    code, out = copy.outcome()
    assert code == 0, f"the tests fail once the designer edits content/:\n{out[-3000:]}"
    assert re.search(r"\d{3,} passed", out), out[-3000:]


# ---- a cheap guard: no test names the shipped content/ folder ----------------------------------------------

# Files that must name content/: the designer-edits test, and the tests of the README's and CI's commands.
# And the language server's prefix test, asked to feed it every prefix of every shipped card file: it asserts
# only that each prefix is answered, which holds whatever the designer writes.
MAY_NAME_CONTENT = {"test_designer_edits.py", "designer_copy.py", "test_readme.py", "test_lsp_features.py"}
# The repository's root joined with "content", a relative "../content", or the current folder's content/.
SHIPPED = re.compile(r"""(\b(ROOT|REPO|BASE|HERE)\b|\.parents?\b(\[\d+\])?)\s*/\s*["']content["']"""
                     r"""|["'](\.\./)+content\b|\bPath\(\s*["']content["']\s*\)|\bchdir\(\s*(ROOT|REPO)\s*\)""")


def test_the_guard_sees_the_ways_a_test_reaches_content():
    for line in ('load_content(ROOT / "content")', "REPO / 'content' / 'rules.yaml'",
                 'Path(__file__).resolve().parents[1] / "content"', 'Path("content")', '"../content/policies"',
                 "monkeypatch.chdir(REPO)"):
        assert SHIPPED.search(line), line
    for line in ('tmp_path / "content"', 'run("content", "--select", "RK201")', "CONTENT / 'policies'"):
        assert not SHIPPED.search(line), line


def test_no_test_or_fixture_reads_the_shipped_content():
    found = []
    for path in sorted((ROOT / "tests").rglob("*")):
        if not path.is_file() or path.name in MAY_NAME_CONTENT or path.suffix not in (".py", ".yaml", ".yml", ".md"):
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if SHIPPED.search(line):
                found.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert not found, ("these lines reach the shipped content/, which the designer rewrites; use the tests' deck "
                       "(tests/conftest.py CONTENT) or a fixture under tests/fixtures/:\n  " + "\n  ".join(found))
