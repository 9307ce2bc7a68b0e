"""Phase 4, treatment (治疗疾病): each player treats residents of their board within their medical points.

2 × mild treated + 3 × severe treated ≤ medical (the costs are quantities `mild_cost`, `severe_cost`);
a treated mild becomes healthy, a treated severe becomes mild; a resident is treated at most once.
"""

from __future__ import annotations

from rulekit.core import board as B
from rulekit.core.questions import CELLS, DONE, Ask, Question
from rulekit.core.state import Cursor


def begin(g, cur: Cursor) -> None:
    cur.step = "seat"
    cur.data = {"order": g.in_order(), "k": 0}


def ask(g, cur: Cursor) -> Question | None:
    d = cur.data
    if cur.step == "seat":
        if d["k"] >= len(d["order"]):
            cur.step = "end"
            return None
        seat = d["order"][d["k"]]
        if g.state.seats[seat].out:          # put out earlier in this phase (a `when cure` of another player)
            d["k"] += 1
            return None
        mild = g.quantity(seat, "mild_cost", g.rules.mild_cost)
        severe = g.quantity(seat, "severe_cost", g.rules.severe_cost)
        cur.step = "treat"
        d.update(costs=(mild, severe), budget=g.state.seats[seat].medical, treated=())
        return None
    seat = d["order"][d["k"]]
    mild_cost, severe_cost = d["costs"]
    budget, treated = d["budget"], d["treated"]
    codes = tuple(code for code, cost in ((B.MILD, mild_cost), (B.SEVERE, severe_cost)) if cost <= budget)
    out = g.state.seats[seat].out             # put out by what its own treatment set off
    opts = [CELLS[i] for i in g.cells(seat, codes) if i not in treated] if codes and not out else []
    if not opts:
        _next_seat(cur)
        return None
    opts.append(DONE)
    return Question(Ask.TREAT, seat, opts, None, f"treat (medical left {budget})")


def answer(g, cur: Cursor, q: Question, option) -> None:
    d = cur.data
    if option == DONE:
        _next_seat(cur)
        return
    i = option[0] * B.SIZE + option[1]
    d["treated"] += (i,)
    mild_cost, severe_cost = d["costs"]
    if g.state.board[i] == B.MILD:
        d["budget"] -= mild_cost
        g.set_cell(i, B.HEALTHY, "treatment")
    else:
        d["budget"] -= severe_cost
        g.set_cell(i, B.MILD, "treatment")


def _next_seat(cur: Cursor) -> None:
    cur.step = "seat"
    cur.data["k"] += 1
