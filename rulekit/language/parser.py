"""Effect text -> AST: Lark LALR with an Indenter, positions mapped to the YAML file's own lines."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from importlib import resources

from lark import Lark, Token, Tree
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedInput, UnexpectedToken
from lark.indenter import DedentError, Indenter

from rulekit import registry
from rulekit.language import ast
from rulekit.language.diagnostics import Diagnostic

MAX_CHAIN = 200          # operands in one chain of + - * // and or


@dataclass(frozen=True)
class Origin:
    """Where effect text sits in its file: line and column of the text's first character.

    `indent` is added to the column of every line after the first (a YAML `|` block's
    indentation, which YAML strips from each line).
    """

    file: str = "<effect>"
    line: int = 1
    col: int = 1
    indent: int | None = None

    def map(self, line: int, col: int) -> tuple[int, int]:
        if line <= 1:
            return self.line, self.col + col - 1
        extra = self.indent if self.indent is not None else self.col - 1
        return self.line + line - 1, extra + col


class _Indenter(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR"]
    CLOSE_PAREN_types = ["RPAR"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 8


@functools.cache
def _lark() -> Lark:
    grammar = resources.files("rulekit").joinpath("grammar.lark").read_text(encoding="utf-8")
    grammar += "\nexpr_start: _NL? expr _NL?\n"
    return Lark(grammar, parser="lalr", postlex=_Indenter(), propagate_positions=True,
                start=["start", "expr_start"], maybe_placeholders=False)


# Plain words for the grammar's tokens, for "expected ..." messages.
_TOKEN_WORDS = {
    "_NL": "the end of the line",
    "_INDENT": "an indented block on the next line",
    "_DEDENT": "the end of the block",
    "$END": "the end of the effect",
    "NAME": "a name",
    "INT": "a whole number",
    "STRING": "a quoted card or event name",
    "COLON": "':'",
    "LPAR": "'('",
    "RPAR": "')'",
    "COMMA": "','",
    "ASSIGN_OP": "'+=' or '-='",
    "EQUAL": "'='",
    "COMP_OP": "a comparison such as '==' or '<'",
    "PLUS": "'+'",
    "MINUS": "'-'",
    "MUL_OP": "'*' or '//'",
    "BY": "'by'",
}


def _token_word(name: str) -> str:
    if name in _TOKEN_WORDS:
        return _TOKEN_WORDS[name]
    if name.lower() in registry.KEYWORDS:
        return f"'{name.lower()}'"
    return name.lower()


def _found_word(tok: Token) -> str:
    if tok.type == "_NL":
        return "the end of the line"
    if tok.type == "_INDENT":
        return "an indented line"
    if tok.type == "_DEDENT":
        return "the end of the block"
    if tok.type == "$END":
        return "the end of the effect"
    return f"'{tok.value}'"


def _expected_words(expected) -> str:
    words = sorted({_token_word(e) for e in expected if not e.startswith("__")})
    preferred = [w for w in words if not w.startswith("'") or len(words) <= 6]
    words = preferred or words
    if len(words) > 6:
        words = words[:6] + ["…"]
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " or " + words[-1]


class _Builder:
    """Lark tree -> AST, mapping every position through the Origin."""

    def __init__(self, origin: Origin):
        self.origin = origin

    def pos_of(self, item) -> ast.Pos:
        if isinstance(item, Token):
            l, c = self.origin.map(item.line, item.column)
            el, ec = self.origin.map(item.end_line, item.end_column)
            return ast.Pos(l, c, el, ec)
        meta = item.meta
        if getattr(meta, "empty", True):
            return ast.NOPOS
        l, c = self.origin.map(meta.line, meta.column)
        el, ec = self.origin.map(meta.end_line, meta.end_column)
        return ast.Pos(l, c, el, ec)

    # -- program ---------------------------------------------------------------
    def program(self, tree: Tree) -> ast.Program:
        return ast.Program(self.pos_of(tree), tuple(self.item(c) for c in tree.children))

    def item(self, t: Tree):
        ch = t.children
        p = self.pos_of(t)
        if t.data == "on_handler":
            names = [c for c in ch if isinstance(c, Token) and c.type == "NAME"]
            edge = names[1].value if len(names) > 1 else None
            edge_pos = self.pos_of(names[1]) if len(names) > 1 else ast.NOPOS
            return ast.Handler(p, "on", names[0].value, edge, self.block(ch[-1]), self.pos_of(names[0]), edge_pos)
        if t.data in ("when_handler", "once_handler", "react_handler"):
            trig = next(c for c in ch if isinstance(c, Tree) and c.data == "trigger")
            form = {"when_handler": "when", "once_handler": "once", "react_handler": "react"}[t.data]
            word = " ".join(tok.value for tok in trig.children)
            return ast.Handler(p, form, word, None, self.block(ch[-1]), self.pos_of(trig))
        if t.data == "modify_decl":
            floor = int(ch[-1].value) if len(ch) > 3 and isinstance(ch[-1], Token) and ch[-1].type == "INT" else None
            return ast.Modify(p, ch[1].value, self.expr(ch[2]), floor, self.pos_of(ch[1]))
        if t.data == "shield_decl":
            return ast.Shield(p, tuple((c.value, self.pos_of(c)) for c in ch[1:] if c.type == "NAME"))
        if t.data == "seal_decl":
            return ast.Seal(p, ch[1].value, self.pos_of(ch[1]))
        raise AssertionError(t.data)

    def block(self, t: Tree) -> tuple[ast.Stmt, ...]:
        return tuple(self.stmt(c) for c in t.children if isinstance(c, Tree))

    # -- statements -------------------------------------------------------------
    def stmt(self, t: Tree):
        ch = t.children
        p = self.pos_of(t)
        d = t.data
        if d == "track_change":
            return ast.TrackChange(p, ch[0].value, ch[1].value, self.expr(ch[2]), self.pos_of(ch[0]))
        if d == "let_stmt":
            return ast.Let(p, ch[1].value, self.expr(ch[3]), self.pos_of(ch[1]))
        if d == "choose_stmt":
            return ast.Choose(p, ch[1].value, self.expr(ch[3]), self.expr(ch[5]), self.pos_of(ch[1]))
        if d == "spend_stmt":
            return ast.Spend(p, self.expr(ch[1]))
        if d == "pay_stmt":
            if len(ch) > 3:
                return ast.Pay(p, self.expr(ch[1]), ch[3].value, self.pos_of(ch[3]))
            return ast.Pay(p, self.expr(ch[1]), None)
        if d == "verb_stmt":
            amount = self.amount(ch[1])
            as_name = ch[4].value if len(ch) > 4 else None
            as_pos = self.pos_of(ch[4]) if len(ch) > 4 else ast.NOPOS
            return ast.VerbStmt(p, ch[0].value, amount, ch[2].value, as_name,
                                self.pos_of(ch[0]), self.pos_of(ch[2]), as_pos)
        if d == "verb_it_stmt":
            return ast.VerbIt(p, ch[0].value, self.pos_of(ch[0]))
        if d == "draw_stmt":
            keep = self.expr(ch[6]) if len(ch) > 6 else None
            return ast.Draw(p, self.expr(ch[1]), self.expr(ch[4]), keep)
        if d == "unlock_stmt":
            return ast.Unlock(p, self.expr(ch[2]))
        if d == "prevent_stmt":
            return ast.Prevent(p)
        if d == "if_stmt":
            branches = [(self.expr(ch[1]), self.block(ch[2]))]
            orelse = None
            for c in ch[3:]:
                if c.data == "elif_clause":
                    branches.append((self.expr(c.children[1]), self.block(c.children[2])))
                else:
                    orelse = self.block(c.children[1])
            return ast.If(p, tuple(branches), orelse)
        if d == "each_stmt":
            other = any(isinstance(c, Token) and c.type == "OTHER" for c in ch)
            where = None
            for i, c in enumerate(ch):
                if isinstance(c, Token) and c.type == "WHERE":
                    where = self.expr(ch[i + 1])
            return ast.EachPlayer(p, other, where, self.block(ch[-1]))
        if d == "player_with_stmt":
            return ast.PlayerWith(p, ch[2].value, self.expr(ch[3]), self.block(ch[4]), self.pos_of(ch[2]))
        if d == "repeat_stmt":
            return ast.Repeat(p, self.expr(ch[1]), self.block(ch[2]))
        if d == "may_stmt":
            return ast.May(p, self.block(ch[1]))
        if d == "may_pay_stmt":
            return ast.MayPay(p, self.expr(ch[2]), self.block(ch[3]))
        raise AssertionError(d)

    def amount(self, t: Tree) -> ast.Amount:
        p = self.pos_of(t)
        if t.data == "amount_all":
            return ast.Amount(p, "all", None)
        if t.data == "amount_any":
            return ast.Amount(p, "any", None)
        if t.data == "amount_up_to":
            return ast.Amount(p, "up_to", self.expr(t.children[2]))
        return ast.Amount(p, "n", self.expr(t.children[0]))

    # -- expressions ------------------------------------------------------------
    def expr(self, t):
        if isinstance(t, Token):
            p = self.pos_of(t)
            if t.type == "INT":
                return ast.Num(p, int(t.value))
            if t.type == "NAME":
                return ast.Name(p, t.value)
            if t.type == "IT":
                return ast.It(p)
            if t.type == "STRING":
                return ast.Str(p, t.value[1:-1])
            raise AssertionError(t.type)
        p = self.pos_of(t)
        d = t.data
        ch = t.children
        if d == "number":
            return ast.Num(p, int(ch[0].value))
        if d == "string":
            return ast.Str(p, ch[0].value[1:-1])
        if d == "it":
            return ast.It(p)
        if d == "name":
            return ast.Name(p, ch[0].value)
        if d == "neg":
            return ast.Neg(p, self.expr(ch[1]))
        if d == "not_op":
            return ast.Not(p, self.expr(ch[1]))
        if d == "call":
            return ast.Call(p, ch[0].value, tuple(self.expr(c) for c in ch[1:] if c is not None))
        if d == "comparison":
            return ast.Compare(p, ch[1].value, self.expr(ch[0]), self.expr(ch[2]))
        if d in ("sum", "product", "or_expr", "and_expr"):
            node = self.expr(ch[0])
            for i in range(1, len(ch), 2):
                op = ch[i].value
                right = self.expr(ch[i + 1])
                span = ast.Pos(node.pos.line, node.pos.col, right.pos.end_line, right.pos.end_col)
                if d in ("or_expr", "and_expr"):
                    node = ast.BoolOp(span, op, node, right)
                else:
                    node = ast.BinOp(span, op, node, right)
            return node
        raise AssertionError(d)


def _depth_problem(text: str, origin: Origin) -> Diagnostic | None:
    """Find nesting beyond the limit before Lark or any recursive pass sees it."""
    depth = 0
    indents = [0]
    for ln, line in enumerate(text.split("\n"), 1):
        stripped = line.lstrip(" \t")
        if stripped and not stripped.startswith("#"):
            width = len(line) - len(stripped)
            while indents and width < indents[-1]:
                indents.pop()
            if width > indents[-1]:
                indents.append(width)
            if len(indents) > registry.MAX_NESTING:
                l, c = origin.map(ln, width + 1)
                return Diagnostic("RK103", "error",
                                  f"blocks are nested too deeply (more than {registry.MAX_NESTING} levels)",
                                  origin.file, l, c, l, c + 1,
                                  hint="split the effect into simpler steps")
        chain = 0
        for col, chr_ in enumerate(line, 1):
            if chr_ == "(":
                depth += 1
                if depth > registry.MAX_NESTING:
                    l, c = origin.map(ln, col)
                    return Diagnostic("RK103", "error",
                                      f"brackets are nested too deeply (more than {registry.MAX_NESTING} levels)",
                                      origin.file, l, c, l, c + 1,
                                      hint="write the expression with fewer brackets, or use `let`")
            elif chr_ == ")":
                depth = max(0, depth - 1)
            elif chr_ in "+-*/" or (chr_ == " " and line[col:col + 4] in ("and ", "or  ")):
                chain += 1
        if chain > MAX_CHAIN:
            l, c = origin.map(ln, 1)
            return Diagnostic("RK103", "error", f"this line is too long an expression (more than {MAX_CHAIN} operators)",
                              origin.file, l, c, l, c + len(line), hint="use `let` to break it into parts")
    return None


def _syntax_diagnostic(err: UnexpectedInput, text: str, origin: Origin, expr_only: bool) -> Diagnostic:
    line = getattr(err, "line", 1) or 1
    col = getattr(err, "column", 1) or 1
    if isinstance(err, UnexpectedCharacters):
        ch = text.split("\n")[line - 1][col - 1:col] if line - 1 < len(text.split("\n")) else ""
        msg = f"unexpected character '{ch}'"
        hint = None
        if ch == "\t":
            msg = "a tab character here; indent with spaces"
        elif ch in "“”‘’":
            msg = f"curly quote {ch}; write names in straight quotes \"…\""
        elif ch in "（），：＝＋－":
            msg = f"full-width character '{ch}'; use its half-width form"
        elif ch == "'" or ch == '"':
            msg = "a quoted name is not closed on this line"
        l, c = origin.map(line, col)
        return Diagnostic("RK101", "error", msg, origin.file, l, c, l, c + 1, hint=hint)
    if isinstance(err, UnexpectedToken):
        tok = err.token
        if tok.type == "$END":
            lines = text.rstrip("\n").split("\n")
            line, col = len(lines), len(lines[-1]) + 1
        else:
            line, col = tok.line or line, tok.column or col
        expected = _expected_words(err.expected)
        found = _found_word(tok)
        msg = f"expected {expected}, found {found}"
        hint = None
        if tok.type == "_INDENT":
            msg = "this line is indented more than the line before it"
            hint = "indent a line only after a line that ends with ':'"
        elif tok.type == "_NL" and "COLON" in err.expected:
            msg = "expected ':' at the end of this line"
        elif "_INDENT" in err.expected:
            msg = "expected an indented block after ':'"
            hint = "indent the lines of the block by two spaces"
        l, c = origin.map(line, col)
        width = max(1, len(str(tok.value))) if tok.type not in ("_NL", "_INDENT", "_DEDENT", "$END") else 1
        return Diagnostic("RK101", "error", msg, origin.file, l, c, l, c + width, hint=hint)
    l, c = origin.map(line, col)
    return Diagnostic("RK101", "error", "the effect ends in the middle of a statement",
                      origin.file, l, c, l, c + 1)


def _chunks(text: str) -> list[tuple[int, str]]:
    """Split an effect into its top-level items (line 1-based start, text), so one bad
    handler does not hide the problems of the next."""
    lines = text.split("\n")
    starts = [i for i, ln in enumerate(lines)
              if ln and not ln[0].isspace() and not ln.lstrip().startswith("#")]
    if not starts:
        return [(1, text)]
    starts[0] = 0
    out = []
    for a, b in zip(starts, starts[1:] + [len(lines)]):
        out.append((a + 1, "\n".join(lines[a:b])))
    return out


def parse_effect(text: str, origin: Origin = Origin()) -> tuple[ast.Program | None, list[Diagnostic]]:
    """Parse a whole effect; every syntax problem is returned, at the file's own positions."""
    problem = _depth_problem(text, origin)
    if problem:
        return None, [problem]
    items: list = []
    diags: list[Diagnostic] = []
    first_indent = len(text) - len(text.lstrip(" \t")) if text.strip() else 0
    if first_indent and not text.lstrip(" \t").startswith("#"):
        l, c = origin.map(1, 1)
        diags.append(Diagnostic("RK102", "error", "the effect's first line must not be indented",
                                origin.file, l, c, l, c + first_indent))
        return None, diags
    for start_line, chunk in _chunks(text):
        sub = Origin(origin.file, *origin.map(start_line, 1), origin.indent if origin.indent is not None else origin.col - 1)
        if start_line == 1:
            sub = origin
        program, d = _parse_chunk(chunk, sub)
        diags.extend(d)
        if program is not None:
            items.extend(program.items)
    if diags:
        return (ast.Program(ast.Pos(origin.line, origin.col, origin.line, origin.col), tuple(items)) if items else None), diags
    l, c = origin.map(1, 1)
    return ast.Program(ast.Pos(l, c, l, c), tuple(items)), []


def _parse_chunk(text: str, origin: Origin) -> tuple[ast.Program | None, list[Diagnostic]]:
    """Parse one top-level item, recovering from simple-statement mistakes so the rest is still checked."""
    lines = (text if text.endswith("\n") else text + "\n").split("\n")
    diags: list[Diagnostic] = []
    for _ in range(MAX_RECOVERIES):
        src = "\n".join(lines)
        try:
            tree = _lark().parse(src, start="start")
        except UnexpectedInput as err:
            diags.append(_syntax_diagnostic(err, src, origin, False))
            if not _recover(lines, err, diags[-1]):
                return None, diags
            continue
        except DedentError:
            line = _bad_dedent_line(src)
            l, c = origin.map(line, 1)
            diags.append(Diagnostic("RK102", "error", "this line's indentation does not match any block above it",
                                    origin.file, l, c, l, c + 1, hint="line it up with the block it belongs to"))
            return None, diags
        except LarkError as err:  # pragma: no cover - a Lark failure we have not classified
            l, c = origin.map(1, 1)
            diags.append(Diagnostic("RK101", "error", f"cannot read this effect: {err}", origin.file, l, c, l, c + 1))
            return None, diags
        return _Builder(origin).program(tree), diags
    return None, diags


MAX_RECOVERIES = 20


def _recover(lines: list[str], err: UnexpectedInput, diag: Diagnostic) -> bool:
    """Mend the line at fault so parsing can go on: add a missing ':', or stand a no-op in for a
    broken simple statement. Never for a handler line or a line opening a block (cascades)."""
    token = getattr(err, "token", None)
    # An unexpected end-of-line token starts on the line at fault, like any other token.
    n = (token.line if token is not None and token.type != "$END" and token.line else err.line) or 0
    if n <= 1 or n > len(lines):
        return False
    line = lines[n - 1]
    body = line.strip()
    indent = line[: len(line) - len(line.lstrip())]
    if diag.message == "expected ':' at the end of this line" and not body.endswith(":"):
        lines[n - 1] = line.rstrip() + ":"
        return True
    if body.endswith("：") and "full-width" in diag.message:
        lines[n - 1] = line.rstrip()[:-1] + ":"
        return True
    if not indent or body.endswith(":") or diag.code != "RK101" or "indented" in diag.message:
        return False
    following = next((ln for ln in lines[n:] if ln.strip() and not ln.strip().startswith("#")), "")
    if len(following) - len(following.lstrip()) > len(indent):
        return False        # the line opens a block: a stand-in would only cause false errors below
    lines[n - 1] = f"{indent}let _recovered_line_{n} = 0"
    return True


def _bad_dedent_line(text: str) -> int:
    indents = [0]
    for ln, line in enumerate(text.split("\n"), 1):
        stripped = line.lstrip(" ")
        if not stripped or stripped.startswith("#"):
            continue
        width = len(line) - len(stripped)
        if width > indents[-1]:
            indents.append(width)
            continue
        while width < indents[-1]:
            indents.pop()
        if width != indents[-1]:
            return ln
    return 1


def parse_expression(text: str, origin: Origin = Origin()) -> tuple[ast.Expr | None, list[Diagnostic]]:
    """Parse one expression (rules.yaml unlock conditions, combo `when:` fields)."""
    problem = _depth_problem(text, origin)
    if problem:
        return None, [problem]
    src = text.strip("\n") + "\n"
    if "\n" in src.rstrip("\n"):
        src = " ".join(src.split()) + "\n"
    try:
        tree = _lark().parse(src, start="expr_start")
    except UnexpectedInput as err:
        return None, [_syntax_diagnostic(err, src, origin, True)]
    except LarkError as err:  # pragma: no cover
        l, c = origin.map(1, 1)
        return None, [Diagnostic("RK101", "error", f"cannot read this condition: {err}", origin.file, l, c, l, c + 1)]
    body = [c for c in tree.children if isinstance(c, (Tree, Token)) and not (isinstance(c, Token) and c.type == "_NL")]
    return _Builder(origin).expr(body[0]), []
