"""What changed in the content, as a designer reads it: a price, an effect's line, a new or removed card, a rule."""

from __future__ import annotations

import shutil

import pytest

from rulekit.content.diff import changed_parts, diff, parts
from rulekit.content.loader import load_content
from tests.conftest import ROOT

FIXTURE = ROOT / "tests" / "fixtures" / "compare"
NEW_CARD = """
- id: landmine
  name: 地雷
  stage: 1
  price: 1
  copies: 1
  effect: |
    on play:
      score += 1
"""


@pytest.fixture(scope="module")
def base():
    return load_content(FIXTURE)


def edited(tmp_path, *edits: tuple[str, str, str]):
    """A copy of the fixture with each (file, old, new) replaced once."""
    root = tmp_path / "content"
    shutil.copytree(FIXTURE, root)
    for file, old, new in edits:
        path = root / file
        text = path.read_text(encoding="utf-8")
        assert old in text, f"{old!r} not in {file}"
        path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return load_content(root)


def words(changes) -> list[str]:
    return [c.en for c in changes]


def test_the_same_content_has_no_change(base):
    assert diff(base, base) == []


def test_a_price_is_said_from_old_to_new(base, tmp_path):
    new = edited(tmp_path, ("policies/stage1.yaml", "  price: 4\n", "  price: 6\n"))
    [change] = diff(base, new)
    assert (change.what, change.id, change.name) == ("price", "statue", "雕像")
    assert change.en == "雕像 (statue): price 4 → 6" and change.zh == "雕像：价格 4 → 6"


def test_an_effect_edit_names_its_line(base, tmp_path):
    new = edited(tmp_path, ("policies/stage1.yaml", "      score += 1\n      policy -= 1\n",
                            "      score += 1\n      policy -= 2\n"))
    assert words(diff(base, new)) == ["游行 (parade): effect text changed (line 3)"]


def test_lines_added_and_removed_are_told_apart(base, tmp_path):
    new = edited(tmp_path, ("policies/stage1.yaml", "      money += 1\n      score += 1\n", "      money += 1\n"),
                 ("policies/stage1.yaml", "      economy += 1\n", "      economy += 1\n      score += 1\n"))
    assert words(diff(base, new)) == ["市场 (market): effect text changed (line 3)",
                                      "彩票 (lottery): effect text changed (old line 3 removed)"]


def test_new_and_removed_cards_are_named_with_where_the_new_one_is(base, tmp_path):
    new = edited(tmp_path, ("policies/later.yaml", "- {id: tower", NEW_CARD.strip() + "\n- {id: tower"),
                 ("policies/later.yaml",
                  "- {id: palace, name: 宫殿, stage: 3, price: 8, copies: 2, effect: \"on play:\\n  score += 5\\n\"}\n", ""))
    assert words(diff(base, new)) == ["new policy card 地雷 (landmine) (policies/later.yaml:2)",
                                      "removed policy card 宫殿 (palace) (or no longer in the decks, as when marked tbd)"]


def test_flavor_and_notes_are_named_not_quoted(base, tmp_path):
    new = edited(tmp_path, ("policies/stage1.yaml", "  flavor: 为了纪念\n", "  flavor: 为了永远纪念\n  notes: 试试看\n"))
    assert words(diff(base, new)) == ["纪念碑 (monument): flavor text changed", "纪念碑 (monument): notes changed"]


def test_rules_keys_are_named_by_their_path(base, tmp_path):
    new = edited(tmp_path, ("rules.yaml", "max_rounds: 6\n", "max_rounds: 5\ntracks:\n  medical: {min: 0, max: 15, start: 7}\n"))
    assert words(diff(base, new)) == ["rules.yaml max_rounds: 6 → 5", "rules.yaml tracks.medical.start: 5 → 7"]


def test_recorded_parts_name_the_changed_files_and_cards(base, tmp_path):
    new = edited(tmp_path, ("policies/stage1.yaml", "  price: 4\n", "  price: 6\n"),
                 ("policies/later.yaml", "- {id: tower", NEW_CARD.strip() + "\n- {id: tower"))
    assert changed_parts(parts(base), parts(new)) == [
        "files changed / 文件有改动: policies/later.yaml, policies/stage1.yaml",
        "cards / 卡牌: 雕像 (statue) changed 有改动, 地雷 (landmine) added 新增"]
    assert changed_parts(parts(base), parts(base)) == []
    assert changed_parts(None, parts(base)) == [], "a batch from before parts were recorded names nothing"
