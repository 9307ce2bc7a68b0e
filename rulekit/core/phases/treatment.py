"""Phase 4, treatment (治疗疾病): each player treats residents of their board within their medical points.

2 × mild treated + 3 × severe treated ≤ medical (the costs are quantities `mild_cost`, `severe_cost`);
a treated mild becomes healthy, a treated severe becomes mild; a resident is treated at most once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulekit.core import board as B
from rulekit.core import quantities as Q
from rulekit.core.questions import CELLS, DONE, Ask, Cell, Question
from rulekit.core.state import Cursor
from rulekit.core.steps import TreatmentStep

if TYPE_CHECKING:
    from rulekit.core.game import Game


def begin(g: Game, cur: Cursor) -> None:
    cur.step = "seat"
    cur.data = TreatmentStep(g.in_order(), 0)


def ask(g: Game, cur: Cursor) -> Question | None:
    d = cur.data
    assert isinstance(d, TreatmentStep)
    seats = g.state.seats
    while True:
        if cur.step == "seat":
            if d.k >= len(d.order):
                cur.step = "end"
                return None
            seat = d.order[d.k]
            if seats[seat].out:              # put out earlier in this phase (a `when cure` of another player)
                d.k += 1
                continue
            d.mild_cost = g.quantity(seat, "mild_cost", Q.mild_cost(g.rules))
            d.severe_cost = g.quantity(seat, "severe_cost", Q.severe_cost(g.rules))
            cur.step = "treat"
            d.budget, d.treated = seats[seat].medical, ()
            continue
        seat = d.order[d.k]
        budget, treated = d.budget, d.treated
        if seats[seat].out:                  # put out by what its own treatment set off
            codes: tuple[int, ...] = ()
        elif d.mild_cost <= budget:
            codes = (B.MILD, B.SEVERE) if d.severe_cost <= budget else (B.MILD,)
        else:
            codes = (B.SEVERE,) if d.severe_cost <= budget else ()
        if codes:
            cells = g.cells(seat, codes)
            opts: list[Cell | str] = [CELLS[i] for i in cells if i not in treated] if treated else \
                [CELLS[i] for i in cells]
            if opts:
                opts.append(DONE)
                return Question(Ask.TREAT, seat, opts, None, f"treat (medical left {budget})")
        _next_seat(cur, d)


def answer(g: Game, cur: Cursor, q: Question, option: Cell | str) -> None:
    d = cur.data
    assert isinstance(d, TreatmentStep)
    if option == DONE or isinstance(option, str):
        _next_seat(cur, d)
        return
    i = option[0] * B.SIZE + option[1]
    d.treated += (i,)
    if g.state.board[i] == B.MILD:
        d.budget -= d.mild_cost
        g.set_cell(i, B.HEALTHY, "treatment")
    else:
        d.budget -= d.severe_cost
        g.set_cell(i, B.MILD, "treatment")


def _next_seat(cur: Cursor, d: TreatmentStep) -> None:
    cur.step = "seat"
    d.k += 1
