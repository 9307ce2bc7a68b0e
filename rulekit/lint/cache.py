"""The lint cache: each file's own check results, as plain JSON values, keyed by its bytes and by the rulekit that checked it.

Only per-file work is kept (stage 1 of the loader: loader.FileFacts); the folder checks run on every lint, so a
change in one card can never leave a stale message about another. A key is the sha256 of
the rulekit fingerprint, the file's path as given and its bytes: any change to a file, to
rulekit's code, grammar, vocabulary or schemas makes a fresh key.

Nothing in the cache can run code, whatever its bytes: it is JSON (numbers, text, lists,
mappings) read back into rulekit's own types field by field, each checked; an entry that
does not have the expected shape is a miss, and a cache that cannot be read at all is empty.
It lives outside the content folder (the user's cache folder, one subfolder per content
folder), so a content repository cannot ship one.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import rulekit
from rulekit.content.checks import KIND_FOLDERS, Draft
from rulekit.content.loader import (EffectResult, FileFacts, RulesFacts, Source, card_file_facts, root_of,
                                    rules_file_facts)
from rulekit.content.schema import validate
from rulekit.content.yamlpos import Located, Span, ValueInfo
from rulekit.diagnostics.codes import CODES
from rulekit.language.diagnostics import SEVERITIES, Diagnostic
from rulekit.language.parser import parse_expression

CACHE_ENV = "RULEKIT_CACHE_DIR"
_STORE = "lint-files.json"
_FORMAT = 2


@functools.cache
def fingerprint() -> str:
    """rulekit's version plus every source, grammar and schema file it runs: the cache's generation."""
    h = hashlib.sha256(f"rulekit {rulekit.__version__} cache {_FORMAT}".encode())
    package = Path(rulekit.__file__).parent
    for p in sorted(package.rglob("*")):
        if p.suffix in (".py", ".lark", ".json") and "__pycache__" not in p.parts:
            h.update(str(p.relative_to(package)).encode() + b"\0")
            h.update(p.read_bytes())
    return h.hexdigest()


def cache_base() -> Path:
    """$RULEKIT_CACHE_DIR, else the user's cache folder ($XDG_CACHE_HOME or ~/.cache) /rulekit/lint."""
    env = os.environ.get(CACHE_ENV)
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "rulekit" / "lint"


def cache_dir(root: Path | None) -> Path | None:
    """The cache folder of one content folder: named by a hash of its absolute path (None: no content folder)."""
    if root is None:
        return None
    name = hashlib.sha256(str(root.resolve()).encode("utf-8", "surrogateescape")).hexdigest()[:32]
    return cache_base() / name


class Store:
    """file -> (key, facts as JSON values): one entry per file, replaced when the file changes."""

    def __init__(self, directory: Path):
        self.directory = directory
        self.path = directory / _STORE
        self.entries: dict[str, dict] = {}
        self.changed = False
        try:
            with open(self.path, encoding="utf-8") as f:
                stored = json.load(f)
        except (OSError, ValueError, RecursionError):      # no cache yet, or not JSON: start afresh
            return
        if (isinstance(stored, dict) and stored.get("generation") == fingerprint()
                and isinstance(stored.get("entries"), dict)):
            self.entries = stored["entries"]

    def get(self, file: str, key: str, decode: Callable[[Any], Any]):
        entry = self.entries.get(file)
        if not isinstance(entry, dict) or entry.get("key") != key:
            return None
        try:
            return decode(entry.get("facts"))
        except (_BadEntry, ValueError, TypeError):      # not what rulekit wrote: check the file again
            return None

    def put(self, file: str, key: str, facts: Any) -> None:
        try:
            text = json.dumps(facts, ensure_ascii=False, sort_keys=True)
            faithful = json.loads(text) == facts
        except (TypeError, ValueError, RecursionError):
            faithful = False
        if not faithful:      # a value JSON cannot hold as it is (a date, a number key): check the file again next time
            return
        self.entries[file] = {"key": key, "facts": facts}
        self.changed = True

    def save(self) -> None:
        if not self.changed:
            return
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            ignore = self.directory / ".gitignore"
            if not ignore.exists():
                ignore.write_text("# rulekit's lint cache; safe to delete.\n*\n", encoding="utf-8")
            tmp = self.path.with_name(f"{_STORE}.{os.getpid()}.tmp")
            with open(tmp, "w", encoding="utf-8") as f:
                json.dump({"generation": fingerprint(), "entries": self.entries}, f, ensure_ascii=False,
                          sort_keys=True)
            os.replace(tmp, self.path)
        except (OSError, ValueError):        # a full disk, or a file name no UTF-8 text can hold
            return


class CachedSource(Source):
    """File facts from the cache when the file's bytes are unchanged: keyed by the very bytes checked."""

    def __init__(self, use_cache: bool = True):
        super().__init__()
        self.use_cache = use_cache
        self.stores: dict[Path, Store] = {}

    def _store_for(self, path: Path) -> Store | None:
        if not self.use_cache:
            return None
        directory = cache_dir(root_of(path))
        if directory is None:
            return None
        if directory not in self.stores:
            self.stores[directory] = Store(directory)
        return self.stores[directory]

    def _cached(self, path: Path, raw: bytes, file: str, kind: str, compute, encode, decode):
        store = self._store_for(path)
        if store is None:
            return compute()
        parts = [fingerprint().encode(), kind.encode(), file.encode("utf-8", "surrogateescape"), raw]
        key = hashlib.sha256(b"\0".join(parts)).hexdigest()
        value = store.get(file, key, lambda v: decode(v, file))
        if value is None:       # not cached, or an entry that is not what rulekit writes: check, and replace it
            value = compute()
            store.put(file, key, encode(value))
        return value

    def card_facts(self, path: Path, raw: bytes, kind: str | None, file: str) -> FileFacts:
        return self._cached(path, raw, file, kind or "-", lambda: card_file_facts(raw, kind, file),
                            lambda facts: _file_facts(facts.slim()), _read_file_facts)

    def rules_facts(self, path: Path, raw: bytes, file: str) -> RulesFacts:
        return self._cached(path, raw, file, "rules", lambda: rules_file_facts(raw, file), _rules_facts,
                            _read_rules_facts)

    def save(self) -> None:
        for store in self.stores.values():
            store.save()


# ---- facts <-> JSON values --------------------------------------------------------------------------

class _BadEntry(Exception):
    """A cache entry that is not what rulekit wrote: treated as missing."""


def _need(ok: bool) -> None:
    if not ok:
        raise _BadEntry


def _int(v: Any) -> int:
    _need(isinstance(v, int) and not isinstance(v, bool))
    return v


def _str(v: Any) -> str:
    _need(isinstance(v, str))
    return v


def _opt(read, v: Any):
    return None if v is None else read(v)


def _list(v: Any) -> list:
    _need(isinstance(v, list))
    return v


def _diag(d: Diagnostic) -> list:
    return [d.code, d.severity, d.message, d.file, d.line, d.col, d.end_line, d.end_col, d.hint]


def _read_diag(v: Any, file: str) -> Diagnostic:
    """A diagnostic of the file the entry is for, with a code rulekit has."""
    code, severity, message, where, line, col, end_line, end_col, hint = _list(v)
    _need(code in CODES and severity in SEVERITIES and where == file)
    d = Diagnostic(code, severity, _str(message), file, _int(line), _int(col), _int(end_line), _int(end_col),
                   _opt(_str, hint))
    _need(min(d.line, d.col, d.end_line, d.end_col) >= 0)
    return d


def _checked(c: EffectResult) -> dict:
    return {"diags": [_diag(d) for d in c.diags], "refs": sorted([kind, ref] for kind, ref in c.refs)}


def _read_checked(v: Any, file: str) -> EffectResult:
    _need(isinstance(v, dict))
    refs = []
    for pair in _list(v.get("refs")):
        kind, ref = _list(pair)
        refs.append((_str(kind), _str(ref)))
    return EffectResult(tuple(_read_diag(d, file) for d in _list(v.get("diags"))), frozenset(refs))


def _span(s: Span) -> list:
    return [s.line, s.col, s.end_line, s.end_col]


def _read_span(v: Any) -> Span:
    line, col, end_line, end_col = _list(v)
    return Span(_int(line), _int(col), _int(end_line), _int(end_col))


def _read_path(v: Any) -> tuple:
    path = tuple(_list(v))
    for part in path:
        _need(isinstance(part, str) or (isinstance(part, int) and not isinstance(part, bool)))
    return path


def _located(loc: Located) -> dict:
    return {"data": loc.data, "file": loc.file,
            "values": [[list(p), _span(i.span), i.style, i.text_line, i.text_col, i.indent]
                       for p, i in loc.values.items()],
            "keys": [[list(p), _span(s)] for p, s in loc.keys.items()]}


def _read_located(v: Any, file: str) -> Located:
    _need(isinstance(v, dict) and v.get("file") == file)
    values = {}
    for entry in _list(v.get("values")):
        path, span, style, text_line, text_col, indent = _list(entry)
        values[_read_path(path)] = ValueInfo(_read_span(span), _opt(_str, style), _int(text_line), _int(text_col),
                                             _opt(_int, indent))
    keys = {}
    for entry in _list(v.get("keys")):
        path, span = _list(entry)
        keys[_read_path(path)] = _read_span(span)
    return Located(v.get("data"), file, values, keys)


def _draft(d: Draft) -> dict:
    return {"kind": d.kind, "loc": _located(d.loc), "file": d.file, "valid": d.valid, "when": d.when is not None}


def _read_draft(v: Any, file: str) -> Draft:
    """A draft as the loader makes one: a mapping of fields from this file; a valid one has a kind,
    an id and a name, and fields the schema allows (the folder checks build cards from them)."""
    _need(isinstance(v, dict) and isinstance(v.get("valid"), bool) and isinstance(v.get("when"), bool)
          and v.get("file") == file)
    kind = v.get("kind")
    _need(kind is None or kind in KIND_FOLDERS.values())
    draft = Draft(kind, _read_located(v.get("loc"), file), file, valid=v["valid"])
    _need(isinstance(draft.data, dict))
    _need(not draft.valid or (kind is not None and draft.id is not None and draft.name is not None
                              and not validate(draft.loc, kind)))
    if v["when"]:
        # The condition is parsed again rather than stored: the cache holds only plain values.
        text = draft.data.get("when")
        _need(isinstance(text, str))
        draft.when, _ = parse_expression(str(text), draft.loc.origin(("when",)))
        _need(draft.when is not None)
    return draft


def _file_facts(facts: FileFacts) -> dict:
    return {"drafts": [_draft(d) for d in facts.drafts], "diags": [_diag(d) for d in facts.diags],
            "checked": [_checked(c) for c in facts.checked]}


def _read_file_facts(v: Any, file: str) -> FileFacts:
    _need(isinstance(v, dict))
    drafts = [_read_draft(d, file) for d in _list(v.get("drafts"))]
    checked = [_read_checked(c, file) for c in _list(v.get("checked"))]
    _need(len(checked) == len(drafts))
    return FileFacts(drafts, [_read_diag(d, file) for d in _list(v.get("diags"))], checked, full=False)


def _rules_facts(facts: RulesFacts) -> dict:
    return {"loc": None if facts.loc is None else _located(facts.loc), "diags": [_diag(d) for d in facts.diags],
            "checked": _checked(facts.checked)}


def _read_rules_facts(v: Any, file: str) -> RulesFacts:
    _need(isinstance(v, dict))
    loc = v.get("loc")
    return RulesFacts(None if loc is None else _read_located(loc, file),
                      [_read_diag(d, file) for d in _list(v.get("diags"))], _read_checked(v.get("checked"), file))
