"""The value of each card from the points of a measured batch: stored beside its games, summed game by game."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from rulekit.core.result import GameResult
from rulekit.playtest.paired import Clustered, Paired
from rulekit.playtest.value import WAYS, Point, ValuePlan

DEFINITIONS = {
    "value": "At sampled decision points of real games, the game is copied twice and both copies are played to "
             "the end with the same random numbers (the game's and every agent's): with the card played now "
             "(the advisor kept; a bid of the agent's own amount, at least 1), and without it (the agent's answer "
             "with that option off the menu, and for the rest of that copy the seat never plays, reacts with or "
             "bids on it). value = the mean over points of the seat's final score (win: 1/0, a shared win counts "
             "as a win) with minus without; ci95 is its 95% interval with the game as the unit (several points "
             "of one game are not independent). / 因果价值：在真实对局的决策点复制两份，同样的随机数，一份此刻打出该牌，"
             "一份不打（此后也不打）；两份最终得分（胜负）之差的平均。",
    "points": "points: decision points measured; games: games they come from; errors: points left out because a "
              "copy stopped on an error. In each game, for each card and way, the first `points_per_game` points "
              "at which some seat could do it, at most one per seat. / 每局每张牌取前若干个可打出（保留、出价）的决策点，"
              "每个座位至多一个。",
    "give": "give: one seat (the game's index modulo the players) is dealt the card after setup; the same seed is "
            "played with and without it, the pair compared on that seat; ci95 from the pairs. / 发牌：开局后把该牌"
            "发给一个座位，同一种子有无该牌各打一局，比较该座位。",
    "correlation": "The cards' difference (win_if_played − win_if_not_played) says players who played a card won "
                   "more, which a strong player's habits can explain; the value says what playing it at that "
                   "moment, rather than what the bot would have done instead, changed, for these bots. Judge a "
                   "card's strength by its value. / 相关只是提示；判断强弱看因果价值。两者都取决于所用的代理。",
}


@dataclass(frozen=True)
class Effect:
    """A difference with its 95% interval and the two-sided p of "it is 0"."""

    value: float | None
    ci95: tuple[float, float] | None
    p: float | None


@dataclass(frozen=True)
class ValueEstimate:
    """One way (play, keep, bid, give) of measuring one card: its value in score and in win."""

    card: str
    how: str
    score: Effect                   # final score with − without
    win: Effect                     # win (1/0) with − without
    score_with: float | None        # the mean final score with the card, and without it
    score_without: float | None
    win_with: float | None          # the win rate with the card, and without it
    win_without: float | None
    points: int                     # points (or pairs) measured
    games: int                      # games they come from
    errors: int                     # points left out: a copy stopped on an error

    def to_json(self) -> dict:
        return {"score": _effect(self.score), "win": _effect(self.win),
                "with": {"score": self.score_with, "win": self.win_with},
                "without": {"score": self.score_without, "win": self.win_without},
                "points": self.points, "games": self.games, "errors": self.errors}


@dataclass(frozen=True)
class CardValue:
    """What a measured batch says of one card: each way it was measured (None: not measured that way)."""

    card: str
    name: str
    kind: str
    play: ValueEstimate | None = None
    bid: ValueEstimate | None = None
    keep: ValueEstimate | None = None
    give: ValueEstimate | None = None


def signed(effect: dict, pct: bool = False) -> str:
    """An effect of summary.json as a designer reads it: +1.23 [+0.50, +1.96], or in percentage points."""
    v, ci = effect["value"], effect["ci95"]
    if v is None:
        return "—"
    f = (lambda x: f"{x * 100:+.0f}%") if pct else (lambda x: f"{x:+.2f}")
    return f"{f(v)} [{f(ci[0])}, {f(ci[1])}]" if ci else f(v)


def _effect(e: Effect) -> dict:
    return {"value": e.value, "ci95": list(e.ci95) if e.ci95 else None, "p": e.p}


class _Way:
    """The running sums of one card measured one way."""

    __slots__ = ("errors", "games", "score", "sums", "win")
    measure: type = Clustered

    def __init__(self) -> None:
        self.score, self.win = self.measure(), self.measure()
        self.sums = [0.0, 0.0, 0.0, 0.0, 0]      # score with, without; wins with, without; points
        self.games = self.errors = 0

    def add(self, points: list[Point]) -> None:
        """One completed game's points of this card and way (none: the game still counts)."""
        kept = [p for p in points if p.error is None]
        self.errors += len(points) - len(kept)
        self.score.add(sum(p.score - p.alt_score for p in kept), len(kept))
        self.win.add(sum(int(p.won) - int(p.alt_won) for p in kept), len(kept))
        self._tally(kept)

    def _tally(self, kept: list[Point]) -> None:
        s = self.sums
        for p in kept:
            s[0] += p.score
            s[1] += p.alt_score
            s[2] += p.won
            s[3] += p.alt_won
        s[4] += len(kept)
        self.games += bool(kept)

    def estimate(self, card: str, how: str) -> ValueEstimate:
        score, win = self.score.mean(), self.win.mean()
        return self._made(card, how, Effect(score.value, score.ci95, score.p), Effect(win.value, win.ci95, win.p))

    def _made(self, card: str, how: str, score: Effect, win: Effect) -> ValueEstimate:
        s = self.sums
        n = s[4]
        means = [x / n if n else None for x in s[:4]]
        return ValueEstimate(card, how, score, win, means[0], means[1], means[2], means[3], int(n), self.games, self.errors)


class _Given(_Way):
    """A card dealt at the start: each game one pair (with, without), compared on the seat dealt it."""

    __slots__ = ()
    measure = Paired

    def add(self, points: list[Point]) -> None:
        kept = [p for p in points if p.error is None]
        self.errors += len(points) - len(kept)
        for p in kept:
            self.score.add(p.alt_score, 1, p.score, 1)
            self.win.add(int(p.alt_won), 1, int(p.won), 1)
        self._tally(kept)

    def estimate(self, card: str, how: str) -> ValueEstimate:
        score, win = self.score.estimate(), self.win.estimate()
        return self._made(card, how, Effect(score.difference, score.ci95, score.p),
                          Effect(win.difference, win.ci95, win.p))


class ValueStats:
    """Every measured card's running sums, one completed game at a time, in index order."""

    def __init__(self, content, plan: ValuePlan):
        self.content = content
        self.plan = plan
        self.ways: dict[tuple[str, str], _Way] = {}
        if plan.give is not None:
            self.ways[plan.give, "give"] = _Given()
        else:
            named = set(plan.cards)
            for kind, hows in WAYS.items():
                for card in content.of_kind(kind):
                    if not named or card.id in named:
                        for how in hows:
                            self.ways[card.id, how] = _Way()
        self.games = 0

    def add(self, result: GameResult, points: Iterable[Point]) -> None:
        """One stored game: its points count only when the game itself completed."""
        if result.end_reason == "error":
            return
        self.games += 1
        by_way: dict[tuple[str, str], list[Point]] = {}
        for p in points:
            by_way.setdefault((p.card, p.how), []).append(p)
        for key, way in self.ways.items():
            way.add(by_way.get(key, []))

    def values(self) -> dict[str, CardValue]:
        """Each measured card's value, by card id, in content order."""
        out: dict[str, CardValue] = {}
        for (card, how), way in self.ways.items():
            c = self.content.lookup(card)
            have = out.get(card) or CardValue(card, c.name, c.kind)
            out[card] = CardValue(**{**have.__dict__, how: way.estimate(card, how)})
        return out

    def summary(self) -> dict:
        """summary.json's "value" (and value.json's): the plan, every card's measures, the definitions."""
        cards: dict[str, dict] = {}
        for cid, v in self.values().items():
            entry = cards[cid] = {"name": v.name, "kind": v.kind}
            for how in ("play", "bid", "keep", "give"):
                e = getattr(v, how)
                if e is not None:
                    entry[how] = e.to_json()
        ways = self.ways.values()
        return {"points_per_game": self.plan.points, "give": self.plan.give, "games": self.games,
                "points": sum(w.sums[4] for w in ways), "errors": sum(w.errors for w in ways),
                "cards": cards, "definitions": DEFINITIONS}


def summarize(measured: Iterable[tuple[GameResult, list[Point]]], content, plan: ValuePlan) -> ValueStats:
    stats = ValueStats(content, plan)
    for result, points in measured:
        stats.add(result, points)
    return stats


# ---- storing ------------------------------------------------------------------------------------

SCHEMA = """
CREATE TABLE IF NOT EXISTS value_points (
    game INTEGER NOT NULL, card TEXT NOT NULL, how TEXT NOT NULL, seat INTEGER NOT NULL, round INTEGER NOT NULL,
    score INTEGER NOT NULL, alt_score INTEGER NOT NULL, won INTEGER NOT NULL, alt_won INTEGER NOT NULL, error TEXT
);
CREATE INDEX IF NOT EXISTS value_points_game ON value_points (game);
"""
COLUMNS = ("card", "how", "seat", "round", "score", "alt_score", "won", "alt_won", "error")


def store_points(store, index: int, points: Iterable[Point]) -> None:
    """Write one game's points in games.sqlite (replacing any a killed run left), before the game's own row,
    so that a game stored always has its points. OverflowError when a score is beyond SQLite's integers."""
    rows = [(index, p.card, p.how, p.seat, p.round, p.score, p.alt_score, int(p.won), int(p.alt_won), p.error)
            for p in points]
    try:
        if not _has_table(store.db):
            store.db.executescript(SCHEMA)
        with store.db:
            store.db.execute("DELETE FROM value_points WHERE game = ?", (index,))
            store.db.executemany(f"INSERT INTO value_points (game, {', '.join(COLUMNS)}) VALUES"
                                 f" ({', '.join('?' * (len(COLUMNS) + 1))})", rows)
    except sqlite3.Error as err:
        raise store.error(err, f"store the value points of game {index} in") from None


def _has_table(db) -> bool:
    return db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'value_points'").fetchone() is not None


def stored(store) -> Iterator[tuple[GameResult, list[Point]]]:
    """Every stored game with its points, in index order (two cursors side by side: memory stays flat)."""
    points = points_by_game(store)
    nxt = next(points, None)
    for index, result in store.results():
        while nxt is not None and nxt[0] < index:
            nxt = next(points, None)
        if nxt is not None and nxt[0] == index:
            yield result, nxt[1]
            nxt = next(points, None)
        else:
            yield result, []


def points_by_game(store) -> Iterator[tuple[int, list[Point]]]:
    """(game, its points) for every game with points, in index order."""
    try:
        if not _has_table(store.db):
            return
        game, points = None, []
        for row in store.db.execute(f"SELECT game, {', '.join(COLUMNS)} FROM value_points ORDER BY game, rowid"):
            if row[0] != game and game is not None:
                yield game, points
                points = []
            game = row[0]
            card, how, seat, rnd, score, alt, won, alt_won, error = row[1:]
            points.append(Point(card, how, seat, rnd, score, alt, bool(won), bool(alt_won), error))
        if game is not None:
            yield game, points
    except sqlite3.Error as err:
        raise store.error(err, "read the value points of") from None
