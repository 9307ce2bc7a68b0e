"""Lark parse -> AST as the parser reduces: a Transformer with one method per grammar rule.

Lark calls a method as it reduces its rule (the parser is built with `transformer=`), so no parse
tree is built and walked afterwards. The parser is built with `keep_all_tokens`, so a method gets
every token of its rule ('(' and ')', the line breaks and the block's end), and a node's position
is read off its first and last child as Lark's `propagate_positions` would:

- a node starts where its first child starts and ends where its last child ends;
- an expression in brackets keeps its own position, but the node it stands in starts at its '('
  and ends at its ')' (Lark's "container"), so an expression carries that extent as a `Span`;
- a chain of operators (`a + b - c`) is a node per operator, from its left operand to its right.

Positions are the effect text's own (line 1 is its first line) until `origin` maps them to the file.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from lark import Token, Transformer

from rulekit import registry
from rulekit.language import ast

if TYPE_CHECKING:
    from rulekit.language.parser import Origin

NUMBER_DIGITS = len(str(registry.MAX_NUMBER))


@dataclass(slots=True)
class Span:
    """An expression, and the extent of the text it stands for (its brackets included), in text lines.
    Its extent is named as a Token's is, so a node's position is read off either alike."""

    node: ast.Expr
    line: int
    column: int
    end_line: int
    end_column: int


@dataclass(slots=True)
class _Block:
    body: tuple[ast.Stmt, ...]
    end_line: int           # where its last token (its _DEDENT) ends: where the statement that holds it ends
    end_column: int


@dataclass(slots=True)
class _Clause:
    cond: ast.Expr | None   # None for `else`
    body: tuple[ast.Stmt, ...]
    end_line: int
    end_column: int


def _after(ch: list[Any], word: str) -> Any:
    """The child after the token of type `word` (the expression of `where`), or None."""
    for i, c in enumerate(ch):
        if isinstance(c, Token) and c.type == word:
            return ch[i + 1].node
    return None


class _While(Span):
    """`while COND` after a declaration, before it is folded into the declaration: the condition's Span, told
    apart from the declaration's own expressions by its type."""

    __slots__ = ()


@dataclass(slots=True)
class _From:
    """`from SOURCE, …` after a shield's targets."""

    names: tuple[tuple[str, ast.Pos], ...]
    line: int
    column: int
    end_line: int
    end_column: int


def _while(ch: list[Any]) -> ast.Expr | None:
    return next((c.node for c in ch if isinstance(c, _While)), None)


def _has(ch: list[Any], word: str) -> bool:
    return any(isinstance(c, Token) and c.type == word for c in ch)


class AstBuilder(Transformer):
    """The AST of what the parser reads. Set `origin` before a parse; `large` then lists the whole
    numbers past the number limit, in the order of the text (each stands in as the limit)."""

    def __init__(self) -> None:
        super().__init__(visit_tokens=False)
        self.large: list[Token] = []
        self._line, self._col, self._extra = 1, 1, 0

    def begin(self, origin: Origin) -> None:
        self._line, self._col = origin.line, origin.col
        self._extra = origin.indent if origin.indent is not None else origin.col - 1
        self.large = []

    # -- positions --------------------------------------------------------------------------------
    def at(self, line: int, col: int, end_line: int, end_col: int) -> ast.Pos:
        """A position in the text, in the file: Origin.map unrolled (it is called for every node)."""
        first, extra = self._line, self._extra
        return ast.Pos(first + line - 1 if line > 1 else first, extra + col if line > 1 else self._col + col - 1,
                       first + end_line - 1 if end_line > 1 else first,
                       extra + end_col if end_line > 1 else self._col + end_col - 1)

    def pos(self, first: Any, last: Any) -> ast.Pos:
        """From the start of `first` to the end of `last` (tokens, Spans or blocks), in the file."""
        return self.at(first.line, first.column, last.end_line, last.end_column)

    def tok(self, t: Token) -> ast.Pos:
        return self.at(t.line, t.column, t.end_line, t.end_column)      # type: ignore[arg-type]

    def span(self, node: ast.Expr, first: Any, last: Any) -> Span:
        return Span(node, first.line, first.column, last.end_line, last.end_column)

    def whole(self, t: Token) -> int:
        """A number past the limit is reported (RK104); the limit stands in for it so the rest is checked."""
        v = t.value
        if len(v) > NUMBER_DIGITS or int(v) > registry.MAX_NUMBER:
            self.large.append(t)
            return registry.MAX_NUMBER
        return int(v)

    # -- program ----------------------------------------------------------------------------------
    def start(self, ch: list[Any]) -> list[ast.Item]:
        return [c for c in ch if not isinstance(c, Token)]

    def expr_start(self, ch: list[Any]) -> ast.Expr:
        return next(c.node for c in ch if isinstance(c, Span))

    def on_handler(self, ch: list[Any]) -> ast.Handler:
        names = [c for c in ch if isinstance(c, Token) and c.type == "NAME"]
        edge, edge_pos = (names[1].value, self.tok(names[1])) if len(names) > 1 else (None, ast.NOPOS)
        return ast.Handler(self.pos(ch[0], ch[-1]), "on", names[0].value, edge, ch[-1].body, self.tok(names[0]),
                           edge_pos)

    def _trigger_handler(self, form: str, ch: list[Any]) -> ast.Handler:
        word, trig_pos = next(c for c in ch if isinstance(c, tuple))
        return ast.Handler(self.pos(ch[0], ch[-1]), form, word, None, ch[-1].body, trig_pos)

    def when_handler(self, ch: list[Any]) -> ast.Handler:
        return self._trigger_handler("when", ch)

    def once_handler(self, ch: list[Any]) -> ast.Handler:
        return self._trigger_handler("once", ch)

    def once_becomes_handler(self, ch: list[Any]) -> ast.Handler:
        return self._becomes("once", ch[2], ch[3].node, ch)

    def when_becomes_handler(self, ch: list[Any]) -> ast.Handler:
        return self._becomes("when", ch[1], ch[2].node, ch)

    def _becomes(self, form: str, word: Token, condition: ast.Expr, ch: list[Any]) -> ast.Handler:
        return ast.Handler(self.pos(ch[0], ch[-1]), form, "becomes", None, ch[-1].body, self.tok(word),
                           condition=condition)

    def react_handler(self, ch: list[Any]) -> ast.Handler:
        return self._trigger_handler("react", ch)

    def trigger(self, ch: list[Token]) -> tuple[str, ast.Pos]:
        return " ".join(t.value for t in ch), self.pos(ch[0], ch[-1])

    def modify_decl(self, ch: list[Any]) -> ast.Modify:
        cond = _while(ch)
        _, name, _by, amount, *rest = [c for c in ch if not isinstance(c, _While)]       # rest: [MIN INT]
        floor = self.whole(rest[1]) if len(rest) > 1 else None
        return ast.Modify(self.pos(ch[0], ch[-1]), name.value, amount.node, floor, self.tok(name), cond)

    def shield_decl(self, ch: list[Any]) -> ast.Shield:
        sources = next((c.names for c in ch if isinstance(c, _From)), ())
        return ast.Shield(self.pos(ch[0], ch[-1]), tuple((c.value, self.tok(c)) for c in ch
                                                         if isinstance(c, Token) and c.type == "NAME"),
                          sources, _while(ch))

    def shield_from(self, ch: list[Any]) -> _From:
        return _From(tuple((c.value, self.tok(c)) for c in ch if c.type == "NAME"), ch[0].line, ch[0].column,
                     ch[-1].end_line, ch[-1].end_column)

    def while_clause(self, ch: list[Any]) -> _While:
        return _While(ch[1].node, ch[0].line, ch[0].column, ch[1].end_line, ch[1].end_column)

    def seal_decl(self, ch: list[Any]) -> ast.Seal:
        names = [c for c in ch if isinstance(c, Token) and c.type == "NAME"]
        direction, direction_pos = (names[1].value, self.tok(names[1])) if len(names) > 1 else ("in", ast.NOPOS)
        return ast.Seal(self.pos(ch[0], ch[-1]), names[0].value, self.tok(names[0]), direction, direction_pos,
                        _while(ch))

    def skip_decl(self, ch: list[Any]) -> ast.Skip:
        return ast.Skip(self.pos(ch[0], ch[-1]), ch[1].value, self.tok(ch[1]), _while(ch))

    def limit_decl(self, ch: list[Any]) -> ast.Limit:
        word, name = ch[0], ch[1]
        number = next(c for c in ch if isinstance(c, Token) and c.type == "INT")
        value = self.whole(number) * (-1 if _has(ch, "MINUS") else 1)
        return ast.Limit(self.pos(ch[0], ch[-1]), word.value, name.value, self.tok(name), value, _while(ch))

    def block(self, ch: list[Any]) -> _Block:
        end = ch[-1]                               # _NL _INDENT stmt+ _DEDENT
        return _Block(tuple(ch[2:-1]), end.end_line, end.end_column)

    def stmt(self, ch: list[Any]) -> ast.Stmt:
        return ch[0]                               # a simple statement and its line break

    # -- simple statements ------------------------------------------------------------------------
    def track_change(self, ch: list[Any]) -> ast.TrackChange:
        track, op, value = ch
        return ast.TrackChange(self.pos(track, value), track.value, op.value, value.node, self.tok(track))

    def let_stmt(self, ch: list[Any]) -> ast.Let:
        _, name, _eq, value = ch
        return ast.Let(self.pos(ch[0], value), name.value, value.node, self.tok(name))

    def choose_stmt(self, ch: list[Any]) -> ast.Choose:
        _, name, _from, lo, _to, hi = ch
        return ast.Choose(self.pos(ch[0], hi), name.value, lo.node, hi.node, self.tok(name))

    def spend_stmt(self, ch: list[Any]) -> ast.Spend:
        return ast.Spend(self.pos(ch[0], ch[1]), ch[1].node)

    def pay_stmt(self, ch: list[Any]) -> ast.Pay:
        p = self.pos(ch[0], ch[-1])
        if len(ch) > 2:
            return ast.Pay(p, ch[1].node, ch[3].value, self.tok(ch[3]))
        return ast.Pay(p, ch[1].node, None)

    def verb_stmt(self, ch: list[Any]) -> ast.Stmt:
        verb, amount, what, *rest = ch             # rest: [NAME TO NEAR] [AS NAME]
        p = self.pos(verb, ch[-1])
        near = None
        if len(rest) in (3, 5):
            word, _to, near, *rest = rest
        as_name, as_pos = (rest[1].value, self.tok(rest[1])) if rest else (None, ast.NOPOS)
        if near is not None:
            return ast.VerbStmt(p, verb.value, amount, what.value, as_name, self.tok(verb), self.tok(what), as_pos,
                                str(near.value), self.tok(near), self.tok(word))
        if verb.value in registry.TRANSFERS:
            return ast.Transfer(p, verb.value, amount, what.value, as_name, self.tok(verb), self.tok(what), as_pos)
        if verb.value == "discard" and what.value in registry.HAND_WORDS:
            return ast.Discard(p, amount, as_name, self.tok(what), as_pos)
        return ast.VerbStmt(p, verb.value, amount, what.value, as_name, self.tok(verb), self.tok(what), as_pos)

    def verb_it_stmt(self, ch: list[Any]) -> ast.VerbIt:
        return ast.VerbIt(self.pos(ch[0], ch[1]), ch[0].value, self.tok(ch[0]))

    def draw_stmt(self, ch: list[Any]) -> ast.Draw:
        _, count, _from, _stage, stage, *rest = ch     # rest: [KEEP expr]
        return ast.Draw(self.pos(ch[0], ch[-1]), count.node, stage.node, rest[1].node if rest else None)

    def draft_stmt(self, ch: list[Any]) -> ast.Draft:
        _, count, _from, _stage, stage = ch
        return ast.Draft(self.pos(ch[0], ch[-1]), count.node, stage.node)

    def unlock_stmt(self, ch: list[Any]) -> ast.Unlock:
        return ast.Unlock(self.pos(ch[0], ch[2]), ch[2].node)

    def prevent_stmt(self, ch: list[Any]) -> ast.Prevent:
        return ast.Prevent(self.tok(ch[0]))

    def mark_stmt(self, ch: list[Any]) -> ast.Mark:
        return ast.Mark(self.pos(ch[0], ch[-1]), ch[1].node if len(ch) > 1 else None)

    def amount_all(self, ch: list[Any]) -> ast.Amount:
        return ast.Amount(self.tok(ch[0]), "all", None)

    def amount_any(self, ch: list[Any]) -> ast.Amount:
        return ast.Amount(self.tok(ch[0]), "any", None)

    def amount_up_to(self, ch: list[Any]) -> ast.Amount:
        return ast.Amount(self.pos(ch[0], ch[2]), "up_to", ch[2].node)

    def amount_n(self, ch: list[Any]) -> ast.Amount:
        return ast.Amount(self.pos(ch[0], ch[0]), "n", ch[0].node)

    # -- compound statements ----------------------------------------------------------------------
    def if_stmt(self, ch: list[Any]) -> ast.If:
        _, cond, _colon, body, *clauses = ch
        branches = [(cond.node, body.body), *((c.cond, c.body) for c in clauses if c.cond is not None)]
        orelse = next((c.body for c in clauses if c.cond is None), None)
        return ast.If(self.pos(ch[0], ch[-1]), tuple(branches), orelse)

    def elif_clause(self, ch: list[Any]) -> _Clause:
        return _Clause(ch[1].node, ch[3].body, ch[3].end_line, ch[3].end_column)

    def else_clause(self, ch: list[Any]) -> _Clause:
        return _Clause(None, ch[2].body, ch[2].end_line, ch[2].end_column)

    def each_stmt(self, ch: list[Any]) -> ast.EachPlayer:
        return ast.EachPlayer(self.pos(ch[0], ch[-1]), _has(ch, "OTHER"), _after(ch, "WHERE"), ch[-1].body)

    def choose_player_stmt(self, ch: list[Any]) -> ast.ChoosePlayer:
        return ast.ChoosePlayer(self.pos(ch[0], ch[-1]), _has(ch, "OTHER"), _after(ch, "WHERE"), ch[-1].body)

    def tag_stmt(self, ch: list[Any]) -> ast.Tag:
        verb, _it, tag = ch
        return ast.Tag(self.pos(verb, tag), verb.value, tag.value, self.tok(verb), self.tok(tag))

    def choose_cell_stmt(self, ch: list[Any]) -> ast.ChooseCell:
        _choose, word, *rest = ch               # rest: [WITH KIND] ":" block (the colon is filtered out)
        body = ch[-1]
        kind = rest[1] if len(rest) >= 3 else None
        return ast.ChooseCell(self.pos(ch[0], body), word.value, kind.value if kind is not None else None, body.body,
                              self.tok(word), self.tok(kind) if kind is not None else ast.NOPOS)

    def player_with_stmt(self, ch: list[Any]) -> ast.PlayerWith:
        _, _with, which, value, _colon, body = ch
        return ast.PlayerWith(self.pos(ch[0], body), which.value, value.node, body.body, self.tok(which))

    def repeat_stmt(self, ch: list[Any]) -> ast.Repeat:
        return ast.Repeat(self.pos(ch[0], ch[-1]), ch[1].node, ch[-1].body)

    def may_stmt(self, ch: list[Any]) -> ast.May:
        return ast.May(self.pos(ch[0], ch[-1]), ch[-1].body)

    def may_pay_stmt(self, ch: list[Any]) -> ast.MayPay:
        return ast.MayPay(self.pos(ch[0], ch[-1]), ch[2].node, ch[-1].body)

    def may_verb_stmt(self, ch: list[Any]) -> ast.MayDiscard:
        # `may discard N cards:` is the one form; the checker names any other word here
        _, verb, amount, what, _colon, body = ch
        return ast.MayDiscard(self.pos(ch[0], body), amount.node, body.body, self.tok(what), verb.value, self.tok(verb),
                              what.value)

    def after_stmt(self, ch: list[Any]) -> ast.After:
        _, count, unit, _colon, body = ch
        return ast.After(self.pos(ch[0], body), count.node, body.body, self.tok(unit), unit.value)

    def me_stmt(self, ch: list[Any]) -> ast.Me:
        return ast.Me(self.pos(ch[0], ch[-1]), ch[-1].body)

    def seat_player_stmt(self, ch: list[Any]) -> ast.SeatPlayer:
        _, which, _me, _colon, body = ch          # `player after me:` / `player before me:`
        return ast.SeatPlayer(self.pos(ch[0], body), str(which.value), body.body, self.tok(which), "ring")

    def first_player_stmt(self, ch: list[Any]) -> ast.SeatPlayer:
        which, _, _colon, body = ch               # `first player:`
        return ast.SeatPlayer(self.pos(which, body), str(which.value), body.body, self.tok(which), "first")

    def they_choose_stmt(self, ch: list[Any]) -> ast.TheyChoose:
        return ast.TheyChoose(self.pos(ch[0], ch[-1]), ch[-1].body)

    # -- expressions ------------------------------------------------------------------------------
    def _leaf(self, node: ast.Expr, t: Token) -> Span:
        return Span(node, t.line, t.column, t.end_line, t.end_column)    # type: ignore[arg-type]

    def number(self, ch: list[Token]) -> Span:
        return self._leaf(ast.Num(self.tok(ch[0]), self.whole(ch[0])), ch[0])

    def string(self, ch: list[Token]) -> Span:
        return self._leaf(ast.Str(self.tok(ch[0]), ch[0].value[1:-1]), ch[0])

    def it(self, ch: list[Token]) -> Span:
        return self._leaf(ast.It(self.tok(ch[0])), ch[0])

    def name(self, ch: list[Token]) -> Span:
        return self._leaf(ast.Name(self.tok(ch[0]), ch[0].value), ch[0])

    def atom(self, ch: list[Any]) -> Span:
        return self.span(ch[1].node, ch[0], ch[2])      # "(" expr ")": the brackets are the extent

    def neg(self, ch: list[Any]) -> Span:
        return self.span(ast.Neg(self.pos(ch[0], ch[1]), ch[1].node), ch[0], ch[1])

    def not_op(self, ch: list[Any]) -> Span:
        return self.span(ast.Not(self.pos(ch[0], ch[1]), ch[1].node), ch[0], ch[1])

    def call(self, ch: list[Any]) -> Span:
        args = tuple(c.node for c in ch if isinstance(c, Span))
        return self.span(ast.Call(self.pos(ch[0], ch[-1]), ch[0].value, args), ch[0], ch[-1])

    def call_rerolls(self, ch: list[Any]) -> Span:
        args = tuple(c.node for c in ch if isinstance(c, Span))
        return self.span(ast.Call(self.pos(ch[0], ch[-1]), ch[0].value, args, True), ch[0], ch[-1])

    def _count(self, ch: list[Any]) -> Span:
        words = [c for c in ch if isinstance(c, Token) and c.type in ("OTHER", "PLAYER", "NAME")]
        what = " ".join(c.value for c in words)
        node = ast.CountOf(self.pos(ch[0], ch[-1]), what, _after(ch, "WHERE"), self.pos(words[0], words[-1]))
        return self.span(node, ch[0], ch[-1])

    count_players = _count
    count_of = _count

    def count_near(self, ch: list[Any]) -> Span:
        _count, _open, kind, _next, _to, near, _close = ch
        node = ast.CountOf(self.pos(ch[0], ch[-1]), kind.value, None, self.tok(kind), str(near.value), self.tok(near))
        return self.span(node, ch[0], ch[-1])

    def comparison(self, ch: list[Any]) -> Span:
        left, op, right = ch
        return self.span(ast.Compare(self.pos(left, right), op.value, left.node, right.node), left, right)

    def _chain(self, ch: list[Any], make: Callable[[ast.Pos, str, Any, Any], ast.Expr]) -> Span:
        node = ch[0].node
        for i in range(1, len(ch), 2):
            right = ch[i + 1].node
            node = make(ast.Pos(node.pos.line, node.pos.col, right.pos.end_line, right.pos.end_col), ch[i].value, node,
                        right)
        return self.span(node, ch[0], ch[-1])

    def or_expr(self, ch: list[Any]) -> Span:
        return self._chain(ch, ast.BoolOp)

    and_expr = or_expr

    def sum(self, ch: list[Any]) -> Span:
        return self._chain(ch, ast.BinOp)

    product = sum
