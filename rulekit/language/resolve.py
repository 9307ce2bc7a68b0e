"""What every name of an effect means: one pass, one table, read by every later stage.

An effect's text names many things with bare words: `money` (a track), `dead` (a board count),
`round` (a value the game provides), `n` (a name the effect made with `let`, `choose` or `as`),
`charges` (a number the card keeps, `counters:`), `gain` (a number the card names, `params:`),
`price` (inside `count(played where …)`: the card being counted). This pass decides, once, which
one each word is, by the language's scoping rules; the checker, the code generator, the reference
walker and the bots' estimate read its table and never decide again.

The table (`Resolution.meaning`, handed on as `Checked.meaning`) maps a node to its `Meaning`:

- every `ast.Name` read in an expression;
- every `ast.TrackChange` (`NAME += …`, `-=`, `=`): what NAME is;
- every statement that makes a name (`let`, `choose`, and `as NAME` after `pay`, a verb, `take`/`give`
  or `discard`): `Meaning(LOCAL, name, binding)` with the binding it makes;
- every `ast.Modify`: the quantity it modifies (`QUANTITY`, or `UNKNOWN` for a word that is none).

A `Meaning` has a `kind` (one of KINDS, a plain str: `m.kind == "local"`), the `name` as written,
and, for a LOCAL, the `Binding` it reads or changes: the one object per `let`/`choose`/`as`, compared
by identity, so two uses of one name read one binding and two definitions of a name in sibling
blocks are two bindings. Reading it from elsewhere (the bots' estimate, say):

    from rulekit.language.resolve import LOCAL, TRACK
    m = card.checked.meaning[node]          # or card.checked.of(node)
    if m.kind == TRACK: ...                 # m.name is the track
    elif m.kind == LOCAL: slot = slots[m.binding]

Scoping, as the language documents it: a block (a handler's body, a branch, a loop's body …) holds
the names made in it, from the statement that makes them to the block's end; a name is made after
its own value is read (`let n = n + 1` reads an outer `n`). Inside `count(played where …)`, `stage`
and `price` are the counted card's, whatever else has those names (the innermost meaning wins). A
definition the language refuses (a reserved word, a counter's or parameter's name, a name already
in reach) makes no binding; `Resolution.refused` says why, for the checker to report. The pass
reports nothing itself: the checker reports what it finds where it looks.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field

from rulekit import registry
from rulekit.language import ast
from rulekit.language.visitor import Visitor

# What a name can be (Meaning.kind).
LOCAL = "local"          # a name the effect made: `let`, `choose`, `as`
COUNTER = "counter"      # a number the card keeps (`counters:`), changed by its effect
PARAM = "param"          # a number the card names (`params:`), a constant
CARD = "card"            # `stage` or `price` of the card `count(played where …)` is counting
TRACK = "track"          # a track of the subject (money, economy …); a TrackChange of an unknown word too
COUNT = "count"          # a board count of the subject (dead, infected …)
VALUE = "value"          # a value the game provides (hand, revealed, round, players, uses)
QUANTITY = "quantity"    # the quantity a `modify` declaration changes (income, spread …)
UNKNOWN = "unknown"      # none of these: the checker reports it
KINDS = (LOCAL, COUNTER, PARAM, CARD, TRACK, COUNT, VALUE, QUANTITY, UNKNOWN)

# Why a definition makes no name (Refusal.reason).
RESERVED_WORD, COUNTER_NAME, PARAM_NAME, DEFINED_TWICE = "reserved", "counter", "param", "twice"


def _reserved() -> dict[str, str]:
    words: dict[str, str] = {}
    for kw in registry.KEYWORDS:
        words[kw] = "a keyword of the language"
    for name in registry.KINDS:
        words[name] = "a kind of resident"
    for name in registry.COUNTS:
        words[name] = "a board count"
    for name in registry.VALUES:
        words[name] = "a value the game provides"
    for name in registry.SETTABLE:
        words[name] = "a track"
    words["it"] = "`it`, the cell or card of a trigger"
    return words


# The words no `let`, `choose` or `as` may make, and what each already is.
RESERVED = _reserved()
# The values the game provides by name (VALUE): `uses` of a policy, and the subject's hand and board.
_VALUES = frozenset(registry.VALUES)


@dataclass(frozen=True, eq=False)
class Binding:
    """A name the effect makes: one object per `let`, `choose` or `as` (compared by identity)."""

    name: str
    form: str               # let | choose | as
    node: ast.Node          # the statement that makes it
    pos: ast.Pos            # where the name is written


@dataclass(frozen=True)
class Meaning:
    """What a name means where it is written: its kind (KINDS), the name, and a LOCAL's binding.

    A LOCAL without a binding is a name a line that could not be read may have made (only in an
    effect with syntax errors, which is never compiled)."""

    kind: str
    name: str
    binding: Binding | None = None


@dataclass(frozen=True)
class Refusal:
    """Why a definition makes no name: RESERVED_WORD, COUNTER_NAME, PARAM_NAME, or DEFINED_TWICE
    (then `first` is the binding already in reach)."""

    reason: str
    first: Binding | None = None


@dataclass
class Resolution:
    """The pass's result: the table, the refused definitions, and the names in reach of each unknown name."""

    meaning: dict[ast.Node, Meaning] = field(default_factory=dict)
    refused: dict[ast.Node, Refusal] = field(default_factory=dict)
    reach: dict[ast.Node, tuple[str, ...]] = field(default_factory=dict)   # UNKNOWN Name -> names made in reach

    def binding(self, definition: ast.Node) -> Binding | None:
        """The binding a `let`/`choose`/`as` statement makes (None: refused)."""
        m = self.meaning.get(definition)
        return m.binding if m is not None and m.kind == LOCAL else None


_ASSUMED = object()     # stands for a name a line that could not be read may have made


class _Resolver(Visitor, walks=("statements", "expressions", "declarations")):
    def __init__(self, counters: Collection[str], params: Collection[str], assumed: Collection[str]) -> None:
        self.counters = frozenset(counters)
        self.params = frozenset(params)
        self.assumed = frozenset(assumed)
        self.scopes: list[dict[str, Binding]] = []
        self.card_values = False            # inside `count(played where …)`
        self.out = Resolution()

    # ---- scopes ---------------------------------------------------------------------------------
    def lookup(self, name: str) -> Binding | object | None:
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        return _ASSUMED if name in self.assumed else None

    def local(self, name: str) -> Meaning | None:
        found = self.lookup(name)
        if found is None:
            return None
        return Meaning(LOCAL, name, found if isinstance(found, Binding) else None)

    def define(self, node: ast.Node, name: str | None, form: str, pos: ast.Pos) -> None:
        if name is None:
            return
        reason = (RESERVED_WORD if name in RESERVED else COUNTER_NAME if name in self.counters
                  else PARAM_NAME if name in self.params else None)
        first = self.lookup(name)
        if reason is None and isinstance(first, Binding) and first.pos != ast.NOPOS:
            self.out.refused[node] = Refusal(DEFINED_TWICE, first)
            return
        if reason is not None:
            self.out.refused[node] = Refusal(reason)
            return
        if self.scopes:
            binding = Binding(name, form, node, pos)
            self.scopes[-1][name] = binding
            self.out.meaning[node] = Meaning(LOCAL, name, binding)

    def block(self, body: tuple[ast.Stmt, ...]) -> None:
        self.scopes.append({})
        for st in body:
            self.stmt(st)
        self.scopes.pop()

    def maybe(self, e: ast.Expr | None) -> None:
        if e is not None:
            self.expr(e)

    # ---- items ------------------------------------------------------------------------------------
    def program(self, program: ast.Program) -> None:
        for item in program.items:
            if isinstance(item, ast.Handler):
                if item.condition is not None:          # `once when becomes COND:`
                    self.scopes = [{}]
                    self.expr(item.condition)
                    self.scopes = []
                self.block(item.body)
            else:
                self.decl(item)

    def d_Modify(self, d: ast.Modify) -> None:
        kind = QUANTITY if d.quantity in registry.QUANTITIES else UNKNOWN
        self.out.meaning[d] = Meaning(kind, d.quantity)
        self.scopes = [{}]
        self.expr(d.expr)
        if d.cond is not None:
            self.expr(d.cond)
        self.scopes = []

    def no_names(self, d: ast.Node) -> None:
        """A declaration or statement that reads and makes no name."""

    def while_names(self, d: ast.Shield | ast.Seal | ast.Skip | ast.Limit) -> None:
        """A declaration that reads names only in its `while` condition."""
        if d.cond is not None:
            self.scopes = [{}]
            self.expr(d.cond)
            self.scopes = []

    d_Shield = d_Seal = d_Skip = d_Limit = while_names

    # ---- statements -------------------------------------------------------------------------------------
    def s_TrackChange(self, s: ast.TrackChange) -> None:
        self.expr(s.expr)
        meaning = self.local(s.track)
        if meaning is None:
            kind = (PARAM if s.track in self.params
                    else COUNTER if s.track in self.counters and s.track not in registry.SETTABLE else TRACK)
            meaning = Meaning(kind, s.track)
        self.out.meaning[s] = meaning

    def s_Let(self, s: ast.Let) -> None:
        self.expr(s.expr)
        self.define(s, s.name, "let", s.name_pos)

    def s_Choose(self, s: ast.Choose) -> None:
        self.expr(s.lo)
        self.expr(s.hi)
        self.define(s, s.name, "choose", s.name_pos)

    def s_If(self, s: ast.If) -> None:
        for cond, body in s.branches:
            self.expr(cond)
            self.block(body)
        if s.orelse is not None:
            self.block(s.orelse)

    def where_and_body(self, s: ast.EachPlayer | ast.ChoosePlayer) -> None:
        self.maybe(s.where)
        self.block(s.body)

    s_EachPlayer = s_ChoosePlayer = where_and_body

    def s_PlayerWith(self, s: ast.PlayerWith) -> None:
        self.expr(s.expr)
        self.block(s.body)

    def s_ChooseCell(self, s: ast.ChooseCell) -> None:
        self.block(s.body)

    def s_Repeat(self, s: ast.Repeat) -> None:
        self.expr(s.count)
        self.block(s.body)

    def s_After(self, s: ast.After) -> None:
        self.expr(s.count)
        self.block(s.body)

    def amount_and_body(self, s: ast.MayPay | ast.MayDiscard) -> None:
        self.expr(s.amount)
        self.block(s.body)

    s_MayPay = s_MayDiscard = amount_and_body

    def body_only(self, s: ast.May | ast.Me | ast.SeatPlayer | ast.TheyChoose) -> None:
        self.block(s.body)

    s_May = s_Me = s_SeatPlayer = s_TheyChoose = body_only

    def s_Spend(self, s: ast.Spend) -> None:
        self.expr(s.amount)

    def s_Pay(self, s: ast.Pay) -> None:
        self.expr(s.amount)
        self.define(s, s.as_name, "as", s.as_pos)

    def amount_as(self, s: ast.VerbStmt | ast.Transfer | ast.Discard) -> None:
        self.maybe(s.amount.expr)
        self.define(s, s.as_name, "as", s.as_pos)

    s_VerbStmt = s_Transfer = s_Discard = amount_as

    def s_Draw(self, s: ast.Draw) -> None:
        self.expr(s.count)
        self.expr(s.stage)
        self.maybe(s.keep)

    def s_Draft(self, s: ast.Draft) -> None:
        self.expr(s.count)
        self.expr(s.stage)

    def s_Unlock(self, s: ast.Unlock) -> None:
        self.expr(s.stage)

    s_VerbIt = s_Prevent = s_Tag = no_names

    def s_Mark(self, s: ast.Mark) -> None:
        if s.amount is not None:
            self.expr(s.amount)

    # ---- expressions ------------------------------------------------------------------------------------
    def e_Name(self, e: ast.Name) -> None:
        self.out.meaning[e] = self.name(e)

    def name(self, e: ast.Name) -> Meaning:
        name = e.name
        if self.card_values and name in registry.CARD_VALUES:
            return Meaning(CARD, name)
        local = self.local(name)
        if local is not None:
            return local
        if name in registry.CARD_VALUES:
            return Meaning(CARD, name)          # outside `count(played where …)`: the checker says so
        if name in self.params:
            return Meaning(PARAM, name)
        if name in self.counters and name not in registry.SETTABLE:
            return Meaning(COUNTER, name)
        if name in registry.SETTABLE:
            return Meaning(TRACK, name)
        if name in registry.COUNTS:
            return Meaning(COUNT, name)
        if name in _VALUES:
            return Meaning(VALUE, name)
        self.out.reach[e] = tuple(n for scope in self.scopes for n in scope)
        return Meaning(UNKNOWN, name)

    def leaf(self, e: ast.Expr) -> None:
        """An expression that holds no name."""

    e_Num = e_Str = e_It = leaf

    def operand(self, e: ast.Neg | ast.Not) -> None:
        self.expr(e.operand)

    e_Neg = e_Not = operand

    def operands(self, e: ast.BinOp | ast.Compare | ast.BoolOp) -> None:
        self.expr(e.left)
        self.expr(e.right)

    e_BinOp = e_Compare = e_BoolOp = operands

    def e_Call(self, e: ast.Call) -> None:
        for a in e.args:
            if e.func == "caused_by" and isinstance(a, ast.Name):
                continue            # `caused_by(event)`: a word of registry.CAUSES, not a name to look up
            self.expr(a)

    def e_CountOf(self, e: ast.CountOf) -> None:
        if e.where is None:
            return
        outer = self.card_values
        self.card_values = outer or e.what in ("played", "tableau")
        self.expr(e.where)
        self.card_values = outer


def resolve_program(program: ast.Program, *, counters: Collection[str] = (), params: Mapping[str, int] | None = None,
                    assumed: Collection[str] = ()) -> Resolution:
    """What every name of one card's effect means. `counters` and `params` are the card's (`counters:`,
    `params:`); `assumed` the words of lines that could not be read (names they may have made)."""
    resolver = _Resolver(counters, params or {}, assumed)
    resolver.program(program)
    return resolver.out


def resolve_expression(expr: ast.Expr, *, counters: Collection[str] = (), params: Mapping[str, int] | None = None) -> Resolution:
    """What every name of a condition or an amount means (a combo's `when:`, an unlock rule)."""
    resolver = _Resolver(counters, params or {}, ())
    resolver.scopes = [{}]
    resolver.expr(expr)
    return resolver.out
