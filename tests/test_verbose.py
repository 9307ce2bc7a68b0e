"""`rulekit play -v` and `rulekit test -v` show every handler, trigger, reaction, modifier and combo that fired."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from rulekit.cli import main
from tests.conftest import CONTENT

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "tests" / "fixtures" / "engine"

SCENARIO = """\
scenario: a death pays two
combos: []
cards:
  - kind: policy
    id: mourning
    name: 哀悼金
    stage: 1
    price: 0
    effect: |
      when death:
        money += 2
  - kind: policy
    id: slow
    name: 减缓
    stage: 1
    price: 0
    effect: |
      modify new_dead by -1 min 1
setup:
  board: |
    S S . . . h h h h h
    . . . . . h h h h h
    . . . . . h h h h h
    . . . . . h h h h h
    . . . . . h h h h h
    h h h h h h h h h h
    h h h h h h h h h h
    h h h h h h h h h h
    h h h h h h h h h h
    h h h h h h h h h h
  P1: {disease: 8, tableau: [mourning, slow]}
steps:
  - step: deaths
expect:
  P1: {money: 2, dead: 1}
"""


def test_play_v_shows_each_handler_and_what_it_changed():
    done = CliRunner().invoke(main, ["play", "--seed", "3", "-v", "--content", str(ENGINE)])
    assert done.exit_code == 0, done.output
    lines = done.output.splitlines()
    k = lines.index("  ▸ P1 基金 (fund) — on play")
    assert lines[k + 1].strip() == "· P1 money +2 → 7", "the change the card made comes right under it"
    assert "  ▸ P1 富 (rich) — on setup" in lines
    assert any(line.strip().startswith("▸ 疫 (plague) — on resolve") for line in lines)


def test_play_without_v_shows_no_effect_lines():
    done = CliRunner().invoke(main, ["play", "--seed", "3", "--content", str(ENGINE)])
    assert done.exit_code == 0, done.output
    assert "▸" not in done.output


def test_test_v_shows_the_trigger_and_the_modifier_in_the_order_they_happened(tmp_path):
    path = tmp_path / "death_pays.scenario.yaml"
    path.write_text(SCENARIO, encoding="utf-8")
    done = CliRunner().invoke(main, ["test", "-v", str(path), "--content", str(CONTENT)])
    assert done.exit_code == 0, done.output
    lines = [line.strip() for line in done.output.splitlines()]
    modifier = lines.index("▸ P1 减缓 (slow) — modifies new_dead by -1")
    asked = next(k for k, line in enumerate(lines) if line.startswith("P1 was asked which cell"))
    trigger = lines.index("▸ P1 哀悼金 (mourning) — when death")
    assert modifier < asked < trigger
    assert lines[trigger + 1] == "· P1 money +2 → 2"


def test_test_v_shows_a_death_prevented_in_the_deaths_step(tmp_path):
    """The death step's handler prevents the death: -v says so under the handler, for each death."""
    scenario = SCENARIO.replace("        money += 2\n", "        prevent\n").replace(
        "P1: {money: 2, dead: 1}", "P1: {money: 0, dead: 0, severe: 2}").replace("tableau: [mourning, slow]",
                                                                               "tableau: [mourning]")
    path = tmp_path / "death_prevented.scenario.yaml"
    path.write_text(scenario, encoding="utf-8")
    done = CliRunner().invoke(main, ["test", "-v", str(path)])
    assert done.exit_code == 0, done.output
    lines = [line.strip() for line in done.output.splitlines()]
    fired = [k for k, line in enumerate(lines) if line == "▸ P1 哀悼金 (mourning) — when death"]
    assert [lines[k + 1] for k in fired] == ["· the death at (0, 0) is prevented", "· the death at (0, 1) is prevented"]
