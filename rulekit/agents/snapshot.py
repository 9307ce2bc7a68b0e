"""The estimate's view of the table (rulekit/agents/estimate.py explains the reading): a Snapshot of every
seat's numbers taken once per question, what a reading found so far (Acc), what that is worth, and the
readings both readers share (visiting players, moving things between them, events, time).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol, TypeVar

from rulekit import registry
from rulekit.agents.weights import (
    DISCARD, LASTING, MAX_NUMBER, MONEY, OTHERS, PER_ROUND, PRICE, STATES, TAKEN_CARD, TRACK_INDEX, TRACKS,
)
from rulekit.core import quantities as Q
from rulekit.language import ast
from rulekit.language.resolve import Meaning, resolve_program

T = TypeVar("T")


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
    pu0: float | None = None
    seal: float | None = None
    without: dict[tuple[str, int, str], int] | None = None
    seats: dict[int, tuple[tuple[int, ...], tuple[float, ...], tuple[int, ...], int, int]] | None = None
    unseen: tuple[tuple[Any, float], ...] | None = None
    harm: dict[tuple[str, str], tuple[float, tuple[float, ...]]] | None = None
    spread: int | None = None
    counters: dict[str, tuple[int, ...]] | None = None
    # The reading under way (Walker's parameters, for the generated reading): uses, the answer
    # forced at the first choice of kind fk, whether the player is the subject of every block, and
    # the statements read so far (against WORK).
    uses: int = 1
    fk: str | None = None
    force: Any = None
    as_subject: bool = False
    work: int = 0
    # An event being weighed (`when event:`, `event(…)`), and what preventing it is worth; a reading
    # of an event for the player only (no other seat's gain counts), with the losses it found.
    ev: Any = None
    pv: float = 0.0
    mine_only: bool = False
    losses: list[float] | None = None

    def __init__(self, obs, seat: int):
        self.obs, self.seat, self.me = obs, seat, seat
        self.key = rnd, _, t, c, hand, unlocked, _, players = self.key_of(obs, seat)
        self.t, self.c, self.hand, self.round, self.unlocked, self.players = t, c, hand, rnd, unlocked, players
        self.mine_t = t
        self.tf = tuple(map(float, t))        # the tracks as floats, for the generated reading (estgen)
        self.base = [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, *c, 0.0, 0.0, 0.0]         # a new Acc, as a list (estgen)
        self.order = obs.in_order()
        self.who: list[int | None] = [seat]                    # the subject of each block being read, outermost first
        left, events = obs.rules.max_rounds - rnd + 1, obs.events_left
        rl = events if events < left else left
        self.rounds_left = rl = rl if rl > 1 else 1                            # max(1, min(left, events))
        self.r = rl * LASTING
        self.final_penalty = obs.quantity(seat, "final_penalty", Q.final_penalty())
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
        return dict(zip(TRACKS, self.t, strict=True))

    @property
    def counts(self) -> dict[str, int]:
        return dict(zip(STATES, self.c, strict=True))

    def quantity_base(self, name: str) -> int:
        """The base of the subject's quantity by the rules' own formula (core.quantities); a price: a typical one."""
        if name in Q.CARD_BASED:
            return PRICE
        t = self.t
        return Q.base(name, self.obs.rules, t[1], t[4], self.c[0])


def ranges_of(rules) -> tuple[dict[str, tuple[int, int]], tuple[float, ...], int]:
    """(lowest, highest) of each track weighed per round (PER_ROUND), the same as floats in one flat tuple
    (lowest, highest of each in turn, for the generated reading), and policy's lowest (below it a player is
    overthrown): read from the rules in force, once for each rules object in a row (a snapshot is taken
    every question, so the last one is kept)."""
    last = _RANGES[0]
    if last is not None and last[0] is rules:
        return last[1]
    ranges = {track: rules.bound(track)[:2] for track in PER_ROUND}
    flat = tuple(float(x) for lo_hi in ranges.values() for x in lo_hi)
    hit = (ranges, flat, rules.bound("policy")[0])
    _RANGES[0] = (rules, hit)
    return hit


_RANGES: list[tuple[object, tuple[dict[str, tuple[int, int]], tuple[float, ...], int]] | None] = [None]


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
        self.d: dict[str, float] = dict.fromkeys(TRACKS, 0.0)
        self.counts: dict[str, float] = dict(snap.counts)
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
Run = Callable[[Snapshot, Any], Any]


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
    for p, v in zip(snap.order, values, strict=False):
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


def count_played(snap: Snapshot, acc, where: Callable | None, every: bool = False) -> float:
    """`count(played where COND)`: the subject's played cards that are on (`count(tableau …)`, every: switched
    off too), COND read with each card's (stage, first price)."""
    total = 0.0
    for e in snap.obs.tableau(snap.seat):
        if e.on or every:
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


def with_event(snap: Snapshot, card, fn: Callable[[Snapshot], T], harm) -> T:
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


# ---- what the effect's names mean --------------------------------------------------------------------

_resolved: dict[int, tuple[ast.Program, Mapping[ast.Node, Meaning]]] = {}


def meanings(card) -> Mapping[ast.Node, Meaning]:
    """What every name of the card's effect means, for both readers: the checker's table (Checked.meaning,
    rulekit/language/resolve.py), or for a card made without the checker (a test's, a scenario file's) the
    resolver's table of its effect, made once per effect. A combo's table already holds its `when:` too
    (the loader merges the two). Empty for no card: a reader then goes by the words alone."""
    program = card.effect if card is not None else None
    if program is None:
        return {}
    checked = card.checked
    if checked is not None and checked.program is program:
        return checked.meaning
    hit = _resolved.get(id(program))
    if hit is None or hit[0] is not program:
        table = resolve_program(program, counters=[name for name, _ in card.counters], params=dict(card.params)).meaning
        hit = _resolved[id(program)] = (program, table)
    return hit[1]


def handlers(card, form: str | None = None, event: str | None = None):
    program = card.effect
    if program is None:
        return ()
    return tuple(h for h in program.handlers if (form is None or h.form == form) and (event is None or h.event == event))
