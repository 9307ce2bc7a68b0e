"""AST -> Python closures, built once at load, so the game loop never walks a tree or parses text."""

from __future__ import annotations

from typing import Callable

from rulekit import registry
from rulekit.core.errors import EffectError
from rulekit.interpreter.program import CAUGHT, locate
from rulekit.language import ast

_ARITH = {
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    "//": lambda a, b: a // b,
}
_COMPARE = {
    "==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
}


class Compiler:
    """Compiles one card's statements and expressions; tracks the names `let`/`choose`/`as` bind."""

    def __init__(self, card):
        self.card = card
        self.locals: list[set[str]] = [set()]

    # ---- blocks ------------------------------------------------------------------
    def block(self, stmts, card=None) -> Callable:
        self.locals.append(set(self.locals[-1]))
        steps = tuple((self.stmt(s), s.pos.line) for s in stmts)
        self.locals.pop()
        the_card = self.card

        def run(ctx):
            for fn, line in steps:
                try:
                    fn(ctx)
                except CAUGHT as err:
                    raise locate(err, the_card, line) from None

        return run

    def bind(self, name: str) -> None:
        self.locals[-1].add(name)

    # ---- statements ----------------------------------------------------------------
    def stmt(self, s) -> Callable:
        method = getattr(self, "s_" + type(s).__name__)
        return method(s)

    def s_TrackChange(self, s: ast.TrackChange):
        track, op, ev = s.track, s.op, self.expr(s.expr)
        return lambda ctx: ctx.game.change_track(ctx, track, op, ev(ctx))

    def s_Let(self, s: ast.Let):
        name, ev = s.name, self.expr(s.expr)
        self.bind(name)

        def run(ctx):
            ctx.env[name] = ev(ctx)
        return run

    def s_If(self, s: ast.If):
        branches = tuple((self.expr(c), self.block(b)) for c, b in s.branches)
        orelse = self.block(s.orelse) if s.orelse is not None else None

        def run(ctx):
            for cond, body in branches:
                if cond(ctx):
                    body(ctx)
                    return
            if orelse is not None:
                orelse(ctx)
        return run

    def s_EachPlayer(self, s: ast.EachPlayer):
        other = s.other
        where = self.expr(s.where) if s.where is not None else None
        body = self.block(s.body)

        def run(ctx):
            for seat in ctx.game.players_each(ctx, other):
                sub = ctx.sub(seat)
                if where is None or where(sub):
                    body(sub)
        return run

    def s_PlayerWith(self, s: ast.PlayerWith):
        which, ev, body = s.which, self.expr(s.expr), self.block(s.body)

        def run(ctx):
            for seat in ctx.game.players_with(ctx, which, ev):
                body(ctx.sub(seat))
        return run

    def s_Repeat(self, s: ast.Repeat):
        ev, body = self.expr(s.count), self.block(s.body)

        def run(ctx):
            n = ev(ctx)
            if n < 0 or n > registry.MAX_REPEAT:
                raise EffectError(f"repeat {n}: a repeat count must be 0 to {registry.MAX_REPEAT}")
            for _ in range(n):
                body(ctx)
        return run

    def s_Choose(self, s: ast.Choose):
        name, lo, hi = s.name, self.expr(s.lo), self.expr(s.hi)
        self.bind(name)

        def run(ctx):
            ctx.env[name] = ctx.game.choose_number(ctx, lo(ctx), hi(ctx))
        return run

    def s_May(self, s: ast.May):
        body = self.block(s.body)

        def run(ctx):
            if ctx.game.may(ctx):
                body(ctx)
        return run

    def s_MayPay(self, s: ast.MayPay):
        ev, body = self.expr(s.amount), self.block(s.body)

        def run(ctx):
            if ctx.game.may_pay(ctx, ev(ctx)):
                body(ctx)
        return run

    def s_Spend(self, s: ast.Spend):
        ev = self.expr(s.amount)
        return lambda ctx: ctx.game.spend(ctx, ev(ctx))

    def s_Pay(self, s: ast.Pay):
        ev, name = self.expr(s.amount), s.as_name
        if name is None:
            return lambda ctx: ctx.game.pay(ctx, ev(ctx))
        self.bind(name)

        def run(ctx):
            ctx.env[name] = ctx.game.pay(ctx, ev(ctx))
        return run

    def s_VerbStmt(self, s: ast.VerbStmt):
        verb, kind, mode, name = s.verb, s.kind, s.amount.mode, s.as_name
        ev = self.expr(s.amount.expr) if s.amount.expr is not None else (lambda ctx: None)
        if verb == "reveal":
            act = lambda ctx: ctx.game.reveal_tiles(ctx, mode, ev(ctx))
        elif verb == "arrange":
            act = lambda ctx: ctx.game.arrange(ctx, ev(ctx))
        else:
            act = lambda ctx: ctx.game.board_verb(ctx, verb, mode, ev(ctx), kind)
        if name is None:
            return act
        self.bind(name)

        def run(ctx):
            ctx.env[name] = act(ctx)
        return run

    def s_VerbIt(self, s: ast.VerbIt):
        verb = s.verb
        return lambda ctx: ctx.game.verb_it(ctx, verb)

    def s_Draw(self, s: ast.Draw):
        n, stage = self.expr(s.count), self.expr(s.stage)
        keep = self.expr(s.keep) if s.keep is not None else None
        return lambda ctx: ctx.game.draw(ctx, n(ctx), stage(ctx), keep(ctx) if keep is not None else None)

    def s_Unlock(self, s: ast.Unlock):
        ev = self.expr(s.stage)
        return lambda ctx: ctx.game.unlock(ctx, ev(ctx))

    def s_Prevent(self, s: ast.Prevent):
        def run(ctx):
            ctx.root.prevented = True
        return run

    # ---- expressions -----------------------------------------------------------------
    def expr(self, e) -> Callable:
        return getattr(self, "e_" + type(e).__name__)(e)

    def e_Num(self, e: ast.Num):
        v = e.value
        return lambda ctx: v

    def e_Str(self, e: ast.Str):
        v = e.value
        return lambda ctx: v

    def e_It(self, e: ast.It):
        return lambda ctx: ctx.it

    def e_Name(self, e: ast.Name):
        name = e.name
        if name in self.locals[-1]:
            return lambda ctx: ctx.env[name]
        return lambda ctx: ctx.game.value(ctx, name)

    def e_Neg(self, e: ast.Neg):
        ev = self.expr(e.operand)
        return lambda ctx: -ev(ctx)

    def e_Not(self, e: ast.Not):
        ev = self.expr(e.operand)
        return lambda ctx: not ev(ctx)

    def e_BinOp(self, e: ast.BinOp):
        op, a, b = _ARITH[e.op], self.expr(e.left), self.expr(e.right)
        return lambda ctx: op(a(ctx), b(ctx))

    def e_Compare(self, e: ast.Compare):
        op, a, b = _COMPARE[e.op], self.expr(e.left), self.expr(e.right)
        return lambda ctx: op(a(ctx), b(ctx))

    def e_BoolOp(self, e: ast.BoolOp):
        a, b = self.expr(e.left), self.expr(e.right)
        if e.op == "and":
            return lambda ctx: bool(a(ctx)) and bool(b(ctx))
        return lambda ctx: bool(a(ctx)) or bool(b(ctx))

    def e_Call(self, e: ast.Call):
        args = tuple(self.expr(a) for a in e.args)
        f = e.func
        if f == "min":
            return lambda ctx: min(a(ctx) for a in args)
        if f == "max":
            return lambda ctx: max(a(ctx) for a in args)
        if f == "abs":
            a0 = args[0]
            return lambda ctx: abs(a0(ctx))
        a0 = args[0]
        if f == "played":
            return lambda ctx: ctx.game.played(ctx, a0(ctx))
        if f == "event":
            return lambda ctx: ctx.game.event_is(a0(ctx))
        if f == "happened":
            return lambda ctx: ctx.game.happened(a0(ctx))
        if f == "unlocked":
            return lambda ctx: ctx.game.is_unlocked(ctx, a0(ctx))
        raise ValueError(f"unknown function {f}")


def compile_block(stmts, card) -> Callable:
    return Compiler(card).block(stmts)


def compile_expr(expr, card=None) -> Callable:
    return Compiler(card).expr(expr)
