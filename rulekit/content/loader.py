"""A content folder -> checked Content, in two stages: facts per file, then the checks over the folder.

Stage 1 (`card_file_facts`, `rules_file_facts`) reads one file's bytes: YAML with positions, the
schema, effects parsed and checked; it depends on nothing else, so a cache may keep it. Stage 2
(`check_folder`) runs over every file's facts: duplicates, card references, combos, deck sizes,
counts. `load_content`, `check_paths`, `rulekit lint` (through its cache, a `Source`) and a language
server all run these same two stages; docs/api.md describes them. The checks themselves are in
rulekit.content.checks.
"""

from __future__ import annotations

import errno
import hashlib
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from rulekit.content.checks import (KIND_FOLDERS, CardNames, Draft, ExtraCard, RefExists, Run, Unreadable, absolute,
                                    cards_of, check_effects, folder_checks, read_cards, read_extra, references,
                                    unreadable_files, validate_draft, within)
from rulekit.model import Card, Content
from rulekit.content.rules import DEFAULT_RULES, DEFAULT_SOURCE, UNLOCK_STAGES, default_unlock, merge_rules, read_rules
from rulekit.content.yamlpos import Located, parse_bytes, read_bytes
from rulekit.diagnostics import R
from rulekit.diagnostics.codes import UNREADABLE
from rulekit.language.checker import Checked
from rulekit.language.diagnostics import ContentError, Diagnostic

YAML_SUFFIXES = (".yaml", ".yml")       # in any case: .YAML and .Yml are read too
SKIPPED_FOLDERS = ("__pycache__",)      # and every name starting with '.'
SCENARIO_FOLDER = "scenarios"          # directly in a content folder: the designer's scenario files, not cards
SCENARIO_SUFFIX = ".scenario.yaml"
FOLDER_HOLDS = ("a content folder holds rules.yaml and the cards, as YAML files in advisors/, policies/, "
                "events/ and combos/")


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
                        folders.append((path, (*chain, chain[-1] / entry.name)))
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
            folders.append((path, (*chain, target)))

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


# ---- the pipeline: facts per file, then the checks over the folder -------------------------------
#
# Stage 1 depends on nothing but one file's bytes, so its result can be kept (the lint cache keeps it)
# and reused while the bytes are unchanged. Stage 2 runs on every check, over the facts of every file,
# so a change in one card never leaves a stale message about another. docs/api.md describes it.

@dataclass(frozen=True)
class EffectResult:
    """Meaning problems of one effect or condition, and the card references it made: the problems
    stand as long as every reference holds in the folder (else the text is checked again)."""

    diags: tuple[Diagnostic, ...]
    refs: frozenset[tuple[str, str]]


@dataclass
class FileFacts:
    """Stage 1 of a card file: its cards (drafts), their own problems, and their effects' results."""

    drafts: list[Draft] = field(default_factory=list)
    diags: list[Diagnostic] = field(default_factory=list)
    checked: list[EffectResult] = field(default_factory=list)     # one per draft
    full: bool = True                                      # False: slim drafts, effects not kept

    def slim(self) -> FileFacts:
        """The facts with each draft cut down to what stage 2 reads: its fields, the positions of the card, its
        id, name and `when:`, and the `when:` condition (what a cache keeps). A folder check that needs more
        must be added here; tests compare warm lint runs with cold ones on every rule's example."""
        drafts = []
        for d in self.drafts:
            values = {p: d.loc.values[p] for p in _FOLDER_PATHS if p in d.loc.values}
            drafts.append(replace(d, loc=Located(d.loc.data, d.loc.file, values, {}), program=None))
        return FileFacts(drafts, self.diags, self.checked, full=False)


_FOLDER_PATHS: tuple[tuple[str, ...], ...] = ((), ("id",), ("name",), ("when",))


@dataclass
class RulesFacts:
    """Stage 1 of rules.yaml: its YAML, its problems, and its unlock conditions (None in slim facts)."""

    loc: Located | None
    diags: list[Diagnostic]
    checked: EffectResult
    unlock: dict[str, Checked] | None = None


class _Recorder:
    """A card-reference lookup that says yes to everything and remembers what it was asked."""

    def __init__(self) -> None:
        self.refs: set[tuple[str, str]] = set()

    def __call__(self, kind: str, ref: str) -> bool:
        self.refs.add((kind, ref))
        return True


def card_file_facts(raw: bytes, kind: str | None, file: str) -> FileFacts:
    """Stage 1 of one card file's bytes (`kind`: its folder's, None for a loose file)."""
    run = Run(None)
    read_cards(run, raw, kind, file)
    return _draft_facts(run)


def extra_card_facts(extra: ExtraCard, index: int) -> FileFacts:
    """Stage 1 of a card given as data (a scenario's extra cards), not as a file."""
    run = Run(None)
    read_extra(run, extra, index)
    return _draft_facts(run)


def _draft_facts(run: Run) -> FileFacts:
    for draft in run.drafts:
        validate_draft(run, draft)
    facts = FileFacts(run.drafts, run.diags)
    for draft in run.drafts:
        run.diags = []
        asked = _Recorder()
        check_effects(run, draft, asked, {})
        facts.checked.append(EffectResult(tuple(run.diags), frozenset(asked.refs)))
    return facts


def rules_file_facts(raw: bytes, file: str) -> RulesFacts:
    """Stage 1 of rules.yaml's bytes."""
    loc, diags = parse_bytes(raw, file)
    asked = _Recorder()
    unlock, checked = read_rules(loc, asked)
    return RulesFacts(loc, diags, EffectResult(tuple(checked), frozenset(asked.refs)), unlock)


class Source:
    """Where stage 1 comes from: each file is read once, its bytes kept (for noqa, the fingerprint, and a
    second check of the same bytes), and its facts computed from them. A subclass may take the facts from
    elsewhere (the lint cache does: rulekit.lint.cache.CachedSource); `replaced` gives files as bytes that
    stand in for what is on disk."""

    def __init__(self, replaced: Mapping[Path, bytes] | None = None) -> None:
        self.texts: dict[str, bytes] = {}           # file as named in diagnostics -> bytes
        self.read_paths: dict[Path, bytes] = {}     # path -> bytes, of every file read (the fingerprint)
        self.replaced = replaced or {}

    def read(self, path: Path, file: str) -> tuple[bytes | None, Diagnostic | None]:
        raw, problem = (self.replaced[path], None) if path in self.replaced else read_bytes(path, file)
        if problem is not None:
            return None, problem
        self.texts[file] = raw
        self.read_paths[path] = raw
        return raw, None

    def card_file(self, path: Path, kind: str | None, file: str) -> FileFacts:
        raw, problem = self.read(path, file)
        return self.card_facts(path, raw, kind, file) if raw is not None else FileFacts(diags=_listed_problem(problem))

    def rules_file(self, path: Path, file: str) -> RulesFacts:
        raw, problem = self.read(path, file)
        if raw is None:
            return RulesFacts(None, _listed_problem(problem), EffectResult((), frozenset()), {})
        return self.rules_facts(path, raw, file)

    def card_facts(self, path: Path, raw: bytes, kind: str | None, file: str) -> FileFacts:
        return card_file_facts(raw, kind, file)

    def rules_facts(self, path: Path, raw: bytes, file: str) -> RulesFacts:
        return rules_file_facts(raw, file)


def _listed_problem(problem: Diagnostic | None) -> list[Diagnostic]:
    return [problem] if problem is not None else []


@dataclass
class Folder:
    """Stage 2's result for one content folder (or loose files): every diagnostic, and what makes the content."""

    run: Run
    rules: dict[str, Any]                 # the rules in force: the defaults, then rules.yaml
    rules_facts: RulesFacts | None
    lookup: tuple[RefExists, CardNames, Unreadable]      # what card references mean in this folder
    read: dict[Path, bytes]               # the content folder's files as read: the fingerprint
    cards: list[Card]                     # the cards in the decks (of drafts without errors)
    full: bool = True                     # False: from slim facts (a cache), whose cards keep no effect

    @property
    def diagnostics(self) -> list[Diagnostic]:
        return sorted(self.run.diags, key=Diagnostic.sort_key)

    def content(self) -> Content:
        """The checked content (call only when the folder has no errors, and its facts are full)."""
        if not self.full:
            raise ValueError("a folder checked from slim facts has no content: check it with full facts")
        unlock: dict[str, Checked] = {}
        facts = self.rules_facts
        if facts is not None:
            if facts.unlock is None:           # slim facts: the conditions are parsed again
                refs, names, unreadable = self.lookup
                facts.unlock = read_rules(facts.loc, refs, card_names=names, unreadable=unreadable)[0]
            unlock = facts.unlock
        file = self.run.rules_loc.file if self.run.rules_loc is not None else DEFAULT_SOURCE
        sources = {stage: (file if stage in unlock else DEFAULT_SOURCE) for stage in UNLOCK_STAGES}
        root = self.run.root
        fingerprint, files = (_fingerprint(root, self.read), _file_digests(root, self.read)) if root else ("", {})
        return Content(tuple(self.cards), self.rules, str(root) if root else "", {**default_unlock(), **unlock}, sources,
                       fingerprint, files)


def check_folder(root: Path | None, loose: Iterable[Path] = (), source: Source | None = None, *,
                 asked: Sequence[Path] = (), extras: Sequence[ExtraCard] = (), include_tbd: bool = False,
                 only_designed: bool = False) -> Folder:
    """Both stages for one content folder (and loose files checked with it, and extra cards): each file's
    facts from `source`, then the checks over the folder. A card's effect is checked in stage 1 with every
    card reference taken as valid and the references recorded; when the folder lacks one, that effect is
    checked again against the real folder, so messages about missing cards are never stale."""
    source = source if source is not None else Source()
    run = Run(root, asked=list(asked))
    pending: list[tuple[FileFacts, int, int, str | None, str]] = []     # facts, draft, its place in run, kind, file
    rules: RulesFacts | None = None

    def add(facts: FileFacts, kind: str | None, file: str) -> None:
        pending.extend((facts, i, len(run.drafts) + i, kind, file) for i in range(len(facts.drafts)))
        run.drafts += facts.drafts
        run.diags += facts.diags

    read: dict[Path, bytes] = {}
    if root is not None:
        rules_file, card_files = layout(run, root)
        if rules_file is not None:
            rules = source.rules_file(rules_file, str(rules_file))
            run.rules_loc = rules.loc
            run.diags += rules.diags
        for p, kind in card_files:
            add(source.card_file(p, kind, str(p)), kind, str(p))
        for p in [*([rules_file] if rules_file is not None else []), *(p for p, _ in card_files)]:
            if p in source.read_paths:      # the content folder's files as read, before any loose one
                read[p] = source.read_paths[p]
    for p in loose:
        add(source.card_file(p, None, str(p)), None, str(p))
    for i, extra in enumerate(extras):
        add(extra_card_facts(extra, i), None, extra[1])

    refs, names = references(run)
    unreadable = unreadable_files(run)
    fresh: dict[str, FileFacts] = {}
    full = True
    for facts, i, at, folder_kind, file in pending:
        if all(refs(k, ref) for k, ref in facts.checked[i].refs):
            run.diags += facts.checked[i].diags
            full = full and facts.full
            continue
        if not facts.full:           # a slim draft has no effect text left: check the same bytes again
            if file not in fresh:
                fresh[file] = card_file_facts(source.texts[file], folder_kind, file)
            facts = fresh[file]
            run.drafts[at] = facts.drafts[i]
        check_effects(run, facts.drafts[i], refs, names, unreadable)
    if rules is not None:
        if all(refs(k, ref) for k, ref in rules.checked.refs):
            run.diags += rules.checked.diags
        else:
            rules.unlock, found = read_rules(rules.loc, refs, card_names=names, unreadable=unreadable)
            run.diags += found
    data = rules.loc.data if rules is not None and rules.loc is not None and isinstance(rules.loc.data, dict) else {}
    in_force = merge_rules(DEFAULT_RULES, data)
    cards = cards_of(run, include_tbd, only_designed)
    folder_checks(run, cards, in_force, include_tbd, only_designed)
    return Folder(run, in_force, rules, (refs, names, unreadable), read, cards, full)


def check_folders(paths: Iterable[str | Path], source: Source | None = None) -> tuple[list[Folder], list[Diagnostic]]:
    """Both stages for content folders, kind folders or single files: each folder's result, and every
    diagnostic of what was asked for (a file or kind folder is checked within its whole content folder,
    so references to other cards resolve), causes first, then by file and place."""
    source = source if source is not None else Source()
    roots, loose, wanted, diags = resolve_paths(paths)
    folders = []
    for i, root in enumerate(roots or ([None] if loose else [])):
        folder = check_folder(root, loose if i == 0 else [], source, asked=wanted)
        folders.append(folder)
        diags += [d for d in folder.run.diags if _asked(d, root, wanted)]
    return folders, sorted(diags, key=Diagnostic.sort_key)


# ---- public API --------------------------------------------------------------------------

def load_content(path: str | Path, *, include_tbd: bool = False, only_designed: bool = False,
                 extra_cards: Sequence[ExtraCard] | None = None, replaced: Mapping[Path, bytes] | None = None) -> Content:
    """The checked content of a folder (plus a scenario's extra cards); ContentError if it has errors.

    `replaced` gives files (by their path as the folder lists them: `Card.file`) as bytes that stand in for
    what is on disk: the content as it would be after an edit (`rulekit tune` loads each value it tries so).
    """
    folder = check_folder(Path(path), (), Source(replaced), extras=list(extra_cards or ()), include_tbd=include_tbd,
                          only_designed=only_designed)
    errors = [d for d in folder.diagnostics if d.severity == "error"]
    if errors:
        raise ContentError(errors)
    return folder.content()


def check_paths(paths: Iterable[str | Path], source: Source | None = None) -> tuple[Content | None, list[Diagnostic]]:
    """Every diagnostic (errors, warnings, info) for content folders, kind folders or single files, and the
    first folder's content when there is no error (see check_folders)."""
    folders, diags = check_folders(paths, source)
    if any(d.severity == "error" for d in diags) or not folders:
        return None, diags
    return folders[0].content(), diags


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
    source = Source()
    for i, root in enumerate(roots or ([None] if loose else [])):
        run = Run(root, asked=wanted)
        card_files = layout(run, root)[1] if root is not None else []
        for p, kind in [*card_files, *((p, None) for p in (loose if i == 0 else []))]:
            raw, problem = source.read(p, str(p))
            if problem is not None:
                run.diags.append(problem)
            elif raw is not None:
                read_cards(run, raw, kind, str(p))
        diags += [d for d in run.diags if d.severity == "error" and d.code in (*UNREADABLE, R.NOT_A_CONTENT_FOLDER)
                  and _asked(d, root, wanted)]
        for d in run.drafts:
            if d.kind and d.status == status and within(Path(d.file).resolve(), wanted):
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
            diags.append(Diagnostic.of(R.NO_SUCH_PATH, "no such file or folder", str(p)))
            continue
        wanted.append(absolute(p))
        root = root_of(p)
        if root is None:
            loose.append(p)
        elif root not in roots:
            roots.append(root)
    return roots, loose, wanted, diags


def _asked(d: Diagnostic, root: Path | None, wanted: list[Path]) -> bool:
    """Whether a diagnostic concerns what was asked for (a broken content folder concerns everything in it)."""
    if d.code == R.NOT_A_CONTENT_FOLDER:
        return True
    target = absolute(Path(d.file)) if d.file else (absolute(root) if root else None)
    if target is None:
        return True
    return within(target, wanted)


def root_of(p: Path) -> Path | None:
    """The content folder a path belongs to (None: a file outside any content layout)."""
    if p.is_dir():
        return p.parent if p.name in KIND_FOLDERS else p
    if p.name == "rules.yaml":
        return p.parent
    for parent in p.parents:
        if parent.name in KIND_FOLDERS:
            return parent.parent
    return None


def layout(run: Run, root: Path) -> tuple[Path | None, list[tuple[Path, str]]]:
    """A content folder's rules.yaml and card files (with their kind), reporting what is out of place:
    a missing folder or rules.yaml, no cards, folders that cannot be read, links not followed, YAML
    outside the kind folders."""
    if not root.is_dir():
        run.report(R.NO_SUCH_PATH, "no such content folder", str(root))
        return None, []
    listing = content_files(root)
    for folder, why in listing.unreadable:
        run.report(R.UNREADABLE_FILE, f"cannot read this folder: {why}", str(folder),
                   hint="let rulekit read it (its permissions), or move it out of the content folder")
    for link, why in listing.links:
        run.report(R.LINK_OUTSIDE, why, str(link), hint="copy the file or folder into the content folder in place of the "
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
            run.report(R.FILE_OUTSIDE_KIND_FOLDERS,
                       "this YAML file is outside advisors/, policies/, events/ and combos/, so it is ignored",
                       str(p), hint="move it into the folder of its kind")
    hint = FOLDER_HOLDS
    if root.name in KIND_FOLDERS:
        hint += f"; {root} looks like one of those kind folders: give the folder above it, {root.parent}"
    refused = {link for link, _ in listing.links}
    if not has_rules and rules_file not in refused:
        run.report(R.NOT_A_CONTENT_FOLDER, f"{root} is not a content folder: it has no rules.yaml", str(root), hint=hint)
    elif has_rules and not cards and not listing.unreadable and not listing.links:
        run.report(R.NOT_A_CONTENT_FOLDER, f"{root} is not a content folder: it holds no cards", str(root), hint=hint)
    run.holds_cards = bool(cards)
    return (rules_file if has_rules else None), cards


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
