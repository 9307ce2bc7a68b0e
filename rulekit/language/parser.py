"""Effect text -> AST: Lark LALR with an Indenter, positions mapped to the YAML file's own lines.

A syntax error does not end the reading: the line at fault is mended (a missing ':' added, a
misspelt keyword replaced by the one it is closest to) or stood in for by a harmless statement,
and parsing goes on, so one card shows every mistake at once and the statements that did parse
are still checked. What was mended is kept in `Parsed`, so the checker can leave out the
consequences of a mended line instead of reporting them as mistakes of their own.
"""

from __future__ import annotations

import functools
import re
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, ClassVar

from lark import Lark, Token, Tree
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedInput, UnexpectedToken
from lark.indenter import DedentError, Indenter

from rulekit import registry
from rulekit.diagnostics.codes import R
from rulekit.language import ast
from rulekit.language.builder import AstBuilder
from rulekit.language.diagnostics import Diagnostic, nearest
from rulekit.language.misread import explain

MAX_RECOVERIES = 20      # mended lines per top-level item before the rest of it is given up
_LIMIT = registry.MAX_NESTING
_WORD = re.compile(r"[^\W\d]\w*")


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

    def below(self, line: int) -> Origin:
        """The origin of text that starts at the first column of this text's `line`."""
        if line <= 1:
            return self
        row, c = self.map(line, 1)
        return Origin(self.file, row, c, self.indent if self.indent is not None else self.col - 1)


@dataclass(frozen=True)
class Parsed:
    """An effect as read: what parsed (mended lines stood in for), every syntax problem, and what was mended."""

    program: ast.Program | None
    diags: tuple[Diagnostic, ...] = ()
    mended_lines: frozenset[int] = frozenset()     # file lines that were changed to read on
    lost_words: frozenset[str] = frozenset()        # words of those lines (names they may have made)
    complete: bool = True                           # no handler or declaration was given up


class _Indenter(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types: ClassVar[list[str]] = ["LPAR"]
    CLOSE_PAREN_types: ClassVar[list[str]] = ["RPAR"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 8


def _grammar() -> str:
    grammar = resources.files("rulekit").joinpath("grammar.lark").read_text(encoding="utf-8")
    return grammar + "\nexpr_start: _NL? expr _NL?\n"


# The basic lexer reads a word the same way wherever it stands (`players` is one word, not `player` +
# `s`), so an error names the word the designer wrote; the contextual lexer also misreported the token
# the parser expected after a line break.
_OPTIONS = {"parser": "lalr", "lexer": "basic", "start": ["start", "expr_start"], "maybe_placeholders": False}
_BUILDER = AstBuilder()
_BUILDING = threading.Lock()       # the builder holds one parse's origin and numbers at a time


@functools.cache
def _lark() -> Lark:
    """The parser that builds the AST as it reduces (see rulekit.language.builder)."""
    return Lark(_grammar(), postlex=_Indenter(), keep_all_tokens=True, transformer=_BUILDER, **_OPTIONS)


@functools.cache
def _tree_lark() -> Lark:
    """A parser that builds Lark's own tree, read only to place a nesting-limit error (RK103)."""
    return Lark(_grammar(), postlex=_Indenter(), propagate_positions=True, **_OPTIONS)


def _parse(src: str, start: str, origin: Origin) -> tuple[Any, list[Token]]:
    """What `start` reads in `src` (items, or an expression), and its numbers past the limit (RK104)."""
    with _BUILDING:
        _BUILDER.begin(origin)
        return _lark().parse(src, start=start), _BUILDER.large


def _first_terminals(rule: str, seen: frozenset[str] = frozenset()) -> list[str]:
    """The terminals a `rule` can start with, in the grammar's order."""
    out: list[str] = []
    for r in _lark().rules:
        if r.origin.name != rule or not r.expansion:
            continue
        sym = r.expansion[0]
        if sym.is_term:
            out.append(sym.name)
        elif sym.name not in seen:
            out += _first_terminals(sym.name, seen | {rule})
    return list(dict.fromkeys(out))


@dataclass(frozen=True)
class _Keywords:
    """The grammar's keywords (every terminal that is a plain word), and those that open a line."""

    all: frozenset[str]
    items: tuple[str, ...]            # open a top-level item: `on`, `when`, `skip` ...
    statements: tuple[str, ...]       # open a statement's line: `let`, `if`, `after`, `me`, `elif` ...


@functools.cache
def keywords() -> _Keywords:
    """The keywords as the grammar has them, so a did-you-mean can never miss one the language has."""
    words = {t.name: t.pattern.value for t in _lark().terminals
             if t.pattern.type == "str" and _WORD.fullmatch(t.pattern.value)}

    def opening(*rules: str) -> tuple[str, ...]:
        return tuple(dict.fromkeys(words[t] for r in rules for t in _first_terminals(r) if t in words))

    return _Keywords(frozenset(words.values()), opening("item"), opening("stmt", "elif_clause", "else_clause"))


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

# Words that may open a statement without being keywords: tracks and verbs.
_STATEMENT_NAMES = (*registry.SETTABLE, *registry.VERBS, *registry.TILE_VERBS, *registry.IT_ONLY_VERBS,
                    *registry.EVENT_VERBS)
_FULL_WIDTH = {"（": "(", "）": ")", "，": ",", "：": ":", "＝": "=", "＋": "+", "－": "-", "＜": "<", "＞": ">"}
_CURLY = "“”‘’"


def _token_word(name: str) -> str:
    if name in _TOKEN_WORDS:
        return _TOKEN_WORDS[name]
    if name.lower() in keywords().all:
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


def _expected_words(expected: Iterable[str]) -> str:
    words = sorted({_token_word(e) for e in expected if not e.startswith("__")})
    preferred = [w for w in words if not w.startswith("'") or len(words) <= 6]
    words = preferred or words
    if len(words) > 6:
        words = [*words[:6], "…"]
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " or " + words[-1]


_EXPRESSION_ENDS = {"_NL", "$END", "RPAR", "COLON", "COMMA"}


def _acceptable(err: UnexpectedToken) -> set[str]:
    """The tokens the parser could take where it stopped (more exact than err.expected)."""
    parser = getattr(err, "interactive_parser", None)
    if parser is not None:
        try:
            return set(parser.accepts())
        except LarkError:
            pass
    return set(err.expected)


def _expected_keywords(expected: Iterable[str]) -> list[str]:
    return sorted(e.lower() for e in expected if e.lower() in keywords().all)


# ---- lines: brackets, statements, indentation ------------------------------------------------------

def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _is_code(line: str) -> bool:
    body = line.strip()
    return bool(body) and not body.startswith("#")


def _code_part(line: str) -> str:
    """The line without its comment (a '#' inside quotes does not start one)."""
    if "#" not in line:
        return line
    quote = None
    for i, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "\"'":
            quote = ch
        elif ch == "#":
            return line[:i]
    return line


def _bracket_depths(lines: list[str]) -> list[int]:
    """The depth of open brackets at the start of each line, and after the last one (quotes and comments skipped)."""
    depth = 0
    out = []
    for line in lines:
        out.append(depth)
        code = _code_part(line)
        if ")" not in code:
            depth += code.count("(")
            continue
        for ch in code:
            if ch == "(":
                depth += 1
            elif ch == ")":
                depth = max(0, depth - 1)
    out.append(depth)
    return out


def _too_many_brackets(lines: list[str], origin: Origin) -> Diagnostic | None:
    if sum(line.count("(") for line in lines) <= _LIMIT:
        return None              # no deeper than the brackets there are
    depth = 0
    for n, line in enumerate(lines, 1):
        for col, ch in enumerate(_code_part(line), 1):
            if ch == "(":
                depth += 1
                if depth > _LIMIT:
                    row, c = origin.map(n, col)
                    return Diagnostic.of(R.EFFECT_TOO_DEEP, f"brackets are nested too deeply (more than {_LIMIT} levels)",
                                         origin.file, row, c, row, c + 1,
                                         hint="write the expression with fewer brackets, or name its parts with `let`")
            elif ch == ")":
                depth = max(0, depth - 1)
    return None


def _statement_lines(lines: list[str], n: int) -> tuple[int, int]:
    """The first and last line (1-based) of the statement that line n belongs to (brackets may span lines)."""
    depths = _bracket_depths(lines)
    start = n
    while start > 1 and depths[start - 1] > 0:
        start -= 1
    end = n
    while end < len(lines) and depths[end] > 0:
        end += 1
    return start, end


def _opens_block(lines: list[str], start: int, end: int) -> bool:
    if _code_part(lines[end - 1]).rstrip().endswith(":"):
        return True
    following = next((ln for ln in lines[end:] if _is_code(ln)), "")
    return _indent(following) > _indent(lines[start - 1])


def _chunks(lines: list[str]) -> list[tuple[int, list[str]]]:
    """The top-level items (first line, 1-based, and their lines), so one bad handler does not hide the next."""
    depths = _bracket_depths(lines)
    starts = [i for i, ln in enumerate(lines) if _is_code(ln) and not ln[0].isspace() and depths[i] == 0]
    if not starts:
        return [(1, lines)]
    starts[0] = 0
    return [(a + 1, lines[a:b]) for a, b in zip(starts, [*starts[1:], len(lines)], strict=True)]


def _first_word(line: str) -> tuple[str, int] | None:
    """The line's first word and its column, when the line starts with one."""
    m = _WORD.match(line, _indent(line))
    return (m.group(), m.start() + 1) if m else None


# ---- reading one top-level item, mending as it goes ---------------------------------------------------

@dataclass
class _Mend:
    """What a mistake gives: its diagnostic, and whether the lines could be mended to read on."""

    diag: Diagnostic
    mended: bool


@dataclass
class _Reader:
    """Parses one top-level item, mending each line at fault (at most MAX_RECOVERIES times)."""

    lines: list[str]
    origin: Origin
    tabbed: bool = False        # a tab in its indentation: indentation problems follow from it, reported already
    condition: bool = False     # an expression, not an effect
    diags: list[Diagnostic] = field(default_factory=list)
    mended: set[int] = field(default_factory=set)       # chunk lines
    lost_words: set[str] = field(default_factory=set)
    seen: set[tuple] = field(default_factory=set)
    large: list[Token] = field(default_factory=list)    # the numbers past the limit, of what was read

    def read(self) -> list[ast.Item] | None:
        for _ in range(MAX_RECOVERIES + 1):
            try:
                items, self.large = _parse(self.source(), "start", self.origin)
                return items
            except UnexpectedInput as err:
                outcome = self.unexpected(err)
            except DedentError:
                outcome = self.bad_dedent()
            except LarkError as err:  # pragma: no cover - a Lark failure we have not classified
                row, c = self.origin.map(1, 1)
                outcome = _Mend(Diagnostic.of(R.EFFECT_SYNTAX, f"cannot read this effect: {err}",
                                              self.origin.file, row, c, row, c + 1), False)
            key = (outcome.diag.line, outcome.diag.col, outcome.diag.message)
            if key in self.seen:
                return None          # mending did not help: the same problem again
            self.seen.add(key)
            if not (self.tabbed and ("indent" in outcome.diag.message or outcome.diag.code == R.EFFECT_INDENTATION)):
                self.diags.append(outcome.diag)
            if not outcome.mended:
                return None
        return None

    def source(self) -> str:
        return "\n".join(self.lines) + "\n"

    def at(self, n: int, col: int, width: int = 1) -> tuple[int, int, int, int]:
        row, c = self.origin.map(n, col)
        return row, c, row, c + max(1, width)

    def diag(self, rule: R, message: str, n: int, col: int, width: int = 1, hint: str | None = None) -> Diagnostic:
        return Diagnostic.of(rule, message, self.origin.file, *self.at(n, col, width), hint=hint)

    # -- the kinds of mistake ----------------------------------------------------------------------
    def unexpected(self, err: UnexpectedInput) -> _Mend:
        if isinstance(err, UnexpectedCharacters):
            return self.bad_character(err.line, err.column)
        if isinstance(err, UnexpectedToken):
            return self.bad_token(err)
        n = min(max(1, getattr(err, "line", 1) or 1), len(self.lines))
        return _Mend(self.diag(R.EFFECT_SYNTAX, "the effect ends in the middle of a statement", n, 1), False)

    def bad_character(self, n: int, col: int) -> _Mend:
        line = self.lines[n - 1]
        ch = line[col - 1:col]
        if ch in _FULL_WIDTH:
            self.replace(n, col, ch, _FULL_WIDTH[ch])
            return _Mend(self.diag(R.EFFECT_SYNTAX, f"a full-width '{ch}'; write the half-width '{_FULL_WIDTH[ch]}'", n, col,
                                   hint="switch the keyboard to half-width (English) punctuation"), True)
        if ch in _CURLY:
            self.replace(n, col, ch, '"')
            return _Mend(self.diag(R.EFFECT_SYNTAX, f"a curly quote {ch}; write names in straight quotes \"…\"", n, col), True)
        msg = "a quoted name is not closed on this line" if ch in "'\"" else f"unexpected character '{ch}'"
        return _Mend(self.diag(R.EFFECT_SYNTAX, msg, n, col), self.stand_in(n))

    def bad_token(self, err: UnexpectedToken) -> _Mend:
        tok = err.token
        expected = _acceptable(err)
        if tok.type == "$END":
            n = len(self.lines)
            while n > 1 and not _is_code(self.lines[n - 1]):
                n -= 1
            col = len(self.lines[n - 1].rstrip()) + 1
        elif tok.type == "_INDENT":
            n, col = tok.end_line or 1, 1       # the token starts at the line break before the line at fault
        else:
            n, col = tok.line or err.line or 1, tok.column or err.column or 1
        n = min(max(1, n), len(self.lines))
        if "_INDENT" in expected and tok.type != "_INDENT":
            return self.empty_block(n, tok.type in ("$END", "_DEDENT", "_NL"))
        if tok.type == "_INDENT":
            return self.over_indented(n)
        misread = self.misread(tok, n, col, expected)
        if misread is not None:
            return misread
        typo = self.keyword_typo(tok, n, col, expected)
        if typo is not None:
            return typo
        if tok.type == "_NL" and "COLON" in expected:
            self.lines[n - 1] = _code_part(self.lines[n - 1]).rstrip() + ":"
            self.mended.add(n)
            return _Mend(self.diag(R.EFFECT_SYNTAX, "expected ':' at the end of this line", n, col), True)
        width = len(str(tok.value)) if tok.type not in ("_NL", "_INDENT", "_DEDENT", "$END") else 1
        msg = f"expected {_expected_words(expected)}, found {_found_word(tok)}"
        hint = None
        if "NAME" in expected and str(tok.value).lower() in keywords().all:
            msg = f"'{tok.value}' is a reserved word of the language, so it cannot be a name here"
            hint = "choose another name, such as 'n' or 'total'"
        return _Mend(self.diag(R.EFFECT_SYNTAX, msg, n, col, width, hint), self.stand_in(n))

    def misread(self, tok: Token, n: int, col: int, expected: set[str]) -> _Mend | None:
        """A line written as another language would write it (rulekit.language.misread), told so."""
        if tok.type in ("_NL", "_DEDENT", "$END"):
            return None
        line = self.lines[n - 1]
        top = _indent(line) == 0 and not self.condition
        found = explain(_code_part(line), tok.type, str(tok.value), col, top, expected)
        if found is None:
            return None
        d = self.diag(R.EFFECT_SYNTAX, found.message, n, found.col or col, found.width or len(str(tok.value)), found.hint)
        if found.mend == "drop":
            self.replace(n, col, str(tok.value), "")
            return _Mend(d, True)
        return _Mend(d, self.stand_in(n) if found.mend == "stand_in" else False)

    def keyword_typo(self, tok: Token, n: int, col: int, expected: set[str]) -> _Mend | None:
        """`iff x:` `wen death:` `each players:` or a statement outside any handler, in plain words."""
        line = self.lines[n - 1]
        first = _first_word(line)
        top = _indent(line) == 0 and not self.condition
        kw = keywords()
        if top and first is not None and (first[1], first[0]) == (tok.column, tok.value):
            guess = nearest(tok.value, [*kw.items, *kw.statements, *_STATEMENT_NAMES])
            if tok.type == "NAME" and guess in kw.items:
                return self.respell(n, col, tok.value, guess)
            return _Mend(self.diag(R.EFFECT_SYNTAX, f"`{line.strip()}` is outside any handler", n, col, len(tok.value),
                                   hint="put statements in an indented block under a handler such as `on play:`, "
                                        "`when death:` or `on resolve:`"), False)
        if tok.type == "NAME" and "NAME" not in expected:
            guess = nearest(tok.value, _expected_keywords(expected))
            if guess is None and expected & _EXPRESSION_ENDS:
                guess = nearest(tok.value, ["and", "or"])     # LALR may have closed the expression already
            if guess is not None:
                return self.respell(n, col, tok.value, guess)
        if first is not None and not top and first[0] not in kw.all:
            guess = nearest(first[0], [*kw.statements, *_STATEMENT_NAMES])
            if guess in kw.statements:
                return self.respell(n, first[1], first[0], guess)
        return None

    def respell(self, n: int, col: int, word: str, keyword: str) -> _Mend:
        self.replace(n, col, word, keyword)
        return _Mend(self.diag(R.EFFECT_SYNTAX, f"unknown word '{word}' — did you mean '{keyword}'?", n, col, len(word)), True)

    def empty_block(self, n: int, on_its_line: bool) -> _Mend:
        """A line ending in ':' with nothing indented under it: one error, at that ':'.

        The token at fault is the end of that line, or the first token of the next one.
        """
        opener = n
        if not on_its_line:
            opener = max(1, n - 1)
            while opener > 1 and not _is_code(self.lines[opener - 1]):
                opener -= 1
        text = _code_part(self.lines[opener - 1]).rstrip()
        col = len(text) if text.endswith(":") else _indent(self.lines[opener - 1]) + 1
        d = self.diag(R.EFFECT_SYNTAX, "expected an indented block after ':'", opener, col,
                      hint="indent the lines of the block two spaces more than the line with ':'")
        if _indent(self.lines[opener - 1]) == 0:
            return _Mend(d, False)         # a handler with nothing in it: nothing further to read
        start, end = _statement_lines(self.lines, opener)
        self.continue_chain(end, _indent(self.lines[start - 1]))
        self.replace_statement(start, end, "let _recovered_{n} = 0")
        return _Mend(d, True)

    def continue_chain(self, after: int, width: int) -> None:
        """The `elif`/`else` that followed a statement now stood in for start a chain of their own."""
        for i in range(after, len(self.lines)):
            line = self.lines[i]
            if not _is_code(line):
                continue
            if _indent(line) != width:
                return
            word = _first_word(line)
            if word is None or word[0] not in ("elif", "else"):
                return
            body = line.strip()
            self.lines[i] = " " * width + ("if  " + body[4:] if word[0] == "elif" else "if 0 == 0:")
            self.mended.add(i + 1)
            return

    def over_indented(self, n: int) -> _Mend:
        previous = next((ln for ln in reversed(self.lines[:n - 1]) if _is_code(ln)), "")
        d = self.diag(R.EFFECT_SYNTAX, "this line is indented more than the line before it", n, _indent(self.lines[n - 1]) + 1,
                      hint="indent a line only after a line that ends with ':'")
        self.lines[n - 1] = " " * _indent(previous) + self.lines[n - 1].lstrip(" ")
        self.mended.add(n)
        return _Mend(d, True)

    def bad_dedent(self) -> _Mend:
        n, levels = _bad_dedent(self.lines)
        line = self.lines[n - 1]
        d = self.diag(R.EFFECT_INDENTATION, "this line's indentation does not match any block above it", n, _indent(line) + 1,
                      hint="line it up with the block it belongs to")
        if not levels:
            return _Mend(d, False)
        width = min(levels, key=lambda w: (abs(w - _indent(line)), -w))
        self.lines[n - 1] = " " * width + line.lstrip(" ")
        self.mended.add(n)
        return _Mend(d, True)

    # -- mending ------------------------------------------------------------------------------------
    def replace(self, n: int, col: int, old: str, new: str) -> None:
        line = self.lines[n - 1]
        self.lines[n - 1] = line[:col - 1] + new + line[col - 1 + len(old):]
        self.mended.add(n)

    def stand_in(self, n: int) -> bool:
        """Stand a harmless statement in for the statement at line n; False for a handler line."""
        start, end = _statement_lines(self.lines, n)
        if _indent(self.lines[start - 1]) == 0:
            return False
        if not _opens_block(self.lines, start, end):
            self.replace_statement(start, end, "let _recovered_{n} = 0")
            return True
        word = _first_word(self.lines[start - 1])
        header = {"if": "if 0 == 0:", "elif": "elif 0 == 0:", "else": "else:"}.get(word[0] if word else "", "repeat 1:")
        self.replace_statement(start, end, header)
        return True

    def replace_statement(self, start: int, end: int, text: str) -> None:
        for i in range(start, end + 1):
            self.lost_words.update(_WORD.findall(_code_part(self.lines[i - 1])))
            self.mended.add(i)
        self.lines[start - 1] = " " * _indent(self.lines[start - 1]) + text.format(n=start)
        for i in range(start + 1, end + 1):
            self.lines[i - 1] = ""


def _bad_dedent(lines: list[str]) -> tuple[int, list[int]]:
    """The first line whose indentation matches no open block, and the indentations it could take."""
    levels = [0]
    for n, line in enumerate(lines, 1):
        if not _is_code(line):
            continue
        width = _indent(line)
        if width > levels[-1]:
            levels.append(width)
            continue
        open_levels = list(levels)
        while width < levels[-1]:
            levels.pop()
        if width != levels[-1]:
            return n, open_levels
    return 1, []


# ---- nesting and number limits -----------------------------------------------------------------------

_CHAINS = ("sum", "product", "or_expr", "and_expr")
_ONE_LEVEL = ("not_op", "neg", "call", "comparison", "block")


# Every level _too_deep counts is a token with one of these in it (an operator, a call's '(', a block's ':').
_LEVEL_MARKS = ("+", "-", "*", "/", "(", ":", "<", ">", "=", "!", "and", "or", "not")


def _too_deep_in(src: str, start: str, origin: Origin) -> Diagnostic | None:
    """_too_deep for text that parses; Lark's tree, which places the error, is only made for text
    with more marks of a level in it than the limit allows levels (no card of the content has)."""
    if sum(src.count(mark) for mark in _LEVEL_MARKS) <= _LIMIT:
        return None
    return _too_deep(_tree_lark().parse(src, start=start), origin)


def _too_deep(tree: Tree, origin: Origin) -> Diagnostic | None:
    """RK103 where blocks and operators inside one another pass the nesting limit (no recursion)."""
    stack: list[tuple[Tree, int]] = [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        if node.data in _CHAINS:
            depth += len(node.children) // 2
        elif node.data in _ONE_LEVEL:
            depth += 1
        if depth > _LIMIT:
            meta = node.meta
            line, col = (meta.line, meta.column) if not getattr(meta, "empty", True) else (1, 1)
            row, c = origin.map(line, col)
            what = "blocks" if node.data == "block" else "operators, comparisons and calls"
            return Diagnostic.of(R.EFFECT_TOO_DEEP, f"nested too deeply: more than {_LIMIT} {what} inside one another",
                                 origin.file, row, c, row, c + 1,
                                 hint="name parts of the expression with `let`, or split the effect into simpler steps")
        stack.extend((child, depth) for child in node.children if isinstance(child, Tree))
    return None


def _number_problems(large: list[Token], origin: Origin) -> list[Diagnostic]:
    """RK104 at every whole number larger than the number limit (the builder lists them)."""
    out = []
    for tok in large:
        row, c = origin.map(tok.line, tok.column)     # type: ignore[arg-type]
        shown = tok.value if len(tok.value) <= 20 else f"{tok.value[:8]}… ({len(tok.value)} digits)"
        out.append(Diagnostic.of(R.NUMBER_TOO_LARGE, f"the number {shown} is larger than {registry.MAX_NUMBER:,}, "
                                                     "the largest number the game can hold",
                                 origin.file, row, c, row, c + len(tok.value), hint="use a smaller number"))
    return out


# ---- public API ----------------------------------------------------------------------------------------

def _tabs(lines: list[str], origin: Origin) -> tuple[list[str], list[Diagnostic], frozenset[int]]:
    """Every tab reported at its own line and column; the text read on with a space for each.

    Also the lines (1-based, of the text) whose indentation holds a tab.
    """
    diags = []
    indented = set()
    for n, line in enumerate(lines, 1):
        if "\t" not in line:
            continue
        for i, ch in enumerate(line):
            if ch == "\t":
                row, c = origin.map(n, i + 1)
                diags.append(Diagnostic.of(R.EFFECT_SYNTAX, "a tab character; indent and separate words with spaces",
                                           origin.file, row, c, row, c + 1, hint="replace the tab with spaces"))
        if "\t" in line[:len(line) - len(line.lstrip(" \t"))]:
            indented.add(n)
    return [line.replace("\t", " ") for line in lines], diags, frozenset(indented)


def parse_effect_recovering(text: str, origin: Origin = Origin()) -> Parsed:
    """Parse a whole effect, reading on past every mistake; see Parsed."""
    lines, diags, tabbed = _tabs(text.split("\n"), origin)
    deep = _too_many_brackets(lines, origin)
    if deep is not None:
        return Parsed(None, tuple([*diags, deep]), complete=False)
    if lines and _is_code(lines[0]) and _indent(lines[0]):
        row, c = origin.map(1, 1)
        diags.append(Diagnostic.of(R.EFFECT_INDENTATION, "the effect's first line must not be indented",
                                   origin.file, row, c, row, c + _indent(lines[0])))
        return Parsed(None, tuple(diags), complete=False)
    items: list = []
    mended: set[int] = set()
    lost: set[str] = set()
    complete = True
    for start, chunk in _chunks(lines):
        sub = origin.below(start)
        reader = _Reader(list(chunk), sub, tabbed=any(start <= n < start + len(chunk) for n in tabbed))
        read = reader.read()
        diags += reader.diags
        mended.update(sub.map(n, 1)[0] for n in reader.mended)
        lost |= reader.lost_words
        if read is None:
            complete = complete and not any(_is_code(ln) for ln in chunk)
            continue
        deep = _too_deep_in(reader.source(), "start", sub)
        if deep is not None:
            diags.append(deep)
            complete = False
            continue
        too_large = _number_problems(reader.large, sub)
        diags += too_large
        mended.update(d.line for d in too_large)     # the limit stands in for the number: its line is mended
        items += read
    row, c = origin.map(1, 1)
    program = ast.Program(ast.Pos(row, c, row, c), tuple(items)) if items or not diags else None
    return Parsed(program, tuple(diags), frozenset(mended), frozenset(lost), complete)


def parse_effect(text: str, origin: Origin = Origin()) -> tuple[ast.Program | None, list[Diagnostic]]:
    """Parse a whole effect; every syntax problem is returned, at the file's own positions.

    With problems, the program holds what parsed (or is None when nothing did).
    """
    parsed = parse_effect_recovering(text, origin)
    return parsed.program, list(parsed.diags)


def parse_expression(text: str, origin: Origin = Origin()) -> tuple[ast.Expr | None, list[Diagnostic]]:
    """Parse one expression (rules.yaml unlock conditions, combo `when:` fields); it may span lines."""
    lines, diags, _ = _tabs(text.strip("\n").split("\n"), origin)
    deep = _too_many_brackets(lines, origin)
    if deep is not None:
        return None, [*diags, deep]
    # Read inside brackets, where a line break is only a space. The '(' shifts the first line
    # by one column, which `inner` takes back; the ')' stands on a line of its own, after any comment.
    inner = Origin(origin.file, origin.line, origin.col - 1,
                   origin.indent if origin.indent is not None else origin.col - 1)
    src = "(" + "\n".join(lines) + "\n)\n"
    try:
        expr, large = _parse(src, "expr_start", inner)
    except UnexpectedInput as err:
        return None, [*diags, _condition_problem(err, lines, origin, inner)]
    except LarkError as err:  # pragma: no cover - a Lark failure we have not classified
        row, c = origin.map(1, 1)
        return None, [*diags, Diagnostic.of(R.EFFECT_SYNTAX, f"cannot read this condition: {err}",
                                            origin.file, row, c, row, c + 1)]
    deep = _too_deep_in(src, "expr_start", inner)
    if deep is not None:
        return None, [*diags, deep]
    diags += _number_problems(large, inner)
    return (None if diags else expr), diags


def _condition_problem(err: UnexpectedInput, lines: list[str], origin: Origin, inner: Origin) -> Diagnostic:
    """A condition's syntax error, in its own words (the brackets it was read in are never named)."""
    extra = _unmatched_close(lines)
    if extra is not None:
        row, c = origin.map(*extra)
        return Diagnostic.of(R.EFFECT_SYNTAX, "a ')' without a '(' before it", origin.file, row, c, row, c + 1)
    if isinstance(err, UnexpectedToken) and (err.token.type == "$END" or (err.token.line or 0) > len(lines)):
        n = len(lines)
        while n > 1 and not lines[n - 1].strip():
            n -= 1
        row, c = origin.map(n, len(lines[n - 1].rstrip()) + 1)
        if _bracket_depths(lines)[-1] > 0:
            return Diagnostic.of(R.EFFECT_SYNTAX, "a '(' is not closed", origin.file, row, c, row, c + 1,
                                 hint="add the ')' that closes it")
        expected = _acceptable(err) - {"RPAR", "_NL", "$END"}
        words = f": expected {_expected_words(expected)}" if expected else ""
        return Diagnostic.of(R.EFFECT_SYNTAX, f"the condition ends too early{words}", origin.file, row, c, row, c + 1)
    reader = _Reader(["(" + lines[0], *lines[1:], ")"], inner, condition=True)
    return reader.unexpected(err).diag


def _unmatched_close(lines: list[str]) -> tuple[int, int] | None:
    """Line and column of the first ')' that closes nothing."""
    depth = 0
    for n, line in enumerate(lines, 1):
        for col, ch in enumerate(_code_part(line), 1):
            if ch == "(":
                depth += 1
            elif ch == ")":
                if depth == 0:
                    return n, col
                depth -= 1
    return None
