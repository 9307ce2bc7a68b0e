"""A seat sees only what docs/rules.md lets it see, and whoever answers cannot change the game (issue 17).

Each hole found by search agents written against the old Observation has a test: an agent that tries it gets
nothing hidden, and the game it plays is the game a plain agent with the same answers plays.
"""

from __future__ import annotations

import random

import pytest

from rulekit.agents import RandomAgent, make_agent
from rulekit.core.errors import RuleViolation
from rulekit.core.observation import Observation
from rulekit.core.questions import Ask
from rulekit.engine import new_game
from rulekit.play import log_lines

SEED = 7


def _mutable_or_game(value: object) -> bool:
    """True for what would let a chooser reach or change the game: the game, its state, a list, dict, set."""
    name = type(value).__name__
    return name in ("Game", "GameState", "SeatState", "Entry", "Cursor") or isinstance(value, (list, dict, set, bytearray))


def _reachable(obs: Observation) -> list[tuple[str, object]]:
    """Every value an observation gives by its attributes (properties read, nothing called)."""
    out = []
    for name in dir(obs):
        if name.startswith("__"):
            continue
        value = getattr(obs, name)
        if not callable(value):
            out.append((name, value))
    return out


class Prober:
    """A random agent that first tries every hole of issue 17 and keeps what each attempt gave."""

    name = "prober"

    def __init__(self, seat: int):
        self.inner = RandomAgent(SEED, seat)
        self.seat = seat
        self.got: list[tuple[str, object]] = []     # (hole, what it gave) for every attempt that gave anything

    def attempt(self, hole: str, f) -> None:
        try:
            got = f()
        except (AttributeError, TypeError, RuleViolation):
            return
        self.got.append((hole, got))

    def choose(self, obs, q) -> int:
        other = (self.seat + 1) % obs.players
        self.attempt("obs._game", lambda: obs._game)
        self.attempt("obs.__dict__", lambda: obs.__dict__)
        self.attempt("obs.seat = other", lambda: setattr(obs, "seat", other))
        for field in ("hand", "drawn_ids", "advisor", "played_ids", "advisor_counters"):
            self.attempt(f"track(other, {field})", lambda f=field: obs.track(other, f))
        if obs.phase == "setup":
            self.attempt("quantity(other) in the draft", lambda: obs.quantity(other, "final_penalty", 0))
            if obs.advisor(other) is not None:
                self.got.append(("advisor(other) in the draft", obs.advisor(other)))
        self.attempt("obs.seed", lambda: obs.seed)
        self.attempt("board[0] = x", lambda: obs.board.__setitem__(0, 0))
        for e in obs.tableau(self.seat):
            self.attempt("entry.uses = 9", lambda e=e: setattr(e, "uses", 9))
            self.attempt("entry.counters[x] = 9", lambda e=e: e.counters.__setitem__("x", 9))
        self.attempt("q.options = ...", lambda: setattr(q, "options", ()))
        if q.kind is Ask.ACTION:
            # the menu it is handed is its own copy: changing it changes nothing the game reads (the logs below)
            q.options.dead = q.options.residents = q.options.empties = (0,)
            self.attempt("menu.rest.append", lambda: q.options.rest.append(None))
        else:
            self.attempt("options[0] = ...", lambda: q.options.__setitem__(0, None))
        for name, value in _reachable(obs):
            if _mutable_or_game(value):
                self.got.append((f"obs.{name} is live", value))
        return self.inner.choose(obs, q)


@pytest.mark.parametrize("players", [2, 4])
def test_an_agent_trying_every_hole_gets_nothing_and_plays_the_same_game(content, players):
    log_plain: list = []
    game = new_game(content, SEED, ["random"], players=players, log=log_plain)
    game.choosers = [RandomAgent(SEED, s) for s in range(players)]
    game.run()
    log_probed: list = []
    probed = new_game(content, SEED, ["random"], players=players, log=log_probed)
    probers = [Prober(s) for s in range(players)]
    probed.choosers = probers
    probed.run()
    assert [got for p in probers for got in p.got] == []
    assert log_lines(log_probed) == log_lines(log_plain)
    assert probed.state.over and probed.state.round > 1


def test_the_seat_of_a_view_is_fixed_and_each_sees_its_own_hand(content):
    game = new_game(content, SEED, ["random"], players=3)
    game.run_round()
    obs = game.observation(0)
    with pytest.raises(AttributeError):
        obs.seat = 1  # type: ignore[misc]
    assert obs.seat == 0
    assert obs.hand == tuple(game.state.seats[0].hand)
    assert game.observation(1).hand == tuple(game.state.seats[1].hand)
    assert not hasattr(obs, "_game") and not hasattr(obs, "__dict__")


def test_the_draft_is_face_down_until_every_advisor_is_kept(content):
    game = new_game(content, SEED, ["random"], players=3)
    q = game.pending()
    assert q is not None and q.kind is Ask.ADVISOR and q.seat == 0
    game.answer(0)                                     # P1 keeps one; P2 is asked next
    p2 = game.observation(1)
    assert game.state.seats[0].advisor is not None
    assert p2.advisor(0) is None
    assert p2.counters(0, game.state.seats[0].advisor.id) is None
    with pytest.raises(RuleViolation):
        p2.quantity(0, "final_penalty", 0)
    while game.pending() is not None and game.pending().kind is Ask.ADVISOR:
        game.answer(0)
    assert p2.advisor(0) is game.state.seats[0].advisor      # face up once all are kept
    assert p2.quantity(0, "final_penalty", 0) == game.quantity(0, "final_penalty", 0, None, note=False)


def test_other_seats_fields_are_public_only_where_the_rules_say(content):
    game = new_game(content, SEED, ["random"], players=2)
    game.run_round()
    obs = game.observation(0)
    assert obs.track(1, "money") == game.state.seats[1].money
    assert obs.hand_size(1) == len(game.state.seats[1].hand)
    for hidden in ("hand", "drawn_ids"):
        with pytest.raises(RuleViolation, match="not public"):
            obs.track(1, hidden)


def test_agents_are_handed_generators_not_the_seed(content):
    seed = 123456789
    for name in ("random", "greedy", "default"):
        agent = make_agent(name, seed, 1)
        kept = [v for v in vars(agent).values()] if hasattr(agent, "__dict__") else []
        assert not any(v == seed or (isinstance(v, str) and str(seed) in v) for v in kept), name
    # ...yet a game is still a pure function of its seed: the same seed gives the same agents' answers
    a, b = make_agent("greedy", seed, 1), make_agent("greedy", seed, 1)
    assert a.rng.random() == b.rng.random()
    assert random.Random(f"greedy:{seed}:1").random() == make_agent("greedy", seed, 1).rng.random()


def test_options_are_values_and_the_answer_indexes_the_rules_own_set(content):
    game = new_game(content, SEED, ["random"], players=2)
    game.setup()
    seen = []
    while (q := game.pending()) is not None and len(seen) < 300:
        seen.append(q.kind)
        if q.kind is Ask.ACTION:
            assert isinstance(q.options.dead, tuple) and isinstance(q.options.rest, tuple)
        assert not isinstance(q.options, list)
        with pytest.raises(AttributeError):
            q.options = ()                                        # type: ignore[misc]
        game.answer(0)
    assert Ask.ACTION in seen and Ask.CELL in seen
