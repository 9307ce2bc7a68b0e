"""The simple tree-walking evaluator the generated code is checked against: same runtime calls, same order."""

from __future__ import annotations

from rulekit import registry
from rulekit.core.errors import EffectError
from rulekit.interpreter.codegen import after_name
from rulekit.interpreter.runtime import num
from rulekit.language import ast

_CMP = {"==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
        "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}


class Walk:
    """One run of a handler (or one expression) by walking its tree; `env` holds let/choose/as names."""

    __slots__ = ("rt", "f", "entry", "owner", "env", "subjects", "card_values", "counter_names")

    def __init__(self, rt, f, entry, owner, counter_names=frozenset()):
        self.rt = rt
        self.f = f
        self.entry = entry
        self.owner = owner
        self.counter_names = counter_names  # the numbers kept on this card (`counters:`)
        self.env: dict[str, object] = {}
        self.subjects: list = []            # the subject of each player block we are in
        self.card_values = None             # the card `count(played where …)` is reading

    def players(self, body, seat) -> None:
        self.subjects.append(seat)
        self.block(body, seat)
        self.subjects.pop()

    def block(self, stmts, s) -> None:
        self.rt.tick(len(stmts))
        for st in stmts:
            try:
                self.stmt(st, s)
            except (EffectError, ArithmeticError, RecursionError) as err:
                if isinstance(err, EffectError):
                    if not err.line and err.card is None:
                        err.line = st.pos.line
                    raise
                wrapped = EffectError(_ARITH.get(type(err), "a number too large"), None, st.pos.line)
                raise wrapped from None

    def stmt(self, st, s) -> None:
        rt, f, ev = self.rt, self.f, self.value
        if isinstance(st, ast.TrackChange):
            if st.track in self.counter_names:
                rt.change_counter(f, st.track, st.op, ev(st.expr, s))
            else:
                rt.change(f, s, st.track, st.op, ev(st.expr, s))
        elif isinstance(st, ast.Let):
            self.env[st.name] = ev(st.expr, s)
        elif isinstance(st, ast.If):
            for cond, body in st.branches:
                if ev(cond, s):
                    self.block(body, s)
                    return
            if st.orelse is not None:
                self.block(st.orelse, s)
        elif isinstance(st, ast.EachPlayer):
            for seat in rt.each_player(f, s, st.other):
                if st.where is None or ev(st.where, seat):
                    self.players(st.body, seat)
        elif isinstance(st, ast.PlayerWith):
            for seat in rt.players_with(f, st.which, lambda x: ev(st.expr, x)):
                self.players(st.body, seat)
        elif isinstance(st, ast.ChoosePlayer):
            where = (lambda x: ev(st.where, x)) if st.where is not None else None
            seat = rt.choose_player(f, s, st.other, where)
            if seat is not None:
                self.players(st.body, seat)
        elif isinstance(st, ast.Transfer):
            inner, outer = self.subjects[-1], self.subjects[-2]
            src, dst = (inner, outer) if st.direction == "take" else (outer, inner)
            n = ev(st.amount.expr, s) if st.amount.expr is not None else None
            left = rt.transfer(f, st.direction, src, dst, st.what, st.amount.mode, n)
            if st.as_name:
                self.env[st.as_name] = left
        elif isinstance(st, ast.Discard):
            n = ev(st.amount.expr, s) if st.amount.expr is not None else None
            done = rt.discard(f, s, st.amount.mode, n)
            if st.as_name:
                self.env[st.as_name] = done
        elif isinstance(st, ast.MayDiscard):
            if rt.may_discard(f, s, ev(st.amount, s)):
                self.block(st.body, s)
        elif isinstance(st, ast.After):
            rt.after(f, s, ev(st.count, s), after_name(st), dict(self.env))
        elif isinstance(st, ast.Repeat):
            for _ in rt.repeat(ev(st.count, s)):
                self.block(st.body, s)
        elif isinstance(st, ast.Choose):
            self.env[st.name] = rt.choose(f, s, ev(st.lo, s), ev(st.hi, s))
        elif isinstance(st, ast.May):
            if rt.may(f, s):
                self.block(st.body, s)
        elif isinstance(st, ast.MayPay):
            if rt.may_pay(f, s, ev(st.amount, s)):
                self.block(st.body, s)
        elif isinstance(st, ast.Spend):
            rt.spend(f, s, ev(st.amount, s))
        elif isinstance(st, ast.Pay):
            unpaid = rt.pay(f, s, ev(st.amount, s))
            if st.as_name:
                self.env[st.as_name] = unpaid
        elif isinstance(st, ast.VerbStmt):
            n = ev(st.amount.expr, s) if st.amount.expr is not None else None
            if st.verb == "reveal":
                done = rt.reveal(f, s, st.amount.mode, n)
            elif st.verb == "arrange":
                done = rt.arrange(f, s, n)
            elif st.verb == "move":
                done = rt.move(f, s, st.amount.mode, n, st.kind)
            else:
                done = rt.board_verb(f, s, st.verb, st.amount.mode, n, st.kind)
            if st.as_name:
                self.env[st.as_name] = done
        elif isinstance(st, ast.VerbIt):
            rt.verb_it(f, s, st.verb)
        elif isinstance(st, ast.Draw):
            n, stage = ev(st.count, s), ev(st.stage, s)
            rt.draw(f, s, n, stage, ev(st.keep, s) if st.keep is not None else None)
        elif isinstance(st, ast.Unlock):
            rt.unlock(f, s, ev(st.stage, s))
        elif isinstance(st, ast.Prevent):
            f.prevented = True
        else:  # pragma: no cover - the parser makes no other statement
            raise AssertionError(type(st).__name__)

    def value(self, e, s):
        rt = self.rt
        if isinstance(e, ast.Num | ast.Str):
            return e.value
        if isinstance(e, ast.It):
            return self.f.it
        if isinstance(e, ast.Name):
            if e.name in self.env:
                return self.env[e.name]
            if self.card_values is not None and e.name in self.card_values:
                return self.card_values[e.name]
            if e.name in self.counter_names:
                return rt.counter(self.entry, self.owner, e.name)
            return self.name(e.name, s)
        if isinstance(e, ast.CountOf):
            return self.count_of(e, s)
        if isinstance(e, ast.Neg):
            return -self.value(e.operand, s)
        if isinstance(e, ast.Not):
            return not self.value(e.operand, s)
        if isinstance(e, ast.BinOp):
            a, b = self.value(e.left, s), self.value(e.right, s)
            if e.op == "//":
                return a // b
            return num(a + b if e.op == "+" else a - b if e.op == "-" else a * b)
        if isinstance(e, ast.Compare):
            return _CMP[e.op](self.value(e.left, s), self.value(e.right, s))
        if isinstance(e, ast.BoolOp):
            if e.op == "and":
                return self.value(e.left, s) and self.value(e.right, s)
            return self.value(e.left, s) or self.value(e.right, s)
        if isinstance(e, ast.Call):
            if e.func in registry.AGGREGATES:
                agg = rt.highest if e.func == "highest" else rt.lowest
                return agg(self.f, lambda x: self.value(e.args[0], x))
            args = [self.value(a, s) for a in e.args]
            if e.func in ("min", "max"):
                return (min if e.func == "min" else max)(args)
            if e.func == "abs":
                return abs(args[0])
            if e.func == "played":
                return rt.played(s, args[0])
            if e.func == "event":
                return rt.event_is(args[0])
            if e.func == "happened":
                return rt.happened(args[0])
            return rt.is_unlocked(s, args[0])
        raise AssertionError(type(e).__name__)  # pragma: no cover

    def count_of(self, e: ast.CountOf, s):
        rt = self.rt
        if e.what == "played":
            cards = rt.played_cards(s)
            if e.where is None:
                return len(cards)
            outer, n = self.card_values, 0
            for card in cards:
                self.card_values = {"stage": card.stage, "price": card.price[0] if card.price else 0}
                n += bool(self.value(e.where, s))
            self.card_values = outer
            return n
        where = (lambda x: self.value(e.where, x)) if e.where is not None else None
        return rt.count_players(self.f, s, e.what == "other player", where)

    def name(self, name: str, s):
        rt = self.rt
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


_ARITH = {ZeroDivisionError: "division by zero", OverflowError: "a number too large",
          RecursionError: "effects nested too deeply"}


def _counters(card) -> frozenset[str]:
    return frozenset(name for name, _ in getattr(card, "counters", ()))


def handler(body, card):
    """A handler as a function of (rt, f), like a generated one."""
    names = _counters(card)

    def run(rt, f):
        Walk(rt, f, f.entry, f.owner, names).players(body, f.owner)

    return run


def later(body, card):
    """An `after` block as a function of (rt, f, values), like a generated one."""
    names = _counters(card)

    def run(rt, f, values):
        walk = Walk(rt, f, f.entry, f.owner, names)
        walk.env.update((k, v) for k, v in values.items() if k != "S")
        walk.players(body, values["S"])

    return run


def expression(expr, card=None):
    """A modifier's amount or a condition as a function of (rt, seat, entry), like a generated one."""
    names = _counters(card)

    def run(rt, seat, entry):
        return Walk(rt, None, entry, seat, names).value(expr, seat)

    return run
