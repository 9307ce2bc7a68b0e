"""`rulekit replay` reads a log line by line, in step with the game it replays: a huge or hostile log costs
what its first wrong line costs, and a log written by other rulekit code says so."""

from __future__ import annotations

import json
import tracemalloc

import pytest
from click.testing import CliRunner

from rulekit import play as P
from rulekit.cli import main
from tests.conftest import ENGINE_CONTENT

BIG = 10_000_000        # bytes: a log far longer than any game writes


def run(*args):
    return CliRunner().invoke(main, list(map(str, args)), catch_exceptions=False)


@pytest.fixture(scope="module")
def lines(tmp_path_factory) -> list[str]:
    """The lines of one logged game of the fixture content (2 greedy players, seed 5)."""
    path = tmp_path_factory.mktemp("log") / "game.jsonl"
    r = run("play", "--seed", 5, "--players", 2, "--content", ENGINE_CONTENT, "--log", path)
    assert r.exit_code == 0, r.output
    return path.read_text(encoding="utf-8").splitlines(keepends=True)


def write(tmp_path, lines, name="game.jsonl"):
    path = tmp_path / name
    path.write_text("".join(lines), encoding="utf-8")
    return path


def padded(lines, second: str) -> list[str]:
    """The header, `second`, then the game's records over and over: BIG bytes of well-formed records."""
    body = lines[2:]
    size = sum(map(len, body))
    return [lines[0], second, *body * (BIG // size + 1)]


def peak(*args) -> tuple[object, int]:
    tracemalloc.start()
    try:
        r = run(*args)
        return r, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_huge_log_with_a_bad_second_line_is_refused_there_without_reading_on(tmp_path, lines):
    bad = '{"e": "wormhole", "round": 1, "phase": "setup"}\n'
    short = write(tmp_path, [lines[0], bad, *lines[2:]], "short.jsonl")
    _, baseline = peak("replay", short)             # loading the content and starting the game cost the same
    log = write(tmp_path, padded(lines, bad))
    r, used = peak("replay", log)
    assert r.exit_code == 1 and 'game.jsonl:2:1: `e` is "wormhole"' in r.output, r.output
    assert used - baseline < BIG // 20, f"{used - baseline:,} more bytes held to refuse line 2 of a {BIG:,}-byte log"


def test_a_log_that_goes_on_past_its_game_is_read_only_as_far_as_the_game(tmp_path, lines):
    _, normal = peak("replay", write(tmp_path, lines, "normal.jsonl"))
    log = write(tmp_path, padded(lines, lines[1]))
    r, used = peak("replay", log)
    assert r.exit_code == 1, r.output
    assert f"game.jsonl:{len(lines) + 1}: the game does not reproduce" in r.output and "(end of log)" in r.output
    assert used < normal + BIG // 10, f"{used:,} bytes to replay a {BIG:,}-byte log; {normal:,} for the game alone"


def test_a_bad_line_late_in_a_log_is_named_by_its_number(tmp_path, lines):
    changed = list(lines)
    n = len(lines) - 3
    changed[n - 1] = changed[n - 1].replace('"e": "', '"e": "x', 1)
    r = run("replay", write(tmp_path, changed))
    assert r.exit_code == 1 and f"game.jsonl:{n}:1: `e` is" in r.output, r.output


def test_a_log_of_an_older_format_is_refused_in_plain_words(tmp_path, lines):
    head = json.loads(lines[0])
    head["format"] = 1
    for key in ("engine_code", "agent_code"):
        head.pop(key)
    r = run("replay", write(tmp_path, [json.dumps(head) + "\n", *lines[1:]]))
    assert r.exit_code == 1, r.output
    assert "game.jsonl:1:1: this log is in log format 1" in r.output and "rulekit play --log" in r.output


@pytest.mark.parametrize("key, words", [("engine_code", "the engine's"), ("agent_code", "the agents'")])
def test_a_log_written_by_other_code_of_the_same_version_says_so(tmp_path, lines, key, words):
    head = json.loads(lines[0])
    head[key] = "0" * 64
    log = write(tmp_path, [json.dumps(head) + "\n", *lines[1:]])
    r = run("replay", log)
    assert r.exit_code == 0 and "reproduced exactly" in r.output, r.output
    assert f"written by other rulekit code than this one ({words} code has changed since" in r.output
    changed = [json.dumps(head) + "\n", *lines[1:-1]]
    r = run("replay", write(tmp_path, changed, "short.jsonl"))
    assert r.exit_code == 1 and "does not reproduce" in r.output and f"({words} code has changed" in r.output


def test_a_log_written_by_this_code_has_no_note(tmp_path, lines):
    r = run("replay", write(tmp_path, lines))
    assert r.exit_code == 0 and "reproduced exactly" in r.output and "Note" not in r.output, r.output
    assert P.code_note(json.loads(lines[0])) == ""
