"""The event deck and its history (issue 18): `foresee N events`, `arrange N events`, `reshuffle AMOUNT events`
and `event("名")` — what the checker tells a designer who writes them wrong, that only the seat that looked sees
the events (its history, its sealed observation), that a determinized copy keeps them in place, and that a
reshuffle returns past events to the deck (the games themselves: tests/scenarios/323-325, and
tests/fixtures/reach in test_evaluators_agree)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rulekit import registry
from rulekit.agents import estimate as E
from rulekit.content.loader import load_content
from rulekit.core.errors import EffectError
from rulekit.core.handlers import Frame
from rulekit.core.phases.events import resolve_event
from rulekit.diagnostics.codes import R
from rulekit.engine import new_game
from tests.effect_seen import seen as effect_seen

REACH = Path(__file__).resolve().parent / "fixtures" / "reach"


def seen(src: str, kind: str = "policy", events=("plague", "疫", "strike", "罢")) -> list[tuple]:
    """What lint shows, with two events (plague 疫, strike 罢) in the content."""
    def refs(k: str, ref: str) -> bool:
        return k == "event" and ref in events
    return effect_seen(src, kind, refs, card_names={"event": ["疫", "罢"]})


@pytest.mark.parametrize("src", [
    "on play:\n  foresee 3 events\n",
    "on play:\n  arrange 2 events as n\n  money += n\n",
    "on play:\n  reshuffle all events\n",
    "on play:\n  reshuffle 1 events as back\n  score += back\n",
    "on round end:\n  if event(\"疫\"):\n    policy -= 1\n",
])
def test_the_event_deck_reads_clean(src):
    assert seen(src) == []


def test_an_event_reshuffles_without_a_player_but_a_look_needs_one():
    assert seen("on resolve:\n  reshuffle 2 events\n", "event") == []
    assert seen("on resolve:\n  foresee 2 events\n", "event") == [(
        R.NO_PLAYER, 2, 3, "`foresee … events` needs a player, but an event has no player here",
        "put it inside `each player:` or `player with …:`")]


def test_a_look_without_a_ceiling_is_reported_at_its_number():
    assert seen("on play:\n  foresee money events\n") == [(
        R.FORESEE_LIMIT, 2, 11, "`foresee money events`: the events one look may see must be 0 to 10, but money can "
        "come to 9,999 here: the game stops with an error when it passes", "write `foresee min(money, 10) events`, "
        "or a number")]
    assert seen("on play:\n  arrange 11 events\n") == [(
        R.FORESEE_LIMIT, 2, 11, "`arrange 11 events`: the events one look may see must be 0 to 10",
        "write a number from 0 to 10")]


def test_the_wrong_amount_or_thing_is_told_the_form():
    assert seen("on play:\n  foresee all events\n") == [(
        R.VERB_WRONG_KIND, 2, 11, "`foresee` needs a number of events", "write `foresee 3 events`")]
    assert seen("on play:\n  reshuffle any events\n") == [(
        R.VERB_WRONG_KIND, 2, 13, "`reshuffle` takes a number of past events, or `all`",
        "write `reshuffle 2 events` or `reshuffle all events`")]
    assert seen("on play:\n  foresee 2 cards\n") == [(
        R.VERB_WRONG_KIND, 2, 13, "`foresee` works on the event deck, not 'cards'", "write `foresee 2 events`")]


def test_a_misspelt_verb_and_a_misspelt_event_get_their_did_you_mean():
    (code, line, col, message, _), = seen("on play:\n  forsee 2 events\n")
    assert (code, line, col, message) == (R.UNKNOWN_VERB, 2, 3, "unknown verb 'forsee' — did you mean 'foresee' (预见)?")
    (code, line, col, message, _), = seen("on round end:\n  if event(\"疾\"):\n    policy -= 1\n")
    assert (code, line, col) == (R.UNKNOWN_CARD, 2, 12) and message.startswith("there is no event '疾'")


@pytest.fixture(scope="module")
def reach():
    return load_content(REACH)


def _game(reach):
    game = new_game(reach, 4, ["default"], players=4)
    game.pending()
    return game


def _top(game, k):
    return tuple(c.id for c in game.state.event_deck[-k:][::-1])


def test_only_the_seat_that_looked_sees_the_events(reach):
    game = _game(reach)
    top = _top(game, 3)
    assert game.look_at_events(Frame(reach.lookup("oracle"), 0), 0, 3, False) == 3
    assert _top(game, 3) == top                                  # foresee leaves the order
    assert game.observation(0).foreseen() == top
    assert all(game.observation(s).foreseen() == () for s in (1, 2, 3))
    assert ("foresaw", top) in game.seen_by(0)
    for s in range(4):
        assert ("looked", 0, 3, False) in game.seen_by(s)
        assert s == 0 or not any(e[0] == "foresaw" for e in game.seen_by(s))


def test_a_determinized_copy_keeps_what_the_seat_saw_in_place(reach):
    game = _game(reach)
    top = _top(game, 3)
    game.look_at_events(Frame(reach.lookup("oracle"), 0), 0, 3, False)
    theirs = set()
    for r in range(12):
        mine = game.determinize(0, random.Random(r))
        assert _top(mine, 3) == top and mine.info_key(0) == game.info_key(0)
        assert sorted(c.id for c in mine.state.event_deck) == sorted(c.id for c in game.state.event_deck)
        theirs.add(_top(game.determinize(1, random.Random(r)), 3))
    assert len(theirs) > 1, "a seat that did not look gets the top dealt again"


def test_draws_another_seat_s_reordering_and_a_reshuffle_wear_the_knowledge_away(reach):
    game = _game(reach)
    top = _top(game, 4)
    game.look_at_events(Frame(reach.lookup("oracle"), 0), 0, 4, False)
    resolve_event(game, game.state.event_deck.pop())             # the next event drawn
    assert game.observation(0).foreseen() == top[1:]
    game.look_at_events(Frame(reach.lookup("oracle"), 1), 1, 2, True)
    assert game.observation(0).foreseen() == (None, None, top[3])
    assert game.observation(1).foreseen() == _top(game, 2)
    before = len(game.state.event_deck)
    assert game.reshuffle_events(Frame(reach.lookup("rewind"), 0), None) == 1
    assert len(game.state.event_deck) == before + 1 and game.state.history == []
    assert all(game.observation(s).foreseen() == () for s in range(4))
    assert ("reshuffled", 1) in game.seen_by(2)


def test_a_look_past_its_ceiling_stops_with_a_plain_error(reach):
    game = _game(reach)
    with pytest.raises(EffectError, match="a look at the event deck sees 0 to 10 events"):
        game.look_at_events(Frame(reach.lookup("oracle"), 0), 0, registry.MAX_FORESEE + 1, True)


def test_the_reading_names_the_event_deck_as_a_construct_it_cannot_value(reach):
    for cid in ("oracle", "rewind"):
        why = [str(u) for u in E.unreadable(reach.lookup(cid))]
        assert len(why) == 1 and "`foresee`, `arrange … events` or `reshuffle … events`" in why[0], (cid, why)
