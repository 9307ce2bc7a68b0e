"""Every tests/scenarios/*.scenario.yaml as its own test case, and the scenario runner itself."""

from __future__ import annotations

import json
import shutil
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulekit import registry
from rulekit.cli import main
from rulekit.language import ast
from rulekit.scenarios.reader import ContentSource, read_scenario
from rulekit.scenarios.runner import find_scenarios, run_file
from rulekit.scenarios.schema import scenario_schema
from tests.conftest import CONTENT

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = sorted((ROOT / "tests" / "scenarios").glob("*.scenario.yaml"))
SOURCE = ContentSource(CONTENT)

EMPTY_BOARD = "\n".join(["    " + " ".join(["h"] * 10)] * 10)


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.name.removesuffix(".scenario.yaml") for p in SCENARIOS])
def test_scenario(path: Path) -> None:
    result = run_file(path, str(path.relative_to(ROOT)), SOURCE)
    assert result.passed, "\n".join(str(f) for f in result.failures)


# ---- the runner ---------------------------------------------------------------------------------------

def write(tmp_path: Path, text: str, name: str = "t.scenario.yaml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


def line_of(path: Path, needle: str, nth: int = 1) -> int:
    hits = [i for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if needle in line]
    return hits[nth - 1]


def run(path: Path):
    return run_file(path, str(path), SOURCE)


def only_failure(result):
    assert len(result.failures) == 1, [str(f) for f in result.failures]
    return result.failures[0]


def test_a_failing_expectation_is_reported_at_its_line(tmp_path):
    path = write(tmp_path, """
        scenario: medical clamps
        combos: []
        setup:
          P1: {medical: 15, money: 2, hand: [医院扩容]}
        steps:
          - play: {player: P1, card: 医院扩容}
        expect:
          P1:
            medical: 16
            money: ">= 0"
          P2: {medical: "< 5"}
    """)
    result = run(path)
    assert not result.passed and not result.malformed
    messages = {(f.line, f.message) for f in result.failures}
    assert messages == {(line_of(path, "medical: 16"), "P1 medical: expected 16, got 15"),
                        (line_of(path, "P2:", 1), "P2 medical: expected < 5, got 5")}


def test_a_passing_scenario_uses_names_and_ids(tmp_path):
    path = write(tmp_path, """
        scenario: both names work
        combos: []
        setup:
          P1: {money: 5, hand: [hospital_expansion, 集思广益]}
        steps:
          - play: {player: P1, card: 医院扩容}
        expect:
          P1: {medical: 6, money: 3, hand: [brainstorm], tableau: [医院扩容]}
    """)
    result = run(path)
    assert result.passed, [str(f) for f in result.failures]


def test_malformed_board_is_reported_at_the_bad_cell(tmp_path):
    rows = [" ".join(["h"] * 10)] * 10
    rows[3] = "h h h h q h h h h h"
    rows[6] = "h h h h h h h h h"
    board = "\n".join("    " + r for r in rows)
    path = write(tmp_path, "scenario: bad board\nsetup:\n  board: |\n" + board + "\n")
    result = run(path)
    assert result.malformed
    found = {(f.line, f.col, f.code) for f in result.failures}
    assert (4 + 3, 5 + 8, "SC001") in found           # row 3 starts on line 4; 'q' is the 5th cell
    assert any(f.line == 4 + 6 and "row 6 has 9 cells" in f.message for f in result.failures)


def test_missing_quadrant_must_be_x(tmp_path):
    rows = [" ".join(["h"] * 10)] * 5 + [" ".join(["h"] * 5 + ["x"] * 5)] * 5
    board = "\n".join("    " + r for r in rows)
    path = write(tmp_path, "scenario: P4 has cells\nplayers: 3\nsetup:\n  board: |\n" + board + "\n")
    result = run(path)
    assert result.malformed
    messages = " ".join(f.message for f in result.failures)
    assert "P4's quadrant" in messages and "'x' (no cell) at (5, 5)" in messages
    good = [" ".join(["h"] * 10)] * 5 + [" ".join(["x"] * 5 + ["h"] * 5)] * 5
    path = write(tmp_path, "scenario: fine\nplayers: 3\nsetup:\n  board: |\n" + "\n".join("    " + r for r in good) +
                 "\nexpect:\n  P3: {tiles: 25}\n", "ok.scenario.yaml")
    assert run(path).passed


def test_unknown_card_key_and_player_have_positions_and_suggestions(tmp_path):
    path = write(tmp_path, """
        scenario: typos
        players: 3
        setup:
          P1: {hand: [医院扩]}
          P4: {money: 1}
        steps:
          - play: {player: P1, card: mutation}
    """)
    result = run(path)
    assert result.malformed
    card = result.failures[0]
    assert (card.code, card.line, card.col) == ("RK224", line_of(path, "医院扩"), 15)
    assert "did you mean '医院扩容'" in card.message
    assert result.failures[1].code == "SC002" and result.failures[1].line == line_of(path, "P4:")
    assert any("'mutation' is an event, not a policy card" in f.message for f in result.failures)

    path = write(tmp_path, """
        scenario: a typo in a key
        steps:
          - phsae: treatment
    """, "key.scenario.yaml")
    f = only_failure(run(path))
    assert f.code == "RK011" and f.line == 3 and "did you mean 'phase'" in f.message


def test_bad_yaml_and_wrong_types(tmp_path):
    path = write(tmp_path, "scenario: x\nsetup:\n  P1: {money: 1\n")
    f = only_failure(run(path))
    assert f.code == "RK001" and f.line >= 3
    path = write(tmp_path, "scenario: x\nseed: 1\nseed: 2\n", "dup.scenario.yaml")
    assert only_failure(run(path)).code == "RK003"
    path = write(tmp_path, "scenario: x\nsetup:\n  P1: {money: many}\n", "type.scenario.yaml")
    f = only_failure(run(path))
    assert f.code == "RK010" and (f.line, f.col) == (3, 15) and "whole number" in f.message
    path = write(tmp_path, "scenario: x\nrules: {discovery: {per_round: -1}}\n", "rules.scenario.yaml")
    f = only_failure(run(path))
    assert f.line == 2 and "per_round" in f.message


def test_extra_cards_are_checked_at_their_position_in_the_scenario(tmp_path):
    path = write(tmp_path, """
        scenario: a broken test card
        cards:
          - kind: policy
            id: test_card
            name: 测试
            stage: 1
            price: 1
            effect: |
              on play:
                medicl += 1
    """)
    result = run(path)
    assert result.malformed
    f = result.failures[0]
    assert f.file == str(path) and f.line == line_of(path, "medicl") and "medical" in f.message


def test_a_test_card_can_be_played(tmp_path):
    path = write(tmp_path, """
        scenario: a new card before it joins a deck
        combos: []
        cards:
          - kind: policy
            id: test_boom
            name: 测试繁荣
            stage: 2
            price: 1
            effect: |
              on play:
                economy += 2
        setup:
          P1: {money: 1, hand: [测试繁荣]}
        steps:
          - play: {player: P1, card: test_boom}
        expect:
          P1: {economy: 2, money: 0, tableau: 1}
    """)
    assert run(path).passed


def test_a_forbidden_step_fails_at_its_line(tmp_path):
    path = write(tmp_path, """
        scenario: not enough money
        combos: []
        setup:
          P1: {money: 1, hand: [医院扩容]}
        steps:
          - phase: treatment
          - play: {player: P1, card: 医院扩容}
        expect:
          P1: {tableau: 1}
    """)
    f = only_failure(run(path))
    assert f.line == line_of(path, "- play") and "not allowed by the rules" in f.message and "costs 2" in f.message


def test_a_tableau_card_was_executed_in_an_earlier_round(tmp_path):
    path = write(tmp_path, """
        scenario: execute again, then not twice in a round
        combos: []
        setup:
          P1: {money: 10, tableau: [医院扩容]}
          round: 3
        steps:
          - play: {player: P1, card: 医院扩容}
          - play: {player: P1, card: 医院扩容}
    """)
    f = only_failure(run(path))
    assert f.line == line_of(path, "- play", 2) and "already executed this round" in f.message


def test_an_illegal_scripted_answer_fails_at_the_choices_line(tmp_path):
    path = write(tmp_path, """
        scenario: a cell that is not a candidate
        combos: []
        setup:
          board: |
            M H h h h h h h h h
            H h H h h h h h h h
            h H S H h h h h h h
            h h H h h h h h h h
            h h h h h h h h h h
            h h h h h h h h h h
            h h h h h h h h h h
            h h h h h h h h h h
            h h h h h h h h h h
            h h h h h h h h h h
        steps:
          - step: contagion
        choices:
          P1: [[1, 0], [9, 9]]
    """)
    f = only_failure(run(path))
    assert f.line == line_of(path, "choices:")
    assert "`[9, 9]`" in f.message and "which cell" in f.message and "[1, 2]" in f.message


def test_unused_scripted_answers_fail(tmp_path):
    path = write(tmp_path, """
        scenario: nobody asks P2
        combos: []
        choices:
          P2: [yes]
    """)
    f = only_failure(run(path))
    assert f.line == 4 and "never used" in f.message


def test_events_come_first_in_the_given_order(tmp_path):
    path = write(tmp_path, """
        scenario: mutation, then resistance
        combos: []
        setup:
          events: [病毒变异, resistance]
        steps:
          - phase: event
        expect:
          P1: {disease: 11, medical: 5}
    """)
    assert run(path).passed


def test_without_a_board_the_corner_diagonals_are_revealed(tmp_path):
    path = write(tmp_path, """
        scenario: a game's board
        seed: 7
        expect:
          P1: {tiles: 20, alive: 5}
          P3: {tiles: 20, alive: 5}
          cell (0, 0): ">= 0"
    """)
    assert run(path).malformed
    path = write(tmp_path, """
        scenario: a game's board
        seed: 7
        expect:
          P1: {tiles: 20, alive: 5}
          P3: {tiles: 20, alive: 5}
          cell (4, 4): tile
    """, "b.scenario.yaml")
    f = only_failure(run(path))
    assert "cell (4, 4): expected tile, got" in f.message


def test_named_cards_leave_their_decks(tmp_path):
    path = write(tmp_path, """
        scenario: three copies named, none left to draw
        combos: []
        setup:
          P1: {hand: [医院扩容, 医院扩容], tableau: [医院扩容]}
    """)
    assert run(path).passed
    path = write(tmp_path, """
        scenario: a fourth copy
        setup:
          P1: {hand: [医院扩容, 医院扩容], tableau: [医院扩容]}
          P2: {hand: [医院扩容]}
    """, "four.scenario.yaml")
    f = only_failure(run(path))
    assert f.code == "SC003" and f.line == 4


def test_final_scoring_runs_once_when_the_game_is_over(tmp_path):
    path = write(tmp_path, """
        scenario: the last round ends the game
        combos: []
        rules: {max_rounds: 1}
        cards:
          - {kind: policy, id: test_monument, name: 测试纪念碑, stage: 3, price: 1, score: 4,
             effect: "modify income by 0"}
        setup:
          P2: {tableau: [test_monument]}
          events: [charity]
        steps:
          - round: 3
        expect:
          game_over: true
          round: 1
          P2: {score: ">= 4"}
          winner: P2
    """)
    result = run(path)
    assert result.passed, [str(f) for f in result.failures]


def test_cli_exit_codes_and_summary(tmp_path):
    good = write(tmp_path, "scenario: ok\ncombos: []\nexpect:\n  game_over: false\n", "a.scenario.yaml")
    bad = write(tmp_path, "scenario: not over\ncombos: []\nexpect:\n  round: 2\n", "b.scenario.yaml")
    broken = write(tmp_path, "scenario: [\n", "c.scenario.yaml")
    (tmp_path / "notes.yaml").write_text("not: a scenario\n", encoding="utf-8")
    runner = CliRunner()
    res = runner.invoke(main, ["test", str(good), "--content", str(CONTENT)])
    assert res.exit_code == 0 and res.output.splitlines()[-1] == "1 passed, 0 failed"
    res = runner.invoke(main, ["test", str(tmp_path), "--content", str(CONTENT)])
    assert res.exit_code == 1, res.output
    lines = res.output.splitlines()
    assert lines[0].startswith("PASS  ") and lines[1].startswith("FAIL  ") and lines[2].startswith("FAIL  ")
    assert f"{bad}:4:" in res.output and "round: expected 2, got 1" in res.output
    assert f"{broken}:" in res.output and "RK001" in res.output
    assert "Traceback" not in res.output
    assert lines[-1] == "1 passed, 2 failed"
    assert [shown for _, shown in find_scenarios([tmp_path])] == [str(good), str(bad), str(broken)]


def test_the_schema_knows_the_engine_words():
    defs = scenario_schema()["$defs"]
    assert defs["step"]["properties"]["phase"]["enum"] == list(registry.PHASE_ORDER)
    assert defs["step"]["properties"]["step"]["enum"] == list(registry.SPREAD_STEPS)
    expect = set(defs["seat_expect"]["properties"])
    assert expect == {*registry.TRACKS, "money", *registry.COUNTS, "hand", "tableau", "out", "unlocked"}
    setup = set(defs["seat_setup"]["properties"])
    assert setup == {*registry.TRACKS, "money", "advisor", "hand", "tableau", "unlocked"}
    json.dumps(scenario_schema())


# ---- a scenario's own unlock conditions, and broken content ------------------------------------------

def test_a_scenarios_own_unlock_condition_is_parsed_once_at_its_position(tmp_path):
    path = write(tmp_path, """
        scenario: own unlock
        combos: []
        rules:
          unlock:
            stage2: "infected > 0"
        expect:
          game_over: false
    """)
    scenario, _, problems = read_scenario(path, str(path), SOURCE)
    assert problems == []
    stage2 = scenario.unlock["stage2"].condition
    assert isinstance(stage2, ast.Compare) and (stage2.pos.line, stage2.pos.col) == (line_of(path, "stage2"), 14)
    assert scenario.unlock_files["stage2"] == str(path)
    assert scenario.unlock["stage3"] == SOURCE.base().unlock["stage3"]
    assert scenario.unlock_files["stage3"] == SOURCE.base().unlock_files["stage3"]


@pytest.mark.parametrize("condition, code, col", [("infected >", "RK101", 24), ("infected // dead > 1 or mild", "RK226", 38)])
def test_a_broken_unlock_condition_in_a_scenario_fails_at_its_place(tmp_path, condition, code, col):
    path = write(tmp_path, f"""
        scenario: own unlock
        combos: []
        rules:
          unlock:
            stage2: "{condition}"
    """)
    failure = only_failure(run(path))
    assert (failure.code, failure.line, failure.col) == (code, line_of(path, "stage2"), col)


def test_broken_content_is_listed_once_and_no_scenario_is_tried(tmp_path):
    content = tmp_path / "content"
    shutil.copytree(CONTENT, content)
    stage1 = content / "policies" / "stage1.yaml"
    stage1.write_text(stage1.read_text(encoding="utf-8").replace("medical += 1", "medicl += 1", 1), encoding="utf-8")
    for name in ("a.scenario.yaml", "b.scenario.yaml"):
        write(tmp_path, "scenario: fine\ncombos: []\nexpect:\n  game_over: false\n", name)
    res = CliRunner().invoke(main, ["test", str(tmp_path), "--content", str(content)])
    assert res.exit_code == 1
    lines = res.output.splitlines()
    assert len([ln for ln in lines if "RK201" in ln]) == 1 and lines[0].startswith(f"{stage1}:")
    assert lines[-1] == f"The content in {content} has 1 error, so no scenario can run; `rulekit lint {content}` explains each."
    assert "unreadable" not in res.output and not any(ln.startswith(("PASS", "FAIL")) for ln in lines)
