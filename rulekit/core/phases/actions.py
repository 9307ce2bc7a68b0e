"""Phase 3, actions (执行行动): in turn order each player takes one action or passes, until everyone has passed.

The menu of actions is built lazily: a question knows how many actions there are, and an action
is made only when it is picked (or when a chooser reads the menu), so a random player costs little.
"""

from __future__ import annotations

from collections.abc import Sequence

from rulekit.core import board as B
from rulekit.core.questions import CELLS, PASS, Action, Ask, Question
from rulekit.core.state import Cursor


class Menu(Sequence):
    """The legal actions of a seat now, in a fixed order: pass, bury (dead in reading order),
    relocate (each resident × each empty cell, reading order), play (each card name in hand once),
    execute again, switch."""

    __slots__ = ("dead", "empties", "length", "n", "residents", "rest")

    def __init__(self, g, seat: int):
        p = g.state.seats[seat]
        c = p.counts
        self.dead: list[int] | None = None
        self.residents: list[int] | None = None
        self.empties: list[int] | None = None
        n_bury = c[B.DEAD] if c[B.DEAD] and p.money >= g.quantity(seat, "bury_cost", 1, note=False) else 0
        n_move = 0
        if c[B.EMPTY] and p.money >= g.quantity(seat, "relocate_cost", 1, note=False):
            n_move = (c[B.HEALTHY] + c[B.MILD] + c[B.SEVERE] + c[B.DEAD]) * c[B.EMPTY]
        # What is legal is decided by the game's can_play / can_execute / can_switch, as for a scripted action.
        rest: list[Action] = []
        seen: set[str] = set()
        for card in p.hand:
            if card.id not in seen:
                seen.add(card.id)
                if g.can_play(seat, card) is None:
                    rest.append(Action(("play", card.id)))
        if p.tableau:
            for e in p.tableau:
                if len(e.card.price) > 1 and g.can_execute(seat, e) is None:
                    rest.append(Action(("execute", e.card.id)))
            for e in p.tableau:
                if e.card.switchable and g.can_switch(e) is None:
                    rest.append(Action(("switch", e.card.id)))
        self.rest = rest
        self.n = (1 + n_bury, n_move)
        self.length = 1 + n_bury + n_move + len(rest)
        if n_bury:
            self.dead = g.cells(seat, (B.DEAD,))
        if n_move:
            self.residents = g.cells(seat, B.RESIDENTS)
            self.empties = g.cells(seat, (B.EMPTY,))

    def __len__(self) -> int:
        return self.length

    def __getitem__(self, k):
        if isinstance(k, slice):
            return [self[j] for j in range(*k.indices(len(self)))]
        n = self.length
        if k < 0:
            k += n
        if not 0 <= k < n:
            raise IndexError(k)
        head, moves = self.n
        if k == 0:
            return PASS
        if k < head:
            return Action(("bury", CELLS[self.dead[k - 1]]))
        k -= head
        if k < moves:
            a, b = divmod(k, len(self.empties))
            return Action(("relocate", CELLS[self.residents[a]], CELLS[self.empties[b]]))
        return self.rest[k - moves]


def begin(g, cur: Cursor) -> None:
    cur.step = "act"
    cur.data = {"passed": (), "taken": (0,) * g.players, "sweep": g.in_order(), "k": 0, "acted": False}


def ask(g, cur: Cursor) -> Question | None:
    d = cur.data
    sweep, k = d["sweep"], d["k"]
    if k >= len(sweep):
        in_order = g.in_order()
        if not d["acted"] or all(s in d["passed"] for s in in_order):
            cur.step = "end"
        else:
            d["sweep"], d["k"], d["acted"] = in_order, 0, False
        return None
    s = sweep[k]
    if s in d["passed"] or g.state.seats[s].out:
        d["k"] = k + 1
        return None
    limit = g.rules.max_actions
    if d["taken"][s] >= limit:
        d["passed"] += (s,)
        g.record("action_limit", seat=s, limit=limit)
        d["k"] = k + 1
        return None
    return Question(Ask.ACTION, s, Menu(g, s), None, "take an action or pass")


def answer(g, cur: Cursor, q: Question, action: Action) -> None:
    d = cur.data
    s = q.seat
    if action[0] == "pass":
        d["passed"] += (s,)
    else:
        do_action(g, s, action)
        taken = list(d["taken"])
        taken[s] += 1
        d["taken"] = tuple(taken)
        d["acted"] = True
    d["k"] += 1


def do_action(g, seat: int, action) -> None:
    """Carry out one action (a scenario script may name any legal one)."""
    kind = action[0]
    if kind == "bury":
        g.spend_money(seat, g.quantity(seat, "bury_cost", 1), "bury")
        g.set_cell(B.idx(*action[1]), B.EMPTY, "bury")
    elif kind == "relocate":
        a, b = B.idx(*action[1]), B.idx(*action[2])
        g.spend_money(seat, g.quantity(seat, "relocate_cost", 1), "relocate")
        state = g.state.board[a]
        g.set_cell(a, B.EMPTY, "relocate")
        g.set_cell(b, state, "relocate")
    elif kind == "play":
        g.play_card(seat, action[1])
    elif kind == "execute":
        g.execute_card(seat, action[1])
    elif kind == "switch":
        g.switch(seat, action[1])
