"""The `mcts` agent: determinized search from what its seat can see, with greedy as its prior (issue 17).

At a decision that matters (advisor, draw strategy, action, offer, bid) asked at the top level, the agent
draws a few worlds the seat cannot tell from the truth (`obs.forecast`, a determinization: hidden fronts,
hands, deck orders, bids and future chance drawn again). In every world it plays every candidate answer
(greedy's own first, then a few others), each followed by the same players with the same generators
(common random numbers: the candidates are compared in the same worlds, so the luck of a world cancels
out), to the horizon: the end of the game for the advisor, else the end of the round `horizon` rounds on.
A world is scored for the seat: at the end of the game 1 for a win (shared on a tie) plus a little for its
margin, else its standing (estimate.position) against the best other seat's, squashed to 0..1.

Greedy is the prior (a progressive bias): another candidate is taken only when its mean over the worlds
beats greedy's answer by PRIOR_MARGIN. Its rollout players are greedy players that do not look ahead
(`rollout=greedy`) or random ones (`rollout=random`).

The budget is counted in rollouts a decision (`mcts:N`, default DEFAULT_ITERATIONS; the advisor, once a
game, gets ADVISOR_FACTOR times as many), never in time unless asked: for a seed and budget the agent
answers alike on every machine. `mcts:50ms` stops a search at that much process time instead, and is then
*not* deterministic (how far it gets depends on the machine). Questions inside card effects (no copy can be
made there), and the other kinds, are answered as the greedy agent answers them.

Names (rulekit.agents.make_agent): `mcts`, `mcts:N`, `mcts:Nms`, with options after further colons:
`horizon=R` (rounds past the current one, `horizon=end` plays every search to the end of the game),
`rollout=greedy|random`. For example `mcts:64:horizon=0:rollout=random`.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence

from rulekit.agents import estimate as E
from rulekit.agents.base import RandomAgent, Stream, stream_of, sub_stream
from rulekit.agents.greedy import GreedyAgent
from rulekit.core.errors import EffectError, RuleViolation
from rulekit.core.observation import Observation
from rulekit.core.questions import PASS, Ask, Question

DEFAULT_ITERATIONS = 12   # rollouts a searched decision
ADVISOR_FACTOR = 4        # the advisor (once a game, played to the end) gets this many times the budget
CANDIDATES = 3            # answers compared at most: greedy's own and a few others
HORIZON_ROUNDS = 0        # rounds played past the current one before the position is scored
END = -1                  # horizon: the end of the game
ROLLOUT_DECISIONS = 2000  # a rollout's decisions at most
PRIOR_MARGIN = 0.02       # how much better than greedy's answer another must score (0..1) to be taken
SEARCHED = frozenset({Ask.ADVISOR, Ask.STRATEGY, Ask.ACTION, Ask.OFFER, Ask.BID})
ROLLOUTS = ("greedy", "random")

# A world to search in: (observation, its generator, the world's choosers) -> a copy of the game. The honest
# one is obs.forecast (a determinization); a benchmark may hand the agent the true game's clone instead.
Worlds = Callable[[Observation, random.Random, Sequence], object]


def honest(obs: Observation, rng: random.Random, choosers: Sequence) -> object:
    return obs.forecast(choosers, rng)


class MctsAgent:
    """Determinized search with greedy as its prior; deterministic for a seed and an iteration budget."""

    name = "mcts"

    def __init__(self, seed: int | Stream, seat: int, iterations: int = DEFAULT_ITERATIONS, *,
                 horizon: int = HORIZON_ROUNDS, rollout: str = "greedy", ms: float | None = None,
                 worlds: Worlds = honest):
        if iterations < 1:
            raise ValueError(f"mcts needs at least 1 iteration a decision, not {iterations}")
        if rollout not in ROLLOUTS:
            raise ValueError(f"mcts rollout '{rollout}': one of {', '.join(ROLLOUTS)}")
        self.stream = stream_of(seed)
        self.seat = seat
        self.iterations = iterations
        self.horizon = horizon
        self.rollout_policy = rollout
        self.ms = ms                            # a time budget a decision instead (not deterministic)
        self.worlds = worlds
        self.rng = self.stream("mcts", seat)
        self.greedy = GreedyAgent(sub_stream(self.stream, "mcts"), seat)     # its answers elsewhere, and candidates
        self.searched = 0                       # decisions searched this game
        self.changed = 0                        # ... whose answer was not greedy's
        self.decisions = 0
        self.rollouts = 0

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
        candidates = self.candidates(obs, q, mine)
        if len(candidates) < 2:
            return mine
        try:
            k = self.search(obs, q, candidates)
        except RuleViolation:               # asked inside a card's effect: no copy can be made there
            return mine
        self.searched += 1
        self.changed += k != mine
        return k

    def candidates(self, obs: Observation, q: Question, mine: int) -> list[int]:
        """Greedy's answer first, then up to CANDIDATES - 1 others that a player would weigh."""
        opts = q.options
        n = len(opts)
        if q.kind is Ask.ACTION:            # pass, and the cards it could play or execute (never a relocation)
            others = [k for k in range(n) if k != mine and opts[k][0] in ("play", "execute")]
            if mine != 0 and opts[0] == PASS:
                others.insert(0, 0)
        elif q.kind is Ask.BID:             # nothing, or a little more or less than greedy's bid
            others = [k for k in sorted({0, mine + 2, mine - 2, mine + 4}) if 0 <= k < n and k != mine]
        else:
            others = [k for k in range(n) if k != mine]
        if len(others) > CANDIDATES - 1:
            head = others[:1] if q.kind is Ask.ACTION and others[0] == 0 else []
            rest = others[len(head):]
            others = head + self.rng.sample(rest, CANDIDATES - 1 - len(head))
        return [mine, *others]

    def search(self, obs: Observation, q: Question, candidates: list[int]) -> int:
        """The mean score of every candidate over the same worlds; greedy's answer unless one beats it by a margin."""
        k = len(candidates)
        budget = self.iterations * (ADVISOR_FACTOR if q.kind is Ask.ADVISOR else 1)
        worlds = max(1, budget // k)
        horizon = END if q.kind is Ask.ADVISOR else self.horizon
        last = None if horizon == END else obs.round + horizon
        total = [0.0] * k
        stop = None if self.ms is None else time.process_time() + self.ms / 1000
        done = 0
        for w in range(worlds):
            if stop is not None and w and time.process_time() > stop:
                break
            world_rng = random.Random(self.rng.getrandbits(64))
            players = [self._rollout_agent(s, w) for s in range(obs.players)]
            world = self.worlds(obs, world_rng, players)
            chance = world.state.rng.getstate()            # type: ignore[attr-defined]
            for j, c in enumerate(candidates):
                twin = world.clone([p.fork() for p in players])   # type: ignore[attr-defined]
                twin.state.rng.setstate(chance)            # the same chance to come for every candidate
                total[j] += self.rollout(twin, c, last)
                self.rollouts += 1
            done += 1
        mean = [t / done for t in total]
        best = max(range(k), key=lambda j: (mean[j], -j))
        return candidates[best] if mean[best] > mean[0] + PRIOR_MARGIN else candidates[0]

    def _rollout_agent(self, s: int, w: int):
        stream = sub_stream(self.stream, "mcts-rollout", self.seat, self.decisions, w)
        if self.rollout_policy == "random":
            return RandomAgent(stream, s)
        agent = GreedyAgent(stream, s)
        agent.looks = False
        return agent

    def rollout(self, world, k: int, last_round: int | None) -> float:
        """Play answer k in a world and on to the horizon; the seat's result there, 0..1."""
        try:
            world.answer(k)
            n = 0
            while n < ROLLOUT_DECISIONS:
                q = world.pending()
                if q is None or (last_round is not None and world.state.round > last_round):
                    break
                world.answer(world.choosers[q.seat].choose(world.observation(q.seat), q))
                n += 1
        except (EffectError, RuleViolation):
            return 0.0
        return self.score(world)

    def score(self, world) -> float:
        st = world.state
        seats = st.seats
        if st.over:
            won = world.winners()
            margin = seats[self.seat].score - max(seats[s].score for s in range(world.players) if s != self.seat)
            return (1.0 / len(won) if self.seat in won else 0.0) * 0.8 + 0.2 / (1.0 + math.exp(-margin / 4.0))
        view = world.observation(self.seat)
        left = max(1, world.rules.max_rounds - st.round + 1)
        mine = E.position(view, self.seat, left)
        rivals = [E.position(view, s, left) for s in range(world.players) if s != self.seat and not view.out(s)]
        best = max(rivals) if rivals else mine - 10.0
        return 1.0 / (1.0 + math.exp(-(mine - best) / 4.0))


def parse(options: str) -> dict:
    """The keyword arguments of an mcts name's options (after `mcts:`), or a ValueError in plain words."""
    out: dict = {}
    for part in options.split(":"):
        key, eq, value = part.partition("=")
        if not eq and part.isdigit() and int(part) >= 1:
            out["iterations"] = int(part)
        elif not eq and part.endswith("ms") and part[:-2].isdigit() and int(part[:-2]) >= 1:
            out["ms"], out["iterations"] = float(part[:-2]), 10 ** 6
        elif key == "horizon" and (value == "end" or value.isdigit()):
            out["horizon"] = END if value == "end" else int(value)
        elif key == "rollout" and value in ROLLOUTS:
            out["rollout"] = value
        else:
            raise ValueError(f"mcts option '{part}': a budget (a whole number of iterations, mcts:200, or a time, "
                             f"mcts:50ms), horizon=R or horizon=end, rollout={'|'.join(ROLLOUTS)}")
    return out
