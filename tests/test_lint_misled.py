"""Lint says what is actually wrong (issue 18, "Lint also misled"): each case is a line a designer wrote
as another language would write it, and the message they see names the real problem and its fix —
never "a reserved word… choose another name", never a did-you-mean of the word already written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from rulekit.diagnostics.codes import R
from tests.effect_seen import seen

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "language.md"



def only(src: str, kind: str = "policy") -> tuple[str, int, int, str, str | None]:
    found = seen(src, kind)
    assert len(found) == 1, found
    return found[0]


def never_reserved(found) -> None:
    for _, _, _, message, hint in found:
        assert "reserved word" not in message and "choose another name" not in (hint or "")


@pytest.mark.parametrize("line, word", [
    ("skip contagion", "skip"), ("shield hand, money", "shield"), ("modify new_mild by -1", "modify"),
    ("seal border", "seal")])
def test_a_declaration_inside_a_handler_is_told_to_go_to_the_top_level(line, word):
    found = only(f"on play:\n  money += 1\n  {line}\n")
    code, row, col, message, hint = found
    assert (code, row, col) == (R.EFFECT_SYNTAX, 3, 3)
    assert message == f"`{line}` is a declaration: declarations go at the top level of the effect, not inside a handler"
    assert hint is not None and hint.startswith(f"move `{line}` to its own unindented line, outside the handler")
    never_reserved([found])


def test_a_declaration_inside_a_handler_leaves_the_rest_of_the_handler_checked():
    found = seen("on play:\n  skip contagion\n  money += nosuch\n")
    assert [(c, r) for c, r, *_ in found] == [(R.EFFECT_SYNTAX, 2), (R.UNKNOWN_NAME, 3)]


def test_take_it_in_an_unsold_handler_says_the_card_is_still_in_hand_not_did_you_mean_take():
    code, row, col, message, hint = only("when unsold:\n  take it\n")
    assert (code, row, col) == (R.VERB_WRONG_KIND, 2, 3)
    assert message == "`take` moves an amount between players, not `it`: the card `it` is still in your hand"
    assert hint is not None and "`take 1 card`" in hint and "write `discard it`" in hint
    assert "did you mean" not in message


def test_on_game_start_names_the_handlers_there_are_not_did_you_mean_game():
    code, row, col, message, hint = only("on game start:\n  money += 1\n")
    assert (code, row, col) == (R.UNKNOWN_HANDLER, 1, 9)
    assert message == "there is no `on game start`: the game's handler is `on game end`"
    assert hint is not None and "`on setup:`" in hint and "`on round start:`" in hint
    assert "did you mean 'game'" not in message


def test_no_did_you_mean_ever_suggests_the_word_written():
    from rulekit.language.checker import unknown_word
    message, _ = unknown_word("take", {"take": object(), "give": object()}, "verb")
    assert message == "unknown verb 'take': the language has no such word"


@pytest.mark.parametrize("head", ["once when", "when"])
def test_a_condition_where_a_trigger_goes_is_told_to_check_it_in_a_handler(head):
    found = only(f"{head} money > 5:\n  policy += 1\n")
    code, row, _, message, hint = found
    assert (code, row) == (R.EFFECT_SYNTAX, 1)
    assert message == f"`{head} money > 5`: `{head}` takes a trigger (a moment such as `death` or `unsold`), not a condition"
    assert hint is not None and "`on round end:` then `if money > 5:`" in hint
    assert hint.startswith("for the first time it holds, write `once when becomes money > 5:` (docs/language.md 5.41)")
    never_reserved([found])


def test_when_other_unsold_is_now_the_language_s_own_construct():
    """`when other unsold` hears another player's offer going unsold (docs/language.md 5.35): it reads clean."""
    assert seen("when other unsold:\n  money += 1\n") == []
    assert seen("once when other unsold:\n  money += 1\n") == []


def test_another_player_s_moment_a_card_cannot_hear_is_named_with_the_ones_it_can():
    found = only("when other reveal:\n  money += 1\n")
    assert found == (R.OTHER_MOMENT, 1, 6, "`when other reveal`: a card hears another player's unsold offer, cure and "
                     "play, not their reveal", "write `when reveal:` for your own; another player's: `other unsold`, "
                     "`other cure`, `other play`")
    never_reserved([found])


def test_react_other_says_a_card_in_hand_reacts_only_to_its_owner_s_moments():
    found = only("react other unsold:\n  money += 1\n")
    assert found == (R.OTHER_MOMENT, 1, 1, "`react other unsold`: a card in hand reacts only to its owner's own moments",
                     "write `when other unsold:` on a card in play, or `react unsold:` for your own")
    never_reserved([found])


def test_me_dot_money_says_there_is_no_dot_and_how_to_read_my_own_value():
    found = only("on play:\n  each other player:\n    money += me.money\n")
    assert found[:3] == (R.EFFECT_SYNTAX, 3, 14)
    assert found[3] == "`me.money`: the language has no '.', and `me` only opens a block (`me:`)"
    assert found[4] is not None and "`let mine = money`" in found[4]
    never_reserved([found])


def test_modify_a_track_with_a_negative_floor_reports_the_track_not_the_number():
    code, row, col, message, hint = only("modify policy by 1 min -5\n")
    assert (code, row, col) == (R.EFFECT_SYNTAX, 1, 8)
    assert message.startswith("`modify policy`: 'policy' is a track, and `modify` changes a quantity")
    assert hint is not None and 'a floor on a track ("policy cannot fall below -5") is not in the language yet' in hint
    assert "expected a whole number" not in message


def test_a_negative_floor_on_a_quantity_says_the_floor_is_0_or_more_and_reads_on():
    found = seen("modify new_mild by 1 min -5\non play:\n  money += nosuch\n")
    assert found[0][:4] == (R.EFFECT_SYNTAX, 1, 26, "`min -5`: the floor of `modify` is a whole number of 0 or more")
    assert [c for c, *_ in found] == [R.EFFECT_SYNTAX, R.UNKNOWN_NAME]


def test_an_events_unknown_track_never_suggests_counters():
    code, _, _, message, hint = only("on resolve:\n  each player:\n    foo += 1\n", kind="event")
    assert code == R.UNKNOWN_TRACK and message == "unknown track 'foo': the language has no such word"
    assert "counters" not in (hint or "")
    policy_hint = only("on play:\n  foo += 1\n")[4]
    assert policy_hint is not None and "`counters: {foo: 0}`" in policy_hint     # a policy may keep one


def test_it_without_a_trigger_lists_every_trigger_that_gives_it():
    code, _, _, message, hint = only("on play:\n  money += it\n")
    assert code == R.IT_WITHOUT_TRIGGER and message == "`it` means nothing here"
    assert hint is not None
    for trigger in ("cure", "event", "play", "unsold", "reveal mild", "death severe"):
        assert f"`when {trigger}`" in hint


@pytest.mark.parametrize("cond, always", [("money > money", "false"), ("money == money", "true"),
                                          ("policy + 1 < policy + 1", "false")])
def test_a_value_compared_with_itself_warns_always_true_or_false(cond, always):
    code, row, col, message, _ = only(f"on resolve:\n  each player where {cond}:\n    policy -= 1\n", kind="event")
    assert (code, row, col) == (R.SELF_COMPARISON, 2, 21)
    left = cond.split(" ")[0] if "+" not in cond else "policy + 1"
    assert message.endswith(f"compares {left} with itself, so it is always {always}")


def test_comparing_with_a_noted_value_is_not_a_self_comparison():
    assert seen("on play:\n  let mine = money\n  each other player where money > mine:\n    money -= 1\n") == []


# ---- the docs ------------------------------------------------------------------------------------

def _code_ranges() -> list[tuple[str, int, int]]:
    section = DOC.read_text(encoding="utf-8").split("## 11. 诊断代码")[1]
    return [(p, int(a), int(b)) for p, a, b in re.findall(r"^\| ([A-Z]{2})(\d{3})–[A-Z]{2}(\d{3}) \|", section, re.M)]


def test_the_docs_list_of_codes_covers_every_code_and_ends_each_range_at_a_real_code():
    ranges = _code_ranges()
    codes = [(r.code[:2], int(r.code[2:])) for r in R]
    uncovered = [f"{p}{n:03}" for p, n in codes if not any(p == q and a <= n <= b for q, a, b in ranges)]
    assert not uncovered, f"docs/language.md section 11 does not cover {uncovered}"
    real = set(codes)
    for p, a, b in ranges:
        assert (p, a) in real and (p, b) in real, f"{p}{a:03}–{p}{b:03} does not begin and end at a code"
    assert ("RK", 15) in codes       # the note every new card without `copies:` gets is in a range


def _doc_card(heading: str) -> dict:
    text = DOC.read_text(encoding="utf-8")
    assert heading in text, f"docs/language.md has no section {heading!r}"
    section = text.split(heading, 1)[1].split("\n### ", 1)[0]
    block = re.search(r"```yaml\n(.*?)```", section, re.S)
    assert block is not None
    return yaml.safe_load(block.group(1))[0]


@pytest.mark.parametrize("heading, scenario", [
    ("### 9.20 数自己的语句翻出了什么 · Counting what my own statement revealed", "140_counter_counts_own_reveal"),
    ("### 9.21 给任意张手牌 · Give any number of cards", "141_give_any_number_of_cards"),
    ("### 9.22 条件第一次成立时，只做一次 · Once, the first time a condition holds", "142_once_when_a_condition_first_holds"),
])
def test_each_recipe_is_the_card_its_scenario_proves(heading, scenario):
    card = _doc_card(heading)
    path = ROOT / "tests" / "scenarios" / f"{scenario}.scenario.yaml"
    proven = yaml.safe_load(path.read_text(encoding="utf-8"))["cards"][0]
    assert card["effect"] == proven["effect"]
    assert card.get("counters") == proven.get("counters")


def test_rk213s_documentation_names_every_trigger_that_gives_it():
    from rulekit.diagnostics.texts import DOCS

    what = DOCS[R.IT_WITHOUT_TRIGGER].what
    for trigger in ("reveal", "death", "cure", "event", "play", "unsold"):
        assert f"`{trigger}" in what, trigger
