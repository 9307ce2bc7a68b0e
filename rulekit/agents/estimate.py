"""What a card is worth to a player now: a cheap reading of its effect text, in points, for the greedy agent.

The estimate reads the card's syntax tree against a snapshot of the table: every seat's numbers,
no copy of the game, no simulation. Every weight below is a guess a designer can read; the unit
is one point of score.

The Walker below is the reading written as rules. The agent runs the same reading written out
as Python once per card (rulekit/agents/estgen.py, which takes its weights from here and mirrors
the Walker step by step): a changed weight reaches both; a changed rule of the Walker must be
made in estgen too, and tests/test_estimate_agree.py fails until the two give the same numbers.
What both readers do alike (visiting players, moving things between them, events, time) is
written once below and called by both, each with its own way of holding what it found (`AccOps`
here, estgen's list operations there).

A few constructs cannot be valued from the text at all; `unreadable(card)` names them, and the
agent measures such a card by a short lookahead instead (rulekit/agents/greedy.py).
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from rulekit import registry
from rulekit.core import board as B
from rulekit.core import quantities as Q
from rulekit.language import ast
from rulekit.language.visitor import Visitor

MONEY = 0.3           # a coin, in points: about what a coin buys elsewhere
LASTING = 0.6         # discount on effects that repeat every round: the future is uncertain
LATER = 0.9           # discount for each round an `after N rounds:` block waits
OTHERS = 0.25         # what another player's gain costs me (a point for them = -0.25 for me)
PER_ROUND = {"medical": 0.45, "disease": -0.6, "economy": MONEY}
DRAW = {1: 1.0, 2: 1.5, 3: 2.0}   # a card kept from a draw, by stage
REVEAL = 0.3          # a tile revealed early: a fully revealed board scores each event phase, less the risk
PRICE = 2             # a typical price, the base a `modify price` works on
# A modified quantity: (points per unit per round, +1 if more is better / -1 if less is better).
# `price`: about one card played a round, so a coin off every price is a coin a round.
QUANTITY = {"new_mild": (0.8, -1), "new_severe": (0.6, -1), "new_dead": (1.2, -1), "income": (MONEY, 1),
            "mild_cost": (0.5, -1), "severe_cost": (0.4, -1), "bury_cost": (0.1, -1),
            "relocate_cost": (0.05, -1), "discovery": (REVEAL, 1), "price": (MONEY, -1)}
# Beyond the score a change of cell state scores (cure +1, death -1): what it does to the spread.
TRANSITION = {("mild", "healthy"): 0.5, ("severe", "mild"): 0.9, ("healthy", "mild"): -1.0,
              ("mild", "severe"): -0.8, ("healthy", "dead"): -0.6, ("mild", "dead"): -0.6,
              ("severe", "dead"): -0.3, ("dead", "empty"): 1.0, ("severe", "empty"): 0.9,
              ("mild", "empty"): 0.5, ("healthy", "empty"): -1.2}
# A resident by its state, for comparing two whole positions (the lookahead): about TRANSITION's steps.
RESIDENT = {"healthy": 0.4, "mild": -0.5, "severe": -1.4, "dead": -1.7}
# Which residents a verb takes first when it may take several states (the agent answers the same way).
VERB_ORDER = {"cure": ("mild",), "treat": ("severe",), "infect": ("healthy",), "worsen": ("mild",),
              "kill": ("severe", "mild", "healthy"), "remove": ("dead", "severe", "mild", "healthy")}
# What each verb leaves a cell as, and which cell states each kind covers: the registry's, but for the
# verbs the reading cannot value (UNREADABLE, below).
VERB_TO = {name: verb.target for name, verb in registry.VERBS.items() if name != "move"}
KIND_STATES = registry.KIND_STATES
# The kinds that cover several states (a count of them is the sum of theirs).
DERIVED = {kind: states for kind, states in KIND_STATES.items() if len(states) > 1}
STATES = ("healthy", "mild", "severe", "dead", "tiles")
# The state of `it` in a handler of each trigger (a cure's cell is healthy by then), and how often a
# trigger comes per round (death and cure: from the board, see handler_worth).
IT_STATE = {"reveal mild": "mild", "reveal healthy": "healthy", "reveal": "mild", "death": "severe",
            "death severe": "severe", "death mild": "mild", "death healthy": "healthy", "cure": "healthy"}
TRIGGER_RATE = {"reveal": 2.0, "reveal mild": 0.4, "reveal healthy": 1.6, "unsold": 0.3, "event": 1.0,
                "play": 1.0, "death mild": 0.2, "death healthy": 0.1}
# A death prevented is worth what it would have cost: the point, the resident, the dead's contagion.
# An overthrow prevented keeps the player in the game. An event prevented: its worth to me, read (over_events).
PREVENT = {"death": 1.6, "death severe": 1.6, "death mild": 1.9, "death healthy": 1.9, "overthrown": 20.0}
DISCARD = 0.2         # a card from hand given up (`discard`, `may discard`), or given away (`give … cards`)
TAKEN_CARD = DRAW[1]  # a card taken at random from another hand: about a kept stage-1 card
CHANCE = {"event": 0.15, "happened": 0.3}   # unknown future events, as a probability
SHIELD_OTHERS = 0.1   # a round of a shielded target, against other players' cards (beside the events read)
# `skip STEP`: the quantity the step works through, and the residents it takes.
SKIP = {"contagion": ("new_mild", "healthy"), "worsening": ("new_severe", "mild"), "deaths": ("new_dead", "severe")}
# What the reading cannot value from the text, and why (the agent looks ahead instead).
UNREADABLE = {"move": "`move` (where the resident goes, and whom it then spares, depends on the board's layout, "
                      "which the reading does not look at)"}

TRACKS = ("medical", "disease", "policy", "score", "economy", "money")
TRACK_INDEX = {name: k for k, name in enumerate(TRACKS)}
STATE_INDEX = {name: k for k, name in enumerate(STATES)}
# The reading keeps to the game's own limits (registry.LIMITS): a number past the ceiling fails its
# statement (worth nothing, as any statement the reading cannot read), and one reading runs at most
# as many statements as one effect may, counted over every answer it weighs; what is left unread then
# is worth nothing. So no card's text can make a decision hang.
MAX_NUMBER = registry.MAX_NUMBER
MAX_REPEAT = registry.MAX_REPEAT
WORK = registry.LIMITS["effect_steps"].value


def cap(v):
    """A number the reading computed, within the game's number limit (OverflowError past it, as the
    game stops there)."""
    if -MAX_NUMBER <= v <= MAX_NUMBER:
        return v
    raise OverflowError("a number beyond the limit")


def num_of(v):
    """A value as a number: anything else (a card, a cell) counts 0."""
    return v if isinstance(v, (int, float)) else 0


def block_work(stmts) -> int:
    """The statements one run of a block reads before it branches: up to its first choice, or all."""
    return next((k + 1 for k, s in enumerate(stmts) if choice_kind(s) is not None), len(stmts))


class Snapshot:
    """The numbers an estimate reads, taken once per question, and the parameters of the reading under way.

    The fields t, tf, c, base, hand, unlocked, seat and pu0 belong to the reading's subject: the
    player's own, except while a block is read for another seat (as_seat swaps them in and back).
    `key` tells two snapshots of the same numbers apart from the rest: the agent keeps what it
    worked out while the key stays the same.
    """

    __slots__ = ("__dict__", "base", "c", "fbounds", "final_penalty", "floor", "hand", "key", "me", "mine_t", "obs", "order",
                 "players", "r", "ranges", "round", "rounds_left", "seat", "t", "tf", "unlocked", "who")
    # Worked out at most once a question, when first needed: policy_utility at the subject's policy,
    # seal_value, quantities without one card's modifier, other seats' numbers, the events not yet
    # drawn and what each is worth to the player, the healthy neighbours of its dead, card counters.
    pu0 = seal = without = seats = unseen = harm = spread = counters = None
    # The reading under way (Walker's parameters, for the generated reading): uses, the answer
    # forced at the first choice of kind fk, whether the player is the subject of every block, and
    # the statements read so far (against WORK).
    uses, fk, force, as_subject, work = 1, None, None, False, 0
    # An event being weighed (`when event:`, `event(…)`), and what preventing it is worth; a reading
    # of an event for the player only (no other seat's gain counts), with the losses it found.
    ev, pv, mine_only, losses = None, 0.0, False, None

    def __init__(self, obs, seat: int):
        self.obs, self.seat, self.me = obs, seat, seat
        self.key = rnd, _, t, c, hand, unlocked, _, players = self.key_of(obs, seat)
        self.t, self.c, self.hand, self.round, self.unlocked, self.players = t, c, hand, rnd, unlocked, players
        self.mine_t = t
        self.tf = tuple(map(float, t))        # the tracks as floats, for the generated reading (estgen)
        self.base = [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, *c, 0.0, 0.0, 0.0]         # a new Acc, as a list (estgen)
        self.order = obs.in_order()
        self.who = [seat]                      # the subject of each block being read, outermost first
        left, events = obs.rules.max_rounds - rnd + 1, obs.events_left
        rl = events if events < left else left
        self.rounds_left = rl = rl if rl > 1 else 1                            # max(1, min(left, events))
        self.r = rl * LASTING
        self.final_penalty = obs.quantity(seat, "final_penalty")
        # The ranges of the game's rules (rules.yaml over the registry's), never ones of the reading's own.
        self.ranges, self.fbounds, self.floor = ranges_of(obs.rules)

    @staticmethod
    def key_of(obs, seat: int) -> tuple:
        """(round, phase, tracks in TRACKS order, counts in STATES order, hand size, unlocked stage,
        tableau size, players still in): what a snapshot's key holds, read without the rest."""
        return (obs.round, obs.phase, obs.tracks(seat), obs.counts(seat),
                obs.hand_size(seat), obs.unlocked(seat), len(obs.tableau(seat)), len(obs.in_order()))

    @property
    def tracks(self) -> dict[str, int]:
        return dict(zip(TRACKS, self.t))

    @property
    def counts(self) -> dict[str, int]:
        return dict(zip(STATES, self.c))

    def quantity_base(self, name: str) -> int:
        """The base of the subject's quantity by the rules' own formula (core.quantities); a price: a typical one."""
        if name in Q.CARD_BASED:
            return PRICE
        t = self.t
        return Q.base(name, self.obs.rules, t[1], t[4], self.c[0])


def ranges_of(rules) -> tuple[dict[str, tuple[int, int]], tuple[float, ...], int]:
    """(lowest, highest) of each track weighed per round (PER_ROUND), the same as floats in one flat tuple
    (lowest, highest of each in turn, for the generated reading), and policy's lowest (below it a player is
    overthrown): read from the rules in force, once for each set of ranges."""
    hit = _RANGES.get(rules.bounds)
    if hit is None:
        ranges = {track: rules.bound(track)[:2] for track in PER_ROUND}
        flat = tuple(float(x) for lo_hi in ranges.values() for x in lo_hi)
        hit = _RANGES[rules.bounds] = (ranges, flat, rules.bound("policy")[0])
    return hit


_RANGES: dict[tuple, tuple[dict[str, tuple[int, int]], tuple[float, ...], int]] = {}


# ---- reading as another seat ------------------------------------------------------------------------

def seat_numbers(snap: Snapshot, p: int) -> tuple:
    """(tracks, tracks as floats, counts, hand size, unlocked stage) of a seat, read once a snapshot."""
    if snap.seats is None:
        snap.seats = {snap.me: (snap.mine_t, tuple(map(float, snap.mine_t)), snap.key[3], snap.key[4], snap.key[5])}
    hit = snap.seats.get(p)
    if hit is None:
        obs = snap.obs
        t = obs.tracks(p)
        hit = snap.seats[p] = (t, tuple(map(float, t)), obs.counts(p), obs.hand_size(p), obs.unlocked(p))
    return hit


def as_seat(snap: Snapshot, p: int) -> tuple:
    """Make seat p the subject of the snapshot's numbers; what to give back() to undo it."""
    saved = (snap.seat, snap.t, snap.tf, snap.c, snap.base, snap.hand, snap.unlocked, snap.pu0)
    t, tf, c, hand, unlocked = seat_numbers(snap, p)
    snap.seat, snap.t, snap.tf, snap.c, snap.hand, snap.unlocked = p, t, tf, c, hand, unlocked
    snap.base = [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, *c, 0.0, 0.0, 0.0]
    snap.pu0 = None
    return saved


def back(snap: Snapshot, saved: tuple) -> None:
    (snap.seat, snap.t, snap.tf, snap.c, snap.base, snap.hand, snap.unlocked, snap.pu0) = saved


def policy_utility(p: float, rounds_left: int, floor: int) -> float:
    """Concave: a point below 0 costs a point per event phase; near the floor (policy's lowest, -10 by
    default) the player may be overthrown.

    At 0 or above: half a point for each of the first 3, a tenth for each beyond. Below 0: 0.4 a
    point per round left (5 at most counted), less 1.5 times the square of how far it is below half
    the floor (rounded down); below the floor, -60. (min and max written as conditionals: this is
    weighed hundreds of times a game.)
    """
    if p < floor:
        return -60.0
    if p >= 0:
        beyond = p - 3
        return 0.5 * (3 if p > 3 else p) + 0.1 * (beyond if beyond > 0.0 else 0.0)
    rounds = 5 if rounds_left > 5 else rounds_left
    under = floor // 2 - p
    return p * 0.4 * rounds - 1.5 * (under if under > 0.0 else 0.0) ** 2


class Acc:
    """The effects found so far on the reading's subject: track deltas, residents moved, points that need
    no track, the names the effect holds (its counters among them), and `up`: points that reach the
    player from a block read for another seat (taken from them, or a `me:` block inside theirs)."""

    __slots__ = ("counts", "d", "dprevent", "env", "extra", "up")

    def __init__(self, snap: Snapshot):
        self.d = dict.fromkeys(TRACKS, 0.0)
        self.counts = dict(snap.counts)
        self.extra = 0.0
        self.env: dict = {}
        self.dprevent = 0.0
        self.up = 0.0

    def clone(self) -> Acc:
        c = Acc.__new__(Acc)
        c.d, c.counts, c.extra, c.env, c.dprevent = dict(self.d), dict(self.counts), self.extra, dict(self.env), self.dprevent
        c.up = self.up
        return c

    @staticmethod
    def mix(parts: list[tuple[float, Acc]]) -> Acc:
        """The expectation of several outcomes weighted by their probabilities."""
        out = max(parts, key=lambda wa: wa[0])[1].clone()
        for k in out.d:
            out.d[k] = sum(w * a.d[k] for w, a in parts)
        for k in out.counts:
            out.counts[k] = sum(w * a.counts[k] for w, a in parts)
        out.extra = sum(w * a.extra for w, a in parts)
        out.dprevent = sum(w * a.dprevent for w, a in parts)
        out.up = sum(w * a.up for w, a in parts)
        return out


def worth(acc: Acc, snap: Snapshot) -> float:
    """Points the effects found are worth to the snapshot's subject."""
    return worth_at(acc, snap, snap.rounds_left)


def worth_at(acc: Acc, snap: Snapshot, rounds_left: int) -> float:
    """worth, as if rounds_left rounds were left (a block that runs later)."""
    t, d, ranges, floor = snap.tracks, acc.d, snap.ranges, snap.floor
    r = rounds_left * LASTING
    v = acc.extra + d["score"] + d["money"] * MONEY
    for track, per in PER_ROUND.items():
        lo, hi = ranges[track]
        v += (min(hi, max(lo, t[track] + d[track])) - t[track]) * per * r
    v += policy_utility(t["policy"] + d["policy"], rounds_left, floor) - policy_utility(t["policy"], rounds_left, floor)
    return v


def gain(snap: Snapshot, what: str, k) -> float:
    """Points to the player (not the subject under way) of its own track or money changing by k now."""
    if what == "score":
        return k + 0.0
    if what == "money":
        return k * MONEY
    cur = snap.mine_t[TRACK_INDEX[what]]
    if what == "policy":
        return policy_utility(cur + k, snap.rounds_left, snap.floor) - policy_utility(cur, snap.rounds_left, snap.floor)
    lo, hi = snap.ranges[what]
    return (min(hi, max(lo, cur + k)) - cur) * PER_ROUND[what] * snap.r


class Ops(Protocol):
    """What the shared readings below need of a reader's findings (an Acc here, a list in estgen)."""

    def fresh(self, snap: Snapshot, acc): ...
    def clone(self, acc): ...
    def mix(self, parts: list): ...
    def worth(self, acc, snap: Snapshot) -> float: ...
    def add_extra(self, acc, v: float) -> None: ...
    def up(self, acc) -> float: ...
    def add_up(self, acc, v: float) -> None: ...
    def set_env(self, dst, src) -> None: ...
    def deltas(self, acc) -> tuple: ...


class AccOps:
    """How the Walker holds what a reading found (an Acc); estgen has the same operations on its lists."""

    @staticmethod
    def fresh(snap: Snapshot, acc: Acc) -> Acc:
        """Nothing found yet on the snapshot's subject, with the names acc holds."""
        a = Acc(snap)
        a.env = dict(acc.env)
        return a

    @staticmethod
    def clone(acc: Acc) -> Acc:
        return acc.clone()

    mix = staticmethod(Acc.mix)

    @staticmethod
    def worth(acc: Acc, snap: Snapshot) -> float:
        return worth(acc, snap)

    @staticmethod
    def add_extra(acc: Acc, v: float) -> None:
        acc.extra += v

    @staticmethod
    def up(acc: Acc) -> float:
        return acc.up

    @staticmethod
    def add_up(acc: Acc, v: float) -> None:
        acc.up += v

    @staticmethod
    def set_env(dst: Acc, src: Acc) -> None:
        dst.env = dict(src.env)

    @staticmethod
    def deltas(acc: Acc) -> tuple:
        d = acc.d
        return d["medical"], d["disease"], d["policy"], d["score"], d["economy"], d["money"]


# A block body, or an expression, as either reader runs it: (snapshot, what was found) -> ...
Run = Callable[[Snapshot, object], object]


def visit(snap: Snapshot, ops: Ops, acc, p: int, q: float, run: Run):
    """Read a player block's body for seat p, visited with probability q, into what the current subject found.

    The current subject's own block reads on into its own findings. Another seat's is read apart,
    with that seat's numbers: what I gain there (and my own effects, when the block is mine but the
    subject is someone else) reaches me as points; what another seat gains costs me OTHERS a point
    (not in a reading of an event for me alone). Names it changed (a tally) are kept when it is
    likelier visited than not.
    """
    who = snap.who
    if p == who[-1]:
        who.append(p)
        try:
            r = run(snap, ops.clone(acc) if q < 1 else acc)
        finally:
            who.pop()
        return ops.mix([(q, r), (1 - q, acc)]) if q < 1 else r
    theirs, value = read_as(snap, ops, acc, p, run)
    me = snap.me
    if p == me:
        ops.add_up(acc, q * value)
        if snap.losses is not None:
            losses = snap.losses
            for k, x in enumerate(ops.deltas(theirs)):
                if x < 0:
                    losses[k] += q * x
    elif who[-1] == me:
        if not snap.mine_only:
            ops.add_extra(acc, -OTHERS * q * value)
        ops.add_extra(acc, q * ops.up(theirs))
    else:
        ops.add_up(acc, q * ops.up(theirs))
    if q >= 0.5:
        ops.set_env(acc, theirs)
    return acc


def read_as(snap: Snapshot, ops: Ops, acc, p: int, run: Run) -> tuple:
    """A block read apart with seat p as its subject (its numbers, nothing found yet, acc's names): what it
    found, and what that is worth to p."""
    saved = as_seat(snap, p)
    snap.who.append(p)
    try:
        found = run(snap, ops.fresh(snap, acc))
        return found, ops.worth(found, snap)
    finally:
        snap.who.pop()
        back(snap, saved)


def as_seat_value(snap: Snapshot, ops: Ops, acc, p: int, fn: Run):
    """An expression read with seat p as its subject (the current subject reads its own findings)."""
    who = snap.who
    if p == who[-1]:
        return fn(snap, acc)
    saved = as_seat(snap, p)
    who.append(p)
    try:
        return fn(snap, ops.fresh(snap, acc))
    finally:
        who.pop()
        back(snap, saved)


def each_player(snap: Snapshot, ops: Ops, acc, other: bool, where: Run | None, run: Run):
    """`each [other] player [where COND]:` — every seat still in, in turn order, as likely as COND holds for it."""
    subject = snap.who[-1]
    for p in snap.order:
        if other and p == subject:
            continue
        q = truth(as_seat_value(snap, ops, acc, p, where)) if where is not None else 1.0
        if q > 0:
            acc = visit(snap, ops, acc, p, q, run)
    return acc


def player_with(snap: Snapshot, ops: Ops, acc, which: str, key: Run, run: Run):
    """`player with highest|lowest|most|fewest EXPR:` — every seat tied at the best value, in turn order."""
    values = [num_of(as_seat_value(snap, ops, acc, p, key)) for p in snap.order]
    if not values:
        return acc
    best = max(values) if which in ("highest", "most") else min(values)
    for p, v in zip(snap.order, values):
        if v == best:
            acc = visit(snap, ops, acc, p, 1.0, run)
    return acc


def choose_options(snap: Snapshot, ops: Ops, acc, other: bool, where: Run | None) -> list[int]:
    """The seats `choose [other] player [where COND]:` may pick, in turn order."""
    subject = snap.who[-1]
    return [p for p in snap.order if not (other and p == subject)
            and (where is None or truth(as_seat_value(snap, ops, acc, p, where)) > 0)]


def count_players(snap: Snapshot, ops: Ops, acc, other: bool, where: Run | None) -> float:
    """`count([other] player where COND)`: the seats it holds for (an expected count when COND is a chance)."""
    subject = snap.who[-1]
    total = 0.0
    for p in snap.order:
        if other and p == subject:
            continue
        total += truth(as_seat_value(snap, ops, acc, p, where)) if where is not None else 1.0
    return total


def aggregate(snap: Snapshot, ops: Ops, acc, highest: bool, key: Run):
    """`highest(EXPR)` / `lowest(EXPR)` over the seats still in (0 with none)."""
    values = [num_of(as_seat_value(snap, ops, acc, p, key)) for p in snap.order]
    if not values:
        return 0
    return max(values) if highest else min(values)


def count_played(snap: Snapshot, acc, where: Callable | None) -> float:
    """`count(played where COND)`: the subject's played cards that are on, COND read with each card's
    (stage, first price)."""
    total = 0.0
    for e in snap.obs.tableau(snap.seat):
        if e.on:
            card = e.card
            total += truth(where(snap, acc, (card.stage, card.price[0] if card.price else 0))) \
                if where is not None else 1.0
    return total


def me_block(snap: Snapshot, ops: Ops, acc, run: Run):
    """`me:` — the card's owner (the player) is the subject again; read inside another seat's block, what
    it does reaches the player as points."""
    me, who = snap.me, snap.who
    if who[-1] == me:
        who.append(me)
        try:
            return run(snap, acc)
        finally:
            who.pop()
    mine, value = read_as(snap, ops, acc, me, run)
    ops.add_up(acc, value)
    ops.set_env(acc, mine)
    return acc


def transfer(snap: Snapshot, direction: str, what: str, n, cur) -> tuple:
    """`take`/`give` between the block's subject (whose current value of `what` is cur) and the subject
    outside the block. (change of the block subject's track, its points for cards, points to the
    player, the part not moved). The other seat's shields are not read."""
    who = snap.who
    if len(who) < 2 or who[-2] is None:
        raise ValueError("no one outside the block to move things to or from")
    p, e = who[-1], who[-2]
    take = direction == "take"
    cards = what in registry.HAND_WORDS
    if cards:
        lo, hi = 0, MAX_NUMBER
        other = seat_numbers(snap, e)[3]
    else:
        lo, hi, _ = snap.obs.rules.bound(what)
        other = seat_numbers(snap, e)[0][TRACK_INDEX[what]]
    have, room = (cur - lo, hi - other) if take else (other - lo, hi - cur)
    want = (have if have > 0 else 0) if n is None else n
    if want < 0:
        raise ValueError("a count gone negative")
    moved = min(want, have, room)
    moved = moved if moved > 0 else 0
    unmoved = want - moved
    if p == e:
        return 0.0, 0.0, 0.0, unmoved
    sign = -1 if take else 1
    to_me = e == snap.me and p != snap.me
    if cards:
        points = sign * moved * (TAKEN_CARD if take else DISCARD)
        return 0.0, points, (-points if to_me else 0.0), unmoved
    change = sign * moved
    return change, 0.0, (gain(snap, what, -change) if to_me else 0.0), unmoved


# ---- events ---------------------------------------------------------------------------------------------

def unseen_events(snap: Snapshot) -> tuple:
    """(event card, share of the deck) of each event not drawn yet."""
    if snap.unseen is None:
        cards = snap.obs.unseen_events()
        counts: dict[str, list] = {}
        for card in cards:
            counts.setdefault(card.id, [card, 0])[1] += 1
        n = len(cards)
        snap.unseen = tuple((card, k / n) for card, k in counts.values())
    return snap.unseen


def with_event(snap: Snapshot, card, fn: Callable[[Snapshot], float], harm) -> float:
    """fn read with `card` as the event being weighed: `event(…)` tells it, `prevent` is worth its harm."""
    saved = snap.ev, snap.pv
    snap.pv = -harm(card, snap)[0]
    snap.ev = card
    try:
        return fn(snap)
    finally:
        snap.ev, snap.pv = saved


def over_events(snap: Snapshot, fn: Callable[[Snapshot], float], harm) -> float:
    """The average of fn over the events not drawn yet, each weighed by its share of the deck."""
    v = 0.0
    for card, share in unseen_events(snap):
        v += share * with_event(snap, card, fn, harm)
    return v


def as_event(snap: Snapshot, card, tag: str, fn: Callable[[Snapshot], float]) -> tuple[float, tuple]:
    """What an event is worth to the player (read by fn, a reader's `on resolve`), and the losses of each track
    it found: cached per reader (tag) and event. The event has no subject; only the player's own share counts."""
    if snap.harm is None:
        snap.harm = {}
    key = (tag, card.id)
    hit = snap.harm.get(key)
    if hit is not None:
        return hit
    saved = (snap.who, snap.mine_only, snap.losses, snap.ev, snap.fk, snap.force, snap.as_subject, snap.uses,
             snap.work)
    seat = as_seat(snap, snap.me) if snap.seat != snap.me else None
    snap.who, snap.mine_only, snap.losses, snap.ev = [None], True, [0.0] * len(TRACKS), card
    snap.fk, snap.force, snap.as_subject, snap.uses = None, None, False, 1
    try:
        hit = snap.harm[key] = (fn(snap), tuple(snap.losses))
    finally:
        (snap.who, snap.mine_only, snap.losses, snap.ev, snap.fk, snap.force, snap.as_subject, snap.uses,
         snap.work) = saved
        if seat is not None:
            back(snap, seat)
    return hit


def event_harm(card, snap: Snapshot) -> tuple[float, tuple]:
    """as_event, read by the Walker."""
    def read(w: Snapshot) -> float:
        v = 0.0
        for h in handlers(card, "on", "resolve"):
            v += Walker(w, card=card).run(h.body).up
        return v
    return as_event(snap, card, "walker", read)


class Walker(Visitor, walks=("statements", "expressions")):
    """Reads one handler body against a snapshot; choices inside it are taken the best way for their chooser.

    A method per statement (`s_…`) and per expression (`e_…`) of the language, as every walker of
    the trees has (rulekit.language.visitor): a new statement cannot be passed over unnoticed. What
    the reading does not weigh says so in its method.
    """

    def __init__(self, snap: Snapshot, trigger: str | None = None, force=None, force_kind: str | None = None,
                 uses: int = 1, as_subject: bool = False, card=None):
        self.snap = snap
        self.trigger = trigger
        self.force = force              # the answer to try at the first choice of force_kind
        self.force_kind = force_kind    # 'choose' | 'amount' | 'may' | 'player'
        self.uses = uses
        self.as_subject = as_subject    # I am the subject of every player block (I was asked)
        self.card = card                # whose counters (and params) the effect reads
        self.card_params = dict(card.params) if card is not None else {}   # `params:`: constants
        self.cv = None                  # (stage, price) of the card `count(played where …)` is reading
        self.pv = snap.pv if trigger == "event" else PREVENT.get(trigger or "", 0.0)

    def new_acc(self) -> Acc:
        """Nothing found yet, the card's counters as its names."""
        acc = Acc(self.snap)
        card = self.card
        if card is not None and card.counters:
            acc.env = dict(zip((name for name, _ in card.counters), counter_values(self.snap, card)))
        return acc

    def run(self, stmts) -> Acc:
        self.snap.work = 0
        return self.block(tuple(stmts), self.new_acc())

    # ---- blocks, with the choices they hold --------------------------------------------
    def block(self, stmts: tuple, acc: Acc) -> Acc:
        snap = self.snap
        snap.work += block_work(stmts)
        if snap.work > WORK:
            return acc
        for k, s in enumerate(stmts):
            kind = choice_kind(s)
            if kind is not None:
                rest = stmts[k + 1:]
                options = self.choice(s, kind, acc)
                if options is None:         # `choose player` read as mine (I was asked inside it)
                    try:
                        acc = self.stmt(s, acc)
                    except (ArithmeticError, TypeError, ValueError, KeyError):
                        pass
                    return self.block(rest, acc)
                outcomes = []
                for o in options:
                    try:
                        outcomes.append(self.block(rest, self.take(s, o, acc.clone())))
                    except (ArithmeticError, TypeError, ValueError, KeyError):
                        continue
                if not outcomes:
                    return self.block(rest, acc)
                return max(outcomes, key=lambda a: worth(a, self.snap))
            try:
                acc = self.stmt(s, acc)
            except (ArithmeticError, TypeError, ValueError, KeyError):
                continue      # a statement the estimate cannot read is worth nothing
        return acc

    def choice(self, s, kind: str, acc: Acc) -> list | None:
        """The answers to weigh at a choice point (None: read a `choose player` as a plain block)."""
        if self.force_kind == kind:
            self.force_kind = None
            return [self.force]
        try:
            if kind == "player":
                if self.as_subject:
                    return None
                return choose_options(self.snap, AccOps, acc, s.other, self.cond(s.where))
            if kind == "choose":
                lo, hi = int(self.num(s.lo, acc)), int(self.num(s.hi, acc))
                return sorted({lo, hi}) if lo <= hi else []
            if kind == "may":
                if isinstance(s, ast.MayPay) and self.num(s.amount, acc) > self.money(acc):
                    return [False]
                if isinstance(s, ast.MayDiscard) and self.num(s.amount, acc) > self.snap.hand:
                    return [False]
                return [True, False]
            return [0, self.available(s, acc)]
        except (ArithmeticError, TypeError, ValueError, KeyError):
            return []

    def take(self, s, answer, acc: Acc) -> Acc:
        if isinstance(s, ast.ChoosePlayer):
            return visit(self.snap, AccOps, acc, answer, 1.0, self.body(s.body))
        if isinstance(s, ast.Choose):
            acc.env[s.name] = answer
            return acc
        if isinstance(s, (ast.May, ast.MayPay, ast.MayDiscard)):
            if not answer:
                return acc
            if isinstance(s, ast.MayPay):
                acc.d["money"] -= self.num(s.amount, acc)
            elif isinstance(s, ast.MayDiscard):
                acc.extra -= DISCARD * self.num(s.amount, acc)
            return self.block(s.body, acc)
        n = self.verb(s, answer, acc)
        if s.as_name:
            acc.env[s.as_name] = n
        return acc

    def body(self, stmts) -> Run:
        return lambda snap, a: self.block(stmts, a)

    def cond(self, e) -> Run | None:
        return None if e is None else (lambda snap, a: self.value(e, a))

    # ---- statements ------------------------------------------------------------------------
    def s_TrackChange(self, s: ast.TrackChange, acc: Acc) -> Acc:
        if s.track in acc.env:                  # a name that changes, or a counter (`charges -= 1`)
            if s.op == "=":
                acc.env[s.track] = self.value(s.expr, acc)
            else:
                v = self.num(s.expr, acc)
                cur = acc.env[s.track]
                cur = cur if isinstance(cur, (int, float)) else 0
                acc.env[s.track] = cap(cur + v if s.op == "+=" else cur - v)
            return acc
        v = self.num(s.expr, acc)
        cur = self.snap.tracks[s.track] + acc.d[s.track]
        acc.d[s.track] += v if s.op == "+=" else -v if s.op == "-=" else v - cur
        return acc

    def s_Let(self, s: ast.Let, acc: Acc) -> Acc:
        acc.env[s.name] = self.value(s.expr, acc)
        return acc

    def s_If(self, s: ast.If, acc: Acc) -> Acc:
        return self.branch(s, acc)

    def s_EachPlayer(self, s: ast.EachPlayer, acc: Acc) -> Acc:
        if self.as_subject:
            return self.block(s.body, acc)
        return each_player(self.snap, AccOps, acc, s.other, self.cond(s.where), self.body(s.body))

    def s_PlayerWith(self, s: ast.PlayerWith, acc: Acc) -> Acc:
        if self.as_subject:
            return self.block(s.body, acc)
        return player_with(self.snap, AccOps, acc, s.which, self.cond(s.expr), self.body(s.body))

    def s_ChoosePlayer(self, s: ast.ChoosePlayer, acc: Acc) -> Acc:
        """Reached only when I was asked inside it (block() weighs the seats otherwise): mine."""
        return self.block(s.body, acc)

    def s_Me(self, s: ast.Me, acc: Acc) -> Acc:
        return me_block(self.snap, AccOps, acc, self.body(s.body))

    def s_After(self, s: ast.After, acc: Acc) -> Acc:
        """Worth what it does then, only if the game lasts that long, less LATER a round of waiting."""
        n = int(self.num(s.count, acc))
        if n < 1:
            raise ValueError("after fewer than 1 rounds")
        snap = self.snap
        if n >= snap.rounds_left:
            return acc
        later = acc.clone()
        later.d, later.extra, later.dprevent, later.up = dict.fromkeys(TRACKS, 0.0), 0.0, 0.0, 0.0
        later = self.block(s.body, later)
        f = LATER ** n
        acc.extra += f * worth_at(later, snap, snap.rounds_left - n)
        acc.up += f * later.up
        return acc

    def s_Repeat(self, s: ast.Repeat, acc: Acc) -> Acc:
        for _ in range(max(0, min(MAX_REPEAT, int(self.num(s.count, acc))))):
            acc = self.block(s.body, acc)
        return acc

    def s_Spend(self, s: ast.Spend, acc: Acc) -> Acc:
        acc.d["money"] -= self.num(s.amount, acc)
        return acc

    def s_Pay(self, s: ast.Pay, acc: Acc) -> Acc:
        n = self.num(s.amount, acc)
        paid = min(n, self.money(acc))
        acc.d["money"] -= paid
        if s.as_name:
            acc.env[s.as_name] = n - paid
        return acc

    def s_VerbStmt(self, s: ast.VerbStmt, acc: Acc) -> Acc:
        n = self.verb(s, None, acc)
        if s.as_name:
            acc.env[s.as_name] = n
        return acc

    def s_VerbIt(self, s: ast.VerbIt, acc: Acc) -> Acc:
        self.verb_it(s.verb, acc)
        return acc

    def s_Draw(self, s: ast.Draw, acc: Acc) -> Acc:
        n = self.num(s.count, acc)
        kept = min(n, self.num(s.keep, acc)) if s.keep is not None else n
        acc.extra += kept * DRAW.get(int(self.num(s.stage, acc)), 1.0) + 0.2 * max(0, n - kept)
        return acc

    def s_Unlock(self, s: ast.Unlock, acc: Acc) -> Acc:
        acc.extra += 0.5 * max(0, int(self.num(s.stage, acc)) - self.snap.unlocked)
        return acc

    def s_Prevent(self, s: ast.Prevent, acc: Acc) -> Acc:
        """Worth the expected cost of what it prevents (PREVENT; an event: its worth to me, negated)."""
        acc.dprevent += 1
        acc.extra += self.pv
        return acc

    def s_Discard(self, s: ast.Discard, acc: Acc) -> Acc:
        """A card from hand is worth DISCARD; the player discards nothing it may keep (`any`, `up to`)."""
        mode = s.amount.mode
        n = 0 if mode in ("any", "up_to") else self.snap.hand if mode == "all" else self.num(s.amount.expr, acc)
        n = min(n, self.snap.hand)
        acc.extra -= DISCARD * n
        if s.as_name:
            acc.env[s.as_name] = n
        return acc

    def s_Transfer(self, s: ast.Transfer, acc: Acc) -> Acc:
        snap = self.snap
        cards = s.what in registry.HAND_WORDS
        n = None if s.amount.mode == "all" else self.num(s.amount.expr, acc)
        cur = snap.hand if cards else snap.tracks[s.what] + acc.d[s.what]
        change, points, up, unmoved = transfer(snap, s.direction, s.what, n, cur)
        if cards:
            acc.extra += points
        else:
            acc.d[s.what] += change
        acc.up += up
        if s.as_name:
            acc.env[s.as_name] = unmoved
        return acc

    def s_Choose(self, s: ast.Choose, acc: Acc) -> Acc:
        """Only reached with no answer to weigh (block() weighs the answers): nothing is bound."""
        return acc

    s_May = s_MayPay = s_MayDiscard = s_Choose

    def branch(self, s: ast.If, acc: Acc) -> Acc:
        left, parts = 1.0, []
        for cond, body in s.branches:
            p = left * truth(self.value(cond, acc))
            if p > 0:
                parts.append((p, self.block(body, acc.clone())))
            left -= p
        if left > 0:
            parts.append((left, self.block(s.orelse, acc.clone()) if s.orelse else acc))
        return Acc.mix(parts) if len(parts) > 1 else parts[0][1]

    def verb(self, s: ast.VerbStmt, amount, acc: Acc) -> int:
        """Apply a board or tile verb to the estimate; the number of cells it took."""
        if s.verb in ("reveal", "arrange"):
            n = amount if amount is not None else self.amount(s, acc, acc.counts["tiles"])
            n = max(0, min(int(n), int(acc.counts["tiles"])))
            acc.extra += (REVEAL if s.verb == "reveal" else 0.15) * n
            if s.verb == "reveal":
                acc.counts["tiles"] -= n
            return n
        avail = self.available(s, acc)
        n = amount if amount is not None else self.amount(s, acc, avail)
        left = max(0, min(int(n), avail))
        taken = left
        if s.verb == "move":            # how many: as many as asked; worth: unreadable (UNREADABLE)
            return taken
        for state in VERB_ORDER[s.verb]:
            if state not in KIND_STATES[s.kind] or left <= 0:
                continue
            k = min(left, int(acc.counts[state]))
            self.move(state, VERB_TO[s.verb], k, acc)
            left -= k
        return taken

    def verb_it(self, verb: str, acc: Acc) -> None:
        if verb == "discard":
            acc.extra -= DISCARD
            return
        state = IT_STATE.get(self.trigger or "")
        if state is not None and state in VERB_ORDER.get(verb, ()):
            self.move(state, VERB_TO[verb], 1, acc)

    def move(self, old: str, new: str, k: float, acc: Acc) -> None:
        if k <= 0:
            return
        acc.counts[old] -= k
        if new != "empty":
            acc.counts[new] += k
        if (old, new) == ("mild", "healthy"):
            acc.d["score"] += k
        elif new == "dead":
            acc.d["score"] -= k
        acc.extra += TRANSITION.get((old, new), 0.0) * k

    def available(self, s: ast.VerbStmt, acc: Acc) -> int:
        states = KIND_STATES.get(s.kind, ("tiles",))
        return int(sum(acc.counts[st] for st in states))

    def amount(self, s: ast.VerbStmt, acc: Acc, avail) -> int:
        mode = s.amount.mode
        if mode == "all" or s.amount.expr is None:
            return int(avail)
        return int(self.num(s.amount.expr, acc))

    # ---- expressions --------------------------------------------------------------------------
    def money(self, acc: Acc) -> float:
        return self.snap.tracks["money"] + acc.d["money"]

    def num(self, e, acc: Acc) -> float:
        return num_of(self.value(e, acc))

    def value(self, e, acc: Acc):
        return self.expr(e, acc)

    def e_Num(self, e, acc: Acc):
        return e.value

    e_Str = e_Num

    def e_Name(self, e: ast.Name, acc: Acc):
        return self.name(e.name, acc)

    def e_BinOp(self, e: ast.BinOp, acc: Acc):
        a, b = self.num(e.left, acc), self.num(e.right, acc)
        if e.op == "+":
            return cap(a + b)
        if e.op == "-":
            return cap(a - b)
        if e.op == "*":
            return cap(a * b)
        return cap(a // b)

    def e_Neg(self, e: ast.Neg, acc: Acc):
        return -self.num(e.operand, acc)

    def e_Not(self, e: ast.Not, acc: Acc):
        return 1.0 - truth(self.value(e.operand, acc))

    def e_Compare(self, e: ast.Compare, acc: Acc):
        return float(compare(e.op, self.num(e.left, acc), self.num(e.right, acc)))

    def e_BoolOp(self, e: ast.BoolOp, acc: Acc):
        a, b = truth(self.value(e.left, acc)), truth(self.value(e.right, acc))
        return a * b if e.op == "and" else a + b - a * b

    def e_Call(self, e: ast.Call, acc: Acc):
        return self.call(e, acc)

    def e_It(self, e: ast.It, acc: Acc):
        """The cell's state the trigger gives (IT_STATE), or the event being weighed; a number nowhere."""
        if self.trigger == "event":
            ev = self.snap.ev
            return ev.id if ev is not None else None
        return IT_STATE.get(self.trigger or "")

    def e_CountOf(self, e: ast.CountOf, acc: Acc):
        if e.what == "played":
            where = None if e.where is None else self.card_condition(e.where)
            return count_played(self.snap, acc, where)
        return count_players(self.snap, AccOps, acc, e.what == "other player", self.cond(e.where))

    def card_condition(self, e) -> Callable:
        """COND of `count(played where COND)`, read with one card's (stage, price)."""
        def read(snap, acc, cv):
            outer, self.cv = self.cv, cv
            try:
                return self.value(e, acc)
            finally:
                self.cv = outer
        return read

    def name(self, name: str, acc: Acc):
        if name in acc.env:
            return acc.env[name]
        if name in self.card_params:        # a number the card names (`params:`)
            return self.card_params[name]
        if self.cv is not None and name in registry.CARD_VALUES:
            return self.cv[0] if name == "stage" else self.cv[1]
        snap = self.snap
        if name in acc.d:
            return snap.tracks[name] + acc.d[name]
        c = acc.counts
        if name in c:
            return c[name]
        if name in DERIVED:
            return sum(c[k] for k in DERIVED[name])
        if name == "uses":
            return self.uses
        if name == "hand":
            return snap.hand
        if name == "round":
            return snap.round
        if name == "players":
            return snap.players
        if name == "revealed":
            return float(c["tiles"] <= 0)
        return 0

    def call(self, e: ast.Call, acc: Acc):
        f = e.func
        snap = self.snap
        if f in ("min", "max"):
            vals = [self.num(a, acc) for a in e.args]
            return min(vals) if f == "min" else max(vals)
        if f == "abs":
            return abs(self.num(e.args[0], acc))
        if f == "event":
            ev = snap.ev
            if ev is None:
                return CHANCE["event"]
            return float(self.value(e.args[0], acc) in (ev.id, ev.name))
        if f == "happened":
            ev = snap.ev
            if ev is not None and self.value(e.args[0], acc) in (ev.id, ev.name):
                return 1.0
            return CHANCE["happened"]
        if f == "played":
            ref = self.value(e.args[0], acc)
            return float(any(ref in (x.card.id, x.card.name) and x.on for x in snap.obs.tableau(snap.seat)))
        if f == "unlocked":
            return float(snap.unlocked >= self.num(e.args[0], acc))
        if f in ("highest", "lowest"):
            arg = e.args[0]
            return aggregate(snap, AccOps, acc, f == "highest", lambda w, a: self.value(arg, a))
        return 0


def choice_kind(s) -> str | None:
    """The kind of choice a statement asks its subject ('choose', 'may', 'amount', 'player'), or None."""
    if isinstance(s, ast.Choose):
        return "choose"
    if isinstance(s, (ast.May, ast.MayPay, ast.MayDiscard)):
        return "may"
    if isinstance(s, ast.VerbStmt) and s.amount.mode in ("any", "up_to"):
        return "amount"
    if isinstance(s, ast.ChoosePlayer):
        return "player"
    return None


def truth(v) -> float:
    """A condition as a probability: booleans and numbers are certain, chances are not."""
    if isinstance(v, float) and 0.0 < v < 1.0:
        return v
    return 1.0 if v else 0.0


def compare(op: str, a, b) -> bool:
    return {"==": a == b, "!=": a != b, "<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]


def counter_values(snap: Snapshot, card) -> tuple:
    """The card's counters in its `counters:` order: the player's copy in play, or their start values."""
    return counter_values_of(snap, card.id, card.counters)


def counter_values_of(snap: Snapshot, card_id: str, counters: tuple) -> tuple:
    if snap.counters is None:
        snap.counters = {}
    hit = snap.counters.get(card_id)
    if hit is None:
        now = snap.obs.counters(snap.me, card_id)
        hit = snap.counters[card_id] = tuple(v if now is None else now.get(name, v) for name, v in counters)
    return hit


# ---- a card as a whole ---------------------------------------------------------------------

def handlers(card, form: str | None = None, event: str | None = None):
    program = card.effect
    if program is None:
        return ()
    return tuple(h for h in program.handlers if (form is None or h.form == form) and (event is None or h.event == event))


def play_value(card, snap: Snapshot, uses: int = 1, again: bool = False) -> tuple[float, float]:
    """(worth before price, policy change) of playing a card now, or of executing it again (its
    lasting effects then count for one more use)."""
    acc = on_play(card, snap, uses)
    v = worth(acc, snap)
    if again:
        v += lasting(card, snap, uses) - lasting(card, snap, uses - 1)
    else:
        v += lasting(card, snap, uses) + endgame(card, snap)
    return v, acc.d["policy"]


def setup_value(card, snap: Snapshot) -> float:
    """An advisor's `on setup`, worth now."""
    v = 0
    for h in handlers(card, "on", "setup"):
        v = v + worth(Walker(snap, card=card).run(h.body), snap)
    return v


def on_play(card, snap: Snapshot, uses: int = 1) -> Acc:
    """The effects of the card's `on play`, as the player would resolve it now."""
    walker = Walker(snap, uses=uses, card=card)
    acc = walker.new_acc()
    snap.work = 0
    for h in handlers(card, "on", "play"):
        acc = walker.block(h.body, acc)
    return acc


def coverage(duration, snap: Snapshot) -> tuple[int, float]:
    """(rounds a card in play still acts, what a round of it is worth in all): lasting cards the rounds left,
    discounted by LASTING; `round` (1) one round, undiscounted; N rounds, fewer than are left, at least one."""
    rl = snap.rounds_left
    if duration == "lasting" or (duration != "round" and duration >= rl):
        return rl, rl * LASTING
    if duration == "round" or duration == 1:
        return 1, 1.0
    return duration, max(1.0, duration * LASTING)


def to_end(duration, snap: Snapshot) -> bool:
    """Whether a card played now is still in force at the end of the game."""
    return duration == "lasting" or (duration != "round" and duration >= snap.rounds_left)


def lasting(card, snap: Snapshot, uses: int = 1) -> float:
    """Points from the card staying in the tableau: modifiers, skips, phase handlers, triggers, shields, seals,
    `on game end`, over the rounds it acts."""
    program = card.effect
    if program is None:
        return 0.0
    rounds, per_round = coverage(card.duration, snap)
    v = 0.0
    for item in program.items:
        if isinstance(item, ast.Modify) and item.quantity == "final_penalty":
            v += final_penalty(item, snap, card) if to_end(card.duration, snap) else 0.0
        elif isinstance(item, ast.Modify):
            v += modifier(item, snap, uses, card) * per_round
        elif isinstance(item, ast.Shield):
            v += shield_value(tuple(target for target, _ in item.targets), snap, event_harm) * per_round
        elif isinstance(item, ast.Seal):
            v += seal_value(snap) * per_round
        elif isinstance(item, ast.Skip):
            v += skip_value(item.step, snap, card.id) * per_round
        elif isinstance(item, ast.Handler) and is_lasting(item):
            v += handler_value(item, snap, uses, per_round, rounds, card)
    return v


def is_lasting(h: ast.Handler) -> bool:
    """A handler that acts while the card is in play: not `on play` / `on setup` (they run once) nor `react`."""
    return h.form != "react" and not (h.form == "on" and h.event in ("play", "setup"))


def seal_value(snap: Snapshot) -> float:
    """Points per round of `seal border`: the cross-border infections it would block now, as
    fewer new mild (at most about one neighbour's contagion a round), plus a little for later."""
    if snap.seal is None:
        board = snap.obs.board
        threatened = sum(1 for i, across in borders(snap.obs.geometry, snap.seat)
                         if board[i] == B.HEALTHY and any(board[j] in (B.MILD, B.SEVERE, B.DEAD) for j in across))
        snap.seal = QUANTITY["new_mild"][0] * min(threatened, 3) + 0.2
    return snap.seal


def skip_value(step: str, snap: Snapshot, card_id: str) -> float:
    """Points per round of `skip STEP`: what the step would do on the player's board now (its quantity under
    the player's other modifiers, as far as there are residents for it), at the quantity's weight."""
    if step == "dead_contagion":
        return QUANTITY["new_mild"][0] * dead_spread(snap)
    quantity, state = SKIP[step]
    n = quantity_without(snap, quantity, snap.quantity_base(quantity), card_id)
    k = snap.c[STATE_INDEX[state]]
    return QUANTITY[quantity][0] * (n if n < k else k)


def dead_spread(snap: Snapshot) -> int:
    """The healthy residents next to the player's dead on its own board: what dead contagion infects now."""
    if snap.spread is None:
        geo, board = snap.obs.geometry, snap.obs.board
        nb, owner, seat = geo.neighbours, geo.owner, snap.me
        snap.spread = len({j for i in geo.cells_of[seat] if board[i] == B.DEAD
                           for j in nb[i] if owner[j] == seat and board[j] == B.HEALTHY})
    return snap.spread


def shield_value(targets, snap: Snapshot, harm) -> float:
    """Points per round of `shield …`: SHIELD_OTHERS a target against other players' cards, and for money and
    tracks the average loss the events not yet drawn would bring the player there (read as harm reads them).
    A shield keeps a track from being lowered: `shield disease` keeps the good news out too."""
    v = 0.0
    for target in targets:
        v += SHIELD_OTHERS
        if target in TRACK_INDEX:
            k = TRACK_INDEX[target]
            for card, share in unseen_events(snap):
                v -= share * gain(snap, target, harm(card, snap)[1][k])
    return v


_per_geometry: dict[tuple[int, str, int], tuple] = {}


def of_geometry(geo, what: str, seat: int, make):
    """Something worked out once per geometry and seat (a game's geometry is shared, B.geometry)."""
    key = (id(geo), what, seat)
    hit = _per_geometry.get(key)
    if hit is None or hit[0] is not geo:
        hit = _per_geometry[key] = (geo, make())
    return hit[1]


def borders(geo, seat: int) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """A seat's cells that touch another seat's board, each with the cells across the border."""
    nb, owner = geo.neighbours, geo.owner
    return of_geometry(geo, "borders", seat, lambda: tuple(
        (i, across) for i in geo.cells_of[seat] if (across := tuple(j for j in nb[i] if owner[j] != seat))))


def states_of(cells: tuple[int, ...]):
    """A function from the board to the states of these cells, as a tuple (itemgetter, made safe for one cell)."""
    if len(cells) > 1:
        return operator.itemgetter(*cells)
    return lambda board: tuple(board[i] for i in cells)


def modifier(item: ast.Modify, snap: Snapshot, uses: int, card) -> float:
    """Points per round of one `modify` declaration, given the player's other modifiers."""
    walker = Walker(snap, uses=uses, card=card)
    return modifier_of(walker.num(item.expr, walker.new_acc()), item.quantity, item.floor, snap, card.id)


def modifier_of(d, quantity: str, floor: int | None, snap: Snapshot, card_id: str) -> float:
    """Points per round of a modifier that changes a quantity by d (more discovery only while tiles are left)."""
    weight, better = QUANTITY.get(quantity, (0.0, 1))
    base = snap.quantity_base(quantity)
    cur = quantity_without(snap, quantity, base, card_id)
    new = cur + d
    if floor is not None:
        new = max(new, min(floor, base))
    new = max(0, new)
    if quantity == "discovery":
        tiles = snap.c[4]
        new, cur = min(new, tiles), min(cur, tiles)
    return (new - cur) * better * weight


def quantity_without(snap: Snapshot, name: str, base: int, card_id: str) -> int:
    """The quantity under the player's other active modifiers, so a card never discounts itself."""
    if snap.without is None:
        snap.without = {}
    key = (name, base, card_id)
    if key not in snap.without:
        snap.without[key] = max(0, snap.obs.quantity(snap.seat, name, base, without=card_id))
    return snap.without[key]


def final_penalty(item: ast.Modify, snap: Snapshot, card) -> float:
    """A lower final penalty is worth half a point per negative policy I hold (and one to come)."""
    walker = Walker(snap, card=card)
    return final_penalty_of(walker.num(item.expr, walker.new_acc()), snap)


def final_penalty_of(d, snap: Snapshot) -> float:
    negative = sum(1 for e in snap.obs.tableau(snap.seat) if e.card.score < 0)
    return -d * 0.5 * (1 + negative)


def handler_value(h: ast.Handler, snap: Snapshot, uses: int, per_round: float, rounds: int, card) -> float:
    """A lasting handler: `on game end` once (if the card lasts), a trigger by how often it comes, a phase
    handler each round; `when event:` averaged over the events not yet drawn."""
    trigger = h.event if h.form in ("when", "once") else None

    def read(w: Snapshot) -> float:
        return worth(Walker(w, trigger=trigger, uses=uses, card=card).run(h.body), w)
    if h.event == "game" and h.form == "on":
        return read(snap) if to_end(card.duration, snap) else 0.0
    body = over_events(snap, read, event_harm) if trigger == "event" else read(snap)
    return handler_worth(body, trigger, h.form == "once", snap, per_round, rounds)


def handler_worth(body: float, trigger: str | None, once: bool, snap: Snapshot, per_round: float,
                  rounds: int) -> float:
    """A lasting handler worth `body` each time it runs, by how often its trigger comes."""
    if trigger == "overthrown":
        p, floor = snap.t[2], snap.floor          # 4 and 7 above the floor: -6 and -3 at the default -10
        return body * (1.0 if p <= floor + 4 else 0.3 if p <= floor + 7 else 0.05)
    if trigger in ("death", "death severe"):
        rate = max(0.3, min(snap.c[2], snap.quantity_base("new_dead")))
    elif trigger == "cure":
        rate = max(0.3, min(snap.c[1], snap.t[0] // max(1, Q.mild_cost(snap.obs.rules))))
    elif trigger is not None:
        rate = TRIGGER_RATE.get(trigger, 0.3)
    else:
        rate = 1.0
    if once:
        return body * min(1.0, rate * rounds)
    return body * rate * per_round


def endgame(card, snap: Snapshot) -> float:
    s = card.score
    return s if s >= 0 else min(0, s - snap.final_penalty)


def react_value(card, snap: Snapshot) -> float:
    """A reaction card's worth when its moment comes (before its price); an event's moment, on average over
    the events not yet drawn unless one is being weighed."""
    values = []
    for h in handlers(card, "react"):
        def read(w: Snapshot, h=h) -> float:
            return worth(Walker(w, trigger=h.event, card=card).run(h.body), w)
        values.append(over_events(snap, read, event_harm) if h.event == "event" and snap.ev is None else read(snap))
    return max(values, default=0.0)


# ---- a whole position (the lookahead compares two) ----------------------------------------------------

def position(obs, seat: int, rounds_left: int) -> float:
    """A seat's standing in points: its score, money, tracks per round left, policy, and its residents."""
    t = obs.tracks(seat)
    c = obs.counts(seat)
    ranges, _, floor = ranges_of(obs.rules)
    v = t[3] + t[5] * MONEY + policy_utility(t[2], rounds_left, floor)
    r = rounds_left * LASTING
    for track, per in PER_ROUND.items():
        lo, hi = ranges[track]
        x = t[TRACK_INDEX[track]]
        v += min(hi, max(lo, x)) * per * r
    for state, weight in RESIDENT.items():
        v += c[STATE_INDEX[state]] * weight
    return v


# ---- what the reading cannot value ---------------------------------------------------------------------

@dataclass(frozen=True)
class Unreadable:
    """A construct of a card the reading cannot value, and where it stands."""

    why: str
    pos: ast.Pos

    def __str__(self) -> str:
        return self.why


def unreadable(card) -> tuple[Unreadable, ...]:
    """What in the card's effect the reading cannot value from the text (UNREADABLE), first place of each."""
    program = card.effect
    return unreadable_in(program) if program is not None else ()


def unreadable_in(program: ast.Program) -> tuple[Unreadable, ...]:
    found: dict[str, Unreadable] = {}

    def walk(stmts) -> None:
        for s in stmts:
            if isinstance(s, ast.VerbStmt) and s.verb in UNREADABLE and s.verb not in found:
                found[s.verb] = Unreadable(UNREADABLE[s.verb], s.pos)
            for body in ast.bodies(s):
                walk(body)
    for h in program.handlers:
        walk(h.body)
    return tuple(found.values())
