"""What decides a game besides its inputs: fingerprints of the rulekit code that plays it, the engine's and the agents'.

A game is a pure function of (content, rules, seed, agents) — and of the code that reads them. The version
number does not change when a greedy weight or a phase does, so a batch and a game log record these
fingerprints, and a resume or a replay with other code says so instead of mixing results.
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent
# The parts of rulekit that decide how a game goes, by what a designer would call them.
ENGINE = ("core", "interpreter", "language", "content", "registry.py", "engine.py", "grammar.lark")
AGENTS = ("agents",)
SOURCES = (".py", ".lark", ".json")


@functools.cache
def engine_code() -> str:
    """sha256 over the engine's source: the core, the effect interpreter, the language, content loading, the registry."""
    return _fingerprint(ENGINE)


@functools.cache
def agent_code() -> str:
    """sha256 over the agents' source: how greedy, random and default answer."""
    return _fingerprint(AGENTS)


def _fingerprint(parts: tuple[str, ...]) -> str:
    h = hashlib.sha256()
    for path in sorted(_files(parts), key=lambda p: p.relative_to(ROOT).as_posix()):
        h.update(path.relative_to(ROOT).as_posix().encode() + b"\0")
        try:
            h.update(path.read_bytes() + b"\0")
        except OSError:
            h.update(b"\0unreadable\0")
    return h.hexdigest()


def _files(parts: tuple[str, ...]) -> list[Path]:
    files = []
    for part in parts:
        path = ROOT / part
        if path.is_dir():
            files += [p for p in path.rglob("*") if p.suffix in SOURCES and "__pycache__" not in p.parts and p.is_file()]
        elif path.is_file():
            files.append(path)
    return files
