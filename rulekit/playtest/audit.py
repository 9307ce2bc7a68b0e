"""Every stored game checked against its batch before it counts: its index, its seed, its seats and values in range.

games.sqlite is a file anyone can edit; an edit that keeps the shape of a row (a row copied under another
index, a seed changed) would otherwise be counted as a game of the batch. A row that rulekit could not
have written for this batch stops the summary and the resume, naming the game and what is wrong.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rulekit.core import board as B
from rulekit.core.result import GameResult
from rulekit.core.rules import Rules
from rulekit.play import END_WORDS
from rulekit.playtest.store import StoreError

if TYPE_CHECKING:       # the runner imports this module to check a batch it resumes
    from rulekit.playtest.runner import Batch

END_REASONS = frozenset({*END_WORDS, "error", "unfinished"})


@dataclass(frozen=True)
class Expected:
    """What each stored game of one batch must be."""

    batch: Batch
    games: int                      # games the batch has been asked for: indexes 0 to games - 1
    max_rounds: int
    scores: tuple[int, int]         # the score track's range
    advisors: frozenset[str]
    policies: frozenset[str]
    events: frozenset[str]
    combos: frozenset[str]

    @classmethod
    def of(cls, batch: Batch, content, games: int) -> Expected:
        rules = Rules.from_dict(content.rules)
        lo, hi, _ = rules.bound("score")
        def ids(kind):
            return frozenset(c.id for c in content.of_kind(kind))
        return cls(batch, games, rules.max_rounds, (lo, hi), ids("advisor"), ids("policy"), ids("event"), ids("combo"))

    def problem(self, index: int, r: GameResult) -> str | None:
        """What is wrong with stored game `index` for this batch, in plain words, or None."""
        if not 0 <= index < self.games:
            return f"its game number is outside the batch, which has games 0 to {self.games - 1}"
        b = self.batch
        seed = b.game_seed(index)
        if r.seed != seed:
            return f"its seed is {r.seed}, but game {index} of a batch with seed {b.seed} has seed {seed}"
        if r.players != b.players or r.agents != tuple(b.agents):
            return (f"it was played by {r.players} players ({', '.join(r.agents)}); the batch's games are played"
                    f" by {b.players} ({', '.join(b.agents)})")
        return self._result_problem(r) or self._cards_problem(r)

    def _result_problem(self, r: GameResult) -> str | None:
        if r.end_reason not in END_REASONS:
            return f"its end reason {r.end_reason!r} is none a game can end with"
        failed = r.end_reason == "error"
        if failed != (isinstance(r.error, str) and r.error != "") or (not failed and r.error_card is not None):
            return "its error message does not match its end reason"
        if not 0 <= r.rounds <= self.max_rounds:
            return f"it lasted {r.rounds} rounds; a game has 0 to {self.max_rounds} (rules.yaml max_rounds)"
        lo, hi = self.scores
        if any(not lo <= v <= hi for row in (r.scores, *r.score_history) for v in row):
            return f"it has a score outside the score track's range, {lo} to {hi}"
        if len(r.score_history) > r.rounds:
            return f"it has scores for {len(r.score_history)} rounds, but lasted {r.rounds}"
        if any(not 0 <= v <= B.HALF * B.HALF for v in r.alive):
            return f"it has a count of living residents outside 0 to {B.HALF * B.HALF}"
        if any(type(v) is not bool for v in r.out):
            return "its list of players who are out holds something other than true and false"
        if len(set(r.winners)) != len(r.winners) or (not failed and not r.winners):
            return "its winners are repeated, or it has none though it ended without an error"
        return None

    def _cards_problem(self, r: GameResult) -> str | None:
        for what, found, known in (("advisor", [a for a in r.advisors if a is not None], self.advisors),
                                   ("policy", [c for cards in (*r.cards_drawn, *r.cards_played) for c in cards],
                                    self.policies),
                                   ("event", r.events, self.events),
                                   ("combo", [c for _, c in r.combos_fired], self.combos)):
            unknown = next((c for c in found if c not in known), None)
            if unknown is not None:
                return f"it names the {what} {unknown!r}, which the batch's content does not have"
        return None


def audited(rows: Iterable[tuple[int, GameResult]], expected: Expected, path) -> Iterator[tuple[int, GameResult]]:
    """The stored games (in index order) as they are read, each checked; a StoreError at the first one wrong."""
    previous = -1
    for index, r in rows:
        problem = ("it is stored twice (game numbers must be unique)" if index == previous
                   else expected.problem(index, r))
        if problem:
            raise StoreError(f"{path}: game {index} was changed outside rulekit: {problem} / 数据库中这一局被改动过。"
                             f" It was left as it is; start over with --fresh or choose another --out.")
        previous = index
        yield index, r
