"""Two contents on the same seeds, seats and agents: each side's stored batch, games paired by index, every
number's paired difference.

Game i of one side and game i of the other have the same seed, so the same deal, tiles and events
wherever the change lets them be the same (common random numbers); the difference of a number is
measured game by game (rulekit/playtest/paired.py), and what the two games share cancels out of it.

Each side's games are an ordinary playtest batch, stored in a folder of the results folder named by
what decides its games (Batch.params: the content's fingerprint, the engine's and agents' code, the
seed, players, agents and options): a second compare against the same base plays only the new side,
and a larger --games plays only the games not yet stored.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator, Sequence
from typing import Any
from dataclasses import dataclass, replace
from pathlib import Path

from rulekit.content import diff
from rulekit.model import Content
from rulekit.core.result import GameResult
from rulekit.playtest import stats
from rulekit.playtest.audit import Expected, audited
from rulekit.playtest.paired import Estimate, Mean, Paired
from rulekit.playtest.runner import Batch, Outcome, run
from rulekit.playtest.store import Store, batch_lock
from rulekit.playtest.value import Point
from rulekit.playtest.value_stats import DEFINITIONS as VALUE_DEFINITIONS
from rulekit.playtest.value_stats import points_by_game

FALSE_DISCOVERY_RATE = stats.FALSE_DISCOVERY_RATE
# A number is judged when each side measured it this often (player-games, or games): fewer, and its
# interval says more about the few games it rests on than about the change.
MIN_WEIGHT = stats.MIN_PLAYS


@dataclass(frozen=True)
class Side:
    """One side of a comparison: its content, how the report names it, and the batch that plays it."""

    label: str              # the folder as given, or REV:path (commit) for --base
    content: Content
    batch: Batch

    @property
    def key(self) -> str:
        """The name of this side's batch folder: a digest of everything that decides its games (not their count)."""
        params = self.batch.params(self.content.fingerprint)
        return hashlib.sha256(json.dumps(params, sort_keys=True).encode()).hexdigest()[:20]

    def folder(self, results: Path) -> Path:
        return results / self.key


# ---- playing --------------------------------------------------------------------------------------

def play(sides: tuple[Side, Side], results: Path, *, jobs: int = 1, backend: str = "local",
         scheduler: str | None = None, view: Callable[[str], object] | None = None) -> dict[str, Outcome]:
    """Play each side's missing games into its batch folder (a side equal to the other is played once).

    view(role) gives the progress display of that side (its start and game callbacks); the outcome of
    each role that was played ("base", "new") is returned.
    """
    outcomes: dict[str, Outcome] = {}
    done: set[str] = set()
    for role, side in zip(("base", "new"), sides, strict=True):
        if side.key in done:
            continue
        done.add(side.key)
        shown: Any = view(role) if view is not None else None
        out = side.folder(results)
        try:
            with batch_lock(out):
                outcomes[role] = run(side.content, side.batch, out, jobs=jobs, backend=backend, scheduler=scheduler,
                                     resume=True, on_start=getattr(shown, "start", None),
                                     on_game=_each_game(shown))
        finally:
            if shown is not None:       # one display at a time: the next side's starts after this one stops
                shown.stop()
    return outcomes


class CompareError(Exception):
    """The stored batches cannot be compared; the message says why and what to do."""


Played = tuple[GameResult, list[Point]]


def paired_games(base: Side, new: Side, results: Path) -> Iterator[tuple[int, Played, Played]]:
    """Game i of each side with its value points (none unless measured), for i from 0 to the batch's games − 1,
    each stored game checked against its batch."""
    games = base.batch.games
    stores = [Store(side.folder(results)) for side in (base, new)]
    try:
        streams = []
        for side, store in zip((base, new), stores, strict=True):
            held = store.batch()
            expected = Expected.of(side.batch, side.content, held["games"] if held else games)
            games_of = ((i, r) for i, r in audited(store.results(), expected, store.path) if i < games)
            streams.append(_with_points(games_of, points_by_game(store) if side.batch.value is not None else iter(())))
        paired = 0
        for (i, rb), (j, rn) in zip(*streams, strict=False):
            if i != paired or j != paired:
                break
            yield i, rb, rn
            paired += 1
        if paired != games:
            raise CompareError(f"game {paired} of a side is not stored yet (only games 0 to {paired - 1} are on both"
                               f" sides) / 有一边的对局不完整: run the same command again to play it")
    finally:
        for store in stores:
            store.close()


def _with_points(games: Iterator[tuple[int, GameResult]],
                 points: Iterator[tuple[int, list[Point]]]) -> Iterator[tuple[int, Played]]:
    """Each (index, game) with the value points stored for that index (both streams in index order)."""
    nxt = next(points, None)
    for i, r in games:
        while nxt is not None and nxt[0] < i:
            nxt = next(points, None)
        if nxt is not None and nxt[0] == i:
            yield i, (r, nxt[1])
            nxt = next(points, None)
        else:
            yield i, (r, [])


# ---- what is measured ----------------------------------------------------------------------------

# One compared number: (kind, id, metric). kind: card | advisor | seat | agent | combo | event | metric.
Key = tuple[str, str, str]


@dataclass(frozen=True)
class Metric:
    """How one kind of number reads: its unit, its words (a difference in it, either way) and its definition."""

    unit: str               # rate: shown in percentage points; number: as it is
    zh: str                 # a sentence with {name}, {amount} and {dir}
    en: str
    up: tuple[str, str]     # {dir} when the number rises (zh, en)
    down: tuple[str, str]
    definition: str


_MORE = (("高了", "more"), ("低了", "less"))
# A score against the player's own table: when every score rises, who gained on whom still shows.
EDGE = "mean of (final score − the mean final score of that game's players)"
_MORE_PEOPLE = (("高了", "more"), ("低了", "fewer"))
METRICS: dict[tuple[str, str], Metric] = {
    ("card", "drawn_by"): Metric("rate", "抽到{name}的玩家比例{dir} {amount}", "{name} is drawn by {amount} {dir} of the players",
                                 *_MORE_PEOPLE, "share of player-games that drew the card at least once"),
    ("card", "played_by"): Metric("rate", "打出{name}的玩家比例{dir} {amount}",
                                  "{name} is played by {amount} {dir} of the players",
                                  *_MORE_PEOPLE, "share of player-games that played the card at least once"),
    ("card", "played_when_drawn"): Metric("rate", "{name}抽到后被打出的比例{dir} {amount}",
                                          "{name} is played {amount} {dir} often when drawn", *_MORE,
                                          "share of the player-games that drew the card in which it was played"),
    ("card", "win_if_played"): Metric("rate", "打出{name}的玩家胜率{dir} {amount}",
                                      "players who play {name} win {amount} {dir} often",
                                      *_MORE, "win rate of the player-games that played the card"),
    ("card", "edge_if_played"): Metric("number", "打出{name}的玩家比同桌平均多得的分{dir} {amount} 分",
                                       "players who play {name} finish {amount} points {dir} against their table",
                                       ("高了", "higher"), ("低了", "lower"), EDGE + " of the player-games that played the card"),
    ("card", "value_score"): Metric("number", "此刻打出{name}的因果价值{dir} {amount} 分",
                                    "playing {name} is worth {amount} points {dir} (its causal value)",
                                    ("高了", "more"), ("低了", "less"), VALUE_DEFINITIONS["value"]),
    ("card", "value_win"): Metric("rate", "此刻打出{name}给胜率带来的因果价值{dir} {amount}",
                                  "playing {name} is worth {amount} {dir} in win rate (its causal value)",
                                  ("高了", "more"), ("低了", "less"), VALUE_DEFINITIONS["value"]),
    ("advisor", "value_score"): Metric("number", "保留顾问{name}的因果价值{dir} {amount} 分",
                                       "keeping advisor {name} is worth {amount} points {dir} (its causal value)",
                                       ("高了", "more"), ("低了", "less"), VALUE_DEFINITIONS["value"]),
    ("advisor", "value_win"): Metric("rate", "保留顾问{name}给胜率带来的因果价值{dir} {amount}",
                                     "keeping advisor {name} is worth {amount} {dir} in win rate (its causal value)",
                                     ("高了", "more"), ("低了", "less"), VALUE_DEFINITIONS["value"]),
    ("advisor", "chosen"): Metric("rate", "选择顾问{name}的玩家比例{dir} {amount}",
                                  "advisor {name} is kept by {amount} {dir} of the players",
                                  *_MORE_PEOPLE, "share of player-games that kept the advisor"),
    ("advisor", "win_if_chosen"): Metric("rate", "选择顾问{name}的玩家胜率{dir} {amount}",
                                         "players with advisor {name} win {amount} {dir} often", *_MORE,
                                         "win rate of the player-games that kept the advisor"),
    ("seat", "win"): Metric("rate", "座位 {name} 胜率{dir} {amount}", "seat {name} wins {amount} {dir} often", *_MORE,
                            "win rate of the seat (a shared win counts for each player sharing it)"),
    ("seat", "edge"): Metric("number", "座位 {name} 比同桌平均多得的分{dir} {amount} 分",
                             "seat {name} finishes {amount} points {dir} against its table", ("高了", "higher"),
                             ("低了", "lower"), EDGE + " of the seat"),
    ("agent", "win"): Metric("rate", "代理 {name} 胜率{dir} {amount}", "agent {name} wins {amount} {dir} often", *_MORE,
                             "win rate of the player-games the agent played"),
    ("combo", "fired"): Metric("rate", "连击{name}触发的对局比例{dir} {amount}",
                               "combo {name} fires in {amount} {dir} of the games",
                               *_MORE_PEOPLE, "share of games in which the combo fired at least once"),
    ("event", "drawn"): Metric("rate", "事件{name}出现的对局比例{dir} {amount}",
                               "event {name} comes up in {amount} {dir} of the games",
                               *_MORE_PEOPLE, "share of games in which the event was drawn"),
    ("metric", "rounds"): Metric("number", "对局平均{dir} {amount} 回合", "games last {amount} rounds {dir} on average",
                                 ("长了", "longer"), ("短了", "shorter"), "mean rounds of a game"),
    ("metric", "end"): Metric("rate", "以“{name}”结束的对局比例{dir} {amount}", "{amount} {dir} of the games end by {name}",
                              *_MORE_PEOPLE, "share of games that ended this way (games that stopped on an error included)"),
    ("metric", "score"): Metric("number", "玩家平均得分{dir} {amount} 分", "players score {amount} {dir} on average", *_MORE,
                                "mean final score of all players"),
    ("metric", "margin"): Metric("number", "胜者领先第二名的分差{dir} {amount} 分", "winners win by {amount} points {dir}",
                                 ("大了", "more"), ("小了", "less"), "mean winning margin: the winner's score minus the"
                                 " best other score among players still in (0 for a shared win)"),
    ("metric", "spread"): Metric("number", "一局中最高分与最低分之差{dir} {amount} 分",
                                 "the gap between a game's highest and lowest score is {amount} {dir}",
                                 ("大了", "wider"), ("小了", "narrower"), "mean of a game's highest minus lowest score"),
    ("metric", "shared_wins"): Metric("rate", "并列获胜的对局比例{dir} {amount}",
                                      "{amount} {dir} of the games end in a shared win",
                                      *_MORE_PEOPLE, "share of games won by more than one player"),
    ("metric", "balance"): Metric("number", "平衡度{dir} {amount}", "balance is {amount} {dir}", ("高了", "higher"),
                                  ("低了", "lower"), stats.METRICS["balance"]),
    ("metric", "decisiveness"): Metric("number", "决定性{dir} {amount}", "decisiveness is {amount} {dir}", ("高了", "higher"),
                                       ("低了", "lower"), stats.METRICS["decisiveness"]),
    ("metric", "lead_changes"): Metric("number", "每局领先者更替次数{dir} {amount}",
                                       "the lead changes {amount} {dir} times a game",
                                       *_MORE_PEOPLE, stats.METRICS["lead_changes"]),
    ("metric", "drama"): Metric("number", "戏剧性{dir} {amount}", "drama is {amount} {dir}", ("高了", "higher"), ("低了",
                                                                                                             "lower"),
                                stats.METRICS["drama"]),
    ("metric", "comeback_rate"): Metric("rate", "逆转获胜的对局比例{dir} {amount}",
                                        "{amount} {dir} of the games are won from behind",
                                        *_MORE_PEOPLE, stats.METRICS["comeback_rate"]),
}
# How each number is headed in the tables.
LABELS = {"played_when_drawn": "抽到后打出 played when drawn", "played_by": "打出率 played by",
          "win_if_played": "打出者胜率 win if played", "edge_if_played": "打出者比同桌多得 edge if played",
          "drawn_by": "抽到率 drawn by", "chosen": "选择率 kept by", "win_if_chosen": "胜率 win rate",
          "win": "胜率 win rate", "edge": "比同桌多得 edge", "fired": "触发的对局 games fired",
          "drawn": "出现的对局 games drawn", "rounds": "回合 rounds", "score": "平均分 mean score",
          "margin": "胜者领先 winning margin", "spread": "最高减最低 score spread", "shared_wins": "并列获胜 shared wins",
          "balance": "平衡度 balance", "decisiveness": "决定性 decisiveness", "lead_changes": "领先者更替 lead changes",
          "drama": "戏剧性 drama", "comeback_rate": "逆转率 comeback rate", "end": "结束原因 ended by",
          "value_score": "因果价值 得分 value: score", "value_win": "因果价值 胜负 value: win"}
CARD_METRICS = ("played_when_drawn", "played_by", "win_if_played", "edge_if_played", "drawn_by")
VALUE_METRICS = ("value_score", "value_win")
VALUE_WAYS = {"play": "card", "keep": "advisor"}    # how a point is measured -> the kind of number it adds to
ADVISOR_METRICS = ("chosen", "win_if_chosen")
GAME_METRICS = ("rounds", "score", "margin", "spread", "shared_wins", "decisiveness", "lead_changes", "drama",
                "comeback_rate")
END_REASONS = ("events_exhausted", "max_rounds", "won_fight", "one_left", "error")
END_WORDS = {"events_exhausted": ("事件牌抽完", "the events running out"), "max_rounds": ("达到回合上限", "the last round"),
             "won_fight": ("战胜瘟疫", "the fight won"), "one_left": ("只剩一名玩家", "one player left"),
             "error": ("出错", "an error")}


class Measures:
    """The compared numbers of two contents, in a fixed order, and what one game adds to each: (a, b) pairs.

    Every number is a ratio Σa / Σb over games (paired.py): a win rate is wins over player-games, a card's
    win-if-played the wins of the players who played it over those players. A measure of the causal value
    (rulekit/playtest/value.py) fits the same mould — a game's summed with-minus-without over its points,
    over its points — and would be one more group of keys here, read from the side's stored points.
    """

    def __init__(self, base: Content, new: Content, players: int, agents: tuple[str, ...],
                 valued: tuple[str, ...] | None = None):
        def ids(kind: str) -> list[str]:
            return list(dict.fromkeys([c.id for c in new.of_kind(kind)] + [c.id for c in base.of_kind(kind)]))

        def measured(ident: str) -> bool:
            return valued is not None and (not valued or ident in valued)

        keys: list[Key] = [("card", c, m) for c in ids("policy")
                           for m in CARD_METRICS + (VALUE_METRICS if measured(c) else ())]
        keys += [("advisor", a, m) for a in ids("advisor")
                 for m in ADVISOR_METRICS + (VALUE_METRICS if measured(a) else ())]
        keys += [("seat", f"P{s + 1}", m) for s in range(players) for m in ("win", "edge")]
        self.agents = sorted(set(agents)) if len(set(agents)) > 1 else []
        keys += [("agent", a, "win") for a in self.agents]
        keys += [("combo", c, "fired") for c in ids("combo")]
        keys += [("event", e, "drawn") for e in ids("event")]
        keys += [("metric", m, m) for m in GAME_METRICS]
        keys += [("metric", f"end:{r}", "end") for r in END_REASONS]
        self.keys = keys
        self.index = {k: i for i, k in enumerate(keys)}
        # On each side, the keys whose denominator is every player of a completed game, or the game itself:
        # only for the cards that side has (a card new on one side has no value on the other, not 0%).
        self.per_player, self.per_game = {}, {}
        for role, content in (("base", base), ("new", new)):
            has = {c.id for c in content.cards}
            self.per_player[role] = [i for i, (kind, ident, m) in enumerate(keys) if ident in has and (kind, m) in
                                     (("card", "drawn_by"), ("card", "played_by"), ("advisor", "chosen"))]
            self.per_game[role] = [i for i, (kind, ident, _) in enumerate(keys)
                                   if kind in ("combo", "event") and ident in has]
        self.ends = [i for i, (_, _, m) in enumerate(keys) if m == "end"]

    def of(self, r: GameResult, role: str, points: Sequence[Point] = ()) -> list[float]:
        """a then b of every key, for one game of one side and its value points (zeros where the game adds nothing)."""
        v = [0.0] * (2 * len(self.keys))
        at = self.index

        def add(key: Key, a: float, b: float) -> None:
            k = at.get(key)
            if k is not None:
                v[2 * k] += a
                v[2 * k + 1] += b

        for k in self.ends:
            v[2 * k + 1] = 1.0
        add(("metric", f"end:{r.end_reason}", "end"), 1, 0)
        if r.end_reason == "error":
            return v
        for k in self.per_player[role]:
            v[2 * k + 1] = float(r.players)
        for k in self.per_game[role]:
            v[2 * k + 1] = 1.0
        for s in range(r.players):
            self._player(add, r, s)
        for e in set(r.events):
            add(("event", e, "drawn"), 1, 0)
        for combo in {c for _, c in r.combos_fired}:
            add(("combo", combo, "fired"), 1, 0)
        for p in points:
            kind = VALUE_WAYS.get(p.how)
            if kind is not None and p.error is None:
                add((kind, p.card, "value_score"), float(p.score - p.alt_score), 1)
                add((kind, p.card, "value_win"), float(int(p.won) - int(p.alt_won)), 1)
        shape = stats.game_shape(r)
        values = {"rounds": r.rounds, "margin": stats.winning_margin(r),
                  "spread": max(r.scores) - min(r.scores), "shared_wins": len(r.winners) > 1,
                  "decisiveness": shape.decisiveness, "lead_changes": shape.lead_changes, "drama": shape.drama,
                  "comeback_rate": shape.comeback}
        for name, x in values.items():
            add(("metric", name, name), float(x), 1)
        return v

    @staticmethod
    def _player(add: Callable[[Key, float, float], None], r: GameResult, s: int) -> None:
        """What player s adds: their seat, agent, advisor and cards."""
        won = float(s in r.winners)
        score = float(r.scores[s])
        edge = score - sum(r.scores) / r.players
        seat = f"P{s + 1}"
        add(("seat", seat, "win"), won, 1)
        add(("seat", seat, "edge"), edge, 1)
        add(("agent", r.agents[s], "win"), won, 1)
        add(("metric", "score", "score"), score, 1)
        adv = r.advisors[s]
        if adv is not None:
            add(("advisor", adv, "chosen"), 1, 0)
            add(("advisor", adv, "win_if_chosen"), won, 1)
        drawn, played = set(r.cards_drawn[s]), set(r.cards_played[s])
        for c in drawn:
            add(("card", c, "drawn_by"), 1, 0)
            add(("card", c, "played_when_drawn"), float(c in played), 1)
        for c in played:
            add(("card", c, "played_by"), 1, 0)
            add(("card", c, "win_if_played"), won, 1)
            add(("card", c, "edge_if_played"), edge, 1)


# ---- the comparison -----------------------------------------------------------------------------

@dataclass(frozen=True)
class Compared:
    """One compared number: each side's value and interval, the paired difference, and whether it holds."""

    kind: str
    id: str
    name: str
    metric: str
    estimate: Estimate
    base_mean: Mean
    new_mean: Mean
    base_of: float              # Σb on each side: the player-games (or games) it was measured on
    new_of: float
    judged: bool
    needs_games: int | None     # not judged: about how many games would judge it (None: never measured on a side)
    q: float | None = None
    flagged: bool = False


def compare(base: Side, new: Side, results: Path) -> dict:
    """The whole comparison of two played sides, as compare.json holds it."""
    plan = base.batch.value
    measures = Measures(base.content, new.content, base.batch.players, base.batch.agents,
                        None if plan is None else plan.cards)
    acc = [Paired() for _ in measures.keys]
    seats = _SeatWins(base.batch.players)
    sides = {"base": _SideCount(), "new": _SideCount()}
    differing = 0
    for i, (rb, pb), (rn, pn) in paired_games(base, new, results):
        vb, vn = measures.of(rb, "base", pb), measures.of(rn, "new", pn)
        for k, p in enumerate(acc):
            p.add(vb[2 * k], vb[2 * k + 1], vn[2 * k], vn[2 * k + 1])
        seats.add(rb, rn)
        sides["base"].add(i, rb)
        sides["new"].add(i, rn)
        differing += rb != rn
    games = base.batch.games
    names = _names(base.content, new.content)
    compared = [_compared(key, names, p, games) for key, p in zip(measures.keys, acc, strict=True)]
    compared.append(_compared(("metric", "balance", "balance"), names, seats.paired(), games))
    compared = _judge(compared)
    changes = diff.diff(base.content, new.content)
    return {
        "base": _side_record(base, sides["base"]), "new": _side_record(new, sides["new"]),
        "games": games, "seed": base.batch.seed, "players": base.batch.players,
        "agents_by_seat": list(base.batch.agents),
        "options": {"include_tbd": base.batch.include_tbd, "only_designed": base.batch.only_designed},
        "content_changes": [c.as_dict() for c in changes],
        "files": diff.file_changes(base.content.files, new.content.files),
        "games_differing": differing,
        "tests": {"false_discovery_rate": FALSE_DISCOVERY_RATE, "min_weight": MIN_WEIGHT,
                  "judged": sum(c.judged for c in compared), "flagged": sum(c.flagged for c in compared)},
        "flagged": [_flag_record(c) for c in flag_order([c for c in compared if c.flagged], changes)],
        "edited": [_edited_record(c) for c in compared
                   if c.kind in ("card", "advisor") and c.id in _edited(changes) and c.judged],
        "compared": [_record(c) for c in compared],
        "definitions": DEFINITIONS,
    }


class _SideCount:
    """A side's games, completed games and errors (the first error kept, to name it)."""

    def __init__(self):
        self.total = self.errors = 0
        self.first_error: dict | None = None

    def add(self, index: int, r: GameResult) -> None:
        self.total += 1
        if r.end_reason == "error":
            self.errors += 1
            if self.first_error is None:
                self.first_error = {"game": index, "seed": r.seed, "card": r.error_card, "message": r.error}


class _SeatWins:
    """Balance is 1 − (highest − lowest seat win rate): the seats that are highest and lowest on each side are
    known only at the end, so each game's seat wins are kept (a few bytes a game) to pair the gap then."""

    def __init__(self, players: int):
        self.players = players
        self.rows = bytearray()       # per game: completed, then a win bit per seat, for base then new

    def add(self, rb: GameResult, rn: GameResult) -> None:
        for r in (rb, rn):
            done = r.end_reason != "error"
            self.rows.append(done)
            self.rows += bytes(int(done and s in r.winners) for s in range(self.players))

    def paired(self) -> Paired:
        """The paired balance: a completed game adds 1 + (the lowest seat's win) − (the highest seat's win), the seats
        chosen by each side's own wins, so that over its completed games a side sums to its balance."""
        width = 1 + self.players
        games = [self.rows[k:k + 2 * width] for k in range(0, len(self.rows), 2 * width)]
        picks = []
        for side in (0, 1):
            wins = [sum(g[side * width + 1 + s] for g in games) for s in range(self.players)]
            picks.append((wins.index(max(wins)), wins.index(min(wins))))
        p = Paired()
        for g in games:
            gaps = [(g[side * width] + g[side * width + 1 + picks[side][1]] - g[side * width + 1 + picks[side][0]],
                     g[side * width]) for side in (0, 1)]
            p.add(gaps[0][0], gaps[0][1], gaps[1][0], gaps[1][1])
        return p


def _names(base: Content, new: Content) -> dict[str, str]:
    out = {c.id: c.name for c in base.cards}
    out.update({c.id: c.name for c in new.cards})
    return out


def _compared(key: Key, names: dict[str, str], p: Paired, games: int) -> Compared:
    kind, ident, metric = key
    est = p.estimate()
    base_mean, new_mean = p.side("base"), p.side("new")
    if METRICS[(kind, metric)].unit == "rate":     # a share lies in 0..1, and a difference of two in −1..1
        est = replace(est, ci95=_within(est.ci95, -1.0, 1.0))
        base_mean = replace(base_mean, ci95=_within(base_mean.ci95, 0.0, 1.0))
        new_mean = replace(new_mean, ci95=_within(new_mean.ci95, 0.0, 1.0))
    base_of, new_of = p.s[3], p.s[1]
    judged = est.p is not None and min(base_of, new_of) >= MIN_WEIGHT
    needs = None if judged else stats.games_needed(games, min(base_of, new_of), MIN_WEIGHT)
    return Compared(kind, ident, _display(kind, ident, names), metric, est, base_mean, new_mean, base_of, new_of,
                    judged, needs)


def _within(ci: tuple[float, float] | None, lo: float, hi: float) -> tuple[float, float] | None:
    return None if ci is None else (max(lo, ci[0]), min(hi, ci[1]))


def _display(kind: str, ident: str, names: dict[str, str]) -> str:
    if kind == "metric" and ident.startswith("end:"):
        return END_WORDS.get(ident[4:], (ident[4:], ident[4:]))[1]
    return names.get(ident, ident)


def _each_game(shown: Any) -> Callable[[int, Any], None] | None:
    """The display's call for each game that ends, or none without a display."""
    if shown is None:
        return None
    return lambda index, result: shown.game(result)


def _judge(compared: list[Compared]) -> list[Compared]:
    """q (Benjamini–Hochberg across every judged number) and flagged (q ≤ the false discovery rate)."""
    pvalues = {str(i): c.estimate.p for i, c in enumerate(compared) if c.judged and c.estimate.p is not None}
    adjusted = stats.benjamini_hochberg(pvalues)
    out = []
    for i, c in enumerate(compared):
        q = adjusted.get(str(i))
        out.append(replace(c, q=q, flagged=q is not None and q <= FALSE_DISCOVERY_RATE))
    return out


def flag_order(flagged: list[Compared], changes: list[diff.Change]) -> list[Compared]:
    """What a designer reads first: the cards the change edited, then the whole game and the seats, then the rest;
    within each, the surest first."""
    edited = _edited(changes)

    def key(c: Compared):
        group = 0 if c.kind == "card" and c.id in edited else 1 if c.kind in ("metric", "seat", "agent") else 2
        return (group, c.q, -abs(c.estimate.difference or 0), c.kind, c.id, c.metric)
    return sorted(flagged, key=key)


def _edited(changes: list[diff.Change]) -> set[str]:
    """The cards the change touched (edited, added or removed)."""
    return {c.id for c in changes if c.name is not None}


# ---- words -------------------------------------------------------------------------------------

def words(c: Compared) -> tuple[str, str]:
    """A flagged difference in plain words, Chinese then English: what moved, how far, from what to what, its interval."""
    m = METRICS[(c.kind, c.metric)]
    d = c.estimate.difference or 0.0
    zh_dir, en_dir = m.up if d > 0 else m.down
    lo, hi = c.estimate.ci95 or (d, d)
    zh_name, en_name = END_WORDS.get(c.id[4:], (c.name, c.name)) if c.metric == "end" else (c.name, c.name)
    zh = m.zh.format(name=zh_name, dir=zh_dir, amount=amount(m, d, "zh"))
    en = m.en.format(name=en_name, dir=en_dir, amount=amount(m, d, "en"))
    before = f"{value(m, c.estimate.base)} → {value(m, c.estimate.new)}"
    return (f"{zh}（{before}；95%：{signed(m, lo)} 到 {signed(m, hi)}）",
            f"{en} ({before}; 95%: {signed(m, lo)} to {signed(m, hi)})")


def amount(m: Metric, d: float, lang: str) -> str:
    """The size of a difference: percentage points for a rate (31 points / 31 个百分点), else the number."""
    shown = _shown(m, abs(d))
    if m.unit != "rate":
        return shown
    return f"{shown} 个百分点" if lang == "zh" else f"{shown} points"


def value(m: Metric, x: float | None) -> str:
    if x is None:
        return "—"
    return f"{x:.0%}" if m.unit == "rate" else _number(x)


def signed(m: Metric, x: float) -> str:
    """An end of an interval, signed: in points for a rate (−38), as a number otherwise (−1.20)."""
    text = _shown(m, abs(x))
    return "0" if float(text) == 0 else ("+" if x > 0 else "−") + text


def _shown(m: Metric, x: float) -> str:
    """x >= 0 as a designer reads it: a rate in whole points (a tenth below 10), a number to two places."""
    if m.unit == "rate":
        points = x * 100
        return f"{points:.0f}" if points >= 9.5 else f"{points:.1f}"
    return _number(x)


def _number(x: float) -> str:
    text = f"{x:.2f}" if abs(x) < 10 else f"{x:.1f}"
    return text[1:] if text.startswith("-") and text.strip("-0.") == "" else text      # never "-0.00"


def meaning(record: dict) -> tuple[str, str]:
    """What the flagged differences can and cannot mean, for this comparison."""
    g, agents = record["games"], ", ".join(dict.fromkeys(record["agents_by_seat"]))
    q = f"{record['tests']['false_discovery_rate']:.0%}"
    return (f"这些差异来自 {g} 对同种子的对局中机器人（{agents}）的玩法：它们说明改动让这些代理的对局发生了什么，"
            f"不一定是真人玩家会怎样。列出的差异中平均至多约 {q} 是偶然；没有列出的差异也可能存在，只是在 {g} 局中太小而看不出。"
            f"胜率、打出率的变化是相关，不一定是这张牌本身造成的。",
            f"These differences come from how the bots ({agents}) play, over {g} pairs of games on the same seeds: they"
            f" say what the change did to those agents' games, not necessarily what it does to people's. On average at"
            f" most about {q} of the differences listed are chance; a difference not listed may still be there, too small"
            f" to see in {g} games. A change in who wins or plays what is a correlation, not proof a card causes it.")


# ---- records ---------------------------------------------------------------------------------------

DEFINITIONS = {
    "pairing": "Game i of base and game i of new have the same seed, seats and agents; every difference is measured"
               " game by game (common random numbers), with the game as the unit. / 两边第 i "
               "局种子、座位、代理相同，逐局配对比较。",
    "number": "Every compared number is a ratio of sums over games: a win rate is wins over player-games; a card's"
              " win_if_played is the wins of the players who played it over those players. / 每个数都是逐局求和之比。",
    "ci95": "ci95 is the paired 95% interval of new − base (delta method, Student's t); base_ci95 and new_ci95 are each"
            " side's own 95% interval. Rates are shares (0.31 = 31 points). / 配对 95% 区间。",
    "judged": f"A number is judged when each side measured it at least {MIN_WEIGHT} times (its of); needs_games says"
              f" about how many games would judge it. / 两边各至少 {MIN_WEIGHT} 次才判断。",
    "flagged": f"q is the Benjamini–Hochberg adjusted p across every judged number; a number is flagged (what changed)"
               f" when q <= {FALSE_DISCOVERY_RATE}, so on average at most {FALSE_DISCOVERY_RATE:.0%} of the flagged"
               f" differences are chance. / 用 Benjamini–Hochberg 方法控制错误发现率。",
    "balance": "balance's sides use each side's own highest and lowest seat. / 平衡度按各自的最高、最低座位计算。",
}


def _record(c: Compared) -> dict:
    e = c.estimate
    return {"kind": c.kind, "id": c.id, "name": c.name, "metric": c.metric, "unit": METRICS[(c.kind, c.metric)].unit,
            "base": e.base, "new": e.new, "difference": e.difference, "ci95": list(e.ci95) if e.ci95 else None,
            "p": e.p, "q": c.q, "judged": c.judged, "needs_games": c.needs_games, "flagged": c.flagged,
            "base_ci95": list(c.base_mean.ci95) if c.base_mean.ci95 else None,
            "new_ci95": list(c.new_mean.ci95) if c.new_mean.ci95 else None,
            "base_of": c.base_of, "new_of": c.new_of}


def _flag_record(c: Compared) -> dict:
    zh, en = words(c)
    return {**_record(c), "zh": zh, "en": en}


# How an edited card's number stands, whether or not it is among what changed.
STANDING = {"holds": ("经得起检验", "holds"),
            "alone": ("单独看成立，但在所有比较的数中可能是偶然",
                      "holds on its own, but could be chance among all the numbers compared"),
            "unclear": ("看不出变化", "no clear change"),
            "same": ("每一对对局都一样", "the same in every pair of games")}


def _edited_record(c: Compared) -> dict:
    """A number of a card the change touched: said in words, with how it stands."""
    p = c.estimate.p
    standing = ("holds" if c.flagged else "alone" if p is not None and p < FALSE_DISCOVERY_RATE
                else "same" if c.estimate.ci95 == (0.0, 0.0) else "unclear")
    zh, en = words(c) if c.estimate.difference else _unchanged(c)
    return {**_record(c), "zh": zh, "en": en, "standing": standing,
            "standing_zh": STANDING[standing][0], "standing_en": STANDING[standing][1]}


def _unchanged(c: Compared) -> tuple[str, str]:
    both = value(METRICS[(c.kind, c.metric)], c.estimate.base)
    zh, en = LABELS[c.metric].split(" ", 1)
    return f"{c.name}：{zh}不变（{both}）", f"{c.name}: {en} unchanged ({both})"


def _side_record(side: Side, count: _SideCount) -> dict:
    return {"content": side.label, "fingerprint": side.content.fingerprint, "batch": side.key,
            "games": count.total, "completed": count.total - count.errors, "errors": count.errors,
            "first_error": count.first_error}


def dumps(record: dict) -> str:
    """compare.json's text: sorted keys, floats to 4 decimals — same inputs, same bytes."""
    return stats.dumps(record)


