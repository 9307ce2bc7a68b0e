"""An untrusted chooser in a worker process: it is handed plain data, and the game's memory is not in its process.

A chooser running in the game's own process sees a sealed observation (core/observation.py), but Python lets
code reach any object of its process (frame inspection, `gc`, a closure's cells). `WorkerChooser` runs the
chooser in a process of its own, started fresh (multiprocessing's "spawn": nothing of the game's process is
copied into it), and sends it, for every question, only plain data: a `PlainObservation` (what the seat may
see, as numbers, texts and tuples: card ids, never card objects) and a `PlainQuestion` (the kind, the options
as values, the card id and the text). The chooser answers with an index, which the game checks against the
rules as it checks every answer. It cannot search (no forecast reaches it) and costs a round trip per question.

    chooser = WorkerChooser("my_bots:make", seat=1)       # my_bots.make(seat) -> an object with choose(obs, q)
    game = rulekit.make_game(content, seed, [greedy, chooser, ...]); game.run(); chooser.close()
"""

from __future__ import annotations

import contextlib
import importlib
import multiprocessing
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rulekit.core.errors import RuleViolation
from rulekit.core.observation import Observation
from rulekit.core.questions import Question

TIMEOUT = 30.0          # seconds a worker may take over one answer


@dataclass(frozen=True)
class PlainObservation:
    """What one seat may see, as plain values (per-seat tuples are indexed by seat, 0 for P1)."""

    seat: int
    players: int
    round: int
    phase: str
    board: tuple[int, ...]                  # cell states by index (core/board.py; TILE for a face-down tile)
    hand: tuple[str, ...]                   # this seat's card ids
    prices: Mapping[str, int]               # the price to this seat of each card in its hand and on offer
    offers: tuple[tuple[int, str], ...]     # (seat offering, card id)
    tracks: tuple[tuple[int, ...], ...]     # per seat (medical, disease, policy, score, economy, money)
    counts: tuple[tuple[int, ...], ...]     # per seat (healthy, mild, severe, dead, tiles)
    out: tuple[bool, ...]
    unlocked: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    advisors: tuple[str | None, ...]        # another seat's is None during the draft
    tableaux: tuple[tuple[tuple[str, int, bool], ...], ...]   # per seat (card id, uses, on)
    events: tuple[str, ...]                 # the events resolved so far
    events_left: int
    deck_sizes: Mapping[int, int]
    discard_sizes: Mapping[int, int]
    strategy_costs: Mapping[int, int]
    seen: tuple                             # this seat's history (core/history.py)


@dataclass(frozen=True)
class PlainQuestion:
    kind: str
    seat: int
    options: tuple
    card: str | None
    text: str


def _id(card: Any) -> Any:
    return getattr(card, "id", card)


def _plain(option: Any) -> Any:
    """An option as plain values: an action or a cell as a tuple, a card as its id."""
    if isinstance(option, tuple):
        return tuple(map(_plain, option))
    return _id(option)


def plain_observation(obs: Observation) -> PlainObservation:
    """The seat's observation as plain data (what a worker process is sent)."""
    n = obs.players
    seats = range(n)
    hand = tuple(c.id for c in obs.hand)
    priced = {c.id: c for c in obs.hand} | {c.id: c for _, c in obs.offers}
    stages = sorted({c.stage for c in priced.values() if getattr(c, "stage", None) is not None} | {1, 2, 3})
    return PlainObservation(
        seat=obs.seat, players=n, round=obs.round, phase=obs.phase, board=obs.board, hand=hand,
        prices={ref: obs.price(c) for ref, c in sorted(priced.items())},
        offers=tuple((s, c.id) for s, c in obs.offers),
        tracks=tuple(obs.tracks(s) for s in seats), counts=tuple(obs.counts(s) for s in seats),
        out=tuple(obs.out(s) for s in seats), unlocked=tuple(obs.unlocked(s) for s in seats),
        hand_sizes=tuple(obs.hand_size(s) for s in seats),
        advisors=tuple(_id(obs.advisor(s)) for s in seats),
        tableaux=tuple(tuple((e.card.id, e.uses, e.on) for e in obs.tableau(s)) for s in seats),
        events=tuple(c.id for c in obs.history), events_left=obs.events_left,
        deck_sizes={k: obs.deck_size(k) for k in stages}, discard_sizes={k: obs.discard_size(k) for k in stages},
        strategy_costs=dict(obs.strategy_costs()), seen=obs.seen())


def plain_question(q: Question) -> PlainQuestion:
    return PlainQuestion(q.kind.value, q.seat, tuple(map(_plain, q.options)), q.card, q.text)


def _serve(target: str, seat: int, conn: Any) -> None:
    """In the worker: make the chooser, answer questions until told to stop (None)."""
    module, _, name = target.partition(":")
    chooser, failed = None, None
    try:
        chooser = getattr(importlib.import_module(module), name)(seat)
    except Exception as err:           # told to the game at its first question
        failed = f"cannot make {target}: {type(err).__name__}: {err}"
    while (msg := conn.recv()) is not None:
        obs, q = msg
        try:
            if chooser is None:
                raise RuntimeError(failed)
            conn.send(("ok", chooser.choose(obs, q)))
        except Exception as err:       # the worker's failure, told to the game in words
            conn.send(("error", str(err) if chooser is None else f"{type(err).__name__}: {err}"))


class WorkerChooser:
    """A chooser made by `target` ("module:function", called with the seat) in a fresh worker process."""

    name = "worker"

    def __init__(self, target: str, seat: int, timeout: float = TIMEOUT):
        if ":" not in target:
            raise ValueError(f"'{target}': a worker chooser is named module:function (my_bots:make)")
        ctx = multiprocessing.get_context("spawn")         # nothing of this process is copied into the worker
        self._conn, child = ctx.Pipe()
        self._proc = ctx.Process(target=_serve, args=(target, seat, child), daemon=True)
        self._proc.start()
        child.close()
        self.seat, self.timeout = seat, timeout

    def choose(self, obs: Observation, q: Question) -> int:
        try:
            self._conn.send((plain_observation(obs), plain_question(q)))
            if not self._conn.poll(self.timeout):
                self.close()
                raise RuleViolation(f"P{self.seat + 1}'s worker chooser gave no answer in {self.timeout:g} s")
            status, value = self._conn.recv()
        except (EOFError, OSError):
            raise RuleViolation(f"P{self.seat + 1}'s worker chooser stopped (its process ended)") from None
        if status != "ok":
            raise RuleViolation(f"P{self.seat + 1}'s worker chooser failed: {value}")
        return value

    def close(self) -> None:
        """Stop the worker (also done when the chooser is garbage; a daemon worker ends with the game's process)."""
        if self._proc.is_alive():
            with contextlib.suppress(OSError):
                self._conn.send(None)
            self._proc.join(2)
            if self._proc.is_alive():
                self._proc.terminate()
        self._conn.close()

    def __enter__(self) -> WorkerChooser:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
