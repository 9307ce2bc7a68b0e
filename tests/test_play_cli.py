"""`rulekit play` and `rulekit replay` as a designer uses them, and games that must stop cleanly."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest
from click.testing import CliRunner

from rulekit.cli import main
from tests.conftest import CONTENT

DECK = ("--content", str(CONTENT))       # the tests' deck, not the designer's content/


def run(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def content_with(tmp_path, policy_yaml: str):
    root = tmp_path / "content"
    shutil.copytree(CONTENT, root, ignore=shutil.ignore_patterns(".rulekit_cache"))
    (root / "policies" / "zz_test.yaml").write_text(policy_yaml, encoding="utf-8")
    return root


def test_play_prints_rounds_board_and_ranking():
    r = run("play", *DECK, "--seed", "3")
    assert r.exit_code == 0, r.output
    assert "Round 1" in r.output and "事件 Event:" in r.output
    assert "排名 Ranking:" in r.output and "胜者 winner" in r.output
    assert "med" in r.output and "Final" in r.output


def test_same_seed_same_output_in_another_process():
    cmd = [sys.executable, "-m", "rulekit", "play", *DECK, "--seed", "11", "--players", "3"]
    a = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    b = run("play", *DECK, "--seed", "11", "--players", "3").output
    assert a == b


def test_log_replays_exactly(tmp_path):
    log = tmp_path / "game.jsonl"
    r = run("play", *DECK, "--seed", "5", "--agents", "random,default,random,default", "--log", str(log))
    assert r.exit_code == 0
    lines = log.read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[0])["e"] == "header"
    assert any(json.loads(line)["e"] == "ask" for line in lines)
    r = run("replay", str(log))
    assert r.exit_code == 0 and "reproduced exactly" in r.output


def test_tampered_log_is_caught(tmp_path):
    log = tmp_path / "game.jsonl"
    run("play", *DECK, "--seed", "5", "--log", str(log))
    lines = log.read_text(encoding="utf-8").splitlines()
    recs = [json.loads(line) for line in lines]
    k = next(i for i, r in enumerate(recs) if r["e"] == "ask" and r["q"] == "strategy")
    recs[k]["q"] = "bid"
    log.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in recs) + "\n", encoding="utf-8")
    r = run("replay", str(log))
    assert r.exit_code == 1 and "does not reproduce" in r.output


@pytest.mark.parametrize("args, words", [
    (["--players", "7"], "2<=x<=4"),
    (["--agents", "genius"], "unknown agent 'genius'"),
    (["--agents", "random,random"], "2 agents named for 4 players"),
])
def test_command_line_misuse_exits_2(args, words):
    r = run("play", *DECK, *args)
    assert r.exit_code == 2 and words in r.output


def test_broken_content_is_reported_not_raised(tmp_path):
    root = content_with(tmp_path,
                        "- id: broken\n  name: 坏牌\n  stage: 1\n  price: 1\n  effect: |\n    on play:\n      medicl += 1\n")
    r = run("play", "--content", str(root))
    assert r.exit_code == 1
    assert "zz_test.yaml:7:7" in r.output and "medical" in r.output
    assert "Traceback" not in r.output


def test_effect_failing_mid_game_names_card_line_round_and_seed(tmp_path):
    root = content_with(tmp_path, "- id: zero_div\n  name: 除零\n  stage: 1\n  price: 0\n  copies: 30\n"
                                  "  effect: |\n    on play:\n      medical += 1 // (hand - hand)\n")
    r = run("play", "--content", str(root), "--seed", "2", "--agents", "random")
    assert r.exit_code == 1
    assert "除零 (zero_div)" in r.output and "zz_test.yaml:8" in r.output
    assert "division by zero" in r.output and "seed 2" in r.output and "round" in r.output


def test_a_trigger_that_fires_itself_is_stopped(tmp_path):
    root = content_with(tmp_path, "- id: echo\n  name: 回声\n  stage: 1\n  price: 0\n  copies: 30\n"
                                  "  effect: |\n    when reveal:\n      reveal 1 tiles\n")
    r = run("play", "--content", str(root), "--seed", "1")
    assert r.exit_code == 1
    assert "回声 (echo)" in r.output and "set each other off" in r.output


def test_include_tbd_and_only_designed_change_the_decks():
    from rulekit.content.loader import load_content

    full = load_content(CONTENT)
    designed = load_content(CONTENT, only_designed=True)
    assert len(designed.of_kind("policy")) < len(full.of_kind("policy"))
    assert all(c.status == "designed" for c in designed.cards)
    r = run("play", *DECK, "--seed", "4", "--only-designed")
    assert r.exit_code == 0


@pytest.mark.parametrize("text, words", [
    ('{"e": "header"}\n', "lacks a whole-number seed"),
    ("[1, 2]\n", "not a record of a rulekit game log"),
    ('{"e": "header", "seed": 1, "players": 4, "agents": ["genius"]}\n', "unknown agent 'genius'"),
    ("not json\n", "not a JSON line"),
])
def test_a_broken_log_gets_a_message_not_a_traceback(tmp_path, text, words):
    log = tmp_path / "game.jsonl"
    log.write_text(text, encoding="utf-8")
    r = run("replay", str(log))
    assert r.exit_code == 1 and words in r.output and "Traceback" not in r.output


def test_a_log_that_cannot_be_written_is_refused_before_playing(tmp_path):
    r = run("play", *DECK, "--log", str(tmp_path / "missing" / "game.jsonl"))
    assert r.exit_code == 2 and "cannot write" in r.output and "Round 1" not in r.output
