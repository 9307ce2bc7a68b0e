"""The checks of cards, for the loader's pipeline (rulekit.content.loader): each file's own, then the folder's.

Per file (stage 1, depends on nothing but the file): a card file's bytes -> drafts (`read_cards`),
their fields against the schema (`validate_draft`), their effects and `when:` parsed and checked
(`check_effects`). Over the folder (stage 2): duplicate ids and names and the lookup card references
use (`references`), the cards (`cards_of`), and the counts and combos (`folder_checks`). Every
problem is reported through `Run.report`, with a rule of rulekit.diagnostics.
"""

from __future__ import annotations

import os
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulekit import registry
from rulekit.model import Card
from rulekit.content.schema import validate
from rulekit.content.yamlpos import Located, parse_bytes
from rulekit.diagnostics import R
from rulekit.diagnostics.codes import UNREADABLE
from rulekit.language import ast
from rulekit.language.checker import RESERVED, Checked, check_effect, check_expression, check_start
from rulekit.language.diagnostics import Diagnostic
from rulekit.language.parser import parse_effect_recovering, parse_expression

KIND_FOLDERS: dict[str, str] = {"advisors": "advisor", "policies": "policy", "events": "event", "combos": "combo"}
STAGE_COPIES = {1: 3, 2: 2, 3: 1}      # docs/rules.md: default copies of a policy by stage
EVENT_COPIES = 1
ADVISORS_DEALT = registry.ADVISORS_DEALT
ExtraCard = tuple[Located | Mapping[str, Any], str]
RefExists = Callable[[str, str], bool]
CardNames = Mapping[str, list[str]]
Unreadable = Mapping[str, Sequence[str]]


@dataclass
class Draft:
    """One card as read, before it becomes a Card: its data, positions and what was found."""

    kind: str | None
    loc: Located
    file: str
    valid: bool = True                  # metadata passed the schema
    program: ast.Program | None = None
    when: ast.Expr | None = None
    checked: Checked | None = None          # the effect, as the checker passed it
    when_checked: Checked | None = None     # a combo's `when:`, as the checker passed it
    # counters whose first value is an expression (`counters: {NAME: "= EXPR"}`), as the checker passed them
    starts: tuple[tuple[str, Checked], ...] = ()

    @property
    def data(self) -> dict[str, Any]:
        return self.loc.data

    @property
    def line(self) -> int:
        span = self.loc.span(())
        return span.line if span else 0

    @property
    def id(self) -> str | None:
        v = self.data.get("id")
        return v if isinstance(v, str) else None

    @property
    def name(self) -> str | None:
        v = self.data.get("name")
        return v if isinstance(v, str) else None

    @property
    def status(self) -> str:
        v = self.data.get("status", "designed")
        return v if v in ("designed", "proposed", "tbd") else "designed"


@dataclass
class Run:
    """Everything one check of a folder gathers: the drafts of its cards, rules.yaml, diagnostics."""

    root: Path | None
    drafts: list[Draft] = field(default_factory=list)
    rules_loc: Located | None = None
    diags: list[Diagnostic] = field(default_factory=list)
    asked: list[Path] = field(default_factory=list)      # what a lint asked for (its duplicates come second)
    holds_cards: bool = True                                # False: a content folder without any card file

    def report(self, code: R, message: str, file: str = "", line: int = 0, col: int = 0,
               hint: str | None = None, end: tuple[int, int] | None = None) -> None:
        end_line, end_col = end or (line, col + 1 if col else 0)
        self.diags.append(Diagnostic.of(code, message, file, line, col, end_line, end_col, hint))


def absolute(p: Path) -> Path:
    """A path made absolute as written, links not resolved: a card read through a link is where the link is."""
    return Path(os.path.abspath(p))


def within(target: Path, wanted: Sequence[Path]) -> bool:
    return any(target == w or w in target.parents for w in wanted)

def unreadable_files(run: Run) -> dict[str, list[str]]:
    """Card kind ('' when the file has none) -> the files and folders whose cards are unknown,
    because they cannot be read: a missing card may well be one of theirs."""
    out: dict[str, list[str]] = {}
    for d in run.diags:
        if d.code not in UNREADABLE or d.severity != "error" or not d.file:
            continue
        kind = ""
        if run.root is not None:
            try:
                rel = Path(d.file).relative_to(run.root)
            except ValueError:
                rel = None
            if rel is not None and rel.parts and rel.parts[0] in KIND_FOLDERS:
                kind = KIND_FOLDERS[rel.parts[0]]
            elif rel is not None and rel.parts == ("rules.yaml",):
                continue
        files = out.setdefault(kind, [])
        if d.file not in files:
            files.append(d.file)
    return out

def read_cards(run: Run, raw: bytes, kind: str | None, file: str) -> None:
    """The cards of one card file's bytes, as drafts of the run."""
    loc, found = parse_bytes(raw, file)
    run.diags += found
    if loc is None:
        return
    if loc.data is None:
        run.report(R.EMPTY_FILE, "this file is empty", file, hint="write a card (a mapping) or a list of cards")
        return
    if isinstance(loc.data, dict):
        _add_card(run, loc, kind, file)
    elif isinstance(loc.data, list):
        for i in range(len(loc.data)):
            _add_card(run, loc.sub((i,)), kind, file)
    else:
        span = loc.span(())
        run.report(R.NOT_A_CARD, "a card file holds a card (a mapping with id, name, …) or a list of cards",
                   file, span.line if span else 1, span.col if span else 1)


def read_extra(run: Run, extra: ExtraCard, index: int) -> None:
    obj, file = extra
    loc = obj if isinstance(obj, Located) else Located.plain(obj, file)
    if loc.file != file:
        loc = Located(loc.data, file, loc.values, loc.keys)
    if isinstance(loc.data, dict) and "name" not in loc.data and isinstance(loc.data.get("id"), str):
        loc = Located({**loc.data, "name": loc.data["id"]}, loc.file, loc.values, loc.keys)
    _add_card(run, loc, None, file)


def _add_card(run: Run, loc: Located, folder_kind: str | None, file: str) -> None:
    span = loc.span(())
    line, col = (span.line, span.col) if span else (0, 0)
    if not isinstance(loc.data, dict):
        run.report(R.NOT_A_CARD, "each card is a mapping of fields (id, name, effect, …)", file, line, col)
        return
    kind = _kind_of(run, loc, folder_kind, file)
    run.drafts.append(Draft(kind, loc, file, valid=kind is not None))


def _kind_of(run: Run, loc: Located, folder_kind: str | None, file: str) -> str | None:
    given = loc.data.get("kind")
    span = loc.span(("kind",)) if "kind" in loc.data else loc.span(())
    line, col = (span.line, span.col) if span else (0, 0)
    if given is None:
        if folder_kind is None:
            run.report(R.WRONG_KIND, "this card needs a `kind:` (advisor, policy, event or combo)", file, line, col,
                       hint="or put the file in advisors/, policies/, events/ or combos/")
        return folder_kind
    if given not in KIND_FOLDERS.values():
        run.report(R.WRONG_KIND, f"unknown kind '{given}'", file, line, col, hint="kind: advisor, policy, event or combo")
        return None
    if folder_kind is not None and given != folder_kind:
        run.report(R.WRONG_KIND, f"this card says `kind: {given}`, but it is in the folder of {folder_kind} cards",
                   file, line, col, hint="move the card, or fix its kind")
        return None
    return given


def validate_draft(run: Run, draft: Draft) -> None:
    if draft.kind is None:
        return
    found = validate(draft.loc, draft.kind) + _hidden_characters(draft)
    run.diags += found
    draft.valid = not found and draft.id is not None and draft.name is not None
    if draft.valid and draft.kind in ("policy", "event") and "copies" not in draft.data and draft.status != "tbd":
        copies = _default_copies(draft.kind, draft.data.get("stage"))
        what = f"a stage {draft.data['stage']} policy" if draft.kind == "policy" else "an event"
        span = draft.loc.key_span(("id",)) or draft.loc.span(())
        run.report(R.DEFAULT_COPIES, f"no `copies:`, so the deck holds {copies} (the default for {what})", draft.file,
                   span.line if span else draft.line, span.col if span else 0,
                   hint=f"write `copies: {copies}` to say so, or another number", end=_end(span))


# What may not stand in a card's name: anything that does not show, or changes how the text
# around it shows (controls, format marks, separators, unassigned code points) — two names that
# look the same would be two cards.
_HIDDEN_IN_NAMES = ("Cc", "Cf", "Zl", "Zp", "Cn", "Cs")
# In flavor and notes, line breaks and tabs are text; other control characters and the marks
# that turn text around (bidi controls) are not.
_BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_TEXT_FIELDS = ("name", "flavor", "notes")        # an id is refused by its schema: ASCII letters, digits and _


def _hidden_characters(draft: Draft) -> list[Diagnostic]:
    """RK018: an invisible, control or bidi character in a card's name, flavor or notes."""
    out = []
    for key in _TEXT_FIELDS:
        value = draft.data.get(key)
        if not isinstance(value, str):
            continue
        bad = next((ch for ch in value if _hidden(ch, key == "name")), None)
        if bad is None:
            continue
        span = draft.loc.span((key,))
        out.append(Diagnostic.of(R.HIDDEN_CHARACTER, f"the {key} holds {_character(bad)}", draft.file,
                                 span.line if span else draft.line, span.col if span else 0,
                                 span.end_line if span else 0, span.end_col if span else 0,
                                 hint="delete the character (retype the text if you cannot see where it is)"))
    return out


def _hidden(ch: str, strict: bool) -> bool:
    if ch in _BIDI_CONTROLS:
        return True
    category = unicodedata.category(ch)
    if strict:
        return category in _HIDDEN_IN_NAMES
    return category == "Cc" and ch not in "\t\n"


def _character(ch: str) -> str:
    """A character a designer cannot see, named, and why it matters."""
    code = f"U+{ord(ch):04X}"
    name = unicodedata.name(ch, "")
    named = f"{code} ({name})" if name else code
    if ch in _BIDI_CONTROLS:
        return f"{named}, a mark that turns the text around it on screen, so it reads other than it is"
    if unicodedata.category(ch) == "Cc":
        return f"{named}, a control character: it is not text, and printed it can clear or change the terminal"
    return f"{named}, a character that does not show: two names that look the same would be different cards"


# ---- references -----------------------------------------------------------------------------

def references(run: Run):
    """Duplicate ids and names, and the lookup card references use: (kind, id-or-name) -> exists.

    A duplicate is reported at its second occurrence, naming the first. When a lint asks for
    some files only, their cards count as the later ones, so a new card that takes an old
    card's id is the one reported, and the report shows when only the new file is linted.
    """
    by_id: dict[str, Draft] = {}
    by_name: dict[tuple[str, str], Draft] = {}
    order = run.drafts
    if run.asked:
        order = sorted(run.drafts, key=lambda d: within(absolute(Path(d.file)), run.asked))
    for d in order:
        if d.kind is None:
            continue
        if d.id is not None:
            _first(run, by_id, d.id, d, "id", d.loc.span(("id",)))
        if d.name is not None:
            # Names equal once normalised (NFC) look the same: the same name, written two ways.
            _first(run, by_name, (d.kind, unicodedata.normalize("NFC", d.name)), d, "name", d.loc.span(("name",)))
    for d in order:
        if d.kind is not None and d.name is not None:
            _name_is_an_id(run, by_id, d)
    known: dict[str, set[str]] = {}
    for d in run.drafts:
        if d.kind is not None:
            known.setdefault(d.kind, set()).update(x for x in (d.id, d.name) if x)
    names = {k: sorted(v) for k, v in sorted(known.items())}

    def exists(kind: str, ref: str) -> bool:
        return ref in known.get(kind, ())

    return exists, names


def _first(run: Run, seen: dict, key, draft: Draft, what: str, span) -> None:
    first = seen.setdefault(key, draft)
    if first is draft:
        return
    code = R.DUPLICATE_ID if what == "id" else R.DUPLICATE_NAME
    value = draft.id if what == "id" else draft.name
    scope = "" if what == "id" else f" among the {draft.kind} cards"
    written = ""
    if what == "name" and first.name != draft.name:
        written = " (written with other Unicode characters that look the same)"
    run.report(code, f"the {what} '{value}' is used twice{scope}{written}: first in {first.file}:{first.line}",
               draft.file, span.line if span else draft.line, span.col if span else 0,
               hint=f"every card needs its own {what}", end=_end(span))


def _name_is_an_id(run: Run, by_id: Mapping[str, Draft], draft: Draft) -> None:
    """RK308: a card named with another card's id — `played("hospital_expansion")` would mean either."""
    if draft.name is None:
        return
    other = by_id.get(unicodedata.normalize("NFC", draft.name))
    if other is None or other is draft or other.id == draft.id:
        return
    span = draft.loc.span(("name",))
    run.report(R.NAME_IS_ANOTHER_ID, f"the name '{draft.name}' is the id of another card, in {other.file}:{other.line}: "
                        f"a reference to '{draft.name}' would mean either card", draft.file,
               span.line if span else draft.line, span.col if span else 0,
               hint="give this card a name of its own", end=_end(span))


# ---- effects ---------------------------------------------------------------------------------

def check_effects(run: Run, draft: Draft, refs, names, unreadable: Mapping[str, Sequence[str]] | None = None) -> None:
    if draft.kind is None:
        return
    effect = draft.data.get("effect")
    if isinstance(effect, str) and effect.strip():
        if draft.status == "tbd":
            span = draft.loc.key_span(("effect",))
            run.report(R.TBD_WITH_EFFECT, "this card is `status: tbd`, so its effect is ignored", draft.file,
                       span.line if span else 0, span.col if span else 0,
                       hint="mark it `status: proposed` (or remove `status`) to use the effect")
        draft.program = _parse_program(run, draft, effect, refs, names, unreadable)
    when = draft.data.get("when")
    if draft.kind == "combo" and isinstance(when, str) and when.strip():
        expr, found = parse_expression(when, draft.loc.origin(("when",)))
        run.diags += found
        if expr is not None:
            condition, found = check_expression(expr, draft.file, refs, "the combo's `when:`", card_names=names,
                                                unreadable=unreadable)
            run.diags += found
            draft.when = expr
            draft.when_checked = condition


def _parse_program(run: Run, draft: Draft, text: str, refs, names,
                   unreadable: Mapping[str, Sequence[str]] | None) -> ast.Program | None:
    """The effect's program; with syntax errors, what did parse is still checked (and None returned)."""
    parsed = parse_effect_recovering(text, draft.loc.origin(("effect",)))
    run.diags += parsed.diags
    counters = _counters(run, draft)
    params = _params(run, draft, counters)
    draft.starts = _counter_starts(run, draft, counters, params, refs, names, unreadable)
    assert draft.kind is not None            # check_effects checks only cards of a kind
    draft.checked, found = check_effect(parsed, draft.kind, refs, draft.file, card_names=names,
                                        unreadable=unreadable, counters=counters, params=params)
    run.diags += found
    if not parsed.diags and parsed.program is not None and not any(d.severity == "error" for d in found):
        _bots_cannot_read(run, draft, parsed.program)
    if draft.checked is not None:
        _unread_params(run, draft, params, draft.checked)
    return parsed.program if not parsed.diags else None


def _bots_cannot_read(run: Run, draft: Draft, program: ast.Program) -> None:
    """RK244: what of a policy or advisor the greedy bots cannot value from the text (they play by it)."""
    if draft.kind not in ("policy", "advisor") or draft.status == "tbd":
        return
    from rulekit.agents.estimate import unreadable_in

    found = unreadable_in(program, draft.starts)
    if not found:
        return
    then = ("in play they measure it by a short lookahead instead" if draft.kind == "policy"
            else "choosing an advisor, they count that part as worth nothing")
    first = found[0].pos
    run.report(R.BOTS_CANNOT_READ, f"the bots cannot value this card from its text: {'; '.join(map(str, found))}; {then}",
               draft.file, first.line, first.col, end=(first.end_line, first.end_col))


def _counters(run: Run, draft: Draft) -> list[str]:
    """The names of the numbers a card keeps (`counters:`); a name the language already uses is an error."""
    from rulekit.language.checker import RESERVED

    given = draft.data.get("counters")
    if not isinstance(given, dict):
        return []
    names = []
    for name in given:
        if name in RESERVED:
            span = draft.loc.key_span(("counters", name))
            run.report(R.COUNTER_NAME, f"'{name}' cannot name a counter: it is {RESERVED[name]}", draft.file,
                       span.line if span else draft.line, span.col if span else 0,
                       hint="choose another name, such as 'charges'")
        else:
            names.append(name)
    return names


def _counter_starts(run: Run, draft: Draft, counters: Sequence[str], params: Mapping[str, int], refs, names,
                    unreadable: Mapping[str, Sequence[str]] | None) -> tuple[tuple[str, Checked], ...]:
    """The counters whose first value is an expression (`counters: {start_dead: "= count(dead)"}`), each
    parsed at its own place in the file and checked as a number read for the card's owner; reading a
    counter there is RK270 (none has a value yet when the card enters play)."""
    given = draft.data.get("counters")
    if not isinstance(given, dict) or draft.kind is None:
        return ()
    out = []
    for name, value in given.items():
        if not isinstance(value, str) or name not in counters:
            continue
        origin = draft.loc.origin(("counters", name))
        text = value.lstrip()
        if text.startswith("="):
            skipped = len(value) - len(text) + 1
            text = text[1:]
            origin = type(origin)(origin.file, origin.line, origin.col + skipped, origin.indent)
        where = f"the first value of the counter '{name}'"
        expr, found = parse_expression(text, origin)
        run.diags += found
        if expr is None:
            continue
        read = [n for n in (expr, *expr.find_all(ast.Name)) if isinstance(n, ast.Name) and n.name in counters]
        for n in read:
            run.report(R.COUNTER_START, f"{where} cannot read the counter '{n.name}': no counter has a value yet "
                       "when the card enters play", draft.file, n.pos.line, n.pos.col,
                       hint="work it out from the tracks, counts and `params:` instead", end=(n.pos.end_line, n.pos.end_col))
        checked_start, found = check_start(expr, draft.file, refs, where, kind=draft.kind, counters=counters,
                                           params=params, card_names=names, unreadable=unreadable)
        run.diags += found
        if checked_start is not None and not read:
            out.append((name, checked_start))
    return tuple(out)


def _params(run: Run, draft: Draft, counters: Sequence[str]) -> dict[str, int]:
    """The numbers a card names (`params:`), read by its effect as constants; a name the language already
    uses, or one of the card's counters, is an error (RK246)."""
    given = draft.data.get("params")
    if not isinstance(given, dict):
        return {}
    params = {}
    for name, value in given.items():
        why = (RESERVED.get(name) or ("a card's value inside `count(played where …)`" if name in registry.CARD_VALUES
                                      else "also a number this card keeps (`counters:`)" if name in counters else None))
        if why is not None:
            span = draft.loc.key_span(("params", name))
            run.report(R.PARAM_NAME, f"'{name}' cannot name a parameter: it is {why}", draft.file,
                       span.line if span else draft.line, span.col if span else 0,
                       hint="choose another name, such as 'gain' or 'amount'", end=_end(span))
        elif isinstance(value, int) and not isinstance(value, bool):
            params[name] = value
    return params


def _unread_params(run: Run, draft: Draft, params: Mapping[str, int], checked: Checked) -> None:
    """RK247: a parameter the effect never reads (a misspelt name, or one left over from an older effect)."""
    read = {m.name for node, m in checked.meaning.items() if m.kind == "param" and isinstance(node, ast.Name)}
    for name in params:
        if name not in read:
            span = draft.loc.key_span(("params", name))
            run.report(R.PARAM_UNREAD, f"the effect never reads the parameter '{name}', so changing it changes nothing",
                       draft.file, span.line if span else draft.line, span.col if span else 0,
                       hint=f"use `{name}` in the effect, or remove it from `params:`", end=_end(span))


# ---- rules and cards ------------------------------------------------------------------------------

def _in_deck(draft: Draft, include_tbd: bool, only_designed: bool) -> bool:
    if draft.status == "tbd":
        return include_tbd
    return not (only_designed and draft.status == "proposed")


def cards_of(run: Run, include_tbd: bool, only_designed: bool) -> list[Card]:
    return [_card(d) for d in run.drafts if d.valid and _in_deck(d, include_tbd, only_designed)]


def _card(d: Draft) -> Card:
    data = d.data
    stage = data.get("stage") if d.kind == "policy" else None
    assert d.kind is not None and d.id is not None and d.name is not None      # a valid draft has them
    return Card(
        kind=d.kind, id=d.id, name=d.name, status=d.status,
        flavor=data.get("flavor"), notes=data.get("notes"),
        effect=None if d.status == "tbd" else d.program,
        when=d.when if d.kind == "combo" else None,
        stage=int(stage) if stage is not None else None,
        price=_price(data.get("price")),
        copies=int(data.get("copies", _default_copies(d.kind, stage))),
        score=int(data.get("score", 0)),
        duration=data.get("duration", "lasting"),
        counters=tuple((str(k), v if isinstance(v, int) else 0) for k, v in (data.get("counters") or {}).items()),
        starts=d.starts,
        params=tuple((str(k), int(v)) for k, v in (data.get("params") or {}).items()),
        checked=_checked(d),
        switchable=bool(data.get("switchable", False)),
        file=d.file, line=d.line,
        effect_text=_text(data.get("effect")), when_text=_text(data.get("when")) if d.kind == "combo" else None,
    )


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _checked(d: Draft) -> Checked | None:
    """The card's effect and `when:` as the checker passed them, as one Checked."""
    effect = d.checked if d.status != "tbd" else None
    condition = d.when_checked if d.kind == "combo" else None
    if effect is None and condition is None:
        return None
    if condition is None:
        return effect
    if effect is None:
        return condition
    return Checked(effect.program, condition.condition, {**effect.meaning, **condition.meaning},
                   effect.reads | condition.reads, effect.counters)


def _price(value: Any) -> tuple[int, ...]:
    if value is None:
        return ()
    if isinstance(value, list):
        return tuple(int(v) for v in value)
    return (int(value),)


def _default_copies(kind: str, stage: int | None) -> int:
    if kind == "policy" and stage is not None:
        return STAGE_COPIES.get(int(stage), 1)
    return EVENT_COPIES


def _end(span) -> tuple[int, int] | None:
    return (span.end_line, span.end_col) if span else None


# ---- whole-folder checks ------------------------------------------------------------------------------

def folder_checks(run: Run, cards: list[Card], rules: dict[str, Any],
                   include_tbd: bool, only_designed: bool) -> None:
    where = str(run.root) if run.root else ""
    absent = _absent(run, include_tbd, only_designed)
    for d in run.drafts:
        if d.kind == "combo" and d.when is not None and d.valid and _in_deck(d, include_tbd, only_designed):
            _never_fires(run, d, absent)
    # Counting cards means little with none, or while some cannot be read (they are reported first).
    if run.holds_cards and not unreadable_files(run):
        _stage_sizes(run, cards, rules, where)
        _advisor_draft(run, cards, rules, where)
    proposed = sum(1 for d in run.drafts if d.kind and d.status == "proposed")
    tbd = sum(1 for d in run.drafts if d.kind and d.status == "tbd")
    if proposed:
        count = f"{proposed} proposed cards await" if proposed != 1 else "1 proposed card awaits"
        run.report(R.PROPOSED_CARDS, f"{count} the designer's decision ({_listed(where, 'proposed', proposed)})", where)
    if tbd:
        count = f"{tbd} cards are" if tbd != 1 else "1 card is"
        run.report(R.TBD_CARDS, f"{count} marked tbd (no effect yet, left out of the decks; {_listed(where, 'tbd', tbd)})",
                   where)


def _listed(where: str, status: str, count: int) -> str:
    """How to see the cards a count note counts."""
    return f"`rulekit lint {where or '.'} --list {status}` names {'them' if count != 1 else 'it'}"


def _absent(run: Run, include_tbd: bool, only_designed: bool) -> dict[str, str]:
    """Cards that exist but are never in play, by id and by name: why."""
    absent: dict[str, str] = {}
    present: set[str] = set()
    for d in run.drafts:
        if d.kind not in ("policy", "event"):
            continue
        why = None
        if not _in_deck(d, include_tbd, only_designed):
            why = "is tbd" if d.status == "tbd" else "is proposed, and only designed cards are in the decks"
        elif d.data.get("copies") == 0:
            why = "has 0 copies"
        for ref in (d.id, d.name):
            if ref and why:
                absent.setdefault(ref, why)
            elif ref:
                present.add(ref)
    return {ref: why for ref, why in absent.items() if ref not in present}


def _stage_sizes(run: Run, cards: list[Card], rules: dict[str, Any], where: str) -> None:
    players = rules["players"] if isinstance(rules.get("players"), int) else registry.DEFAULT_RULES["players"]
    for stage in (1, 2, 3):
        total = sum(c.copies for c in cards if c.kind == "policy" and c.stage == stage)
        if total < players:
            run.report(R.SMALL_STAGE, f"stage {stage} has {total} card{'s' if total != 1 else ''} (copies counted) "
                                f"for {players} players", where, hint="add cards or copies to this stage")


def _advisor_draft(run: Run, cards: list[Card], rules: dict[str, Any], where: str) -> None:
    players = rules["players"] if isinstance(rules.get("players"), int) else registry.DEFAULT_RULES["players"]
    advisors = sum(1 for c in cards if c.kind == "advisor")
    if advisors < ADVISORS_DEALT * players:
        run.report(R.FEW_ADVISORS, f"the draft deals {ADVISORS_DEALT} advisors to each of {players} players, but there "
                            f"{'is' if advisors == 1 else 'are'} {advisors}: some players get fewer, or none",
                   where, hint=f"write at least {ADVISORS_DEALT * players} advisors, or set fewer `players:` in rules.yaml")


def _never_fires(run: Run, draft: Draft, absent: Mapping[str, str]) -> None:
    """Warn when the condition cannot be true because a card it needs is never in play."""
    missing: list[ast.Str] = []
    if draft.when is None or True in _can_be(draft.when, absent, missing):
        return
    span = draft.loc.span(("when",))
    reasons = "; ".join(f"'{s.value}' {absent[s.value]}" for s in missing)
    run.report(R.COMBO_NEVER_FIRES, f"this combo can never fire: {reasons}", draft.file,
               span.line if span else draft.line, span.col if span else 0,
               hint="give the card copies or an effect, or change the combo's `when:`")


def _can_be(e: ast.Expr, absent: Mapping[str, str], missing: list[ast.Str]) -> set[bool]:
    """The truth values a condition can take, given which cards are never in play."""
    if isinstance(e, ast.Not):
        return {not v for v in _can_be(e.operand, absent, missing)}
    if isinstance(e, ast.BoolOp):
        left, right = _can_be(e.left, absent, missing), _can_be(e.right, absent, missing)
        if e.op == "and":
            return {a and b for a in left for b in right}
        return {a or b for a in left for b in right}
    if isinstance(e, ast.Call) and e.func in ("played", "event", "happened") and len(e.args) == 1:
        arg = e.args[0]
        if isinstance(arg, ast.Str) and arg.value in absent:
            missing.append(arg)
            return {False}
    return {True, False}
