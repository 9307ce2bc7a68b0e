"""What content becomes once compiled: each card's handlers, triggers, reactions and declarations as functions."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from types import TracebackType
from typing import TYPE_CHECKING

from rulekit import registry
from rulekit.core.errors import EffectError
from rulekit.core.program import Card as CardLike
from rulekit.core.program import Expression, Handler
from rulekit.core.state import GameState
from rulekit.interpreter import codegen, reference
from rulekit.interpreter.runtime import RUNTIME_ERRORS, Runtime, arithmetic_error
from rulekit.language import ast
from rulekit.language.checker import Checked
from rulekit.model import Card, Content

if TYPE_CHECKING:
    from rulekit.core.game import Game

EVALUATORS = ("compiled", "reference")
ALL_SOURCES = frozenset(registry.SHIELD_SOURCES)      # a shield without `from` stops them all
# What a `once when becomes` condition may read for the core to skip working it out again while none of it
# changed (Handlers.check_becomes): the boards, the tracks, the round, the stages, hand sizes, the counters.
BECOMES_READS = frozenset({"board", "tracks", "round", "stage", "hand", "counters"})


@dataclass
class CompiledCard:
    """A card's behaviour, compiled once per content and run many times."""

    card: Card
    on: dict[str, Handler] = field(default_factory=dict)          # 'play', 'setup', 'resolve', 'income start', …
    triggers: dict[str, list[tuple[str, Handler, bool]]] = field(default_factory=dict)      # word -> [(key, fn, once)]
    react: dict[str, Handler] = field(default_factory=dict)       # word -> fn
    # [(quantity, fn, floor, while)]: `while` is the declaration's condition (None: it always holds)
    modifiers: list[tuple[str, Expression, int | None, Expression | None]] = field(default_factory=list)
    shields: tuple[tuple[str, frozenset[str], Expression | None], ...] = ()     # (target, sources, while)
    seals: tuple[tuple[str, str, Expression | None], ...] = ()                 # (target, direction, while)
    condition: Expression | None = None                             # combos: `when:`
    playable: bool = True                                          # False when only `react` handlers
    skips: tuple[tuple[str, Expression | None], ...] = ()          # `skip STEP`: (step, while)
    limits: tuple[tuple[str, str, int, Expression | None], ...] = ()   # `floor|ceiling TRACK N`: (track, which, N, while)
    later: dict[str, Handler] = field(default_factory=dict)      # `after N rounds:` blocks by name
    code: codegen.CardCode | None = None                           # the generated module (compiled evaluator)
    # counters whose first value is worked out when the card enters play: (name, (rt, seat, entry) -> number)
    starts: tuple[tuple[str, Expression], ...] = ()
    # `once when becomes COND:` handlers: (key, the condition, the block, what the card's text reads of the game
    # when that is only what the core can tell has not changed (BECOMES_READS), else None)
    becomes: list[tuple[str, Expression, Handler, frozenset[str] | None]] = field(default_factory=list)


def handler_key(h: ast.Handler) -> str:
    return f"{h.event} {h.edge}" if h.edge else h.event


def compile_card(card: Card, evaluator: str) -> CompiledCard:
    """One card's handlers, declarations and condition, by the generated-code or the reference evaluator.

    Only what the checker passed is compiled: a card with an effect or a condition must carry its
    Checked program (the loader gives it one).
    """
    checked = card.checked
    if checked is None and (card.effect is not None or card.when is not None):
        raise TypeError(f"{card.label}: the compiler takes only a checked program (load cards with load_content)")
    program = checked.program if checked is not None else None
    handlers = program.handlers if program is not None else ()
    modifiers = tuple(i for i in program.items if isinstance(i, ast.Modify)) if program is not None else ()
    declared = tuple(i for i in program.items if not isinstance(i, ast.Handler)) if program is not None else ()
    conds = tuple(d.cond for d in declared if d.cond is not None)
    out = CompiledCard(card)
    if evaluator == "compiled":
        out.code = codegen.generate(card, checked, handlers, modifiers, conds)
        fns = out.code.functions
        becomes = {k: fns[f"b{k}"] for k, h in enumerate(handlers) if h.condition is not None}
        hfn = [fns[f"h{k}"] for k in range(len(handlers))]
        mfn = [fns[f"m{k}"] for k in range(len(modifiers))]
        wfn = [fns[f"w{k}"] for k in range(len(conds))]
        out.condition = fns.get("c")
        out.later = {k: v for k, v in fns.items() if k.startswith("after_")}
    else:
        hfn, mfn, wfn, out.condition = [], [], [], None
        if checked is not None:
            hfn = [reference.handler(h.body, checked, card, h.pos.line) for h in handlers]
            becomes = {k: reference.expression(h.condition, checked, card, h.pos.line)
                       for k, h in enumerate(handlers) if h.condition is not None}
            mfn = [reference.expression(m.expr, checked, card, m.pos.line) for m in modifiers]
            wfn = [reference.expression(c, checked, card, c.pos.line) for c in conds]
            condition = checked.condition
            out.condition = reference.expression(condition, checked, None, condition.pos.line or card.line) \
                if condition is not None else None
            out.later = {codegen.after_name(a): reference.later(a.body, checked, card, a.pos.line) for a in afters(handlers)}
    for n, (h, fn) in enumerate(zip(handlers, hfn, strict=False)):
        if h.form == "on":
            out.on[handler_key(h)] = fn
        elif h.form == "react":
            out.react[h.event] = fn
        elif h.condition is not None:
            reads = checked.reads if checked is not None and checked.reads <= BECOMES_READS else None
            out.becomes.append((f"{card.id}/{n}", becomes[n], fn, reads))
        else:
            out.triggers.setdefault(h.event, []).append((f"{card.id}/{n}", fn, h.form == "once"))
    # Each declaration's `while` condition, compiled in the order of the text (w0, w1 …).
    cond_of = {id(d): fn for d, fn in zip((d for d in declared if d.cond is not None), wfn, strict=True)}
    for item in declared:
        w = cond_of.get(id(item))
        if isinstance(item, ast.Modify):
            out.modifiers.append((item.quantity, mfn[len(out.modifiers)], item.floor, w))
        elif isinstance(item, ast.Shield):
            sources = frozenset(s for s, _ in item.sources) or ALL_SOURCES
            out.shields += tuple((t, sources, w) for t, _ in item.targets)
        elif isinstance(item, ast.Seal):
            out.seals += ((item.target, item.direction, w),)
        elif isinstance(item, ast.Skip):
            out.skips += ((item.step, w),)
        elif isinstance(item, ast.Limit):
            out.limits += ((item.track, item.which, item.value, w),)
    out.starts = tuple((name, _start(card, start, evaluator)) for name, start in card.starts)
    out.playable = bool(out.on or out.triggers or out.becomes or out.modifiers or out.shields or out.seals
                        or out.skips or out.limits) or not out.react
    return out


def _start(card: Card, start: Checked, evaluator: str) -> Expression:
    """A counter's first value as a function of (rt, seat, entry), by either evaluator."""
    expr = start.condition
    assert expr is not None, "a counter's first value is checked as an expression"
    if evaluator == "compiled":
        return codegen.generate(card, start, (), ()).functions["c"]
    return reference.expression(expr, start, card, expr.pos.line or card.line)


def afters(stmts_or_handlers: Iterable[ast.Handler | ast.Stmt]) -> list[ast.After]:
    """Every `after` block in handlers or statements, nested ones included, in the order of the text."""
    found: list[ast.After] = []
    for x in stmts_or_handlers:
        if isinstance(x, ast.After):
            found.append(x)
        found.extend(x.find_all(ast.After))
    return found


class Program:
    """Every card of a content compiled, the unlock conditions, and where an error inside them happened."""

    def __init__(self, content: Content, unlock: dict[str, tuple[Checked, str]], evaluator: str,
                 combos: Sequence[Card] | None = None) -> None:
        self.content = content
        self.evaluator = evaluator
        self.cards: dict[str, CompiledCard] = {c.id: compile_card(c, evaluator) for c in content.cards}
        self.reactive = frozenset(cid for cid, c in self.cards.items() if c.react)
        # What the core must listen for at all: it skips the work when no card of the content does.
        self.react_moments = frozenset(w for c in self.cards.values() for w in c.react if w in registry.REACT_MOMENTS)
        self.hears_other = frozenset(w.split(" ", 1)[1] for c in self.cards.values() for w in c.triggers
                                     if w in registry.OTHER_TRIGGERS)       # `when other cure` …: 'cure' …
        self.hears_cure = "cure" in self.hears_other or any("cure" in c.triggers or "cure" in c.react
                                                             for c in self.cards.values())
        self.hears_event = any("event" in c.triggers or "event" in c.react for c in self.cards.values())
        self.hears_play = "play" in self.hears_other or any("play" in c.triggers or "play" in c.react
                                                             for c in self.cards.values())
        self.hears_becomes = any(c.becomes for c in self.cards.values())     # `once when becomes` anywhere
        chosen = combos if combos is not None else content.of_kind("combo")
        self.combos = tuple(sorted(chosen, key=lambda c: c.id))
        self.unlock: dict[str, tuple[Callable, str, int]] = {}
        self.unlock_reads_only_board = True     # then a condition changes only when the board (or stage) does
        for name, (condition, where) in unlock.items():
            expr = condition.condition
            assert expr is not None, "an unlock condition is checked as a condition"
            fn = (codegen.generate(_Condition(name), condition, (), ()).functions["c"] if evaluator == "compiled"
                  else reference.expression(expr, condition))
            self.unlock[name] = (fn, where, expr.pos.line)
            self.unlock_reads_only_board = self.unlock_reads_only_board and condition.reads <= {"board", "stage"}

    def card(self, ref: str) -> Card | None:
        return self.content.lookup(ref)

    def runtime(self, game: Game) -> Runtime:
        """The `rt` this program's functions are called with, for one game."""
        return Runtime(game)

    # ---- unlock conditions ------------------------------------------------------------------------
    def unlock_holds(self, g: Game, name: str, seat: int) -> bool:
        fn, where, line = self.unlock[name]
        try:
            return bool(g.bounded(fn, g.rt, seat, None))
        except (EffectError, ArithmeticError, RecursionError) as err:
            reason = err.reason if isinstance(err, EffectError) else RUNTIME_ERRORS.get(type(err), str(err))
            st = g.state
            raise EffectError(reason, None, line, st.round, st.seed, where=where) from None

    # ---- errors ------------------------------------------------------------------------------------
    def located(self, err: BaseException, card: CardLike, st: GameState) -> EffectError:
        """The EffectError to raise for `err` inside `card`: with the card, its line, the round and the seed."""
        if not isinstance(err, EffectError):
            err = arithmetic_error(err).with_traceback(err.__traceback__)
        if err.card is None and err.where is None:
            err.card = card
            if not err.line:
                err.line = self.line_in(card, err.__traceback__)
        if err.seed is None:
            err.seed, err.round = st.seed, st.round
        err.args = (err.describe(),)
        return err

    def line_in(self, card: CardLike, tb: TracebackType | None) -> int:
        """The effect line of the deepest generated line of this card in a traceback (0 if none)."""
        compiled = self.cards.get(card.id)
        code = compiled.code if compiled is not None else None
        if code is None:
            return 0
        line = 0
        while tb is not None:
            if tb.tb_frame.f_code.co_filename == code.filename:
                k = tb.tb_lineno - 1
                if 0 <= k < len(code.lines):
                    line = code.lines[k]
            tb = tb.tb_next
        return line


@dataclass(frozen=True)
class _Condition:
    """Stands in for a card when an unlock condition is generated (it has a name, no card)."""

    id: str
    line: int = 0
