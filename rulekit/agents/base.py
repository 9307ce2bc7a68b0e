"""Built-in choosers beside the default one: the random agent. (The chooser interface lives in the core.)"""

from __future__ import annotations

import random
from collections.abc import Callable

from rulekit.core.default import DefaultChooser
from rulekit.core.questions import Ask, Chooser, Observation, Question

__all__ = ["Ask", "Chooser", "DefaultChooser", "Observation", "Question", "RandomAgent", "Stream", "seed_streams",
           "stream_of", "sub_stream"]

# A source of an agent's random generators: stream("greedy", seat) is random.Random("greedy:<seed>:<seat>").
# The harness hands an agent a stream, never the game's seed (from which the setup, so the deck orders and the
# tile fronts, could be played again); the seed stays in the stream's closure.
Stream = Callable[..., random.Random]


def seed_streams(seed: object) -> Stream:
    """The stream of a game's seed: stream(prefix, *parts) is random.Random(f"{prefix}:{seed}:{parts joined by :}")."""
    def stream(prefix: str, *parts: object) -> random.Random:
        return random.Random(":".join((prefix, str(seed), *map(str, parts))))
    return stream


def sub_stream(stream: Stream, *inner: object) -> Stream:
    """A stream whose generators are the given one's with `inner` put after the seed (a lookahead's players)."""
    def sub(prefix: str, *parts: object) -> random.Random:
        return stream(prefix, *inner, *parts)
    return sub


def stream_of(seed_or_stream: object) -> Stream:
    """An agent made by hand may still be given a seed (its maker owns it); the harness gives a stream."""
    return seed_or_stream if callable(seed_or_stream) else seed_streams(seed_or_stream)


class RandomAgent:
    """Uniform over the legal answers, with its own seeded generator; it never reads the menu it picks from."""

    name = "random"

    def __init__(self, seed: int | Stream, seat: int):
        self.rng = stream_of(seed)("random-agent", seat)
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
