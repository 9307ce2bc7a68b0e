"""`rulekit serve` from the command line, and the position it writes as a scenario skeleton."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("watchfiles")

from tests.conftest import CONTENT
from rulekit.cli import main
from rulekit.content.loader import load_content
from rulekit.engine import new_game
from rulekit.scenarios.reader import ContentSource
from rulekit.scenarios.runner import run_file
from rulekit.serve.view import scenario_skeleton


def test_the_position_written_as_a_scenario_skeleton_is_a_scenario_that_runs_and_holds_the_position(tmp_path):
    content = load_content(CONTENT)
    game = new_game(content, 5, ["greedy"])
    for _ in range(60):                       # some way into the game, at a top-level decision
        q = game.pending()
        assert q is not None
        game.answer(game.choosers[q.seat].choose(game.observation(q.seat), q))
    obs = game.observation(0)
    text = scenario_skeleton(obs, 5)
    assert "hand: [" in text and f"round: {obs.round}" in text
    others = [s for s in range(1, 4) if obs.hand_size(s)]
    assert all(f"P{s + 1} holds {obs.hand_size(s)} card(s) P1 cannot see" in text for s in others)
    for s in others:                          # another hand is only counted, never listed
        line = next(x for x in text.splitlines() if x.startswith(f"  P{s + 1}: "))
        assert "hand:" not in line
    p1 = game.state.seats[0]
    expect = (f"expect: {{P1: {{score: {p1.score}, money: {p1.money}, tiles: {game.count(0, 'tiles')}, "
              f"dead: {game.count(0, 'dead')}, hand: {len(p1.hand)}, tableau: {len(p1.tableau)}}}, round: {obs.round}}}")
    path = tmp_path / "position.scenario.yaml"
    path.write_text(text.replace("expect: {}", expect), encoding="utf-8")
    result = run_file(path, source=ContentSource(CONTENT))
    assert result.passed, [f.message for f in result.failures]


def test_serve_refuses_seats_it_cannot_seat_in_plain_words():
    runner = CliRunner()
    two = runner.invoke(main, ["serve", "--seats", "human,human,greedy"])
    assert two.exit_code == 2 and "exactly one human seat" in two.output
    unknown = runner.invoke(main, ["serve", "--seats", "human,grredy"])
    assert unknown.exit_code == 2 and "unknown seat 'grredy'" in unknown.output
    one = runner.invoke(main, ["serve", "--seats", "human"])
    assert one.exit_code == 2 and "2 to 4" in one.output


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_serve_binds_this_machine_only_and_says_so():
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "rulekit", "serve", str(CONTENT), "--port", str(port), "--pause", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, encoding="utf-8",
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        lines = [proc.stdout.readline() for _ in range(3)]
        assert f"http://127.0.0.1:{port}/" in lines[0]
        assert "this machine only (127.0.0.1)" in lines[1]
        deadline = time.monotonic() + 20
        while True:                           # it answers on 127.0.0.1 ...
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.1)
        listening = subprocess.run(["ss", "-ltnH", f"sport = :{port}"], capture_output=True, text=True).stdout
        assert listening and all("127.0.0.1:" in line for line in listening.splitlines())   # ... and on nothing else
    finally:
        proc.terminate()
        proc.wait(timeout=10)
