"""What a card becomes once compiled: handlers, triggers, reactions and declarations as callables."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from rulekit.core.errors import EffectError
from rulekit.language import ast

# Python errors an effect's arithmetic can raise, with the words a designer reads.
RUNTIME_ERRORS = {
    ZeroDivisionError: "division by zero",
    OverflowError: "a number too large",
    RecursionError: "effects nested too deeply",
}


@dataclass
class CompiledCard:
    """A card's behaviour, compiled once at load and run many times."""

    card: object
    on: dict[str, Callable] = field(default_factory=dict)            # 'play', 'setup', 'resolve', 'income start', …
    triggers: dict[str, list] = field(default_factory=dict)          # word -> [(key, fn, once)]
    react: dict[str, Callable] = field(default_factory=dict)         # word -> fn
    modifiers: list = field(default_factory=list)                    # [(quantity, fn, floor)]
    shields: tuple[str, ...] = ()
    seals: tuple[str, ...] = ()
    condition: Callable | None = None                                # combos: `when:`
    playable: bool = True                                            # False when only `react` handlers


def handler_key(h: ast.Handler) -> str:
    return f"{h.event} {h.edge}" if h.edge else h.event


def build(card, program: ast.Program | None, compile_block, compile_expr) -> CompiledCard:
    """Assemble a CompiledCard; the two evaluators differ only in compile_block/compile_expr."""
    out = CompiledCard(card)
    if program is None:
        return out
    for n, item in enumerate(program.items):
        if isinstance(item, ast.Handler):
            fn = compile_block(item.body, card)
            if item.form == "on":
                out.on[handler_key(item)] = fn
            elif item.form == "react":
                out.react[item.event] = fn
            else:
                out.triggers.setdefault(item.event, []).append(((card.id, n), fn, item.form == "once"))
        elif isinstance(item, ast.Modify):
            out.modifiers.append((item.quantity, guarded(compile_expr(item.expr), card, item.pos.line), item.floor))
        elif isinstance(item, ast.Shield):
            out.shields += tuple(t for t, _ in item.targets)
        elif isinstance(item, ast.Seal):
            out.seals += (item.target,)
    out.playable = bool(out.on or out.triggers or out.modifiers or out.shields or out.seals) or not out.react
    return out


CAUGHT = (EffectError, *RUNTIME_ERRORS)


def locate(err: BaseException, card, line: int) -> EffectError:
    """The EffectError to raise for `err` in `card` at `line`: an EffectError gains what it lacks,
    a Python arithmetic error becomes one in a designer's words."""
    if isinstance(err, EffectError):
        if err.card is None:
            err.card = card
        if not err.line:
            err.line = line
        return err
    return EffectError(RUNTIME_ERRORS[type(err)], card, line)


def guarded(fn: Callable, card, line: int) -> Callable:
    """Run an expression so that any failure names the card and line."""

    def run(ctx):
        try:
            return fn(ctx)
        except CAUGHT as err:
            raise locate(err, card, line) from None

    return run
