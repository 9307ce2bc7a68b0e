"""A content folder -> checked Content: YAML with positions, schemas, effects parsed and checked, folder checks."""

from __future__ import annotations

import errno
import hashlib
import os
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulekit import registry
from rulekit.content.model import Card, Content
from rulekit.content.rules import (DEFAULT_RULES, DEFAULT_SOURCE, UNLOCK_STAGES, default_unlock, merge_rules,
                                   read_rules)
from rulekit.content.schema import validate
from rulekit.content.yamlpos import Located, parse_bytes, read_bytes
from rulekit.language import ast
from rulekit.language.checker import CODES, RESERVED, Checked, check_effect, check_expression
from rulekit.language.diagnostics import ContentError, Diagnostic
from rulekit.language.parser import parse_effect_recovering, parse_expression

KIND_FOLDERS: dict[str, str] = {"advisors": "advisor", "policies": "policy", "events": "event", "combos": "combo"}
YAML_SUFFIXES = (".yaml", ".yml")       # in any case: .YAML and .Yml are read too
SKIPPED_FOLDERS = ("__pycache__",)      # and every name starting with '.'
SCENARIO_FOLDER = "scenarios"          # directly in a content folder: the designer's scenario files, not cards
SCENARIO_SUFFIX = ".scenario.yaml"
STAGE_COPIES = {1: 3, 2: 2, 3: 1}      # docs/rules.md: default copies of a policy by stage
EVENT_COPIES = 1
ADVISORS_DEALT = 2                      # each player draws 2 advisors and keeps 1
FOLDER_HOLDS = ("a content folder holds rules.yaml and the cards, as YAML files in advisors/, policies/, "
                "events/ and combos/")
# Problems after which a file's cards are unknown: a missing card may be one of them.
UNREADABLE_CODES = ("RK001", "RK002", "RK003", "RK005", "RK006", "RK016", "RK017")
ExtraCard = tuple[Located | Mapping[str, Any], str]


@dataclass(frozen=True)
class Listing:
    """The files that make up a content folder, the folders that could not be read, and the links
    that are not followed (each with why)."""

    files: tuple[Path, ...]
    unreadable: tuple[tuple[Path, str], ...] = ()
    links: tuple[tuple[Path, str], ...] = ()


def content_files(root: str | Path) -> Listing:
    """The one list of the files that make up a content folder, for the loader, the linter and the
    fingerprint alike: every YAML file (.yaml or .yml, in any case) in every folder below root,
    leaving out names that start with '.', __pycache__, and root's own scenarios/ folder (scenario
    files are run by `rulekit test`; editing one changes no card), sorted by their path inside root.

    A link (symlink) is followed when it leads to a file or folder inside the content folder, and
    read under its own name; a link that leads outside it, to nothing, or round in a loop is not,
    and is listed in `links` with why, so that no card goes missing unsaid.
    """
    walk = _Walk(Path(root))
    walk.run()

    def place(item: tuple[Path, str]) -> tuple[str, ...]:
        return item[0].relative_to(walk.root).parts

    files = sorted(walk.files, key=lambda p: p.relative_to(walk.root).parts)
    return Listing(tuple(files), tuple(sorted(walk.unreadable, key=place)), tuple(sorted(walk.links, key=place)))


class _Walk:
    """One walk of a content folder: folders below it, and the links inside it, followed once each."""

    def __init__(self, root: Path):
        self.root = root
        self.top = Path(os.path.realpath(root))
        self.files: list[Path] = []
        self.unreadable: list[tuple[Path, str]] = []
        self.links: list[tuple[Path, str]] = []
        self.linked: dict[Path, Path] = {}       # a folder a link leads to -> that link (each is followed once)

    def run(self) -> None:
        # Each folder to list, with the real folders on the way down to it (a link back to one loops).
        folders: list[tuple[Path, tuple[Path, ...]]] = [(self.root, (self.top,))]
        while folders:
            folder, chain = folders.pop()
            try:
                with os.scandir(folder) as it:
                    entries = sorted(it, key=lambda e: e.name)
            except OSError as err:
                self.unreadable.append((folder, err.strerror or str(err)))
                continue
            for entry in entries:
                if entry.name.startswith(".") or entry.name in SKIPPED_FOLDERS:
                    continue
                if folder == self.root and entry.name == SCENARIO_FOLDER:
                    continue
                path = Path(entry.path)
                try:
                    if entry.is_symlink():
                        self.link(path, chain, folders)
                    elif entry.is_dir(follow_symlinks=False):
                        folders.append((path, chain + (chain[-1] / entry.name,)))
                    elif entry.is_file(follow_symlinks=False) and _is_yaml(path):
                        self.files.append(path)
                except OSError as err:
                    self.unreadable.append((path, err.strerror or str(err)))

    def link(self, path: Path, chain: tuple[Path, ...], folders: list) -> None:
        try:
            os.stat(path)
        except OSError as err:
            if _is_yaml(path) or not path.suffix:        # a card file, or perhaps a folder of them
                self.links.append((path, _broken_link(path, err)))
            return
        target = Path(os.path.realpath(path))
        if not target.is_dir():
            if _is_yaml(path):
                self.follow_file(path, target)
            return
        if target != self.top and self.top not in target.parents:
            self.links.append((path, _outside(target)))
        elif any(target == c or target in c.parents for c in chain):
            self.links.append((path, f"this link (symlink) leads to {target}, a folder that holds the link "
                                     "itself: following it would go round in a loop"))
        elif target in self.linked:
            self.links.append((path, f"this link (symlink) leads to {target}, which the link {self.linked[target]} "
                                     "already leads to: rulekit follows one link to each folder"))
        else:
            self.linked[target] = path
            folders.append((path, chain + (target,)))

    def follow_file(self, path: Path, target: Path) -> None:
        if self.top in target.parents:
            self.files.append(path)
        else:
            self.links.append((path, _outside(target)))


def _outside(target: Path) -> str:
    return (f"this link (symlink) leads outside the content folder, to {target}: rulekit reads only what is "
            "inside the content folder")


def _is_yaml(path: Path) -> bool:
    return path.suffix.lower() in YAML_SUFFIXES


def _broken_link(path: Path, err: OSError) -> str:
    if err.errno == errno.ELOOP:
        return "this link (symlink) leads round in a loop: to itself, or to links that lead back to it"
    try:
        to = os.readlink(path)
    except OSError:
        to = "?"
    if err.errno == errno.ENOENT:
        return f"this link (symlink) leads to {to}, which does not exist"
    return f"cannot follow this link (symlink) to {to}: {err.strerror or err}"


def scenario_owner(path: str | Path) -> Path | None:
    """The content folder whose scenarios/ folder is or holds path (None: path is in no such folder)."""
    path = Path(path)
    near = [path, *path.parents] if path.is_dir() else list(path.parents)
    for folder in near + [p for p in path.absolute().parents if p not in near]:
        if folder.name == SCENARIO_FOLDER and (folder.parent / "rules.yaml").is_file():
            return folder.parent
    return None


@dataclass
class _Draft:
    """One card as read, before it becomes a Card: its data, positions and what was found."""

    kind: str | None
    loc: Located
    file: str
    valid: bool = True                  # metadata passed the schema
    program: ast.Program | None = None
    when: ast.Expr | None = None
    checked: Checked | None = None          # the effect, as the checker passed it
    when_checked: Checked | None = None     # a combo's `when:`, as the checker passed it

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
    asked: list[Path] = field(default_factory=list)      # what a lint asked for (its duplicates come second)
    holds_cards: bool = True                                # False: a content folder without any card file
    read: dict[Path, bytes] = field(default_factory=dict)   # every file's bytes as read and parsed: the fingerprint
    replaced: Mapping[Path, bytes] = field(default_factory=dict)    # files taken as these bytes, not read from disk

    def report(self, code: str, message: str, file: str = "", line: int = 0, col: int = 0,
               hint: str | None = None, end: tuple[int, int] | None = None) -> None:
        end_line, end_col = end or (line, col + 1 if col else 0)
        self.diags.append(Diagnostic(code, CODES[code][0], message, file, line, col, end_line, end_col, hint))


# ---- public API --------------------------------------------------------------------------

def load_content(path: str | Path, *, include_tbd: bool = False, only_designed: bool = False,
                 extra_cards: Sequence[ExtraCard] | None = None, replaced: Mapping[Path, bytes] | None = None) -> Content:
    """The checked content of a folder (plus a scenario's extra cards); ContentError if it has errors.

    `replaced` gives files (by their path as the folder lists them: `Card.file`) as bytes that stand in for
    what is on disk: the content as it would be after an edit (`rulekit tune` loads each value it tries so).
    """
    content, diags = _load(Path(path), [], list(extra_cards or ()), include_tbd, only_designed, [], replaced or {})
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
        content, found = _load(root, loose if i == 0 else [], [], False, False, wanted)
        diags += [d for d in found if _asked(d, root, wanted)]
        if i == 0:
            first = content
    has_errors = any(d.severity == "error" for d in diags)
    return (None if has_errors else first), sorted(diags, key=Diagnostic.sort_key)


@dataclass(frozen=True)
class Marked:
    """A card still waiting for the designer (`status: proposed` or `tbd`): where it is written, what it is."""

    file: str
    line: int
    kind: str
    id: str | None
    name: str | None
    stage: int | None


def cards_marked(paths: Iterable[str | Path], status: str) -> tuple[list[Marked], list[Diagnostic]]:
    """The cards of the paths whose `status:` is the one given, in file order, and the errors of what could
    not be read (its cards are unknown). The files are only read, not checked: a card with a mistake is
    listed all the same."""
    roots, loose, wanted, diags = resolve_paths(paths)
    found: list[Marked] = []
    for i, root in enumerate(roots or ([None] if loose else [])):
        run = _Run(root, asked=wanted)
        card_files = layout(run, root)[1] if root is not None else []
        for p, kind in [*card_files, *((p, None) for p in (loose if i == 0 else []))]:
            _read_file(run, p, kind, str(p))
        diags += [d for d in run.diags if d.severity == "error" and d.code in (*UNREADABLE_CODES, "RK009")
                  and _asked(d, root, wanted)]
        for d in run.drafts:
            if d.kind and d.status == status and _within(Path(d.file).resolve(), wanted):
                stage = d.data.get("stage") if d.kind == "policy" else None
                found.append(Marked(d.file, d.line, d.kind, d.id, d.name, stage if isinstance(stage, int) else None))
    return found, sorted(diags, key=Diagnostic.sort_key)


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
        wanted.append(absolute(p))
        root = _root_of(p)
        if root is None:
            loose.append(p)
        elif root not in roots:
            roots.append(root)
    return roots, loose, wanted, diags


def _asked(d: Diagnostic, root: Path | None, wanted: list[Path]) -> bool:
    """Whether a diagnostic concerns what was asked for (a broken content folder concerns everything in it)."""
    if d.code == "RK009":
        return True
    target = absolute(Path(d.file)) if d.file else (absolute(root) if root else None)
    if target is None:
        return True
    return _within(target, wanted)


def absolute(p: Path) -> Path:
    """A path made absolute as written, links not resolved: a card read through a link is where the link is."""
    return Path(os.path.abspath(p))


def _within(target: Path, wanted: Sequence[Path]) -> bool:
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

def _load(root: Path | None, loose: list[Path], extras: list[ExtraCard], include_tbd: bool, only_designed: bool,
          asked: list[Path], replaced: Mapping[Path, bytes] | None = None) -> tuple[Content | None, list[Diagnostic]]:
    run = _Run(root, asked=asked, replaced=replaced or {})
    fingerprint = ""
    files: dict[str, str] = {}
    if root is not None:
        rules_file, card_files = layout(run, root)
        raw = _read_bytes(run, rules_file, str(rules_file)) if rules_file is not None else None
        if raw is not None:
            run.rules_loc, found = parse_bytes(raw, str(rules_file))
            run.diags += found
        for p, kind in card_files:
            _read_file(run, p, kind, str(p))
        fingerprint = _fingerprint(root, run.read)      # the content folder's files, before any loose one
        files = _file_digests(root, run.read)
    for p in loose:
        _read_file(run, p, None, str(p))
    for i, extra in enumerate(extras):
        _read_extra(run, extra, i)
    for draft in run.drafts:
        _validate(run, draft)
    refs, names = _references(run)
    unreadable = unreadable_files(run)
    for draft in run.drafts:
        _check_effects(run, draft, refs, names, unreadable)
    rules, unlock = _rules(run, refs, names, unreadable)
    cards = _cards(run, include_tbd, only_designed)
    _folder_checks(run, cards, rules, include_tbd, only_designed)
    diags = sorted(run.diags, key=Diagnostic.sort_key)
    if any(d.severity == "error" for d in diags):
        return None, diags
    sources = {stage: (run.rules_loc.file if stage in unlock else DEFAULT_SOURCE) for stage in UNLOCK_STAGES}
    return Content(tuple(cards), rules, str(root) if root else "", {**default_unlock(), **unlock}, sources,
                   fingerprint, files), diags


def layout(run: _Run, root: Path) -> tuple[Path | None, list[tuple[Path, str]]]:
    """A content folder's rules.yaml and card files (with their kind), reporting what is out of place:
    a missing folder or rules.yaml, no cards, folders that cannot be read, links not followed, YAML
    outside the kind folders."""
    if not root.is_dir():
        run.report("RK008", "no such content folder", str(root))
        return None, []
    listing = content_files(root)
    for folder, why in listing.unreadable:
        run.report("RK005", f"cannot read this folder: {why}", str(folder),
                   hint="let rulekit read it (its permissions), or move it out of the content folder")
    for link, why in listing.links:
        run.report("RK016", why, str(link), hint="copy the file or folder into the content folder in place of the "
                                                 "link, or mend the link")
    rules_file = root / "rules.yaml"
    has_rules = rules_file in listing.files
    cards: list[tuple[Path, str]] = []
    for p in listing.files:
        rel = p.relative_to(root)
        kind = KIND_FOLDERS.get(rel.parts[0]) if len(rel.parts) > 1 else None
        if kind is not None:
            cards.append((p, kind))
        elif p != rules_file:
            run.report("RK007", "this YAML file is outside advisors/, policies/, events/ and combos/, so it is ignored",
                       str(p), hint="move it into the folder of its kind")
    hint = FOLDER_HOLDS
    if root.name in KIND_FOLDERS:
        hint += f"; {root} looks like one of those kind folders: give the folder above it, {root.parent}"
    refused = {link for link, _ in listing.links}
    if not has_rules and rules_file not in refused:
        run.report("RK009", f"{root} is not a content folder: it has no rules.yaml", str(root), hint=hint)
    elif has_rules and not cards and not listing.unreadable and not listing.links:
        run.report("RK009", f"{root} is not a content folder: it holds no cards", str(root), hint=hint)
    run.holds_cards = bool(cards)
    return (rules_file if has_rules else None), cards


def unreadable_files(run: _Run) -> dict[str, list[str]]:
    """Card kind ('' when the file has none) -> the files and folders whose cards are unknown,
    because they cannot be read: a missing card may well be one of theirs."""
    out: dict[str, list[str]] = {}
    for d in run.diags:
        if d.code not in UNREADABLE_CODES or d.severity != "error" or not d.file:
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


def _read_bytes(run: _Run, path: Path, file: str) -> bytes | None:
    """A content file's bytes, read once: what is parsed and what the fingerprint covers."""
    raw, problem = (run.replaced[path], None) if path in run.replaced else read_bytes(path, file)
    if problem is not None:
        run.diags.append(problem)
        return None
    run.read[path] = raw
    return raw


def _read_file(run: _Run, path: Path, kind: str | None, file: str) -> None:
    raw = _read_bytes(run, path, file)
    if raw is not None:
        read_cards(run, raw, kind, file)


def read_cards(run: _Run, raw: bytes, kind: str | None, file: str) -> None:
    """The cards of one card file's bytes, as drafts of the run."""
    loc, found = parse_bytes(raw, file)
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
    found = validate(draft.loc, draft.kind) + _hidden_characters(draft)
    run.diags += found
    draft.valid = not found and draft.id is not None and draft.name is not None
    if draft.valid and draft.kind in ("policy", "event") and "copies" not in draft.data and draft.status != "tbd":
        copies = _default_copies(draft.kind, draft.data.get("stage"))
        what = f"a stage {draft.data['stage']} policy" if draft.kind == "policy" else "an event"
        span = draft.loc.key_span(("id",)) or draft.loc.span(())
        run.report("RK015", f"no `copies:`, so the deck holds {copies} (the default for {what})", draft.file,
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


def _hidden_characters(draft: _Draft) -> list[Diagnostic]:
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
        out.append(Diagnostic("RK018", CODES["RK018"][0], f"the {key} holds {_character(bad)}", draft.file,
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

def _references(run: _Run):
    """Duplicate ids and names, and the lookup card references use: (kind, id-or-name) -> exists.

    A duplicate is reported at its second occurrence, naming the first. When a lint asks for
    some files only, their cards count as the later ones, so a new card that takes an old
    card's id is the one reported, and the report shows when only the new file is linted.
    """
    by_id: dict[str, _Draft] = {}
    by_name: dict[tuple[str, str], _Draft] = {}
    order = run.drafts
    if run.asked:
        order = sorted(run.drafts, key=lambda d: _within(absolute(Path(d.file)), run.asked))
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


def _first(run: _Run, seen: dict, key, draft: _Draft, what: str, span) -> None:
    first = seen.setdefault(key, draft)
    if first is draft:
        return
    code = "RK301" if what == "id" else "RK302"
    value = draft.id if what == "id" else draft.name
    scope = "" if what == "id" else f" among the {draft.kind} cards"
    written = ""
    if what == "name" and first.name != draft.name:
        written = " (written with other Unicode characters that look the same)"
    run.report(code, f"the {what} '{value}' is used twice{scope}{written}: first in {first.file}:{first.line}",
               draft.file, span.line if span else draft.line, span.col if span else 0,
               hint=f"every card needs its own {what}", end=_end(span))


def _name_is_an_id(run: _Run, by_id: Mapping[str, _Draft], draft: _Draft) -> None:
    """RK308: a card named with another card's id — `played("hospital_expansion")` would mean either."""
    other = by_id.get(unicodedata.normalize("NFC", draft.name))
    if other is None or other is draft or other.id == draft.id:
        return
    span = draft.loc.span(("name",))
    run.report("RK308", f"the name '{draft.name}' is the id of another card, in {other.file}:{other.line}: "
                        f"a reference to '{draft.name}' would mean either card", draft.file,
               span.line if span else draft.line, span.col if span else 0,
               hint="give this card a name of its own", end=_end(span))


# ---- effects ---------------------------------------------------------------------------------

def _check_effects(run: _Run, draft: _Draft, refs, names, unreadable: Mapping[str, Sequence[str]] | None = None) -> None:
    if draft.kind is None:
        return
    effect = draft.data.get("effect")
    if isinstance(effect, str) and effect.strip():
        if draft.status == "tbd":
            span = draft.loc.key_span(("effect",))
            run.report("RK014", "this card is `status: tbd`, so its effect is ignored", draft.file,
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


def _parse_program(run: _Run, draft: _Draft, text: str, refs, names,
                   unreadable: Mapping[str, Sequence[str]] | None) -> ast.Program | None:
    """The effect's program; with syntax errors, what did parse is still checked (and None returned)."""
    parsed = parse_effect_recovering(text, draft.loc.origin(("effect",)))
    run.diags += parsed.diags
    counters = _counters(run, draft)
    params = _params(run, draft, counters)
    draft.checked, found = check_effect(parsed, draft.kind, refs, draft.file, card_names=names,
                                        unreadable=unreadable, counters=counters, params=params)
    run.diags += found
    if not parsed.diags and not any(d.severity == "error" for d in found):
        _bots_cannot_read(run, draft, parsed.program)
    if draft.checked is not None:
        _unread_params(run, draft, params, draft.checked)
    return parsed.program if not parsed.diags else None


def _bots_cannot_read(run: _Run, draft: _Draft, program: ast.Program) -> None:
    """RK244: what of a policy or advisor the greedy bots cannot value from the text (they play by it)."""
    if draft.kind not in ("policy", "advisor") or draft.status == "tbd":
        return
    from rulekit.agents.estimate import unreadable_in

    found = unreadable_in(program)
    if not found:
        return
    then = ("in play they measure it by a short lookahead instead" if draft.kind == "policy"
            else "choosing an advisor, they count that part as worth nothing")
    first = found[0].pos
    run.report("RK244", f"the bots cannot value this card from its text: {'; '.join(map(str, found))}; {then}",
               draft.file, first.line, first.col, end=(first.end_line, first.end_col))


def _counters(run: _Run, draft: _Draft) -> list[str]:
    """The names of the numbers a card keeps (`counters:`); a name the language already uses is an error."""
    from rulekit.language.checker import RESERVED

    given = draft.data.get("counters")
    if not isinstance(given, dict):
        return []
    names = []
    for name in given:
        if name in RESERVED:
            span = draft.loc.key_span(("counters", name))
            run.report("RK242", f"'{name}' cannot name a counter: it is {RESERVED[name]}", draft.file,
                       span.line if span else draft.line, span.col if span else 0,
                       hint="choose another name, such as 'charges'")
        else:
            names.append(name)
    return names


def _params(run: _Run, draft: _Draft, counters: Sequence[str]) -> dict[str, int]:
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
            run.report("RK246", f"'{name}' cannot name a parameter: it is {why}", draft.file,
                       span.line if span else draft.line, span.col if span else 0,
                       hint="choose another name, such as 'gain' or 'amount'", end=_end(span))
        elif isinstance(value, int) and not isinstance(value, bool):
            params[name] = value
    return params


def _unread_params(run: _Run, draft: _Draft, params: Mapping[str, int], checked: Checked) -> None:
    """RK247: a parameter the effect never reads (a misspelt name, or one left over from an older effect)."""
    read = {node.name for node, meaning in checked.meaning.items() if meaning == "param"}
    for name in params:
        if name not in read:
            span = draft.loc.key_span(("params", name))
            run.report("RK247", f"the effect never reads the parameter '{name}', so changing it changes nothing",
                       draft.file, span.line if span else draft.line, span.col if span else 0,
                       hint=f"use `{name}` in the effect, or remove it from `params:`", end=_end(span))


# ---- rules and cards ------------------------------------------------------------------------------

def _rules(run: _Run, refs, names, unreadable) -> tuple[dict[str, Any], dict[str, ast.Expr]]:
    """The rules in force and the unlock conditions rules.yaml gives, parsed and checked once."""
    loc = run.rules_loc
    unlock, found = read_rules(loc, refs, card_names=names, unreadable=unreadable)
    run.diags += found
    data = loc.data if loc is not None and isinstance(loc.data, dict) else {}
    return merge_rules(DEFAULT_RULES, data), unlock


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
        counters=tuple((str(k), int(v)) for k, v in (data.get("counters") or {}).items()),
        params=tuple((str(k), int(v)) for k, v in (data.get("params") or {}).items()),
        checked=_checked(d),
        switchable=bool(data.get("switchable", False)),
        file=d.file, line=d.line,
        effect_text=_text(data.get("effect")), when_text=_text(data.get("when")) if d.kind == "combo" else None,
    )


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _checked(d: _Draft) -> Checked | None:
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

def _folder_checks(run: _Run, cards: list[Card], rules: dict[str, Any],
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
        run.report("RK305", f"{count} the designer's decision ({_listed(where, 'proposed', proposed)})", where)
    if tbd:
        count = f"{tbd} cards are" if tbd != 1 else "1 card is"
        run.report("RK306", f"{count} marked tbd (no effect yet, left out of the decks; {_listed(where, 'tbd', tbd)})",
                   where)


def _listed(where: str, status: str, count: int) -> str:
    """How to see the cards a count note counts."""
    return f"`rulekit lint {where or '.'} --list {status}` names {'them' if count != 1 else 'it'}"


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


def _advisor_draft(run: _Run, cards: list[Card], rules: dict[str, Any], where: str) -> None:
    players = rules.get("players", 4) if isinstance(rules.get("players"), int) else 4
    advisors = sum(1 for c in cards if c.kind == "advisor")
    if advisors < ADVISORS_DEALT * players:
        run.report("RK307", f"the draft deals {ADVISORS_DEALT} advisors to each of {players} players, but there "
                            f"{'is' if advisors == 1 else 'are'} {advisors}: some players get fewer, or none",
                   where, hint=f"write at least {ADVISORS_DEALT * players} advisors, or set fewer `players:` in rules.yaml")


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


def _file_digests(root: Path, read: Mapping[Path, bytes]) -> dict[str, str]:
    """Each file's path inside root -> sha256 of its bytes as read: what says which file changed."""
    return {path.relative_to(root).as_posix(): hashlib.sha256(read[path]).hexdigest()
            for path in sorted(read, key=lambda p: p.relative_to(root).parts)}


def _fingerprint(root: Path, read: Mapping[Path, bytes]) -> str:
    """sha256 over the content files exactly as they were read and parsed (path inside root and
    bytes, in path order): any edit to a card or rule changes it, and it is never of other bytes."""
    h = hashlib.sha256()
    for path in sorted(read, key=lambda p: p.relative_to(root).parts):
        h.update(path.relative_to(root).as_posix().encode("utf-8", "surrogateescape") + b"\0")
        h.update(read[path] + b"\0")
    return h.hexdigest()
