"""check_paths split in two: per-file work (cacheable), then the whole-folder checks over its results.

The loader checks a content folder in one go. To reuse the work of files that did not change,
each file's own checks (YAML, schema, effect syntax and meaning) run here on their own and
give a `FileFacts`; the folder checks (duplicate ids, references, combos, deck sizes, counts)
then run over the facts of every file, cached or not. The loader's own steps do the work, so
the result equals `check_paths` — tests/test_lint_engine.py holds the two together.

A card's effect is checked with every card reference taken as valid and the references
recorded; when the folder turns out to lack one of them, that card's effect is checked
again against the real folder, so messages about missing cards are never stale.

The cache keeps facts `slim`: of each card only what the folder checks read (its fields,
the positions of the card, its id, name and `when:`, and the `when:` condition). A folder
check that needs more (say, the parsed effects) must be added to `slim`; the tests compare
warm runs with check_paths on every rule example to catch it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path

from rulekit.content import loader
from rulekit.content.rules import DEFAULT_RULES, check_rules, merge_rules
from rulekit.content.yamlpos import Located, parse_bytes, read_bytes
from rulekit.language.diagnostics import Diagnostic


@dataclass(frozen=True)
class Checked:
    """Meaning problems of one effect or condition, and the card references it made."""

    diags: tuple[Diagnostic, ...]
    refs: frozenset[tuple[str, str]]


@dataclass
class FileFacts:
    """What a card file's own checks produce; depends on nothing but the file."""

    drafts: list = field(default_factory=list)          # the loader's drafts, effects parsed
    diags: list[Diagnostic] = field(default_factory=list)
    checked: list[Checked] = field(default_factory=list)   # one per draft
    full: bool = True                                   # False: slim drafts, effects not kept


# The positions of a card the folder checks report at.
_FOLDER_PATHS: tuple[tuple, ...] = ((), ("id",), ("name",), ("when",))


def slim(facts: FileFacts) -> FileFacts:
    """The facts with each draft cut down to what the folder checks read (smaller, faster to load)."""
    drafts = []
    for d in facts.drafts:
        values = {p: d.loc.values[p] for p in _FOLDER_PATHS if p in d.loc.values}
        drafts.append(replace(d, loc=Located(d.loc.data, d.loc.file, values, {}), program=None))
    return FileFacts(drafts, facts.diags, facts.checked, full=False)


@dataclass
class RulesFacts:
    """What rules.yaml's own checks produce."""

    loc: Located | None
    diags: list[Diagnostic]
    checked: Checked


class _Recorder:
    """A card-reference lookup that says yes to everything and remembers what it was asked."""

    def __init__(self) -> None:
        self.refs: set[tuple[str, str]] = set()

    def __call__(self, kind: str, ref: str) -> bool:
        self.refs.add((kind, ref))
        return True


def card_file_facts(raw: bytes, kind: str | None, file: str) -> FileFacts:
    """The own checks of one card file's bytes."""
    run = loader._Run(None)
    loader.read_cards(run, raw, kind, file)
    for draft in run.drafts:
        loader._validate(run, draft)
    facts = FileFacts(run.drafts, run.diags)
    for draft in run.drafts:
        run.diags = []
        asked = _Recorder()
        loader._check_effects(run, draft, asked, {})
        facts.checked.append(Checked(tuple(run.diags), frozenset(asked.refs)))
    return facts


def rules_file_facts(raw: bytes, file: str) -> RulesFacts:
    """The own checks of rules.yaml's bytes."""
    loc, diags = parse_bytes(raw, file)
    asked = _Recorder()
    checked = check_rules(loc, asked)
    return RulesFacts(loc, diags, Checked(tuple(checked), frozenset(asked.refs)))


class Source:
    """Where file facts come from: each file is read once, its bytes kept (for noqa, and for a
    second check of the same bytes), and its facts computed from them — or taken from a cache in
    front of that (see cache.py)."""

    def __init__(self) -> None:
        self.texts: dict[str, bytes] = {}

    def read(self, path: Path, file: str) -> tuple[bytes | None, Diagnostic | None]:
        raw, problem = read_bytes(path, file)
        if problem is not None:
            return None, problem
        self.texts[file] = raw
        return raw, None

    def card_file(self, path: Path, kind: str | None, file: str) -> FileFacts:
        raw, problem = self.read(path, file)
        return FileFacts(diags=[problem]) if raw is None else self.card_facts(path, raw, kind, file)

    def rules_file(self, path: Path, file: str) -> RulesFacts:
        raw, problem = self.read(path, file)
        if raw is None:
            return RulesFacts(None, [problem], Checked((), frozenset()))
        return self.rules_facts(path, raw, file)

    def card_facts(self, path: Path, raw: bytes, kind: str | None, file: str) -> FileFacts:
        return card_file_facts(raw, kind, file)

    def rules_facts(self, path: Path, raw: bytes, file: str) -> RulesFacts:
        return rules_file_facts(raw, file)


def _refs_hold(checked: Checked, refs: Callable[[str, str], bool]) -> bool:
    return all(refs(kind, ref) for kind, ref in checked.refs)


def check_root(root: Path | None, loose: Iterable[Path], source: Source,
               asked: list[Path] | None = None) -> list[Diagnostic]:
    """Every diagnostic of one content folder (and of loose files checked with it)."""
    run = loader._Run(root, asked=list(asked or ()))
    pending: list[tuple[FileFacts, int, str | None, str]] = []
    rules: RulesFacts | None = None

    def add(facts: FileFacts, kind: str | None, file: str) -> None:
        run.drafts += facts.drafts
        run.diags += facts.diags
        pending.extend((facts, i, kind, file) for i in range(len(facts.drafts)))

    if root is not None:
        rules_file, card_files = loader.layout(run, root)
        if rules_file is not None:
            rules = source.rules_file(rules_file, str(rules_file))
            run.rules_loc = rules.loc
            run.diags += rules.diags
        for p, kind in card_files:
            add(source.card_file(p, kind, str(p)), kind, str(p))
    for p in loose:
        add(source.card_file(p, None, str(p)), None, str(p))

    refs, names = loader._references(run)
    unreadable = loader.unreadable_files(run)
    fresh: dict[str, FileFacts] = {}
    for facts, i, kind, file in pending:
        if _refs_hold(facts.checked[i], refs):
            run.diags += facts.checked[i].diags
            continue
        if not facts.full:           # a slim draft has no effect text left: check the same bytes again
            if file not in fresh:
                fresh[file] = card_file_facts(source.texts[file], kind, file)
            facts = fresh[file]
        loader._check_effects(run, facts.drafts[i], refs, names, unreadable)
    if rules is not None:
        run.diags += rules.checked.diags if _refs_hold(rules.checked, refs) else check_rules(
            rules.loc, refs, card_names=names, unreadable=unreadable)
    data = rules.loc.data if rules is not None and rules.loc is not None and isinstance(rules.loc.data, dict) else {}
    cards = loader._cards(run, False, False)
    loader._folder_checks(run, cards, merge_rules(DEFAULT_RULES, data), False, False)
    return run.diags


def check(paths: Iterable[str | Path], source: Source | None = None) -> list[Diagnostic]:
    """The diagnostics `check_paths(paths)` gives, with file facts taken from `source`."""
    source = source or Source()
    roots, loose, wanted, diags = loader.resolve_paths(paths)
    for i, root in enumerate(roots or ([None] if loose else [])):
        found = check_root(root, loose if i == 0 else [], source, wanted)
        diags += [d for d in found if loader._asked(d, root, wanted)]
    return sorted(diags, key=Diagnostic.sort_key)
