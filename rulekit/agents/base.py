"""The one chooser interface: every decision the rules give a player is a Question with legal answers."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Protocol

from rulekit.core.board import MILD, idx

# Question kinds and what their options are:
#   advisor   card ids                     strategy  1, 2, 3
#   action    ("pass",) ("bury", cell) ("relocate", cell, cell) ("play", id) ("execute", id) ("switch", id)
#   treat     cells and "done"             cell      cells (discovery, contagion, deaths, worsening, verbs)
#   amount    whole numbers (`any`, `up to`)   choose    whole numbers (`choose NAME from A to B`)
#   may       True, False (`may`, `may pay`)   react     True, False (a reaction offer)
#   keep      card ids (cards kept after a draw)   discard   card ids (down to the hand limit)
#   offer     card ids and None (exchange)     bid       whole numbers from 0
#   arrange   cells (where the planner places a tile whose front it has seen)
# Cells are (row, col) tuples.
QUESTION_KINDS = ("advisor", "strategy", "action", "treat", "cell", "amount", "choose", "may",
                  "react", "keep", "discard", "offer", "bid", "arrange")


@dataclass(frozen=True)
class Question:
    kind: str
    seat: int
    options: tuple
    card: str | None = None     # id of the card whose effect asks, if any
    text: str = ""              # what is being decided, for people and logs


class Chooser(Protocol):
    """Whoever answers a seat's questions: a script, a bot, a person."""

    name: str

    def choose(self, game: Any, question: Question) -> Any:
        """Return one of question.options."""


class DefaultChooser:
    """The scenario default (shared/spec/scenarios.md 'Choices'): predictable, never clever."""

    name = "default"

    def choose(self, game, q: Question):
        kind, opts = q.kind, q.options
        if kind == "action":
            return ("pass",)
        if kind == "offer":
            return None
        if kind == "bid":
            return 0
        if kind in ("amount", "choose", "strategy"):
            return max(opts)
        if kind == "treat":
            return default_treatment(game, opts)
        return opts[0]


def default_treatment(game, opts):
    """As many mild as fit, then severe (cells come in reading order)."""
    for o in opts:
        if o != "done" and game.board[idx(*o)] == MILD:
            return o
    for o in opts:
        if o != "done":
            return o
    return "done"


class RandomAgent:
    """Uniform over the legal answers, with its own seeded generator."""

    name = "random"

    def __init__(self, seed: int, seat: int):
        self.rng = random.Random(f"random-agent:{seed}:{seat}")

    def choose(self, game, q: Question):
        return q.options[self.rng.randrange(len(q.options))]
