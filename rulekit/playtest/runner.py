"""Running a batch: each game's seed from (seed, index), games played by forked workers or dask, stored as they end."""

from __future__ import annotations

import hashlib
import math
import multiprocessing
import signal
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any, cast
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from itertools import islice
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from pathlib import Path

import rulekit
from rulekit.content import diff
from rulekit.core.result import GameResult
from rulekit.engine import run_game
from rulekit.playtest.audit import Expected, audited
from rulekit.playtest.store import Store
from rulekit.provenance import agent_code, engine_code
from rulekit.playtest.value import Measured, ValuePlan
from rulekit.playtest.value_stats import store_points

BACKENDS = ("local", "dask")


class BatchError(Exception):
    """A batch cannot start or go on; the message tells the designer what to do."""


@dataclass(frozen=True)
class Batch:
    """What a batch's results depend on (its games count aside), as the designer asked for it."""

    content: str                    # the content folder, as given on the command line
    games: int
    seed: int
    players: int
    agents: tuple[str, ...]         # one name per seat
    include_tbd: bool = False
    only_designed: bool = False
    value: ValuePlan | None = None  # --value: each game also measures the cards' value on copies of it

    def params(self, fingerprint: str) -> dict:
        """What --resume compares: same content files, engine and agents' code, agents, seed, players and options."""
        params = {"fingerprint": fingerprint, "engine_code": engine_code(), "agent_code": agent_code(),
                  "seed": self.seed, "players": self.players, "agents": list(self.agents),
                  "include_tbd": self.include_tbd, "only_designed": self.only_designed,
                  "rulekit": rulekit.__version__}
        if self.value is not None:
            params["value"] = self.value.params()
        return params

    def game_seed(self, index: int) -> int:
        return game_seed(self.seed, index)

    def replay(self, seed: int) -> str:
        """The command that replays one game of the batch, move for move."""
        cmd = (f"rulekit play --seed {seed} --players {self.players} --agents {','.join(self.agents)}"
               f" --content {self.content}")
        if self.include_tbd:
            cmd += " --include-tbd"
        if self.only_designed:
            cmd += " --only-designed"
        return cmd


@dataclass(frozen=True)
class Outcome:
    """How a run went: games in the batch, games played now, and the error that stopped it, if any."""

    stored: int
    played: int
    errors: int
    seconds: float
    stopped: tuple[int, GameResult] | None = None


def game_seed(seed: int, index: int) -> int:
    """A game's seed from the batch seed and its index alone (a stable 48-bit hash, short enough to type)."""
    return int.from_bytes(hashlib.sha256(f"{seed}:{index}".encode()).digest()[:6], "big")


def open_batch(content, batch: Batch, out: Path, *, resume: bool) -> tuple[Store, Missing]:
    """Open DIR/games.sqlite for this batch; the games still to play. Refuses mixing batches, and a changed game.

    A batch with no game stored yet (a run that stopped before its first game ended) holds nothing that
    could mix, so it is taken over whatever its parameters, with or without --resume.
    """
    params = recorded_params(batch, content)
    store = Store(out)
    try:
        stored = store.batch()
        held = store.count()
        if held:
            if not resume:
                raise BatchError(f"{out} already holds a batch ({held} games); add --resume to complete or"
                                 f" extend it, or choose another --out / 该目录已有一批对局：加 --resume 继续，或换一个 --out")
            if stored is not None and deciding(stored["params"]) != deciding(params):
                raise BatchError(_mismatch(stored["params"], params, out))
        expected = Expected.of(batch, content, stored["games"] if stored is not None else batch.games)
        missing = Missing.of(batch.games, (i for i, _ in audited(store.results(), expected, store.path)))
        store.set_batch(params, batch.games, replace=not held)
    except BaseException:
        store.close()
        raise
    return store, missing


class Missing:
    """The indexes of a batch's games not yet stored, in order: one byte per game, never a list of them."""

    def __init__(self, stored: bytearray):
        self.stored = stored
        self.count = stored.count(0)

    @classmethod
    def of(cls, games: int, done: Iterable[int]) -> Missing:
        stored = bytearray(games)
        for i in done:
            if 0 <= i < games:
                stored[i] = 1
        return cls(stored)

    def __len__(self) -> int:
        return self.count

    def __iter__(self) -> Iterator[int]:
        return (i for i, held in enumerate(self.stored) if not held)


# What each batch parameter is, in a designer's words, for the message of a --resume that does not match.
PARAMETERS = {
    "fingerprint": "content (a card or rules.yaml)",
    "engine_code": "engine code (rulekit's core, effects, language or content loading)",
    "agent_code": "agents' code (how greedy, random and default decide)",
    "rulekit": "rulekit version",
    "seed": "--seed", "players": "--players", "agents": "--agents",
    "include_tbd": "--include-tbd", "only_designed": "--only-designed",
}
DECIDED_BY = ("fingerprint", "engine_code", "agent_code")


# Recorded beside the parameters, not one of them: which files and cards the content had (the fingerprint
# already decides the games), so that a later run can say what changed.
PARTS = "content_parts"


def recorded_params(batch: Batch, content) -> dict:
    """The batch's parameters as stored: what decides its games, and the parts its content was made of."""
    return {**batch.params(content.fingerprint), PARTS: diff.parts(content)}


def deciding(params: dict) -> dict:
    """The stored parameters that decide a batch's games (a batch from before PARTS was recorded matches too)."""
    return {k: v for k, v in params.items() if k != PARTS}


def _mismatch(old: dict, new: dict, out: Path) -> str:
    keys = [k for k in dict.fromkeys([*PARAMETERS, *sorted(old), *sorted(new)]) if k != PARTS and old.get(k) != new.get(k)]
    what = "\n".join(f"  {PARAMETERS.get(k, k)}: was {_shown(old, k)}, is now {_shown(new, k)}" for k in keys)
    if "fingerprint" in keys:
        what += "".join(f"\n    {line}" for line in diff.changed_parts(old.get(PARTS) or {}, new.get(PARTS) or {}))
    why = ("the stored games were played by other code or content, so the games played now would not match them:"
           " start over with --fresh, or use another --out" if any(k in DECIDED_BY for k in keys) else
           "use another --out, or the same parameters (only --games may grow)")
    return f"--resume: {out} holds a batch with other parameters / 参数与已有批次不同:\n{what}\nResults would mix; {why}."


def _shown(params: dict, key: str) -> str:
    if key not in params:
        return "not recorded (an older rulekit)"
    value = params[key]
    return f"{value[:12]}…" if key in DECIDED_BY and isinstance(value, str) and len(value) > 12 else repr(value)


# ---- playing -------------------------------------------------------------------------------

def play_one(content, seed: int, agents: tuple[str, ...], players: int) -> GameResult:
    """One game; a failure outside the effects (an agent's or the engine's) is recorded like an effect error."""
    try:
        return run_game(content, seed, list(agents), players=players)
    except Exception as err:
        n = players
        return GameResult(seed=seed, players=n, agents=tuple(agents), advisors=(None,) * n, winners=(),
                          scores=(0,) * n, alive=(0,) * n, rounds=0, end_reason="error", out=(False,) * n,
                          cards_drawn=((),) * n, cards_played=((),) * n, events=(), combos_fired=(),
                          score_history=(), error=f"internal error, please report it: {type(err).__name__}: {err}")


def play_unit(content, batch: Batch, index: int, seed: int) -> GameResult | Measured:
    """One unit of work: the game, or with --value the game and its copies (rulekit/playtest/value.py)."""
    if batch.value is None:
        return play_one(content, seed, batch.agents, batch.players)
    from rulekit.playtest.value import measure_game

    try:
        return measure_game(content, batch.agents, batch.players, batch.value, index, seed)
    except Exception:
        return Measured(play_one(content, seed, batch.agents, batch.players), ())


def play_chunk(content, batch: Batch, chunk, play: Callable = play_unit) -> list[tuple[int, GameResult | Measured]]:
    """Play a chunk of (index, seed) games: what a dask worker runs."""
    return [(i, play(content, batch, i, seed)) for i, seed in chunk]


def chunks(todo: Iterable[tuple[int, int]], total: int, jobs: int) -> Iterator[list[tuple[int, int]]]:
    """dask's units of work: a task costs the scheduler about a millisecond, so games go in small chunks."""
    size = max(1, min(25, math.ceil(total / (jobs * 4))))
    games = iter(todo)
    while chunk := list(islice(games, size)):
        yield chunk


def start_method() -> str:
    """How worker processes start: fork where it is safe (Linux), spawn elsewhere.

    A forked worker starts in milliseconds with the parent's modules, its loaded (already checked and
    parsed) content and its parser: nothing is imported, pickled or parsed again. macOS and Windows
    cannot fork safely; there each worker re-imports rulekit and receives the content once, pickled.
    """
    return "fork" if sys.platform.startswith("linux") else "spawn"


AHEAD = 2   # games sent to a worker at a time: one it plays, one waiting, so it never idles on the parent


class LocalWorkers:
    """`jobs` worker processes; each plays one game at a time and sends it back the moment it ends.

    Only the parent writes games.sqlite, one game as it arrives, so a killed run loses only the games not
    yet finished. The workers are all started here, before the caller starts anything else (such as the
    progress display's thread), so a fork never copies a running thread. `play` is what a worker runs for
    one game (play_unit; `rulekit tune` plays its candidates with its own).
    """

    def __init__(self, content, batch: Batch, jobs: int, play: Callable = play_unit):
        ctx: Any = multiprocessing.get_context(start_method())     # typeshed knows no start method's Process
        self.batch = batch
        self.workers: list[tuple[BaseProcess, Connection]] = []
        try:
            for _ in range(jobs):
                mine, theirs = ctx.Pipe()
                # A forked worker inherits the parent's ends of every pipe made so far; it closes them, so
                # that when the parent dies (even by kill -9) its own pipe reports the end and it exits.
                inherited = [conn for _, conn in self.workers] + [mine] if ctx.get_start_method() == "fork" else []
                proc = ctx.Process(target=_serve, args=(theirs, inherited, content, batch, play),
                                   daemon=True)
                proc.start()
                theirs.close()
                self.workers.append((proc, mine))
        except BaseException:
            self.close()
            raise

    def play(self, todo: Iterable[tuple[int, int]]) -> Iterator[tuple[int, GameResult | Measured]]:
        """Each (index, result) of the (index, seed) games of `todo`, in the order they end."""
        pending = iter(todo)
        sent: dict[Connection, list[tuple[int, int]]] = {conn: [] for _, conn in self.workers}
        for conn, games in sent.items():
            self._feed(conn, games, pending)
        while any(sent.values()):
            for ready in wait([conn for conn, games in sent.items() if games]):
                conn = cast(Connection, ready)      # wait() gives back the connections it was given
                try:
                    index, result = conn.recv()
                except (EOFError, OSError):     # its end of the pipe closed: the worker is gone
                    raise self._died(conn, sent[conn][0]) from None
                sent[conn].pop(0)               # a worker plays its games in the order sent
                self._feed(conn, sent[conn], pending)
                yield index, result

    def _feed(self, conn: Connection, games: list[tuple[int, int]], pending: Iterator[tuple[int, int]]) -> None:
        while len(games) < AHEAD:
            game = next(pending, None)
            if game is None:
                return
            conn.send(game)
            games.append(game)

    def _died(self, conn: Connection, game: tuple[int, int]) -> BatchError:
        """The error for a worker that stopped on its own while playing `game`."""
        proc = next(proc for proc, c in self.workers if c is conn)
        proc.join(timeout=1)
        index, seed = game
        return BatchError(f"a worker process stopped while playing game {index} (exit code {proc.exitcode};"
                          f" out of memory, or killed?) / 一个工作进程意外退出。 The games already stored are safe;"
                          f" replay that game alone with `{self.batch.replay(seed)}`, or run the same command"
                          f" with --resume to go on.")

    def close(self) -> None:
        """Stop every worker; a game still being played is abandoned (it was never stored)."""
        for proc, conn in self.workers:
            conn.close()
            proc.terminate()
        for proc, _ in self.workers:
            proc.join()


def _serve(conn: Connection, inherited: list[Connection], content, batch: Batch, play: Callable = play_unit) -> None:
    """A worker: play each (index, seed) received and send (index, result) back, until stopped."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)    # Ctrl-C is the parent's to handle
    for other in inherited:
        other.close()
    while True:
        try:
            index, seed = conn.recv()
            conn.send((index, play(content, batch, index, seed)))
        except (EOFError, OSError):     # the parent is gone, or has closed the pipe
            return


@contextmanager
def local_games(content, batch: Batch, todo: Iterable[tuple[Any, int]], jobs: int, play: Callable = play_unit):
    """The games of `todo` as they end: in this process for one job, else from forked workers."""
    if jobs == 1:
        yield ((i, play(content, batch, i, seed)) for i, seed in todo)
        return
    workers = LocalWorkers(content, batch, jobs, play)
    try:
        yield workers.play(todo)
    finally:
        workers.close()


@contextmanager
def dask_games(content, batch: Batch, todo: Iterable[tuple[Any, int]], total: int, jobs: int, scheduler: str | None,
               play: Callable = play_unit):
    """The games of `todo` (`total` of them) as their chunks end, on the dask cluster at `scheduler` or a local one.

    A few chunks per worker are in flight at a time, each next one sent as one ends: a batch of a million
    games never has a million games' worth of tasks waiting on the scheduler.
    """
    try:
        from dask.distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise BatchError("--backend dask needs dask: pip install 'rulekit[dask]'"
                         " / 需要安装 dask：pip install 'rulekit[dask]'") from None
    cluster = None
    if scheduler:
        try:
            client = Client(scheduler, timeout="20s")
        except (OSError, TimeoutError) as err:
            raise BatchError(f"cannot reach the dask scheduler at {scheduler} / 无法连接 dask 调度器: {err}") from None
    else:
        cluster = LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True, dashboard_address=None)
        client = Client(cluster)
    flying: set = set()
    try:
        shared = client.scatter(content, broadcast=True)
        n = len(client.scheduler_info().get("workers", {})) or jobs
        work = chunks(todo, total, n)

        def send(chunk):
            future = client.submit(play_chunk, shared, batch, chunk, play, pure=False)
            flying.add(future)
            return future

        done = as_completed([send(c) for c in islice(work, n * 4)])

        def games():
            for future in done:
                flying.discard(future)
                chunk = next(work, None)
                if chunk is not None:
                    done.add(send(chunk))
                yield from future.result()

        yield games()
    finally:
        client.cancel(list(flying))
        client.close()
        if cluster is not None:
            cluster.close()


def run(content, batch: Batch, out: Path, *, jobs: int = 1, backend: str = "local", scheduler: str | None = None,
        resume: bool = False, fail_fast: bool = False,
        on_start: Callable[[int, int], None] | None = None,
        on_game: Callable[[int, GameResult], None] | None = None) -> Outcome:
    """Play the batch's missing games, storing each as it ends; stop at the first error with fail_fast.

    on_start(done, total) is called once the workers are running, before the first game ends.
    """
    store, missing = open_batch(content, batch, out, resume=resume)
    try:
        start = time.perf_counter()
        todo = ((i, game_seed(batch.seed, i)) for i in missing)
        games = (dask_games(content, batch, todo, len(missing), jobs, scheduler) if backend == "dask"
                 else local_games(content, batch, todo, max(1, min(jobs, len(missing)))))
        played = errors = 0
        stopped = None
        with games as stream:
            if on_start is not None:
                on_start(batch.games - len(missing), batch.games)
            for i, unit in stream:
                result = unit.result if isinstance(unit, Measured) else unit
                try:
                    if isinstance(unit, Measured):
                        store_points(store, i, unit.points)
                    store.add(i, result)
                except OverflowError:
                    raise BatchError(f"game {i} ended with a number too large to store (scores {list(result.scores)})"
                                     f" / 数值过大，无法保存。 A card's effect made it grow without bound; replay the"
                                     f" game to see which: {batch.replay(result.seed)}") from None
                played += 1
                if result.end_reason == "error":
                    errors += 1
                if on_game is not None:
                    on_game(i, result)
                if fail_fast and result.end_reason == "error":
                    stopped = (i, result)
                    break
        return Outcome(store.count(), played, errors, time.perf_counter() - start, stopped)
    finally:
        store.close()


def run_record(batch: Batch, outcome: Outcome, started: str, ended: str, jobs: int, backend: str,
               scheduler: str | None) -> dict:
    """DIR/run.json: when and how fast this run went (kept out of summary.json, which must not change)."""
    return {"started": started, "ended": ended, "seconds": round(outcome.seconds, 3),
            "games_played": outcome.played, "games_stored": outcome.stored,
            "games_per_second": round(outcome.played / outcome.seconds, 2) if outcome.seconds > 0 else None,
            "jobs": jobs, "backend": backend, "scheduler": scheduler, "batch": asdict(batch)}
