"""One visitor for the effect language's trees: a method per node type, and a walker that forgets one fails at once.

The checker, the code generator, the reference walker and the greedy agent's estimate all walk
the same trees. Each subclasses Visitor and names its methods after the node types: `s_If` for a
statement, `e_BinOp` for an expression, `d_Modify` for a declaration. A subclass that misses a node
type of the parts it walks is refused when its class is made (TypeError naming the missing
methods), so a new statement means one place to add, and no walker can forget it quietly.
"""

from __future__ import annotations

import typing
from typing import Any

from rulekit.language import ast

STATEMENTS: tuple[type, ...] = typing.get_args(ast.Stmt)
EXPRESSIONS: tuple[type, ...] = typing.get_args(ast.Expr)
DECLARATIONS: tuple[type, ...] = tuple(t for t in typing.get_args(ast.Item) if t is not ast.Handler)
_PREFIX = {"statements": ("s_", STATEMENTS), "expressions": ("e_", EXPRESSIONS), "declarations": ("d_", DECLARATIONS)}


class Visitor:
    """Dispatch on node type. Subclasses say which parts they walk: `class X(Visitor, walks=("statements",))`."""

    walks: tuple[str, ...] = ()

    def __init_subclass__(cls, walks: tuple[str, ...] | None = None, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if walks is not None:
            cls.walks = walks
        missing = [prefix + t.__name__ for part in cls.walks for prefix, types in [_PREFIX[part]]
                   for t in types if not hasattr(cls, prefix + t.__name__)]
        if missing:
            raise TypeError(f"{cls.__name__} walks {', '.join(cls.walks)} of the effect language but has no "
                            f"method for: {', '.join(missing)}")

    def stmt(self, node: ast.Stmt, *args: Any) -> Any:
        return getattr(self, _S[type(node)])(node, *args)

    def expr(self, node: ast.Expr, *args: Any) -> Any:
        return getattr(self, _E[type(node)])(node, *args)

    def decl(self, node: ast.Item, *args: Any) -> Any:
        return getattr(self, _D[type(node)])(node, *args)


_S = {t: "s_" + t.__name__ for t in STATEMENTS}
_E = {t: "e_" + t.__name__ for t in EXPRESSIONS}
_D = {t: "d_" + t.__name__ for t in DECLARATIONS}
