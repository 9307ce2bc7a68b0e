"""Content -> a Program the core runs: every card compiled once (generated Python, or the reference walker)."""

from __future__ import annotations

from rulekit.interpreter.program import EVALUATORS, CompiledCard, Program

__all__ = ["EVALUATORS", "CompiledCard", "Program", "compile_content"]

_cache: dict = {}


def compile_content(content, rules: dict, evaluator: str = "compiled", combos=None) -> Program:
    """The Program of a content under these rules, compiled once and kept for the next game."""
    key = (id(content), evaluator, repr(rules.get("unlock")), None if combos is None else tuple(c.id for c in combos))
    hit = _cache.get(key)
    if hit is not None and hit[0] is content:
        return hit[1]
    program = Program(content, unlock_conditions(content, rules), evaluator, combos)
    if len(_cache) > 16:
        _cache.clear()
    _cache[key] = (content, program)
    return program


def unlock_conditions(content, rules: dict) -> dict:
    """name -> (parsed condition, where it is written) for rules.yaml's unlock.stage2 and unlock.stage3."""
    from rulekit.core.errors import EffectError
    from rulekit.language.parser import parse_expression

    out = {}
    root = getattr(content, "root", "") or ""
    for name in ("stage2", "stage3"):
        text = str(rules["unlock"][name])
        expr, diags = parse_expression(text)
        if expr is None:
            raise EffectError(f"rules.yaml unlock.{name} cannot be read: {diags[0].message}")
        out[name] = (expr, f"{root}/rules.yaml unlock.{name}" if root else f"rules.yaml unlock.{name}")
    return out
