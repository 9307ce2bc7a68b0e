"""A content folder's own scenarios: `rulekit test DIR` runs DIR/scenarios/ with DIR's cards, and the
loader, the fingerprint and lint treat scenarios/ as what it is — scenario files, not cards."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulekit.cli import main
from rulekit.content.loader import check_paths, content_files, load_content
from tests.conftest import CONTENT
from tests.lint_fixtures import private_lint_cache  # noqa: F401 — autouse: the cache away from ~/.cache

# 医院扩容 as the tests' deck has it gives medical +1; the copy below makes it +3, so a scenario
# expecting 8 passes only when it plays with the copy's cards.
HOSPITAL = """\
scenario: the hospital as this folder writes it
combos: []
setup:
  P1: {money: 2, hand: [医院扩容]}
steps:
  - play: {player: P1, card: 医院扩容}
expect:
  P1: {medical: 8}
"""


def run(*args) -> tuple[int, str]:
    result = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    return result.exit_code, result.output


@pytest.fixture
def folder(tmp_path) -> Path:
    """A copy of the tests' deck whose 医院扩容 gives medical +3, with one scenario of its own."""
    root = tmp_path / "mine"
    shutil.copytree(CONTENT, root)
    stage1 = root / "policies" / "stage1.yaml"
    text = stage1.read_text(encoding="utf-8")
    stage1.write_text(text.replace("on play:\n      medical += 1", "on play:\n      medical += 3", 1), encoding="utf-8")
    (root / "scenarios").mkdir()
    (root / "scenarios" / "hospital.scenario.yaml").write_text(HOSPITAL, encoding="utf-8")
    return root


# ---- rulekit test DIR ------------------------------------------------------------------------------

def test_a_content_folder_runs_its_own_scenarios_with_its_own_cards(folder, monkeypatch):
    monkeypatch.chdir(folder.parent)                  # no content/ here: the folder's own cards must be used
    code, out = run("test", "mine")
    assert code == 0, out
    assert out.splitlines()[0].startswith("PASS  mine/scenarios/hospital.scenario.yaml")
    assert out.splitlines()[-1] == "1 passed, 0 failed"


def test_a_scenario_file_of_a_content_folder_plays_with_that_folders_cards(folder):
    code, out = run("test", folder / "scenarios" / "hospital.scenario.yaml")
    assert code == 0, out
    code, out = run("test", folder / "scenarios")
    assert code == 0, out


def test_content_still_chooses_the_cards(folder):
    code, out = run("test", folder, "--content", CONTENT)     # the deck's 医院扩容: medical 6, not 8
    assert code == 1
    assert "P1 medical: expected 8, got 6" in out


def test_a_content_folder_without_scenarios_says_where_they_go(tmp_path):
    root = tmp_path / "bare"
    shutil.copytree(CONTENT, root)
    code, out = run("test", root)
    assert code == 1
    assert f"{root} has no scenarios/ folder" in out and str(root / "scenarios") in out
    assert "Traceback" not in out


def test_other_scenario_folders_keep_content_as_the_default(folder, tmp_path, monkeypatch):
    loose = tmp_path / "loose"
    loose.mkdir()
    (loose / "hospital.scenario.yaml").write_text(HOSPITAL, encoding="utf-8")
    folder.rename(tmp_path / "content")
    monkeypatch.chdir(tmp_path)
    code, out = run("test", "loose")                          # ./content, the copy: medical 8
    assert code == 0, out


def test_two_content_folders_each_play_their_own_cards(folder, tmp_path):
    other = tmp_path / "other"
    shutil.copytree(CONTENT, other)
    (other / "scenarios").mkdir()
    (other / "scenarios" / "hospital.scenario.yaml").write_text(HOSPITAL.replace("medical: 8", "medical: 6"),
                                                               encoding="utf-8")
    code, out = run("test", folder, other)
    assert code == 0, out
    assert out.splitlines()[-1] == "2 passed, 0 failed"


# ---- the loader, the fingerprint and lint leave scenarios/ alone -----------------------------------

def test_scenario_files_are_not_card_files(folder):
    assert not any("scenarios" in p.relative_to(folder).parts for p in content_files(folder).files)
    _, found = check_paths([folder])
    assert [d for d in found if d.code == "RK007"] == []
    before = load_content(folder).fingerprint
    (folder / "scenarios" / "hospital.scenario.yaml").write_text(HOSPITAL.replace("8", "9"), encoding="utf-8")
    assert load_content(folder).fingerprint == before              # a playtest batch still resumes


def test_a_scenarios_folder_deeper_down_is_still_a_stray_file(folder):
    stray = folder / "extra" / "scenarios"
    stray.mkdir(parents=True)
    (stray / "x.scenario.yaml").write_text(HOSPITAL, encoding="utf-8")
    _, found = check_paths([folder])
    assert [Path(d.file).name for d in found if d.code == "RK007"] == ["x.scenario.yaml"]


def test_lint_of_the_folder_counts_only_card_files(folder, monkeypatch):
    monkeypatch.chdir(folder.parent)
    code, out = run("lint", "mine", "--no-cache", "--output-format", "concise")
    assert code == 0, out
    assert out.splitlines()[-1] == "0 errors, 0 warnings in 7 files, 1 note"
    assert "scenario" not in out


@pytest.mark.parametrize("path", ["mine/scenarios", "mine/scenarios/hospital.scenario.yaml"])
def test_lint_of_a_scenario_path_points_to_rulekit_test(folder, monkeypatch, path):
    monkeypatch.chdir(folder.parent)
    code, out = run("lint", path)
    assert code == 2
    assert f"`rulekit test {path}` checks and runs scenarios" in out
    assert "Traceback" not in out

