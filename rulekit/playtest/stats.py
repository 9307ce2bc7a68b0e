"""Statistics of a batch, aggregated one stored game at a time: rates with Wilson intervals, whole-game metrics, outliers."""

from __future__ import annotations

import json
import math
from collections import Counter
from dataclasses import dataclass

from rulekit.core.result import GameResult
from rulekit.playtest import unplayed
from rulekit.playtest.runner import game_seed

Z95 = 1.959963984540054
MAX_LISTED_ERRORS = 200

# When a card's win-rate gap is worth a line in "What stands out" (docs/playtest.md, "Cards"):
MIN_PLAYS = 30                  # player-games on each side (played, not played) before a gap is judged
FALSE_DISCOVERY_RATE = 0.05     # Benjamini–Hochberg level across the cards judged
MIN_GAP = 0.05                  # and a gap of at least 5 points, so a tiny but certain gap is not news
# An advisor or a seat is judged against the average win rate once it has MIN_PLAYS player-games too.
# Balance (1 − the range of the seat win rates) is judged only from enough games that chance alone would
# keep it above BALANCE_WARNING 95 times in 100: the range of P seat win rates, each with variance about
# (1/P) / n apart from the others, reaches the 95% studentized range Q95[P] times sqrt((1/P) / n).
BALANCE_WARNING = 0.8
Q95 = {2: 2.772, 3: 3.314, 4: 3.633}

DEFINITIONS = {
    "win": "A shared win counts as a win for each player sharing it, so win rates can add up to more than 1 "
           "(shared_wins says how often). / 并列获胜时每位并列者各计一胜。",
    "rate": "count / of, with ci95 the Wilson 95% score interval. / 比率及其 Wilson 95% 置信区间。",
    "completed": "Rates, rounds, scores and metrics count completed games only; games that ended in an error "
                 "are listed under errors. / 统计只含正常结束的对局，出错的对局列在 errors 中。",
    "seats": "Seat P1 is first player in round 1 only: the first player rotates each round "
             "(rules.yaml first_player). / P1 只在第1回合先手，先手每回合轮换。",
    "cards": "drawn: times drawn; drawn_by / played_by: share of player-games in which the card was drawn / "
             "played at least once; win_if_played vs win_if_not_played compare player-games; difference = "
             "their gap, difference_ci95 its Newcombe (Wilson-based) interval; score_if_played / score_if_not_played: mean "
             "final score of those player-games. A gap is a correlation, "
             "not proof the card causes wins. never_played: for a card drawn but never played, why (reaction, "
             "unreadable, unaffordable, not_worth or unknown, each in Chinese and English; rulekit/playtest/unplayed.py), "
             "else null. / 打出与未打出者胜率之差是相关，不等于因果。",
    "card_tests": f"A card is judged when it was played in at least {MIN_PLAYS} player-games and not played in at "
                  f"least {MIN_PLAYS}; fewer are too few to judge (judged false, no p or q). difference_p: two-sided "
                  f"p-value of the pooled two-proportion z-test; difference_q: its Benjamini–Hochberg adjusted value "
                  f"across the judged cards. stands_out: difference_q <= {FALSE_DISCOVERY_RATE} and |difference| >= "
                  f"{MIN_GAP}, so on average at most {FALSE_DISCOVERY_RATE:.0%} of the cards flagged are flagged by "
                  f"chance. needs_games (cards and advisors not judged): about how many games would judge it."
                  f" / 打出与未打出各至少 {MIN_PLAYS} 人局才判断；用 Benjamini–Hochberg 控制错误发现率。",
}
METRICS = {
    "balance": "1 − (highest seat win rate − lowest seat win rate); 1 = every seat wins equally often. "
               "/ 平衡度：1 − 各座位胜率的最大差距。",
    "decisiveness": "Mean over games of the winning margin (winner's score − best other score among players "
                    "still in) divided by the game's score range (highest − lowest score); 0 for a shared win. "
                    "/ 决定性：胜者领先第二名的分差 ÷ 该局分数极差，取平均。",
    "lead_changes": "Mean per game of how often the sole leader (highest score at the end of a round; ties "
                    "keep the previous leader) changed. / 领先者更替：每局领先者变更次数的平均值。",
    "drama": "Mean over games of how many points the eventual winner stood behind the leader, averaged over "
             "the ends of rounds (before final scoring). 0 = the winner always led. "
             "/ 戏剧性：最终胜者在各回合结束时落后领先者的平均分数。",
    "comeback_rate": "Share of games whose eventual winner was strictly behind the leader at the end of the "
                     "middle round (round ⌈rounds/2⌉). / 逆转率：中间回合结束时落后、最终获胜的对局比例。",
}


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float] | None:
    """The Wilson score interval of k successes in n trials (None when n is 0)."""
    if n <= 0:
        return None
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def newcombe(k1: int, n1: int, k2: int, n2: int) -> tuple[float, float] | None:
    """Newcombe's hybrid score interval for p1 − p2, built from the two Wilson intervals."""
    a, b = wilson(k1, n1), wilson(k2, n2)
    if a is None or b is None:
        return None
    p1, p2 = k1 / n1, k2 / n2
    d = p1 - p2
    return (d - math.sqrt((p1 - a[0]) ** 2 + (b[1] - p2) ** 2),
            d + math.sqrt((a[1] - p1) ** 2 + (p2 - b[0]) ** 2))


def two_proportion_p(k1: int, n1: int, k2: int, n2: int) -> float | None:
    """Two-sided p-value of the pooled two-proportion z-test of k1/n1 against k2/n2 (None when n1 or n2 is 0)."""
    if n1 <= 0 or n2 <= 0:
        return None
    pooled = (k1 + k2) / (n1 + n2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    if se == 0:
        return 1.0
    return math.erfc(abs(k1 / n1 - k2 / n2) / se / math.sqrt(2))


def benjamini_hochberg(pvalues: dict[str, float]) -> dict[str, float]:
    """Benjamini–Hochberg adjusted p-values: flagging those <= a keeps the false discovery rate at most a.

    Ties in p are ordered by key, so the result never depends on the order the cards came in.
    """
    order = sorted(pvalues, key=lambda k: (pvalues[k], k))
    m = len(order)
    adjusted = {}
    smallest = 1.0
    for rank in range(m, 0, -1):
        key = order[rank - 1]
        smallest = min(smallest, pvalues[key] * m / rank)
        adjusted[key] = smallest
    return adjusted


def judge_cards(cards: dict[str, dict], games: int | None = None) -> None:
    """Add judged, needs_games, difference_p, difference_q and stands_out to each card of card_summary()."""
    pvalues = {}
    for cid, c in cards.items():
        played, rest = c["win_if_played"], c["win_if_not_played"]
        c["judged"] = played["of"] >= MIN_PLAYS and rest["of"] >= MIN_PLAYS
        c["needs_games"] = (None if c["judged"] or games is None
                            else games_needed(games, min(played["of"], rest["of"])))
        c["difference_p"] = (two_proportion_p(played["count"], played["of"], rest["count"], rest["of"])
                             if c["judged"] else None)
        if c["difference_p"] is not None:
            pvalues[cid] = c["difference_p"]
    adjusted = benjamini_hochberg(pvalues)
    for cid, c in cards.items():
        c["difference_q"] = adjusted.get(cid)
        c["stands_out"] = (c["difference_q"] is not None and c["difference_q"] <= FALSE_DISCOVERY_RATE
                           and abs(c["difference"]) >= MIN_GAP)


def games_needed(games: int, seen: float, need: int = MIN_PLAYS) -> int | None:
    """About how many games would show something seen `seen` times in `games` games `need` times (None: never seen)."""
    return math.ceil(games * need / seen) if seen > 0 else None


def balance_games(players: int) -> int:
    """The fewest games from which a balance below BALANCE_WARNING is more than chance (see Q95)."""
    return math.ceil(Q95[players] ** 2 / players / (1 - BALANCE_WARNING) ** 2)


def rate(k: int, n: int) -> dict:
    ci = wilson(k, n)
    return {"count": k, "of": n, "rate": k / n if n else None, "ci95": list(ci) if ci else None}


def quantile(hist: Counter, q: float):
    """Nearest-rank quantile of a histogram of whole numbers."""
    n = sum(hist.values())
    if not n:
        return None
    rank = max(1, math.ceil(q * n))
    seen = 0
    for v in sorted(hist):
        seen += hist[v]
        if seen >= rank:
            return v
    return max(hist)


class Stats:
    """Aggregates stored games one at a time, in index order; memory does not grow with the batch."""

    def __init__(self, content, batch):
        self.content = content
        self.batch = batch
        n = batch.players
        self.total = self.completed = self.shared = 0
        self.seat_wins = [0] * n
        self.seat_score = [0] * n
        self.pg = Counter()            # player-games by agent / advisor key
        self.pg_wins = Counter()
        self.advisor_games = Counter()
        self.advisor_wins = Counter()
        self.card_drawn = Counter()
        self.card_drawn_by = Counter()
        self.card_played_by = Counter()
        self.card_played_when_drawn = Counter()
        self.card_played_wins = Counter()
        self.card_played_score = Counter()
        self.event_games = Counter()
        self.combo_times = Counter()
        self.combo_games = Counter()
        self.rounds = Counter()
        self.end_reasons = Counter()
        self.scores = Counter()
        self.score_sum = self.score_sq = 0
        self.winner_score_sum = 0
        self.margin_norm_sum = 0.0
        self.lead_changes = 0
        self.drama_sum = 0.0
        self.comebacks = 0
        self.longest = None            # (rounds, index, seed)
        self.widest = None             # (margin, index, seed)
        self.error_count = 0
        self.error_cards = Counter()
        self.errors: list[dict] = []

    # ---- one game ----------------------------------------------------------------------------
    def add(self, index: int, r: GameResult) -> None:
        self.total += 1
        self.end_reasons[r.end_reason] += 1
        if r.end_reason == "error":
            self.add_error(index, r)
            return
        self.completed += 1
        self.shared += len(r.winners) > 1
        self.rounds[r.rounds] += 1
        for s in range(r.players):
            won = s in r.winners
            self.seat_wins[s] += won
            self.seat_score[s] += r.scores[s]
            self.pg[r.agents[s]] += 1
            self.pg_wins[r.agents[s]] += won
            if r.advisors[s] is not None:
                self.advisor_games[r.advisors[s]] += 1
                self.advisor_wins[r.advisors[s]] += won
            self.add_cards(r, s, won)
            self.scores[r.scores[s]] += 1
            self.score_sum += r.scores[s]
            self.score_sq += r.scores[s] ** 2
        self.winner_score_sum += max(r.scores[s] for s in r.winners)
        for e in set(r.events):
            self.event_games[e] += 1
        for _, combo in r.combos_fired:
            self.combo_times[combo] += 1
        for combo in {c for _, c in r.combos_fired}:
            self.combo_games[combo] += 1
        self.add_shape(index, r)

    def add_cards(self, r: GameResult, s: int, won: bool) -> None:
        drawn = set(r.cards_drawn[s])
        played = set(r.cards_played[s])
        for c in r.cards_drawn[s]:
            self.card_drawn[c] += 1
        for c in drawn:
            self.card_drawn_by[c] += 1
        for c in played:
            self.card_played_by[c] += 1
            self.card_played_wins[c] += won
            self.card_played_score[c] += r.scores[s]
        for c in drawn & played:
            self.card_played_when_drawn[c] += 1

    def add_shape(self, index: int, r: GameResult) -> None:
        """Margin, lead changes, drama and the outliers of one completed game."""
        margin = winning_margin(r)
        shape = game_shape(r)
        self.margin_norm_sum += shape.decisiveness
        self.lead_changes += shape.lead_changes
        self.drama_sum += shape.drama
        self.comebacks += shape.comeback
        if self.longest is None or r.rounds > self.longest[0]:
            self.longest = (r.rounds, index, r.seed)
        if self.widest is None or margin > self.widest[0]:
            self.widest = (margin, index, r.seed)

    def add_error(self, index: int, r: GameResult) -> None:
        self.error_count += 1
        self.error_cards[r.error_card or "?"] += 1
        if len(self.errors) < MAX_LISTED_ERRORS:
            self.errors.append({"game": index, "seed": r.seed, "card": r.error_card, "message": r.error,
                                "round": r.rounds, "command": self.batch.replay(r.seed)})

    # ---- the summary -----------------------------------------------------------------------------
    def summary(self, fingerprint: str) -> dict:
        b = self.batch
        return {
            "games": {"total": self.total, "completed": self.completed, "errors": self.error_count,
                      "shared_wins": self.shared},
            "seed": b.seed,
            "players": b.players,
            "agents_by_seat": list(b.agents),
            "content": {"path": b.content, "fingerprint": fingerprint},
            "options": {"include_tbd": b.include_tbd, "only_designed": b.only_designed},
            "seats": self.seat_summary(),
            "agents": {a: {"wins": rate(self.pg_wins[a], self.pg[a])} for a in sorted(self.pg)},
            "advisors": self.advisor_summary(),
            "cards": self.card_summary(),
            "card_tests": {"min_plays": MIN_PLAYS, "false_discovery_rate": FALSE_DISCOVERY_RATE, "min_gap": MIN_GAP,
                           "balance_games": balance_games(b.players), "balance_warning": BALANCE_WARNING},
            "events": {e.id: {"name": e.name, "drawn": rate(self.event_games[e.id], self.completed)}
                       for e in self.content.of_kind("event")},
            "combos": self.combo_summary(),
            "rounds": self.round_summary(),
            "end_reasons": dict(sorted(self.end_reasons.items())),
            "scores": self.score_summary(),
            "metrics": self.metrics(),
            "outliers": self.outliers(),
            "errors": {"count": self.error_count, "by_card": dict(sorted(self.error_cards.items())),
                       "games": self.errors, "listed": len(self.errors)},
            "definitions": DEFINITIONS,
        }

    def seat_summary(self) -> dict:
        n = self.completed
        return {f"P{s + 1}": {"agent": self.batch.agents[s], "wins": rate(self.seat_wins[s], n),
                              "mean_score": self.seat_score[s] / n if n else None}
                for s in range(self.batch.players)}

    def advisor_summary(self) -> dict:
        out = {}
        for card in self.content.of_kind("advisor"):
            chosen = self.advisor_games[card.id]
            out[card.id] = {"name": card.name, "chosen": chosen, "wins": rate(self.advisor_wins[card.id], chosen),
                            "judged": chosen >= MIN_PLAYS,
                            "needs_games": None if chosen >= MIN_PLAYS else games_needed(self.completed, chosen)}
        return out

    def card_summary(self) -> dict:
        pgs = self.completed * self.batch.players
        wins = sum(self.seat_wins)
        scores = sum(self.seat_score)
        out = {}
        for card in self.content.of_kind("policy"):
            c = card.id
            played, pwins = self.card_played_by[c], self.card_played_wins[c]
            rest, rwins = pgs - played, wins - pwins
            d = (pwins / played - rwins / rest) if played and rest else None
            ci = newcombe(pwins, played, rwins, rest)
            out[c] = {"name": card.name, "stage": card.stage, "status": card.status, "price": list(card.price),
                      "copies": card.copies,
                      "drawn": self.card_drawn[c], "drawn_by": rate(self.card_drawn_by[c], pgs),
                      "played_by": rate(played, pgs),
                      "played_when_drawn": rate(self.card_played_when_drawn[c], self.card_drawn_by[c]),
                      "win_if_played": rate(pwins, played), "win_if_not_played": rate(rwins, rest),
                      "score_if_played": self.card_played_score[c] / played if played else None,
                      "score_if_not_played": (scores - self.card_played_score[c]) / rest if rest else None,
                      "difference": d, "difference_ci95": list(ci) if ci else None, "never_played": None}
        judge_cards(out, self.completed)
        b = self.batch
        never = [card for card in self.content.of_kind("policy")
                 if self.card_drawn[card.id] and not out[card.id]["played_by"]["count"]]
        for cid, why in unplayed.reasons(self.content, never, b.players, game_seed(b.seed, 0),
                                         "greedy" in b.agents).items():
            out[cid]["never_played"] = why
        return out

    def combo_summary(self) -> dict:
        fired, never = {}, []
        for combo in self.content.of_kind("combo"):
            if self.combo_times[combo.id]:
                fired[combo.id] = {"name": combo.name, "times": self.combo_times[combo.id],
                                   "games": rate(self.combo_games[combo.id], self.completed)}
            else:
                never.append(combo.id)
        return {"fired": fired, "never_fired": never, "names": {c.id: c.name for c in self.content.of_kind("combo")}}

    def round_summary(self) -> dict:
        n = self.completed
        return {"mean": sum(r * k for r, k in self.rounds.items()) / n if n else None,
                "min": min(self.rounds) if self.rounds else None,
                "max": max(self.rounds) if self.rounds else None,
                "histogram": [[r, self.rounds[r]] for r in sorted(self.rounds)]}

    def score_summary(self) -> dict:
        n = sum(self.scores.values())
        mean = self.score_sum / n if n else None
        var = (self.score_sq - n * mean * mean) / (n - 1) if n > 1 else None
        qs = {"min": 0.0, "p10": 0.1, "p25": 0.25, "median": 0.5, "p75": 0.75, "p90": 0.9, "max": 1.0}
        return {"mean": mean, "stdev": math.sqrt(max(0.0, var)) if var is not None else None,
                "quantiles": {k: quantile(self.scores, q) for k, q in qs.items()},
                "winner_mean": self.winner_score_sum / self.completed if self.completed else None,
                "histogram": [[v, self.scores[v]] for v in sorted(self.scores)]}

    def metrics(self) -> dict:
        n = self.completed
        rates = [w / n for w in self.seat_wins] if n else []
        values = {
            "balance": 1 - (max(rates) - min(rates)) if rates else None,
            "decisiveness": self.margin_norm_sum / n if n else None,
            "lead_changes": self.lead_changes / n if n else None,
            "drama": self.drama_sum / n if n else None,
        }
        out = {k: {"value": v, "definition": METRICS[k]} for k, v in values.items()}
        out["comeback_rate"] = {**rate(self.comebacks, n), "definition": METRICS["comeback_rate"]}
        return out

    def outliers(self) -> dict:
        out = {}
        if self.longest is not None:
            rounds, i, seed = self.longest
            out["longest_game"] = {"game": i, "seed": seed, "rounds": rounds, "command": self.batch.replay(seed)}
        if self.widest is not None:
            margin, i, seed = self.widest
            out["largest_margin"] = {"game": i, "seed": seed, "margin": margin, "command": self.batch.replay(seed)}
        return out


@dataclass(frozen=True)
class Shape:
    """The whole-game metrics (METRICS) of one completed game: a batch's are their means."""

    decisiveness: float     # winning margin / score range
    lead_changes: int
    drama: float            # points the winner stood behind the leader, averaged over the ends of rounds
    comeback: bool          # the winner was behind at the end of the middle round


def game_shape(r: GameResult) -> Shape:
    """Decisiveness, lead changes, drama and comeback of one completed game, as METRICS defines them."""
    spread = max(r.scores) - min(r.scores)
    decisiveness = winning_margin(r) / spread if spread > 0 else 0.0
    history = r.score_history
    leader = None
    changes = 0
    for row in history:
        top = max(row)
        leaders = [s for s, v in enumerate(row) if v == top]
        if len(leaders) == 1:
            if leader is not None and leaders[0] != leader:
                changes += 1
            leader = leaders[0]
    drama, comeback = 0.0, False
    if history:
        behind = [max(row) - max(row[s] for s in r.winners) for row in history]
        drama = sum(behind) / len(behind)
        comeback = behind[math.ceil(len(history) / 2) - 1] > 0
    return Shape(decisiveness, changes, drama, comeback)


def winning_margin(r: GameResult) -> int:
    """The winner's score minus the best other score among players still in (all others if none is); 0 if shared."""
    if len(r.winners) != 1:
        return 0
    w = r.winners[0]
    others = [s for s in range(r.players) if s != w and not r.out[s]] or [s for s in range(r.players) if s != w]
    return r.scores[w] - max(r.scores[s] for s in others) if others else 0


def summarize(results, content, batch, fingerprint: str) -> dict:
    """The summary of stored results (an iterator of (index, GameResult) in index order)."""
    stats = Stats(content, batch)
    for index, result in results:
        stats.add(index, result)
    return stats.summary(fingerprint)


def dumps(summary: dict) -> str:
    """summary.json's text: sorted keys, floats to 4 decimals, Chinese kept readable — same inputs, same bytes."""
    return json.dumps(_rounded(summary), sort_keys=True, ensure_ascii=False, indent=2) + "\n"


def _rounded(v):
    if isinstance(v, float):
        return round(v, 4) + 0.0
    if isinstance(v, dict):
        return {k: _rounded(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_rounded(x) for x in v]
    return v
