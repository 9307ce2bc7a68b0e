"""Declarations by source, outbound seals, `while` and floors/ceilings (issue 18: "Shields and seals by
source", "Conditions that hold while true"): what the checker tells a designer who writes them wrong, and
what the core does with them (the games themselves: tests/scenarios/360-369, and tests/fixtures/reach in
test_evaluators_agree)."""

from __future__ import annotations

import pytest

from pathlib import Path

from rulekit import registry
from rulekit.agents import estgen
from rulekit.agents import estimate as E
from rulekit.content.loader import load_content
from rulekit.diagnostics.codes import R
from rulekit.language import ast
from tests.effect_seen import seen

SOURCES_HINT = ("write `from events`, `from combos` or `from players` (other players' cards), or several: "
                "`from events, combos`; without `from` the shield stops all three")
LIMIT_HINT = ("`floor TRACK N` holds one of medical, disease, policy, score, economy; to keep money, "
              "write `shield money`")



@pytest.mark.parametrize("src", [
    "shield medical from events\n",
    "shield hand, money from events, combos\n",
    "shield policy from players while money < 5\n",
    "seal border\n", "seal border in\n", "seal border out\n", "seal border both while infected > 2\n",
    "modify income by 2 while policy >= 3\n",
    "skip contagion while disease >= 11\n",
    "floor policy -5\n", "ceiling medical 8\n", "floor score 0 while played(\"医院扩容\")\n",
])
def test_the_new_declarations_read_clean(src):
    assert seen(src) == []


def test_a_misspelt_shield_source_gets_its_did_you_mean():
    assert seen("shield medical from event\n") == [
        (R.UNKNOWN_SHIELD_SOURCE, 1, 21, "unknown shield source 'event' — did you mean 'events' (事件)?", SOURCES_HINT)]


def test_policies_as_a_source_is_told_the_word_is_players():
    assert seen("shield medical from policies\n") == [
        (R.UNKNOWN_SHIELD_SOURCE, 1, 21,
         "`from policies` is not a source a shield knows: other players' cards are `from players`", SOURCES_HINT)]


def test_a_misspelt_border_direction_gets_its_did_you_mean():
    assert seen("seal border ot\n") == [(
        R.UNKNOWN_SEAL_DIRECTION, 1, 13, "unknown border direction 'ot' — did you mean 'out' (出境)?",
        "write `seal border` (or `seal border in`) to keep others' contagion out, `seal border out` to keep mine "
        "in, `seal border both` for both")]


def test_a_floor_on_money_is_refused_and_a_misspelt_track_gets_its_guess():
    assert seen("floor money 3\n") == [(
        R.LIMIT_NOT_A_TRACK, 1, 7, "`floor money`: only a track can have a floor, and money is not one "
        "(tracks: medical, disease, policy, score, economy)", LIMIT_HINT)]
    assert seen("ceiling polcy 5\n") == [(
        R.LIMIT_NOT_A_TRACK, 1, 9, "unknown track 'polcy' — did you mean 'policy' (政策)?",
        LIMIT_HINT.replace("`floor TRACK N`", "`ceiling TRACK N`"))]


def test_while_needs_a_condition():
    assert seen("modify income by 2 while policy\n") == [
        (R.NEEDS_CONDITION, 1, 26, "`while` needs a true/false condition, but this is a number",
         "compare it, such as `money > 0`")]


def test_an_unknown_name_in_while_is_reported_where_it_stands():
    (code, row, col, message, _), = seen("shield money while mony < 5\n")
    assert (code, row, col) == (R.UNKNOWN_NAME, 1, 20) and "'mony'" in message and "'money'" in message


def test_a_floor_in_an_event_is_refused_by_its_own_word():
    found = seen("floor policy 1\non resolve:\n  each player:\n    money += 1\n", "event")
    assert [(c, m) for c, _, _, m, _ in found] == [
        (R.HANDLER_NOT_FOR_KIND, "an event cannot have `floor`: only advisors and policies stay in play to use it")]


def test_a_floor_inside_a_handler_is_told_to_move_and_that_while_exists():
    (code, row, col, message, hint), = seen("on play:\n  floor policy 3\n")
    assert (code, row, col) == (R.EFFECT_SYNTAX, 2, 3)
    assert message == ("`floor policy 3` is a declaration: declarations go at the top level of the effect, "
                       "not inside a handler")
    assert hint is not None and hint.endswith("to make it hold only while a condition is true, end it with "
                                              "`while COND`)")


@pytest.mark.parametrize("word", ["while", "floor", "ceiling"])
def test_the_new_words_are_reserved(word):
    assert word in registry.KEYWORDS
    (code, _, _, message, _), = seen(f"on play:\n  let {word} = 1\n")
    assert code == R.EFFECT_SYNTAX and message == f"'{word}' is a reserved word of the language, so it cannot be a name here"


def test_a_shield_without_from_stops_every_source_as_before():
    from rulekit.interpreter.program import ALL_SOURCES
    assert ALL_SOURCES == frozenset({"events", "combos", "players"}) == frozenset(registry.SHIELD_SOURCES)



@pytest.fixture(scope="module")
def reach():
    return load_content(Path(__file__).parent / "fixtures" / "reach")


@pytest.mark.parametrize("cid, word", [("storm_cellar", "`shield … from`"), ("export_ban", "`seal border out`"),
                                       ("boom_years", "`while`"), ("safety_net", "`floor`/`ceiling`"),
                                       ("night_watch", "`while`")])
def test_the_bots_name_the_new_declarations_as_ones_the_reading_cannot_value(reach, cid, word):
    """Which changes a source, a condition or a bound touches depends on how the game goes, which the reading does
    not follow: such a card is measured by the lookahead (and named by RK244), in both estimates alike."""
    why = [str(u) for u in E.unreadable(reach.lookup(cid))]
    assert why and why[0].startswith(word), (cid, why)
    assert estgen.of(reach.lookup(cid)).unreadable == E.unreadable(reach.lookup(cid))


def test_a_plain_shield_is_still_valued_by_the_reading(reach):
    plain = [c for c in reach.cards if c.effect is not None and any(
        isinstance(i, ast.Shield) and not i.sources and i.cond is None for i in c.effect.items)]
    assert plain and all(E.unreadable(c) == () for c in plain)


# ---- lasting marks from events (`mark`, `marks`) ------------------------------------------------------------------

POISON = "on resolve:\n  each player:\n    mark\non round end:\n  medical -= marks\n"


def test_a_marking_event_reads_clean_and_may_have_phase_handlers():
    assert seen(POISON, "event") == []
    assert seen("on resolve:\n  each player:\n    mark 2\non game end:\n  score -= marks\n", "event") == []


def test_mark_outside_an_event_is_refused():
    assert seen("on play:\n  mark\n") == [(
        R.MARK_MISUSED, 2, 3, "`mark` leaves an event's mark on players, and this is a policy",
        "a policy or advisor that lasts is already in play: give it `on PHASE start:` handlers or declarations; "
        "or keep a number on it with `counters:`")]


def test_mark_in_a_marking_event_s_phase_handler_is_refused():
    found = seen("on resolve:\n  each player:\n    mark\non round end:\n  mark\n", "event")
    assert found == [(R.MARK_MISUSED, 5, 3, "`mark` goes in the event's `on resolve:`, when the event happens",
                      "its `on PHASE start|end` handlers run for the players who carry the mark already")]


def test_mark_needs_a_player_and_at_least_one_stack():
    assert [c for c, *_ in seen("on resolve:\n  mark\n", "event")] == [R.NO_PLAYER]
    assert seen("on resolve:\n  each player:\n    mark 0\n", "event") == [(
        R.MARK_MISUSED, 3, 10, "`mark 0` leaves no mark: the number of stacks is 1 or more",
        "write `mark` for one stack, `mark 2` for two")]


def test_marks_in_a_card_that_leaves_no_mark_is_refused():
    assert seen("on play:\n  money += marks\n") == [(
        R.MARK_MISUSED, 2, 12, "`marks` counts the stacks of this event's mark, and this card leaves no mark",
        "in an event that writes `mark` in its `on resolve:`, `marks` is how many stacks the player carries")]


def test_an_event_s_phase_handler_without_a_mark_is_told_about_mark():
    found = seen("on resolve:\n  each player:\n    money += 1\non round end:\n  each player:\n    medical -= 1\n",
                 "event")
    assert found == [(R.HANDLER_NOT_FOR_KIND, 4, 1,
                      "an event cannot have `on round end`: only advisors and policies stay in play to use it",
                      "an event's `on PHASE start|end` runs only for the players carrying its mark: leave one with "
                      "`mark` inside `each player:` in `on resolve:` (docs/language.md 4, `mark`)")]


@pytest.fixture(scope="module")
def poisoned(reach):
    """A reach game played to its end in which 毒雾 poison_fog came twice: every seat carries 2 stacks."""
    from rulekit.engine import new_game

    log: list = []
    game = new_game(reach, 3, ["random"], players=4, log=log)
    game.run()
    assert [r["stacks"] for r in log if r["e"] == "mark" and r["seat"] == 0] == [1, 2]
    return game


def test_marks_are_public_on_every_seat_s_view(poisoned):
    for seat in range(4):
        view = poisoned.observation(seat)
        assert [view.marks(s) for s in range(4)] == [{"poison_fog": 2}] * 4


def test_marks_are_cloned_saved_and_kept_by_determinize(poisoned, reach):
    import random

    from rulekit.core.determinize import determinize
    from rulekit.core.state import GameState

    copy = poisoned.clone()
    copy.state.seats[0].marks["poison_fog"] = 1
    assert poisoned.state.seats[0].marks == {"poison_fog": 2}, "a clone shares no mark with its game"
    assert copy.info_key(1) != poisoned.info_key(1), "a seat can tell two states apart by their marks"
    saved = poisoned.state.to_json()
    assert GameState.from_json(saved, reach).to_json() == saved
    assert [p.marks for p in GameState.from_json(saved, reach).seats] == [{"poison_fog": 2}] * 4
    drawn = determinize(poisoned, 1, random.Random(5))
    assert [p.marks for p in drawn.state.seats] == [{"poison_fog": 2}] * 4


def test_the_view_of_the_page_shows_the_marks(poisoned):
    from rulekit.serve.view import page

    shown = page(poisoned.observation(0))
    assert [[(m["id"], m["stacks"]) for m in s["marks"]] for s in shown["seats"]] == [[("poison_fog", 2)]] * 4
