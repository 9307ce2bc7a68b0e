"""The greedy agent's shortcuts decide as the plain reading of its rules would, and cost no memory.

It draws its tie-breaks without random.Random.choice, and reads the action menu from both ends
only; if either assumption broke, its games would change without any rule changing. Its
estimates, generated once per card, go when the card's content goes.
"""

from __future__ import annotations

import random

from rulekit.agents.greedy import GreedyAgent
from rulekit.core.game import Game
from tests.conftest import CONTENT


def test_tie_breaks_draw_as_random_choice():
    """below(n) picks the index random.Random.choice would, and leaves the generator in the same state."""
    agent = GreedyAgent(7, 1)
    reference = random.Random()
    for n in [1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 26, 33, 100] * 40:
        reference.setstate(agent.rng.getstate())
        want = reference.choice(range(n))
        assert agent.below(n) == want
        assert agent.rng.getstate() == reference.getstate()


def test_best_picks_as_the_plain_rule():
    """best() is `rng.choice` over the options within 1e-9 of the top, with the same draws: near ties
    of floats included, and whole numbers (where only equals tie) taken the short way."""
    agent, reference = GreedyAgent(3, 0), random.Random()
    pick = random.Random(11)
    for _ in range(400):
        n = pick.randint(1, 9)
        whole = pick.random() < 0.5
        if whole:
            values = [pick.randint(-3, 3) for _ in range(n)]
        else:
            values = [pick.choice([0.25, 1, 1.0 - 1e-10, 2.5, 2.5 + 5e-10, -0.0, 0.0]) for _ in range(n)]
        indexes = sorted(pick.sample(range(40), n)) if pick.random() < 0.5 else None
        reference.setstate(agent.rng.getstate())
        low = max(values) - 1e-9
        want = reference.choice([k for v, k in zip(values, indexes or range(n)) if v >= low])
        assert agent.best(values, indexes, whole=whole) == want, values
        assert agent.rng.getstate() == reference.getstate()


RANK = {"pass": 0, "bury": 1, "relocate": 2, "play": 3, "execute": 3, "switch": 3}


class MenuReader(GreedyAgent):
    """A greedy player that checks, at each action, that the menu is pass, then burials, then
    relocations, then cards: the agent reads it from both ends and skips the relocations unread."""

    def __init__(self, seed: int, seat: int, seen: list):
        super().__init__(seed, seat)
        self.seen = seen

    def on_action(self, obs, q):
        ranks = [RANK[o[0]] for o in q.options]
        assert ranks[0] == 0 and 0 not in ranks[1:] and ranks == sorted(ranks), [o[0] for o in q.options]
        self.seen.append(ranks.count(2))
        return super().on_action(obs, q)


def test_the_action_menu_keeps_relocations_together(content):
    seen: list[int] = []
    for seed, players in ((1, 4), (2, 3), (3, 2)):
        Game.new(content, seed, [MenuReader(seed, s, seen) for s in range(players)], players=players).run()
    assert sum(1 for n in seen if n) > 20, "the games must have offered relocations"


def test_a_dropped_content_takes_its_compiled_estimates_along():
    """Playtests and notebooks load content again and again: the per-card estimates must not keep
    old cards (and their generated code) alive."""
    import gc
    import weakref

    from rulekit.agents import estgen
    from rulekit.content.loader import load_content

    content = load_content(CONTENT)
    for card in content.cards:
        estgen.of(card)
    watched, made, before = weakref.ref(content.cards[0]), len(content.cards), len(estgen._cache)
    del content, card
    gc.collect()
    assert watched() is None
    assert len(estgen._cache) <= before - made
