"""Checked program: names, kinds, subjects, scopes and types of an effect, every problem in one pass.

A card's effect (or a condition) is checked in two passes: the resolver (rulekit.language.resolve)
decides what every name means, and the checker (the checks of rulekit.language.checks_items and
rulekit.language.checks_exprs) reports every problem of meaning, naming its rule
(rulekit.diagnostics.codes). What passes is handed on as a `Checked`, the only thing the compiler takes.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from rulekit.diagnostics.codes import CODES as CODES
from rulekit.language import ast
from rulekit.language.checks_exprs import BOOL as BOOL
from rulekit.language.checks_exprs import CARD as CARD
from rulekit.language.checks_exprs import CELL as CELL
from rulekit.language.checks_exprs import NUM as NUM
from rulekit.language.checks_exprs import TEXT as TEXT
from rulekit.language.checks_exprs import RefExists as RefExists
from rulekit.language.checks_exprs import unknown_word as unknown_word
from rulekit.language.checks_items import ItemChecks
from rulekit.language.diagnostics import Diagnostic
from rulekit.language.parser import Parsed
from rulekit.language.ranges import LARGEST_AMOUNT as LARGEST_AMOUNT
from rulekit.language.ranges import MOST_PLAYERS as MOST_PLAYERS
from rulekit.language.ranges import Range as Range
from rulekit.language.ranges import can_be_zero as can_be_zero
from rulekit.language.ranges import show as show
from rulekit.language.resolve import RESERVED as RESERVED
from rulekit.language.resolve import Meaning, resolve_expression


@dataclass(frozen=True)
class Checked:
    """What the checker hands on: an effect (or a condition) that passed, with what the checker found.

    `meaning` is the resolver's table (rulekit.language.resolve): for every name read, every
    `NAME += …`, every `let`/`choose`/`as` and every `modify`, a `Meaning` whose `kind` says what it
    is — `local` (let/choose/as; `binding` says which), `counter` (a number the card keeps), `param`
    (a number the card names, `params:`: a constant), `track`, `count`, `value`, `card` (inside
    count(played …)), `quantity` — so the compiler, the reference walker and the bots never resolve a
    name again. `reads` says what the text reads of the game: `board`, `tracks`, `hand`, `stage`,
    `cards`, `events`, `round`, `players`, `counters`. The compiler takes nothing else.
    """

    program: ast.Program | None
    condition: ast.Expr | None
    meaning: Mapping[ast.Node, Meaning]
    reads: frozenset[str]
    counters: tuple[str, ...] = ()

    def of(self, node: ast.Node) -> Meaning:
        """What a name (an ast.Name, a TrackChange, a definition, a Modify) means."""
        return self.meaning[node]


class Checker(ItemChecks, walks=("statements", "expressions", "declarations")):
    """One pass over one program (or one condition); diagnostics collect in self.diags."""


def check_program(program: ast.Program, kind: str, card_ref_exists: RefExists | None, file: str, *,
                  card_names: Mapping[str, Sequence[str]] | None = None,
                  unreadable: Mapping[str, Sequence[str]] | None = None,
                  counters: Collection[str] = (), params: Mapping[str, int] | None = None) -> list[Diagnostic]:
    """Every problem of meaning in one card's effect (kind: advisor, policy, event or combo).

    card_names (kind -> ids and names) only feeds did-you-mean for card references; unreadable
    (kind, or '' for any -> files) names the files a missing card may be in.
    """
    checker = Checker(kind, file, card_ref_exists, card_names, unreadable=unreadable, counters=counters,
                       params=params)
    checker.program(program)
    return sorted(checker.diags, key=Diagnostic.sort_key)


def checked(checker: Checker, program: ast.Program | None, condition: ast.Expr | None) -> Checked:
    return Checked(program, condition, dict(checker.res.meaning), frozenset(checker.reads), tuple(sorted(checker.counters)))


def check_effect(parsed: Parsed, kind: str, card_ref_exists: RefExists | None, file: str, *,
                 card_names: Mapping[str, Sequence[str]] | None = None,
                 unreadable: Mapping[str, Sequence[str]] | None = None, counters: Collection[str] = (),
                 params: Mapping[str, int] | None = None) -> tuple[Checked | None, list[Diagnostic]]:
    """An effect checked: the Checked program when it has no error (and parsed whole), and every diagnostic.

    `params` are the numbers the card names (`params:`), read by the effect as constants."""
    if parsed.program is None:
        return None, []
    checker = Checker(kind, file, card_ref_exists, card_names, parsed.lost_words, unreadable, counters, params)
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
    checker = Checker(kind, file, card_ref_exists, card_names, unreadable=unreadable)
    checker.res = resolve_expression(expr)
    checker.truth(expr, where)
    checker.effect_steps(expr.pos)
    found = sorted(checker.diags, key=Diagnostic.sort_key)
    ok = not any(d.severity == "error" for d in found)
    return (checked(checker, None, expr) if ok else None), found


def check_start(expr: ast.Expr, file: str, card_ref_exists: RefExists | None, where: str, *, kind: str,
                counters: Collection[str] = (), params: Mapping[str, int] | None = None,
                card_names: Mapping[str, Sequence[str]] | None = None,
                unreadable: Mapping[str, Sequence[str]] | None = None) -> tuple[Checked | None, list[Diagnostic]]:
    """A counter's first value (`counters: {NAME: "= EXPR"}`), worked out when the card enters play: a number,
    read with the card's owner as the subject; it may read the card's `params:` (a counter it reads, which has
    no value yet, is the content check's RK270). Checked (with the expression as its condition) when it has
    no error, and every diagnostic."""
    checker = Checker(kind, file, card_ref_exists, card_names, unreadable=unreadable, counters=counters,
                      params=params)
    checker.res = resolve_expression(expr, counters=counters, params=params)
    checker.number(expr, where)
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
