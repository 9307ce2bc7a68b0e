"""Seeds have one range for every command and file that takes one (registry.LIMITS["seed"]): a seed beyond it
is refused with that range before anything runs, never a traceback."""

from __future__ import annotations

import json
import textwrap

import pytest
from click.testing import CliRunner

from rulekit import registry
from rulekit.cli import main
from rulekit.scenarios.reader import ContentSource
from rulekit.scenarios.runner import run_file
from tests.conftest import ENGINE_CONTENT

TOP = registry.LIMITS["seed"].value
RANGE = f"from 0 to {TOP:,}"


def run(*args):
    return CliRunner().invoke(main, list(map(str, args)), catch_exceptions=False)


@pytest.mark.parametrize("seed", [2**63, TOP + 1, -1, "9" * 5000])
def test_play_refuses_a_seed_out_of_range(seed):
    r = run("play", "--seed", seed, "--content", ENGINE_CONTENT)
    assert r.exit_code == 2 and RANGE in r.output and "Traceback" not in r.output, r.output


def test_playtest_refuses_a_seed_too_large_to_store_before_making_anything(tmp_path):
    out = tmp_path / "out"
    r = run("playtest", ENGINE_CONTENT, "--seed", 2**63, "--games", 2, "--out", out, "--quiet")
    assert r.exit_code == 2 and RANGE in r.output and "Traceback" not in r.output, r.output
    assert not out.exists()


def test_the_largest_seed_plays_a_batch(tmp_path):
    r = run("playtest", ENGINE_CONTENT, "--seed", TOP, "--games", 2, "--out", tmp_path, "--quiet")
    assert r.exit_code == 0, r.output
    assert json.loads((tmp_path / "summary.json").read_text(encoding="utf-8"))["seed"] == TOP


@pytest.mark.parametrize("seed", ["-5", str(TOP + 1), "1.5"])
def test_a_scenario_seed_out_of_range_is_named_at_its_line(tmp_path, seed):
    path = tmp_path / "s.scenario.yaml"
    path.write_text(textwrap.dedent(f"""\
        scenario: a seed
        seed: {seed}
        expect:
          game_over: false
        """), encoding="utf-8")
    result = run_file(path, str(path), ContentSource(ENGINE_CONTENT))
    assert not result.passed
    assert any(f"s.scenario.yaml:2:7: RK010 seed must be a whole number {RANGE}" in str(f)
               for f in result.failures), [str(f) for f in result.failures]


def test_a_log_header_seed_out_of_range_is_refused(tmp_path):
    log = tmp_path / "game.jsonl"
    assert run("play", "--seed", 5, "--players", 2, "--content", ENGINE_CONTENT, "--log", log).exit_code == 0
    lines = log.read_text(encoding="utf-8").splitlines()
    head = json.loads(lines[0])
    head["seed"] = 2**63
    log.write_text("\n".join([json.dumps(head), *lines[1:]]) + "\n", encoding="utf-8")
    r = run("replay", log)
    assert r.exit_code == 1 and "game.jsonl:1:1:" in r.output and f"at most {TOP:,}" in r.output, r.output
