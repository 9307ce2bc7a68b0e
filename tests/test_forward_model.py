"""The core as a forward model: a state that clones exactly, saves to JSON and back, stops at each decision,
and shows each seat only what that seat may see."""

from __future__ import annotations

import json

import pytest

from rulekit.agents import make_agent
from rulekit.core import board as B
from rulekit.core.game import Game
from rulekit.core.questions import Ask
from rulekit.core.state import GameState
from rulekit.engine import make_game


def new(content, seed: int, agents=("random",) * 4, log=None) -> Game:
    return make_game(content, seed, [make_agent(a, seed, s) for s, a in enumerate(agents)], log=log)


def answer_with_choosers(game: Game, n: int) -> list[int]:
    """Answer the next n top-level decisions with the game's own choosers; the indexes given."""
    given = []
    for _ in range(n):
        q = game.pending()
        if q is None:
            break
        k = game.choosers[q.seat].choose(game.observation(q.seat), q)
        given.append(k)
        game.answer(k)
    return given


class Replay:
    """Answers from a list of indexes (top-level and nested decisions alike), in order."""

    name = "replay"

    def __init__(self, answers: list[int]):
        self.answers = answers

    def choose(self, obs, q) -> int:
        return self.answers.pop(0)


class Recorder:
    """Wraps a chooser and keeps every index it gives."""

    name = "recorder"

    def __init__(self, inner, sink: list):
        self.inner, self.sink = inner, sink

    def choose(self, obs, q) -> int:
        k = self.inner.choose(obs, q)
        self.sink.append(k)
        return k


def final(game: Game) -> dict:
    return game.state.to_json()


@pytest.mark.parametrize("seed", [3, 11])
def test_a_clone_played_on_with_the_same_answers_gives_the_same_game(content, seed):
    game = new(content, seed, ("greedy", "random", "default", "greedy"))
    answer_with_choosers(game, 150)
    twin = game.clone()
    answers: list[int] = []
    game.choosers = [Recorder(c, answers) for c in game.choosers]
    game.run()
    twin.choosers = [Replay(answers)] * 4
    twin.run()
    assert final(twin) == final(game)
    assert twin.state.end_reason == game.state.end_reason and twin.winners() == game.winners()


def test_a_clone_is_independent_of_its_original(content):
    game = new(content, 5)
    answer_with_choosers(game, 80)
    before = final(game)
    twin = game.clone()
    twin.run()
    assert twin.state.over and not game.state.over
    assert final(game) == before, "playing the clone on changed nothing of the original"


def test_a_state_saved_to_json_and_loaded_plays_on_as_the_original(content):
    game = new(content, 8)
    answer_with_choosers(game, 120)
    text = json.dumps(game.state.to_json(), ensure_ascii=False, sort_keys=True)
    restored = Game(game.program, game.rules, GameState.from_json(json.loads(text), content), [])
    answers: list[int] = []
    game.choosers = [Recorder(c, answers) for c in game.choosers]
    game.run()
    restored.choosers = [Replay(answers)] * 4
    restored.run()
    assert final(restored) == final(game)


def test_the_game_stops_at_each_top_level_decision_and_changes_nothing_until_answered(content):
    game = new(content, 2)
    seen = set()
    for _ in range(300):
        q = game.pending()
        assert q is not None
        frozen = json.dumps(final(game), sort_keys=True)
        assert game.pending() is q, "asking again gives the same decision"
        assert json.dumps(final(game), sort_keys=True) == frozen, "a pending decision changes nothing"
        twin = game.clone()
        assert twin.pending().kind is q.kind and list(twin.pending().options) == list(q.options)
        seen.add(q.kind)
        game.answer(game.choosers[q.seat].choose(game.observation(q.seat), q))
    assert {Ask.ADVISOR, Ask.STRATEGY, Ask.ACTION, Ask.TREAT, Ask.CELL, Ask.OFFER, Ask.BID} <= seen


def test_a_wrong_index_is_refused_and_the_decision_stays(content):
    from rulekit.core.errors import RuleViolation

    game = new(content, 4)
    q = game.pending()
    with pytest.raises(RuleViolation):
        game.answer(len(q.options))
    assert game.pending() is q


def test_an_observation_shows_no_tile_front_and_no_other_hand(content):
    game = new(content, 6)
    answer_with_choosers(game, 200)
    obs = game.observation(0)
    assert B.TILE_I not in obs.board, "a face-down tile shows no front"
    assert any(c == B.TILE for c in obs.board)
    assert obs.hand == tuple(game.state.seats[0].hand)
    public = {name for name in dir(obs) if not name.startswith("_")}
    assert not public & {"state", "fronts", "decks", "event_deck", "seats", "rng"}
    assert obs.hand_size(1) == len(game.state.seats[1].hand), "others' hands are seen only as a size"


def test_the_advisor_draft_is_face_down(content):
    """While advisors are being kept, a seat sees its own choice but not the others'; after, all."""
    game = new(content, 6)
    game.answer(0)                              # P1 keeps an advisor
    q = game.pending()
    assert q.kind is Ask.ADVISOR and q.seat == 1
    assert game.state.seats[0].advisor is not None
    assert game.observation(1).advisor(0) is None, "P2 chooses without seeing P1's advisor"
    assert game.observation(0).advisor(0) is game.state.seats[0].advisor
    answer_with_choosers(game, 3)
    assert game.pending().kind is not Ask.ADVISOR
    assert game.observation(1).advisor(0) is game.state.seats[0].advisor


def test_clone_is_a_small_part_of_a_game(content):
    """Not a timing: a clone copies data only (no compiled cards, no choosers' state, no log)."""
    game = new(content, 1, log=[])
    answer_with_choosers(game, 100)
    twin = game.clone()
    assert twin.program is game.program and twin.log is None
    assert twin.state.board is not game.state.board and twin.state.seats[0].hand is not game.state.seats[0].hand


def test_a_clone_with_its_own_choosers_leaves_the_original_its_own_game(content):
    """Playing a copy on with its own choosers changes nothing of the game the original goes on to play."""
    plain = new(content, 4)
    plain.run()
    game = new(content, 4)
    answer_with_choosers(game, 60)
    twin = game.clone(choosers=[make_agent("random", 99, s) for s in range(4)])
    twin.run()
    game.run()
    assert final(game) == final(plain)


def test_only_players_still_in_are_handed_a_decision(content):
    """An out player's board still spreads, but pending() answers its picks itself: a loop over
    pending() and each seat's chooser plays the very game run() plays. Seeds 75 and 179 (random
    players) are games where an out player's board has cells to pick; the log says so."""
    for seed in (75, 179):
        log: list = []
        whole = new(content, seed, log=log)
        whole.run()
        out: set[int] = set()
        picked_for_out = False
        for r in log:
            out.update([r["seat"]] if r["e"] == "out" else [])
            picked_for_out = picked_for_out or (r["e"] == "ask" and r["seat"] in out)
        assert picked_for_out, f"seed {seed} no longer has an out board with a pick: choose another seed"
        game = new(content, seed)
        while (q := game.pending()) is not None:
            assert not game.state.seats[q.seat].out, f"seed {seed}: P{q.seat + 1} is out and was asked {q.kind}"
            game.answer(game.choosers[q.seat].choose(game.observation(q.seat), q))
        assert final(game) == final(whole), f"seed {seed}"


def test_a_game_cannot_be_copied_while_an_effect_asks(engine_content):
    """A question inside a card's effect is half a step: a copy from there would run the step again."""
    from rulekit.core.errors import RuleViolation

    tried = []

    class CloneWhenAskedInAnEffect:
        name = "cloner"

        def choose(self, obs, q):
            if q.card is not None and not tried:
                with pytest.raises(RuleViolation, match="top-level decision"):
                    game.clone()
                tried.append(q.kind)
            return 0

    game = make_game(engine_content, 1, [CloneWhenAskedInAnEffect()] * 4)
    game.run()
    assert tried, "no card effect asked anything: the test would prove nothing"


def test_every_field_of_the_state_is_saved(content):
    """A field added to the state but forgotten in to_json would be lost by every save and clone test
    that does not happen to change it: the saved keys are exactly the fields."""
    from rulekit.core.state import Entry, SeatState

    game = new(content, 6)
    answer_with_choosers(game, 250)
    data = game.state.to_json()
    assert set(data) == set(GameState.__slots__)
    seat = next(s for s in data["seats"] if s["tableau"])
    assert set(seat) == set(SeatState.__slots__)
    assert set(seat["tableau"][0]) == set(Entry.__slots__)


def test_a_copied_step_record_has_every_field_and_shares_no_list():
    """A clone keeps each phase's place: every field of every step record is copied, and changing the copy's
    list (the actions taken) leaves the original as it was."""
    from dataclasses import fields

    from rulekit.core import steps

    for cls in steps.KINDS.values():
        values = {f.name: ([1, 2] if f.name == "taken" else (3,) if "tuple" in str(f.type) else 7)
                  for f in fields(cls)}
        original = cls(**values)
        twin = steps.copy(original)
        assert twin == original and twin is not original, cls.__name__
        for f in fields(cls):
            if isinstance(getattr(original, f.name), list):
                getattr(twin, f.name).append(9)
                assert getattr(original, f.name) == [1, 2], f"{cls.__name__}.{f.name} is shared by the copy"
