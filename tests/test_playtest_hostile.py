"""`rulekit playtest` given hostile options and folders: a clear message within seconds, nothing lost,
and nothing left behind that blocks the next run."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import time
import tracemalloc
from contextlib import contextmanager

import pytest
from click.testing import CliRunner

from rulekit import registry
from rulekit.cli import main
from rulekit.playtest import runner
from rulekit.playtest.runner import Batch, BatchError
from tests.conftest import ENGINE_CONTENT, ROOT


def playtest(*args):
    return CliRunner().invoke(main, ["playtest", str(ENGINE_CONTENT), *map(str, args), "--quiet"],
                              catch_exceptions=False)


def summary(out) -> dict:
    return json.loads((out / "summary.json").read_text(encoding="utf-8"))


# ---- --games -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("games", [100_000_000, registry.LIMITS["games"].value + 1, 0])
def test_games_beyond_the_ceiling_are_refused_before_anything_runs(tmp_path, games):
    out = tmp_path / "out"
    r = playtest("--games", games, "--out", out)
    assert r.exit_code == 2 and "Traceback" not in r.output, r.output
    assert f"a batch has 1 to {registry.LIMITS['games'].value:,} games" in r.output
    assert not out.exists()


def test_the_largest_batch_lists_none_of_its_games_up_front(tmp_path, engine_content):
    """Starting a batch of the ceiling's size costs a byte a game, not a Python list of a million indexes."""
    class Started(Exception):
        pass

    def stop(done, total):
        raise Started

    games = registry.LIMITS["games"].value
    batch = Batch(str(ENGINE_CONTENT), games, 1, 2, ("random", "random"))
    tracemalloc.start()
    try:
        with pytest.raises(Started):
            runner.run(engine_content, batch, tmp_path, on_start=stop)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 8 * games, f"{peak:,} bytes to start a batch of {games:,} games"


# ---- --scheduler -------------------------------------------------------------------------------------

@pytest.mark.parametrize("address, words", [
    ("not-a-url", "it has no port"),
    ("tcp://localhost", "it has no port"),
    ("tcp://[::1:8786", "its host cannot be read"),
    ("tcp://[zz::1]:8786", "its host cannot be read"),
    ("tcp://host:99999", "its port is no number from 1 to 65535"),
    ("http://host:8786", "not tcp://"),
    ("tcp://host:8786/path", "more than a host and a port"),
])
def test_a_bad_scheduler_address_is_refused_before_anything_is_made(tmp_path, address, words):
    out = tmp_path / "out"
    r = playtest("--games", 2, "--backend", "dask", "--scheduler", address, "--out", out)
    assert r.exit_code == 2 and "Traceback" not in r.output, r.output
    assert "is not a dask scheduler address" in r.output and words in r.output and "tcp://HOST:PORT" in r.output
    assert not out.exists()


def test_a_run_that_stops_before_its_first_game_does_not_block_the_next(tmp_path, monkeypatch):
    @contextmanager
    def unreachable(*args):
        raise BatchError("cannot reach the dask scheduler at tcp://10.0.0.1:8786")
        yield

    monkeypatch.setattr(runner, "dask_games", unreachable)
    r = playtest("--games", 3, "--seed", 1, "--backend", "dask", "--scheduler", "tcp://10.0.0.1:8786",
                 "--out", tmp_path)
    assert r.exit_code == 1 and "cannot reach" in r.output, r.output
    r = playtest("--games", 3, "--seed", 2, "--out", tmp_path)
    assert r.exit_code == 0, r.output
    assert summary(tmp_path)["seed"] == 2 and summary(tmp_path)["games"]["total"] == 3


# ---- two runs on one --out ---------------------------------------------------------------------------

def _stored(out) -> int:
    db = out / "games.sqlite"
    if not db.is_file():
        return 0
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return con.execute("SELECT count(*) FROM games").fetchone()[0]
    except sqlite3.Error:       # the run has not made its tables yet
        return 0
    finally:
        con.close()


def test_a_second_run_on_a_batch_being_written_is_refused_and_deletes_nothing(tmp_path):
    out = tmp_path / "out"
    command = [sys.executable, "-m", "rulekit", "playtest", str(ENGINE_CONTENT), "--out", str(out), "--quiet"]
    first = subprocess.Popen([*command, "--games", "1000000"], cwd=ROOT, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while _stored(out) == 0:
            assert first.poll() is None, first.stderr.read().decode()
            assert time.monotonic() < deadline, "the first run stored no game in 60 s"
            time.sleep(0.05)
        for extra in (["--fresh"], ["--resume"], []):
            held = _stored(out)
            second = subprocess.run([*command, "--games", "5", *extra], cwd=ROOT, capture_output=True, text=True,
                                    timeout=60)
            assert second.returncode == 1, second.stderr
            assert f"{out} is being written by another playtest run (process {first.pid})" in second.stderr
            assert "Traceback" not in second.stderr
            assert _stored(out) >= held, f"{extra}: games were deleted under the running batch"
    finally:
        first.kill()        # as a crash would end it: the operating system frees its lock
        first.wait()
    r = playtest("--games", 3, "--fresh", "--out", out)
    assert r.exit_code == 0, r.output
    assert summary(out)["games"]["total"] == 3
