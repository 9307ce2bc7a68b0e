"""The checker's state and reporting, and the checks of expressions: types, names, calls, `count(…)`.

`ExprChecks` is the base of the checker (rulekit.language.checker): it holds what one pass over one
program knows (the card's kind, counters and parameters, where the walk is, the names' types and
ranges), reports a problem naming its rule, and checks every expression. What a name means it reads
from the resolver's table (rulekit.language.resolve), never decides itself.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence


from rulekit import registry
from rulekit.diagnostics.codes import R
from rulekit.language import ast
from rulekit.language import resolve as rs
from rulekit.language.diagnostics import Diagnostic, nearest
from rulekit.language.ranges import ANY, MOST_PLAYERS, NAME_RANGES, Range, Ranges, can_be_zero, show
from rulekit.language.visitor import Visitor

RefExists = Callable[[str, str], bool]

NUM, BOOL, TEXT, CELL, CARD = "number", "true/false", "text", "cell", "card"

_KIND_ARTICLE = {"advisor": "an advisor", "policy": "a policy", "event": "an event", "combo": "a combo"}
_REF_KIND = {"card": "policy", "event": "event", "advisor": "advisor"}
# What reading a name or calling a predicate reads of the game (Checked.reads).
_READS_OF = {
    **{name: "tracks" for name in registry.SETTABLE}, **{name: "board" for name in registry.COUNTS},
    "hand": "hand", "revealed": "board", "round": "round", "players": "players", "uses": "cards", "turn": "players",
    "played": "cards", "event": "events", "happened": "events", "unlocked": "stage",
    "advisor": "cards", "tableau": "cards", "switched_off": "cards", "caused_by": "cards",
    "roll": "chance", "marks": "marks",     # never skipped as unchanged by `once when becomes` (BECOMES_READS)
}


def span(a: ast.Pos, b: ast.Pos) -> ast.Pos:
    return ast.Pos(a.line, a.col, b.end_line, b.end_col)


def zh(table: Mapping[str, object], name: str) -> str:
    word = getattr(table.get(name), "zh", "")
    return f" ({word})" if word else ""


def _it_hint() -> str:
    def of(binds: str) -> str:
        return ", ".join(f"`when {t.name}`" for t in registry.TRIGGERS.values() if t.binds == binds)
    return f"`it` is the cell of {of('cell')}, or the card of {of('card')}"


_IT_HINT = _it_hint()


def unknown_word(word: str, table: Mapping[str, object], what: str) -> tuple[str, str | None]:
    """'unknown track 'medicl' — did you mean 'medical' (医疗)?' plus a hint listing the choices."""
    by_zh = [name for name, w in table.items() if getattr(w, "zh", None) == word]
    guess = by_zh[0] if by_zh else nearest(word, sorted(k for k in table if k != word))
    msg = f"unknown {what} '{word}'"
    if guess:
        msg += f" — did you mean '{guess}'{zh(table, guess)}?"
    else:
        msg += ": the language has no such word"
    choices = ", ".join(sorted(table))
    return msg, (f"write the English word; known: {choices}" if len(table) <= 16 else None)


def big(n: int) -> str:
    """A number for a message: in full, or its size when it has too many digits to read."""
    text = f"{n:,}"
    return text if len(text) <= 27 else f"a number of {len(str(abs(n)))} digits"


def a_word(word: str) -> str:
    """'a `death`' or 'an `unsold`'."""
    return f"{'an' if word[:1] in 'aeiou' else 'a'} `{word}`"


class ExprChecks(Visitor, walks=("expressions",)):
    """One pass over one program (or one condition); diagnostics collect in self.diags."""

    def __init__(self, kind: str, file: str, refs: RefExists | None,
                 names: Mapping[str, Sequence[str]] | None, assumed: Collection[str] = (),
                 unreadable: Mapping[str, Sequence[str]] | None = None, counters: Collection[str] = (),
                 params: Mapping[str, int] | None = None) -> None:
        self.kind = kind
        self.counters = frozenset(counters)      # the numbers this card keeps (`counters:`)
        self.params = dict(params or {})         # the numbers this card names (`params:`): read-only constants
        self.players = 0                         # player blocks we are in (`take`/`give` need one)
        self.in_after = False                    # inside `after N rounds:` (no `it`, no `prevent`)
        self.afters = 0                          # `after` blocks we are in
        self.chosen: list[tuple[int, str | None, ast.Pos]] = []   # each `choose cell` block we are in: (afters,
        # its kind, where it is written)
        self.it_acted: set[object] = set()       # the `it` scopes (a choose cell, a handler) a verb already acted on
        self.card_values = False                 # inside `count(played where …)`: `stage`, `price` readable
        self.res = rs.Resolution()               # what every name means (the resolver's table)
        self.types: dict[rs.Binding, str | None] = {}    # the type of each name the effect made
        self.ranges: dict[rs.Binding, Range] = {}        # the values it can hold at this point of the walk
        self.reads: set[str] = set()
        self.file = file
        self.refs = refs
        self.names = names or {}
        self.unreadable = unreadable or {}   # card kind ('' for any) -> files that could not be read
        self.assumed = frozenset(assumed)    # names a line that could not be read may have made
        self.diags: list[Diagnostic] = []
        self.subject = True
        self.handler: ast.Handler | None = None
        self.overflows: set[ast.Pos] = set()
        self.steps = 0                                   # statements the handler runs, loops counted
        self.too_long: tuple[ast.Pos, int] | None = None     # the outermost statement running too many

    # -- ranges --------------------------------------------------------------------
    def range(self, e: ast.Expr) -> Range:
        """The values e can take here (RK233 where numbers alone compute past the limit)."""
        return self.ranger().of(e)

    def ranger(self) -> Ranges:
        return Ranges(self.name_range, self.overflow)

    def name_range(self, e: ast.Name) -> Range:
        """What a name can hold here: a name the effect made, its values now; a parameter, its number."""
        meaning = self.res.meaning.get(e)
        if meaning is not None and meaning.kind == rs.LOCAL and meaning.binding is not None:
            return self.ranges.get(meaning.binding, ANY)
        if meaning is not None and meaning.kind == rs.PARAM:
            v = self.params[e.name]
            return v, v
        return NAME_RANGES.get(e.name, ANY)

    def const(self, e: ast.Expr) -> int | None:
        lo, hi = self.range(e)
        return lo if lo is not None and lo == hi else None

    def overflow(self, e: ast.Node, value: int) -> None:
        if e.pos in self.overflows:
            return
        self.overflows.add(e.pos)
        self.report(R.NUMBER_OVERFLOW, e.pos, f"this computes {big(value)}, more than {registry.MAX_NUMBER:,}, the "
                    "largest number the game can hold: the game stops with an error when it gets here",
                    hint="use smaller numbers")

    # -- reporting ----------------------------------------------------------------
    def report(self, rule: R, pos: ast.Pos, message: str, hint: str | None = None) -> None:
        self.diags.append(Diagnostic.of(rule, message, self.file, pos.line, pos.col, pos.end_line, pos.end_col, hint))

    # -- steps ------------------------------------------------------------------------
    def effect_steps(self, head: ast.Pos) -> None:
        limit = registry.LIMITS["effect_steps"].value
        if self.steps <= limit:
            return
        pos, steps = self.too_long or (head, self.steps)
        self.report(R.EFFECT_TOO_LONG, pos, f"this runs {big(steps)} steps or more (statements, one step per card "
                    "drawn, and one per player a count(…), highest(…) or lowest(…) reads); one effect may "
                    f"run at most {limit:,}, so the game stops with an error here",
                    hint="use smaller counts, or fewer loops (or counts) inside one another")

    def counted(self, pos: ast.Pos, before: int) -> None:
        """Note a statement whose own steps pass the limit; the outermost one is reported."""
        if self.steps - before > registry.LIMITS["effect_steps"].value:
            self.too_long = (pos, self.steps - before)

    def per_player(self, pos: ast.Pos, before: int, visits: int = MOST_PLAYERS) -> None:
        """What was checked since `before` is read once for each player (or card) visited: a step for
        each visit, and its own steps each time — count(…) inside count(…) multiplies like loops do."""
        self.steps = before + visits * (1 + self.steps - before)
        self.counted(pos, before)

    # -- `it` ----------------------------------------------------------------------------
    def it_type(self, pos: ast.Pos) -> str | None:
        if self.chosen and self.chosen[-1][0] == self.afters:
            return CELL                          # the cell of the `choose cell` block we are in
        if self.in_after:
            self.report(R.IT_OR_PREVENT_IN_AFTER, pos,
                        "`it` means nothing inside `after`: rounds later the cell or card may be gone",
                        hint="act on `it` now, or use a kind such as `cure 1 mild` in the `after` block")
            return None
        trig = registry.TRIGGERS.get(self.handler.event) if self.handler and self.handler.form != "on" else None
        if trig is None or trig.binds is None:
            where = f"in {a_word(self.handler.event)} handler" if self.handler and trig else "here"
            self.report(R.IT_WITHOUT_TRIGGER, pos, f"`it` means nothing {where}", hint=_IT_HINT)
            return None
        return CELL if trig.binds == "cell" else CARD

    # -- expressions ----------------------------------------------------------------
    def number(self, e: ast.Expr, what: str) -> str | None:
        t = self.value(e)
        if t not in (NUM, None):
            self.report(R.NEEDS_NUMBER, e.pos, f"{what} needs a number, but this is {self.describe(t)}",
                        hint=self.number_hint(t))
        return t

    def truth(self, e: ast.Expr, what: str) -> None:
        t = self.value(e)
        if t not in (BOOL, None):
            hint = "compare it, such as `money > 0`" if t == NUM else None
            self.report(R.NEEDS_CONDITION, e.pos, f"{what} needs a true/false condition, but this is {self.describe(t)}",
                        hint=hint)

    @staticmethod
    def describe(t: str | None) -> str:
        return {NUM: "a number", BOOL: "a true/false value", TEXT: "a quoted name",
                CELL: "`it`, a cell", CARD: "`it`, a card"}.get(t or "", "something else")

    @staticmethod
    def number_hint(t: str | None) -> str | None:
        if t == BOOL:
            return "a comparison or a predicate gives true/false, and arithmetic cannot use it"
        if t == TEXT:
            return "quoted names go only inside played(…), event(…) or happened(…)"
        return None

    def value(self, e: ast.Expr) -> str | None:
        """The type of an expression, reporting every problem inside it."""
        return self.expr(e)

    def e_Num(self, e: ast.Num) -> str:
        return NUM

    def e_Str(self, e: ast.Str) -> str:
        return TEXT

    def e_It(self, e: ast.It) -> str | None:
        return self.it_type(e.pos)

    def e_Neg(self, e: ast.Neg) -> str:
        self.number(e.operand, "'-'")
        return NUM

    def e_Not(self, e: ast.Not) -> str:
        self.truth(e.operand, "`not`")
        return BOOL

    def e_BoolOp(self, e: ast.BoolOp) -> str:
        self.truth(e.left, f"`{e.op}`")
        self.truth(e.right, f"`{e.op}`")
        return BOOL

    def e_CountOf(self, e: ast.CountOf) -> str:
        if e.near is not None:
            return self.count_near(e)
        if e.what in registry.CELL_TAGS:      # count(sheltered): the subject's cells holding that tag
            self.reads.add("board")
            if e.where is not None:
                self.report(R.UNKNOWN_COUNT, e.where.pos, f"count({e.what}) counts tagged cells and takes no `where`",
                            hint=f"write count({e.what})")
            if not self.subject:
                self.report(R.NO_PLAYER, e.pos, f"count({e.what}) counts on a player's board, but an event has no "
                            "player here", hint="use it inside `each player:` or `player with …:`")
            return NUM
        self.reads.add("cards" if e.what in ("played", "tableau") else "players")
        if e.what not in registry.COUNTABLE:
            msg, _ = unknown_word(e.what, registry.COUNTABLE, "thing to count")
            self.report(R.UNKNOWN_COUNT, e.what_pos, msg,
                        hint="write count(player where …), count(other player where …), count(played where …) or "
                             "count(tableau where …)")
        if e.what in ("other player", "played", "tableau") and not self.subject:
            self.report(R.NO_PLAYER, e.pos, f"count({e.what} …) is about a player, but an event has no player here",
                        hint="use it inside `each player:` or `player with …:`")
        mark = self.steps
        if e.where is not None and e.what in ("played", "tableau"):
            outer, self.card_values = self.card_values, True
            self.truth(e.where, "`where`")
            self.card_values = outer
        elif e.where is not None:
            outer, self.subject = self.subject, True
            self.truth(e.where, "`where`")
            self.subject = outer
        # The players visited; the played cards are not known from the text: taken as one pass, as a
        # `repeat` whose count the text does not fix.
        self.per_player(e.pos, mark, 1 if e.what in ("played", "tableau") else MOST_PLAYERS)
        return NUM

    def count_near(self, e: ast.CountOf) -> str:
        """`count(KIND next to KIND2)` / `count(KIND next to it)`: the subject's residents next to others."""
        self.reads.add("board")
        if e.what not in registry.KINDS:
            msg, hint = unknown_word(e.what, registry.KINDS, "kind of resident")
            self.report(R.UNKNOWN_COUNT, e.what_pos, msg, hint=hint)
        if not self.subject:
            self.report(R.NO_PLAYER, e.pos, "count(… next to …) counts on a player's board, but an event has no player here",
                        hint="use it inside `each player:` or `player with …:`")
        self.near(e.near, e.near_pos)
        return NUM

    def near(self, near: str | None, pos: ast.Pos) -> None:
        """What follows `next to`: a kind of resident, or `it` where `it` is a cell."""
        if near == "it":
            if self.it_type(pos) not in (CELL, None):
                self.report(R.NEXT_TO, pos, "`next to it` needs `it` to be a cell, but here it is a card",
                            hint="`it` is a cell in `when reveal…`, `when death…` and `when cure`")
        elif near is not None and near not in registry.KINDS:
            msg, hint = unknown_word(near, registry.KINDS, "kind of resident")
            self.report(R.NEXT_TO, pos, msg.replace("unknown kind", "`next to`: unknown kind"), hint=hint)

    def e_BinOp(self, e: ast.BinOp) -> str:
        self.number(e.left, f"'{e.op}'")
        right = self.number(e.right, f"'{e.op}'")
        if e.op == "//":
            divisor = self.range(e.right)
            if divisor == (0, 0):
                self.report(R.DIVISION_BY_ZERO, e.right.pos, "dividing by 0", hint="divide by a number that is never 0")
            elif can_be_zero(divisor) and right == NUM:
                text = show(e.right)
                self.report(R.DIVISION_BY_MAYBE_ZERO, e.right.pos,
                            f"dividing by `{text}`, which can be 0: the game stops with an error when it is",
                            hint=f"divide by `max(1, {text})` instead")
        self.range(e)
        return NUM

    def e_Compare(self, e: ast.Compare) -> str:
        self.self_comparison(e)
        if e.op in ("==", "!="):
            lt, rt = self.value(e.left), self.value(e.right)
            if None in (lt, rt) or (lt == rt and lt in (NUM, BOOL)):
                return BOOL
            for side, t in ((e.left, lt), (e.right, rt)):
                if t != NUM:
                    self.report(R.NEEDS_NUMBER, side.pos, f"'{e.op}' compares numbers, but this is {self.describe(t)}",
                                hint=self.number_hint(t))
            return BOOL
        self.number(e.left, f"'{e.op}'")
        self.number(e.right, f"'{e.op}'")
        return BOOL

    def self_comparison(self, e: ast.Compare) -> None:
        left, right = show(e.left), show(e.right)
        if left != right or "…" in left:
            return
        always = "true" if e.op in ("==", "<=", ">=") else "false"
        self.report(R.SELF_COMPARISON, e.pos, f"`{left} {e.op} {right}` compares {left} with itself, so it is always {always}",
                    hint="compare with what the card means, such as another player's value noted with "
                         f"`let mine = {left}` before the player block, or a number")

    def e_Name(self, e: ast.Name) -> str | None:
        meaning = self.res.meaning[e]
        t = self.name_type(e, meaning)
        if meaning.kind in (rs.COUNTER, rs.CARD):
            self.reads.add("counters" if meaning.kind == rs.COUNTER else "cards")
        elif meaning.kind != rs.LOCAL and e.name in _READS_OF:
            self.reads.add(_READS_OF[e.name])
        return t

    def name_type(self, e: ast.Name, meaning: rs.Meaning) -> str | None:
        """The type of a name, by what it means (the resolver's table), reporting a name that means
        nothing, or cannot be read here."""
        kind = meaning.kind
        if kind == rs.LOCAL:
            return self.types.get(meaning.binding) if meaning.binding is not None else None
        if kind == rs.CARD:
            if not self.card_values:
                self.report(R.CARD_VALUE_OUTSIDE_COUNT, e.pos, f"'{e.name}' is a card's {e.name}, read only inside "
                            "`count(played where …)` or `count(tableau where …)`",
                            hint=f"write `count(played where {e.name} == 2)`")
            return NUM
        if kind in (rs.PARAM, rs.COUNTER):
            return NUM
        if e.name == "marks":
            if not getattr(self, "marking", False):
                self.report(R.MARK_MISUSED, e.pos, "`marks` counts the stacks of this event's mark, and this card leaves "
                            "no mark", hint="in an event that writes `mark` in its `on resolve:`, `marks` is how many "
                            "stacks the player carries")
            elif not self.subject:
                self.report(R.NO_PLAYER, e.pos, "'marks' is a player's value, but an event has no player here",
                            hint="read it inside `each player:` or `player with …:`")
            return NUM
        if e.name == "uses":
            if self.kind != "policy":
                self.report(R.USES_OUTSIDE_POLICY, e.pos, "`uses` counts the executions of a policy, and this is not a policy")
            return NUM
        if kind in (rs.TRACK, rs.COUNT) or e.name in ("hand", "revealed", "turn"):
            if not self.subject:
                self.report(R.NO_PLAYER, e.pos, f"'{e.name}' is a player's value, but an event has no player here",
                            hint="read it inside `each player:` or `player with …:`")
            return BOOL if e.name == "revealed" else NUM
        if kind == rs.VALUE:
            return NUM
        self.unknown_name(e)
        return None

    def unknown_name(self, e: ast.Name) -> None:
        if e.name in registry.QUANTITIES:
            self.report(R.UNKNOWN_NAME, e.pos, f"'{e.name}' is a quantity the game computes; an expression cannot read it")
            return
        table: dict[str, object] = {**registry.SETTABLE, **registry.COUNTS, **registry.VALUES}
        for name in (*self.res.reach.get(e, ()), *self.params):
            table[name] = registry.Word(name, "", "")
        msg, _ = unknown_word(e.name, table, "name")
        self.report(R.UNKNOWN_NAME, e.pos, msg, hint="a name is a track, a board count, round, players, hand, uses, "
                                                            "a name made earlier by let, choose or as, or a number the card "
                                                            "names in `params:`")

    def e_Call(self, e: ast.Call) -> str | None:
        if e.func in _READS_OF:
            self.reads.add(_READS_OF[e.func])
        if e.func in registry.AGGREGATES:
            self.reads.add("players")
        if e.func in registry.PREDICATES:
            return self.predicate(e)
        if e.func in registry.AGGREGATES:
            self.arg_count(e, 1, f"{e.func}(score)")
            outer, self.subject = self.subject, True      # read for every player still in
            mark = self.steps
            for a in e.args:
                self.number(a, f"{e.func}()")
            self.per_player(e.pos, mark)
            self.subject = outer
            return NUM
        if e.func == "roll":
            return self.roll(e)
        if e.func in registry.FUNCTIONS:
            want = 1 if e.func == "abs" else 2
            self.arg_count(e, want, f"{e.func}(a)" if want == 1 else f"{e.func}(a, b)")
            for a in e.args:
                self.number(a, f"{e.func}()")
            return NUM
        known = {**registry.PREDICATES, **registry.FUNCTIONS, **registry.AGGREGATES}
        msg, _ = unknown_word(e.func, known, "function")
        self.report(R.UNKNOWN_FUNCTION, e.pos, msg, hint="functions: " + ", ".join(known))
        for a in e.args:
            self.value(a)
        return None

    def roll(self, e: ast.Call) -> str:
        """`roll(N)`, `roll(N, rerolls K)`: a die rolled by a running effect, its sides and rerolls within limits."""
        if self.handler is None:
            self.report(R.ROLL_OUTSIDE_EFFECT, e.pos, "a die is rolled only in a handler's statements: a declaration "
                        "or a condition is read again whenever the game needs it, and would roll again each time",
                        hint="roll in a handler (`on play:`, `when …:`), and change the track there")
        if e.rerolls and not self.subject:
            self.report(R.NO_PLAYER, e.pos, "roll(…, rerolls K) lets a player roll again, but an event has no player "
                        "here", hint="use it inside `each player:` or `player with …:`")
        want = 2 if e.rerolls else 1
        if not self.arg_count(e, want, "roll(6), or roll(6, rerolls 1) to let the player roll again"):
            for a in e.args:
                self.value(a)
            return NUM
        self.number(e.args[0], "roll()")
        self.within(e.args[0], 1, registry.MAX_DIE, "the sides of a die", "roll({})")
        if e.rerolls:
            self.number(e.args[1], "rerolls")
            self.within(e.args[1], 0, registry.MAX_REROLLS, "the rerolls of a die", "rerolls {}")
        return NUM

    def within(self, e: ast.Expr, lo: int, hi: int, what: str, form: str, rule: R = R.ROLL_LIMIT) -> None:
        """RK255 (or `rule`): the values the text lets e take must lie within lo..hi."""
        a, b = self.range(e)
        text = show(e)
        if a is not None and a == b and not lo <= a <= hi:
            self.report(rule, e.pos, f"`{form.format(text)}`: {what} must be {lo} to {hi}",
                        hint=f"write a number from {lo} to {hi}")
        elif b is None or b > hi:
            top = "has no ceiling" if b is None else f"can come to {big(b)}"
            self.report(rule, e.pos, f"`{form.format(text)}`: {what} must be {lo} to {hi}, but {text} {top} "
                        "here: the game stops with an error when it passes",
                        hint=f"write `{form.format(f'min({text}, {hi})')}`, or a number")

    def arg_count(self, e: ast.Call, want: int, form: str) -> bool:
        if len(e.args) == want:
            return True
        self.report(R.WRONG_ARGUMENTS, e.pos, f"{e.func}() takes {want} value{'s' if want > 1 else ''}, got {len(e.args)}",
                    hint=f"write {form}")
        return False

    def predicate(self, e: ast.Call) -> str:
        pred = registry.PREDICATES[e.func]
        if e.func == "caused_by":
            return self.caused_by(e)
        if e.func in ("played", "unlocked", "advisor", "tableau", "switched_off") and not self.subject:
            self.report(R.NO_PLAYER, e.pos, f"{e.func}() asks about a player, but an event has no player here",
                        hint="use it inside `each player:` or `player with …:`")
        form = f'{e.func}(2)' if pred.arg == "number" else f'{e.func}("name")'
        if not self.arg_count(e, 1, form):
            for a in e.args:
                self.value(a)
            return BOOL
        arg = e.args[0]
        if pred.arg == "number":
            self.number(arg, f"{e.func}()")
            self.stage_number(arg, "unlocked({})")
        else:
            self.card_ref(e, arg, _REF_KIND[pred.arg])
        return BOOL

    def caused_by(self, e: ast.Call) -> str:
        """`caused_by("卡名")` / `caused_by(event)` (5.37): in a trigger's handler, a card or a kind of cause."""
        h = self.handler
        if h is None or h.form == "on" or h.event not in registry.TRIGGERS:
            self.report(R.CAUSE, e.pos, "caused_by() asks what made a trigger's moment happen, and this is no trigger's "
                        "handler", hint="use it under `when …`, `once when …` or `react …` (a trigger such as `cure`)")
        elif self.in_after:
            self.report(R.CAUSE, e.pos, "caused_by() inside `after` comes rounds later, when the moment is over",
                        hint="note it in the handler: `let by_event = caused_by(event)`")
        if not self.arg_count(e, 1, "caused_by(event)"):
            return BOOL
        arg = e.args[0]
        if isinstance(arg, ast.Name):
            if arg.name not in registry.CAUSES:
                msg, _ = unknown_word(arg.name, registry.CAUSES, "cause")
                self.report(R.CAUSE, arg.pos, msg, hint="causes: " + ", ".join(registry.CAUSES) +
                            '; or a card\'s name in quotes: caused_by("卡名")')
            return BOOL
        if not isinstance(arg, ast.Str):
            self.report(R.CAUSE, arg.pos, "caused_by() takes a cause (event, combo, mine, others, card) or a card's "
                        "name in quotes", hint='write caused_by(event) or caused_by("卡名")')
            self.value(arg)
            return BOOL
        if self.refs is None or any(self.refs(k, arg.value) for k in ("policy", "advisor", "event", "combo")):
            return BOOL
        names = sorted({n for k in ("policy", "advisor", "event", "combo") for n in self.names.get(k, ())})
        guess = nearest(arg.value, names)
        msg = f"there is no card '{arg.value}'" + (f" — did you mean '{guess}'?" if guess else "")
        self.report(R.UNKNOWN_CARD, arg.pos, msg, hint="write the id or the name of a card of the content")
        return BOOL

    def stage_number(self, e: ast.Expr, form: str) -> None:
        k = self.const(e)
        if k is not None and not 1 <= k <= 3:
            self.report(R.NO_SUCH_STAGE, e.pos, f"`{form.format(k)}`: there are only stages 1, 2 and 3")

    def card_ref(self, e: ast.Call, arg: ast.Expr, kind: str) -> None:
        if not isinstance(arg, ast.Str):
            shown = arg.name if isinstance(arg, ast.Name) else "name"
            self.report(R.WRONG_ARGUMENTS, arg.pos, f"{e.func}() takes {_KIND_ARTICLE[kind]}'s name in quotes",
                        hint=f'write {e.func}("{shown}")')
            return
        if self.refs is None or self.refs(kind, arg.value):
            return
        for other in ("policy", "event", "advisor", "combo"):
            if other != kind and self.refs(other, arg.value):
                self.report(R.UNKNOWN_CARD, arg.pos, f"{e.func}() takes {_KIND_ARTICLE[kind]}, but '{arg.value}' is "
                                                     f"{_KIND_ARTICLE[other]}")
                return
        msg = f"there is no {kind} '{arg.value}'"
        broken = [*self.unreadable.get(kind, ()), *self.unreadable.get("", ())]
        if broken:
            files = ", ".join(sorted(broken))
            self.report(R.UNKNOWN_CARD, arg.pos, f"{msg}: this follows from {files}, which cannot be read",
                        hint="fix the error in that file first; its cards are unknown until then")
            return
        guess = nearest(arg.value, sorted(self.names.get(kind, ())))
        if guess:
            msg += f" — did you mean '{guess}'?"
        self.report(R.UNKNOWN_CARD, arg.pos, msg, hint=f"write the id or the name of {_KIND_ARTICLE[kind]} of the content")


