"""The greedy agent's shortcuts decide as the plain reading of its rules would.

It draws its tie-breaks without random.Random.choice, and reads the action menu from both ends
only; if either assumption broke, its games would change without any rule changing.
"""

from __future__ import annotations

import random

from rulekit.agents.greedy import GreedyAgent
from rulekit.core.game import Game


def test_tie_breaks_draw_as_random_choice():
    """below(n) picks the index random.Random.choice would, and leaves the generator in the same state."""
    agent = GreedyAgent(7, 1)
    reference = random.Random()
    for n in [1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 26, 33, 100] * 40:
        reference.setstate(agent.rng.getstate())
        want = reference.choice(range(n))
        assert agent.below(n) == want
        assert agent.rng.getstate() == reference.getstate()


class MenuReader(GreedyAgent):
    """A greedy player that checks, at each action, that the menu holds relocations only in one run
    between the burials and the cards: what the agent skips without reading."""

    def __init__(self, seed: int, seat: int, seen: list):
        super().__init__(seed, seat)
        self.seen = seen

    def on_action(self, obs, q):
        verbs = [o[0] for o in q.options]
        moves = [k for k, v in enumerate(verbs) if v == "relocate"]
        if moves:
            assert moves == list(range(moves[0], moves[-1] + 1))
            assert set(verbs[:moves[0]]) <= {"pass", "bury"}
            assert set(verbs[moves[-1] + 1:]) <= {"play", "execute", "switch"}
            self.seen.append(len(moves))
        return super().on_action(obs, q)


def test_the_action_menu_keeps_relocations_together(content):
    seen: list[int] = []
    for seed, players in ((1, 4), (2, 3), (3, 2)):
        Game.new(content, seed, [MenuReader(seed, s, seen) for s in range(players)], players=players).run()
    assert len(seen) > 20, "the games must have offered relocations"
