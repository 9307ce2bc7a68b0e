"""Content -> a Program the core runs: every card compiled once (generated Python, or the reference walker)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rulekit.interpreter.program import EVALUATORS, CompiledCard, Program
from rulekit.language import ast
from rulekit.language.checker import Checked
from rulekit.model import Card, Content

__all__ = ["EVALUATORS", "CompiledCard", "Program", "compile_content"]

_cache: dict[tuple[Any, ...], tuple[Content, Program]] = {}


def compile_content(content: Content, rules: Mapping[str, Any], evaluator: str = "compiled",
                    combos: Sequence[Card] | None = None,
                    unlock: tuple[Mapping[str, Checked], Mapping[str, str]] | None = None) -> Program:
    """The Program of a content, compiled once and kept for the next game.

    `unlock` replaces the content's unlock conditions (a scenario's own `rules: unlock:`): the checked
    conditions by stage, and the file each was written in. Nothing here parses text.
    """
    exprs, files = unlock if unlock is not None else (content.unlock, content.unlock_files)
    key = (id(content), evaluator, tuple((k, id(e)) for k, e in sorted(exprs.items())),
           None if combos is None else tuple(c.id for c in combos))
    hit = _cache.get(key)
    if hit is not None and hit[0] is content:
        return hit[1]
    conditions = {name: (c, _where(files.get(name), c.condition, name)) for name, c in exprs.items()}
    program = Program(content, conditions, evaluator, combos)
    if len(_cache) > 16:
        _cache.clear()
    _cache[key] = (content, program)
    return program


def _where(file: str | None, expr: ast.Expr | None, name: str) -> str:
    """How an error in an unlock condition names it: rules.yaml:LINE:COL: unlock.stage2."""
    from rulekit.content.rules import DEFAULT_SOURCE

    if not file or file == DEFAULT_SOURCE or expr is None or not expr.pos.line:
        return f"{file or DEFAULT_SOURCE}, unlock.{name}"
    return f"{file}:{expr.pos.line}:{expr.pos.col}: unlock.{name}"
