"""Compiling cards and rule conditions into callables the core runs (compiled, or the reference walker)."""

from __future__ import annotations

from rulekit.interpreter import compiler, reference
from rulekit.interpreter.program import CompiledCard, build, guarded

EVALUATORS = {"compiled": compiler, "reference": reference}

_cache: dict = {}


def compile_content(content, rules: dict, evaluator: str = "compiled"):
    """Every card of the content and the unlock conditions, compiled once per (content, rules)."""
    key = (id(content), evaluator, repr(rules.get("unlock")))
    hit = _cache.get(key)
    if hit is not None and hit[0] is content:
        return hit[1], hit[2]
    mod = EVALUATORS[evaluator]
    compiled: dict[str, CompiledCard] = {}
    for card in content.cards:
        c = build(card, card.effect, mod.compile_block, mod.compile_expr)
        if card.when is not None:
            c.condition = guarded(mod.compile_expr(card.when, card), card, card.line)
        compiled[card.id] = c
    conditions = {name: mod.compile_expr(expr) for name, expr in unlock_conditions(rules).items()}
    if len(_cache) > 8:
        _cache.clear()
    _cache[key] = (content, compiled, conditions)
    return compiled, conditions


def unlock_conditions(rules: dict) -> dict:
    """The parsed unlock expressions of rules.yaml (the loader reports their errors first)."""
    from rulekit.core.errors import EffectError
    from rulekit.language.parser import parse_expression

    out = {}
    for name in ("stage2", "stage3"):
        text = str(rules["unlock"][name])
        expr, diags = parse_expression(text)
        if expr is None:
            raise EffectError(f"rules.yaml unlock.{name} cannot be read: {diags[0].message}")
        out[name] = expr
    return out
