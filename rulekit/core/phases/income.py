"""Phase 1, income (获得资金): each player gains economy + floor(healthy / 2), modifiable as `income`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulekit.core import board as B
from rulekit.core import quantities as Q
from rulekit.core.questions import Question
from rulekit.core.state import Cursor

if TYPE_CHECKING:
    from rulekit.core.game import Game


def begin(g: Game, cur: Cursor) -> None:
    cur.step = "gain"


def ask(g: Game, cur: Cursor) -> None:
    seats = g.state.seats
    for s in g.in_order():
        p = seats[s]
        g.gain_money(s, g.quantity(s, "income", Q.income(p.economy, p.counts[B.HEALTHY])), "income")
    cur.step = "end"


def answer(g: Game, cur: Cursor, q: Question, option: Any) -> None:  # pragma: no cover - income asks nothing
    raise AssertionError("income asks no question")
