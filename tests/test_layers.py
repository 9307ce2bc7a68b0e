"""The layers of rulekit follow its data flow, and an import against it fails here.

Every rulekit module is parsed (not imported) and every import it names is an edge: module-level,
function-local and `if TYPE_CHECKING:` imports alike, since each is a dependency a reader must follow.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "rulekit"

# What each layer may import besides itself (and the package root `rulekit`, which imports nothing
# at load). The data flow is: text -> AST -> checked program (language) -> cards (model, content) ->
# compiled effects (interpreter) -> the core applies them to the state. Each stage may use the ones
# before it, never one after it:
# - registry: the game's vocabulary (tracks, verbs, limits), read by every stage; it imports nothing.
# - diagnostics: the table of every rule a check may report (code, severity, title, documentation), read
#   by every stage that checks; it imports nothing.
# - build_info: which modules run compiled, checked before anything else loads; it imports nothing.
# - language: text to AST to checked program; it knows nothing of cards on disk, compiling or playing.
# - model: Card and Content, a neutral record between the language and everything that reads cards.
# - content: reading a folder of YAML into a Content, checking each effect with the language.
# - core: the rules over the state. It reads cards and compiled effects only through the Protocols of
#   core/program.py, so it imports no earlier stage: a change to the language or the compiler cannot
#   change the rules.
# - interpreter: checked programs compiled to functions over the core's operations (runtime.py is the
#   `rt` of generated code), so it sits on the core and implements its Protocols.
# - agents: choosers that read the core's Observation (and the language's AST, to estimate cards).
# - engine: the one place a game is assembled: content compiled, rules checked, the core handed the rest.
# - the tools on top (play, scenarios, playtest, lint, lsp, console, cli) may use what they play or check.
ALLOWED: dict[str, frozenset[str]] = {
    "registry": frozenset(),
    "diagnostics": frozenset(),
    "build_info": frozenset(),
    "rulekit": frozenset({"build_info"}),     # the package root checks the compiled build before anything loads
    "provenance": frozenset(),
    "language": frozenset({"diagnostics", "registry"}),
    "model": frozenset({"diagnostics", "language", "registry"}),
    "content": frozenset({"diagnostics", "language", "model", "registry"}),
    "core": frozenset({"registry"}),
    "interpreter": frozenset({"diagnostics", "core", "content", "language", "model", "registry"}),
    "agents": frozenset({"diagnostics", "core", "language", "model", "registry"}),
    "engine": frozenset({"diagnostics", "agents", "content", "core", "interpreter", "language", "model", "registry"}),
    "console": frozenset({"diagnostics", "agents", "content", "language", "model", "registry"}),
    "lint": frozenset({"diagnostics", "console", "content", "language", "model", "registry"}),
    "play": frozenset({"agents", "core", "engine", "provenance", "registry"}),
    "scenarios": frozenset({"diagnostics", "agents", "console", "content", "core", "engine", "language", "model", "play",
                            "registry"}),
    "playtest": frozenset({"diagnostics", "agents", "console", "content", "core", "engine", "language", "lint", "model", "play",
                           "provenance", "registry"}),
    # serve: the local web page where a person plays a seat (rulekit serve); it plays games as `play` does.
    "serve": frozenset({"agents", "content", "core", "engine", "language", "model", "play", "provenance", "registry"}),
    # The language server checks as lint does, and reads scenario files as `rulekit test` does.
    "lsp": frozenset({"content", "diagnostics", "language", "lint", "registry", "scenarios"}),
    "cli": frozenset({"build_info", "console", "lint", "lsp", "play", "playtest", "provenance", "scenarios", "serve"}),
    "__main__": frozenset({"cli"}),
}
# Edges against the flow that exist today, each named exactly, so no new one can hide behind them.
KNOWN: dict[tuple[str, str], str] = {
    # The loader marks the cards the greedy bot's estimate cannot read (for `rulekit lint`): the
    # estimate should say this itself, from the content, once the lint asks the agents for it.
    ("rulekit.content.checks", "rulekit.agents.estimate"): "the loader's checks ask the estimate which cards it cannot read",
}


def module_name(path: Path, package: Path = PACKAGE) -> str:
    parts = path.relative_to(package.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def layer(module: str) -> str:
    """rulekit.core.phases.spread -> core; rulekit.engine -> engine; rulekit -> rulekit."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def imports(source: str, module: str, known_modules: set[str]) -> Iterator[tuple[str, int]]:
    """The rulekit modules a source imports, with the line of each import, wherever it stands."""
    package = module if module in known_modules and _is_package(module, known_modules) else module.rpartition(".")[0]
    for node in _nodes(source):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join(up + ([base] if base else []))
            for alias in node.names:
                full = f"{base}.{alias.name}"
                yield (full if full in known_modules else base), node.lineno


@functools.cache
def _nodes(source: str) -> tuple[ast.AST, ...]:
    return tuple(ast.walk(ast.parse(source)))


def _is_package(module: str, known: set[str]) -> bool:
    return any(m.startswith(module + ".") for m in known)


def violations(files: dict[str, str]) -> list[str]:
    """Every import against the table, as 'module:line imports target (layer -> layer)'."""
    known = set(files)
    found = []
    for module, source in sorted(files.items()):
        here = layer(module)
        for target, line in imports(source, module, known):
            if target != "rulekit" and not target.startswith("rulekit."):
                continue
            there = layer(target)
            if there in (here, "rulekit") or there in ALLOWED.get(here, frozenset()):
                continue
            if (module, target) in KNOWN:
                continue
            found.append(f"{module}:{line} imports {target} ({here} -> {there})")
    return found


def package_sources() -> dict[str, str]:
    return dict(_sources())


@functools.cache
def _sources() -> dict[str, str]:
    return {module_name(p): p.read_text(encoding="utf-8") for p in sorted(PACKAGE.rglob("*.py"))}


def test_every_module_belongs_to_a_layer_of_the_table():
    layers = {layer(m) for m in package_sources()} - {"rulekit"}
    assert sorted(layers - set(ALLOWED)) == [], "a new part of rulekit: say in ALLOWED what it may import"


def test_no_import_goes_against_the_data_flow():
    assert violations(package_sources()) == []


def test_each_known_exception_still_exists():
    sources = package_sources()
    for module, target in KNOWN:
        assert module in sources and target.replace("rulekit.", "", 1).split(".")[0] in {
            layer(t) for t, _ in imports(sources[module], module, set(sources))}, f"{module} -> {target} is gone"


def test_the_core_imports_no_earlier_stage_not_even_for_types():
    """The core's own promise, spelled out: nothing of the language, the content or the interpreter."""
    sources = package_sources()
    for module, source in sources.items():
        if layer(module) == "core":
            targets = {layer(t) for t, _ in imports(source, module, set(sources)) if t.startswith("rulekit.")}
            assert not targets & {"language", "content", "interpreter", "model", "engine", "agents"}, module


def test_a_planted_edge_against_the_flow_fails(tmp_path: Path):
    """A core module importing the runtime inside a function, a language module importing an agent for
    types only, and a relative import from the model into the core's game: each is found."""
    sources = package_sources()
    planted = tmp_path / "planted_core.py"
    planted.write_text("def f():\n    from rulekit.interpreter.runtime import Runtime\n    return Runtime\n",
                       encoding="utf-8")
    sources["rulekit.core._planted"] = planted.read_text(encoding="utf-8")
    sources["rulekit.language._planted"] = (
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from rulekit.agents import greedy\n")
    sources["rulekit.content._planted"] = "from ..core import game\n"
    found = violations(sources)
    assert found == [
        "rulekit.content._planted:1 imports rulekit.core.game (content -> core)",
        "rulekit.core._planted:2 imports rulekit.interpreter.runtime (core -> interpreter)",
        "rulekit.language._planted:3 imports rulekit.agents.greedy (language -> agents)",
    ]
