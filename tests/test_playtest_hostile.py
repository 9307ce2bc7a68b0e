"""`rulekit playtest` given hostile options and folders: a clear message within seconds, nothing lost,
and nothing left behind that blocks the next run."""

from __future__ import annotations

import json
import shutil
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
from rulekit.playtest import runner, store
from rulekit.playtest.runner import Batch, BatchError, game_seed
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


# ---- games.sqlite edited so that it keeps its shape ----------------------------------------------------

BATCH = 20


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    out = tmp_path_factory.mktemp("batch") / "b"
    r = playtest("--games", BATCH, "--seed", 1, "--out", out)
    assert r.exit_code == 0, r.output
    return out


def _copy_game(db, source: int, index: int, **changes):
    cols = ", ".join(store.COLUMNS[1:])
    db.execute(f"INSERT INTO games (game, {cols}) SELECT ?, {cols} FROM games WHERE game = ?", (index, source))
    if changes:
        db.execute(f"UPDATE games SET {', '.join(f'{k} = ?' for k in changes)} WHERE game = ?", (*changes.values(), index))


def _without_primary_key(db):
    """The games table made again with the same columns but no PRIMARY KEY, so a game can appear twice."""
    db.execute("ALTER TABLE games RENAME TO old")
    db.execute(f"CREATE TABLE games ({', '.join(store.COLUMNS)})")
    db.execute("INSERT INTO games SELECT * FROM old")
    db.execute("DROP TABLE old")
    _copy_game(db, 6, 6)


@pytest.mark.parametrize("edit, words", [
    (lambda db: _copy_game(db, 3, 999999), "game 999999 was changed outside rulekit: its game number is outside the"
                                           f" batch, which has games 0 to {BATCH - 1}"),
    (lambda db: db.execute("UPDATE games SET seed = seed + 1 WHERE game = 4"),
     f"game 4 was changed outside rulekit: its seed is {game_seed(1, 4) + 1}, but game 4 of a batch with seed 1"
     f" has seed {game_seed(1, 4)}"),
    (lambda db: (db.execute("DELETE FROM games WHERE game = 5"), _copy_game(db, 2, 5)), "game 5 was changed"),
    (_without_primary_key, "game 6 was changed outside rulekit: it is stored twice"),
    (lambda db: db.execute("UPDATE games SET rounds = 999 WHERE game = 7"), "it lasted 999 rounds"),
    (lambda db: db.execute("UPDATE games SET end_reason = 'aliens' WHERE game = 7"), "its end reason 'aliens'"),
    (lambda db: db.execute("UPDATE games SET agents = replace(agents, 'greedy', 'random') WHERE game = 8"),
     "game 8 was changed outside rulekit: it was played by"),
    (lambda db: db.execute("UPDATE games SET advisors = json_set(advisors, '$[0]', 'nobody') WHERE game = 9"),
     "it names the advisor 'nobody', which the batch's content does not have"),
    (lambda db: db.execute("UPDATE games SET scores = json_set(scores, '$[0]', 99999) WHERE game = 10"),
     "a score outside the score track's range"),
])
def test_a_game_edited_to_keep_its_shape_is_refused_by_number(finished, tmp_path, edit, words):
    out = tmp_path / "t"
    shutil.copytree(finished, out)
    db = sqlite3.connect(out / "games.sqlite")
    edit(db)
    db.commit()
    db.close()
    before = (out / "summary.json").read_bytes()
    r = playtest("--games", BATCH, "--seed", 1, "--out", out, "--resume")
    assert r.exit_code == 1, r.output
    assert words in r.output and "--fresh" in r.output and "Traceback" not in r.output, r.output
    assert (out / "summary.json").read_bytes() == before
