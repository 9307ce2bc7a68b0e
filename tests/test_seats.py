"""Seats and turn order, others' moments and predicates (issue 18): what the checker tells a designer who
writes them wrong, and that the constructs reach both evaluators (the games themselves: tests/scenarios/340-359,
and tests/fixtures/reach/policies/reach_seats.yaml in test_evaluators_agree)."""

from __future__ import annotations

import pytest

from rulekit import registry
from rulekit.diagnostics.codes import R
from tests.test_cells import seen


# ---- 5.34 seats and turn order ---------------------------------------------------------------------------------
@pytest.mark.parametrize("src, kind", [
    ("on play:\n  player after me:\n    take 1 money\n  player before me:\n    give 1 money\n", "policy"),
    ("on play:\n  first player:\n    score += 1\n  money += turn\n", "policy"),
    ("on resolve:\n  first player:\n    money += 2\n  each player where turn >= 3:\n    medical += 1\n", "event"),
])
def test_players_by_turn_order_read_clean(src, kind):
    assert seen(src, kind) == []


def test_a_misspelt_after_gets_its_did_you_mean_at_the_word():
    assert seen("on play:\n  player aftr me:\n    money += 1\n") == [(
        R.SEAT_WORD, 2, 10, "unknown place in turn order 'aftr' — did you mean 'after' (下家)?",
        "write `player after me:` or `player before me:`")]


def test_a_misspelt_first_gets_its_did_you_mean():
    assert seen("on play:\n  frist player:\n    money += 1\n") == [(
        R.SEAT_WORD, 2, 3, "unknown place in turn order 'frist' — did you mean 'first' (先手玩家)?",
        "write `first player:`, `player after me:`, `player before me:` or (in `when other …`) `that player:`")]


def test_a_word_that_is_no_place_gets_no_guess():
    (code, _, _, message, _), = seen("on play:\n  last player:\n    money += 1\n")
    assert code == R.SEAT_WORD and message == "unknown place in turn order 'last': the language has no such word"


@pytest.mark.parametrize("src, message, hint", [
    ("on play:\n  before player:\n    money += 1\n", "the player before me is written `player before me:`",
     "write `player before me:`"),
    ("on play:\n  player first me:\n    money += 1\n", "the first player is written `first player:`, not `player first me:`",
     "write `first player:`"),
])
def test_the_two_forms_swapped_are_told_apart(src, message, hint):
    assert seen(src) == [(R.SEAT_WORD, 2, 3 if src.startswith("on play:\n  before") else 10, message, hint)]


def test_an_event_has_no_owner_to_be_after():
    assert seen("on resolve:\n  player after me:\n    money += 1\n", "event") == [(
        R.SEAT_WORD, 2, 3, "`player after me:` needs the card's owner, and an event has none",
        "an event can name `first player:`, or reach players through `each player:`")]


def test_turn_is_a_player_s_value_and_a_value_the_game_provides():
    assert [c for c, *_ in seen("on resolve:\n  each player:\n    money += turn\n", "event")] == []
    assert (R.NO_PLAYER, 2, 12) in [(c, r, k) for c, r, k, *_ in seen("on resolve:\n  money += turn\n", "event")]
    assert "turn" in registry.VALUES


def test_the_compiled_calls_name_the_place():
    from rulekit.content.loader import load_content
    from rulekit.interpreter.program import compile_card
    from tests.conftest import ROOT

    reach = load_content(ROOT / "tests" / "fixtures" / "reach")
    code = compile_card(reach.lookup("round_table"), "compiled").code
    assert code is not None
    for which in ("after", "before", "first"):
        assert f"= rt.seat_player(f, {which!r})\n" in code.source
    assert "rt.turn(" in code.source


def test_the_ring_passes_over_players_out_and_wraps():
    from types import SimpleNamespace

    from rulekit.interpreter.runtime import Runtime

    def at(order, owner, which, skip=frozenset()):
        rt = Runtime.__new__(Runtime)
        rt.g = SimpleNamespace(in_order=lambda: order)
        return rt.seat_player(SimpleNamespace(owner=owner, skip=skip), which)

    assert at((1, 2, 3, 0), 0, "after") == 1                 # the last one's next is the first player
    assert at((1, 2, 3, 0), 1, "before") == 0                # the first one's previous is the last
    assert at((1, 3, 0), 1, "after") == 3                    # seat 2 is out: passed over
    assert at((1, 3, 0), 0, "first") == 1
    assert at((0,), 0, "after") is None and at((0,), 0, "before") is None
    assert at((1, 2, 3, 0), 0, "first", skip=frozenset({1})) is None


# ---- 5.35 other players' moments ---------------------------------------------------------------------------------
@pytest.mark.parametrize("src", [
    "when other unsold:\n  money += 1\n",
    "when other cure:\n  infect it\n  cure 1 mild next to it\n",
    "when other play:\n  that player:\n    take 1 money\n",
    "once when other play:\n  that player:\n    me:\n      money += 1\n",
])
def test_other_players_moments_read_clean(src):
    assert seen(src) == []


def test_the_other_triggers_bind_it_as_their_own_do():
    for word in registry.OTHER_TRIGGERS:
        assert registry.TRIGGERS[word].binds == registry.TRIGGERS[word.split(" ", 1)[1]].binds
        assert not registry.TRIGGERS[word].preventable


def test_discard_it_in_another_s_unsold_is_refused():
    assert seen("when other unsold:\n  discard it\n") == [(
        R.OTHER_MOMENT, 2, 3, "`discard it` in `when other unsold`: the card is in another player's hand, and you can "
        "discard only your own", "act on the player whose card it is with `that player:` (5.35)")]


@pytest.mark.parametrize("src, row, col, message, hint", [
    ("when cure:\n  that player:\n    money += 1\n", 2, 3,
     "`that player:` is the player whose moment a `when other …` hears, and this is no such handler",
     "write it under `when other unsold:`, `when other cure:` or `when other play:`"),
    ("when other cure:\n  after 1 rounds:\n    that player:\n      money += 1\n", 3, 5,
     "`that player:` inside `after` comes rounds later, when the moment is over", "put `that player:` directly in the handler"),
])
def test_that_player_outside_its_moment_is_refused(src, row, col, message, hint):
    assert seen(src) == [(R.OTHER_MOMENT, row, col, message, hint)]


def test_a_misspelt_other_trigger_gets_its_did_you_mean():
    (code, row, col, message, _), = seen("when other cur:\n  money += 1\n")
    assert (code, row, col) == (R.UNKNOWN_TRIGGER, 1, 6)
    assert message == "unknown trigger 'other cur' — did you mean 'other cure' (他人治愈)?"


def test_a_content_without_other_triggers_listens_for_none():
    from rulekit.content.loader import load_content
    from rulekit.interpreter.program import Program
    from tests.conftest import CONTENT, ROOT

    assert Program(load_content(CONTENT), {}, "compiled").hears_other == frozenset()
    reach = Program(load_content(ROOT / "tests" / "fixtures" / "reach"), {}, "compiled")
    assert reach.hears_other == {"unsold", "cure", "play"}
