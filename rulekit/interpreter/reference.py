"""The simple tree-walking evaluator the generated code is checked against: same runtime calls, same order."""

from __future__ import annotations

from rulekit import registry
from rulekit.core.errors import EffectError
from rulekit.interpreter.codegen import after_name
from rulekit.interpreter.runtime import arithmetic_error, num
from rulekit.language import ast
from rulekit.language.visitor import Visitor

_CMP = {"==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
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


class Walk(Visitor, walks=("statements", "expressions")):
    """One run of a handler (or one expression) by walking its tree; `env` holds let/choose/as names."""

    __slots__ = ("card_values", "counter_names", "entry", "env", "f", "owner", "params", "rt", "subjects")

    def __init__(self, rt, f, entry, owner, counter_names=frozenset(), params=None):
        self.rt = rt
        self.f = f
        self.entry = entry
        self.owner = owner
        self.counter_names = counter_names  # the numbers kept on this card (`counters:`)
        self.params = params or {}          # the numbers this card names (`params:`), constants
        self.env: dict[str, object] = {}
        self.subjects: list = []            # the subject of each player block we are in
        self.card_values = None             # the card `count(played where …)` is reading

    def players(self, body, seat) -> None:
        self.subjects.append(seat)
        self.block(body, seat)
        self.subjects.pop()

    def block(self, stmts, s) -> None:
        self.rt.tick(len(stmts))            # charged to the statement holding the block (its try, outside)
        for st in stmts:
            try:
                self.stmt(st, s)
            except FAILURES as err:
                raise _at_line(err, st.pos.line) from None

    # ---- statements --------------------------------------------------------------------------------
    def s_TrackChange(self, st: ast.TrackChange, s) -> None:
        value = self.expr(st.expr, s)
        if st.track in self.env:
            cur = self.env[st.track]
            self.env[st.track] = value if st.op == "=" else num(cur + value if st.op == "+=" else cur - value)
        elif st.track in self.counter_names:
            self.rt.change_counter(self.f, st.track, st.op, value)
        else:
            self.rt.change(self.f, s, st.track, st.op, value)

    def s_Let(self, st: ast.Let, s) -> None:
        self.env[st.name] = self.expr(st.expr, s)

    def s_If(self, st: ast.If, s) -> None:
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

    def s_EachPlayer(self, st: ast.EachPlayer, s) -> None:
        for seat in self.rt.each_player(self.f, s, st.other):
            if st.where is None or self.expr(st.where, seat):
                self.players(st.body, seat)

    def s_PlayerWith(self, st: ast.PlayerWith, s) -> None:
        for seat in self.rt.players_with(self.f, st.which, lambda x: self.expr(st.expr, x)):
            self.players(st.body, seat)

    def s_Me(self, st: ast.Me, s) -> None:
        self.players(st.body, self.owner)

    def s_ChoosePlayer(self, st: ast.ChoosePlayer, s) -> None:
        where = (lambda x: self.expr(st.where, x)) if st.where is not None else None
        seat = self.rt.choose_player(self.f, s, st.other, where)
        if seat is not None:
            self.players(st.body, seat)

    def s_Transfer(self, st: ast.Transfer, s) -> None:
        inner, outer = self.subjects[-1], self.subjects[-2]
        src, dst = (inner, outer) if st.direction == "take" else (outer, inner)
        n = self.expr(st.amount.expr, s) if st.amount.expr is not None else None
        left = self.rt.transfer(self.f, st.direction, src, dst, st.what, st.amount.mode, n)
        if st.as_name:
            self.env[st.as_name] = left

    def s_Discard(self, st: ast.Discard, s) -> None:
        n = self.expr(st.amount.expr, s) if st.amount.expr is not None else None
        done = self.rt.discard(self.f, s, st.amount.mode, n)
        if st.as_name:
            self.env[st.as_name] = done

    def s_MayDiscard(self, st: ast.MayDiscard, s) -> None:
        if self.rt.may_discard(self.f, s, self.expr(st.amount, s)):
            self.block(st.body, s)

    def s_After(self, st: ast.After, s) -> None:
        self.rt.after(self.f, s, self.expr(st.count, s), after_name(st), dict(self.env))

    def s_Repeat(self, st: ast.Repeat, s) -> None:
        for _ in self.rt.repeat(self.expr(st.count, s)):
            self.block(st.body, s)

    def s_Choose(self, st: ast.Choose, s) -> None:
        lo, hi = self.expr(st.lo, s), self.expr(st.hi, s)
        self.env[st.name] = self.rt.choose(self.f, s, lo, hi)

    def s_May(self, st: ast.May, s) -> None:
        if self.rt.may(self.f, s):
            self.block(st.body, s)

    def s_MayPay(self, st: ast.MayPay, s) -> None:
        if self.rt.may_pay(self.f, s, self.expr(st.amount, s)):
            self.block(st.body, s)

    def s_Spend(self, st: ast.Spend, s) -> None:
        self.rt.spend(self.f, s, self.expr(st.amount, s))

    def s_Pay(self, st: ast.Pay, s) -> None:
        unpaid = self.rt.pay(self.f, s, self.expr(st.amount, s))
        if st.as_name:
            self.env[st.as_name] = unpaid

    def s_VerbStmt(self, st: ast.VerbStmt, s) -> None:
        rt, mode = self.rt, st.amount.mode
        n = self.expr(st.amount.expr, s) if st.amount.expr is not None else None
        if st.verb == "reveal":
            done = rt.reveal(self.f, s, mode, n)
        elif st.verb == "arrange":
            done = rt.arrange(self.f, s, n)
        elif st.verb == "move":
            done = rt.move(self.f, s, mode, n, st.kind)
        else:
            done = rt.board_verb(self.f, s, st.verb, mode, n, st.kind)
        if st.as_name:
            self.env[st.as_name] = done

    def s_VerbIt(self, st: ast.VerbIt, s) -> None:
        self.rt.verb_it(self.f, s, st.verb)

    def s_Draw(self, st: ast.Draw, s) -> None:
        n, stage = self.expr(st.count, s), self.expr(st.stage, s)
        self.rt.draw(self.f, s, n, stage, self.expr(st.keep, s) if st.keep is not None else None)

    def s_Unlock(self, st: ast.Unlock, s) -> None:
        self.rt.unlock(self.f, s, self.expr(st.stage, s))

    def s_Prevent(self, st: ast.Prevent, s) -> None:
        self.f.prevented = True

    # ---- expressions ---------------------------------------------------------------------------------
    def e_Num(self, e: ast.Num, s):
        return e.value

    def e_Str(self, e: ast.Str, s):
        return e.value

    def e_It(self, e: ast.It, s):
        return self.f.it

    def e_Name(self, e: ast.Name, s):
        name, rt = e.name, self.rt
        if name in self.env:
            return self.env[name]
        if self.card_values is not None and name in self.card_values:
            return self.card_values[name]
        if name in self.params:
            return self.params[name]
        if name in self.counter_names:
            return rt.counter(self.entry, self.owner, name)
        if name in registry.SETTABLE:
            return rt.track(s, name)
        if name in registry.COUNTS:
            return rt.count(s, name)
        if name == "hand":
            return rt.hand_size(s)
        if name == "revealed":
            return rt.revealed(s)
        if name == "round":
            return rt.round()
        if name == "players":
            return rt.players_in()
        return self.entry.uses if self.entry is not None else 0

    def e_Neg(self, e: ast.Neg, s):
        return -self.expr(e.operand, s)

    def e_Not(self, e: ast.Not, s):
        return not self.expr(e.operand, s)

    def e_BinOp(self, e: ast.BinOp, s):
        a, b = self.expr(e.left, s), self.expr(e.right, s)
        if e.op == "//":
            return a // b
        return num(a + b if e.op == "+" else a - b if e.op == "-" else a * b)

    def e_Compare(self, e: ast.Compare, s):
        return _CMP[e.op](self.expr(e.left, s), self.expr(e.right, s))

    def e_BoolOp(self, e: ast.BoolOp, s):
        if e.op == "and":
            return self.expr(e.left, s) and self.expr(e.right, s)
        return self.expr(e.left, s) or self.expr(e.right, s)

    def e_Call(self, e: ast.Call, s):
        rt, f = self.rt, e.func
        if f in registry.AGGREGATES:
            return (rt.highest if f == "highest" else rt.lowest)(self.f, lambda x: self.expr(e.args[0], x))
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
        return rt.is_unlocked(s, args[0])

    def e_CountOf(self, e: ast.CountOf, s):
        rt = self.rt
        if e.what == "played":
            cards = rt.played_cards(s)
            if e.where is None:
                return len(cards)
            outer, n = self.card_values, 0
            for card in cards:
                self.card_values = {"stage": card.stage, "price": card.price[0] if card.price else 0}
                n += bool(self.expr(e.where, s))
            self.card_values = outer
            return n
        where = (lambda x: self.expr(e.where, x)) if e.where is not None else None
        return rt.count_players(self.f, s, e.what == "other player", where)


def _counters(card) -> frozenset[str]:
    return frozenset(name for name, _ in getattr(card, "counters", ()))


def _params(card) -> dict[str, int]:
    return dict(getattr(card, "params", ()))


def handler(body, card, line: int):
    """A handler as a function of (rt, f), like a generated one; `line` is the handler's own (`on play:`)."""
    names, params = _counters(card), _params(card)

    def run(rt, f):
        try:
            Walk(rt, f, f.entry, f.owner, names, params).players(body, f.owner)
        except EffectError as err:
            raise _at_line(err, line) from None

    return run


def later(body, card, line: int):
    """An `after` block as a function of (rt, f, values), like a generated one; `line` is the `after` line."""
    names, params = _counters(card), _params(card)

    def run(rt, f, values):
        walk = Walk(rt, f, f.entry, f.owner, names, params)
        walk.env.update((k, v) for k, v in values.items() if k != "S")
        try:
            walk.players(body, values["S"])
        except EffectError as err:
            raise _at_line(err, line) from None

    return run


def expression(expr, card=None, line: int = 0):
    """A modifier's amount or a condition as a function of (rt, seat, entry), like a generated one; `line`
    is the line a failure names (0: the caller names it)."""
    names, params = _counters(card), _params(card)

    def run(rt, seat, entry):
        try:
            return Walk(rt, None, entry, seat, names, params).expr(expr, seat)
        except FAILURES as err:
            if not line:
                raise
            raise _at_line(err, line) from None

    return run
