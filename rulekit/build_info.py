"""Which rulekit is running: pure Python (the default, and the oracle) or the optional mypyc build.

`COMPILED` is the one list of modules the compiled build compiles; setup.py reads it from here. A build
writes `_compiled.json` beside this file: for each compiled module, the sha256 of the source it was
compiled from and the extension file it produced. `guard()`, called when `rulekit` is first imported,
compares that record with the `.py` files beside the extensions. If any differs (an edited source, a
half-removed build, no record at all), no compiled module is used: a compiled module calls the others
of its build directly, so one stale module would carry stale code into all of them. rulekit then says so
on stderr and runs pure Python until the build is redone. `RULEKIT_PURE=1` asks for pure Python
without a word (monkeypatching, debugging, or the oracle beside a compiled run).

This module is never compiled itself, and imports nothing from rulekit.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent          # the rulekit package folder
MANIFEST = "_compiled.json"
PURE_ENV = "RULEKIT_PURE"                      # set to 1: pure Python even when a compiled build is installed
BUILD_ENV = "RULEKIT_COMPILE"                  # set to 1 when installing: build the compiled modules

# The modules the compiled build compiles: the core (state, board, phases, the decision loop), the effect
# runtime that generated card code calls, and the agents' hot paths. Left out on purpose:
#   rulekit.core.state     clone() and from_json() make GameState, SeatState and Entry with Cls.__new__(Cls) and
#                          fill them in; a native class's __new__ runs __init__, so both would fail (as would
#                          copy.deepcopy and pickle of a state). Compile it once they are built through a
#                          constructor, and its None-first attributes (advisor, current_event) are annotated.
#   rulekit.agents.base    RandomAgent: users subclass and pickle choosers; native classes allow neither, and
#                          it is two lines of work a decision.
#   rulekit.core.result    GameResult crosses processes (`playtest --jobs`); a compiled instance pickles but
#                          cannot be unpickled by a pure-Python parent, and nothing in it is hot.
#   rulekit.core.errors    exceptions cross processes and are raised and caught by user code.
#   rulekit.core.questions Action subclasses tuple, which native classes cannot (mypyc's way out,
#                          mypyc_attr(native_class=False), needs mypy_extensions at run time); its
#                          Observation properties also need return annotations first.
#   rulekit.agents.greedy  type-checks, and builds (tried: about 60 s with it), but the compiled agent fails when
#                          made (KeyError 'on_discard', raised as a SystemError from stream_of): a native class
#                          keeps no class-level alias such as `on_give = on_discard`, and the agent finds its
#                          handlers by getattr(self, "on_" + kind). fork() copies vars(self), which a native class
#                          has not. Add it once those go through an explicit table and fork copies named fields.
#   rulekit.agents.estimate, rulekit.agents.estgen
#                          mypyc stops with an internal error on them; estimates generated at load stay
#                          interpreted in any case (they are compiled from the cards with exec).
#   rulekit.interpreter.codegen, rulekit.interpreter.program, rulekit.language.*, rulekit.content.*
#                          run once per content load, not per decision.
COMPILED: tuple[str, ...] = (
    "rulekit.core.board",
    "rulekit.core.default",
    "rulekit.core.game",
    "rulekit.core.rules",
    "rulekit.core.table",
    "rulekit.core.phases",
    "rulekit.core.phases.actions",
    "rulekit.core.phases.end",
    "rulekit.core.phases.events",
    "rulekit.core.phases.exchange",
    "rulekit.core.phases.income",
    "rulekit.core.phases.reserve",
    "rulekit.core.phases.setup",
    "rulekit.core.phases.spread",
    "rulekit.core.phases.treatment",
    "rulekit.interpreter.runtime",
)
GROUP = "rulekit"                              # mypyc's shared library: rulekit__mypyc.<suffix> beside the package


def source_path(module: str, root: Path = ROOT) -> Path:
    """The .py a module is compiled from (a package's __init__.py), under the folder holding `rulekit/`."""
    parts = module.split(".")
    base = root.parent.joinpath(*parts)
    return base / "__init__.py" if base.is_dir() else base.with_suffix(".py")


def source_paths(root: Path = ROOT) -> list[Path]:
    return [source_path(m, root) for m in COMPILED]


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def extension_of(module: str, root: Path = ROOT) -> Path | None:
    """The compiled extension beside a module's source, if any (what Python's importer would prefer)."""
    src = source_path(module, root)
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        ext = src.with_suffix(suffix)
        if ext.is_file():
            return ext
    return None


def python_sources(root: Path = ROOT) -> list[Path]:
    """Every .py of the package: compiled code takes the types of what it calls from all of them."""
    return sorted((p for p in root.rglob("*.py") if "__pycache__" not in p.parts), key=lambda p: p.as_posix())


def manifest_for(root: Path, extensions: dict[str, Path], compiler: str) -> dict:
    """The record a build writes: what each extension was compiled from, and the sources it was typed against."""
    compiled = {source_path(m, root) for m in extensions}
    return {
        "compiler": compiler,
        "python": sys.implementation.cache_tag,
        "modules": {m: {"source_sha256": sha256(source_path(m, root)), "extension": extensions[m].name,
                        "extension_bytes": extensions[m].stat().st_size} for m in COMPILED if m in extensions},
        "typed_against": {p.relative_to(root.parent).as_posix(): sha256(p) for p in python_sources(root)
                          if p not in compiled},
    }


def write_manifest(root: Path, extensions: dict[str, Path], compiler: str) -> Path:
    out = root / MANIFEST
    out.write_text(json.dumps(manifest_for(root, extensions, compiler), indent=1, sort_keys=True) + "\n",
                   encoding="utf-8")
    return out


class Status:
    """What `guard()` found: mode is "pure", "compiled", "stale" (a build is there, not used) or "disabled"."""

    def __init__(self, mode: str, compiler: str = "", modules: Sequence[str] = (), problems: Sequence[str] = ()):
        self.mode = mode
        self.compiler = compiler
        self.modules = tuple(modules)          # the modules a compiled build covers
        self.problems = tuple(problems)        # why a build present is not used, in plain words

    def describe(self) -> str:
        """One line for `rulekit --version` and reports."""
        if self.mode == "compiled":
            return f"compiled with {self.compiler}: {len(self.modules)} modules ({', '.join(self.modules)})"
        if self.mode == "stale":
            return "pure Python (a compiled build is installed but stale: " + "; ".join(self.problems) + ")"
        if self.mode == "disabled":
            return f"pure Python ({PURE_ENV}=1; a compiled build is installed)"
        return "pure Python"


def inspect_build(root: Path = ROOT) -> Status:
    """Compare the extensions beside the sources with the build's record; touches nothing."""
    present = {m: ext for m in COMPILED if (ext := extension_of(m, root)) is not None}
    if not present:
        return Status("pure")
    record_path = root / MANIFEST
    try:
        record = json.loads(record_path.read_text(encoding="utf-8"))
        modules = record["modules"]
        compiler = str(record.get("compiler", "mypyc"))
    except (OSError, ValueError, KeyError, TypeError):
        return Status("stale", modules=sorted(present),
                      problems=[f"{record_path.name} is missing or unreadable, so nothing says what the extensions "
                                "were built from"])
    problems = []
    for m in COMPILED:
        ext = present.get(m)
        entry = modules.get(m)
        rel = source_path(m, root).relative_to(root.parent).as_posix()
        if ext is None and entry is None:
            continue
        if ext is None:
            problems.append(f"{rel} has no compiled extension beside it")
        elif entry is None:
            problems.append(f"{ext.name} is not in the build's record")
        elif ext.name != entry.get("extension") or ext.stat().st_size != entry.get("extension_bytes"):
            problems.append(f"{ext.name} is not the file the build produced")
        elif sha256(source_path(m, root)) != entry.get("source_sha256"):
            problems.append(f"{rel} changed since it was compiled")
    for rel, digest in sorted(record.get("typed_against", {}).items()):
        path = root.parent / rel
        if not path.is_file():
            problems.append(f"{rel}, which the compiled modules were typed against, is gone")
        elif sha256(path) != digest:
            problems.append(f"{rel} changed since the build, and the compiled modules rely on its types")
    for m in modules:
        if m not in COMPILED:
            problems.append(f"the build compiled {m}, which this rulekit no longer compiles")
    if problems:
        return Status("stale", compiler, sorted(present), problems)
    return Status("compiled", compiler, [m for m in COMPILED if m in present])


class _SourceFirst:
    """A meta path finder that loads the compiled modules from their .py files, never their extensions."""

    def __init__(self, root: Path):
        self.root = root
        self.names = frozenset(COMPILED)

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        if fullname not in self.names:
            return None
        src = source_path(fullname, self.root)
        if not src.is_file():
            return None
        locations = [str(src.parent)] if src.name == "__init__.py" else None
        return importlib.util.spec_from_file_location(fullname, src, submodule_search_locations=locations)


_status: Status | None = None


def guard() -> Status:
    """Decide once per process which build runs; on a stale build, say so on stderr and run pure Python."""
    global _status
    if _status is not None:
        return _status
    status = inspect_build(ROOT)
    if status.mode in ("compiled", "stale") and os.environ.get(PURE_ENV, "") not in ("", "0"):
        status = Status("disabled", status.compiler, status.modules, status.problems)
    if status.mode in ("stale", "disabled"):
        sys.meta_path.insert(0, _SourceFirst(ROOT))
    if status.mode == "stale":
        print(f"rulekit: not using the compiled build in {ROOT}: " + "; ".join(status.problems)
              + f". Running pure Python; rebuild with `{BUILD_ENV}=1 pip install .` (or -e .), "
              f"or remove the build's extension files.", file=sys.stderr)
    _status = status
    return status


def loaded() -> dict[str, bool]:
    """For each compiled-build module: is the one imported in this process an extension? (imports them)"""
    import importlib

    out = {}
    for m in COMPILED:
        mod = importlib.import_module(m)
        out[m] = not str(getattr(mod, "__file__", "") or "").endswith(".py")
    return out


def describe() -> str:
    """What runs in this process, checked on the imported modules, not just on the files."""
    status = guard()
    if status.mode != "compiled":
        return status.describe()
    flags = loaded()
    if all(flags.values()):
        return status.describe()
    interpreted = [m for m, c in flags.items() if not c]
    return status.describe() + f"; yet imported from source: {', '.join(interpreted)}"


def build_tree(source: Path, dest: Path, *, quiet: bool = True) -> float:
    """Compile a checkout's modules into a copy of it at dest (for tests and benchmarks); returns the build's
    wall-clock seconds. source holds setup.py and rulekit/; dest gets rulekit/ with the extensions beside the
    sources, and the shared library beside rulekit/. Runs at low priority (nice), as builds are heavy."""
    import shutil
    import subprocess
    import time

    dest.mkdir(parents=True, exist_ok=True)
    ignore = shutil.ignore_patterns("__pycache__", "*.so", "*.pyd", MANIFEST)
    shutil.copytree(source / "rulekit", dest / "rulekit", ignore=ignore, dirs_exist_ok=True)
    for name in ("setup.py", "pyproject.toml", "README.md"):
        shutil.copy2(source / name, dest / name)
    env = {**os.environ, BUILD_ENV: "1"}
    env.pop(PURE_ENV, None)
    cmd = [sys.executable, "setup.py", "build_ext", "--inplace"]
    if shutil.which("nice"):
        cmd = ["nice", *cmd]
    start = time.perf_counter()
    out = subprocess.run(cmd, cwd=dest, env=env, capture_output=quiet, text=True, check=False)
    if out.returncode != 0:
        raise RuntimeError(f"the compiled build failed in {dest}:\n{(out.stdout or '')[-3000:]}{(out.stderr or '')[-3000:]}")
    return time.perf_counter() - start
