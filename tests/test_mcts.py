"""The mcts agent: searches from determinizations, counts its budget in iterations, plugs in wherever agents do."""

from __future__ import annotations

import json

import pytest

from rulekit.agents import make_agent, seat_agents
from rulekit.agents.mcts import DEFAULT_ITERATIONS, END
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
    assert make_agent("mcts", 1, 0).iterations == DEFAULT_ITERATIONS
    agent = make_agent("mcts:40:horizon=end:rollout=random", 1, 2)
    assert (agent.iterations, agent.horizon, agent.rollout_policy, agent.ms, agent.seat) == (40, END, "random", None, 2)
    assert make_agent("mcts:30ms", 1, 0).ms == 30.0
    assert make_agent("mcts:8:horizon=2", 1, 0).horizon == 2
    for bad in ("mcts:0", "mcts:x", "greedy:5", "mcts:8:rollout=smart", "mcts:8:horizon=soon"):
        with pytest.raises(ValueError, match="budget"):
            make_agent(bad, 1, 0)


def test_mcts_compares_candidates_in_the_same_worlds_and_keeps_greedy_unless_beaten(content):
    """Every candidate is played in every world (the budget is split among them), the true game is never searched
    by the honest agent, and with a margin no search can clear it answers as greedy does."""
    game = new_game(content, 11, ["mcts:6", "greedy"], players=2)
    agent = game.choosers[0]
    seen_worlds: list = []
    agent.worlds = lambda obs, rng, players: seen_worlds.append(rng.random()) or obs.forecast(players, rng)
    while (q := game.pending()) is not None and agent.searched < 4:
        k = game.choosers[q.seat].choose(game.observation(q.seat), q)
        game.answer(k)
    assert agent.searched == 4 and agent.rollouts >= 8
    assert len(seen_worlds) * 2 <= agent.rollouts          # each world served two candidates or more
    timid = new_game(content, 11, ["mcts:4", "greedy"], players=2)
    import rulekit.agents.mcts as M

    margin, M.PRIOR_MARGIN = M.PRIOR_MARGIN, 2.0            # scores are 0..1: nothing beats greedy by 2
    try:
        timid.run()
    finally:
        M.PRIOR_MARGIN = margin
    assert timid.choosers[0].changed == 0 and timid.choosers[0].searched > 10
