"""The lint cache: each file's own check results, keyed by its bytes and by the rulekit that checked it.

Only per-file work is kept (engine.FileFacts); the folder checks run on every lint, so a
change in one card can never leave a stale message about another. A key is the sha256 of
the rulekit fingerprint, the file's path as given and its bytes: any change to a file, to
rulekit's code, grammar, vocabulary or schemas makes a fresh key. A cache that cannot be
read or written is ignored, never an error.
"""

from __future__ import annotations

import functools
import hashlib
import os
import pickle
from pathlib import Path

import rulekit
from rulekit.content import loader
from rulekit.lint.engine import FileFacts, RulesFacts, Source, card_file_facts, rules_file_facts, slim

CACHE_DIR_NAME = ".rulekit_cache"
CACHE_ENV = "RULEKIT_CACHE_DIR"
_STORE = "lint-files.pickle"
_FORMAT = 1


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


def cache_dir(root: Path | None) -> Path | None:
    """$RULEKIT_CACHE_DIR, else .rulekit_cache/ in the content folder."""
    env = os.environ.get(CACHE_ENV)
    if env:
        return Path(env)
    return root / CACHE_DIR_NAME if root is not None else None


class Store:
    """file -> (key, pickled facts): one entry per file, replaced when the file changes."""

    def __init__(self, directory: Path):
        self.directory = directory
        self.path = directory / _STORE
        self.entries: dict[str, tuple[str, bytes]] = {}
        self.changed = False
        try:
            with open(self.path, "rb") as f:
                generation, entries = pickle.load(f)
            if generation == fingerprint() and isinstance(entries, dict):
                self.entries = entries
        except Exception:  # no cache yet, or one from another version, or damaged: start afresh
            self.entries = {}

    def get(self, file: str, key: str):
        entry = self.entries.get(file)
        if not isinstance(entry, tuple) or entry[0] != key:
            return None
        try:
            return pickle.loads(entry[1])
        except Exception:
            return None

    def put(self, file: str, key: str, value) -> None:
        try:
            self.entries[file] = (key, pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))
        except Exception:  # a value too deeply nested to store: check the file again next time
            return
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
            with open(tmp, "wb") as f:
                pickle.dump((fingerprint(), self.entries), f, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, self.path)
        except OSError:
            return


class CachedSource(Source):
    """File facts from the cache when the file's bytes are unchanged; the bytes are kept for noqa."""

    def __init__(self, use_cache: bool = True):
        self.use_cache = use_cache
        self.stores: dict[Path, Store] = {}
        self.texts: dict[str, bytes] = {}

    def _store_for(self, path: Path) -> Store | None:
        if not self.use_cache:
            return None
        directory = cache_dir(loader._root_of(path))
        if directory is None:
            return None
        if directory not in self.stores:
            self.stores[directory] = Store(directory)
        return self.stores[directory]

    def _cached(self, path: Path, file: str, kind: str, compute, stored=lambda value: value):
        try:
            raw = path.read_bytes()
        except OSError:
            return compute()          # the loader reports why the file cannot be read
        self.texts[file] = raw
        store = self._store_for(path)
        if store is None:
            return compute()
        key = hashlib.sha256(b"\0".join([fingerprint().encode(), kind.encode(), file.encode(), raw])).hexdigest()
        value = store.get(file, key)
        if value is None:
            value = compute()
            store.put(file, key, stored(value))
        return value

    def card_file(self, path: Path, kind: str | None, file: str) -> FileFacts:
        return self._cached(path, file, kind or "-", lambda: card_file_facts(path, kind, file), slim)

    def rules_file(self, path: Path, file: str) -> RulesFacts:
        return self._cached(path, file, "rules", lambda: rules_file_facts(path, file))

    def save(self) -> None:
        for store in self.stores.values():
            store.save()
