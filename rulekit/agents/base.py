"""Built-in choosers beside the default one: the random agent. (The chooser interface lives in the core.)"""

from __future__ import annotations

import random

from rulekit.core.default import DefaultChooser
from rulekit.core.questions import Ask, Chooser, Observation, Question

__all__ = ["Ask", "Chooser", "DefaultChooser", "Observation", "Question", "RandomAgent"]


class RandomAgent:
    """Uniform over the legal answers, with its own seeded generator; it never reads the menu it picks from."""

    name = "random"

    def __init__(self, seed: int, seat: int):
        self.rng = random.Random(f"random-agent:{seed}:{seat}")
        # randrange(n) for n > 0 is _randbelow(n): the same numbers, without randrange's checks.
        self._below = self.rng._randbelow  # type: ignore[attr-defined]

    def choose(self, obs: Observation, q: Question) -> int:
        return self._below(len(q.options))

    def fork(self) -> RandomAgent:
        """An exact copy: its generator is copied, so its future answers equal this agent's."""
        twin = RandomAgent.__new__(RandomAgent)
        twin.rng = random.Random()
        twin.rng.setstate(self.rng.getstate())
        twin._below = twin.rng._randbelow  # type: ignore[attr-defined]
        return twin
