"""Chance (issue 18, "Chance"): `roll(N)` and `roll(N, rerolls K)` — what the checker tells a designer who
writes them wrong, that every roll comes from the game's one generator and shows in the log and the public
history, that a reroll is a question of its own kind, and how the bots read it (the games themselves:
tests/scenarios/320-322, and tests/fixtures/reach in test_evaluators_agree)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulekit.agents import estgen
from rulekit.agents import estimate as E
from rulekit.content.loader import load_content
from rulekit.core.errors import EffectError
from rulekit.core.history import PUBLIC
from rulekit.core.questions import KINDS, Ask, answer_problem
from rulekit.diagnostics.codes import R
from rulekit.engine import new_game
from rulekit.language.checker import check_condition
from rulekit.language.parser import Origin, parse_expression
from tests.effect_seen import seen

REACH = Path(__file__).resolve().parent / "fixtures" / "reach"



@pytest.mark.parametrize("src", [
    "on play:\n  money += roll(6)\n",
    "on play:\n  let r = roll(6, rerolls 2)\n  score += r\n",
    "on play:\n  money += roll(min(money, 6) + 1)\n",
    "on play:\n  repeat roll(3):\n    money += 1\n",
    "when cure:\n  if roll(2) == 2:\n    money += 1\n",
])
def test_a_die_reads_clean(src):
    assert seen(src) == []


def test_an_event_rolls_without_a_player_but_rerolls_need_one():
    assert seen("on resolve:\n  each player:\n    disease += roll(3)\n", "event") == []
    assert seen("on resolve:\n  let r = roll(3)\n  each player:\n    disease += r\n", "event") == []
    assert seen("on resolve:\n  let r = roll(3, rerolls 1)\n", "event") == [(
        R.NO_PLAYER, 2, 11, "roll(…, rerolls K) lets a player roll again, but an event has no player here",
        "use it inside `each player:` or `player with …:`")]


def test_a_die_without_a_ceiling_is_reported_at_its_number():
    assert seen("on play:\n  money += roll(money)\n") == [(
        R.ROLL_LIMIT, 2, 17, "`roll(money)`: the sides of a die must be 1 to 100, but money can come to 9,999 here: "
        "the game stops with an error when it passes", "write `roll(min(money, 100))`, or a number")]


def test_a_die_of_no_sides_and_too_many_rerolls():
    assert seen("on play:\n  money += roll(0)\n") == [(
        R.ROLL_LIMIT, 2, 17, "`roll(0)`: the sides of a die must be 1 to 100", "write a number from 1 to 100")]
    assert seen("on play:\n  money += roll(6, rerolls 11)\n") == [(
        R.ROLL_LIMIT, 2, 28, "`rerolls 11`: the rerolls of a die must be 0 to 10", "write a number from 0 to 10")]
    (code, line, col, message, hint), = seen("on play:\n  money += roll(6, rerolls hand)\n")
    assert (code, line, col) == (R.ROLL_LIMIT, 2, 28)
    assert message == ("`rerolls hand`: the rerolls of a die must be 0 to 10, but hand has no ceiling here: the game "
                       "stops with an error when it passes")
    assert hint == "write `rerolls min(hand, 10)`, or a number"


def test_rerolls_written_as_a_second_number_is_told_the_form():
    assert seen("on play:\n  money += roll(6, 2)\n") == [(
        R.WRONG_ARGUMENTS, 2, 12, "roll() takes 1 value, got 2",
        "write roll(6), or roll(6, rerolls 1) to let the player roll again")]


def test_a_die_in_a_declaration_or_a_condition_is_refused():
    assert seen("modify new_mild by roll(2)\n") == [(
        R.ROLL_OUTSIDE_EFFECT, 1, 20, "a die is rolled only in a handler's statements: a declaration or a condition "
        "is read again whenever the game needs it, and would roll again each time",
        "roll in a handler (`on play:`, `when …:`), and change the track there")]
    expr, problems = parse_expression("roll(6) > 3", Origin("combo.yaml", 3, 9, 0))
    assert expr is not None and not problems
    (found,) = check_condition(expr, "combo.yaml", None, "a combo's `when:`")
    assert found.code == R.ROLL_OUTSIDE_EFFECT


def test_a_misspelt_rerolls_is_named_by_the_parser():
    assert seen("on play:\n  money += roll(6, reroll 1)\n")[0] == (
        R.EFFECT_SYNTAX, 2, 20, "unknown word 'reroll' — did you mean 'rerolls'?",
        "write `roll(6, rerolls 1)`: the player sees the die and may roll it again once")


def test_reroll_is_a_question_kind_with_its_answer_form():
    assert Ask.REROLL in KINDS and KINDS[Ask.REROLL].scripted == ("bool",)
    assert answer_problem("reroll", True, 4) is None
    assert answer_problem("reroll", 1, 4) == "an answer to the question 'reroll' must be true or false, not 1"


@pytest.fixture(scope="module")
def reach():
    return load_content(REACH)


def _game(reach, seed, agents=("random",), log=None):
    game = new_game(reach, seed, list(agents), players=4, log=log, verbose=log is not None)
    game.run()
    return game


def test_every_roll_is_in_the_log_and_the_public_history_and_the_same_for_the_seed(reach):
    a: list = []
    b: list = []
    game = _game(reach, 3, log=a)
    _game(reach, 3, log=b)
    rolls = [r for r in a if r["e"] == "roll"]
    assert rolls and rolls == [r for r in b if r["e"] == "roll"]
    assert all(1 <= r["value"] <= r["sides"] for r in rolls)
    public = [e[2:] for e in game.state.seen if e[0] == PUBLIC and e[1] == "roll"]
    assert public == [(r["seat"], r["card"], r["sides"], r["value"]) for r in rolls]
    for seat in range(4):        # every seat sees every roll
        assert [e for e in game.seen_by(seat) if e[0] == "roll"] == [("roll", *p) for p in public]
    assert any(r["e"] == "ask" and r["q"] == "reroll" for r in a)


def test_a_roll_draws_from_the_game_s_generator(reach):
    """Two seeds give different dice: the roll is not fixed by the card."""
    values = {tuple(r["value"] for r in log if r["e"] == "roll")
              for seed in (1, 2, 3) for log in [[]] if _game(reach, seed, log=log) is not None}
    assert len(values) == 3


def test_a_scripted_roll_outside_the_die_stops_with_a_plain_error(reach):
    from rulekit.core.handlers import Frame

    game = new_game(reach, 0, ["random"], players=4)
    game.fixed_rolls = [7]
    with pytest.raises(EffectError, match="the scenario's next roll is 7, but this die"):
        game.roll(Frame(reach.lookup("dice_gamble"), 0), 0, 6)
    with pytest.raises(EffectError, match="a die has 1 to 100 sides"):
        game.roll(Frame(reach.lookup("dice_gamble"), 0), 0, 101)


def test_the_reading_values_a_die_at_its_mean(reach):
    from rulekit.language.parser import parse_effect
    from rulekit.model import Card

    game = new_game(reach, 1, ["default"], players=4)
    game.pending()
    snap = E.Snapshot(game.observation(0), 0)
    values = []
    for text in ("money += roll(6)", "money += 3", "money += 4"):
        program, _ = parse_effect(f"on play:\n  {text}\n")
        card = Card(kind="policy", id="d", name="骰", effect=program, price=(0,), stage=1)
        values.append(E.play_value(card, snap)[0])
        assert estgen.of(card).unreadable == ()
    die, three, four = values
    assert three < die < four


def test_greedy_rolls_again_only_when_the_die_shown_reads_worse_than_its_mean(reach):
    """dice_gamble's die is money (high is good); fever's 3 costs policy (high is bad)."""
    from collections import Counter

    answers: Counter = Counter()
    for seed in range(6):
        log: list = []
        _game(reach, seed, ("greedy",), log)
        shown = None
        for r in log:
            if r["e"] == "roll":
                shown = r
            elif r["e"] == "ask" and r["q"] == "reroll":
                answers[shown["card"], shown["value"], r["a"]] += 1
    assert answers and all(again == ((card == "dice_gamble" and v <= 3) or (card == "fever" and v == 3))
                           for card, v, again in answers)
