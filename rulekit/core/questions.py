"""Decisions: every choice the rules give a player is a Question with typed options, answered by index.

A chooser (a script, a bot, a person) sees only an Observation of what its seat may see, never
the live game; it returns the index of one option.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple, Protocol

from rulekit.core import board as B
from rulekit.core import quantities as Q
from rulekit.core.rules import Rules

if TYPE_CHECKING:
    from rulekit.core.game import Game
    from rulekit.core.program import Card


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

    def __init__(self, kind: Ask, seat: int, options: Sequence, card: str | None = None, text: str = ""):
        self.kind = kind
        self.seat = seat
        self.options = options
        self.card = card          # id of the card whose effect asks, if any
        self.text = text          # what is being decided, for people and logs

    def __repr__(self) -> str:
        return f"Question({self.kind.value}, P{self.seat + 1}, {len(self.options)} options, {self.text!r})"


class Chooser(Protocol):
    """Whoever answers a seat's questions: a script, a bot, a person."""

    name: str

    def choose(self, obs: Observation, q: Question) -> int:
        """The index of one of q.options."""


class Observation:
    """What one seat may see: the board as it lies (face-down tiles without their fronts), every
    seat's tracks, money, tableau and hand size, its own hand, the market, the events drawn.

    It reads the game live (an observation stays current), and offers nothing hidden: no tile
    fronts, no other hand, no deck order.
    """

    __slots__ = ("_game", "seat")

    def __init__(self, game: Game, seat: int):
        self._game = game
        self.seat = seat

    # ---- the table ---------------------------------------------------------------------------
    @property
    def players(self) -> int:
        return self._game.state.players

    @property
    def geometry(self) -> B.Geometry:
        return self._game.geo

    @property
    def board(self) -> list[int]:
        """Cell states by index (B.TILE for a face-down tile); read it, never change it."""
        return self._game.state.board

    @property
    def round(self) -> int:
        return self._game.state.round

    @property
    def phase(self) -> str:
        return self._game.state.phase

    @property
    def rules(self) -> Rules:
        return self._game.rules

    def in_order(self) -> tuple[int, ...]:
        return self._game.in_order()

    def count(self, seat: int, name: str) -> int:
        """A board count of a seat (healthy, mild, severe, dead, infected, alive, resident, tiles)."""
        return self._game.count(seat, name)

    def counts(self, seat: int) -> tuple[int, int, int, int, int]:
        """(healthy, mild, severe, dead, tiles) of a seat's board, in one read."""
        c = self._game.state.seats[seat].counts
        return c[B.HEALTHY], c[B.MILD], c[B.SEVERE], c[B.DEAD], c[B.TILE]

    # ---- seats ----------------------------------------------------------------------------------
    def track(self, seat: int, name: str) -> int:
        """A track of any seat, or its money (all public)."""
        return getattr(self._game.state.seats[seat], name)

    def tracks(self, seat: int) -> tuple[int, int, int, int, int, int]:
        """(medical, disease, policy, score, economy, money) of a seat, in one read."""
        p = self._game.state.seats[seat]
        return p.medical, p.disease, p.policy, p.score, p.economy, p.money

    def unlocked(self, seat: int) -> int:
        return self._game.state.seats[seat].unlocked

    def out(self, seat: int) -> bool:
        return self._game.state.seats[seat].out

    def hand_size(self, seat: int) -> int:
        return len(self._game.state.seats[seat].hand)

    def tableau(self, seat: int) -> tuple:
        """A seat's played policies (public): Entry values, to read only."""
        return tuple(self._game.state.seats[seat].tableau)

    def advisor(self, seat: int) -> Card | None:
        """A seat's advisor; another seat's stays face down (None) until every advisor is kept."""
        st = self._game.state
        if seat != self.seat and st.cursor.phase == "setup" and st.cursor.step in ("deal", "advisor"):
            return None
        return st.seats[seat].advisor

    @property
    def hand(self) -> tuple:
        """This seat's own hand."""
        return tuple(self._game.state.seats[self.seat].hand)

    # ---- cards and the market ---------------------------------------------------------------------
    def card(self, ref: str) -> Card | None:
        """A card of the content by id or name (the content is public)."""
        return self._game.program.content.lookup(ref)

    def playable(self, card_id: str) -> bool:
        """False for a card that can only be played as a reaction."""
        return self._game.program.cards[card_id].playable

    @property
    def offers(self) -> tuple:
        return tuple(self._game.state.offers)

    @property
    def events_left(self) -> int:
        return len(self._game.state.event_deck)

    @property
    def history(self) -> tuple:
        return tuple(self._game.state.history)

    @property
    def current_event(self) -> Card | None:
        """The event being resolved now (None outside that moment)."""
        return self._game.state.current_event

    def unseen_events(self) -> tuple:
        """The events not drawn yet, one per copy, in content order: which ones is public (the content's events
        less those drawn); their order in the deck is not."""
        left: dict[str, int] = {}
        for card in self._game.state.event_deck:
            left[card.id] = left.get(card.id, 0) + 1
        return tuple(card for card in self._game.content.of_kind("event") for _ in range(left.get(card.id, 0)))

    def counters(self, seat: int, card_id: str) -> dict[str, int] | None:
        """The numbers a seat's card keeps (its advisor's, or a policy's in its tableau); None when none is in play."""
        p = self._game.state.seats[seat]
        for e in p.tableau:
            if e.card.id == card_id:
                return dict(e.counters)
        if p.advisor is not None and p.advisor.id == card_id:
            return dict(p.advisor_counters)
        return None

    def forecast(self, choosers: Sequence[Chooser]) -> Game:
        """A copy of the game from this decision on, to play apart (a forward model), each seat answered by its
        chooser in `choosers`; the game itself is untouched.

        The copy is exact today (it knows the deck order and the tile fronts); the seat's own decisions
        are what it is for, so a later sealing of observations may give a copy made up from what this seat
        can see instead. Only at a top-level decision (RuleViolation inside a card's effect).
        """
        return self._game.clone(list(choosers))

    # ---- what the rules compute from public things -------------------------------------------------
    def quantity(self, seat: int, name: str, base: int | None = None, without: str | None = None) -> int:
        """A quantity of a seat under its active modifiers (optionally without one card's): its base is the
        formula of rulekit/core/quantities.py over the seat's numbers now, unless given (a card's price)."""
        if base is None:
            p = self._game.state.seats[seat]
            base = Q.base(name, self._game.rules, p.disease, p.economy, p.counts[B.HEALTHY])
        return self._game.quantity(seat, name, base, without, note=False)

    def price(self, card: Card, k: int = 0) -> int:
        """What this seat pays to play a card (k = 0), or to execute it the k-th time again."""
        return self._game.price(self.seat, card, k)

    def strategy_costs(self) -> dict[int, int]:
        return self._game.strategy_costs(self.seat)

