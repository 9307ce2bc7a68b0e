"""The mcts agent: searches from determinizations, counts its budget in iterations, plugs in wherever agents do."""

from __future__ import annotations

import json

import pytest

from rulekit.agents import make_agent, seat_agents
from rulekit.engine import new_game
from rulekit.play import log_lines


def _play(content, agents, seed=3):
    log: list = []
    game = new_game(content, seed, agents, players=2, log=log)
    game.run()
    return game, log_lines(log)


def test_mcts_is_deterministic_for_a_seed_and_budget_and_searches(content):
    game, first = _play(content, ["mcts:2", "greedy"])
    _, again = _play(content, ["mcts:2", "greedy"])
    assert first == again
    agent = game.choosers[0]
    assert game.state.over and agent.name == "mcts" and agent.iterations == 2
    assert agent.searched > 10                      # it searched the decisions that matter, not only answered greedily
    _, other_budget = _play(content, ["mcts:3", "greedy"])
    assert other_budget != first                    # the budget changes the play (the searches differ)


def test_mcts_searches_copies_and_leaves_the_true_game_untouched(content):
    game = new_game(content, 5, ["mcts:3", "random"], players=2)
    mcts = game.choosers[0]
    searched = 0
    while (q := game.pending()) is not None and searched < 3:
        agent = game.choosers[q.seat]
        before = json.dumps(game.state.to_json(), sort_keys=True)
        was = getattr(agent, "searched", 0)
        k = agent.choose(game.observation(q.seat), q)
        assert json.dumps(game.state.to_json(), sort_keys=True) == before
        searched += getattr(agent, "searched", 0) - was
        game.answer(k)
    assert searched == 3 and mcts.searched == 3


def test_mcts_names_and_budgets(content):
    assert seat_agents(["mcts:50", "greedy"], 2) == ["mcts:50", "greedy"]
    assert make_agent("mcts", 1, 0).iterations == 16
    for bad in ("mcts:0", "mcts:x", "greedy:5"):
        with pytest.raises(ValueError, match="budget"):
            make_agent(bad, 1, 0)
