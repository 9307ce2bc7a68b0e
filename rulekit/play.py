"""One game for a person to read: the round-by-round account, the JSON-lines log, and replaying a log."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from collections.abc import Callable

import click

import rulekit
from rulekit import registry
from rulekit.core import board as B
from rulekit.core.errors import EffectError
from rulekit.core.questions import CARD_WORDS, CELL_WORDS, KINDS, SEAT_WORDS, Form
from rulekit.agents import make_agent, seat_agents
from rulekit.engine import new_game
from rulekit.provenance import agent_code, engine_code

LOG_FORMAT = 2       # 2: the header records the engine's and the agents' code


@dataclass
class Played:
    game: object
    log: list
    error: EffectError | None


def play_game(content, seed: int, agents: list[str], players: int, *, header: dict,
              evaluator: str = "compiled", choosers=None, verbose: bool = False, log: list | None = None) -> Played:
    """One whole game with its log (`log`, if given, starting with the header); verbose also logs what effects did."""
    log = [header] if log is None else log
    game = new_game(content, seed, agents, players=players, evaluator=evaluator, log=log, verbose=verbose)
    if choosers is not None:
        game.choosers = choosers
    error = None
    try:
        game.run()
    except EffectError as err:
        error = err
        game.record("error", message=str(err), card=err.card.id if err.card else None)
    return Played(game, log, error)


# ---- the log's records: one table of what each kind holds (docs/scenarios.md, "Game logs") ----------

@dataclass(frozen=True)
class Shape:
    """What one field of a log record holds: the words a person reads, and a test of (value, record, players)."""

    words: str
    ok: Callable[[Any, dict, int], bool]
    # Words that depend on the rest of the record (an answer's form depends on its question).
    words_in: Callable[[dict], str] | None = None

    def say(self, rec: dict) -> str:
        return self.words_in(rec) if self.words_in is not None else self.words


def _plain(words: str, test: Callable[[Any], bool]) -> Shape:
    return Shape(words, lambda v, rec, players: test(v))


def _whole(v: Any) -> bool:
    return type(v) is int       # not a bool, not a float such as 3.0


def _cell(v: Any) -> bool:
    return isinstance(v, list) and len(v) == 2 and all(_whole(x) and 0 <= x < B.SIZE for x in v)


def one_of(*values: Any, words: str | None = None) -> Shape:
    listed = ", ".join(json.dumps(v, ensure_ascii=False) for v in values)
    return _plain(words or f"one of {listed}",
                  lambda v: any(type(v) is type(x) and v == x for x in values))


def maybe(shape: Shape) -> Shape:
    return Shape(f"{shape.words}, or null", lambda v, rec, n: v is None or shape.ok(v, rec, n))


def list_of(shape: Shape, words: str, per_seat: bool = False) -> Shape:
    return Shape(words, lambda v, rec, n: isinstance(v, list) and (not per_seat or len(v) == n)
                 and all(shape.ok(x, rec, n) for x in v))


def mapping_of(fields: dict[str, Shape], words: str) -> Shape:
    return Shape(words, lambda v, rec, n: isinstance(v, dict) and set(v) == set(fields)
                 and all(shape.ok(v[k], rec, n) for k, shape in fields.items()))


NUMBER = _plain("a whole number", _whole)
COUNT = _plain("a whole number, 0 or more", lambda v: _whole(v) and v >= 0)
TEXT = _plain("a text", lambda v: isinstance(v, str))
CARD = _plain(CARD_WORDS, lambda v: isinstance(v, str) and v.strip() != "")
FLAG = _plain("true or false", lambda v: isinstance(v, bool))
CELL = _plain(CELL_WORDS, _cell)
SEAT = Shape(SEAT_WORDS,
             lambda v, rec, n: _whole(v) and 0 <= v < n)
STAGE = one_of(1, 2, 3)
STATE = one_of(*sorted(set(B.STATE_NAMES.values()) - {"none"}))
TRACK = one_of(*registry.SETTABLE)
PHASE = one_of("setup", *registry.PHASE_ORDER, "final")
ANYTHING = _plain("anything", lambda v: True)

# The answer of each kind of question, as JSON (cells and actions are lists, `null` is "no card"): the
# core's one table of question kinds (rulekit/core/questions.py KINDS), which scenarios and agents read too.
def _answer(form: Form) -> Shape:
    return Shape(form.answer, lambda v, rec, n: form.check(v, n))


ANSWERS: dict[str, Shape] = {kind.value: _answer(form) for kind, form in KINDS.items()}
QUESTION = _plain("a kind of question: " + ", ".join(ANSWERS), lambda v: isinstance(v, str) and v in ANSWERS)
ANSWER = Shape("the answer, of the form its question `q` takes",
               lambda v, rec, n: rec.get("q") in ANSWERS and ANSWERS[rec["q"]].ok(v, rec, n),
               lambda rec: f"an answer to the question '{rec['q']}': {ANSWERS[rec['q']].words}")

# `random.Random(-5)` deals what `random.Random(5)` deals, so a negative seed would pass for its positive.
SEED = _plain(f"a whole-number seed, 0 or more and at most {registry.LIMITS['seed'].value:,} (a negative seed "
              "would deal the same board as its positive)",
              lambda v: _whole(v) and 0 <= v <= registry.LIMITS["seed"].value)
# What decides the game comes first, so a message names the most important problem.
HEADER: dict[str, Shape] = {
    "e": one_of("header"),
    "seed": SEED,
    "players": one_of(2, 3, 4, words="a player count of 2 to 4"),
    "agents": list_of(TEXT, "the list of agents, one per seat"),
    "include_tbd": FLAG,
    "only_designed": FLAG,
    "fingerprint": TEXT,
    "content": ANYTHING,            # only a hint: see replay_content
    "engine_code": _plain("the engine code's fingerprint (a text)", lambda v: isinstance(v, str)),
    "agent_code": _plain("the agents' code's fingerprint (a text)", lambda v: isinstance(v, str)),
    "format": one_of(LOG_FORMAT, words=f"the log format, {LOG_FORMAT}"),
    "rulekit": TEXT,
}
# Every record after the header has these, then the fields of its kind.
COMMON: dict[str, Shape] = {"e": TEXT, "round": _plain("a round number, 1 or more", lambda v: _whole(v) and v >= 1),
                            "phase": PHASE}
SNAPSHOT = mapping_of({**{t: NUMBER for t in registry.SETTABLE},
                       **{c: COUNT for c in ("healthy", "mild", "severe", "dead", "tiles")}, "out": FLAG},
                      "a mapping of a seat's tracks, money, board counts (healthy mild severe dead tiles) and `out`")
RECORDS: dict[str, dict[str, Shape]] = {
    "ask": {"seat": SEAT, "q": QUESTION, "card": maybe(CARD), "n": COUNT, "a": ANSWER},
    "advisor": {"seat": SEAT, "card": CARD},
    "setup_done": {},
    "round_start": {},
    "phase": {},
    "cell": {"cell": CELL, "before": STATE, "after": STATE, "cause": TEXT},
    "death_prevented": {"cell": CELL},
    "tag": {"cell": CELL, "tag": TEXT, "on": FLAG, "cause": TEXT},
    "track": {"seat": SEAT, "track": TRACK, "delta": NUMBER, "value": NUMBER, "why": maybe(TEXT)},
    "money": {"seat": SEAT, "delta": NUMBER, "money": COUNT, "why": maybe(TEXT)},
    "overthrow_prevented": {"seat": SEAT},
    "shielded": {"seat": SEAT, "what": TEXT, "card": maybe(CARD)},
    "mark": {"seat": SEAT, "card": CARD, "stacks": COUNT},
    "held": {"seat": SEAT, "track": TRACK, "card": CARD, "wanted": NUMBER, "value": NUMBER, "why": maybe(TEXT)},
    "draw": {"seat": SEAT, "card": CARD, "why": maybe(TEXT)},
    "discard": {"card": CARD},
    "draft": {"stage": STAGE, "cards": list_of(CARD, "a list of card ids")},
    "drafted": {"seat": SEAT, "card": CARD},
    "refill": {"stage": STAGE, "cards": COUNT},
    "arranged": {"seat": SEAT, "tiles": COUNT},
    "play": {"seat": SEAT, "card": CARD, "price": COUNT, "reaction": maybe(TEXT)},
    "execute": {"seat": SEAT, "card": CARD, "price": COUNT, "uses": COUNT},
    "switch": {"seat": SEAT, "card": CARD, "on": FLAG},
    "action_limit": {"seat": SEAT, "limit": COUNT},
    "offer": {"seat": SEAT, "card": CARD},
    "unsold": {"seat": SEAT, "card": CARD},
    "sold": {"seat": SEAT, "to": SEAT, "card": CARD, "bid": COUNT},
    "event": {"card": CARD},
    "combo": {"seat": SEAT, "card": CARD},
    "spent": {"seat": SEAT, "card": CARD},
    "unlock": {"seat": SEAT, "stage": STAGE},
    "out": {"seat": SEAT, "reason": TEXT},
    "end": {"reason": TEXT},
    "tracks": {"players": list_of(SNAPSHOT, f"a list, one per seat, each {SNAPSHOT.words}", per_seat=True)},
    "final_score": {"seat": SEAT, "delta": NUMBER, "score": NUMBER},
    "final": {"scores": list_of(NUMBER, "a list of whole numbers, one per seat", per_seat=True),
              "winners": list_of(SEAT, "a list of seats")},
    "error": {"message": TEXT, "card": maybe(CARD)},
    # Written only by `rulekit play -v`: what effects did.
    "fire": {"seat": maybe(SEAT), "card": CARD, "how": TEXT},
    "done": {"card": CARD, "prevented": FLAG},
    "modifier": {"seat": SEAT, "card": CARD, "quantity": TEXT, "delta": NUMBER},
    "given": {"seat": SEAT, "to": SEAT, "card": CARD},
    "roll": {"seat": maybe(SEAT), "card": CARD, "sides": COUNT, "value": COUNT},
    "looked": {"seat": SEAT, "card": CARD, "events": COUNT, "arranged": FLAG},
    "reshuffled": {"card": CARD, "events": COUNT},
}

# No line rulekit writes comes near this (a round's `tracks` record, the longest, is about 1,000
# characters); reading stops here, so a hostile file cannot make replay read gigabytes into one line.
MAX_LINE = 100_000
SHOWN_AT_MOST = 200


def shown(v: Any) -> str:
    """A JSON value as the log has it, cut short for a message."""
    try:
        return cut(json.dumps(v, ensure_ascii=False))
    except (RecursionError, ValueError):
        return f"a {type(v).__name__}"


def cut(text: str, at_most: int = SHOWN_AT_MOST) -> str:
    return text if len(text) <= at_most else text[:at_most] + "…"


def record_problem(rec: dict, players: int) -> str | None:
    """What is wrong with one record after the header, in plain words, or None."""
    kind = rec.get("e")
    if kind == "header":
        return "a second header: only the first line of a log is its header"
    if not isinstance(kind, str) or kind not in RECORDS:
        return f"`e` is {shown(kind)}, which is no kind of record rulekit writes"
    return fields_problem(rec, {**COMMON, **RECORDS[kind]}, f"this `{kind}` record", players)


def fields_problem(rec: dict, fields: dict[str, Shape], owner: str, players: int) -> str | None:
    for name, shape in fields.items():
        if name not in rec:
            return f"{owner} lacks {shape.say(rec)} (`{name}`)"
        if not shape.ok(rec[name], rec, players):
            return f"{owner}: `{name}` must be {shape.say(rec)}, not {shown(rec[name])}"
    extra = [k for k in rec if k not in fields]
    if extra:
        return f"{owner} has a field {shown(extra[0])} that rulekit never writes there"
    return None


def write_log(path: str | Path, log: list) -> None:
    """The log as JSON lines; when the disk fills up, every whole line written stays and a LogWriteError says so."""
    lines = log_lines(log)
    kept = size = 0
    try:
        with open(path, "wb") as f:
            for line in lines:
                data = (line + "\n").encode("utf-8")
                f.write(data)
                f.flush()       # line by line, so a failure leaves whole lines and we know how many
                kept += 1
                size += len(data)
    except OSError as err:
        _cut(path, size)
        raise LogWriteError(path, err, kept, len(lines)) from None


def _cut(path: str | Path, size: int) -> None:
    """Drop a half-written last line, so what is left of the log reads as whole records."""
    try:
        if Path(path).is_file():
            os.truncate(path, size)
    except OSError:
        pass            # the whole lines are there either way; the message says how many


class LogWriteError(click.ClickException):
    """The log could not be written to the end (a full disk, a lost folder): a message, never a traceback."""

    def __init__(self, path, err: OSError, kept: int, total: int):
        what = err.strerror or str(err)
        have = f"its first {kept} of {total} lines are in it" if kept else "nothing of it was written"
        super().__init__(f"the log {path} could not be written to the end ({what}): {have}. Free some space "
                         "(or choose another --log file) and run the same command again: the same seed plays "
                         "the same game.")


def log_lines(log: list) -> list[str]:
    return [json.dumps(rec, ensure_ascii=False, sort_keys=True) for rec in log]


# ---- reading and replaying a log -------------------------------------------------------------

class BadLog(ValueError):
    """A log that is not a rulekit game log, or has a record of the wrong shape: the message names the line."""


class LogReader:
    """A game log read one line at a time, each record checked as it is read.

    Replay reads only as far as the replayed game goes (its own log is the bound), so a huge or hostile file
    costs what its first wrong line costs, never the whole file in memory.
    """

    def __init__(self, path: str | Path):
        self.path = path
        self.line = 0           # lines read so far
        self.blank = 0          # the first empty line since the last record, if any
        try:
            self.file = open(path, encoding="utf-8")  # noqa: SIM115 - held open while the log streams; closed by close()
        except OSError as err:
            raise BadLog(f"{path}: cannot be read: {err.strerror or err}") from None
        try:
            first = self.next()
            if first is None or first[1].get("e") != "header":
                raise BadLog(f"{path}:1:1: not a rulekit game log (the first line must be its header)")
            self.header = first[1]
            check_header(self.header, path)
        except BaseException:
            self.close()
            raise

    def __enter__(self) -> LogReader:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        self.file.close()

    def next(self) -> tuple[int, dict] | None:
        """The next record and its line number, checked against its shape; None at the end of the log."""
        while True:
            text = self._readline()
            if text == "":
                return None
            self.line += 1
            if len(text) > MAX_LINE:
                raise BadLog(f"{self.path}:{self.line}:1: this line is longer than {MAX_LINE:,} characters; "
                             "no line of a rulekit game log is")
            if not text.strip():
                self.blank = self.blank or self.line
                continue
            if self.blank:
                raise BadLog(f"{self.path}:{self.blank}:1: an empty line inside the log; a rulekit game log "
                             "has one record on every line")
            rec = _parse(self.path, self.line, text)
            if self.line > 1:
                problem = record_problem(rec, self.header["players"])
                if problem:
                    raise BadLog(f"{self.path}:{self.line}:1: {problem}")
            return self.line, rec

    def _readline(self) -> str:
        try:
            return self.file.readline(MAX_LINE + 1)     # never more than the ceiling into one line
        except UnicodeDecodeError:
            raise BadLog(f"{self.path}:{self.line + 1}: not a rulekit game log (this line is not UTF-8 text)") from None
        except OSError as err:
            raise BadLog(f"{self.path}: cannot be read: {err.strerror or err}") from None


def _parse(path, n: int, line: str) -> dict:
    try:
        rec = json.loads(line)
    except RecursionError:
        raise BadLog(f"{path}:{n}:1: lists or mappings nested too deeply for a record of a rulekit game log") from None
    except ValueError as err:       # bad JSON, and numbers too long to read
        col = getattr(err, "colno", 1)
        raise BadLog(f"{path}:{n}:{col}: not a JSON line: {getattr(err, 'msg', err)}") from None
    if not isinstance(rec, dict) or "e" not in rec:
        raise BadLog(f"{path}:{n}:1: not a record of a rulekit game log")
    return rec


def check_header(head: dict, path) -> None:
    """The header must say how to set the game up again: every field that decides the game, in its shape."""
    if "format" in head and head["format"] != LOG_FORMAT:     # an older rulekit's log: say so, not what it lacks
        by = head.get("rulekit")
        raise BadLog(f"{path}:1:1: this log is in log format {shown(head.get('format'))}"
                     f"{f', written by rulekit {shown(by)}' if isinstance(by, str) else ''}; this rulekit replays"
                     f" format {LOG_FORMAT} only. Replay it with the rulekit that wrote it, or play the game again"
                     " with `rulekit play --log`")
    problem = None
    if all(HEADER[k].ok(head.get(k), head, 4) for k in ("players", "agents")):
        try:
            seat_agents(head["agents"], head["players"])
        except ValueError as err:
            problem = f"the log's header: {err}"
    problem = problem or fields_problem(head, HEADER, "the log's header", 4)
    if problem:
        raise BadLog(f"{path}:1:1: {problem}")


def code_note(head: dict) -> str:
    """What a person should know when the log was written by other rulekit code than this one ('' when the same)."""
    changed = [words for key, words, now in (("engine_code", "the engine's", engine_code()),
                                             ("agent_code", "the agents'", agent_code())) if head[key] != now]
    if not changed:
        return ""
    return (f"\nNote: this log was written by other rulekit code than this one ({' and '.join(changed)} code has"
            f" changed since; the log says rulekit {head['rulekit']}, this is {rulekit.__version__}): a game played"
            " by other code need not reproduce.")


def replay_content(path, head: dict, given: str | None) -> str:
    """The content folder to replay with: the one the user names, else the header's when it is a content folder."""
    if given is not None:
        if not _is_content(given):
            raise BadLog(f"{given} is not a content folder (a folder holding rules.yaml)")
        return given
    named = head.get("content")
    if isinstance(named, str) and _is_content(named):
        return named
    raise BadLog(f"{path}:1:1: the log's header names {shown(named)} as its content, which is not a content "
                 "folder here (a folder holding rules.yaml); name the folder the game was played with: "
                 "--content DIR")


def _is_content(folder: str) -> bool:
    try:
        return folder != "" and (Path(folder) / "rules.yaml").is_file()
    except (OSError, ValueError):       # a name too long, or with a NUL in it
        return False


class NotReproduced(Exception):
    """The replayed game asked, answered or wrote something other than the log, at a line of the log."""

    def __init__(self, line: int, message: str):
        self.line = line
        super().__init__(message)


class Decisions:
    """The log read in step with the replayed game: every line the game writes must be the log's next line.

    Before each decision the lines the game has written since the last one are compared with the log's;
    the log's next line must then be this decision, which every seat's ReplayChooser takes from here.
    """

    def __init__(self, reader: LogReader, log: list):
        self.reader = reader
        self.log = log                  # the replayed game's own log, growing as it plays
        self.compared = 1               # the header is the log's own
        self.ahead: tuple[int, dict] | None = None      # a log line read but not yet compared

    def next(self, q) -> tuple[dict, int]:
        """The decision the log recorded next (and its line), which must be this question's."""
        self.catch_up()
        got = self._take()
        if got is None:
            raise NotReproduced(self.reader.line + 1, f"the log has no more lines, but the game asks "
                                                      f"P{q.seat + 1} '{q.kind}' here")
        line, rec = got
        if rec["e"] != "ask":
            raise NotReproduced(line, f"the log has a `{rec['e']}` record here, but the game asks P{q.seat + 1} "
                                      f"'{q.kind}'")
        if rec["q"] != q.kind or rec["seat"] != q.seat:
            raise NotReproduced(line, f"the log has P{rec['seat'] + 1} answer '{rec['q']}' next, "
                                      f"but the game asks P{q.seat + 1} '{q.kind}'")
        self.ahead = got                # compared in full once the game has written its own record of it
        return rec, line

    def catch_up(self) -> None:
        """Compare every line the game has written so far with the log's."""
        while self.compared < len(self.log):
            got = self._take()
            mine = log_lines([self.log[self.compared]])[0]
            if got is None:
                raise _differs(self.reader.line + 1, "(end of log)", mine)
            theirs = log_lines([got[1]])[0]
            if theirs != mine:
                raise _differs(got[0], theirs, mine)
            self.compared += 1

    def finish(self) -> None:
        """After the game: its last lines must be the log's, and the log must end there too."""
        self.catch_up()
        got = self._take()
        if got is not None:
            raise _differs(got[0], log_lines([got[1]])[0], "(end of log)")

    def _take(self) -> tuple[int, dict] | None:
        got, self.ahead = self.ahead, None
        return got if got is not None else self.reader.next()


def _differs(line: int, want: str, got: str) -> NotReproduced:
    return NotReproduced(line, f"the replay differs from the log here\n  log:    {cut(want, 2000)}\n"
                               f"  replay: {cut(got, 2000)}")


class ReplayChooser:
    """One seat's answers: the log's decisions, each checked against what the seat's agent answers."""

    name = "replay"

    def __init__(self, decisions: Decisions, agent):
        self.decisions = decisions
        self.agent = agent

    def choose(self, obs, q) -> int:
        rec, line = self.decisions.next(q)
        answer = _from_json(rec["a"])
        who = f"P{q.seat + 1}"
        if answer not in q.options:
            raise NotReproduced(line, f"the log's answer {shown(rec['a'])} is not a legal answer to {who}'s "
                                      f"'{q.kind.value}' here")
        own = q.options[self.agent.choose(obs, q)]
        if own != answer:
            raise NotReproduced(line, f"the log says {who} answered {shown(rec['a'])}, but {who}'s agent "
                                f"({self.agent.name}) answers {shown(own)} here: the log's decisions, seed "
                                "or agents were changed, or the agent has changed since the log was written")
        return q.options.index(answer)


def replay_game(content, reader: LogReader) -> Played:
    """Play the header's game again, every seat answering from the log as it is read; NotReproduced where it departs."""
    head = reader.header
    seed, players = head["seed"], head["players"]
    names = seat_agents(head["agents"], players)
    log: list = [head]
    decisions = Decisions(reader, log)
    choosers = [ReplayChooser(decisions, make_agent(name, seed, seat)) for seat, name in enumerate(names)]
    played = play_game(content, seed, names, players, header=head, choosers=choosers, log=log)
    decisions.finish()
    return played


def _from_json(v):
    if isinstance(v, list):
        return tuple(_from_json(x) for x in v)
    return v


# ---- the account a person reads ------------------------------------------------------------

CELL_CHARS = {B.TILE_H: "#", B.TILE_I: "#", B.EMPTY: ".", B.HEALTHY: "H", B.MILD: "M",
              B.SEVERE: "S", B.DEAD: "D", B.NOCELL: " "}


def board_picture(game) -> list[str]:
    """The board as scenario-file letters (# = face-down tile), quadrants apart."""
    lines = []
    for r in range(B.SIZE):
        if r == B.HALF:
            lines.append("")
        row = [CELL_CHARS[game.state.board[B.idx(r, c)]] for c in range(B.SIZE)]
        if not "".join(row).strip():
            continue
        lines.append("  " + " ".join(row[:5]) + "   " + " ".join(row[5:]))
    if game.state.tags:                 # tags kept on cells (public), under the board
        lines.append("  标签 tags: " + ", ".join(f"{B.RC[i]} {m}" for i, m in sorted(game.state.tags.items())))
    return lines


def card_name(game, cid: str | None) -> str:
    if cid is None:
        return "?"
    card = game.content.lookup(cid)
    return f"{card.name} ({cid})" if card else cid


def account(game, log: list) -> list[str]:
    """A readable round-by-round account built from the game's log (with what effects did, if it has it)."""
    out: list[str] = []
    def name(cid: str) -> str:
        return card_name(game, cid)

    advisors = [f"P{p.seat + 1} {name(p.advisor.id) if p.advisor else '—'}" for p in game.state.seats]
    out.append("顾问 Advisors: " + " · ".join(advisors))
    current = None
    deaths: dict[int, int] = {}
    cured: dict[int, int] = {}
    effects = _Effects(name)
    for rec in log:
        e = rec.get("e")
        if e == "cell":
            seat = game.geo.owner[B.idx(*rec["cell"])]
            if rec["after"] == "dead":
                deaths[seat] = deaths.get(seat, 0) + 1
            elif rec["before"] == "mild" and rec["after"] == "healthy":
                cured[seat] = cured.get(seat, 0) + 1
        elif e == "round_start" and rec["round"] != current:
            current = rec["round"]
            out.append("")
            out.append(f"── 第 {current} 回合 Round {current} " + "─" * 40)
        shown = effects.line(rec)
        if shown is not None:
            out.append(shown)          # a change an effect made, under the effect's own line
            continue
        seat = rec.get("seat")
        who = f"P{seat + 1}" if isinstance(seat, int) else ""
        line = _LINES.get(e)
        if line is not None:
            out.append("  " + line(rec, who, name))
        elif e == "tracks":
            out.extend(_round_tail(deaths, cured))
            deaths, cured = {}, {}
            out.extend(_tracks_lines(rec["players"]))
    out.extend(_round_tail(deaths, cured))
    return out


# How each logged change reads in the account; `name` turns a card id into 名字 (id).
_OUT_WORDS = {"emptied": "board fully revealed and no one alive (emptied)", "overthrown": "overthrown (policy below -10)"}

_LINES = {
    "play": lambda r, who, name: f"{who} 打出 plays {name(r['card'])} for {r['price']}"
                                 + (" as a reaction" if r.get("reaction") else ""),
    "execute": lambda r, who, name: f"{who} 再次执行 executes {name(r['card'])} again for {r['price']} (time {r['uses']})",
    "switch": lambda r, who, name: f"{who} switches {name(r['card'])} {'on' if r['on'] else 'off'}",
    "sold": lambda r, who, name: f"{who} sells {name(r['card'])} to P{r['to'] + 1} for {r['bid']}",
    "event": lambda r, who, name: f"事件 Event: {name(r['card'])}",
    "combo": lambda r, who, name: f"连击 Combo for {who}: {name(r['card'])}",
    "unlock": lambda r, who, name: f"{who} unlocks stage {r['stage']}",
    "drafted": lambda r, who, name: f"{who} takes {name(r['card'])} from the draft",
    "draft": lambda r, who, name: f"轮抽 Draft from stage {r['stage']}: " + ", ".join(map(name, r["cards"])),
    "out": lambda r, who, name: f"{who} is out: {_OUT_WORDS.get(r['reason'], r['reason'])}",
    "overthrow_prevented": lambda r, who, name: f"{who} would be overthrown, but is saved",
    "death_prevented": lambda r, who, name: f"a death at {tuple(r['cell'])} is prevented",
    "action_limit": lambda r, who, name: f"{who} reached the limit of {r['limit']} actions this phase",
    "error": lambda r, who, name: f"效果出错 EFFECT ERROR: {r['message']}",
    "mark": lambda r, who, name: f"{who} 带上标记 carries {name(r['card'])} ×{r['stacks']} for the rest of the game",
    "held": lambda r, who, name: f"{who} {r['track']} held at {r['value']} by {name(r['card'])} "
                                 f"(would have been {r['wanted']})",
}

END_WORDS = {
    "won_fight": "every board is revealed and no one is infected — the fight is won",
    "events_exhausted": "the last event card was drawn",
    "max_rounds": "the last round was played",
    "one_left": "fewer than two players are still in",
}




class _Effects:
    """The lines `-v` adds: each handler, reaction, modifier and combo that fired, and what it changed."""

    def __init__(self, name):
        self.name = name
        self.depth = 0

    def line(self, r: dict) -> str | None:
        e = r.get("e")
        pad = "  " + "    " * self.depth
        if e == "fire":
            self.depth += 1
            who = f"P{r['seat'] + 1} " if isinstance(r.get("seat"), int) else ""
            return f"{pad}▸ {who}{self.name(r['card'])} — {r['how']}"
        if e == "done":
            self.depth = max(0, self.depth - 1)
            return None
        if e == "modifier":
            return f"{pad}▸ P{r['seat'] + 1} {self.name(r['card'])} — modifies {r['quantity']} by {r['delta']:+d}"
        if not self.depth:
            return None
        change = _change_words(r, self.name)
        return f"{pad}· {change}" if change else None


def _change_words(r: dict, name) -> str | None:
    """A change record in a few words, for the lines under an effect that fired."""
    e = r.get("e")
    who = f"P{r['seat'] + 1} " if isinstance(r.get("seat"), int) else ""
    if e == "track":
        return f"{who}{r['track']} {r['delta']:+d} → {r['value']}"
    if e == "money":
        return f"{who}money {r['delta']:+d} → {r['money']}"
    if e == "cell":
        return f"cell {tuple(r['cell'])} {r['before']} → {r['after']}"
    if e == "draw":
        return f"{who}draws {name(r['card'])}"
    if e == "discard":
        return f"discards {name(r['card'])}"
    if e == "shielded":
        return f"{who}is shielded: no {r['what']} lost"
    if e == "mark":
        return f"{who}carries {name(r['card'])} ×{r['stacks']}"
    if e == "held":
        return f"{who}{r['track']} held at {r['value']} by {name(r['card'])} (would have been {r['wanted']})"
    if e == "arranged":
        return f"{who}arranges {r['tiles']} tiles"
    if e == "roll":
        return f"{who}rolls {r['value']} (a die of {r['sides']})"
    if e == "looked":
        return f"{who}{'arranges' if r['arranged'] else 'looks at'} the next {r['events']} events"
    if e == "reshuffled":
        return f"{r['events']} past events shuffled back into the event deck"
    if e == "unlock":
        return f"{who}unlocks stage {r['stage']}"
    if e == "death_prevented":
        return f"the death at {tuple(r['cell'])} is prevented"
    if e == "tag":
        return f"cell {tuple(r['cell'])} {'tagged' if r['on'] else 'no longer'} {r['tag']}"
    if e == "overthrow_prevented":
        return f"{who}is not overthrown"
    if e == "out":
        return f"{who}is out: {_OUT_WORDS.get(r['reason'], r['reason'])}"
    return None


# What the handlers of a moment decided, recorded once they are done (outside any effect): a death
# step's death prevented, an overthrow prevented.
OUTCOMES = ("death_prevented", "overthrow_prevented")


class EffectLines:
    """Only the lines of effects that fired, and what they prevented, fed the log piece by piece
    (`rulekit test -v`)."""

    def __init__(self, game):
        self.effects = _Effects(lambda cid: card_name(game, cid))

    def lines(self, records: list) -> list[str]:
        out = []
        for r in records:
            line = self.effects.line(r)
            if line is None and r.get("e") in OUTCOMES:
                line = f"· {_change_words(r, self.effects.name)}"
            if line is not None:
                out.append(line.strip())
        return out


def _round_tail(deaths, cured) -> list[str]:
    bits = []
    if cured:
        bits.append("cured " + ", ".join(f"P{s + 1}×{n}" for s, n in sorted(cured.items())))
    if deaths:
        bits.append("deaths " + ", ".join(f"P{s + 1}×{n}" for s, n in sorted(deaths.items())))
    out = ["  " + "; ".join(bits)] if bits else []
    return out


def _tracks_lines(players: list[dict]) -> list[str]:
    """One compact line per seat: tracks, money and board counts at the end of a round."""
    lines = []
    for s, t in enumerate(players):
        tag = "  (out)" if t["out"] else ""
        lines.append(f"    P{s + 1} 医疗 med {t['medical']:>2} 疾病 dis {t['disease']:>2} 政策 pol {t['policy']:>3} "
                     f"计分 score {t['score']:>3} 经济 eco {t['economy']:>2} $ {t['money']:>2} | "
                     f"H {t['healthy']:>2} M {t['mild']:>2} S {t['severe']:>2} D {t['dead']:>2} # {t['tiles']:>2}{tag}")
    return lines


def status_table(game) -> list[str]:
    cols = ("med", "dis", "pol", "scr", "eco", "$")
    counts = ("H", "M", "S", "D", "#")
    lines = ["      " + "".join(f"{c:>4}" for c in cols) + " |" + "".join(f"{c:>4}" for c in counts)]
    for p in game.state.seats:
        def c(k: str, p=p) -> int:
            return game.count(p.seat, k)

        mark = " out" if p.out else ""
        lines.append(f"  P{p.seat + 1:<3}{p.medical:>4}{p.disease:>4}{p.policy:>4}{p.score:>4}{p.economy:>4}{p.money:>4} |"
                     f"{c('healthy'):>4}{c('mild'):>4}{c('severe'):>4}{c('dead'):>4}{c('tiles'):>4}{mark}")
    return lines


def ranking(game) -> list[str]:
    winners = set(game.winners())
    seats = game.state.seats
    order = sorted(range(game.players), key=lambda s: (-seats[s].score, -game.count(s, "alive"), s))
    lines = []
    for place, s in enumerate(order, 1):
        p = seats[s]
        tag = "  ← 胜者 winner" if s in winners else ""
        out = " (out)" if p.out else ""
        lines.append(f"  {place}. P{s + 1} score {p.score}, alive {game.count(s, 'alive')}{out}{tag}")
    return lines
