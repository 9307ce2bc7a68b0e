"""The simple tree-walking evaluator the compiled one is checked against (same runtime, same answers)."""

from __future__ import annotations

from rulekit import registry
from rulekit.core.errors import EffectError
from rulekit.interpreter.program import CAUGHT, locate
from rulekit.language import ast


def compile_block(stmts, card):
    return lambda ctx: run_block(stmts, ctx, card)


def compile_expr(expr, card=None):
    return lambda ctx: evaluate(expr, ctx)


def run_block(stmts, ctx, card) -> None:
    for s in stmts:
        try:
            execute(s, ctx, card)
        except CAUGHT as err:
            raise locate(err, card, s.pos.line) from None


def execute(s, ctx, card) -> None:
    g = ctx.game
    if isinstance(s, ast.TrackChange):
        g.change_track(ctx, s.track, s.op, evaluate(s.expr, ctx))
    elif isinstance(s, ast.Let):
        ctx.env[s.name] = evaluate(s.expr, ctx)
    elif isinstance(s, ast.If):
        for cond, body in s.branches:
            if evaluate(cond, ctx):
                run_block(body, ctx, card)
                return
        if s.orelse is not None:
            run_block(s.orelse, ctx, card)
    elif isinstance(s, ast.EachPlayer):
        for seat in g.players_each(ctx, s.other):
            sub = ctx.sub(seat)
            if s.where is None or evaluate(s.where, sub):
                run_block(s.body, sub, card)
    elif isinstance(s, ast.PlayerWith):
        for seat in g.players_with(ctx, s.which, lambda c: evaluate(s.expr, c)):
            run_block(s.body, ctx.sub(seat), card)
    elif isinstance(s, ast.Repeat):
        n = evaluate(s.count, ctx)
        if n < 0 or n > registry.MAX_REPEAT:
            raise EffectError(f"repeat {n}: a repeat count must be 0 to {registry.MAX_REPEAT}")
        for _ in range(n):
            run_block(s.body, ctx, card)
    elif isinstance(s, ast.Choose):
        ctx.env[s.name] = g.choose_number(ctx, evaluate(s.lo, ctx), evaluate(s.hi, ctx))
    elif isinstance(s, ast.May):
        if g.may(ctx):
            run_block(s.body, ctx, card)
    elif isinstance(s, ast.MayPay):
        if g.may_pay(ctx, evaluate(s.amount, ctx)):
            run_block(s.body, ctx, card)
    elif isinstance(s, ast.Spend):
        g.spend(ctx, evaluate(s.amount, ctx))
    elif isinstance(s, ast.Pay):
        unpaid = g.pay(ctx, evaluate(s.amount, ctx))
        if s.as_name:
            ctx.env[s.as_name] = unpaid
    elif isinstance(s, ast.VerbStmt):
        n = evaluate(s.amount.expr, ctx) if s.amount.expr is not None else None
        if s.verb == "reveal":
            done = g.reveal_tiles(ctx, s.amount.mode, n)
        elif s.verb == "arrange":
            done = g.arrange(ctx, n)
        else:
            done = g.board_verb(ctx, s.verb, s.amount.mode, n, s.kind)
        if s.as_name:
            ctx.env[s.as_name] = done
    elif isinstance(s, ast.VerbIt):
        g.verb_it(ctx, s.verb)
    elif isinstance(s, ast.Draw):
        keep = evaluate(s.keep, ctx) if s.keep is not None else None
        g.draw(ctx, evaluate(s.count, ctx), evaluate(s.stage, ctx), keep)
    elif isinstance(s, ast.Unlock):
        g.unlock(ctx, evaluate(s.stage, ctx))
    elif isinstance(s, ast.Prevent):
        ctx.root.prevented = True
    else:  # pragma: no cover - the parser makes no other statement
        raise AssertionError(type(s).__name__)


def evaluate(e, ctx):
    if isinstance(e, ast.Num):
        return e.value
    if isinstance(e, ast.Str):
        return e.value
    if isinstance(e, ast.It):
        return ctx.it
    if isinstance(e, ast.Name):
        if e.name in ctx.env:
            return ctx.env[e.name]
        return ctx.game.value(ctx, e.name)
    if isinstance(e, ast.Neg):
        return -evaluate(e.operand, ctx)
    if isinstance(e, ast.Not):
        return not evaluate(e.operand, ctx)
    if isinstance(e, ast.BinOp):
        a, b = evaluate(e.left, ctx), evaluate(e.right, ctx)
        return a + b if e.op == "+" else a - b if e.op == "-" else a * b if e.op == "*" else a // b
    if isinstance(e, ast.Compare):
        a, b = evaluate(e.left, ctx), evaluate(e.right, ctx)
        return {"==": a == b, "!=": a != b, "<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[e.op]
    if isinstance(e, ast.BoolOp):
        if e.op == "and":
            return bool(evaluate(e.left, ctx)) and bool(evaluate(e.right, ctx))
        return bool(evaluate(e.left, ctx)) or bool(evaluate(e.right, ctx))
    if isinstance(e, ast.Call):
        args = [evaluate(a, ctx) for a in e.args]
        g = ctx.game
        return {
            "min": lambda: min(args), "max": lambda: max(args), "abs": lambda: abs(args[0]),
            "played": lambda: g.played(ctx, args[0]), "event": lambda: g.event_is(args[0]),
            "happened": lambda: g.happened(args[0]), "unlocked": lambda: g.is_unlocked(ctx, args[0]),
        }[e.func]()
    raise AssertionError(type(e).__name__)  # pragma: no cover
