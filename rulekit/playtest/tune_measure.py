"""What `rulekit tune` measures in one game, how its games are played, and the stage reference it keeps.

For a policy, one game is a measured game of the causal value (rulekit/playtest/value.py) of the card, or
of every card of its stage for the reference; for an advisor, one plain game and whether the seats that
kept it won. Each game comes back as a `Unit` of sums per card, so that a candidate is a list of per-game
sums in seed order: its estimate is `paired.Clustered` over them, the game as the unit.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Callable, Iterable, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import rulekit
from rulekit.model import Content
from rulekit.playtest.paired import Clustered, Mean
from rulekit.playtest.runner import Batch, BatchError, dask_games, local_games, play_one
from rulekit.playtest.store import write_atomic
from rulekit.playtest.value import measure_game
from rulekit.provenance import agent_code, engine_code

GameSums = tuple[float, float, int] | None      # (a, win, b) of one game for one card; None: the game failed
REFERENCE_FILE = "stage-values.json"
_REFERENCE_FORMAT = 1


@dataclass(frozen=True)
class Variants:
    """The contents a round plays, by the value of the number tuned; `card` is the card measured."""

    card: str
    kind: str                           # policy | advisor
    contents: Mapping[int, Content]


@dataclass(frozen=True)
class Unit:
    """One game as a worker sends it back: per card, (a, win, b, points left out); nothing when it failed.

    For a policy a is the sum over its measured points of (final score with − without), win the same of
    wins, b the points; for an advisor a is the wins of the seats that kept it, b those seats.
    """

    end_reason: str
    sums: tuple[tuple[str, float, float, int, int], ...] = ()


def play_tuned(variants: Variants, batch: Batch, key: tuple[int, int], seed: int) -> Unit:
    """One game of a candidate (what a worker runs): key is (the value tried, the game's index)."""
    value, index = key
    content = variants.contents[value]
    if variants.kind == "advisor":
        result = play_one(content, seed, batch.agents, batch.players)
        if result.end_reason == "error":
            return Unit("error")
        seats = [s for s, a in enumerate(result.advisors) if a == variants.card]
        wins = sum(1 for s in seats if s in result.winners)
        return Unit(result.end_reason, ((variants.card, float(wins), 0.0, len(seats), 0),))
    assert batch.value is not None      # a policy is tuned by its causal value, so its batch measures it
    try:
        measured = measure_game(content, batch.agents, batch.players, batch.value, index, seed)
    except Exception:
        return Unit("error")
    if measured.result.end_reason == "error":
        return Unit("error")
    sums = []
    for card in batch.value.cards:
        kept = [p for p in measured.points if p.card == card and p.how == "play" and p.error is None]
        errors = sum(1 for p in measured.points if p.card == card and p.how == "play" and p.error is not None)
        sums.append((card, float(sum(p.score - p.alt_score for p in kept)),
                     float(sum(int(p.won) - int(p.alt_won) for p in kept)), len(kept), errors))
    return Unit(measured.result.end_reason, tuple(sums))


def mean(games: Iterable[GameSums], win: bool = False) -> Mean:
    """The ratio Σa / Σb over the completed games (or Σwin / Σb), with its 95% interval (game as the unit)."""
    acc = Clustered()
    for g in games:
        if g is not None:
            acc.add(g[1] if win else g[0], g[2])
    return acc.mean()


class Player:
    """Plays (value, index) games on the backend asked for; a local dask cluster lives for the whole run."""

    def __init__(self, batch: Batch, jobs: int, backend: str, scheduler: str | None):
        self.batch, self.jobs, self.backend, self.scheduler = batch, jobs, backend, scheduler

    @contextmanager
    def session(self):
        """For dask without a scheduler, one local cluster for every round (starting one takes seconds)."""
        if self.backend != "dask" or self.scheduler:
            yield self
            return
        try:
            from dask.distributed import LocalCluster
        except ImportError:
            raise BatchError("--backend dask needs dask: pip install 'rulekit[dask]'"
                             " / 需要安装 dask：pip install 'rulekit[dask]'") from None
        cluster = LocalCluster(n_workers=self.jobs, threads_per_worker=1, processes=True, dashboard_address=None)
        try:
            self.scheduler = cluster.scheduler_address
            yield self
        finally:
            self.scheduler = None
            cluster.close()

    def play(self, variants: Variants, batch: Batch, todo: list[tuple[tuple[int, int], int]],
             on_game: Callable[[Unit], None]) -> dict[tuple[int, int], Unit]:
        """Every game of `todo` ((value, index), seed), collected by key: the order they end in never matters."""
        out: dict[tuple[int, int], Unit] = {}
        if not todo:
            return out
        games = (dask_games(variants, batch, todo, len(todo), self.jobs, self.scheduler, play=play_tuned)
                 if self.backend == "dask" else
                 local_games(variants, batch, todo, max(1, min(self.jobs, len(todo))), play=play_tuned))
        with games as stream:
            for key, unit in stream:
                out[key] = unit
                on_game(unit)
        return out


# ---- the stage reference, kept in OUT/stage-values.json ----------------------------------------------------

@dataclass(frozen=True)
class Reference:
    """The causal value of every policy of a stage over the first `games` seeds: per card, per game sums."""

    stage: int
    games: int
    cards: Mapping[str, tuple[GameSums, ...]]


def reference_key(content: Content, batch: Batch, stage: int, cards: Iterable[str]) -> str:
    """What the stage's values depend on (their games count aside): a changed card, rule, agent, seed or
    rulekit makes a new key, so a stale file is never read as the values of this content."""
    params = {"format": _REFERENCE_FORMAT, "fingerprint": content.fingerprint, "engine_code": engine_code(),
              "agent_code": agent_code(), "rulekit": rulekit.__version__, "seed": batch.seed,
              "players": batch.players, "agents": list(batch.agents), "include_tbd": batch.include_tbd,
              "only_designed": batch.only_designed, "stage": stage, "cards": sorted(cards)}
    return hashlib.sha256(json.dumps(params, sort_keys=True).encode()).hexdigest()


def read_reference(out: Path, key: str, cards: Iterable[str]) -> Reference | None:
    """The stored reference for this key, or None: a missing, unreadable or other file is no reference."""
    try:
        data = json.loads((out / REFERENCE_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    try:
        if data["key"] != key:
            return None
        games = data["games"]
        if not isinstance(games, int) or isinstance(games, bool) or games < 0:
            return None
        held = {card: tuple(_game_sums(g) for g in data["cards"][card]) for card in cards}
        if any(len(v) != games for v in held.values()):
            return None
        return Reference(int(data["stage"]), games, held)
    except (KeyError, TypeError, ValueError):
        return None


def write_reference(out: Path, key: str, ref: Reference) -> None:
    data = {"key": key, "stage": ref.stage, "games": ref.games,
            "cards": {card: [list(g) if g is not None else None for g in sums] for card, sums in ref.cards.items()},
            "about": "rulekit tune: the causal value of each policy of the stage, per game (score with - without "
                     "summed over its points, the same of wins, its points); null: the game stopped on an error. "
                     "Delete this file to measure again."}
    try:
        write_atomic(out / REFERENCE_FILE, json.dumps(data, sort_keys=True) + "\n")
    except OSError as err:
        raise BatchError(f"cannot keep the stage reference in {out / REFERENCE_FILE} ({err.strerror or err}) / "
                         f"无法保存参照: free some space, or choose another --out") from None


def _game_sums(g) -> GameSums:
    """One stored game's sums, checked: numbers that are finite, a whole count of points."""
    if g is None:
        return None
    a, w, b = g
    if not all(isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) for x in (a, w)):
        raise ValueError(g)
    if not isinstance(b, int) or isinstance(b, bool) or b < 0:
        raise ValueError(g)
    return float(a), float(w), b
