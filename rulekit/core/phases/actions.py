"""Phase 3, actions (执行行动): in turn order each player takes one action or passes, until everyone has passed.

The menu of actions is built lazily: a question knows how many actions there are, and an action
is made only when it is picked (or when a chooser reads the menu), so a random player costs little.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, overload

from rulekit.core import board as B
from rulekit.core import quantities as Q
from rulekit.core.handlers import SIGNED_QUANTITIES
from rulekit.core.questions import CELLS, PASS, Action, Ask, Question
from rulekit.core.state import Cursor
from rulekit.core.steps import ActionsStep

if TYPE_CHECKING:
    from rulekit.core.game import Game

PRICE_SIGNED = "price" in SIGNED_QUANTITIES


class Menu(Sequence[Action]):
    """The legal actions of a seat now, in a fixed order: pass, bury (dead in reading order),
    relocate (each resident × each empty cell, reading order), play (each card name in hand once),
    execute again, switch."""

    __slots__ = ("dead", "empties", "length", "n", "residents", "rest")
    dead: tuple[int, ...]
    empties: tuple[int, ...]
    length: int
    n: tuple[int, int]
    residents: tuple[int, ...]
    rest: tuple[Action, ...]

    def __init__(self, g: Game | None, seat: int, source: Menu | None = None) -> None:
        if source is not None:          # a copy (a compiled class cannot be made with __new__ alone)
            self.dead, self.residents, self.empties, self.rest = source.dead, source.residents, source.empties, source.rest
            self.n, self.length = source.n, source.length
            return
        assert g is not None
        p = g.state.seats[seat]
        c = p.counts
        tables = g.tables(seat)
        mods = tables.modifiers
        money = p.money
        dead: tuple[int, ...] = ()
        residents: tuple[int, ...] = ()
        empties: tuple[int, ...] = ()
        # What is legal is what the game's can_play / can_execute / can_switch say, as for a scripted action;
        # without a modifier of the quantity the base cost is read here directly (the same number).
        n_bury = 0
        bury, relocate = Q.bury_cost(), Q.relocate_cost()
        if c[B.DEAD] and money >= (g.quantity(seat, "bury_cost", bury, note=False) if "bury_cost" in mods else bury):
            n_bury = c[B.DEAD]
        n_move = 0
        if c[B.EMPTY] and money >= (g.quantity(seat, "relocate_cost", relocate, note=False) if "relocate_cost" in mods
                                    else relocate):
            n_move = (c[B.HEALTHY] + c[B.MILD] + c[B.SEVERE] + c[B.DEAD]) * c[B.EMPTY]
        rest: list[Action] = []
        if p.hand:
            seen: set[str] = set()
            names = tables.names
            compiled = g.program.cards
            priced = "price" in mods
            for card in p.hand:
                cid = card.id
                if cid in seen:
                    continue
                seen.add(cid)
                if card.name in names:
                    continue
                if priced:
                    price = g.price(seat, card)
                else:
                    price = card.price[0] if card.price else 0
                    if price < 0 and not PRICE_SIGNED:
                        price = 0
                if price <= money and compiled[cid].playable:
                    rest.append(Action(("play", cid)))
        if p.tableau:
            for e in p.tableau:
                if len(e.card.price) > 1 and g.can_execute(seat, e) is None:
                    rest.append(Action(("execute", e.card.id)))
            for e in p.tableau:
                if e.card.switchable and g.can_switch(e) is None:
                    rest.append(Action(("switch", e.card.id)))
        if n_bury:
            dead = tuple(g.cells(seat, (B.DEAD,)))
        if n_move:
            residents = tuple(g.cells(seat, B.RESIDENTS))
            empties = tuple(g.cells(seat, (B.EMPTY,)))
        # Tuples: a chooser is handed a copy (Game.choose_now), and no list of it is shared with the core's own.
        self.dead, self.residents, self.empties, self.rest = dead, residents, empties, tuple(rest)
        self.n = (1 + n_bury, n_move)
        self.length = 1 + n_bury + n_move + len(rest)

    def copy(self) -> Menu:
        """The same menu as another object: what a chooser is handed, so that it cannot change the core's."""
        return Menu(None, 0, self)

    def __len__(self) -> int:
        return self.length

    @overload
    def __getitem__(self, k: int) -> Action: ...
    @overload
    def __getitem__(self, k: slice) -> list[Action]: ...

    def __getitem__(self, k: int | slice) -> Action | list[Action]:
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


def begin(g: Game, cur: Cursor) -> None:
    cur.step = "act"
    cur.data = ActionsStep((), [0] * g.players, g.in_order(), 0, False)


def ask(g: Game, cur: Cursor) -> Question | None:
    d = cur.data
    assert isinstance(d, ActionsStep)
    seats = g.state.seats
    limit = g.rules.max_actions
    while True:
        sweep, k = d.sweep, d.k
        if k >= len(sweep):
            in_order = g.in_order()
            if not d.acted or all(s in d.passed for s in in_order):
                cur.step = "end"
                return None
            d.sweep, d.k, d.acted = in_order, 0, False
            continue
        s = sweep[k]
        if s in d.passed or seats[s].out:
            d.k = k + 1
            continue
        if d.taken[s] >= limit:
            d.passed += (s,)
            g.record("action_limit", seat=s, limit=limit)
            d.k = k + 1
            continue
        return Question(Ask.ACTION, s, Menu(g, s), None, "take an action or pass")


def answer(g: Game, cur: Cursor, q: Question, action: Action) -> None:
    d = cur.data
    assert isinstance(d, ActionsStep)
    s = q.seat
    if action[0] == "pass":
        d.passed += (s,)
    else:
        do_action(g, s, action)
        d.taken[s] += 1
        d.acted = True
    d.k += 1


def do_action(g: Game, seat: int, action: Action) -> None:
    """Carry out one action (a scenario script may name any legal one)."""
    kind = action[0]
    if kind == "bury":
        g.spend_money(seat, g.quantity(seat, "bury_cost", Q.bury_cost()), "bury")
        g.set_cell(B.idx(*action[1]), B.EMPTY, "bury")
    elif kind == "relocate":
        a, b = B.idx(*action[1]), B.idx(*action[2])
        g.spend_money(seat, g.quantity(seat, "relocate_cost", Q.relocate_cost()), "relocate")
        g.move_resident(a, b, "relocate")
    elif kind == "play":
        g.play_card(seat, action[1])
    elif kind == "execute":
        g.execute_card(seat, action[1])
    elif kind == "switch":
        g.switch(seat, action[1])
