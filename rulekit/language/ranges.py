"""The values an expression can take, from the text alone: numbers, the ranges of the game's names, and
what the names of an effect hold; and expressions written out again for messages.

The checker asks these (`RK232` dividing by 0, `RK235` amounts beyond a track, `RK223` empty choices …).
A range is (lo, hi), None being an open end. Names are not resolved here: the caller says, through
`name`, what each name can hold (it reads rulekit.language.resolve's table).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rulekit import registry
from rulekit.language import ast
from rulekit.language.visitor import Visitor

Range = tuple[int | None, int | None]      # the values an expression can take; None: no bound known
ANY: Range = (None, None)
_MOST_PLAYERS = 4
# The range of every name the game provides, on any board.
NAME_RANGES: dict[str, Range] = {
    **{name: (t.lo, t.hi) for name, t in registry.SETTABLE.items()},
    **{name: (0, None) for name in registry.COUNTS},
    "hand": (0, None), "round": (1, None), "players": (1, _MOST_PLAYERS), "uses": (0, None),
    "turn": (1, _MOST_PLAYERS),
}
MOST_PLAYERS = _MOST_PLAYERS      # what an aggregate over the players may visit
# No amount in the game is larger than this: the largest bound of any track (money's ceiling).
LARGEST_AMOUNT = max(abs(b) for t in registry.SETTABLE.values() for b in (t.lo, t.hi) if b is not None)


def _in_limit(v: int | None) -> int | None:
    return v if v is not None and abs(v) <= registry.MAX_NUMBER else None


class Ranges(Visitor, walks=("expressions",)):
    """The range of values of expressions, from numbers, names and bindings; numbers past the
    limit are noted (never computed further, so a chain of products cannot grow without bound)."""

    def __init__(self, name: Callable[[ast.Name], Range], overflow: Callable[[ast.Node, int], None] | None = None):
        self.name = name
        self.overflow = overflow

    def of(self, e: ast.Expr) -> Range:
        r: Range = self.expr(e)
        return r

    def e_Num(self, e: ast.Num) -> Range:
        return e.value, e.value

    def e_Name(self, e: ast.Name) -> Range:
        return self.name(e)

    def e_Neg(self, e: ast.Neg) -> Range:
        lo, hi = self.of(e.operand)
        return (None if hi is None else -hi), (None if lo is None else -lo)

    def e_Call(self, e: ast.Call) -> Range:
        return self.call(e) if e.func in registry.FUNCTIONS else ANY

    def unknown(self, e: ast.Expr) -> Range:
        """Not a number the text fixes (a truth value, a card, a count of players …): any value."""
        return ANY

    e_Str = e_It = e_Not = e_Compare = e_BoolOp = e_CountOf = unknown

    def e_BinOp(self, e: ast.BinOp) -> Range:
        return self.binop(e.op, self.of(e.left), self.of(e.right), e)

    def binop(self, op: str, left: Range, right: Range, at: ast.Node) -> Range:
        """`left op right`, written at `at` (where a number past the limit is noted)."""
        (a, b), (c, d) = left, right
        if a is not None and a == b and c is not None and c == d:
            value = _exact(op, a, c)
            if value is not None and abs(value) > registry.MAX_NUMBER:
                if self.overflow is not None:
                    self.overflow(at, value)
                return ANY
            return value, value
        if op == "+":
            return _add(a, c), _add(b, d)
        if op == "-":
            return _add(a, None if d is None else -d), _add(b, None if c is None else -c)
        if op == "*" and a is not None and b is not None and c is not None and d is not None:
            products = [x * y for x in (a, b) for y in (c, d)]
            return _in_limit(min(products)), _in_limit(max(products))
        if op == "*" and a is not None and c is not None and a >= 0 and c >= 0:
            return a * c, None
        if op == "//" and c is not None and c == d and c > 0:
            return (None if a is None else a // c), (None if b is None else b // c)
        return ANY

    def call(self, e: ast.Call) -> Range:
        args = [self.of(a) for a in e.args]
        if e.func == "roll":                  # 1 to the sides: a die of at most N sides
            hi = args[0][1] if args else None
            return 1, (None if hi is None else max(1, hi))
        if e.func == "abs" and len(args) == 1:
            lo, hi = args[0]
            if lo is not None and lo >= 0:
                return lo, hi
            if hi is not None and hi <= 0:
                return -hi, (None if lo is None else -lo)
            return 0, (None if lo is None or hi is None else max(-lo, hi))
        if len(args) != 2:
            return ANY
        (a, b), (c, d) = args
        if e.func == "max":
            return _bound(max, a, c, a is None and c is None), _bound(max, b, d, b is None or d is None)
        return _bound(min, a, c, a is None or c is None), _bound(min, b, d, b is None and d is None)


def _exact(op: str, a: int, b: int) -> int | None:
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    return a // b if b else None


def _add(a: int | None, b: int | None) -> int | None:
    return None if a is None or b is None else _in_limit(a + b)


def _bound(pick: Callable[[list[int]], int], a: int | None, b: int | None, unbounded: bool) -> int | None:
    """max or min of two bounds, where None is the open end: `unbounded` says the result is open."""
    if unbounded:
        return None
    return pick([x for x in (a, b) if x is not None])


def hull(ranges: Sequence[Range]) -> Range:
    """The smallest range holding all of these (a value after one of several paths)."""
    los, his = [r[0] for r in ranges], [r[1] for r in ranges]
    lo = None if any(v is None for v in los) else min(v for v in los if v is not None)
    hi = None if any(v is None for v in his) else max(v for v in his if v is not None)
    return lo, hi


def can_be_zero(r: Range) -> bool:
    lo, hi = r
    return (lo is None or lo <= 0) and (hi is None or hi >= 0)


def show(e: ast.Expr) -> str:
    """An expression written out again, as a designer would write it (for messages)."""
    if isinstance(e, ast.Num):
        return str(e.value)
    if isinstance(e, ast.Str):
        return f'"{e.value}"'
    if isinstance(e, ast.Name):
        return e.name
    if isinstance(e, ast.It):
        return "it"
    if isinstance(e, ast.Neg):
        return f"-{_operand(e.operand)}"
    if isinstance(e, ast.Not):
        return f"not {_operand(e.operand)}"
    if isinstance(e, (ast.BinOp, ast.Compare, ast.BoolOp)):
        return f"{_operand(e.left)} {e.op} {_operand(e.right)}"
    if isinstance(e, ast.Call) and e.rerolls and len(e.args) == 2:
        return f"{e.func}({show(e.args[0])}, rerolls {show(e.args[1])})"
    if isinstance(e, ast.Call):
        return f"{e.func}({', '.join(show(a) for a in e.args)})"
    return "…"


def _operand(e: ast.Expr) -> str:
    text = show(e)
    return f"({text})" if isinstance(e, (ast.BinOp, ast.Compare, ast.BoolOp)) else text
