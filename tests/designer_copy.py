"""A copy of the repository whose content/ a designer has edited, with the project's tests running in it
(tests/test_designer_edits.py). It starts as soon as the tests are collected (tests/conftest.py), so
that its suite runs beside this one instead of after it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import yaml

from rulekit.content.loader import load_content

ROOT = Path(__file__).resolve().parent.parent
TEST = "tests/test_designer_edits.py::test_the_suite_passes_against_edited_content"
# Set in the copy, so that the copy does not start a copy of its own.
IN_COPY = "RULEKIT_DESIGNER_EDITS_COPY"
# What the copy leaves out: git, caches, installs, outputs.
NOT_COPIED = shutil.ignore_patterns(".git", "__pycache__", ".pytest_cache", ".hypothesis", ".rulekit_cache",
                                    "*.egg-info", "playtest-out", "build", "dist", ".venv", "node_modules")
NEW_CARD_ID = "designer_field_hospital"
NEW_CARD = f"""\
- id: {NEW_CARD_ID}
  name: 设计师野战医院
  stage: 1
  price: 2
  copies: 2
  effect: |
    on play:
      medical += 2
"""
# The copy's suite, less the dask tests (a LocalCluster each) and the compiled build's (a mypyc build): neither
# reads content/, so an edit to it cannot change what they find.
PYTEST = [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", "-m", "not dask",
          "--ignore", "tests/test_compiled.py"]
TIMEOUT = 900


@dataclass(frozen=True)
class Copy:
    """The edited copy: where it is, what was edited, and its running suite."""

    folder: Path
    rewritten: str              # the id of the proposed card rewritten
    price: int                  # its new price
    process: subprocess.Popen
    log: Path

    @property
    def content(self) -> Path:
        return self.folder / "repo" / "content"

    def outcome(self) -> tuple[int, str]:
        """The suite's exit status and its output, once it has finished."""
        code = self.process.wait(timeout=TIMEOUT)
        return code, self.log.read_text(encoding="utf-8", errors="replace")


_started: list[Copy] = []


def rewrite_a_proposed_card(content: Path) -> tuple[str, int]:
    """Rewrite a proposed policy (any policy when none is left) as a designer would: a new effect, a new
    price and score, the proposal accepted. Returns the card's id and its new price."""
    cards = load_content(content).of_kind("policy")
    card = next((c for c in cards if c.status == "proposed"), cards[0])
    path = Path(card.file)
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    entry = next(e for e in data if e.get("id") == card.id)
    price = max(card.price or (1,)) + 1
    entry.update(price=price, score=1, effect="on play:\n  money += 3\n  policy -= 1\n")
    entry.pop("status", None)
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return card.id, price


def start() -> Copy:
    """The copy, made, edited and started on the first call."""
    if _started:
        return _started[0]
    folder = Path(tempfile.mkdtemp(prefix="rulekit-designer-"))
    repo = folder / "repo"
    try:
        shutil.copytree(ROOT, repo, ignore=NOT_COPIED)
        rewritten, price = rewrite_a_proposed_card(repo / "content")
        (repo / "content" / "policies" / "designer_additions.yaml").write_text(NEW_CARD, encoding="utf-8")
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    log = folder / "pytest.log"
    env = {**os.environ, IN_COPY: "1", "PYTHONPATH": str(repo)}
    with log.open("w", encoding="utf-8") as out:
        process = subprocess.Popen(PYTEST, cwd=repo, env=env, stdout=out, stderr=subprocess.STDOUT)
    _started.append(Copy(folder, rewritten, price, process, log))
    return _started[0]


def start_if_collected(nodeids) -> None:
    """Start the copy when its test is among the tests to run (never inside the copy itself)."""
    if os.environ.get(IN_COPY) != "1" and TEST in nodeids:
        start()


def stop() -> None:
    """End the copy's suite if it still runs, and delete the copy."""
    for copy in _started:
        if copy.process.poll() is None:
            copy.process.kill()
            copy.process.wait()
        shutil.rmtree(copy.folder, ignore_errors=True)
