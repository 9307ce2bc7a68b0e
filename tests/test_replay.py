"""`rulekit replay` and `rulekit play --log` on hostile and broken logs: a message naming the line, never a traceback."""

from __future__ import annotations

import ast
import errno
import json
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulekit import play as P
from rulekit.core.questions import Ask
from rulekit.cli import main
from tests.conftest import CONTENT, ROOT


def run(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


@pytest.fixture(scope="module")
def logged(tmp_path_factory) -> list[dict]:
    """The records of one short logged game (2 greedy players, seed 5)."""
    path = tmp_path_factory.mktemp("log") / "game.jsonl"
    r = run("play", "--content", str(CONTENT), "--seed", "5", "--players", "2", "--log", str(path))
    assert r.exit_code == 0, r.output
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def write(tmp_path, records, name="game.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return path


def tampered(logged, change) -> list[dict]:
    records = json.loads(json.dumps(logged))
    change(records)
    return records


def first(records, kind, q=None) -> dict:
    return next(r for r in records if r["e"] == kind and (q is None or r["q"] == q))


def refused(r, *words):
    """Exit 1 with every word in the message, and no traceback."""
    assert r.exit_code == 1, r.output
    assert "Traceback" not in r.output and "Error:" not in r.output
    for w in words:
        assert w in r.output, r.output


def test_an_untouched_log_reproduces(tmp_path, logged):
    r = run("replay", str(write(tmp_path, logged)))
    assert r.exit_code == 0 and "reproduced exactly" in r.output, r.output


@pytest.mark.parametrize("field", ["q", "a", "seat"])
def test_an_ask_record_without_a_field_names_the_line_and_the_field(tmp_path, logged, field):
    records = tampered(logged, lambda rs: first(rs, "ask").pop(field))
    line = next(i for i, r in enumerate(records, 1) if r["e"] == "ask")
    refused(run("replay", str(write(tmp_path, records))), f"game.jsonl:{line}:1:", "lacks", f"(`{field}`)")


def test_a_seat_written_as_p1_is_refused(tmp_path, logged):
    records = tampered(logged, lambda rs: first(rs, "ask").__setitem__("seat", "P1"))
    refused(run("replay", str(write(tmp_path, records))), "`seat` must be a seat", 'not "P1"')


@pytest.mark.parametrize("cell", [[3.0, "c"], [3.0, 4], [True, 1], [10, 0], [0]])
def test_a_cell_answer_that_is_not_two_whole_numbers_is_refused(tmp_path, logged, cell):
    records = tampered(logged, lambda rs: first(rs, "ask", "cell").__setitem__("a", cell))
    refused(run("replay", str(write(tmp_path, records))), "an answer to the question 'cell'", "a cell [row, column]")


@pytest.mark.parametrize("content", [5, [1], None, "", "no-such-folder"])
def test_a_header_content_that_is_no_folder_asks_for_content(tmp_path, logged, content):
    records = tampered(logged, lambda rs: rs[0].__setitem__("content", content))
    log = write(tmp_path, records)
    refused(run("replay", str(log)), "--content DIR", "not a content folder")
    r = run("replay", str(log), "--content", str(CONTENT))
    assert r.exit_code == 0 and "reproduced exactly" in r.output, r.output


def test_a_header_content_of_the_root_folder_is_never_scanned(tmp_path, logged, monkeypatch):
    def no_scan(root):
        raise AssertionError(f"replay scanned {root}")

    monkeypatch.setattr("rulekit.cli.load_or_exit", no_scan)
    records = tampered(logged, lambda rs: rs[0].__setitem__("content", "/"))
    refused(run("replay", str(write(tmp_path, records))), 'names "/" as its content', "--content DIR")


def test_content_named_on_the_command_line_must_be_a_content_folder(tmp_path, logged):
    refused(run("replay", str(write(tmp_path, logged)), "--content", str(tmp_path)), "not a content folder")


@pytest.mark.parametrize("depth", [100_000, 40_000])
def test_a_deeply_nested_line_is_refused(tmp_path, logged, depth):
    log = write(tmp_path, logged[:1])
    with open(log, "a", encoding="utf-8") as f:
        f.write("[" * depth + "]" * depth + "\n")
    refused(run("replay", str(log)), "game.jsonl:2:1:")


@pytest.mark.parametrize("change, words", [
    (lambda rs: rs[0].__setitem__("agents", ["random", "random"]), "agent (random) answers"),
    (lambda rs: rs[0].__setitem__("seed", 6), "does not reproduce"),
    (lambda rs: rs[0].__setitem__("only_designed", True), "does not reproduce"),
    (lambda rs: rs[0].__setitem__("fingerprint", "0" * 64), "not the content this game was played with"),
])
def test_every_header_field_that_decides_the_game_is_checked(tmp_path, logged, change, words):
    refused(run("replay", str(write(tmp_path, tampered(logged, change)))), words)


def test_a_negative_seed_is_refused(tmp_path, logged):
    """`random.Random(-5)` deals what `random.Random(5)` deals: a negative seed would pass for its positive."""
    records = tampered(logged, lambda rs: rs[0].__setitem__("seed", -5))
    refused(run("replay", str(write(tmp_path, records))), "game.jsonl:1:1:", "0 or more", "not -5")


def test_changed_content_is_refused_before_replaying(tmp_path, logged):
    root = tmp_path / "content"
    shutil.copytree(CONTENT, root, ignore=shutil.ignore_patterns(".rulekit_cache"))
    rules = root / "rules.yaml"
    rules.write_text(rules.read_text(encoding="utf-8").replace("max_rounds: 14", "max_rounds: 13"), encoding="utf-8")
    refused(run("replay", str(write(tmp_path, logged)), "--content", str(root)), "fingerprint differs")


def test_a_changed_decision_is_named_with_its_line(tmp_path, logged):
    def change(rs):
        ask = first(rs, "ask", "bid")
        ask["a"] = 1 if ask["a"] == 0 else 0
    records = tampered(logged, change)
    line = next(i for i, r in enumerate(records, 1) if r["e"] == "ask" and r["q"] == "bid")
    refused(run("replay", str(write(tmp_path, records))), f"game.jsonl:{line}:", "does not reproduce")


@pytest.mark.parametrize("change, words", [
    (lambda rs: rs.insert(3, {"e": "wormhole", "round": 1, "phase": "setup"}), '`e` is "wormhole"'),
    (lambda rs: first(rs, "cell").__setitem__("colour", "red"), 'a field "colour"'),
    (lambda rs: rs.insert(3, dict(rs[0])), "a second header"),
    (lambda rs: first(rs, "cell").__setitem__("cell", [3.0, 4]), "`cell` must be a cell"),
    (lambda rs: first(rs, "tracks")["players"].pop(), "one per seat"),
    (lambda rs: first(rs, "ask", "action").__setitem__("a", ["bury"]), "an action"),
    (lambda rs: first(rs, "ask").__setitem__("q", "telepathy"), "a kind of question"),
])
def test_every_record_is_checked_against_its_shape(tmp_path, logged, change, words):
    refused(run("replay", str(write(tmp_path, tampered(logged, change)))), words)


def test_an_empty_line_inside_the_log_is_refused(tmp_path, logged):
    log = write(tmp_path, logged)
    lines = log.read_text(encoding="utf-8").splitlines(keepends=True)
    log.write_text("".join([*lines[:5], "\n", *lines[5:]]), encoding="utf-8")
    refused(run("replay", str(log)), "game.jsonl:6:1:", "empty line")


def test_an_overlong_line_is_refused_without_reading_it_all(tmp_path, logged):
    log = write(tmp_path, logged[:1])
    with open(log, "a", encoding="utf-8") as f:
        f.write('{"e": "' + "x" * 300_000 + '"}\n')
    refused(run("replay", str(log)), "game.jsonl:2:1:", "longer than")


def _game_where_an_out_board_is_asked(content):
    """A 4-player random game in which a player is out and their board still answers questions later."""
    for seed in range(179, 260):        # 179: P1 is overthrown in round 13, its board spreads after
        played = P.play_game(content, seed, ["random"] * 4, 4, header={"e": "header"})
        log = played.log
        out = next((i for i, r in enumerate(log) if r["e"] == "out"), None)
        if out is not None and any(r["e"] == "ask" and r["seat"] == log[out]["seat"] for r in log[out:]):
            return seed
    raise AssertionError("no seed from 179 to 259 has an out player's board asked a question; pick others")


def test_an_out_players_board_decisions_replay(tmp_path, content):
    """The core answers for an out player's board itself; replay must not take those answers as the seats'."""
    seed = _game_where_an_out_board_is_asked(content)
    log = tmp_path / "game.jsonl"
    played = run("play", "--content", str(CONTENT), "--seed", str(seed), "--agents", "random", "--log", str(log))
    assert played.exit_code == 0
    r = run("replay", str(log))
    assert r.exit_code == 0 and "reproduced exactly" in r.output, r.output


# ---- writing the log -------------------------------------------------------------------------

class FullDisk:
    """A file that takes `room` bytes, writes part of what comes next, then fails like a full disk."""

    def __init__(self, real, room: int):
        self.real, self.room = real, room

    def write(self, data: bytes) -> int:
        if len(data) > self.room:
            self.real.write(data[: self.room])
            self.real.flush()
            self.room = 0
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        self.room -= len(data)
        return self.real.write(data)

    def flush(self):
        self.real.flush()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.real.close()


def test_a_full_disk_during_play_log_keeps_the_whole_lines_and_says_so(tmp_path, monkeypatch):
    log = tmp_path / "game.jsonl"
    monkeypatch.setattr(P, "open", lambda path, mode: FullDisk(open(path, mode), 5000),  # noqa: SIM115
                        raising=False)
    r = run("play", "--content", str(CONTENT), "--seed", "5", "--players", "2", "--log", str(log))
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert "No space left on device" in r.output and "run the same command again" in r.output
    assert "Ranking" in r.output            # the account printed before the log is not lost
    text = log.read_text(encoding="utf-8")
    assert text.endswith("\n") and 0 < len(text) <= 5000
    lines = text.splitlines()
    assert f"first {len(lines)} of" in r.output
    assert all(isinstance(json.loads(line), dict) for line in lines)


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full on this system")
def test_play_log_to_dev_full_gets_a_message():
    r = run("play", "--content", str(CONTENT), "--seed", "5", "--players", "2", "--log", "/dev/full")
    assert r.exit_code == 1 and "Traceback" not in r.output and "No space left on device" in r.output


# ---- the table of record shapes stays true to the code ---------------------------------------------

def _records_written() -> dict[str, set[str]]:
    """Every `.record("kind", field=...)` call in rulekit/, kind -> field names."""
    found: dict[str, set[str]] = {}
    for path in sorted((ROOT / "rulekit").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "record"
                    and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                found.setdefault(node.args[0].value, set()).update(k.arg for k in node.keywords if k.arg)
    return found


def test_every_record_the_code_writes_has_its_shape_in_the_table():
    written = _records_written()
    assert len(written) >= 20
    wrong = {kind: sorted(fields) for kind, fields in written.items()
             if kind not in P.RECORDS or set(P.RECORDS[kind]) != fields}
    assert not wrong, f"add these to rulekit/play.py RECORDS (and docs/scenarios.md 'Game logs'): {wrong}"


def test_every_question_kind_has_its_answer_shape():
    assert set(P.ANSWERS) == {k.value for k in Ask}
