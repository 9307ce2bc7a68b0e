"""`rulekit playtest --skill`: what each level of play gains, on the same seeds (issue 17).

Every seed is played three times. One seat (the focus: seat i mod players in game i, so it rotates) is
played by `random`, then by `greedy`, then by `mcts`; every other seat is greedy in all three. The three
games of a seed share the deal, the tiles and the events, so comparing the focus seat's results across
them measures the level of play and little else (paired estimates, rulekit/playtest/paired.py: the
game is the unit, a 95% interval and a p-value each).

Two steps are compared: greedy over random (what reading the cards gains) and mcts over greedy (what
searching gains). For each: the focus seat's win rate; per advisor, its win rate in the games where it kept
that advisor, and how often it kept it; per card, its win rate in the games where it played that card. A
per-advisor or per-card difference is reported only where both sides kept or played it in at least
MIN_GAMES games, and its p-value is adjusted for the number of them (Benjamini–Hochberg): `clear` means an
adjusted p below 0.05.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from rulekit.core.result import GameResult
from rulekit.engine import run_game
from rulekit.playtest.paired import Paired
from rulekit.playtest.runner import game_seed
from rulekit.playtest.stats import benjamini_hochberg

LEVELS = ("random", "greedy", "mcts")
STEPS = (("random", "greedy"), ("greedy", "mcts"))
MIN_GAMES = 5           # games a side must have kept the advisor (played the card) in to compare it
DEFAULT_GAMES = 12      # seeds a --skill run plays by default (each three times, one of them with a searching seat)


@dataclass(frozen=True)
class SkillGame:
    """One seed's three games, from the focus seat's side: per level its share of the win, advisor and cards."""

    index: int
    seed: int
    seat: int
    win: tuple[float, ...]              # per level (LEVELS' order)
    advisor: tuple[str | None, ...]
    played: tuple[frozenset, ...]
    errors: int


def play_seed(job: tuple) -> SkillGame:
    content, index, seed, players, mcts = job
    seat = index % players
    wins, advisors, played, errors = [], [], [], 0
    for level in LEVELS:
        names = ["greedy"] * players
        names[seat] = mcts if level == "mcts" else level
        r: GameResult = run_game(content, seed, names, players=players)
        errors += r.end_reason == "error"
        wins.append(1 / len(r.winners) if seat in r.winners else 0.0)
        advisors.append(r.advisors[seat])
        played.append(frozenset(r.cards_played[seat]))
    return SkillGame(index, seed, seat, tuple(wins), tuple(advisors), tuple(played), errors)


def play(content, games: int, seed: int, players: int, mcts: str = "mcts", jobs: int = 1,
         on_game: Callable[[SkillGame], None] | None = None) -> list[SkillGame]:
    """The seeds of a batch (game_seed(seed, i), as playtest's), each played at every level."""
    todo = [(content, i, game_seed(seed, i), players, mcts) for i in range(games)]
    out = []
    if jobs > 1:
        with multiprocessing.Pool(jobs) as pool:
            for g in pool.imap(play_seed, todo):
                out.append(g)
                if on_game:
                    on_game(g)
    else:
        for job in todo:
            out.append(play_seed(job))
            if on_game:
                on_game(out[-1])
    return out


def _estimate(p: Paired) -> dict:
    e = p.estimate()
    return {"base": e.base, "new": e.new, "difference": e.difference, "ci95": e.ci95, "p": e.p, "games": e.games}


def summarize(games: Iterable[SkillGame]) -> dict:
    """Per step: overall, per advisor and per card paired differences (BH-adjusted p where there are several)."""
    games = list(games)
    out: dict = {"games": len(games), "errors": sum(g.errors for g in games), "steps": []}
    for lo, hi in STEPS:
        a, b = LEVELS.index(lo), LEVELS.index(hi)
        overall = Paired()
        per_advisor: dict[str, Paired] = {}
        kept: dict[str, list[int]] = {}
        per_card: dict[str, Paired] = {}
        used: dict[str, list[int]] = {}
        for g in games:
            overall.add(g.win[a], 1, g.win[b], 1)
            for ref in sorted({x for x in (g.advisor[a], g.advisor[b]) if x is not None}):
                p = per_advisor.setdefault(ref, Paired())
                ka, kb = g.advisor[a] == ref, g.advisor[b] == ref
                p.add(g.win[a] * ka, ka, g.win[b] * kb, kb)
                k = kept.setdefault(ref, [0, 0])
                k[0] += ka
                k[1] += kb
            for ref in sorted(g.played[a] | g.played[b]):
                p = per_card.setdefault(ref, Paired())
                ka, kb = ref in g.played[a], ref in g.played[b]
                p.add(g.win[a] * ka, ka, g.win[b] * kb, kb)
                u = used.setdefault(ref, [0, 0])
                u[0] += ka
                u[1] += kb
        step = {"base": lo, "new": hi, "win": _estimate(overall), "advisors": {}, "cards": {}}
        for table, paired, counts in (("advisors", per_advisor, kept), ("cards", per_card, used)):
            rows: dict[str, dict[str, Any]] = {}
            for ref in sorted(paired):
                row: dict[str, Any] = {"base_games": counts[ref][0], "new_games": counts[ref][1]}
                if min(counts[ref]) >= MIN_GAMES:
                    row.update(_estimate(paired[ref]))
                rows[ref] = row
            ps = {ref: r["p"] for ref, r in rows.items() if r.get("p") is not None}
            for ref, q in benjamini_hochberg(ps).items():
                rows[ref]["p_adjusted"] = q
                rows[ref]["clear"] = q < 0.05
            step[table] = rows
        out["steps"].append(step)
    return out


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{100 * x:.0f}%"


def _pts(ci: tuple[float, float] | None) -> str:
    if ci is None:
        return ""
    lo, hi = max(-1.0, ci[0]), min(1.0, ci[1])       # a difference of two shares lies within ±100 points
    return f" [{100 * lo:+.0f}, {100 * hi:+.0f}]"


def _games(n: int) -> str:
    return f"{n} game" if n == 1 else f"{n} games"


def render(summary: dict) -> str:
    """The report in plain words (Chinese and English headings)."""
    lines = [f"技能 skill: {summary['games']} seeds, each played with the focus seat random, greedy and mcts "
             f"(other seats greedy); {summary['errors']} games ended on an error."]
    for step in summary["steps"]:
        w = step["win"]
        lo, hi = step["base"], step["new"]
        d = "—" if w["difference"] is None else f"{100 * w['difference']:+.0f} points"
        lines.append(f"\n{hi} over {lo} / {hi} 相对 {lo}: the focus seat wins {_pct(w['new'])} as {hi}, "
                     f"{_pct(w['base'])} as {lo}: {d}{_pts(w['ci95'])} (95% interval, paired on the same seeds)")
        for table, what in (("advisors", "kept"), ("cards", "played")):
            rows = step[table]
            shown = [(ref, r) for ref, r in rows.items() if r.get("difference") is not None]
            lines.append(f"  per {table[:-1]} ({what} by both in at least {MIN_GAMES} games: {len(shown)} of {len(rows)}):")
            for ref, r in sorted(shown, key=lambda x: -(x[1]["difference"] or 0)):
                mark = "clear" if r.get("clear") else "not clear"
                lines.append(f"    {ref}: wins {_pct(r['new'])} as {hi}, {_pct(r['base'])} as {lo} when {what}: "
                             f"{100 * r['difference']:+.0f} points{_pts(r['ci95'])}, {mark}")
            only = sorted(ref for ref, r in rows.items() if r["base_games"] == 0 and r["new_games"] > 0)
            if only:
                lines.append(f"    {what} only by {hi}: " + ", ".join(f"{ref} ({_games(rows[ref]['new_games'])})"
                                                                   for ref in only))
            if table == "advisors":
                lines.append("    kept (games as " + lo + " / as " + hi + "): " +
                             ", ".join(f"{ref} {r['base_games']}/{r['new_games']}" for ref, r in rows.items()))
    if summary["games"] < 100:
        lines.append(f"\n{summary['games']} seeds is a small sample: most intervals are wide; "
                     "run more (--games) to tell smaller gains apart.")
    return "\n".join(lines)
