"""`rulekit playtest` against broken files, odd folders and a full disk: a message that says what to do,
never a traceback, and nothing already stored lost."""

from __future__ import annotations

import dataclasses
import errno
import sqlite3
import sys

import pytest
from click.testing import CliRunner

from rulekit.cli import main
from rulekit.playtest import store
from tests.conftest import CONTENT

N = 8


def playtest(*args):
    return CliRunner().invoke(main, ["playtest", "--content", str(CONTENT), *map(str, args), "--quiet"],
                              catch_exceptions=False)


def stored_games(out) -> int:
    db = sqlite3.connect(out / "games.sqlite")
    try:
        return db.execute("SELECT count(*) FROM games").fetchone()[0]
    finally:
        db.close()


@pytest.fixture(scope="module")
def batch_dir(tmp_path_factory):
    """A finished batch of N games: what the broken copies below are made from."""
    out = tmp_path_factory.mktemp("st") / "base"
    r = playtest("--games", N, "--seed", 3, "--out", out)
    assert r.exit_code == 0, r.output
    return out


def sqlite_error(cls, message: str, name: str) -> sqlite3.Error:
    """The error SQLite raises, with its name, as the real failure would carry it."""
    err = cls(message)
    err.sqlite_errorname = name
    return err


# ---- a games.sqlite that is not a sound batch ----------------------------------------------------------

def _garbage(path):
    path.write_bytes(bytes(range(256)) * 40)


def _truncated(path):
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def _corrupted(path):
    data = bytearray(path.read_bytes())
    data[len(data) // 3: len(data) // 3 + 3000] = b"Z" * 3000
    path.write_bytes(bytes(data))


def _other_schema(path):
    path.unlink()
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE games (id INTEGER, name TEXT)")
    db.execute("INSERT INTO games VALUES (1, 'mine')")
    db.commit()
    db.close()


def _directory(path):
    path.unlink()
    path.mkdir()
    (path / "keep.txt").write_text("mine", encoding="utf-8")


@pytest.mark.parametrize("spoil, words", [
    (_garbage, "not a SQLite database"),
    (_truncated, "damaged"),
    (_corrupted, "damaged"),
    (_other_schema, "not a rulekit batch"),
    (_directory, "not a file"),
])
def test_resume_on_a_broken_database_says_what_to_do_and_keeps_it(batch_dir, tmp_path, spoil, words):
    out = tmp_path / "b"
    out.mkdir()
    db = out / "games.sqlite"
    db.write_bytes((batch_dir / "games.sqlite").read_bytes())
    spoil(db)
    before = db.read_bytes() if db.is_file() else sorted(p.name for p in db.iterdir())
    r = playtest("--games", N, "--seed", 3, "--out", out, "--resume")
    assert r.exit_code == 1, r.output
    assert words in r.output and "--out" in r.output
    assert "Traceback" not in r.output
    assert (db.read_bytes() if db.is_file() else sorted(p.name for p in db.iterdir())) == before


def test_a_row_changed_outside_rulekit_is_named(batch_dir, tmp_path):
    out = tmp_path / "t"
    out.mkdir()
    (out / "games.sqlite").write_bytes((batch_dir / "games.sqlite").read_bytes())
    db = sqlite3.connect(out / "games.sqlite")
    db.execute("UPDATE games SET scores = '[1, 2]' WHERE game = 4")
    db.commit()
    db.close()
    r = playtest("--games", N, "--seed", 3, "--out", out, "--resume")
    assert r.exit_code == 1
    assert "game 4 cannot be read" in r.output and "Traceback" not in r.output


# ---- an --out that cannot hold a batch ---------------------------------------------------------------

@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc and /dev/null are Linux's")
@pytest.mark.parametrize("out", ["/proc/rulekit-batch", "/dev/null/x"])
def test_an_out_folder_that_cannot_exist_is_refused(out):
    r = playtest("--games", 2, "--out", out)
    assert r.exit_code == 1
    assert f"cannot use {out} as the output folder" in r.output and "Traceback" not in r.output


def test_a_read_only_out_folder_is_refused(tmp_path, monkeypatch):
    # What SQLite raises in a folder the user may not write to (simulated: the tests may run as root).
    def refuse(*args, **kwargs):
        raise sqlite_error(sqlite3.OperationalError, "unable to open database file", "SQLITE_CANTOPEN")

    monkeypatch.setattr(store.sqlite3, "connect", refuse)
    r = playtest("--games", 2, "--out", tmp_path)
    assert r.exit_code == 1
    assert "writable" in r.output and "Traceback" not in r.output


# ---- a full disk -----------------------------------------------------------------------------------------

def test_a_full_disk_during_a_batch_keeps_every_stored_game(batch_dir, tmp_path, monkeypatch):
    out = tmp_path / "full"
    insert = store.Store._insert
    calls = []

    def fill_up(self, index, result):
        calls.append(index)
        if len(calls) > 3:
            raise sqlite_error(sqlite3.OperationalError, "database or disk is full", "SQLITE_FULL")
        insert(self, index, result)

    monkeypatch.setattr(store.Store, "_insert", fill_up)
    r = playtest("--games", N, "--seed", 3, "--jobs", 2, "--out", out)
    assert r.exit_code == 1
    assert "disk is full" in r.output and "--resume" in r.output and "Traceback" not in r.output
    assert stored_games(out) == 3
    monkeypatch.setattr(store.Store, "_insert", insert)
    r = playtest("--games", N, "--seed", 3, "--out", out, "--resume")
    assert r.exit_code == 0, r.output
    assert (out / "summary.json").read_bytes() == (batch_dir / "summary.json").read_bytes()


def test_a_full_disk_while_writing_the_report_leaves_the_old_files_whole(batch_dir, tmp_path, monkeypatch):
    out = tmp_path / "rep"
    r = playtest("--games", N - 2, "--seed", 3, "--out", out)
    assert r.exit_code == 0
    old_summary = (out / "summary.json").read_bytes()
    old_report = (out / "report.html").read_bytes()

    def no_space(f, data):
        f.write(data[: len(data) // 2])
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(store, "_write", no_space)
    r = playtest("--games", N, "--seed", 3, "--out", out, "--resume")
    assert r.exit_code == 1
    assert "No space left on device" in r.output and "--resume" in r.output and "Traceback" not in r.output
    assert (out / "summary.json").read_bytes() == old_summary
    assert (out / "report.html").read_bytes() == old_report
    assert sorted(p.name for p in out.iterdir() if p.name.startswith(".")) == []
    assert stored_games(out) == N
    monkeypatch.undo()
    r = playtest("--games", N, "--seed", 3, "--out", out, "--resume")
    assert r.exit_code == 0 and "played now 0" in r.output
    assert (out / "summary.json").read_bytes() == (batch_dir / "summary.json").read_bytes()


def test_a_score_too_large_to_store_stops_the_batch_with_the_game_to_replay(tmp_path, monkeypatch):
    from rulekit.playtest import runner
    from tests.test_playtest_workers import result_of

    huge = dataclasses.replace(result_of(7), scores=(2 ** 70, 0, 0, 0))
    monkeypatch.setattr(runner, "play_one", lambda content, seed, agents, players:
                        huge if seed == runner.game_seed(1, 2) else result_of(seed))
    r = playtest("--games", 4, "--out", tmp_path)
    assert r.exit_code == 1
    assert "game 2 ended with a number too large to store" in r.output and "rulekit play --seed 7" in r.output
    assert "Traceback" not in r.output and stored_games(tmp_path) == 2
