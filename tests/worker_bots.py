"""Choosers the worker-process tests run in a worker (tests/test_worker_chooser.py): importable by name."""

from __future__ import annotations

import gc


class Prober:
    """Answers the last option, unless it finds any game object in its own process: then an impossible answer."""

    name = "prober"

    def __init__(self, seat: int, probe: bool = True):
        self.seat, self.probe = seat, probe

    def found_a_game(self) -> bool:
        return any(type(o).__name__ in ("Game", "GameState") for o in gc.get_objects())

    def choose(self, obs, q) -> int:
        if self.probe and self.found_a_game():
            return -1
        return len(q.options) - 1


def make(seat: int) -> Prober:
    return Prober(seat)
