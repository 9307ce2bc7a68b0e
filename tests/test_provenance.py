"""A batch and a game log record the code that decides a game, not only rulekit's version: an edit to the
engine or to an agent changes its fingerprint, and a --resume with other code is refused, saying which."""

from __future__ import annotations

import shutil

import pytest
from click.testing import CliRunner

from rulekit import provenance
from rulekit.cli import main
from rulekit.playtest import runner
from tests.conftest import ENGINE_CONTENT


@pytest.fixture
def source(tmp_path, monkeypatch):
    """A copy of rulekit's source that the fingerprints read instead of the installed one."""
    copy = tmp_path / "rulekit"
    shutil.copytree(provenance.ROOT, copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(provenance, "ROOT", copy)
    return copy


def prints() -> tuple[str, str]:
    return provenance._fingerprint(provenance.ENGINE), provenance._fingerprint(provenance.AGENTS)


def edit(path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_the_fingerprints_are_those_of_the_installed_code():
    assert (provenance.engine_code(), provenance.agent_code()) == prints()


def test_one_greedy_weight_changes_the_agents_fingerprint_only(source):
    engine, agents = prints()
    edit(source / "agents" / "weights.py", '"medical": 0.45', '"medical": 0.46')
    now_engine, now_agents = prints()
    assert now_engine == engine and now_agents != agents


@pytest.mark.parametrize("path", ["core/game.py", "interpreter/runtime.py", "language/checker.py",
                                  "content/loader.py", "registry.py", "grammar.lark"])
def test_an_engine_edit_changes_the_engine_fingerprint_only(source, path):
    engine, agents = prints()
    with open(source / path, "a", encoding="utf-8") as f:
        f.write("\n")
    now_engine, now_agents = prints()
    assert now_engine != engine and now_agents == agents


def test_compiled_files_and_other_parts_of_rulekit_are_not_fingerprinted(source):
    before = prints()
    (source / "core" / "__pycache__").mkdir()
    (source / "core" / "__pycache__" / "game.cpython-311.pyc").write_bytes(b"\0")
    with open(source / "lint" / "command.py", "a", encoding="utf-8") as f:
        f.write("\n")
    assert prints() == before


def playtest(*args):
    return CliRunner().invoke(main, ["playtest", str(ENGINE_CONTENT), *map(str, args), "--quiet"],
                              catch_exceptions=False)


@pytest.mark.parametrize("name, words", [("engine_code", "engine code (rulekit's core"),
                                         ("agent_code", "agents' code (how greedy")])
def test_resume_with_other_code_of_the_same_version_is_refused_and_says_what_changed(tmp_path, monkeypatch,
                                                                                     name, words):
    assert playtest("--games", 3, "--out", tmp_path).exit_code == 0
    before = (tmp_path / "summary.json").read_bytes()
    monkeypatch.setattr(runner, name, lambda: "f" * 64)
    r = playtest("--games", 6, "--out", tmp_path, "--resume")
    assert r.exit_code == 1 and "Traceback" not in r.output, r.output
    assert words in r.output and "is now ffffffffffff…" in r.output and "--fresh" in r.output
    assert "content (a card" not in r.output     # only what changed is named
    assert (tmp_path / "summary.json").read_bytes() == before
