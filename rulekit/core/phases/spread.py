"""Phase 5, spread (瘟疫传播): discovery, contagion, dead contagion, deaths, worsening — every board in turn order.

Each step runs for every seat (out players' boards too, their choices in reading order), then the
unlock checks. Where a step lets a player choose cells, each pick is a decision of its own.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from rulekit import registry
from rulekit.core import board as B
from rulekit.core import quantities as Q
from rulekit.core.phases.end import check_unlocks
from rulekit.core.questions import CELLS, Ask, Cell, Question
from rulekit.core.state import Cursor
from rulekit.core.steps import SpreadStep

if TYPE_CHECKING:
    from rulekit.core.game import Game

STEPS = registry.SPREAD_STEPS
CELL_TAGS = registry.CELL_TAGS
TEXT = {"contagion": "contagion: infect a healthy neighbour", "deaths": "deaths: a severe case dies",
        "worsening": "worsening: a mild case becomes severe"}


def begin(g: Game, cur: Cursor) -> None:
    cur.step = STEPS[0]
    cur.data = SpreadStep()


def ask(g: Game, cur: Cursor) -> Question | None:
    """Run the spread for seat after seat, step after step, until a player must pick a cell."""
    d = cur.data
    if not isinstance(d, SpreadStep):            # a lone step (run_spread_step) starts with no record
        d = cur.data = SpreadStep()
    while True:
        step = cur.step
        if step == "end" or g.halt:
            return None
        order = d.order
        if order is None:
            order = d.order = g.turn_order()
            d.k, d.ready = 0, False
        k = d.k
        if k >= len(order):
            check_unlocks(g)
            _next_step(g, cur)
            d = cur.data = SpreadStep()
            continue
        seat = order[k]
        if g.skipping(seat, step):
            d.k = k + 1                  # `skip STEP`: this step does nothing on this board
            continue
        if step == "discovery":
            q = _discovery(g, d, seat)
        elif step == "dead_contagion":
            dead_contagion(g, seat)
            d.k = k + 1
            continue
        else:
            if not d.ready:
                _prepare(g, step, d, seat)
            q = _pick(g, step, d, seat)
        if q is not None:
            return q


def answer(g: Game, cur: Cursor, q: Question, cell: Cell) -> None:
    d = cur.data
    assert isinstance(d, SpreadStep)
    i = cell[0] * B.SIZE + cell[1]
    if cur.step == "discovery":
        g.reveal_cell(i)
        d.left -= 1
        return
    d.chosen += (i,)
    cands = list(d.cands)
    cands.remove(i)
    d.cands = tuple(cands)


def _next_seat(d: SpreadStep) -> None:
    d.k += 1
    d.ready = False


def _next_step(g: Game, cur: Cursor) -> None:
    k = STEPS.index(cur.step)
    cur.step = STEPS[k + 1] if k + 1 < len(STEPS) else "end"
    if cur.stop == "step":
        cur.stop = "game"
        g.halt = True


# ---- step 0: discovery --------------------------------------------------------------------------------

def _discovery(g: Game, d: SpreadStep, seat: int) -> Question | None:
    if not d.ready:
        d.left = g.quantity(seat, "discovery", Q.discovery(g.rules))
        d.ready = True
    while d.left > 0:
        cands = g.reveal_candidates(seat)
        if not cands:
            break
        if len(cands) > 1:
            return Question(Ask.CELL, seat, [CELLS[i] for i in cands], None, "reveal a tile next to a revealed cell")
        g.reveal_cell(cands[0])
        d.left -= 1
    _next_seat(d)
    return None


# ---- steps 1, 3, 4: X cells of the player's choice -------------------------------------------------------

def _prepare(g: Game, step: str, d: SpreadStep, seat: int) -> None:
    """The step's X and the cells it may take, as they stand when this player's turn in the step begins."""
    p = g.state.seats[seat]
    d.ready = True
    d.chosen = ()
    if step == "contagion":
        x = d.x = g.quantity(seat, "new_mild", Q.new_mild(p.disease))
        d.tiers = contagion_tiers(g, seat) if x > 0 else ((), ())
        d.tier = 0
        d.cands = d.tiers[0]
    else:
        name, state = ("new_dead", B.SEVERE) if step == "deaths" else ("new_severe", B.MILD)
        x = d.x = g.quantity(seat, name, Q.new_dead(p.disease) if step == "deaths" else Q.new_severe(p.disease))
        d.cands = tuple(g.cells(seat, (state,))) if x > 0 and p.counts[state] else ()
        tags = g.state.tags
        if tags and d.cands:            # a tag that stops worsening (registry.CELL_TAGS): neither worsens nor dies
            d.cands = tuple(i for i in d.cands if i not in tags or CELL_TAGS[tags[i]].worsens)


def _pick(g: Game, step: str, d: SpreadStep, seat: int) -> Question | None:
    """Ask for the next pick, or apply the picks once X is reached (or X covers every candidate)."""
    while True:
        x, chosen, cands = d.x, d.chosen, d.cands
        if x > 0 and not chosen and x >= len(cands):
            chosen = cands
        elif x > 0 and len(chosen) < x and cands:
            return Question(Ask.CELL, seat, [CELLS[i] for i in cands], None, TEXT[step])
        _apply(g, step, chosen)
        if step == "contagion" and d.tier == 0 and x - len(chosen) > 0:
            d.tier, d.x, d.chosen, d.cands = 1, x - len(chosen), (), d.tiers[1]
            continue
        _next_seat(d)
        return None


def _apply(g: Game, step: str, cells: Iterable[int]) -> None:
    """The picks of a step, each only if the cell still holds what the step takes (a `death` handler
    set off by an earlier pick may have treated, moved or removed a later one)."""
    board = g.state.board
    if step == "contagion":
        for i in cells:
            if board[i] == B.HEALTHY:
                g.set_cell(i, B.MILD, "contagion")
    elif step == "deaths":
        for i in cells:
            if board[i] == B.SEVERE:
                g.kill_cell(i, "deaths")
    else:
        for i in cells:
            if board[i] == B.MILD:
                g.set_cell(i, B.SEVERE, "worsening")


def contagion_tiers(g: Game, seat: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Healthy neighbours of the seat's mild and severe residents (not those whose tag stops them infecting):
    its own board's first, then across the border (unless that board is sealed), each in reading order."""
    board, nb, owner, tags = g.state.board, g.geo.neighbours, g.geo.owner, g.state.tags
    own: set[int] = set()
    other: set[int] = set()
    shut = g.sealed_out(seat)           # `seal border out`: my infected reach no other board
    for i in g.cells(seat, B.INFECTED):
        if tags and i in tags and not CELL_TAGS[tags[i]].infects:
            continue                     # a sheltered case infects no one (registry.CELL_TAGS)
        for j in nb[i]:
            if board[j] == B.HEALTHY:
                if owner[j] == seat:
                    own.add(j)
                elif not shut and j not in other and not g.sealed(owner[j]):
                    other.add(j)
    return tuple(sorted(own)), tuple(sorted(other))


# ---- step 2: dead contagion ---------------------------------------------------------------------------

def dead_contagion(g: Game, seat: int) -> None:
    """Every dead of the board turns all its healthy neighbours (across borders too) mild."""
    if not g.state.seats[seat].counts[B.DEAD]:
        return
    board, nb, owner = g.state.board, g.geo.neighbours, g.geo.owner
    targets: set[int] = set()
    shut = g.sealed_out(seat)           # `seal border out`: my dead infect no other board
    for i in g.cells(seat, (B.DEAD,)):
        for j in nb[i]:
            if board[j] == B.HEALTHY and j not in targets and (owner[j] == seat or not (shut or g.sealed(owner[j]))):
                targets.add(j)
    for j in sorted(targets):
        g.set_cell(j, B.MILD, "dead contagion")
