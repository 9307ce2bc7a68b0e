"""An untrusted chooser in a worker process: it plays as it would in process, and finds no game in its memory."""

from __future__ import annotations

import pytest

from rulekit.agents import make_agent
from rulekit.agents.worker import WorkerChooser, plain_observation
from rulekit.core.errors import RuleViolation
from rulekit.engine import make_game
from tests.worker_bots import Prober


def _play(content, chooser):
    game = make_game(content, 7, [make_agent("greedy", 7, 0), chooser], players=2)
    game.run()
    return game


def test_a_worker_chooser_plays_as_in_process_and_sees_plain_data_only(content):
    in_process = Prober(1, probe=False)
    inside = _play(content, in_process)
    assert in_process.found_a_game()          # in the game's process, gc reaches the game: why workers exist
    with WorkerChooser("tests.worker_bots:make", 1) as worker:
        outside = _play(content, worker)
    assert outside.state.over
    # the prober answers -1 (refused by the game) if it finds a Game in its process: it did not
    assert [p.score for p in outside.state.seats] == [p.score for p in inside.state.seats]
    assert outside.state.to_json() == inside.state.to_json()


def test_a_plain_observation_holds_no_object_of_the_game(content):
    game = make_game(content, 3, [make_agent("greedy", 3, 0), make_agent("greedy", 3, 1)], players=2)
    while (q := game.pending()) is not None and q.kind.value != "action":
        game.answer(game.choosers[q.seat].choose(game.observation(q.seat), q))
    plain = plain_observation(game.observation(0))
    def walk(v):
        if isinstance(v, dict):
            for k, x in v.items():
                walk(k)
                walk(x)
        elif isinstance(v, (tuple, list)):
            for x in v:
                walk(x)
        else:
            assert v is None or type(v) in (int, str, bool, float), f"{type(v).__name__} in a plain observation"
    walk(vars(plain))
    assert plain.hand == tuple(c.id for c in game.observation(0).hand) and plain.seat == 0


def test_a_worker_that_fails_is_told_in_words(content):
    with WorkerChooser("tests.worker_bots:no_such_function", 1, timeout=20) as worker, \
            pytest.raises(RuleViolation, match="P2's worker chooser"):
        _play(content, worker)
    with pytest.raises(ValueError, match="module:function"):
        WorkerChooser("nocolon", 0)
