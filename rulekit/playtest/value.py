"""The causal value of a card: from a copy of a real game, play on with the card and without it, and compare.

At a sampled decision point where a seat may play policy X (an action question offering it), keep
advisor Y (the advisor question) or bid on X (a bid on an offer of X), the game is copied twice and
both copies are played to the end with the same future random stream — the game's generator is
copied by `Game.clone`, and every seat's agent by its `fork()`:

- **with**: X is played now (Y kept; a bid on X of the agent's own amount, at least 1 coin);
- **without**: the seat does what its agent answers when that option is taken off the menu, and for
  the rest of that copy never plays X (never reacts with it, never bids on it).

The value is the mean over points of the seat's final score (and win, 1/0, a shared win counting
as a win) with minus without, with a 95% interval from `paired.Clustered`, the game as the unit.

Points sampled: in each game, for each card and way, the first `points` decision points at which
some seat may do it, at most one per seat (`ValuePlan.points`, 1 by default). The original game is
played on by its own agents as if nothing had been copied: its result is the plain game's.

`ValuePlan.give` measures instead a card dealt at the start: one seat (the game's index modulo the
players) gets the card in hand after setup, and the game is played with and without it on the
same seed, the two paired by seed with `paired.Paired`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from rulekit.core.errors import EffectError
from rulekit.core.questions import Ask, Question
from rulekit.core.result import GameResult
from rulekit.engine import new_game, result_of

WAYS = {"policy": ("play", "bid"), "advisor": ("keep",)}
ASKS = {Ask.ACTION: "play", Ask.ADVISOR: "keep", Ask.BID: "bid"}


@dataclass(frozen=True)
class ValuePlan:
    """What a measured batch measures beside its games: which cards, at how many points a game."""

    points: int = 1                     # decision points per card, way and game (at most one per seat)
    cards: tuple[str, ...] = ()         # card ids measured; none named: every policy and advisor
    give: str | None = None             # a policy id: measure it dealt at the start instead
    ways: tuple[str, ...] = ()          # only these ways (play, bid, keep); none named: every way

    def params(self) -> dict:
        """What --resume compares: a batch measured otherwise holds other numbers."""
        params = {"points": self.points, "cards": list(self.cards), "give": self.give}
        return {**params, "ways": list(self.ways)} if self.ways else params


@dataclass(frozen=True)
class Point:
    """One measured point: the seat's final score and win with the card, and without it."""

    card: str
    how: str                # play | keep | bid | give
    seat: int
    round: int              # the round of the decision (0: setup)
    score: int
    alt_score: int
    won: bool
    alt_won: bool
    error: str | None = None    # a copy stopped on an error: the point is left out, and counted


@dataclass(frozen=True)
class Measured:
    """One game of a measured batch: the game as played, and the points measured on its copies."""

    result: GameResult
    points: tuple[Point, ...]


# ---- playing ------------------------------------------------------------------------------------

def measure_game(content, agents: Sequence[str], players: int, plan: ValuePlan, index: int, seed: int, *,
                 log: list | None = None) -> Measured:
    """One game and its copies (what a worker plays for one game of a measured batch); `log` receives the
    game's own records, as `run_game` would write them."""
    if plan.give is not None:
        return _give(content, agents, players, plan.give, index, seed)
    wanted = measured_ids(content, plan)
    game = new_game(content, seed, list(agents), players=players, log=log)
    taken: dict[tuple[str, str], list[int]] = {}
    points: list[Point] = []
    error = None
    try:
        while (q := game.pending()) is not None:
            for how, card, k in _chances(q, wanted, taken, plan.points):
                points.append(_branch(game, q, how, card, k))
            game.answer(game.choosers[q.seat].choose(game.observation(q.seat), q))
    except EffectError as err:
        error = err
    return Measured(result_of(game, error), tuple(points))


def measured_ids(content, plan: ValuePlan) -> dict[str, frozenset[str]]:
    """The card ids measured in each way (play, bid: policies; keep: advisors)."""
    named = set(plan.cards)
    out: dict[str, frozenset[str]] = {}
    for kind, ways in WAYS.items():
        ids = frozenset(c.id for c in content.of_kind(kind) if not named or c.id in named)
        for how in ways:
            out[how] = ids if not plan.ways or how in plan.ways else frozenset()
    return out


def _chances(q: Question, wanted: dict[str, frozenset[str]], taken: dict, points: int) -> Iterator[tuple[str, str, int]]:
    """(way, card, option index) of each point this question is, marking it taken."""
    how = ASKS.get(q.kind)
    if how is None:
        return
    ids = wanted[how]
    if how == "play":
        found = plays(q.options)
    elif how == "keep":
        found = list(enumerate(q.options)) if len(q.options) > 1 else []
    else:
        found = [(0, q.card)] if len(q.options) > 1 and q.card is not None else []      # money to bid with
    for k, card in found:
        if card not in ids:
            continue
        seats = taken.setdefault((card, how), [])
        if len(seats) < points and q.seat not in seats:
            seats.append(q.seat)
            yield how, card, k


def plays(options) -> list[tuple[int, str]]:
    """(index, card id) of each card an action menu offers to play."""
    rest = getattr(options, "rest", None)
    if rest is not None:        # the core's Menu: plays are among its last options, listed in `rest`
        base = len(options) - len(rest)
        return [(base + j, a[1]) for j, a in enumerate(rest) if a[0] == "play"]
    return [(k, a[1]) for k, a in enumerate(options) if a[0] == "play"]


def forks(choosers) -> list:
    """An exact copy of every seat's agent; an agent that cannot be copied cannot be measured."""
    out = []
    for c in choosers:
        fork = getattr(c, "fork", None)
        if fork is None:
            raise ValueError(f"the agent '{getattr(c, 'name', c)}' has no fork(): the value of a card needs"
                             f" agents that can be copied exactly")
        out.append(fork())
    return out


def _branch(game, q: Question, how: str, card: str, k: int) -> Point:
    """Play a copy on with the card and one without, from the question q; the seat's two results."""
    seat = q.seat
    mine = game.choosers
    with_card = game.clone(choosers=forks(mine))
    without = forks(mine)
    if how != "keep":
        without[seat] = Without(without[seat], how, card)
    alt = game.clone(choosers=without)
    try:
        # The answers at the point come from throwaway copies of the seat's agent, so that both copies
        # play on with agents in the same state.
        if how == "bid":
            own = forks([mine[seat]])[0].choose(with_card.observation(seat), with_card.pending())
            kx, ka = max(1, own), 0             # bids are 0 … money: the index is the bid
        else:
            kx = k
            qa = alt.pending()
            menu = Question(qa.kind, seat, Omitted(qa.options, k), qa.card, qa.text)
            j = forks([mine[seat]])[0].choose(alt.observation(seat), menu)
            ka = j if j < k else j + 1
        with_card.answer(kx)
        alt.answer(ka)
        with_card.run()
        alt.run()
    except Exception as err:
        return Point(card, how, seat, game.state.round, 0, 0, False, False, f"{type(err).__name__}: {err}")
    return Point(card, how, seat, game.state.round, with_card.state.seats[seat].score,
                 alt.state.seats[seat].score, seat in with_card.winners(), seat in alt.winners())


def _give(content, agents: Sequence[str], players: int, ref: str, index: int, seed: int) -> Measured:
    """The game as played, and the same seed with one seat dealt the card after setup."""
    plain = new_game(content, seed, list(agents), players=players)
    error = None
    try:
        plain.run()
    except EffectError as err:
        error = err
    result = result_of(plain, error)
    seat = index % players
    card = content.lookup(ref, "policy")
    given = new_game(content, seed, list(agents), players=players)
    try:
        given.setup()
        given.take_from_deck(card)
        given.to_hand(seat, card, "given")
        given.run()
    except Exception as err:
        point = Point(card.id, "give", seat, 0, 0, result.scores[seat], False, seat in result.winners,
                      f"{type(err).__name__}: {err}")
    else:
        point = Point(card.id, "give", seat, 0, given.state.seats[seat].score, result.scores[seat],
                      seat in given.winners(), seat in result.winners)
    return Measured(result, (point,))


class Omitted(Sequence):
    """A menu without one of its options (read lazily, as the core's action menu is)."""

    __slots__ = ("k", "options")

    def __init__(self, options: Sequence, k: int):
        self.options, self.k = options, k

    def __len__(self) -> int:
        return len(self.options) - 1

    def __getitem__(self, j):
        if isinstance(j, slice):
            return [self[i] for i in range(*j.indices(len(self)))]
        if j < 0:
            j += len(self)
        if not 0 <= j < len(self):
            raise IndexError(j)
        return self.options[j if j < self.k else j + 1]


class Without:
    """A seat's agent in the copy without the card: it never plays it, reacts with it or bids on it."""

    def __init__(self, agent, how: str, card: str):
        self.agent, self.how, self.card = agent, how, card
        self.name = agent.name

    def choose(self, obs, q: Question) -> int:
        if q.card == self.card and q.kind is Ask.REACT and self.how == "play":
            return q.options.index(False)
        if q.card == self.card and q.kind is Ask.BID and self.how == "bid":
            return 0
        if q.kind is Ask.ACTION and self.how == "play":
            k = next((k for k, card in plays(q.options) if card == self.card), None)
            if k is not None:
                j = self.agent.choose(obs, Question(q.kind, q.seat, Omitted(q.options, k), q.card, q.text))
                return j if j < k else j + 1
        return self.agent.choose(obs, q)


# ---- the Python interface ---------------------------------------------------------------------

def card_values(content, seeds: Sequence[int], agents: Sequence[str], *, players: int | None = None,
                cards: Sequence[str] = (), points: int = 1, jobs: int = 1) -> dict:
    """Each card's causal value over the games of these seeds: {card id: value_stats.CardValue}.

    `cards` names the cards measured (ids or names; none: every policy and advisor); `points` is the
    number of decision points per card, way and game. The same inputs give the same values whatever `jobs`.
    """
    plan = ValuePlan(points, tuple(card_ids(content, cards)))
    return _measured(content, seeds, agents, players, plan, jobs).values()


def give_value(content, seeds: Sequence[int], agents: Sequence[str], card: str, *, players: int | None = None,
               jobs: int = 1):
    """The value of a policy dealt at the start (value_stats.ValueEstimate), each seed played with and without it."""
    (ref,) = card_ids(content, [card], "policy")
    plan = ValuePlan(give=ref)
    return _measured(content, seeds, agents, players, plan, jobs).values()[ref].give


def card_ids(content, refs: Sequence[str], kind: str | None = None) -> list[str]:
    """The ids of cards named by id or name; ValueError naming one that is no policy (or advisor)."""
    out = []
    for ref in refs:
        card = content.lookup(ref)
        if card is None or card.kind not in WAYS or (kind is not None and card.kind != kind):
            what = "政策 policy" if kind == "policy" else "政策或顾问 policy or advisor"
            raise ValueError(f"no {what} named {ref!r} in {content.root}")
        out.append(card.id)
    return out


def _measured(content, seeds: Sequence[int], agents: Sequence[str], players: int | None, plan: ValuePlan, jobs: int):
    """Play the seeds' games with their copies (in worker processes for jobs > 1), summed in seed order."""
    from rulekit.agents import seat_agents
    from rulekit.core.rules import Rules
    from rulekit.playtest.runner import Batch, local_games
    from rulekit.playtest.value_stats import summarize

    n = players or Rules.from_dict(content.rules).players
    batch = Batch(content.root, len(seeds), 0, n, tuple(seat_agents(list(agents), n)),
                  value=plan)
    todo = list(enumerate(seeds))
    units: dict[int, Measured] = {}
    with local_games(content, batch, todo, max(1, min(jobs, len(todo)))) as games:
        for i, unit in games:
            units[i] = unit
    return summarize(((units[i].result, list(units[i].points)) for i in range(len(todo))), content, plan)
