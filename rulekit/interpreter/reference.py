"""The simple tree-walking evaluator the generated code is checked against: same runtime calls, same order.

What each name is (a name of the effect's own, a counter, a track …) it reads from the resolver's
table (Checked.meaning), as the generator does; it keeps the values of the effect's own names by name.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rulekit import registry
from rulekit.core.errors import EffectError
from rulekit.core.handlers import Frame
from rulekit.core.state import Entry
from rulekit.interpreter.codegen import after_name
from rulekit.interpreter.runtime import Runtime, arithmetic_error, num
from rulekit.language import ast
from rulekit.language import resolve as rs
from rulekit.language.checker import Checked
from rulekit.language.visitor import Visitor
from rulekit.model import Card

_CMP: dict[str, Callable[[Any, Any], bool]] = {"==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
        "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}
FAILURES = (EffectError, ArithmeticError, RecursionError)


def _at_line(err: BaseException, line: int) -> EffectError:
    """The error as the failure of the statement at this line, unless a statement inside it (or another
    card, set off by it) is named already: the line the compiled evaluator names too."""
    if isinstance(err, EffectError):
        if not err.line and err.card is None:
            err.line = line
        return err
    return arithmetic_error(err, line)


Meanings = Mapping[ast.Node, rs.Meaning]


class Walk(Visitor, walks=("statements", "expressions")):
    """One run of a handler (or one expression) by walking its tree; `env` holds let/choose/as names."""

    __slots__ = ("card_values", "entry", "env", "f", "meaning", "owner", "params", "rt", "subjects")

    def __init__(self, rt: Runtime, f: Frame | None, entry: Entry | None, owner: int | None, meaning: Meanings,
                 params: Mapping[str, int] | None = None) -> None:
        self.rt = rt
        self.f = f
        self.entry = entry
        self.owner = owner
        self.meaning = meaning              # what every name is (Checked.meaning)
        self.params = params or {}          # the numbers this card names (`params:`), constants
        self.env: dict[str, Any] = {}
        self.subjects: list[int | None] = []    # the subject of each player block we are in
        self.card_values: dict[str, int | None] | None = None     # the card `count(played where …)` is reading

    @property
    def frame(self) -> Frame:
        """The run's Frame: statements run only in a handler (an expression alone has none)."""
        assert self.f is not None, "a statement runs in a handler"
        return self.f

    def players(self, body: Sequence[ast.Stmt], seat: int | None) -> None:
        self.subjects.append(seat)
        self.block(body, seat)
        self.subjects.pop()

    def block(self, stmts: Sequence[ast.Stmt], s: int | None) -> None:
        self.rt.tick(len(stmts))            # charged to the statement holding the block (its try, outside)
        for st in stmts:
            try:
                self.stmt(st, s)
            except FAILURES as err:
                raise _at_line(err, st.pos.line) from None

    # ---- statements --------------------------------------------------------------------------------
    def s_TrackChange(self, st: ast.TrackChange, s: int | None) -> None:
        value = self.expr(st.expr, s)
        kind = self.meaning[st].kind
        if kind == rs.LOCAL:
            cur = self.env[st.track]
            self.env[st.track] = value if st.op == "=" else num(cur + value if st.op == "+=" else cur - value)
        elif kind == rs.COUNTER:
            self.rt.change_counter(self.frame, st.track, st.op, value)
        else:
            self.rt.change(self.frame, s, st.track, st.op, value)

    def s_Let(self, st: ast.Let, s: int | None) -> None:
        self.env[st.name] = self.expr(st.expr, s)

    def s_If(self, st: ast.If, s: int | None) -> None:
        for k, (cond, body) in enumerate(st.branches):
            try:
                holds = self.expr(cond, s)
            except FAILURES as err:
                raise _at_line(err, cond.pos.line if k else st.pos.line) from None    # an `elif` has its own line
            if holds:
                self.block(body, s)
                return
        if st.orelse is not None:
            self.block(st.orelse, s)

    def s_EachPlayer(self, st: ast.EachPlayer, s: int | None) -> None:
        for seat in self.rt.each_player(self.frame, s, st.other):
            if st.where is None or self.expr(st.where, seat):
                self.players(st.body, seat)

    def s_PlayerWith(self, st: ast.PlayerWith, s: int | None) -> None:
        for seat in self.rt.players_with(self.frame, st.which, lambda x: self.expr(st.expr, x)):
            self.players(st.body, seat)

    def s_TheyChoose(self, st: ast.TheyChoose, s: int | None) -> None:
        with self.rt.they_choose(self.frame):
            self.block(st.body, s)

    def s_Me(self, st: ast.Me, s: int | None) -> None:
        self.players(st.body, self.owner)

    def s_SeatPlayer(self, st: ast.SeatPlayer, s: int | None) -> None:
        seat = self.rt.seat_player(self.frame, st.which)
        if seat is not None:
            self.players(st.body, seat)

    def s_ChoosePlayer(self, st: ast.ChoosePlayer, s: int | None) -> None:
        cond = st.where
        where = (lambda x: self.expr(cond, x)) if cond is not None else None
        seat = self.rt.choose_player(self.frame, s, st.other, where)
        if seat is not None:
            self.players(st.body, seat)

    def s_Tag(self, st: ast.Tag, s: int | None) -> None:
        self.rt.tag(self.frame, st.verb, st.tag)

    def s_ChooseCell(self, st: ast.ChooseCell, s: int | None) -> None:
        cell = self.rt.choose_cell(self.frame, s, st.kind, ast.cell_hint(st.body))
        if cell is not None:
            with self.rt.it_as(self.frame, cell):
                self.block(st.body, s)

    def s_Transfer(self, st: ast.Transfer, s: int | None) -> None:
        inner, outer = self.subjects[-1], self.subjects[-2]
        src, dst = (inner, outer) if st.direction == "take" else (outer, inner)
        n = self.expr(st.amount.expr, s) if st.amount.expr is not None else None
        left = self.rt.transfer(self.frame, st.direction, src, dst, st.what, st.amount.mode, n)
        if st.as_name:
            self.env[st.as_name] = left

    def s_Discard(self, st: ast.Discard, s: int | None) -> None:
        n = self.expr(st.amount.expr, s) if st.amount.expr is not None else None
        done = self.rt.discard(self.frame, s, st.amount.mode, n)
        if st.as_name:
            self.env[st.as_name] = done

    def s_MayDiscard(self, st: ast.MayDiscard, s: int | None) -> None:
        if self.rt.may_discard(self.frame, s, self.expr(st.amount, s)):
            self.block(st.body, s)

    def s_After(self, st: ast.After, s: int | None) -> None:
        self.rt.after(self.frame, s, self.expr(st.count, s), after_name(st), dict(self.env))

    def s_Repeat(self, st: ast.Repeat, s: int | None) -> None:
        for _ in self.rt.repeat(self.expr(st.count, s)):
            self.block(st.body, s)

    def s_Choose(self, st: ast.Choose, s: int | None) -> None:
        lo, hi = self.expr(st.lo, s), self.expr(st.hi, s)
        self.env[st.name] = self.rt.choose(self.frame, s, lo, hi)

    def s_May(self, st: ast.May, s: int | None) -> None:
        if self.rt.may(self.frame, s):
            self.block(st.body, s)

    def s_MayPay(self, st: ast.MayPay, s: int | None) -> None:
        if self.rt.may_pay(self.frame, s, self.expr(st.amount, s)):
            self.block(st.body, s)

    def s_Spend(self, st: ast.Spend, s: int | None) -> None:
        self.rt.spend(self.frame, s, self.expr(st.amount, s))

    def s_Pay(self, st: ast.Pay, s: int | None) -> None:
        unpaid = self.rt.pay(self.frame, s, self.expr(st.amount, s))
        if st.as_name:
            self.env[st.as_name] = unpaid

    def s_VerbStmt(self, st: ast.VerbStmt, s: int | None) -> None:
        rt, mode = self.rt, st.amount.mode
        n: Any = self.expr(st.amount.expr, s) if st.amount.expr is not None else None
        if st.verb == "reveal":
            done = rt.reveal(self.frame, s, mode, n)
        elif st.verb in ("arrange", "foresee") and st.kind == "events":
            done = rt.look_at_events(self.frame, s, n, st.verb == "arrange")
        elif st.verb == "reshuffle":
            done = rt.reshuffle_events(self.frame, mode, n)
        elif st.verb == "arrange":
            done = rt.arrange(self.frame, s, n)
        elif st.verb == "move":
            done = rt.move(self.frame, s, mode, n, st.kind)
        else:
            done = rt.board_verb(self.frame, s, st.verb, mode, n, st.kind, st.near)
        if st.as_name:
            self.env[st.as_name] = done

    def s_VerbIt(self, st: ast.VerbIt, s: int | None) -> None:
        self.rt.verb_it(self.frame, s, st.verb)

    def s_Draw(self, st: ast.Draw, s: int | None) -> None:
        n, stage = self.expr(st.count, s), self.expr(st.stage, s)
        self.rt.draw(self.frame, s, n, stage, self.expr(st.keep, s) if st.keep is not None else None)

    def s_Draft(self, st: ast.Draft, s: int | None) -> None:
        self.rt.draft(self.frame, s, self.expr(st.count, s), self.expr(st.stage, s))

    def s_Unlock(self, st: ast.Unlock, s: int | None) -> None:
        self.rt.unlock(self.frame, s, self.expr(st.stage, s))

    def s_Mark(self, st: ast.Mark, s: int | None) -> None:
        self.rt.mark(self.frame, s, self.expr(st.amount, s) if st.amount is not None else 1)

    def s_Prevent(self, st: ast.Prevent, s: int | None) -> None:
        self.frame.prevented = True

    # ---- expressions ---------------------------------------------------------------------------------
    def e_Num(self, e: ast.Num, s: int | None) -> Any:
        return e.value

    def e_Str(self, e: ast.Str, s: int | None) -> Any:
        return e.value

    def e_It(self, e: ast.It, s: int | None) -> Any:
        return self.frame.it

    def e_Name(self, e: ast.Name, s: int | None) -> Any:
        name, rt, kind = e.name, self.rt, self.meaning[e].kind
        if kind == rs.LOCAL:
            return self.env[name]
        if kind == rs.CARD:
            assert self.card_values is not None, "the resolver reads a card's values only inside count(played …)"
            return self.card_values[name]
        if kind == rs.PARAM:
            return self.params[name]
        if kind == rs.COUNTER:
            return rt.counter(self.entry, self.owner, name)
        if kind == rs.TRACK:
            return rt.track(s, name)
        if kind == rs.COUNT:
            return rt.count(s, name)
        if name == "hand":
            return rt.hand_size(s)
        if name == "revealed":
            return rt.revealed(s)
        if name == "round":
            return rt.round()
        if name == "players":
            return rt.players_in()
        if name == "turn":
            return rt.turn(s)
        if name == "marks":
            return rt.marks(self.frame, s)
        return self.entry.uses if self.entry is not None else 0

    def e_Neg(self, e: ast.Neg, s: int | None) -> Any:
        return -self.expr(e.operand, s)

    def e_Not(self, e: ast.Not, s: int | None) -> Any:
        return not self.expr(e.operand, s)

    def e_BinOp(self, e: ast.BinOp, s: int | None) -> Any:
        a, b = self.expr(e.left, s), self.expr(e.right, s)
        if e.op == "//":
            return a // b
        return num(a + b if e.op == "+" else a - b if e.op == "-" else a * b)

    def e_Compare(self, e: ast.Compare, s: int | None) -> Any:
        return _CMP[e.op](self.expr(e.left, s), self.expr(e.right, s))

    def e_BoolOp(self, e: ast.BoolOp, s: int | None) -> Any:
        if e.op == "and":
            return self.expr(e.left, s) and self.expr(e.right, s)
        return self.expr(e.left, s) or self.expr(e.right, s)

    def e_Call(self, e: ast.Call, s: int | None) -> Any:
        rt, f = self.rt, e.func
        if f in registry.AGGREGATES:
            return (rt.highest if f == "highest" else rt.lowest)(self.f, lambda x: self.expr(e.args[0], x))
        if f == "caused_by":
            arg = e.args[0]
            if isinstance(arg, ast.Str):
                return rt.caused_by(self.frame, arg.value, True)
            return rt.caused_by(self.frame, arg.name if isinstance(arg, ast.Name) else "", False)
        args = [self.expr(a, s) for a in e.args]
        if f in ("min", "max"):
            return (min if f == "min" else max)(args)
        if f == "abs":
            return abs(args[0])
        if f == "played":
            return rt.played(s, args[0])
        if f == "event":
            return rt.event_is(args[0])
        if f == "happened":
            return rt.happened(args[0])
        if f == "roll":
            return rt.roll(self.frame, s, *args)
        if f == "advisor":
            return rt.has_advisor(s, args[0])
        if f == "tableau":
            return rt.in_tableau(s, args[0])
        if f == "switched_off":
            return rt.switched_off(s, args[0])
        return rt.is_unlocked(s, args[0])

    def e_CountOf(self, e: ast.CountOf, s: int | None) -> Any:
        rt = self.rt
        if e.near is not None:
            return rt.count_near(self.f, s, e.what, e.near)
        if e.what in registry.CELL_TAGS:
            return rt.count_tagged(s, e.what)
        if e.what in ("played", "tableau"):
            cards = rt.played_cards(s) if e.what == "played" else rt.tableau_cards(s)
            if e.where is None:
                return len(cards)
            outer, n = self.card_values, 0
            for card in cards:
                self.card_values = {"stage": card.stage, "price": card.price[0] if card.price else 0}
                n += bool(self.expr(e.where, s))
            self.card_values = outer
            return n
        cond = e.where
        where = (lambda x: self.expr(cond, x)) if cond is not None else None
        return rt.count_players(self.f, s, e.what == "other player", where)


def _params(card: Card | None) -> dict[str, int]:
    return dict(card.params) if card is not None else {}


def handler(body: Sequence[ast.Stmt], checked: Checked, card: Card, line: int) -> Callable[[Runtime, Frame], None]:
    """A handler as a function of (rt, f), like a generated one; `line` is the handler's own (`on play:`)."""
    meaning, params = checked.meaning, _params(card)

    def run(rt: Runtime, f: Frame) -> None:
        try:
            Walk(rt, f, f.entry, f.owner, meaning, params).players(body, f.owner)
        except EffectError as err:
            raise _at_line(err, line) from None

    return run


def later(body: Sequence[ast.Stmt], checked: Checked, card: Card,
          line: int) -> Callable[[Runtime, Frame, dict[str, Any]], None]:
    """An `after` block as a function of (rt, f, values), like a generated one; `line` is the `after` line."""
    meaning, params = checked.meaning, _params(card)

    def run(rt: Runtime, f: Frame, values: dict[str, Any]) -> None:
        walk = Walk(rt, f, f.entry, f.owner, meaning, params)
        walk.env.update((k, v) for k, v in values.items() if k != "S")
        try:
            walk.players(body, values["S"])
        except EffectError as err:
            raise _at_line(err, line) from None

    return run


def expression(expr: ast.Expr, checked: Checked, card: Card | None = None,
               line: int = 0) -> Callable[[Runtime, int | None, Entry | None], Any]:
    """A modifier's amount or a condition as a function of (rt, seat, entry), like a generated one; `line`
    is the line a failure names (0: the caller names it)."""
    meaning, params = checked.meaning, _params(card)

    def run(rt: Runtime, seat: int | None, entry: Entry | None) -> Any:
        try:
            return Walk(rt, None, entry, seat, meaning, params).expr(expr, seat)
        except FAILURES as err:
            if not line:
                raise
            raise _at_line(err, line) from None

    return run
