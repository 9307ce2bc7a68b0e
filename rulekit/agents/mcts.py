"""The `mcts` agent: information-set Monte Carlo search from what its seat can see (issue 17).

At a decision that matters (advisor, draw strategy, action, offer, bid) asked at the top level, each
iteration draws one world the seat cannot tell from the truth (`obs.forecast`, a determinization: the
hidden fronts, hands, deck orders, bids and future chance drawn again), picks one of a few candidate
answers by UCB1 over the statistics of its information set (the root: the same question in every
world), plays it, and plays on with plain greedy players to the horizon (the end of the next round, or
the game). The world is scored for the seat: 1 for a win at the end of the game, else its standing
(estimate.position) against the best other seat's, squashed to 0..1. The answer is the candidate
played most.

The budget is counted in iterations (`mcts:N`, default DEFAULT_ITERATIONS), never in time: for a given seed
and budget the agent answers alike on every machine. Questions inside card effects (a copy cannot be
made there), and the other kinds, are answered as the greedy agent answers them.
"""

from __future__ import annotations

import math
import random

from rulekit.agents import estimate as E
from rulekit.agents.base import Stream, stream_of, sub_stream
from rulekit.agents.greedy import GreedyAgent
from rulekit.core.errors import EffectError, RuleViolation
from rulekit.core.observation import Observation
from rulekit.core.questions import Ask, Question

DEFAULT_ITERATIONS = 16
CANDIDATES = 6            # answers searched at most: greedy's own and a few others
HORIZON_ROUNDS = 1        # rounds played past the current one before the position is scored
ROLLOUT_DECISIONS = 400   # a rollout's decisions at most
UCB_C = 0.7
SEARCHED = frozenset({Ask.ADVISOR, Ask.STRATEGY, Ask.ACTION, Ask.OFFER, Ask.BID})


class MctsAgent:
    """Information-set MCTS over determinizations, with greedy rollouts; deterministic for a seed and budget."""

    name = "mcts"

    def __init__(self, seed: int | Stream, seat: int, iterations: int = DEFAULT_ITERATIONS):
        if iterations < 1:
            raise ValueError(f"mcts needs at least 1 iteration a decision, not {iterations}")
        self.stream = stream_of(seed)
        self.seat = seat
        self.iterations = iterations
        self.rng = self.stream("mcts", seat)
        self.greedy = GreedyAgent(sub_stream(self.stream, "mcts"), seat)     # its answers elsewhere, and candidates
        self.searched = 0                       # decisions searched this game
        self.decisions = 0

    def fork(self) -> MctsAgent:
        twin = MctsAgent.__new__(MctsAgent)
        twin.__dict__.update(self.__dict__)
        twin.rng = random.Random()
        twin.rng.setstate(self.rng.getstate())
        twin.greedy = self.greedy.fork()
        return twin

    def choose(self, obs: Observation, q: Question) -> int:
        self.decisions += 1
        mine = self.greedy.choose(obs, q)
        if q.kind not in SEARCHED or len(q.options) < 2:
            return mine
        candidates = self.candidates(q, mine)
        if len(candidates) < 2:
            return mine
        try:
            return self.search(obs, q, candidates)
        except RuleViolation:               # asked inside a card's effect: no copy can be made there
            return mine

    def candidates(self, q: Question, mine: int) -> list[int]:
        """Greedy's answer first, then up to CANDIDATES - 1 others drawn from the agent's generator."""
        n = len(q.options)
        others = [k for k in range(n) if k != mine] if n <= 64 else \
            sorted({self.rng.randrange(n) for _ in range(4 * CANDIDATES)} - {mine})
        if len(others) > CANDIDATES - 1:
            others = self.rng.sample(others, CANDIDATES - 1)
        return [mine, *others]

    def search(self, obs: Observation, q: Question, candidates: list[int]) -> int:
        visits = [0] * len(candidates)
        total = [0.0] * len(candidates)
        players, rnd = obs.players, obs.round
        for it in range(self.iterations):
            world_rng = random.Random(self.rng.getrandbits(64))
            players_ = [self._rollout_agent(s, it) for s in range(players)]
            world = obs.forecast(players_, world_rng)
            if it < len(candidates):
                j = it
            else:
                log_n = math.log(it)
                j = max(range(len(candidates)),
                        key=lambda c: total[c] / visits[c] + UCB_C * math.sqrt(log_n / visits[c]))
            visits[j] += 1
            total[j] += self.rollout(world, candidates[j], rnd + HORIZON_ROUNDS)
        self.searched += 1
        best = max(range(len(candidates)), key=lambda c: (visits[c], total[c], -c))
        return candidates[best]

    def _rollout_agent(self, s: int, it: int) -> GreedyAgent:
        agent = GreedyAgent(sub_stream(self.stream, "mcts-rollout", self.seat, self.decisions, it), s)
        agent.looks = False
        return agent

    def rollout(self, world, k: int, last_round: int) -> float:
        """Play answer k in a world and on to the horizon; the seat's result there, 0..1."""
        try:
            world.answer(k)
            n = 0
            while n < ROLLOUT_DECISIONS:
                q = world.pending()
                if q is None or world.state.round > last_round:
                    break
                world.answer(world.choosers[q.seat].choose(world.observation(q.seat), q))
                n += 1
        except (EffectError, RuleViolation):
            return 0.0
        return self.score(world)

    def score(self, world) -> float:
        st = world.state
        if st.over:
            won = world.winners()
            return 1.0 / len(won) if self.seat in won else 0.0
        view = world.observation(self.seat)
        left = max(1, world.rules.max_rounds - st.round + 1)
        mine = E.position(view, self.seat, left)
        best = max(E.position(view, s, left) for s in range(world.players) if s != self.seat and not view.out(s))\
            if any(not view.out(s) for s in range(world.players) if s != self.seat) else mine - 10.0
        return 1.0 / (1.0 + math.exp(-(mine - best) / 4.0))
