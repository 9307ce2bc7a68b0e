"""A content folder as a whole: what makes one, which files are in it, what a single-file lint
still sees, which problem comes first, and which fields a card must give."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulekit.cli import main
from rulekit.content import loader
from rulekit.content.loader import check_paths, content_files, load_content
from rulekit.language.diagnostics import ContentError
from tests.conftest import CONTENT


EXTRA = """\
- id: extra_card
  name: 额外政策
  stage: 1
  price: 2
  copies: 3
  effect: |
    on play:
      money += 1
"""


@pytest.fixture
def content(tmp_path) -> Path:
    shutil.copytree(CONTENT, tmp_path / "content")
    return tmp_path / "content"


def codes(found, severity: str | None = None) -> list[str]:
    return [d.code for d in found if severity is None or d.severity == severity]


# ---- what a content folder must hold ----------------------------------------------------------------

def test_a_kind_folder_given_as_content_is_refused_with_what_a_content_folder_holds(content):
    with pytest.raises(ContentError) as err:
        load_content(content / "policies")
    [d] = [d for d in err.value.diagnostics if d.code == "RK009"]
    assert "has no rules.yaml" in d.message
    assert "rules.yaml" in d.hint and "advisors/, policies/, events/ and combos/" in d.hint
    assert f"give the folder above it, {content}" in d.hint


def test_a_folder_without_cards_is_refused(tmp_path):
    (tmp_path / "rules.yaml").write_text("players: 4\n", encoding="utf-8")
    with pytest.raises(ContentError) as err:
        load_content(tmp_path)
    assert [(d.code, d.message) for d in err.value.diagnostics] == [
        ("RK009", f"{tmp_path} is not a content folder: it holds no cards")]


def test_play_refuses_a_kind_folder_and_exits_1(content):
    result = CliRunner().invoke(main, ["play", "--content", str(content / "policies")])
    assert result.exit_code == 1
    assert "RK009" in result.output and "has no rules.yaml" in result.output
    assert "Ended after round" not in result.output


def test_playtest_refuses_an_empty_folder_and_exits_1(tmp_path):
    (tmp_path / "empty").mkdir()
    result = CliRunner().invoke(main, ["playtest", str(tmp_path / "empty"), "--games", "2", "--quiet",
                                       "--out", str(tmp_path / "out")])
    assert result.exit_code == 1
    assert "RK009" in result.output
    assert not (tmp_path / "out" / "summary.json").exists()


def test_lint_shows_rk009_even_for_a_single_file(content):
    (content / "rules.yaml").rename(content / "rules.yml")
    _, found = check_paths([content / "policies" / "stage1.yaml"])
    assert "RK009" in codes(found)


# ---- one list of the files that make up the content --------------------------------------------------

def test_the_loader_and_the_fingerprint_see_the_same_files(content):
    (content / "policies" / "extra.YAML").write_text(EXTRA, encoding="utf-8")
    (content / "policies" / "__pycache__").mkdir()
    (content / "policies" / "__pycache__" / "stale.yaml").write_text(
        EXTRA.replace("extra_card", "stale_card").replace("额外政策", "旧政策"), encoding="utf-8")
    listed = [p.relative_to(content).as_posix() for p in content_files(content).files]
    assert "policies/extra.YAML" in listed and not any("__pycache__" in p for p in listed)
    loaded = load_content(content)
    assert loaded.lookup("extra_card") is not None and loaded.lookup("stale_card") is None

    before = loaded.fingerprint
    (content / "policies" / "__pycache__" / "stale.yaml").write_text("# edited\n" + EXTRA, encoding="utf-8")
    assert load_content(content).fingerprint == before      # not part of the content
    (content / "policies" / "extra.YAML").write_text(EXTRA.replace("money += 1", "money += 2"), encoding="utf-8")
    assert load_content(content).fingerprint != before      # a resumed batch sees the edit


def test_a_folder_that_cannot_be_read_is_an_error_not_skipped(content, monkeypatch):
    locked = content / "policies"
    real = os.scandir

    def scandir(path):
        if Path(path) == locked:
            raise PermissionError(13, "Permission denied", str(path))
        return real(path)

    monkeypatch.setattr(loader.os, "scandir", scandir)
    _, found = check_paths([content])
    [d] = [d for d in found if d.code == "RK005"]
    assert (d.severity, d.file) == ("error", str(locked))
    assert "cannot read this folder: Permission denied" in d.message
    assert found[0] is d                                     # the cause comes first
    with pytest.raises(ContentError):
        load_content(content)


# ---- linting one file checks it against the whole folder ---------------------------------------------

def test_a_duplicate_id_is_reported_in_the_new_file_linted_alone(content):
    mine = content / "policies" / "mine.yaml"              # sorts before stage1.yaml
    mine.write_text(EXTRA.replace("extra_card", "hospital_expansion"), encoding="utf-8")
    _, found = check_paths([mine])
    [d] = [d for d in found if d.code == "RK301"]
    assert (d.file, d.line, d.col) == (str(mine), 1, 7)
    assert f"first in {content / 'policies' / 'stage1.yaml'}:" in d.message


def test_a_duplicate_name_is_reported_in_the_new_file_linted_alone(content):
    mine = content / "policies" / "a_new.yaml"
    mine.write_text(EXTRA.replace("额外政策", "医院扩容"), encoding="utf-8")
    _, found = check_paths([mine])
    assert [(d.code, d.file) for d in found if d.code == "RK302"] == [("RK302", str(mine))]


# ---- causes before consequences ---------------------------------------------------------------------

def test_a_broken_policy_file_comes_first_and_the_missing_card_says_why(content):
    stage2 = content / "policies" / "stage2.yaml"
    stage2.write_bytes(stage2.read_text(encoding="utf-8").encode("gbk", errors="replace"))
    result = CliRunner().invoke(main, ["lint", str(content), "--no-cache", "--output-format", "concise"])
    lines = result.output.splitlines()
    assert lines[0].startswith(f"{stage2}:") and " RK002 " in lines[0]
    follow_ons = [ln for ln in lines if " RK224 " in ln]
    assert follow_ons and all(f"this follows from {stage2}, which cannot be read" in ln for ln in follow_ons)
    assert not [ln for ln in lines if " RK304 " in ln]        # stage sizes are unknown, so not counted


# ---- the fields a card must give ---------------------------------------------------------------------

def test_a_policy_without_a_price_is_an_error_not_a_free_card(content):
    (content / "policies" / "extra.yaml").write_text(EXTRA.replace("  price: 2\n", ""), encoding="utf-8")
    _, found = check_paths([content / "policies" / "extra.yaml"])
    [d] = [d for d in found if d.severity == "error"]
    assert d.code == "RK012" and "price" in d.message and "free" in d.message
    assert "price: 0" in d.hint


@pytest.mark.parametrize("card, stage_words, copies", [
    (EXTRA.replace("  copies: 3\n", ""), "a stage 1 policy", 3),
    (EXTRA.replace("  copies: 3\n", "").replace("stage: 1", "stage: 2"), "a stage 2 policy", 2),
    ("- id: extra_event\n  name: 额外事件\n  effect: |\n    on resolve:\n      each player:\n        money += 1\n",
     "an event", 1),
])
def test_copies_left_to_the_default_are_shown_as_a_note(content, card, stage_words, copies):
    folder = "events" if "event" in stage_words else "policies"
    p = content / folder / "extra.yaml"
    p.write_text(card, encoding="utf-8")
    _, found = check_paths([p])
    [d] = found
    assert (d.code, d.severity, d.line) == ("RK015", "info", 1)
    assert d.message == f"no `copies:`, so the deck holds {copies} (the default for {stage_words})"
    assert load_content(content).lookup(card.split("id: ")[1].split("\n")[0]).copies == copies


def test_too_few_advisors_for_the_draft_warn(content):
    advisors = content / "advisors" / "advisors.yaml"
    text = advisors.read_text(encoding="utf-8")
    advisors.write_text(text[:text.index("\n- id:", text.index("- id:") + 1)] + "\n", encoding="utf-8")
    _, found = check_paths([content])
    [d] = [d for d in found if d.code == "RK307"]
    assert d.severity == "warning" and "2 advisors to each of 4 players, but there is 1" in d.message
