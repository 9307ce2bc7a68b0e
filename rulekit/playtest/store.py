"""A batch on disk: DIR/games.sqlite, one row per finished game, written as each game ends; files replaced whole."""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from rulekit.core.result import GameResult

try:
    import fcntl
except ImportError:         # Windows: its own byte-range locks
    fcntl = None  # type: ignore[assignment]
    import msvcrt

SCHEMA = """
CREATE TABLE IF NOT EXISTS batch (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    params TEXT NOT NULL,          -- JSON: what the results depend on; --resume must match it
    fingerprint TEXT NOT NULL,     -- sha256 over the content files
    seed INTEGER NOT NULL,
    players INTEGER NOT NULL,
    agents TEXT NOT NULL,          -- JSON list, one name per seat
    games INTEGER NOT NULL         -- games asked for so far (--resume may raise it)
);
CREATE TABLE IF NOT EXISTS games (
    game INTEGER PRIMARY KEY,      -- the game's index in the batch, 0-based
    seed INTEGER NOT NULL,         -- rulekit play --seed SEED replays it
    players INTEGER NOT NULL,
    agents TEXT NOT NULL,          -- JSON lists below are by seat (seat 0 is P1)
    advisors TEXT NOT NULL,
    winners TEXT NOT NULL,
    scores TEXT NOT NULL,
    alive TEXT NOT NULL,
    rounds INTEGER NOT NULL,
    end_reason TEXT NOT NULL,
    out_seats TEXT NOT NULL,
    cards_drawn TEXT NOT NULL,
    cards_played TEXT NOT NULL,
    events TEXT NOT NULL,
    combos TEXT NOT NULL,          -- [[seat, combo id], ...] in firing order
    score_history TEXT NOT NULL,   -- score per seat at the end of each round
    error TEXT,
    error_card TEXT
);
CREATE TABLE IF NOT EXISTS seats (
    game INTEGER NOT NULL, seat INTEGER NOT NULL, agent TEXT NOT NULL, advisor TEXT,
    score INTEGER NOT NULL, won INTEGER NOT NULL, out INTEGER NOT NULL,
    PRIMARY KEY (game, seat)
);
CREATE TABLE IF NOT EXISTS plays (
    game INTEGER NOT NULL, seat INTEGER NOT NULL, card TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS plays_card ON plays (card);
"""

COLUMNS = ("game", "seed", "players", "agents", "advisors", "winners", "scores", "alive", "rounds",
           "end_reason", "out_seats", "cards_drawn", "cards_played", "events", "combos",
           "score_history", "error", "error_card")

# The columns of each table, as SCHEMA makes them: an existing file must have exactly these to be used.
TABLES = {
    "batch": ("id", "params", "fingerprint", "seed", "players", "agents", "games"),
    "games": COLUMNS,
    "seats": ("game", "seat", "agent", "advisor", "score", "won", "out"),
    "plays": ("game", "seat", "card"),
}


class StoreError(Exception):
    """The batch's folder or database cannot be used; the message says what is wrong and what to do."""


class Store:
    """The SQLite file of one batch (WAL; one commit per game, so a killed run loses only games in flight).

    Opening checks that an existing file is a sound rulekit batch before anything is written to it, and
    every SQLite failure becomes a StoreError in plain words: nothing stored is ever removed or rewritten.
    """

    def __init__(self, out: str | Path):
        self.path = Path(out) / "games.sqlite"
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            if self.path.exists() and not self.path.is_file():
                raise StoreError(f"{self.path} is not a file (a folder or a device) / 它不是一个文件。"
                                 f" Move it away or choose another --out.")
            existed = self.path.is_file() and self.path.stat().st_size > 0
        except OSError as err:
            raise _unusable(out, err) from None
        with self._sqlite("open"):
            self.db = sqlite3.connect(self.path)
        try:
            with self._sqlite("open"):
                if existed:
                    self._check()
                self.db.execute("PRAGMA journal_mode=WAL")
                self.db.execute("PRAGMA synchronous=NORMAL")
                self.db.executescript(SCHEMA)
        except StoreError:
            self.db.close()
            raise

    def _check(self) -> None:
        """An existing file must be an undamaged SQLite database with this schema, or empty of tables."""
        problems = [row[0] for row in self.db.execute("PRAGMA quick_check")]
        if problems != ["ok"]:
            raise StoreError(self._damaged(problems[0]))
        found = {name: tuple(col[1] for col in self.db.execute(f"PRAGMA table_info({name})"))
                 for (name,) in self.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if found and any(found.get(name) != cols for name, cols in TABLES.items()):
            raise StoreError(f"{self.path} is not a rulekit batch of this version: its tables are "
                             f"{', '.join(sorted(found)) or 'none'} / 不是本版本 rulekit 的批次数据库。"
                             f" It was left as it is; choose another --out (or move the file away).")

    def _damaged(self, detail: str) -> str:
        return (f"{self.path} is damaged ({detail}) / 数据库已损坏。 It was left as it is: keep a copy if its games"
                f" matter (`sqlite3 {self.path.name} .recover` may save some), then start over with --fresh"
                f" or choose another --out.")

    def error(self, err: sqlite3.Error, doing: str) -> StoreError:
        """A StoreError saying, for a designer, what went wrong while `doing` and what to do next."""
        name = getattr(err, "sqlite_errorname", "") or ""
        text = str(err)
        if name == "SQLITE_FULL" or "disk is full" in text:
            return StoreError(f"the disk is full: cannot {doing} {self.path} / 磁盘已满。 The games already stored"
                              f" there are safe; free some space, then run the same command with --resume.")
        if name == "SQLITE_NOTADB" or "not a database" in text:
            return StoreError(f"{self.path} is not a SQLite database / 不是 SQLite 数据库。 It was left as it is;"
                              f" choose another --out (or move the file away).")
        if name == "SQLITE_CORRUPT" or "malformed" in text:
            return StoreError(self._damaged(text))
        if name.startswith(("SQLITE_READONLY", "SQLITE_PERM", "SQLITE_CANTOPEN")):
            return StoreError(f"cannot {doing} {self.path} ({text}) / 无法写入该文件。 Check that the folder and"
                              f" the file are writable by you, or choose another --out.")
        if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
            return StoreError(f"{self.path} is in use by another program ({text}) / 文件正被占用。 Wait for it to"
                              f" finish, or choose another --out.")
        return StoreError(f"cannot {doing} {self.path} ({text}) / 读写批次数据库出错。 The games already stored"
                          f" are safe; fix the cause, then run the same command with --resume.")

    @contextmanager
    def _sqlite(self, doing: str):
        """Turn a SQLite failure while `doing` into a StoreError in plain words."""
        try:
            yield
        except sqlite3.Error as err:
            raise self.error(err, doing) from None

    def close(self) -> None:
        self.db.close()

    # ---- the batch ----------------------------------------------------------------------
    def batch(self) -> dict | None:
        with self._sqlite("read"):
            row = self.db.execute("SELECT params, games FROM batch WHERE id = 1").fetchone()
        if row is None:
            return None
        try:
            params = json.loads(row[0])
        except (TypeError, ValueError):
            params = None
        if not isinstance(params, dict):
            raise StoreError(self._changed("the batch parameters"))
        return {"params": params, "games": row[1]}

    def set_batch(self, params: dict, games: int, *, replace: bool = False) -> None:
        """Record the batch, or raise its games count; `replace` puts new parameters in place of the old ones."""
        keep = "games = max(games, excluded.games)"
        update = ("params = excluded.params, fingerprint = excluded.fingerprint, seed = excluded.seed,"
                  " players = excluded.players, agents = excluded.agents, games = excluded.games") if replace else keep
        with self._sqlite("write to"):
            self.db.execute(
                "INSERT INTO batch (id, params, fingerprint, seed, players, agents, games) VALUES (1, ?, ?, ?, ?, ?, ?)"
                f" ON CONFLICT(id) DO UPDATE SET {update}",
                (_dumps(params), params["fingerprint"], params["seed"], params["players"],
                 _dumps(params["agents"]), games))
            self.db.commit()

    def count(self) -> int:
        with self._sqlite("read"):
            return self.db.execute("SELECT count(*) FROM games").fetchone()[0]

    # ---- games --------------------------------------------------------------------------
    def add(self, index: int, r: GameResult) -> None:
        """Write one game (its row, its seats, its plays) in one transaction: all of it or none.

        OverflowError when a number is beyond SQLite's 64-bit integers (nothing of the game is written).
        """
        with self._sqlite(f"store game {index} in"):
            self._insert(index, r)

    def _insert(self, index: int, r: GameResult) -> None:
        row = (index, r.seed, r.players, _dumps(r.agents), _dumps(r.advisors), _dumps(r.winners),
               _dumps(r.scores), _dumps(r.alive), r.rounds, r.end_reason, _dumps(r.out),
               _dumps(r.cards_drawn), _dumps(r.cards_played), _dumps(r.events), _dumps(r.combos_fired),
               _dumps(r.score_history), r.error, r.error_card)
        with self.db:
            self.db.execute(f"INSERT OR REPLACE INTO games ({', '.join(COLUMNS)}) VALUES ({', '.join('?' * len(COLUMNS))})", row)
            self.db.execute("DELETE FROM seats WHERE game = ?", (index,))
            self.db.execute("DELETE FROM plays WHERE game = ?", (index,))
            self.db.executemany("INSERT INTO seats VALUES (?, ?, ?, ?, ?, ?, ?)",
                                [(index, s, r.agents[s], r.advisors[s], r.scores[s], int(s in r.winners), int(r.out[s]))
                                 for s in range(r.players)])
            self.db.executemany("INSERT INTO plays VALUES (?, ?, ?)",
                                [(index, s, card) for s in range(r.players) for card in r.cards_played[s]])

    def results(self) -> Iterator[tuple[int, GameResult]]:
        """Every stored game in index order, one at a time (the cursor streams; memory stays flat)."""
        with self._sqlite("read"):
            for row in self.db.execute(f"SELECT {', '.join(COLUMNS)} FROM games ORDER BY game"):
                yield row[0], self._result(row)

    def _result(self, row) -> GameResult:
        try:
            return _result(row)
        except (TypeError, ValueError):
            raise StoreError(self._changed(f"game {row[0]}")) from None

    def _changed(self, what: str) -> str:
        return (f"{self.path}: {what} cannot be read; the file was changed outside rulekit / 数据库内容被改动过。"
                f" It was left as it is; start over with --fresh or choose another --out.")


LOCK = ".rulekit-batch.lock"
_HELD: set[int] = set()     # the lock files this process holds open


@contextmanager
def batch_lock(out: str | Path) -> Iterator[None]:
    """Hold OUT's lock while this run writes the batch there: a second run on OUT is refused, never mixed in.

    The lock is the operating system's (flock on OUT/.rulekit-batch.lock), so it is freed when the process
    ends, however it ends: a crash or a kill leaves no stale lock, at most the empty file. A run removes
    the file as it ends, while still holding it; one that had opened it meanwhile sees that and locks anew.
    """
    out = Path(out)
    path = out / LOCK
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise _unusable(out, err) from None
    fd = _locked(path, out)
    try:
        _HELD.add(fd)
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())     # for the message a second run gives
        yield
    finally:
        _HELD.discard(fd)
        if fcntl is not None:       # Windows cannot remove an open file; there it stays
            path.unlink(missing_ok=True)
        os.close(fd)                # closing frees the lock


def _locked(path: Path, out: Path) -> int:
    """The lock file, open and locked by this process; a StoreError when another run holds it."""
    for _ in range(10):     # a retry only follows another run's ending; ten in a row mean something else is wrong
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
        except OSError as err:
            raise _unusable(out, err) from None
        if not _lock(fd, out):
            holder = _holder(fd)
            os.close(fd)
            raise StoreError(f"{out} is being written by another playtest run{holder} / 另一次试玩正在写入该目录。"
                             f" Nothing in it was changed; wait for that run to finish (or stop it), or choose"
                             f" another --out.")
        if fcntl is None or _same_file(fd, path):
            return fd
        os.close(fd)        # the run that held it has just ended and removed it: lock the file there now
    raise StoreError(f"cannot lock {path}: it keeps being replaced / 无法锁定输出目录。 Choose another --out.")


def _same_file(fd: int, path: Path) -> bool:
    try:
        here, there = os.fstat(fd), os.stat(path)
    except FileNotFoundError:
        return False
    return (here.st_dev, here.st_ino) == (there.st_dev, there.st_ino)


def _lock(fd: int, out: Path) -> bool:
    """Take the lock without waiting; False when another process holds it."""
    try:
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        else:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
    except BlockingIOError:
        return False
    except OSError as err:
        if fcntl is None:       # msvcrt says "locked" with a plain OSError
            return False
        raise StoreError(f"cannot lock {out / LOCK} ({_reason(err)}) / 无法锁定输出目录。 Choose an --out on a disk"
                         f" of this computer (some network folders cannot be locked).") from None
    return True


def _holder(fd: int) -> str:
    try:
        pid = os.pread(fd, 32, 0).decode("ascii").strip()
    except (OSError, UnicodeDecodeError, AttributeError):
        return ""
    return f" (process {pid})" if pid.isdigit() else ""


def _forget_locks() -> None:
    """A forked worker drops its copies of the lock files, so the lock ends with the run, not with a lingering worker."""
    for fd in _HELD:
        os.close(fd)
    _HELD.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_locks)


def _unusable(out, err: OSError) -> StoreError:
    return StoreError(f"cannot use {out} as the output folder ({_reason(err)}) / 无法使用输出目录 {out}。"
                      f" Choose an --out in a folder you can write to.")


def write_atomic(path: Path, text: str) -> None:
    """Replace `path` with `text` whole: written to a temporary file beside it, then renamed over it.

    A reader (or a run killed half-way, or a full disk) sees the old file or the new one, never a part.
    """
    tmp = path.with_name(f".{path.name}.{os.getpid()}-{secrets.token_hex(4)}.tmp")
    try:
        # os.open with 0o666 keeps the user's umask, as a plain open() would (mkstemp would make it 0600).
        with os.fdopen(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666), "wb") as f:
            _write(f, text.encode("utf-8"))
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _write(f, data: bytes) -> None:
    f.write(data)
    f.flush()
    os.fsync(f.fileno())


def _reason(err: OSError) -> str:
    return err.strerror or type(err).__name__


def _dumps(v) -> str:
    return json.dumps(v, ensure_ascii=False, separators=(",", ":"))


def _tuples(v):
    return tuple(_tuples(x) for x in v) if isinstance(v, list) else v


def _result(row) -> GameResult:
    """A stored row as a GameResult; ValueError or TypeError when a value is not what rulekit wrote."""
    (_, seed, players, agents, advisors, winners, scores, alive, rounds, end_reason, out, drawn, played,
     events, combos, history, error, error_card) = row
    def load(s):
        return _tuples(json.loads(s))
    r = GameResult(seed=seed, players=players, agents=load(agents), advisors=load(advisors),
                   winners=load(winners), scores=load(scores), alive=load(alive), rounds=rounds,
                   end_reason=end_reason, out=load(out), cards_drawn=load(drawn), cards_played=load(played),
                   events=load(events), combos_fired=load(combos), score_history=load(history),
                   error=error, error_card=error_card)
    _check_shape(r)
    return r


def _check_shape(r: GameResult) -> None:
    """What the statistics rely on: one entry per seat, whole numbers where numbers are, seats in range."""
    if not (isinstance(r.players, int) and 1 <= r.players <= 16 and isinstance(r.rounds, int)
            and isinstance(r.seed, int) and isinstance(r.end_reason, str)):
        raise ValueError("bad game fields")
    by_seat = (r.agents, r.advisors, r.scores, r.alive, r.out, r.cards_drawn, r.cards_played)
    if any(not isinstance(v, tuple) or len(v) != r.players for v in by_seat):
        raise ValueError("a per-seat list has the wrong length")
    seats = range(r.players)
    def ints(vs):
        return all(isinstance(x, int) and not isinstance(x, bool) for x in vs)
    if not (ints(r.scores) and ints(r.alive) and all(w in seats for w in r.winners) and ints(r.winners)):
        raise ValueError("bad scores or winners")
    if any(not isinstance(row, tuple) or len(row) != r.players or not ints(row) for row in r.score_history):
        raise ValueError("bad score history")
    cards = (*r.cards_drawn, *r.cards_played, r.events)
    if any(not isinstance(c, tuple) or not all(isinstance(x, str) for x in c) for c in cards):
        raise ValueError("bad card lists")
    if any(not isinstance(c, tuple) or len(c) != 2 or c[0] not in seats or not isinstance(c[1], str)
           for c in r.combos_fired):
        raise ValueError("bad combos")
