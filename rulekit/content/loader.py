"""A content folder -> checked Content: YAML with positions, schemas, effects parsed and checked, folder checks."""

from __future__ import annotations

import hashlib

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulekit.content.model import Card, Content
from rulekit.content.rules import DEFAULT_RULES, check_rules, merge_rules, rules_located
from rulekit.content.schema import validate
from rulekit.content.yamlpos import Located, read_yaml
from rulekit.language import ast
from rulekit.language.checker import CODES, check_condition, check_program
from rulekit.language.diagnostics import ContentError, Diagnostic
from rulekit.language.parser import parse_effect, parse_expression

KIND_FOLDERS: dict[str, str] = {"advisors": "advisor", "policies": "policy", "events": "event", "combos": "combo"}
YAML_SUFFIXES = (".yaml", ".yml")
STAGE_COPIES = {1: 3, 2: 2, 3: 1}      # rules.md 7: default copies of a policy by stage
ExtraCard = tuple[Located | Mapping[str, Any], str]


@dataclass
class _Draft:
    """One card as read, before it becomes a Card: its data, positions and what was found."""

    kind: str | None
    loc: Located
    file: str
    valid: bool = True                  # metadata passed the schema
    program: ast.Program | None = None
    when: ast.Expr | None = None

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
class _Run:
    """Everything one load gathers: cards, rules, diagnostics."""

    root: Path | None
    drafts: list[_Draft] = field(default_factory=list)
    rules_loc: Located | None = None
    diags: list[Diagnostic] = field(default_factory=list)

    def report(self, code: str, message: str, file: str = "", line: int = 0, col: int = 0,
               hint: str | None = None, end: tuple[int, int] | None = None) -> None:
        end_line, end_col = end or (line, col + 1 if col else 0)
        self.diags.append(Diagnostic(code, CODES[code][0], message, file, line, col, end_line, end_col, hint))


# ---- public API --------------------------------------------------------------------------

def load_content(path: str | Path, *, include_tbd: bool = False, only_designed: bool = False,
                 extra_cards: Sequence[ExtraCard] | None = None) -> Content:
    """The checked content of a folder (plus a scenario's extra cards); ContentError if it has errors."""
    content, diags = _load(Path(path), [], list(extra_cards or ()), include_tbd, only_designed)
    errors = [d for d in diags if d.severity == "error"]
    if errors or content is None:
        raise ContentError(errors)
    return content


def check_paths(paths: Iterable[str | Path]) -> tuple[Content | None, list[Diagnostic]]:
    """Every diagnostic (errors, warnings, info) for content folders, kind folders or single files.

    A file or kind folder is checked within its whole content folder, so references to other
    cards resolve; only the diagnostics of what was asked for are returned.
    """
    roots, loose, wanted, diags = resolve_paths(paths)
    first: Content | None = None
    for i, root in enumerate(roots or ([None] if loose else [])):
        content, found = _load(root, loose if i == 0 else [], [], False, False)
        diags += [d for d in found if _asked(d, root, wanted)]
        if i == 0:
            first = content
    has_errors = any(d.severity == "error" for d in diags)
    return (None if has_errors else first), sorted(diags, key=Diagnostic.sort_key)


def resolve_paths(paths: Iterable[str | Path]) -> tuple[list[Path], list[Path], list[Path], list[Diagnostic]]:
    """The content folders to check, the loose files outside any, what was asked for, and RK008s."""
    roots: list[Path] = []
    loose: list[Path] = []
    wanted: list[Path] = []
    diags: list[Diagnostic] = []
    for raw in paths:
        p = Path(raw)
        if not p.exists():
            diags.append(Diagnostic("RK008", "error", "no such file or folder", str(p)))
            continue
        wanted.append(p.resolve())
        root = _root_of(p)
        if root is None:
            loose.append(p)
        elif root not in roots:
            roots.append(root)
    return roots, loose, wanted, diags


def _asked(d: Diagnostic, root: Path | None, wanted: list[Path]) -> bool:
    target = Path(d.file).resolve() if d.file else (root.resolve() if root else None)
    if target is None:
        return True
    return any(target == w or w in target.parents for w in wanted)


def _root_of(p: Path) -> Path | None:
    """The content folder a path belongs to (None: a file outside any content layout)."""
    if p.is_dir():
        return p.parent if p.name in KIND_FOLDERS else p
    if p.name == "rules.yaml":
        return p.parent
    for parent in p.parents:
        if parent.name in KIND_FOLDERS:
            return parent.parent
    return None


# ---- one load -----------------------------------------------------------------------------

def _load(root: Path | None, loose: list[Path], extras: list[ExtraCard],
          include_tbd: bool, only_designed: bool) -> tuple[Content | None, list[Diagnostic]]:
    run = _Run(root)
    if root is not None:
        _read_root(run, root)
    for p in loose:
        _read_file(run, p, None, str(p))
    for i, extra in enumerate(extras):
        _read_extra(run, extra, i)
    for draft in run.drafts:
        _validate(run, draft)
    refs, names = _references(run)
    for draft in run.drafts:
        _check_effects(run, draft, refs, names)
    rules = _rules(run, refs, names)
    cards = _cards(run, include_tbd, only_designed)
    _folder_checks(run, cards, rules, include_tbd, only_designed)
    diags = sorted(run.diags, key=Diagnostic.sort_key)
    if any(d.severity == "error" for d in diags):
        return None, diags
    return Content(tuple(cards), rules, str(root) if root else ""), diags


def _read_root(run: _Run, root: Path) -> None:
    if not root.is_dir():
        run.report("RK008", "no such content folder", str(root))
        return
    rules_file = root / "rules.yaml"
    if rules_file.is_file():
        run.rules_loc, found = rules_located(rules_file, str(rules_file))
        run.diags += found
    for p in _yaml_files(root):
        rel = p.relative_to(root)
        kind = KIND_FOLDERS.get(rel.parts[0]) if len(rel.parts) > 1 else None
        if kind is not None:
            _read_file(run, p, kind, str(p))
        elif p != rules_file:
            run.report("RK007", "this YAML file is outside advisors/, policies/, events/ and combos/, so it is ignored",
                       str(p), hint="move it into the folder of its kind")


def _yaml_files(root: Path) -> list[Path]:
    found = []
    for p in sorted(root.rglob("*")):
        rel = p.relative_to(root)
        if any(part.startswith(".") for part in rel.parts):
            continue
        if p.is_file() and p.suffix.lower() in YAML_SUFFIXES:
            found.append(p)
    return found


def _read_file(run: _Run, path: Path, kind: str | None, file: str) -> None:
    loc, found = read_yaml(path, file)
    run.diags += found
    if loc is None:
        return
    if loc.data is None:
        run.report("RK004", "this file is empty", file, hint="write a card (a mapping) or a list of cards")
        return
    if isinstance(loc.data, dict):
        _add_card(run, loc, kind, file)
    elif isinstance(loc.data, list):
        for i in range(len(loc.data)):
            _add_card(run, loc.sub((i,)), kind, file)
    else:
        span = loc.span(())
        run.report("RK006", "a card file holds a card (a mapping with id, name, …) or a list of cards",
                   file, span.line if span else 1, span.col if span else 1)


def _read_extra(run: _Run, extra: ExtraCard, index: int) -> None:
    obj, file = extra
    loc = obj if isinstance(obj, Located) else Located.plain(obj, file)
    if loc.file != file:
        loc = Located(loc.data, file, loc.values, loc.keys)
    if isinstance(loc.data, dict) and "name" not in loc.data and isinstance(loc.data.get("id"), str):
        loc = Located({**loc.data, "name": loc.data["id"]}, loc.file, loc.values, loc.keys)
    _add_card(run, loc, None, file)


def _add_card(run: _Run, loc: Located, folder_kind: str | None, file: str) -> None:
    span = loc.span(())
    line, col = (span.line, span.col) if span else (0, 0)
    if not isinstance(loc.data, dict):
        run.report("RK006", "each card is a mapping of fields (id, name, effect, …)", file, line, col)
        return
    kind = _kind_of(run, loc, folder_kind, file)
    run.drafts.append(_Draft(kind, loc, file, valid=kind is not None))


def _kind_of(run: _Run, loc: Located, folder_kind: str | None, file: str) -> str | None:
    given = loc.data.get("kind")
    span = loc.span(("kind",)) if "kind" in loc.data else loc.span(())
    line, col = (span.line, span.col) if span else (0, 0)
    if given is None:
        if folder_kind is None:
            run.report("RK013", "this card needs a `kind:` (advisor, policy, event or combo)", file, line, col,
                       hint="or put the file in advisors/, policies/, events/ or combos/")
        return folder_kind
    if given not in KIND_FOLDERS.values():
        run.report("RK013", f"unknown kind '{given}'", file, line, col, hint="kind: advisor, policy, event or combo")
        return None
    if folder_kind is not None and given != folder_kind:
        run.report("RK013", f"this card says `kind: {given}`, but it is in the folder of {folder_kind} cards",
                   file, line, col, hint="move the card, or fix its kind")
        return None
    return given


def _validate(run: _Run, draft: _Draft) -> None:
    if draft.kind is None:
        return
    found = validate(draft.loc, draft.kind)
    run.diags += found
    draft.valid = not found and draft.id is not None and draft.name is not None


# ---- references -----------------------------------------------------------------------------

def _references(run: _Run):
    """Duplicate ids and names, and the lookup card references use: (kind, id-or-name) -> exists."""
    by_id: dict[str, _Draft] = {}
    by_name: dict[tuple[str, str], _Draft] = {}
    for d in run.drafts:
        if d.kind is None:
            continue
        if d.id is not None:
            _first(run, by_id, d.id, d, "id", d.loc.span(("id",)))
        if d.name is not None:
            _first(run, by_name, (d.kind, d.name), d, "name", d.loc.span(("name",)))
    known: dict[str, set[str]] = {}
    for d in run.drafts:
        if d.kind is not None:
            known.setdefault(d.kind, set()).update(x for x in (d.id, d.name) if x)
    names = {k: sorted(v) for k, v in sorted(known.items())}

    def exists(kind: str, ref: str) -> bool:
        return ref in known.get(kind, ())

    return exists, names


def _first(run: _Run, seen: dict, key, draft: _Draft, what: str, span) -> None:
    first = seen.setdefault(key, draft)
    if first is draft:
        return
    code = "RK301" if what == "id" else "RK302"
    value = key if what == "id" else key[1]
    scope = "" if what == "id" else f" among the {draft.kind} cards"
    run.report(code, f"the {what} '{value}' is used twice{scope}: first in {first.file}:{first.line}",
               draft.file, span.line if span else draft.line, span.col if span else 0,
               hint=f"every card needs its own {what}", end=(span.end_line, span.end_col) if span else None)


# ---- effects ---------------------------------------------------------------------------------

def _check_effects(run: _Run, draft: _Draft, refs, names) -> None:
    if draft.kind is None:
        return
    effect = draft.data.get("effect")
    if isinstance(effect, str) and effect.strip():
        if draft.status == "tbd":
            span = draft.loc.key_span(("effect",))
            run.report("RK014", "this card is `status: tbd`, so its effect is ignored", draft.file,
                       span.line if span else 0, span.col if span else 0,
                       hint="mark it `status: proposed` (or remove `status`) to use the effect")
        draft.program = _parse_program(run, draft, effect, refs, names)
    when = draft.data.get("when")
    if draft.kind == "combo" and isinstance(when, str) and when.strip():
        expr, found = parse_expression(when, draft.loc.origin(("when",)))
        run.diags += found
        if expr is not None:
            run.diags += check_condition(expr, draft.file, refs, "the combo's `when:`", card_names=names)
            draft.when = expr


def _parse_program(run: _Run, draft: _Draft, text: str, refs, names) -> ast.Program | None:
    program, found = parse_effect(text, draft.loc.origin(("effect",)))
    run.diags += found
    if program is None or found:
        return None
    run.diags += check_program(program, draft.kind, refs, draft.file, card_names=names)
    return program


# ---- rules and cards ------------------------------------------------------------------------------

def _rules(run: _Run, refs, names) -> dict[str, Any]:
    loc = run.rules_loc
    run.diags += check_rules(loc, refs, card_names=names)
    data = loc.data if loc is not None and isinstance(loc.data, dict) else {}
    return merge_rules(DEFAULT_RULES, data)


def _in_deck(draft: _Draft, include_tbd: bool, only_designed: bool) -> bool:
    if draft.status == "tbd":
        return include_tbd
    return not (only_designed and draft.status == "proposed")


def _cards(run: _Run, include_tbd: bool, only_designed: bool) -> list[Card]:
    return [_card(d) for d in run.drafts if d.valid and _in_deck(d, include_tbd, only_designed)]


def _card(d: _Draft) -> Card:
    data = d.data
    stage = data.get("stage") if d.kind == "policy" else None
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
        switchable=bool(data.get("switchable", False)),
        file=d.file, line=d.line,
    )


def _price(value: Any) -> tuple[int, ...]:
    if value is None:
        return ()
    if isinstance(value, list):
        return tuple(int(v) for v in value)
    return (int(value),)


def _default_copies(kind: str, stage: int | None) -> int:
    if kind == "policy" and stage is not None:
        return STAGE_COPIES.get(int(stage), 1)
    return 1


# ---- whole-folder checks ------------------------------------------------------------------------------

def _folder_checks(run: _Run, cards: list[Card], rules: dict[str, Any],
                   include_tbd: bool, only_designed: bool) -> None:
    where = str(run.root) if run.root else ""
    absent = _absent(run, include_tbd, only_designed)
    for d in run.drafts:
        if d.kind == "combo" and d.when is not None and d.valid and _in_deck(d, include_tbd, only_designed):
            _never_fires(run, d, absent)
    _stage_sizes(run, cards, rules, where)
    proposed = sum(1 for d in run.drafts if d.kind and d.status == "proposed")
    tbd = sum(1 for d in run.drafts if d.kind and d.status == "tbd")
    if proposed:
        run.report("RK305", (f"{proposed} proposed cards await the designer's decision" if proposed != 1
                    else "1 proposed card awaits the designer's decision"), where)
    if tbd:
        run.report("RK306", f"{tbd} card{'s are' if tbd != 1 else ' is'} marked tbd (no effect yet, left out of the decks)",
                   where)


def _absent(run: _Run, include_tbd: bool, only_designed: bool) -> dict[str, str]:
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


def _stage_sizes(run: _Run, cards: list[Card], rules: dict[str, Any], where: str) -> None:
    players = rules.get("players", 4) if isinstance(rules.get("players"), int) else 4
    for stage in (1, 2, 3):
        total = sum(c.copies for c in cards if c.kind == "policy" and c.stage == stage)
        if total < players:
            run.report("RK304", f"stage {stage} has {total} card{'s' if total != 1 else ''} (copies counted) "
                                f"for {players} players", where, hint="add cards or copies to this stage")


def _never_fires(run: _Run, draft: _Draft, absent: Mapping[str, str]) -> None:
    """Warn when the condition cannot be true because a card it needs is never in play."""
    missing: list[ast.Str] = []
    if True in _can_be(draft.when, absent, missing):
        return
    span = draft.loc.span(("when",))
    reasons = "; ".join(f"'{s.value}' {absent[s.value]}" for s in missing)
    run.report("RK303", f"this combo can never fire: {reasons}", draft.file,
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


def content_fingerprint(root: str | Path) -> str:
    """sha256 over the content's YAML files (path and bytes, in path order): any edit to a card or rule changes it."""
    root = Path(root)
    h = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file() and p.suffix in (".yaml", ".yml")):
        rel = path.relative_to(root)
        if any(part.startswith(".") or part == "__pycache__" for part in rel.parts):
            continue
        h.update(rel.as_posix().encode() + b"\0")
        h.update(path.read_bytes() + b"\0")
    return h.hexdigest()
