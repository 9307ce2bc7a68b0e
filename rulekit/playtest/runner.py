"""Running a batch: each game's seed from (seed, index), games spread over local processes or dask, stored as they end."""

from __future__ import annotations

import hashlib
import math
import multiprocessing
import signal
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

import rulekit
from rulekit.content.loader import content_fingerprint as fingerprint
from rulekit.core.result import GameResult
from rulekit.engine import run_game
from rulekit.playtest.store import Store

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

    def params(self, fingerprint: str) -> dict:
        """What --resume compares: same content files, agents, seed, players and options."""
        return {"fingerprint": fingerprint, "seed": self.seed, "players": self.players,
                "agents": list(self.agents), "include_tbd": self.include_tbd,
                "only_designed": self.only_designed, "rulekit": rulekit.__version__}

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


def open_batch(batch: Batch, out: Path, *, resume: bool) -> tuple[Store, list[int]]:
    """Open DIR/games.sqlite for this batch; the indexes still to play. Refuses mixing batches."""
    params = batch.params(fingerprint(batch.content))
    store = Store(out)
    stored = store.batch()
    if stored is not None or store.count():
        if not resume:
            n = store.count()
            store.close()
            raise BatchError(f"{out} already holds a batch ({n} games); add --resume to complete or extend it,"
                             f" or choose another --out / 该目录已有一批对局：加 --resume 继续，或换一个 --out")
        if stored is not None and stored["params"] != params:
            store.close()
            raise BatchError(_mismatch(stored["params"], params, out))
    store.set_batch(params, batch.games)
    done = store.done()
    return store, [i for i in range(batch.games) if i not in done]


def _mismatch(old: dict, new: dict, out: Path) -> str:
    diffs = [f"  {k}: {old.get(k)!r} (stored) ≠ {new.get(k)!r} (now)" for k in sorted(new) if old.get(k) != new.get(k)]
    what = "\n".join(diffs)
    return (f"--resume: {out} holds a batch with other parameters / 参数与已有批次不同:\n{what}\n"
            f"Results would mix; use another --out, or the same parameters (only --games may grow).")


# ---- playing -------------------------------------------------------------------------------

def play_one(content, seed: int, agents: tuple[str, ...], players: int) -> GameResult:
    """One game; a failure outside the effects (an agent's or the engine's) is recorded like an effect error."""
    try:
        return run_game(content, seed, list(agents), players=players)
    except Exception as err:  # noqa: BLE001 — one broken game must not stop the batch
        n = players
        return GameResult(seed=seed, players=n, agents=tuple(agents), advisors=(None,) * n, winners=(),
                          scores=(0,) * n, alive=(0,) * n, rounds=0, end_reason="error", out=(False,) * n,
                          cards_drawn=((),) * n, cards_played=((),) * n, events=(), combos_fired=(),
                          score_history=(), error=f"internal error, please report it: {type(err).__name__}: {err}")


def play_chunk(content, agents: tuple[str, ...], players: int, chunk) -> list[tuple[int, GameResult]]:
    """Play a chunk of (index, seed) games: what every backend's workers run."""
    return [(i, play_one(content, seed, agents, players)) for i, seed in chunk]


_worker_content = None


def _init_worker(content) -> None:
    """A worker process receives the parent's loaded content once (the very cards the fingerprint covers)."""
    global _worker_content
    signal.signal(signal.SIGINT, signal.SIG_IGN)    # Ctrl-C is the parent's to handle
    _worker_content = content


def _worker_chunk(args) -> list[tuple[int, GameResult]]:
    agents, players, chunk = args
    return play_chunk(_worker_content, agents, players, chunk)


def chunks(todo: list[tuple[int, int]], jobs: int) -> list[list[tuple[int, int]]]:
    """Small enough to keep every worker busy and lose little when killed; big enough to cost little."""
    size = max(1, min(25, math.ceil(len(todo) / (jobs * 4))))
    return [todo[k:k + size] for k in range(0, len(todo), size)]


def run_local(content, batch: Batch, todo, jobs: int) -> Iterator[tuple[int, GameResult]]:
    if jobs == 1:
        for i, seed in todo:
            yield i, play_one(content, seed, batch.agents, batch.players)
        return
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(jobs, initializer=_init_worker, initargs=(content,)) as pool:
        work = [(batch.agents, batch.players, c) for c in chunks(todo, jobs)]
        for results in pool.imap_unordered(_worker_chunk, work):
            yield from results


def run_dask(content, batch: Batch, todo, jobs: int, scheduler: str | None) -> Iterator[tuple[int, GameResult]]:
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
    try:
        shared = client.scatter(content, broadcast=True)
        n = len(client.scheduler_info().get("workers", {})) or jobs
        futures = [client.submit(play_chunk, shared, batch.agents, batch.players, c, pure=False)
                   for c in chunks(todo, n)]
        done = as_completed(futures)
        try:
            for future in done:
                yield from future.result()
        finally:
            client.cancel(futures)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def run(content, batch: Batch, out: Path, *, jobs: int = 1, backend: str = "local", scheduler: str | None = None,
        resume: bool = False, fail_fast: bool = False,
        on_start: Callable[[int, int], None] | None = None,
        on_game: Callable[[int, GameResult], None] | None = None) -> Outcome:
    """Play the batch's missing games, storing each as it ends; stop at the first error with fail_fast."""
    store, missing = open_batch(batch, out, resume=resume)
    try:
        start = time.perf_counter()
        todo = [(i, game_seed(batch.seed, i)) for i in missing]
        if on_start is not None:
            on_start(batch.games - len(todo), batch.games)
        stream = (run_dask(content, batch, todo, jobs, scheduler) if backend == "dask"
                  else run_local(content, batch, todo, jobs))
        played = errors = 0
        stopped = None
        try:
            for i, result in stream:
                store.add(i, result)
                played += 1
                if on_game is not None:
                    on_game(i, result)
                if result.end_reason == "error":
                    errors += 1
                    if fail_fast:
                        stopped = (i, result)
                        break
        finally:
            stream.close()
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
