"""`rulekit lint --list proposed|tbd`: the cards still waiting for the designer, each at its file and line."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulekit.cli import main
from tests.conftest import ENGINE_CONTENT as ENGINE
from tests.lint_fixtures import private_lint_cache  # noqa: F401 — autouse: the cache away from ~/.cache

WAITING = """\
- id: draft_law
  name: 草案
  stage: 2
  price: 1
  status: proposed
  effect: |
    on play:
      money += 1

- id: someday
  name: 来日
  stage: 1
  price: 1
  status: tbd
"""
MAYBE = """\
# an event the designer has not decided on
- id: maybe
  name: 或许
  status: proposed
  effect: |
    on resolve:
      each player:
        money += 1
"""


def run(*args) -> tuple[int, list[str]]:
    result = CliRunner().invoke(main, ["lint", *map(str, args)], catch_exceptions=False)
    return result.exit_code, result.output.splitlines()


@pytest.fixture
def content(tmp_path, monkeypatch) -> Path:
    """The engine's cards plus two proposed cards and one tbd card, as ./content."""
    root = tmp_path / "content"
    shutil.copytree(ENGINE, root)
    (root / "policies" / "waiting.yaml").write_text(WAITING, encoding="utf-8")
    (root / "events" / "maybe.yaml").write_text(MAYBE, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return root


def test_list_proposed_names_each_card_at_its_file_and_line(content):
    code, lines = run("--list", "proposed")
    assert code == 0
    assert lines == [
        "2 proposed cards await your decision (keep one by deleting its `status: proposed` line, or rewrite it):",
        "  content/events/maybe.yaml:2: 或许 (maybe), event",
        "  content/policies/waiting.yaml:1: 草案 (draft_law), stage 2 policy",
    ]


def test_list_tbd_names_the_one_tbd_card(content):
    code, lines = run("content", "--list", "tbd")
    assert code == 0
    assert lines[0].startswith("1 card is marked tbd: it has no effect yet, so it is left out of the decks")
    assert lines[1:] == ["  content/policies/waiting.yaml:10: 来日 (someday), stage 1 policy"]


def test_a_file_lists_only_its_own_cards(content):
    _, lines = run("content/events/maybe.yaml", "--list", "proposed")
    assert lines[1:] == ["  content/events/maybe.yaml:2: 或许 (maybe), event"]


def test_nothing_waiting_is_said_in_words():
    code, lines = run(ENGINE, "--list", "proposed")
    assert (code, lines) == (0, ["no proposed cards: every card is decided"])
    assert run(ENGINE, "--list", "tbd")[1] == ["no cards marked tbd"]


def test_a_card_with_a_mistake_is_still_listed_and_an_unreadable_file_is_named(content):
    waiting = content / "policies" / "waiting.yaml"
    waiting.write_text(WAITING.replace("money += 1", "monye += 1"), encoding="utf-8")
    (content / "policies" / "broken.yaml").write_text("- id: [\n", encoding="utf-8")
    code, lines = run("--list", "proposed")
    assert code == 1
    assert "  content/policies/waiting.yaml:1: 草案 (draft_law), stage 2 policy" in lines
    assert any(line.startswith("content/policies/broken.yaml:2:1: RK001 ") for line in lines)
    assert lines[-1] == "The cards of these files are unknown, so they are not listed; `rulekit lint` explains each."


def test_the_counting_notes_name_the_command_that_lists_the_cards(content):
    _, lines = run("--no-cache", "--output-format", "concise")
    assert ("content: RK305 2 proposed cards await the designer's decision "
            "(`rulekit lint content --list proposed` names them)") in lines
    assert ("content: RK306 1 card is marked tbd (no effect yet, left out of the decks; "
            "`rulekit lint content --list tbd` names it)") in lines


@pytest.mark.parametrize("option", [["--output-format", "json"], ["--select", "RK2"], ["--ignore", "RK305"],
                                    ["--exit-zero"]])
def test_an_option_the_list_cannot_honour_is_refused_not_ignored(content, option):
    code, lines = run("--list", "proposed", *option)
    assert code == 2
    assert f"--list prints the cards one a line and checks nothing, so it takes no {option[0]}" in "\n".join(lines)
