"""Decisions: every choice the rules give a player is a Question with typed options, answered by index.

A chooser (a script, a bot, a person) sees only an Observation of what its seat may see, never
the live game; it returns the index of one option.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass
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
    REROLL = "reroll"        # False, True (keep the roll shown, or roll again: `roll(N, rerolls K)`)
    DRAFT = "draft"          # card ids (a card taken from a draft's face-up pool)
    ORDER = "order"          # event card ids (`arrange N events`: which of those looked at is drawn next)


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


# ---- the answer format of every kind of question: one table -------------------------------------------------------
# Read by the log validator and replay (rulekit/play.py: an `ask` record's answer), by scenarios (which
# scripted answer a question takes, and what its trace says it asks), and by the agents' dispatch (one
# `on_KIND` per kind). A kind added to Ask without its Form here fails at import.

def _whole(v: object) -> bool:
    return type(v) is int       # not a bool, not a float such as 3.0


def _cell(v: object) -> bool:
    return isinstance(v, list) and len(v) == 2 and all(_whole(x) and 0 <= x < B.SIZE for x in v)


def _card(v: object) -> bool:
    return isinstance(v, str) and v.strip() != ""


# The arguments of each action, as JSON: cells are lists.
ACTION_ARGS: dict[str, tuple[Callable[[object], bool], ...]] = {
    "pass": (), "bury": (_cell,), "relocate": (_cell, _cell), "play": (_card,), "execute": (_card,), "switch": (_card,),
}


def _action(v: object) -> bool:
    if not (isinstance(v, list) and v and isinstance(v[0], str) and v[0] in ACTION_ARGS):
        return False
    args = ACTION_ARGS[v[0]]
    return len(v) == 1 + len(args) and all(ok(x) for ok, x in zip(args, v[1:], strict=False))


CARD_WORDS = "a card id (a text)"
CELL_WORDS = f"a cell [row, column], each a whole number from 0 to {B.SIZE - 1}"
SEAT_WORDS = "a seat: 0 for P1, 1 for P2 … up to the player count − 1"


@dataclass(frozen=True)
class Form:
    """The answer format of one kind of question."""

    asks: str                               # what the question decides, in words (a scenario's trace)
    answer: str                             # the answer as a log writes it (JSON), in words
    scripted: tuple[str, ...]               # the forms of scripted answer it takes (scenarios' Answer.form)
    check: Callable[[object, int], bool]    # is a JSON answer of this form, at this player count

    def problem(self, kind: str, value: object, players: int) -> str | None:
        """Why a JSON answer is not of this form, in plain words, or None."""
        if self.check(value, players):
            return None
        return f"an answer to the question '{kind}' must be {self.answer}, not {value!r}"


KINDS: dict[Ask, Form] = {
    Ask.ADVISOR: Form("which advisor to keep", CARD_WORDS, ("card",), lambda v, n: _card(v)),
    Ask.STRATEGY: Form("which draw strategy to use (1, 2 or 3)", "one of 1, 2, 3", ("number",),
                       lambda v, n: _whole(v) and v in (1, 2, 3)),
    Ask.ACTION: Form("which action to take, or pass",
                     'an action: ["pass"], ["bury", CELL], ["relocate", CELL, CELL], or ["play" / "execute" / "switch", CARD]',
                     ("pass", "action", "card"), lambda v, n: _action(v)),
    Ask.TREAT: Form("which resident to treat next, or done", f'{CELL_WORDS}, or "done"', ("cell", "done"),
                    lambda v, n: v == "done" or _cell(v)),
    Ask.CELL: Form("which cell", CELL_WORDS, ("cell",), lambda v, n: _cell(v)),
    Ask.AMOUNT: Form("how many", "a whole number, 0 or more", ("number",), lambda v, n: _whole(v) and v >= 0),  # type: ignore[operator]
    Ask.CHOOSE: Form("which number", "a whole number", ("number",), lambda v, n: _whole(v)),
    Ask.MAY: Form("whether to do it (yes or no)", "true or false", ("bool",), lambda v, n: isinstance(v, bool)),
    Ask.REACT: Form("whether to play a card as a reaction (yes or no)", "true or false", ("bool",),
                    lambda v, n: isinstance(v, bool)),
    Ask.KEEP: Form("which card to keep", CARD_WORDS, ("card",), lambda v, n: _card(v)),
    Ask.DISCARD: Form("which card to discard", CARD_WORDS, ("card",), lambda v, n: _card(v)),
    Ask.OFFER: Form("which card to offer in the exchange, or none", f"{CARD_WORDS}, or null", ("card", "none"),
                    lambda v, n: v is None or _card(v)),
    Ask.BID: Form("how much to bid", "a whole number, 0 or more", ("number",), lambda v, n: _whole(v) and v >= 0),  # type: ignore[operator]
    Ask.ARRANGE: Form("where to place a tile", CELL_WORDS, ("cell",), lambda v, n: _cell(v)),
    Ask.PLAYER: Form("which player (P1, P2 …)", SEAT_WORDS, ("player",), lambda v, n: _whole(v) and 0 <= v < n),  # type: ignore[operator]
    Ask.GIVE: Form("which card to give", CARD_WORDS, ("card",), lambda v, n: _card(v)),
    Ask.REROLL: Form("whether to roll the die again (yes or no)", "true or false", ("bool",),
                     lambda v, n: isinstance(v, bool)),
    Ask.DRAFT: Form("which card to take from the draft", CARD_WORDS, ("card",), lambda v, n: _card(v)),
    Ask.ORDER: Form("which of the events looked at is drawn next", CARD_WORDS, ("card",), lambda v, n: _card(v)),
}
assert list(KINDS) == list(Ask), "every kind of question has one Form, in Ask's order"
# Kinds whose answer is a number (a scenario shows their legal answers as a range).
NUMBER_KINDS = frozenset(k for k, f in KINDS.items() if "number" in f.scripted)


def answer_problem(kind: str, value: object, players: int) -> str | None:
    """Why `value` is no answer (as JSON) to a question of `kind`, in plain words, or None."""
    try:
        form = KINDS[Ask(kind)]
    except ValueError:
        return f"'{kind}' is no kind of question: the kinds are {', '.join(k.value for k in Ask)}"
    return form.problem(kind, value, players)


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

    def accepts(self, k: object) -> bool:
        """True if `k` answers this question: the index of one of its options (a whole number, not a bool)."""
        return type(k) is int and 0 <= k < len(self.options)

    def __repr__(self) -> str:
        return f"Question({self.kind.value}, P{self.seat + 1}, {len(self.options)} options, {self.text!r})"


class Chooser(Protocol):
    """Whoever answers a seat's questions: a script, a bot, a person."""

    name: str

    def choose(self, obs: Observation, q: Question) -> int:
        """The index of one of q.options."""
