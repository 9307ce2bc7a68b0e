"""`rulekit tune`: search one number of a card for the value that brings what the card does into a band.

A policy is measured by its causal value (rulekit/playtest/value.py: the final score of a seat that plays
it at a decision point, minus the same seat's score in a copy of the game where it does not); an advisor
by the win rate of the seats that kept it. The default target of a policy is the median causal value of
the other policies of its stage, measured on the same seeds (and kept in OUT/stage-values.json); of an
advisor, 1 / players. The band is target ± band.

The search (docs/playtest.md, *Tuning a card*) plays every value it tries on the same seeds — game i of
every candidate has seed i of the batch (common random numbers) — and goes round by round:

1. a few candidates spread over the range, each on a few games (`first`);
2. each round, a candidate is *inside* when its 95% interval lies within the band, *too strong* or
   *too weak* when it lies wholly above or below, and *not sure* otherwise (or while it rests on fewer
   than MIN_WEIGHT points, until its games were doubled). Taking the response as
   monotone, the values still possible are the unsure candidates and the untried values between two
   neighbours that are not on the same side of the band;
3. the unsure candidates nearest the target get twice their games, and each gap still possible gets
   one new candidate, where the line between its two ends crosses the target (a bisection step); a
   default range grows past an end when every other value lies on that end's side of the band;
4. it stops when a candidate is inside (the answer), when no value can be (the neighbours straddle
   the band, or the whole range lies on one side), or when the next games would pass the budget.

Every decision reads only the sums of finished rounds, in value and seed order: the same inputs give the
same rounds, the same recommendation and the same tune.json, whatever --jobs and the backend.
"""

from __future__ import annotations

from collections.abc import Callable
import dataclasses
from dataclasses import dataclass, replace
from pathlib import Path

from rulekit.content.edit import EditError, Field, Spot, locate, rewritten
from rulekit.content.loader import load_content
from rulekit.model import Card, Content
from rulekit.language.diagnostics import ContentError, concise
from rulekit.playtest.runner import Batch, game_seed
from rulekit.playtest.tune_measure import (GameSums, Player, Reference, Unit, Variants, mean, read_reference,
                                           reference_key, write_reference)
from rulekit.playtest.value import ValuePlan
import itertools

FIRST = 5               # candidates of the first round
REFINED = 4             # unsure candidates given more games in one round, at most
GAPS = 2                # gaps given a new candidate in one round, at most
WIDENINGS = 3           # times a default range may be widened when all of it lies on one side of the band
ROUNDS = 200            # rounds at most: each spends a game or tries a new value, but a range may hold many
MIN_GAMES, MAX_FIRST_GAMES = 10, 100
# Points (seats, for an advisor) a candidate needs before it is judged: on a handful of points an interval
# can be as narrow as nothing (every point the same) and still mean little. A value that is seldom
# playable (a price few seats can pay) is judged all the same once it has had its games doubled.
MIN_WEIGHT = 10
POLICY_BAND, ADVISOR_BAND = 1.0, 0.05

VERDICTS = {
    "inside": "在范围内 inside the band",
    "above": "太强 too strong",
    "below": "太弱 too weak",
    "unsure": "还不确定 not sure yet",
    "unplayed": "没有可打出的时机 never playable",
    "invalid": "内容有错 content error",
}


class TuneError(Exception):
    """The search cannot start: a card, a field or a target that does not fit; the message says what to do."""

    def __init__(self, message: str, option: str = "--field"):
        super().__init__(message)
        self.option = option            # the option (or argument) at fault


@dataclass(frozen=True)
class Target:
    """What the measure should come near: value ± band, and where the value comes from."""

    value: float
    band: float
    source: str                     # given | stage | players
    stage: int | None = None
    others: tuple[tuple[str, str, float | None, tuple[float, float] | None, int], ...] = ()   # id, name, value, ci, points

    @property
    def lo(self) -> float:
        return self.value - self.band

    @property
    def hi(self) -> float:
        return self.value + self.band


@dataclass(frozen=True)
class Ask:
    """What the designer asked for: which card and number, over which range, for which target, within what."""

    card: str
    field: Field
    lo: int | None = None           # None: a default range around the current value
    hi: int | None = None
    target: float | None = None     # None: the stage's median (policy), 1 / players (advisor)
    band: float | None = None
    budget: int = 2000
    reference_games: int = 200


@dataclass
class Candidate:
    """One value tried: its games in seed order, the points left out, or why the content does not load with it."""

    value: int
    games: list[GameSums] = dataclasses.field(default_factory=list)
    errors: int = 0
    problem: str | None = None

    def weight(self) -> int:
        return sum(g[2] for g in self.games if g is not None)


@dataclass(frozen=True)
class Row:
    """One candidate as the table and tune.json show it."""

    value: int
    games: int
    points: int
    errors: int
    estimate: float | None
    ci95: tuple[float, float] | None
    win: float | None
    win_ci95: tuple[float, float] | None
    verdict: str
    problem: str | None = None


@dataclass(frozen=True)
class Advice:
    """The recommendation: a value (None: none can be given), whether the games confirm it, and why."""

    value: int | None
    kind: str               # inside | straddle | edge | budget | none
    written: bool           # whether --write may write it (the games settle it as far as whole numbers can)
    zh: str
    en: str


@dataclass(frozen=True)
class Tuned:
    """The whole search: what was asked, the target, every candidate, the rounds and the advice."""

    card: Card
    field: Field
    spot: Spot
    current: int
    lo: int
    hi: int
    measure: str            # value | win rate
    target: Target
    rows: tuple[Row, ...]
    rounds: tuple[tuple[tuple[int, int], ...], ...]     # each round: (value, games it reached)
    advice: Advice
    budget: int
    spent: int
    reference_games: int
    raw: bytes = dataclasses.field(default=b"", repr=False)     # the card's file as read: --write changes these bytes or none


# ---- setting up -------------------------------------------------------------------------------------------

def card_of(content: Content, ref: str) -> Card:
    card = content.lookup(ref, "policy") or content.lookup(ref, "advisor")
    if card is None:
        other = content.lookup(ref)
        if other is not None:
            raise TuneError(f"{other.label} is {'an' if other.kind[0] in 'ae' else 'a'} {other.kind}: tune measures "
                            f"policies and advisors / 只能调政策和顾问", "CARD")
        raise TuneError(f"no policy or advisor named {ref!r} in {content.root} / 找不到这张牌", "CARD")
    return card


def default_range(field: Field, current: int) -> tuple[int, int]:
    """A range around the current value: a price from 0 to twice it (and at least to 4 more), a score or a
    parameter ± its size (at least ± 3), a parameter staying at 0 or more when it is now."""
    lo_bound, hi_bound = field.bounds
    w = max(4, current) if field.kind == "price" else max(3, abs(current))
    floor = 0 if field.kind == "price" or (field.kind == "param" and current >= 0) else lo_bound
    return max(floor, current - w, lo_bound), min(hi_bound, current + w)


class Search:
    """One run of the search; `run` plays it through and returns a Tuned."""

    def __init__(self, content: Content, ask: Ask, batch: Batch, player: Player, *, out: Path | None,
                 on_phase: Callable[[str, int], None] = lambda words, total: None,
                 on_game: Callable[[Unit], None] = lambda unit: None):
        self.content, self.ask, self.batch, self.player, self.out = content, ask, batch, player, out
        self.on_phase, self.on_game = on_phase, on_game
        self.card = card_of(content, ask.card)
        try:
            self.current = ask.field.value(self.card)
            self.spot, self.raw = locate(self.card, ask.field)
        except EditError as err:
            raise TuneError(str(err)) from None
        self.kind = self.card.kind
        if ask.lo is None:
            self.lo, self.hi = default_range(ask.field, self.current)
        else:
            assert ask.hi is not None       # a range is given whole or not at all
            self.lo, self.hi = ask.lo, ask.hi
        self.given_range = ask.lo is not None
        self.plan = ValuePlan(cards=(self.card.id,), ways=("play",)) if self.kind == "policy" else None
        self.candidates: dict[int, Candidate] = {}
        self.rounds: list[tuple[tuple[int, int], ...]] = []
        self.free = 0               # games of the current value the stage reference already played
        self.variants: dict[int, Content | str] = {self.current: content}
        self.first_games = max(MIN_GAMES, min(MAX_FIRST_GAMES, ask.budget // (4 * FIRST)))
        self.widened = 0            # times the default range grew
        self.goal = Target(0.0, 0.0, "given")       # set by run(), before any game

    # -- the target -----------------------------------------------------------------------------------------
    def target(self) -> Target:
        ask = self.ask
        if self.kind == "advisor":
            value = ask.target if ask.target is not None else 1 / self.batch.players
            return Target(value, ask.band if ask.band is not None else ADVISOR_BAND,
                          "given" if ask.target is not None else "players")
        band = ask.band if ask.band is not None else POLICY_BAND
        if ask.target is not None:
            return Target(ask.target, band, "given")
        return self.stage_target(band)

    def stage_target(self, band: float) -> Target:
        """The median causal value of the stage's other policies, on the first reference_games seeds."""
        stage = self.card.stage
        assert stage is not None        # only a policy has a stage reference
        cards = tuple(c.id for c in self.content.of_kind("policy") if c.stage == stage)
        ref = self.reference(stage, cards)
        others = []
        for c in self.content.of_kind("policy"):
            if c.stage != stage or c.id == self.card.id:
                continue
            m = mean(ref.cards[c.id])
            others.append((c.id, c.name, m.value, m.ci95, sum(g[2] for g in ref.cards[c.id] if g is not None)))
        values = sorted(v for _, _, v, _, _ in others if v is not None)
        if len(values) < 2:
            raise TuneError(f"stage {stage} has {len(values)} other polic{'y' if len(values) == 1 else 'ies'} played "
                            f"in these games, too few to set a target: give one with --target (a causal value in "
                            f"points) / 同阶段可比的牌太少，请用 --target 给出目标", "--target")
        mid = len(values) // 2
        median = values[mid] if len(values) % 2 else (values[mid - 1] + values[mid]) / 2
        current = self.candidates[self.current] = Candidate(self.current, list(ref.cards[self.card.id]))
        self.free = len(current.games)
        return Target(median, band, "stage", stage, tuple(others))

    def reference(self, stage: int, cards: tuple[str, ...]) -> Reference:
        """The stage's values: from OUT/stage-values.json when it holds these seeds, else played (and stored)."""
        n = self.ask.reference_games
        key = reference_key(self.content, self.batch, stage, cards)
        held = read_reference(self.out, key, cards) if self.out is not None else None
        have = held.games if held is not None else 0
        if held is not None and have >= n:
            return Reference(stage, n, {c: held.cards[c][:n] for c in cards})
        batch = replace(self.batch, value=ValuePlan(cards=cards, ways=("play",)))
        todo = [((self.current, i), game_seed(batch.seed, i)) for i in range(have, n)]
        self.on_phase(f"第 {stage} 阶段的参照 stage {stage} reference", len(todo))
        units = self.player.play(Variants(self.card.id, "policy", {self.current: self.content}), batch, todo,
                                 self.on_game)
        sums = {c: list(held.cards[c]) if held is not None else [] for c in cards}
        for i in range(have, n):
            unit = units[self.current, i]
            by_card = {s[0]: s for s in unit.sums}
            for c in cards:
                s = by_card.get(c)
                sums[c].append(None if unit.end_reason == "error" or s is None else (s[1], s[2], s[3]))
        ref = Reference(stage, n, {c: tuple(v) for c, v in sums.items()})
        if self.out is not None:
            write_reference(self.out, key, ref)
        return ref

    # -- candidates -----------------------------------------------------------------------------------------
    def variant(self, value: int) -> Content | str:
        """The content with the number set to `value`, loaded and checked as the file would be; or the first
        error it then has."""
        if value not in self.variants:
            replaced = {Path(self.spot.file): rewritten(self.raw, self.spot, value)}
            try:
                self.variants[value] = load_content(self.content.root, include_tbd=self.batch.include_tbd,
                                                    only_designed=self.batch.only_designed, replaced=replaced)
            except ContentError as err:
                errors = [d for d in err.diagnostics if d.severity == "error"]
                self.variants[value] = concise(errors[0]) if errors else str(err)
        return self.variants[value]

    def spent(self) -> int:
        return sum(len(c.games) for c in self.candidates.values()) - self.free

    # -- the search ---------------------------------------------------------------------------------------------
    def run(self) -> Tuned:
        with self.player.session():
            self.goal = self.target()
            self.on_phase("调参 tune", self.ask.budget)
            advice = self.play_or_stop({v: self.first_games for v in self.first_values()})
            while advice is None:
                advice = self.step() if len(self.rounds) < ROUNDS else self.out_of_budget(rounds=True)
        return self.result(advice)

    def first_values(self) -> list[int]:
        lo, hi, cur = self.lo, self.hi, self.current
        if hi - lo + 1 <= FIRST:
            return list(range(lo, hi + 1))
        values = {lo + round((hi - lo) * j / (FIRST - 1)) for j in range(FIRST)}
        if lo <= cur <= hi and cur not in values:
            inner = sorted(values - {lo, hi}, key=lambda v: (abs(v - cur), v))
            values = (values - {inner[0]}) | {cur}
        return sorted(values)

    def step(self) -> Advice | None:
        """One round: the advice when the search is over, else None after playing the next games."""
        verdicts = {v: self.verdict(c) for v, c in sorted(self.candidates.items()) if self.lo <= v <= self.hi}
        inside = [v for v, k in verdicts.items() if k == "inside"]
        if inside:
            return self.inside(inside)
        judged = [v for v, k in verdicts.items() if k in ("above", "below", "unsure")]
        unsure = [v for v in judged if verdicts[v] == "unsure"]
        gaps = self.gaps(verdicts)
        one_side = not unsure and not gaps
        toward = self.widen_toward(judged, verdicts)
        new = self.widened_end(toward) if toward is not None else None
        if one_side and new is None:
            return self.settled(judged, verdicts)
        wanted: dict[int, int] = {}
        for v in sorted(unsure, key=lambda v: (self.distance(v), v))[:REFINED]:
            wanted[v] = 2 * len(self.candidates[v].games)
        for a, b in gaps[:GAPS]:
            wanted.setdefault(self.between(a, b), self.first_games)
        if new is not None:
            wanted.setdefault(new, self.first_games)
        advice = self.play_or_stop(wanted)
        if new is not None and new in self.candidates:
            self.widened += 1
            self.lo, self.hi = min(self.lo, new), max(self.hi, new)
        return advice

    def play_or_stop(self, wanted: dict[int, int]) -> Advice | None:
        """Play the round, cut to what the budget has left (nearest the target first); advice when nothing fits."""
        left = self.ask.budget - self.spent()
        fitted: dict[int, int] = {}
        for v in sorted(wanted, key=lambda v: (self.distance(v), v)):
            have = len(self.candidates[v].games) if v in self.candidates else 0
            more = min(wanted[v] - have, left)
            if more > 0:
                fitted[v] = have + more
                left -= more
        if not fitted:
            return self.out_of_budget()
        self.play(fitted)
        return None

    def verdict(self, c: Candidate) -> str:
        if c.problem is not None:
            return "invalid"
        m = mean(c.games)
        if m.value is None:
            return "unplayed"
        if m.ci95 is None or (m.weight < MIN_WEIGHT and len(c.games) < 2 * self.first_games):
            return "unsure"
        lo, hi = m.ci95
        t = self.goal
        if t.lo <= lo and hi <= t.hi:
            return "inside"
        if lo > t.hi:
            return "above"
        if hi < t.lo:
            return "below"
        return "unsure"

    def verdict_of(self) -> dict[int, str]:
        """Every candidate's verdict now, in value order."""
        return {v: self.verdict(c) for v, c in sorted(self.candidates.items())}

    def distance(self, v: int) -> float:
        """How far a candidate's estimate lies from the target (untried or unmeasured values: as far as can be)."""
        c = self.candidates.get(v)
        m = mean(c.games).value if c is not None and c.problem is None else None
        return abs(m - self.goal.value) if m is not None else float("inf")

    def gaps(self, verdicts: dict[int, str]) -> list[tuple[int, int]]:
        """Neighbouring judged candidates with untried whole numbers between them where, the response taken
        as monotone, a value inside the band may lie: not both on the same side of the band. Nearest the
        target first. (Values never playable tell nothing of the response, and bound no gap.)"""
        ends = [v for v, k in verdicts.items() if k in ("above", "below", "unsure")]
        out = []
        for a, b in itertools.pairwise(ends):
            if (verdicts[a] == verdicts[b] != "unsure") or b - a - 1 <= self.tried_within(a, b):
                continue
            out.append((a, b))
        return sorted(out, key=lambda g: (min(self.distance(g[0]), self.distance(g[1])), g))

    def tried_within(self, a: int, b: int) -> int:
        return sum(1 for v in self.candidates if a < v < b)

    def between(self, a: int, b: int) -> int:
        """The untried value of a gap nearest where the line through its two ends' estimates meets the
        target, or nearest its middle when that line does not (a bisection step)."""
        ma, mb = mean(self.candidates[a].games).value, mean(self.candidates[b].games).value
        t = self.goal.value
        x = (a + b) / 2
        if ma is not None and mb is not None and ma != mb and min(ma, mb) <= t <= max(ma, mb):
            x = a + (t - ma) * (b - a) / (mb - ma)
        near = min(b - 1, max(a + 1, round(x)))
        for d in range(b - a):       # the gap holds an untried value, so this ends within len(candidates) steps
            for v in (near - d, near + d):
                if a < v < b and v not in self.candidates:
                    return v
        raise AssertionError("a gap holds an untried value")

    def widen_toward(self, judged: list[int], verdicts: dict[int, str]) -> str | None:
        """Which end of a default range to widen past ('lo' or 'hi'), if any: one where every other value lies
        on one side of the band and the end lies there too, or is the one value not sure yet — the answer, if
        any, lies at that end or beyond it. The end nearer the target when both qualify. Never past an end
        the card is never played beyond, nor more than WIDENINGS times."""
        if self.given_range or self.widened >= WIDENINGS or len(judged) < 2:
            return None
        options = []
        for side, end, others in (("lo", judged[0], judged[1:]), ("hi", judged[-1], judged[:-1])):
            kinds = {verdicts[v] for v in others}
            if len(kinds) != 1 or kinds == {"unsure"} or verdicts[end] not in kinds | {"unsure"}:
                continue
            beyond = [v for v, k in verdicts.items() if k == "unplayed" and (v < end if side == "lo" else v > end)]
            if beyond or end == self.bounds[0 if side == "lo" else 1]:
                continue
            options.append((self.distance(end), side))
        return min(options)[1] if options else None

    @property
    def bounds(self) -> tuple[int, int]:
        """The values the number may take: its field's, a parameter staying at 0 or more when it is now."""
        lo, hi = self.ask.field.bounds
        return (0 if self.ask.field.kind == "param" and self.current >= 0 else lo), hi

    def widened_end(self, side: str) -> int | None:
        """The new end past `side`, the range's own width away (within the bounds); None when it is tried."""
        lo, hi = self.bounds
        width = self.hi - self.lo + 1
        new = min(hi, self.hi + width) if side == "hi" else max(lo, self.lo - width)
        return None if new in self.candidates else new

    def play(self, wanted: dict[int, int]) -> None:
        """Bring each candidate to the number of games wanted (the same seeds for every value)."""
        todo = []
        for v, n in sorted(wanted.items()):
            c = self.candidates.setdefault(v, Candidate(v))
            content = self.variant(v)
            if isinstance(content, str):
                c.problem = content
                continue
            todo += [((v, i), game_seed(self.batch.seed, i)) for i in range(len(c.games), n)]
        self.rounds.append(tuple((v, len(self.candidates[v].games) if self.candidates[v].problem else n)
                                 for v, n in sorted(wanted.items())))
        contents = {v: cv for v in sorted({key[0] for key, _ in todo}) if not isinstance(cv := self.variants[v], str)}
        units = self.player.play(Variants(self.card.id, self.kind, contents), replace(self.batch, value=self.plan),
                                 todo, self.on_game)
        for (v, i), _ in todo:
            unit = units[v, i]
            c = self.candidates[v]
            s = unit.sums[0] if unit.sums else None
            c.games.append(None if unit.end_reason == "error" or s is None else (s[1], s[2], s[3]))
            c.errors += s[4] if s is not None else 0

    # -- the advice --------------------------------------------------------------------------------------------
    def nearest(self, values: list[int]) -> int:
        """The value whose estimate is nearest the target; a tie goes to the value nearer the current one, then
        to the smaller."""
        return min(values, key=lambda v: (self.distance(v), abs(v - self.current), v))

    def inside(self, inside: list[int]) -> Advice:
        v = self.nearest(inside)
        ci = self.interval(v)
        band = self.band_text()
        if v == self.current:
            return Advice(v, "inside", True, f"保持 {v} 不变：它的 95% 区间 {ci} 整个落在目标范围 {band} 之内。",
                          f"keep {v}: its 95% interval {ci} lies wholly inside the band {band}.")
        return Advice(v, "inside", True, f"改为 {v}：它的 95% 区间 {ci} 整个落在目标范围 {band} 之内。",
                      f"change it to {v}: its 95% interval {ci} lies wholly inside the band {band}.")

    def settled(self, judged: list[int], verdicts: dict[int, str]) -> Advice:
        """No value can be inside: neighbours straddle the band, or the whole range lies on one side."""
        if not judged:
            return Advice(None, "none", False, "所有尝试的值都没有测到结果（从未可打出，或内容有错）：换一个 --range 再试。",
                          "no value tried gave a measure (never playable, or the content has an error): try "
                          "another --range.")
        v = self.nearest(judged)
        sides = {verdicts[u] for u in judged}
        if len(sides) == 1:
            zh, en = ("太强", "too strong") if sides == {"above"} else ("太弱", "too weak")
            unplayed = [u for u, k in self.verdict_of().items() if k == "unplayed"]
            far = next((u for u in unplayed if u > judged[-1]), None) or next(
                (u for u in reversed(unplayed) if u < judged[0]), None)
            if far is not None:
                edge = judged[-1] if far > judged[-1] else judged[0]
                return Advice(v, "edge", False,
                              f"范围 {self.lo}..{self.hi} 里每个能打出的值都{zh}，最接近目标的是 {v}；到了 {far}，"
                              f"已经没有可以打出它的时机了（{edge} 是还能打出的最远的值）。光改这个数调不到目标："
                              f"改一改它的效果，或者别的数（比如 --field score）。",
                              f"every playable value in {self.lo}..{self.hi} is {en}; the nearest the target is {v}, "
                              f"and at {far} no seat ever gets to play it ({edge} is the farthest still played). "
                              f"This number alone cannot bring it to the target: change its effect, or another "
                              f"number (such as --field score).")
            return Advice(v, "edge", False,
                          f"范围 {self.lo}..{self.hi} 里的每个值都{zh}；最接近目标的是 {v}。用 --range 试试它之外的值，"
                          f"或者检查目标是否合适。",
                          f"every value in {self.lo}..{self.hi} is {en}; the nearest the target is {v}. Try values "
                          f"beyond it with --range, or check the target.")
        a, b = next((a, b) for a, b in itertools.pairwise(judged) if verdicts[a] != verdicts[b])
        band = self.band_text()
        return Advice(v, "straddle", True,
                      f"建议 {v}：没有一个整数能落进目标范围 {band}——{a} {_SIDE_ZH[verdicts[a]]}，{b} "
                      f"{_SIDE_ZH[verdicts[b]]}；{v} 离目标最近。",
                      f"{v}, the nearest: no whole number lands inside the band {band} — {a} is "
                      f"{_SIDE_EN[verdicts[a]]} and {b} {_SIDE_EN[verdicts[b]]}; {v} is nearer the target.")

    def out_of_budget(self, rounds: bool = False) -> Advice:
        """The search stops unsettled: the budget is spent (or, rarer, the rounds a search may take)."""
        measured = [v for v, c in self.candidates.items() if self.distance(v) != float("inf")]
        zh, en = ((f"试了 {ROUNDS} 轮", f"after {ROUNDS} rounds,") if rounds else
                  (f"预算 {self.ask.budget} 局用完", f"the budget of {self.ask.budget} games is spent:"))
        if not measured:
            return Advice(None, "none", False, f"{zh}，但没有测到结果。", f"{en} no value gave a measure.")
        v = self.nearest(measured)
        ci, band = self.interval(v), self.band_text()
        return Advice(v, "budget", False,
                      f"{zh}，还没有确定的答案。目前最好的猜测是 {v}，但它的区间 {ci} 还超出目标范围 {band}："
                      f"用更大的 --budget 再试，或放宽 --band。",
                      f"{en} no interval fitted inside the band {band} yet. The best guess is {v}, but its interval "
                      f"{ci} still reaches outside it: run again with a larger --budget, or a wider --band.")

    def interval(self, v: int) -> str:
        return _interval(mean(self.candidates[v].games).ci95, self.kind == "advisor")

    def band_text(self) -> str:
        pct = self.kind == "advisor"
        return f"[{_number(self.goal.lo, pct)}, {_number(self.goal.hi, pct)}]"

    def result(self, advice: Advice) -> Tuned:
        rows = []
        for v, c in sorted(self.candidates.items()):
            m, w = mean(c.games), mean(c.games, win=True)
            policy = self.kind == "policy"
            rows.append(Row(v, len(c.games), c.weight(), c.errors, m.value, m.ci95, w.value if policy else None,
                            w.ci95 if policy else None, self.verdict(c), c.problem))
        return Tuned(self.card, self.ask.field, self.spot, self.current, self.lo, self.hi,
                     "value" if self.kind == "policy" else "win rate", self.goal, tuple(rows), tuple(self.rounds),
                     advice, self.ask.budget, self.spent(), self.free, self.raw)


_SIDE_ZH = {"above": "太强", "below": "太弱", "unsure": "还不确定", "unplayed": "没有可打出的时机"}
_SIDE_EN = {"above": "too strong", "below": "too weak", "unsure": "not sure yet", "unplayed": "never playable"}


def _number(x: float, pct: bool) -> str:
    return f"{x * 100:.0f}%" if pct else f"{x:+.2f}"


def _interval(ci: tuple[float, float] | None, pct: bool) -> str:
    return f"[{_number(ci[0], pct)}, {_number(ci[1], pct)}]" if ci is not None else "[—]"
