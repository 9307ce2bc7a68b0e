"""The summary of one finished game, as the playtest runner stores it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class GameResult:
    """What one game produced; everything a batch needs, nothing per decision.

    Seats are 0-based indexes in every tuple (seat 0 is P1).
    """

    seed: int
    players: int
    agents: tuple[str, ...]                 # agent name per seat
    advisors: tuple[str | None, ...]        # advisor id kept per seat
    winners: tuple[int, ...]                # seats sharing the win (empty only on error)
    scores: tuple[int, ...]                 # final score per seat (after final scoring)
    alive: tuple[int, ...]                  # alive residents per seat at the end (tie-break)
    rounds: int                             # rounds played (the last round number reached)
    end_reason: str                         # won_fight | events_exhausted | max_rounds | one_left | error
    out: tuple[bool, ...]                   # seat was out at the end
    cards_drawn: tuple[tuple[str, ...], ...]   # policy ids drawn per seat (with repeats)
    cards_played: tuple[tuple[str, ...], ...]  # policy ids played per seat (first execution only)
    events: tuple[str, ...]                 # event ids in the order drawn
    combos_fired: tuple[tuple[int, str], ...]  # (seat, combo id) in firing order
    score_history: tuple[tuple[int, ...], ...]  # score track per seat at the end of each round
    error: str | None = None                # message of an effect that failed (end_reason == "error")
    error_card: str | None = None           # id of the card whose effect failed
