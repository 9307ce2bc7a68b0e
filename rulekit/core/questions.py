"""Decisions: every choice the rules give a player is a Question with typed options, answered by index.

A chooser (a script, a bot, a person) sees only an Observation of what its seat may see, never
the live game; it returns the index of one option.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import NamedTuple, Protocol

from rulekit.core import board as B
from rulekit.core.observation import Observation  # the sealed view lives in core/observation.py


class Ask(enum.StrEnum):
    """What a question is about (and what its options are)."""

    ADVISOR = "advisor"      # card ids: the advisor to keep
    STRATEGY = "strategy"    # 1, 2, 3: the draw strategy
    ACTION = "action"        # Action values
    TREAT = "treat"          # Cells and "done"
    CELL = "cell"            # Cells (discovery, contagion, deaths, worsening, board verbs)
    AMOUNT = "amount"        # whole numbers (`any`, `up to`)
    CHOOSE = "choose"        # whole numbers (`choose NAME from A to B`)
    MAY = "may"              # True, False (`may`, `may pay`)
    REACT = "react"          # True, False (play a card as a reaction)
    KEEP = "keep"            # card ids (cards kept after a draw)
    DISCARD = "discard"      # card ids (down to the hand limit)
    OFFER = "offer"          # card ids and None (the exchange)
    BID = "bid"              # whole numbers from 0
    ARRANGE = "arrange"      # Cells (where the planner places a tile whose front it has seen)
    PLAYER = "player"        # seats (`choose player:`), 0 for P1
    GIVE = "give"            # card ids (a card the subject gives away)


class Cell(NamedTuple):
    """A cell of the board: (row, col), 0-based, row 0 at the top."""

    row: int
    col: int


CELLS = tuple(Cell(*B.RC[i]) for i in range(B.SIZE * B.SIZE))
DONE = "done"


class Action(tuple):
    """An action of the action phase: ("pass",), ("bury", cell), ("relocate", from, to),
    ("play", card id), ("execute", card id) or ("switch", card id)."""

    __slots__ = ()
    VERBS = ("pass", "bury", "relocate", "play", "execute", "switch")

    @property
    def verb(self) -> str:
        return self[0]

    @property
    def card(self) -> str | None:
        return self[1] if self[0] in ("play", "execute", "switch") else None


PASS = Action(("pass",))


class Question:
    """A decision one seat must take: its kind, its options (a sequence, possibly a range), and why."""

    __slots__ = ("card", "kind", "options", "seat", "text")
    kind: Ask
    seat: int
    options: Sequence
    card: str | None
    text: str

    def __init__(self, kind: Ask, seat: int, options: Sequence, card: str | None = None, text: str = ""):
        setattr_ = object.__setattr__     # a question is a value: its options cannot be changed by whoever answers
        setattr_(self, "kind", kind)
        setattr_(self, "seat", seat)
        setattr_(self, "options", tuple(options) if type(options) is list else options)
        setattr_(self, "card", card)      # id of the card whose effect asks, if any
        setattr_(self, "text", text)      # what is being decided, for people and logs

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a Question cannot be changed ('{name}')")

    def __repr__(self) -> str:
        return f"Question({self.kind.value}, P{self.seat + 1}, {len(self.options)} options, {self.text!r})"


class Chooser(Protocol):
    """Whoever answers a seat's questions: a script, a bot, a person."""

    name: str

    def choose(self, obs: Observation, q: Question) -> int:
        """The index of one of q.options."""
