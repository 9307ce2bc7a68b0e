"""Checked program: names, kinds, subjects, scopes and types of an effect, every problem in one pass."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, replace

from rulekit import registry
from rulekit.language import ast
from rulekit.language.diagnostics import Diagnostic, nearest
from rulekit.language.parser import Parsed
from rulekit.language.visitor import Visitor

RefExists = Callable[[str, str], bool]

# Every diagnostic code of rulekit: code -> (severity, short title). The loader, the parser
# and this checker all report with these codes; the linter's docs are generated from here.
CODES: dict[str, tuple[str, str]] = {
    # files and YAML
    "RK001": ("error", "YAML syntax error"),
    "RK002": ("error", "file is not UTF-8 text"),
    "RK003": ("error", "duplicate key in a mapping"),
    "RK004": ("warning", "empty file"),
    "RK005": ("error", "a file or folder cannot be read"),
    "RK006": ("error", "a card file holds neither a card nor a list of cards"),
    "RK007": ("warning", "YAML file outside the known folders (ignored)"),
    "RK008": ("error", "no such file or folder"),
    "RK009": ("error", "not a content folder: rules.yaml or the cards are missing"),
    # card metadata and rules.yaml (JSON Schemas)
    "RK010": ("error", "a field has a value of the wrong type or out of range"),
    "RK011": ("error", "unknown field"),
    "RK012": ("error", "required field missing"),
    "RK013": ("error", "the kind of a card cannot be told, or contradicts its folder"),
    "RK014": ("warning", "a tbd card has an effect, which is ignored"),
    "RK015": ("info", "a card leaves a field to its default"),
    "RK016": ("error", "a link (symlink) that leaves the content folder, loops or leads nowhere"),
    "RK017": ("error", "a file larger than rulekit reads, or made so by its aliases"),
    "RK018": ("error", "an invisible or control character in a card's name or text"),
    # effect syntax (parser)
    "RK101": ("error", "effect syntax error"),
    "RK102": ("error", "effect indentation error"),
    "RK103": ("error", "effect nested or chained too deeply"),
    "RK104": ("error", "a whole number larger than the game can hold"),
    # effect meaning (this checker)
    "RK201": ("error", "unknown track"),
    "RK202": ("error", "unknown verb"),
    "RK203": ("error", "unknown kind of resident"),
    "RK204": ("error", "unknown quantity"),
    "RK205": ("error", "unknown trigger"),
    "RK206": ("error", "unknown handler or phase"),
    "RK207": ("error", "unknown word after `player with`"),
    "RK208": ("error", "unknown shield target"),
    "RK209": ("error", "unknown seal target"),
    "RK210": ("error", "unknown function or predicate"),
    "RK211": ("error", "unknown name in an expression"),
    "RK212": ("error", "statement or value needs a player, and there is none here"),
    "RK213": ("error", "`it` where no trigger gives it a meaning"),
    "RK214": ("error", "`it` of the wrong type for its verb"),
    "RK215": ("error", "`prevent` outside a death or overthrown handler"),
    "RK216": ("error", "`uses` outside a policy"),
    "RK217": ("error", "a verb with a kind it cannot take"),
    "RK218": ("error", "a handler or declaration this card kind cannot have"),
    "RK219": ("warning", "the same handler twice in one card"),
    "RK220": ("error", "stage number not 1, 2 or 3"),
    "RK221": ("error", "`keep` more cards than drawn"),
    "RK222": ("error", "`repeat` count above the limit"),
    "RK223": ("error", "`choose` with an empty range"),
    "RK224": ("error", "reference to a card or event that does not exist"),
    "RK225": ("error", "wrong number or kind of arguments in a call"),
    "RK226": ("error", "true/false value needed"),
    "RK227": ("error", "number needed"),
    "RK228": ("error", "a name defined twice"),
    "RK229": ("error", "a reserved word used as a name"),
    "RK230": ("warning", "a verb on `it` that can never change that cell"),
    "RK231": ("warning", "a card whose effect never runs"),
    "RK232": ("error", "division by zero"),
    "RK233": ("warning", "a computed number beyond the number limit"),
    "RK234": ("warning", "loops or draws that run more steps than one effect may"),
    "RK235": ("warning", "an amount beyond what the game can ever hold"),
    "RK236": ("warning", "dividing by a value that can be 0"),
    "RK237": ("error", "`take` or `give` outside a player block"),
    "RK238": ("error", "`it` or `prevent` inside an `after` block"),
    "RK239": ("error", "unknown word in `count(…)`"),
    "RK240": ("error", "`stage` or `price` outside `count(played where …)`"),
    "RK241": ("error", "unknown spread step after `skip`"),
    "RK242": ("error", "a number kept on a card (`counters:`) used where it cannot be"),
    "RK243": ("error", "something `take` or `give` cannot move, or a misspelt `cards`/`rounds`"),
    "RK244": ("info", "a card the bots cannot value from its text"),
    "RK245": ("error", "a card's parameter (`params:`) changed by its effect"),
    "RK246": ("error", "a card's parameter (`params:`) named like a word the language uses, or like a counter"),
    "RK247": ("warning", "a card's parameter (`params:`) its effect never reads"),
    # whole content folder (loader)
    "RK301": ("error", "duplicate card id"),
    "RK302": ("error", "duplicate card name within a kind"),
    "RK303": ("warning", "a combo that can never fire"),
    "RK304": ("warning", "a stage with fewer cards than players"),
    "RK305": ("info", "proposed cards await the designer's decision"),
    "RK306": ("info", "cards marked tbd"),
    "RK307": ("warning", "too few advisors for the draft"),
    "RK308": ("error", "a card's name is another card's id"),
}

NUM, BOOL, TEXT, CELL, CARD = "number", "true/false", "text", "cell", "card"

# The cell states `it` may be in, per trigger, for "this verb can never act on it".
_TRIGGER_STATES: dict[str, tuple[str, ...]] = {
    "reveal": ("healthy", "mild"),
    "reveal mild": ("mild",),
    "reveal healthy": ("healthy",),
    "death": ("healthy", "mild", "severe"),
}
_IT_WORDS = {CELL: "a cell", CARD: "a card"}
_KIND_PLURAL = {"advisor": "advisors", "policy": "policies", "event": "events", "combo": "combos"}
_KIND_ARTICLE = {"advisor": "an advisor", "policy": "a policy", "event": "an event", "combo": "a combo"}
_KIND_RUNS = {
    "advisor": "advisors run `on setup:` once, or last all game with `when …:`, `on PHASE start:` and declarations",
    "policy": "policies run `on play:` when played, or last with `when …:`, `on PHASE start:` and declarations",
    "event": "events run `on resolve:` when drawn",
    "combo": "combos run `on resolve:` when their `when:` condition holds",
}
_REF_KIND = {"card": "policy", "event": "event"}


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


RESERVED = _reserved()


def _span(a: ast.Pos, b: ast.Pos) -> ast.Pos:
    return ast.Pos(a.line, a.col, b.end_line, b.end_col)


def _zh(table: Mapping[str, object], name: str) -> str:
    zh = getattr(table.get(name), "zh", "")
    return f" ({zh})" if zh else ""


def unknown_word(word: str, table: Mapping[str, object], what: str) -> tuple[str, str | None]:
    """'unknown track 'medicl' — did you mean 'medical' (医疗)?' plus a hint listing the choices."""
    by_zh = [name for name, w in table.items() if getattr(w, "zh", None) == word]
    guess = by_zh[0] if by_zh else nearest(word, sorted(table))
    msg = f"unknown {what} '{word}'"
    if guess:
        msg += f" — did you mean '{guess}'{_zh(table, guess)}?"
    else:
        msg += ": the language has no such word"
    choices = ", ".join(sorted(table))
    return msg, (f"write the English word; known: {choices}" if len(table) <= 16 else None)


Range = tuple[int | None, int | None]      # the values an expression can take; None: no bound known
_ANY: Range = (None, None)
# The range of every name the game provides, on any board.
_NAME_RANGES: dict[str, Range] = {
    **{name: (t.lo, t.hi) for name, t in registry.SETTABLE.items()},
    **{name: (0, None) for name in registry.COUNTS},
    "hand": (0, None), "round": (1, None), "players": (1, 4), "uses": (0, None),
}
MOST_PLAYERS = _NAME_RANGES["players"][1]      # what an aggregate over the players may visit
# No amount in the game is larger than this: the largest bound of any track (money's ceiling).
LARGEST_AMOUNT = max(abs(b) for t in registry.SETTABLE.values() for b in (t.lo, t.hi) if b is not None)


def _in_limit(v: int | None) -> int | None:
    return v if v is not None and abs(v) <= registry.MAX_NUMBER else None


class _Ranges(Visitor, walks=("expressions",)):
    """The range of values of expressions, from numbers, names and bindings; numbers past the
    limit are noted (never computed further, so a chain of products cannot grow without bound)."""

    def __init__(self, names: Mapping[str, Range], overflow: Callable[[ast.Node, int], None] | None = None):
        self.names = names
        self.overflow = overflow

    def of(self, e: ast.Expr) -> Range:
        return self.expr(e)

    def e_Num(self, e: ast.Num) -> Range:
        return e.value, e.value

    def e_Name(self, e: ast.Name) -> Range:
        return self.names.get(e.name, _NAME_RANGES.get(e.name, _ANY))

    def e_Neg(self, e: ast.Neg) -> Range:
        lo, hi = self.of(e.operand)
        return (None if hi is None else -hi), (None if lo is None else -lo)

    def e_Call(self, e: ast.Call) -> Range:
        return self.call(e) if e.func in registry.FUNCTIONS else _ANY

    def unknown(self, e) -> Range:
        """Not a number the text fixes (a truth value, a card, a count of players …): any value."""
        return _ANY

    e_Str = e_It = e_Not = e_Compare = e_BoolOp = e_CountOf = unknown

    def e_BinOp(self, e: ast.BinOp) -> Range:
        (a, b), (c, d) = self.of(e.left), self.of(e.right)
        if a is not None and a == b and c is not None and c == d:
            value = _exact(e.op, a, c)
            if value is not None and abs(value) > registry.MAX_NUMBER:
                if self.overflow is not None:
                    self.overflow(e, value)
                return _ANY
            return value, value
        if e.op == "+":
            return _add(a, c), _add(b, d)
        if e.op == "-":
            return _add(a, None if d is None else -d), _add(b, None if c is None else -c)
        if e.op == "*" and None not in (a, b, c, d):
            products = [x * y for x in (a, b) for y in (c, d)]
            return _in_limit(min(products)), _in_limit(max(products))
        if e.op == "*" and a is not None and c is not None and a >= 0 and c >= 0:
            return a * c, None
        if e.op == "//" and c is not None and c == d and c > 0:
            return (None if a is None else a // c), (None if b is None else b // c)
        return _ANY

    def call(self, e: ast.Call) -> Range:
        args = [self.of(a) for a in e.args]
        if e.func == "abs" and len(args) == 1:
            lo, hi = args[0]
            if lo is not None and lo >= 0:
                return lo, hi
            if hi is not None and hi <= 0:
                return -hi, (None if lo is None else -lo)
            return 0, (None if lo is None or hi is None else max(-lo, hi))
        if len(args) != 2:
            return _ANY
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


def _bound(pick, a: int | None, b: int | None, unbounded: bool) -> int | None:
    """max or min of two bounds, where None is the open end: `unbounded` says the result is open."""
    if unbounded:
        return None
    return pick(x for x in (a, b) if x is not None)


def _hull(ranges: Sequence[Range]) -> Range:
    """The smallest range holding all of these (a value after one of several paths)."""
    los, his = [r[0] for r in ranges], [r[1] for r in ranges]
    return (None if None in los else min(los)), (None if None in his else max(his))


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
    if isinstance(e, ast.Call):
        return f"{e.func}({', '.join(show(a) for a in e.args)})"
    return "…"


def _operand(e: ast.Expr) -> str:
    text = show(e)
    return f"({text})" if isinstance(e, (ast.BinOp, ast.Compare, ast.BoolOp)) else text


@dataclass(frozen=True)
class _Binding:
    kind: str           # let | choose | as
    type: str | None
    pos: ast.Pos
    range: Range = _ANY


# Blocks that run once or not at all: a name they change holds either value after them. A name
# changed in a loop (`repeat`, `each player`, `player with`) is unknown from the loop's first run on.
_MAYBE = (ast.May, ast.MayPay, ast.MayDiscard, ast.ChoosePlayer)


def _changed(stmts: Sequence[ast.Stmt], out: set[str]) -> set[str]:
    """Every name a `NAME += …`, `-=` or `=` inside these statements (nested blocks too) changes."""
    for st in stmts:
        if isinstance(st, ast.TrackChange):
            out.add(st.track)
        for body in ast.bodies(st):
            _changed(body, out)
    return out


@dataclass(frozen=True)
class Checked:
    """What the checker hands on: an effect (or a condition) that passed, with what the checker found.

    `meaning` says what every name and every `NAME += …` resolved to — `local` (let/choose/as),
    `counter` (a number the card keeps), `param` (a number the card names, `params:`: a constant),
    `track`, `count`, `value`, `card` (inside count(played …)) — and `reads` what the text reads of the game: `board`, `tracks`, `hand`,
    `stage`, `cards`, `events`, `round`, `players`, `counters`. The compiler takes nothing else.
    """

    program: ast.Program | None
    condition: ast.Expr | None
    meaning: Mapping[ast.Node, str]
    reads: frozenset[str]
    counters: tuple[str, ...] = ()

    def of(self, node: ast.Node) -> str:
        return self.meaning[node]


# What reading a name or calling a predicate reads of the game (Checked.reads).
_READS_OF = {
    **{name: "tracks" for name in registry.SETTABLE}, **{name: "board" for name in registry.COUNTS},
    "hand": "hand", "revealed": "board", "round": "round", "players": "players", "uses": "cards",
    "played": "cards", "event": "events", "happened": "events", "unlocked": "stage",
}


class _Checker(Visitor, walks=("statements", "expressions", "declarations")):
    """One pass over one program (or one condition); diagnostics collect in self.diags."""

    def __init__(self, kind: str, file: str, refs: RefExists | None,
                 names: Mapping[str, Sequence[str]] | None, assumed: Collection[str] = (),
                 unreadable: Mapping[str, Sequence[str]] | None = None, counters: Collection[str] = (),
                 params: Mapping[str, int] | None = None):
        self.kind = kind
        self.counters = frozenset(counters)      # the numbers this card keeps (`counters:`)
        self.params = dict(params or {})         # the numbers this card names (`params:`): read-only constants
        self.players = 0                         # player blocks we are in (`take`/`give` need one)
        self.in_after = False                    # inside `after N rounds:` (no `it`, no `prevent`)
        self.card_values = False                 # inside `count(played where …)`: `stage`, `price` readable
        self.meaning: dict[ast.Node, str] = {}   # what each name resolved to (Checked.meaning)
        self.reads: set[str] = set()
        self.file = file
        self.refs = refs
        self.names = names or {}
        self.unreadable = unreadable or {}   # card kind ('' for any) -> files that could not be read
        self.assumed = frozenset(assumed)    # names a line that could not be read may have made
        self.diags: list[Diagnostic] = []
        self.scopes: list[dict[str, _Binding]] = []
        self.subject = True
        self.handler: ast.Handler | None = None
        self.overflows: set[ast.Pos] = set()
        self.steps = 0                                   # statements the handler runs, loops counted
        self.too_long: tuple[ast.Pos, int] | None = None     # the outermost statement running too many

    # -- ranges --------------------------------------------------------------------
    def range(self, e: ast.Expr) -> Range:
        """The values e can take here (RK233 where numbers alone compute past the limit)."""
        names = {name: (v, v) for name, v in self.params.items()}
        names.update((name, b.range) for scope in self.scopes for name, b in scope.items())
        return _Ranges(names, self.overflow).of(e)

    def const(self, e: ast.Expr) -> int | None:
        lo, hi = self.range(e)
        return lo if lo is not None and lo == hi else None

    def overflow(self, e: ast.Node, value: int) -> None:
        if e.pos in self.overflows:
            return
        self.overflows.add(e.pos)
        self.report("RK233", e.pos, f"this computes {_big(value)}, more than {registry.MAX_NUMBER:,}, the largest "
                                    "number the game can hold: the game stops with an error when it gets here",
                    hint="use smaller numbers")

    # -- reporting ----------------------------------------------------------------
    def report(self, code: str, pos: ast.Pos, message: str, hint: str | None = None) -> None:
        severity = CODES[code][0]
        self.diags.append(Diagnostic(code, severity, message, self.file, pos.line, pos.col,
                                     pos.end_line, pos.end_col, hint))

    # -- program -------------------------------------------------------------------
    def program(self, program: ast.Program) -> None:
        if self.items(program):
            self.never_runs(program)

    def items(self, program: ast.Program) -> bool:
        if self.kind not in registry.CARD_KINDS:
            self.report("RK218", program.pos, f"unknown card kind '{self.kind}'")
            return False
        seen: dict[tuple, ast.Handler] = {}
        for item in program.items:
            if isinstance(item, ast.Handler):
                self.duplicate_handler(item, seen)
                self.handler_item(item)
            else:
                self.declaration(item)
        return True

    def duplicate_handler(self, h: ast.Handler, seen: dict[tuple, ast.Handler]) -> None:
        key = (h.form, h.event, h.edge)
        first = seen.setdefault(key, h)
        if first is not h:
            self.report("RK219", _span(h.pos, h.event_pos),
                        f"this card already has this handler on line {first.pos.line}",
                        hint="merge the two blocks into one")

    def never_runs(self, program: ast.Program) -> None:
        if self.kind in ("event", "combo"):
            if not any(h.form == "on" and h.event == "resolve" for h in program.handlers):
                self.report("RK231", program.pos, f"{_KIND_ARTICLE[self.kind]} without `on resolve:` never does anything",
                            hint=_KIND_RUNS[self.kind])
        elif not program.items:
            self.report("RK231", program.pos, "this effect has no handler or declaration, so it never does anything",
                        hint=_KIND_RUNS[self.kind])

    # -- handlers ----------------------------------------------------------------
    def handler_item(self, h: ast.Handler) -> None:
        head = _span(h.pos, h.event_pos)
        if h.form == "on":
            self.on_handler(h, head)
        else:
            self.trigger_handler(h, head)
        self.handler = h
        self.subject = self.kind != "event"
        self.steps, self.too_long = 0, None
        self.block(h.body)
        self.effect_steps(head)
        self.handler = None
        self.subject = True

    def effect_steps(self, head: ast.Pos) -> None:
        limit = registry.LIMITS["effect_steps"].value
        if self.steps <= limit:
            return
        pos, steps = self.too_long or (head, self.steps)
        self.report("RK234", pos, f"this runs {_big(steps)} steps or more (statements, one step per card drawn, "
                                  "and one per player a count(…), highest(…) or lowest(…) reads); one effect may "
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

    def on_handler(self, h: ast.Handler, head: ast.Pos) -> None:
        if h.event in registry.ON_HANDLERS:
            if h.edge is not None:
                self.report("RK206", h.edge_pos, f"`on {h.event}` takes no '{h.edge}'", hint=f"write `on {h.event}:`")
            kinds = registry.ON_HANDLERS[h.event]
            if self.kind not in kinds:
                only = " and ".join(_KIND_PLURAL[k] for k in kinds)
                self.report("RK218", head, f"{_KIND_ARTICLE[self.kind]} cannot have `on {h.event}` (only {only} do)",
                            hint=_KIND_RUNS[self.kind])
            return
        if h.event in registry.PHASES:
            self.phase_edge(h, head)
            self.lasting_only(head, f"`on {h.event} {h.edge or 'start'}`")
            return
        if f"{h.event} {h.edge}" == registry.GAME_END.name:
            self.lasting_only(head, "`on game end`")
            return
        table = {**{k: registry.Word(k, "", "") for k in registry.ON_HANDLERS}, **registry.PHASES,
                 "game": registry.GAME_END}
        msg, _ = unknown_word(h.event, table, "handler")
        self.report("RK206", h.event_pos, msg,
                    hint="write `on play`, `on setup`, `on resolve`, `on game end`, or `on PHASE start` / "
                         f"`on PHASE end` with PHASE one of: {' '.join(registry.PHASES)}")

    def phase_edge(self, h: ast.Handler, head: ast.Pos) -> None:
        if h.edge in ("start", "end"):
            return
        if h.edge is None:
            self.report("RK206", head, f"`on {h.event}` needs 'start' or 'end'",
                        hint=f"write `on {h.event} start:` or `on {h.event} end:`")
            return
        guess = nearest(h.edge, ["start", "end"])
        extra = f" — did you mean '{guess}'?" if guess else ""
        self.report("RK206", h.edge_pos, f"unknown phase moment '{h.edge}'{extra}",
                    hint=f"write `on {h.event} start:` or `on {h.event} end:`")

    def lasting_only(self, pos: ast.Pos, what: str) -> None:
        if self.kind not in registry.LASTING_KINDS:
            self.report("RK218", pos, f"{_KIND_ARTICLE[self.kind]} cannot have {what}: only advisors and policies "
                                      "stay in play to use it", hint=_KIND_RUNS[self.kind])

    def trigger_handler(self, h: ast.Handler, head: ast.Pos) -> None:
        words = {"when": "when", "once": "once when", "react": "react"}
        moments = registry.REACT_MOMENTS if h.form == "react" else {}
        if h.event not in registry.TRIGGERS and h.event not in moments:
            msg, hint = unknown_word(h.event, {**registry.TRIGGERS, **moments}, "trigger")
            if h.form != "react" and h.event in registry.REACT_MOMENTS:
                msg = f"`{words[h.form]} {h.event}` is not a trigger: a phase's start and end are handled by `on`"
                hint = f"write `on {h.event}:` (or `react {h.event}:` for a card played from hand at that moment)"
            self.report("RK205", h.event_pos, msg, hint=hint)
        if h.form == "react":
            if self.kind not in registry.REACT_KINDS:
                self.report("RK218", head, f"{_KIND_ARTICLE[self.kind]} cannot have `react`: only policies in hand "
                                           "can be played as a reaction", hint=_KIND_RUNS[self.kind])
            return
        self.lasting_only(head, f"`{words[h.form]} {h.event}`")

    # -- declarations ----------------------------------------------------------------
    def declaration(self, d: ast.Item) -> None:
        self.lasting_only(d.pos, f"`{type(d).__name__.lower()}`")
        self.decl(d)

    def d_Skip(self, d: ast.Skip) -> None:
        if d.step not in registry.SKIPPABLE:
            msg, hint = unknown_word(d.step, registry.SKIPPABLE, "spread step")
            if d.step == "discovery":
                msg = "`skip discovery` is not allowed: without discovery a board could never be fully revealed"
            self.report("RK241", d.step_pos, msg, hint=hint)

    def d_Shield(self, d: ast.Shield) -> None:
        for target, pos in d.targets:
            if target not in registry.SHIELDABLE:
                msg, hint = unknown_word(target, registry.SHIELDABLE, "shield target")
                self.report("RK208", pos, msg, hint=hint)

    def d_Seal(self, d: ast.Seal) -> None:
        if d.target not in registry.SEALABLE:
            msg, hint = unknown_word(d.target, registry.SEALABLE, "seal target")
            self.report("RK209", d.target_pos, msg, hint=hint)

    def d_Modify(self, d: ast.Modify) -> None:
        if d.quantity not in registry.QUANTITIES:
            msg, _ = unknown_word(d.quantity, registry.QUANTITIES, "quantity")
            hint = "quantities: " + ", ".join(registry.QUANTITIES)
            if d.quantity in registry.SETTABLE:
                hint = f"'{d.quantity}' is a track: change it with `{d.quantity} += …` inside a handler"
            self.report("RK204", d.quantity_pos, msg, hint=hint)
        self.scopes = [{}]
        self.steps, self.too_long = 0, None
        self.number(d.expr, "the amount of `modify`")
        self.effect_steps(d.pos)
        self.scopes = []

    # -- statements ----------------------------------------------------------------
    def block(self, body: Sequence[ast.Stmt]) -> None:
        self.scopes.append({})
        for stmt in body:
            self.stmt(stmt)
        self.scopes.pop()

    def stmt(self, s: ast.Stmt) -> None:
        """A statement; the values of names it changes in its blocks follow the paths it can take."""
        self.steps += 1
        changed = self.changed_names(ast.bodies(s))
        if not changed or isinstance(s, (ast.If, ast.Me)):
            super().stmt(s)             # an `if` joins its branches itself; `me:` runs its block once
            return
        before = self.values_of(changed)
        if isinstance(s, ast.After):
            super().stmt(s)             # the block runs rounds later, on copies of the values of now
            self.set_values(before)
        elif isinstance(s, _MAYBE):
            super().stmt(s)
            after = self.values_of(changed)
            self.set_values({n: _hull((before[n], after[n])) for n in changed})
        else:                           # a loop (or any other block): it may run again and again
            self.set_values(dict.fromkeys(changed, _ANY))
            super().stmt(s)
            self.set_values(dict.fromkeys(changed, _ANY))

    # -- what names hold ---------------------------------------------------------------
    def changed_names(self, bodies: Sequence[Sequence[ast.Stmt]]) -> list[str]:
        """The names in reach that these blocks change, in a fixed order."""
        found: set[str] = set()
        for body in bodies:
            _changed(body, found)
        return sorted(n for n in found if self.binding_scope(n) is not None)

    def binding_scope(self, name: str) -> dict[str, _Binding] | None:
        for scope in reversed(self.scopes):
            if name in scope:
                return scope
        return None

    def values_of(self, names: Sequence[str]) -> dict[str, Range]:
        return {n: scope[n].range for n in names if (scope := self.binding_scope(n)) is not None}

    def set_values(self, values: Mapping[str, Range]) -> None:
        for name, r in values.items():
            scope = self.binding_scope(name)
            if scope is not None:
                scope[name] = replace(scope[name], range=r)

    def needs_subject(self, s: ast.Node, what: str) -> None:
        if not self.subject:
            self.report("RK212", s.pos, f"{what} needs a player, but an event has no player here",
                        hint="put it inside `each player:` or `player with …:`")

    def s_TrackChange(self, s: ast.TrackChange) -> None:
        binding = self.lookup(s.track)
        if binding is not None:
            self.meaning[s] = "local"           # a name of the effect's own: `helped += 1`
            if binding.type not in (NUM, None):
                self.report("RK227", s.track_pos, f"'{s.track}' holds {self.describe(binding.type)}, not a number")
            self.number(s.expr, f"the value of `{s.track} {s.op}`")
            new = s.expr if s.op == "=" else ast.BinOp(s.pos, s.op[0], ast.Name(s.track_pos, s.track), s.expr)
            self.set_values({s.track: self.range(new) if binding.type == NUM else _ANY})
            return
        if s.track in self.params:
            self.meaning[s] = "param"
            self.report("RK245", s.track_pos, f"'{s.track}' is a parameter of this card (`params:`): the effect "
                                              "reads it, but cannot change it",
                        hint=f"copy it into a name of the effect's own (`let n = {s.track}`), or make it a number "
                             f"the card keeps and changes: `counters: {{{s.track}: {self.params[s.track]}}}`")
            self.number(s.expr, f"the value of `{s.track} {s.op}`")
            return
        if s.track in self.counters and s.track not in registry.SETTABLE:
            self.meaning[s] = "counter"
            self.number(s.expr, f"the value of `{s.track} {s.op}`")
            return                              # a number the card keeps: `uses_left -= 1`
        self.meaning[s] = "track"
        self.track_name(s.track, s.track_pos)
        self.needs_subject(s, f"`{s.track} {s.op} …`")
        self.number(s.expr, f"the value of `{s.track} {s.op}`")
        self.track_amount(s)

    def track_amount(self, s: ast.TrackChange) -> None:
        """RK235: a change larger than the whole track (going below policy's floor overthrows, so it counts)."""
        track = registry.SETTABLE.get(s.track)
        v = self.const(s.expr)
        if track is None or v is None or track.lo is None or track.hi is None:
            return
        lo, hi = track.lo, track.hi
        if s.op == "=":
            beyond = not lo <= v <= hi and not (s.track == "policy" and v < lo)
        else:
            down = (s.op == "-=") == (v > 0)
            beyond = abs(v) > hi - lo and not (s.track == "policy" and down)
        if beyond:
            self.report("RK235", s.expr.pos, f"{s.track} only goes from {lo:,} to {hi:,}, so `{s.track} {s.op} {v:,}` "
                                             f"cannot take effect as written",
                        hint=f"write the change the card means, within {lo:,} to {hi:,}")

    def track_name(self, track: str, pos: ast.Pos) -> None:
        if track in registry.SETTABLE:
            return
        hint = None
        binding = self.lookup(track)
        if binding:
            msg = f"'{track}' is a name made by `{binding.kind}`; only tracks can be changed"
            hint = "make a new name with `let`"
        elif track in registry.COUNTS:
            msg = f"'{track}' is a board count, not a track"
            hint = "change the board with a verb, such as `cure 1 mild` or `infect 1 healthy`"
        elif track in registry.QUANTITIES:
            msg = f"'{track}' is a quantity, not a track"
            hint = f"write a declaration: `modify {track} by …`"
        else:
            msg, hint = unknown_word(track, registry.SETTABLE, "track")
            if "did you mean" not in msg:
                hint = (hint or "") + ("; " if hint else "") + \
                    f"a number the card keeps needs `counters: {{{track}: 0}}` beside `effect:`"
        self.report("RK201", pos, msg, hint=hint)

    def s_Let(self, s: ast.Let) -> None:
        t = self.value(s.expr)
        self.define(s.name, "let", t, s.name_pos, self.range(s.expr) if t == NUM else _ANY)

    def s_If(self, s: ast.If) -> None:
        before, longest, conditions = self.steps, 0, 0
        changed = self.changed_names(ast.bodies(s))
        start = self.values_of(changed)
        ends = [] if s.orelse is not None else [start]      # without `else`, no branch may run
        for cond, body in s.branches:
            mark = self.steps
            self.truth(cond, "`if`")
            conditions += self.steps - mark
            self.steps = before
            self.set_values(start)
            self.block(body)
            ends.append(self.values_of(changed))
            longest = max(longest, self.steps - before)
        if s.orelse is not None:
            self.steps = before
            self.set_values(start)
            self.block(s.orelse)
            ends.append(self.values_of(changed))
            longest = max(longest, self.steps - before)
        self.steps = before + conditions + longest      # the conditions, and one branch
        self.set_values({n: _hull([end[n] for end in ends]) for n in changed})

    def s_EachPlayer(self, s: ast.EachPlayer) -> None:
        if s.other and not self.subject:
            self.report("RK212", s.pos, "`each other player` needs a player to be 'other' than, and an event has none here",
                        hint="write `each player:`")
        outer, self.subject = self.subject, True
        if s.where is not None:
            self.truth(s.where, "`where`")
        self.player_block(s.body)
        self.subject = outer

    def player_block(self, body) -> None:
        self.players += 1
        self.block(body)
        self.players -= 1

    def s_Me(self, s: ast.Me) -> None:
        if self.kind == "event":
            self.report("RK212", s.pos, "`me:` means the card's owner, and an event has none",
                        hint="an event reaches players through `each player:` or `player with …:`")
        outer, self.subject = self.subject, True
        self.player_block(s.body)
        self.subject = outer

    def s_ChoosePlayer(self, s: ast.ChoosePlayer) -> None:
        self.needs_subject(s, "`choose player`")
        outer, self.subject = self.subject, True
        mark = self.steps
        if s.where is not None:
            self.truth(s.where, "`where`")
        self.per_player(s.pos, mark)
        self.player_block(s.body)
        self.subject = outer

    def s_Transfer(self, s: ast.Transfer) -> None:
        if not self.players:
            self.report("RK237", s.verb_pos, f"`{s.direction}` moves things between two players, and here there is "
                                             "only one", hint="put it inside `choose other player:`, `each other "
                                                              "player:` or `player with …:`")
        if s.what not in registry.SETTABLE and s.what not in registry.HAND_WORDS:
            table = {**registry.SETTABLE, "cards": registry.Word("cards", "手牌", "hand cards")}
            msg, hint = unknown_word(s.what, table, f"thing to {s.direction}")
            self.report("RK243", s.what_pos, msg, hint="a track, money, or cards")
        if s.amount.mode in ("any", "up_to"):
            self.report("RK243", s.amount.pos, f"`{s.direction}` already moves up to its amount",
                        hint=f"write `{s.direction} 2 {s.what}` or `{s.direction} all {s.what}`")
        if s.amount.expr is not None:
            self.number(s.amount.expr, f"the amount of `{s.direction}`")
        if s.as_name is not None:
            self.define(s.as_name, "as", NUM, s.as_pos, (0, None))

    def s_Discard(self, s: ast.Discard) -> None:
        self.needs_subject(s, "`discard`")
        if s.amount.expr is not None:
            self.number(s.amount.expr, "the number of cards to discard")
        if s.as_name is not None:
            self.define(s.as_name, "as", NUM, s.as_pos, (0, None))

    def s_MayDiscard(self, s: ast.MayDiscard) -> None:
        if s.verb != "discard":
            msg, _ = unknown_word(s.verb, {"discard": registry.STATEMENTS["discard"]}, "cost after `may`")
            self.report("RK202", s.verb_pos, msg, hint="write `may pay N:` or `may discard N cards:`")
        elif s.what not in registry.HAND_WORDS:
            self.report("RK243", s.what_pos, f"`may discard` takes cards, not '{s.what}'",
                        hint="write `may discard 2 cards:`")
        self.needs_subject(s, "`may discard`")
        self.number(s.amount, "the number of cards to discard")
        self.block(s.body)

    def s_After(self, s: ast.After) -> None:
        self.needs_subject(s, "`after`")
        if s.unit not in ("rounds", "round"):
            self.report("RK243", s.unit_pos, f"`after {show(s.count)} {s.unit}`: the time is counted in rounds",
                        hint=f"write `after {show(s.count)} rounds:`")
        self.number(s.count, "`after`")
        n = self.const(s.count)
        if n is not None and n < 1:
            self.report("RK223", s.count.pos, f"`after {n} rounds` never comes: the block runs at the start of a "
                                              "later round", hint="write `after 1 rounds:` or more")
        outer, self.in_after = self.in_after, True
        self.block(s.body)
        self.in_after = outer

    def s_PlayerWith(self, s: ast.PlayerWith) -> None:
        if s.which not in registry.SUPERLATIVES:
            guess = nearest(s.which, sorted(registry.SUPERLATIVES))
            extra = f" — did you mean '{guess}'{_zh(registry.SUPERLATIVES, guess)}?" if guess else ""
            self.report("RK207", s.which_pos, f"unknown word '{s.which}' after `player with`{extra}",
                        hint="write `player with highest …`, `lowest`, `most` or `fewest`")
        outer, self.subject = self.subject, True
        mark = self.steps
        self.number(s.expr, f"`player with {s.which}`")
        self.per_player(s.pos, mark)
        self.player_block(s.body)
        self.subject = outer

    def s_Repeat(self, s: ast.Repeat) -> None:
        self.number(s.count, "`repeat`")
        n = self.const(s.count)
        if n is not None and n > registry.MAX_REPEAT:
            self.report("RK222", s.count.pos, f"`repeat {n:,}` is more than the limit of {registry.MAX_REPEAT}",
                        hint="a card repeating this often would stall the game; use a smaller number")
        before = self.steps
        self.block(s.body)
        # A count known from the text multiplies the block; any other count is taken as once.
        times = min(n, registry.MAX_REPEAT) if n is not None and n > 0 else 1
        self.steps = before + (self.steps - before) * times
        self.counted(s.pos, before - 1)

    def s_Choose(self, s: ast.Choose) -> None:
        self.needs_subject(s, f"`choose {s.name}`")
        self.number(s.lo, "the start of `choose`")
        self.number(s.hi, "the end of `choose`")
        lo, hi = self.const(s.lo), self.const(s.hi)
        if lo is not None and hi is not None and lo > hi:
            self.report("RK223", _span(s.lo.pos, s.hi.pos), f"`choose {s.name} from {lo} to {hi}` leaves nothing to choose",
                        hint="the first number must not be larger than the second")
        for end in (s.lo, s.hi):
            v = self.const(end)
            if v is not None and abs(v) > LARGEST_AMOUNT:
                self.report("RK235", end.pos, f"`choose {s.name}` reaches {v:,}, but nothing in the game goes beyond "
                                              f"{LARGEST_AMOUNT:,} (money's ceiling)",
                            hint="choose within what the card needs, such as `from 0 to money`")
        self.define(s.name, "choose", NUM, s.name_pos, (self.range(s.lo)[0], self.range(s.hi)[1]))

    def payable(self, amount: ast.Expr, what: str) -> None:
        v = self.const(amount)
        if v is not None and v > registry.MONEY.hi:
            self.report("RK235", amount.pos, f"{what} {v:,}: money never goes above {registry.MONEY.hi:,}, "
                                             "so this can never be paid in full",
                        hint=f"use an amount of at most {registry.MONEY.hi:,}")

    def s_May(self, s: ast.May) -> None:
        self.needs_subject(s, "`may`")
        self.block(s.body)

    def s_MayPay(self, s: ast.MayPay) -> None:
        self.needs_subject(s, "`may pay`")
        self.number(s.amount, "`may pay`")
        self.payable(s.amount, "`may pay`")
        self.block(s.body)

    def s_Spend(self, s: ast.Spend) -> None:
        self.needs_subject(s, "`spend`")
        self.number(s.amount, "`spend`")
        self.payable(s.amount, "`spend`")

    def s_Pay(self, s: ast.Pay) -> None:
        self.needs_subject(s, "`pay`")
        self.number(s.amount, "`pay`")
        self.payable(s.amount, "`pay`")
        if s.as_name is not None:
            self.define(s.as_name, "as", NUM, s.as_pos, (0, self.range(s.amount)[1]))

    def s_VerbStmt(self, s: ast.VerbStmt) -> None:
        self.needs_subject(s, f"`{s.verb}`")
        if s.amount.expr is not None:
            self.number(s.amount.expr, f"the amount of `{s.verb}`")
        if s.verb in registry.VERBS:
            self.board_kind(s)
        elif s.verb in registry.TILE_VERBS:
            if s.kind != "tiles":
                self.report("RK217", s.kind_pos, f"`{s.verb}` works on tiles, not '{s.kind}'",
                            hint=f"write `{s.verb} N tiles`")
            if s.verb == "arrange" and s.amount.mode != "n":
                self.report("RK217", s.amount.pos, "`arrange` needs a number of tiles",
                            hint="write `arrange N tiles`, e.g. `arrange 10 tiles`")
        elif s.verb == "discard":
            self.report("RK217", s.kind_pos, f"`discard` takes cards from the hand, not '{s.kind}'",
                        hint="write `discard 1 cards`, or `discard it` for the card of an `unsold` trigger")
        else:
            self.unknown_verb(s.verb, s.verb_pos)
        if s.as_name is not None:
            self.define(s.as_name, "as", NUM, s.as_pos, (0, None))

    def board_kind(self, s: ast.VerbStmt) -> None:
        verb = registry.VERBS[s.verb]
        if s.kind in verb.kinds:
            return
        takes = ", ".join(verb.kinds)
        if s.kind == "tiles":
            self.report("RK217", s.kind_pos, f"`{s.verb}` works on residents, not tiles",
                        hint=f"`{s.verb}` takes: {takes}; to reveal tiles write `reveal N tiles`")
        elif s.kind in registry.KINDS:
            self.report("RK217", s.kind_pos, f"`{s.verb}` cannot take '{s.kind}': {s.verb} is {verb.doc}",
                        hint=f"`{s.verb}` takes: {takes}")
        else:
            msg, hint = unknown_word(s.kind, registry.KINDS, "kind of resident")
            self.report("RK203", s.kind_pos, msg, hint=hint)

    def unknown_verb(self, verb: str, pos: ast.Pos) -> None:
        table = {**registry.VERBS, **registry.TILE_VERBS, **registry.IT_ONLY_VERBS, **registry.TRANSFERS}
        msg, hint = unknown_word(verb, table, "verb")
        self.report("RK202", pos, msg, hint=hint)

    def s_VerbIt(self, s: ast.VerbIt) -> None:
        self.needs_subject(s, f"`{s.verb} it`")
        if s.verb not in registry.IT_VERBS:
            if s.verb in registry.TILE_VERBS:
                self.report("RK217", s.verb_pos, f"`{s.verb}` takes a number of tiles, not `it`",
                            hint=f"write `{s.verb} N tiles`")
            elif s.verb in registry.VERBS:
                self.report("RK217", s.verb_pos, f"`{s.verb}` takes an amount and a kind of resident, not `it`",
                            hint=f"write `{s.verb} 1 mild`: the subject picks which resident and where it goes")
            else:
                self.unknown_verb(s.verb, s.verb_pos)
            return
        it_type = self.it_type(s.pos)
        if it_type is None:
            return
        takes = registry.IT_VERBS[s.verb]
        if it_type not in takes:
            trig = self.handler.event if self.handler else ""
            self.report("RK214", s.pos,
                        f"`{s.verb}` takes {_IT_WORDS[takes[0]]}, but `it` in {_a(trig)} handler is {_IT_WORDS[it_type]}")
            return
        self.it_never_changes(s)

    def it_never_changes(self, s: ast.VerbIt) -> None:
        states = _TRIGGER_STATES.get(self.handler.event if self.handler else "")
        verb = registry.VERBS.get(s.verb)
        if not states or verb is None:
            return
        covers = {st for k in verb.kinds for st in registry.KIND_STATES[k]}
        if not covers & set(states):
            self.report("RK230", s.pos, f"`{s.verb} it` never does anything here: `it` is a {'/'.join(states)} cell, "
                                        f"and {s.verb} is {verb.doc}")

    def it_type(self, pos: ast.Pos) -> str | None:
        if self.in_after:
            self.report("RK238", pos, "`it` means nothing inside `after`: rounds later the cell or card may be gone",
                        hint="act on `it` now, or use a kind such as `cure 1 mild` in the `after` block")
            return None
        trig = registry.TRIGGERS.get(self.handler.event) if self.handler and self.handler.form != "on" else None
        if trig is None or trig.binds is None:
            where = f"in {_a(self.handler.event)} handler" if self.handler and trig else "here"
            self.report("RK213", pos, f"`it` means nothing {where}",
                        hint="`it` is the cell of a reveal or death trigger, or the card of an unsold trigger")
            return None
        return CELL if trig.binds == "cell" else CARD

    def s_Draw(self, s: ast.Draw) -> None:
        self.needs_subject(s, "`draw`")
        self.number(s.count, "the number of cards to draw")
        self.number(s.stage, "the stage to draw from")
        self.stage_number(s.stage, "draw … from stage {}")
        n = self.const(s.count)
        if n is not None and n > 0:
            self.steps += n               # a step for each card drawn
            self.counted(s.pos, self.steps - n - 1)
        if s.keep is None:
            return
        self.number(s.keep, "`keep`")
        keep = self.const(s.keep)
        if n is not None and keep is not None and keep > n:
            self.report("RK221", s.keep.pos, f"`keep {keep}` is more than the {n} card{'s' if n != 1 else ''} drawn",
                        hint=f"keep at most {n}")

    def stage_number(self, e: ast.Expr, form: str) -> None:
        k = self.const(e)
        if k is not None and not 1 <= k <= 3:
            self.report("RK220", e.pos, f"`{form.format(k)}`: there are only stages 1, 2 and 3")

    def s_Unlock(self, s: ast.Unlock) -> None:
        self.needs_subject(s, "`unlock`")
        self.number(s.stage, "`unlock stage`")
        self.stage_number(s.stage, "unlock stage {}")

    def s_Prevent(self, s: ast.Prevent) -> None:
        if self.in_after:
            self.report("RK238", s.pos, "`prevent` inside `after` comes rounds too late: what it would cancel has "
                                        "already happened", hint="put `prevent` directly in the handler")
            return
        h = self.handler
        if h is not None and h.form != "on" and h.event not in registry.TRIGGERS:
            return          # the unknown trigger is reported already
        trig = registry.TRIGGERS.get(h.event) if h and h.form != "on" else None
        if trig is None or not trig.preventable:
            self.report("RK215", s.pos, "`prevent` only works in a `death`, `overthrown` or `event` handler",
                        hint="write it under `when death:`, `once when overthrown:` or `when event:`")

    # -- names ----------------------------------------------------------------------
    def lookup(self, name: str) -> _Binding | None:
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        if name in self.assumed:
            return _Binding("let", None, ast.NOPOS)
        return None

    def define(self, name: str, kind: str, t: str | None, pos: ast.Pos, values: Range = _ANY) -> None:
        if name in RESERVED:
            self.report("RK229", pos, f"'{name}' cannot be a name: it is {RESERVED[name]}",
                        hint="choose another name, such as 'n' or 'paid'")
            return
        if name in self.counters:
            self.report("RK228", pos, f"'{name}' is already a number this card keeps (`counters:`)",
                        hint="change it with `" + name + " += …`, or use another name")
            return
        if name in self.params:
            self.report("RK228", pos, f"'{name}' is already a parameter of this card (`params:`)",
                        hint=f"read `{name}` as it is, or use another name")
            return
        first = self.lookup(name)
        if first is not None and first.pos != ast.NOPOS:
            self.report("RK228", pos, f"'{name}' is already defined by `{first.kind}` on line {first.pos.line}",
                        hint="use another name")
            return
        if self.scopes:
            self.scopes[-1][name] = _Binding(kind, t, pos, values)

    # -- expressions ----------------------------------------------------------------
    def number(self, e: ast.Expr, what: str) -> str | None:
        t = self.value(e)
        if t not in (NUM, None):
            self.report("RK227", e.pos, f"{what} needs a number, but this is {self.describe(t)}",
                        hint=self.number_hint(t))
        return t

    def truth(self, e: ast.Expr, what: str) -> None:
        t = self.value(e)
        if t not in (BOOL, None):
            hint = "compare it, such as `money > 0`" if t == NUM else None
            self.report("RK226", e.pos, f"{what} needs a true/false condition, but this is {self.describe(t)}",
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
        self.reads.add("cards" if e.what == "played" else "players")
        if e.what not in registry.COUNTABLE:
            msg, hint = unknown_word(e.what, registry.COUNTABLE, "thing to count")
            self.report("RK239", e.what_pos, msg, hint="write count(player where …), count(other player where …) "
                                                      "or count(played where …)")
        if e.what in ("other player", "played") and not self.subject:
            self.report("RK212", e.pos, f"count({e.what} …) is about a player, but an event has no player here",
                        hint="use it inside `each player:` or `player with …:`")
        mark = self.steps
        if e.where is not None and e.what == "played":
            outer, self.card_values = self.card_values, True
            self.truth(e.where, "`where`")
            self.card_values = outer
        elif e.where is not None:
            outer, self.subject = self.subject, True
            self.truth(e.where, "`where`")
            self.subject = outer
        # The players visited; the played cards are not known from the text: taken as one pass, as a
        # `repeat` whose count the text does not fix.
        self.per_player(e.pos, mark, 1 if e.what == "played" else MOST_PLAYERS)
        return NUM

    def e_BinOp(self, e: ast.BinOp) -> str:
        self.number(e.left, f"'{e.op}'")
        right = self.number(e.right, f"'{e.op}'")
        if e.op == "//":
            divisor = self.range(e.right)
            if divisor == (0, 0):
                self.report("RK232", e.right.pos, "dividing by 0", hint="divide by a number that is never 0")
            elif can_be_zero(divisor) and right == NUM:
                text = show(e.right)
                self.report("RK236", e.right.pos, f"dividing by `{text}`, which can be 0: the game stops with an error "
                                                  "when it is", hint=f"divide by `max(1, {text})` instead")
        self.range(e)
        return NUM

    def e_Compare(self, e: ast.Compare) -> str:
        if e.op in ("==", "!="):
            lt, rt = self.value(e.left), self.value(e.right)
            if None in (lt, rt) or (lt == rt and lt in (NUM, BOOL)):
                return BOOL
            for side, t in ((e.left, lt), (e.right, rt)):
                if t != NUM:
                    self.report("RK227", side.pos, f"'{e.op}' compares numbers, but this is {self.describe(t)}",
                                hint=self.number_hint(t))
            return BOOL
        self.number(e.left, f"'{e.op}'")
        self.number(e.right, f"'{e.op}'")
        return BOOL

    def e_Name(self, e: ast.Name) -> str | None:
        meaning, t = self.resolve(e)
        self.meaning[e] = meaning
        if meaning in ("counter", "card"):
            self.reads.add("counters" if meaning == "counter" else "cards")
        elif meaning != "local" and e.name in _READS_OF:
            self.reads.add(_READS_OF[e.name])
        return t

    def resolve(self, e: ast.Name) -> tuple[str, str | None]:
        """What a name means here, and its type (reporting a name that means nothing)."""
        binding = self.lookup(e.name)
        if binding is not None:
            return "local", binding.type
        if e.name in registry.CARD_VALUES and self.card_values:
            return "card", NUM
        if e.name in registry.CARD_VALUES:
            self.report("RK240", e.pos, f"'{e.name}' is a card's {e.name}, read only inside "
                                        "`count(played where …)`", hint=f"write `count(played where {e.name} == 2)`")
            return "card", NUM
        if e.name in self.params:
            return "param", NUM
        if e.name in self.counters and e.name not in registry.SETTABLE:
            return "counter", NUM
        return self.game_name(e)

    def game_name(self, e: ast.Name) -> tuple[str, str | None]:
        if e.name == "uses":
            if self.kind != "policy":
                self.report("RK216", e.pos, "`uses` counts the executions of a policy, and this is not a policy")
            return "value", NUM
        if e.name in registry.SETTABLE or e.name in registry.COUNTS or e.name in ("hand", "revealed"):
            if not self.subject:
                self.report("RK212", e.pos, f"'{e.name}' is a player's value, but an event has no player here",
                            hint="read it inside `each player:` or `player with …:`")
            meaning = "track" if e.name in registry.SETTABLE else "count" if e.name in registry.COUNTS else "value"
            return meaning, BOOL if e.name == "revealed" else NUM
        if e.name in registry.VALUES:
            return "value", NUM
        self.unknown_name(e)
        return "unknown", None

    def unknown_name(self, e: ast.Name) -> None:
        if e.name in registry.QUANTITIES:
            self.report("RK211", e.pos, f"'{e.name}' is a quantity the game computes; an expression cannot read it")
            return
        table: dict[str, object] = {**registry.SETTABLE, **registry.COUNTS, **registry.VALUES}
        for names in (*self.scopes, self.params):
            table.update({n: registry.Word(n, "", "") for n in names})
        msg, _ = unknown_word(e.name, table, "name")
        self.report("RK211", e.pos, msg, hint="a name is a track, a board count, round, players, hand, uses, "
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
        if e.func in registry.FUNCTIONS:
            want = 1 if e.func == "abs" else 2
            self.arg_count(e, want, f"{e.func}(a)" if want == 1 else f"{e.func}(a, b)")
            for a in e.args:
                self.number(a, f"{e.func}()")
            return NUM
        known = {**registry.PREDICATES, **registry.FUNCTIONS, **registry.AGGREGATES}
        msg, _ = unknown_word(e.func, known, "function")
        self.report("RK210", e.pos, msg, hint="functions: " + ", ".join(known))
        for a in e.args:
            self.value(a)
        return None

    def arg_count(self, e: ast.Call, want: int, form: str) -> bool:
        if len(e.args) == want:
            return True
        self.report("RK225", e.pos, f"{e.func}() takes {want} value{'s' if want > 1 else ''}, got {len(e.args)}",
                    hint=f"write {form}")
        return False

    def predicate(self, e: ast.Call) -> str:
        pred = registry.PREDICATES[e.func]
        if e.func in ("played", "unlocked") and not self.subject:
            self.report("RK212", e.pos, f"{e.func}() asks about a player, but an event has no player here",
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

    def card_ref(self, e: ast.Call, arg: ast.Expr, kind: str) -> None:
        if not isinstance(arg, ast.Str):
            shown = arg.name if isinstance(arg, ast.Name) else "name"
            self.report("RK225", arg.pos, f"{e.func}() takes {_KIND_ARTICLE[kind]}'s name in quotes",
                        hint=f'write {e.func}("{shown}")')
            return
        if self.refs is None or self.refs(kind, arg.value):
            return
        for other in ("policy", "event", "advisor", "combo"):
            if other != kind and self.refs(other, arg.value):
                self.report("RK224", arg.pos, f"{e.func}() takes {_KIND_ARTICLE[kind]}, but '{arg.value}' is "
                                              f"{_KIND_ARTICLE[other]}")
                return
        msg = f"there is no {kind} '{arg.value}'"
        broken = [*self.unreadable.get(kind, ()), *self.unreadable.get("", ())]
        if broken:
            files = ", ".join(sorted(broken))
            self.report("RK224", arg.pos, f"{msg}: this follows from {files}, which cannot be read",
                        hint="fix the error in that file first; its cards are unknown until then")
            return
        guess = nearest(arg.value, sorted(self.names.get(kind, ())))
        if guess:
            msg += f" — did you mean '{guess}'?"
        self.report("RK224", arg.pos, msg, hint=f"write the id or the name of {_KIND_ARTICLE[kind]} of the content")


def check_program(program: ast.Program, kind: str, card_ref_exists: RefExists | None, file: str, *,
                  card_names: Mapping[str, Sequence[str]] | None = None,
                  unreadable: Mapping[str, Sequence[str]] | None = None,
                  counters: Collection[str] = (), params: Mapping[str, int] | None = None) -> list[Diagnostic]:
    """Every problem of meaning in one card's effect (kind: advisor, policy, event or combo).

    card_names (kind -> ids and names) only feeds did-you-mean for card references; unreadable
    (kind, or '' for any -> files) names the files a missing card may be in.
    """
    checker = _Checker(kind, file, card_ref_exists, card_names, unreadable=unreadable, counters=counters,
                       params=params)
    checker.program(program)
    return sorted(checker.diags, key=Diagnostic.sort_key)


def checked(checker: _Checker, program: ast.Program | None, condition: ast.Expr | None) -> Checked:
    return Checked(program, condition, dict(checker.meaning), frozenset(checker.reads), tuple(sorted(checker.counters)))


def check_effect(parsed: Parsed, kind: str, card_ref_exists: RefExists | None, file: str, *,
                 card_names: Mapping[str, Sequence[str]] | None = None,
                 unreadable: Mapping[str, Sequence[str]] | None = None, counters: Collection[str] = (),
                 params: Mapping[str, int] | None = None) -> tuple[Checked | None, list[Diagnostic]]:
    """An effect checked: the Checked program when it has no error (and parsed whole), and every diagnostic.

    `params` are the numbers the card names (`params:`), read by the effect as constants."""
    if parsed.program is None:
        return None, []
    checker = _Checker(kind, file, card_ref_exists, card_names, parsed.lost_words, unreadable, counters, params)
    if parsed.complete:
        checker.program(parsed.program)
    else:
        checker.items(parsed.program)
    found = sorted((d for d in checker.diags if d.line not in parsed.mended_lines), key=Diagnostic.sort_key)
    ok = parsed.complete and not parsed.diags and not any(d.severity == "error" for d in found)
    return (checked(checker, parsed.program, None) if ok else None), found


def check_expression(expr: ast.Expr, file: str, card_ref_exists: RefExists | None, where: str, *,
                     kind: str = "combo", card_names: Mapping[str, Sequence[str]] | None = None,
                     unreadable: Mapping[str, Sequence[str]] | None = None) -> tuple[Checked | None, list[Diagnostic]]:
    """A condition checked (a combo's `when:`, an unlock rule): Checked when it has no error, and every diagnostic."""
    checker = _Checker(kind, file, card_ref_exists, card_names, unreadable=unreadable)
    checker.scopes = [{}]
    checker.truth(expr, where)
    checker.effect_steps(expr.pos)
    found = sorted(checker.diags, key=Diagnostic.sort_key)
    ok = not any(d.severity == "error" for d in found)
    return (checked(checker, None, expr) if ok else None), found


def check_condition(expr: ast.Expr, file: str, card_ref_exists: RefExists | None, where: str, *,
                    kind: str = "combo", card_names: Mapping[str, Sequence[str]] | None = None,
                    unreadable: Mapping[str, Sequence[str]] | None = None) -> list[Diagnostic]:
    """Every problem of a condition (a combo's `when:`, an unlock rule); it must be true/false."""
    return check_expression(expr, file, card_ref_exists, where, kind=kind, card_names=card_names,
                            unreadable=unreadable)[1]


def _big(n: int) -> str:
    """A number for a message: in full, or its size when it has too many digits to read."""
    text = f"{n:,}"
    return text if len(text) <= 27 else f"a number of {len(str(abs(n)))} digits"


def _a(word: str) -> str:
    """'a `death`' or 'an `unsold`'."""
    return f"{'an' if word[:1] in 'aeiou' else 'a'} `{word}`"
