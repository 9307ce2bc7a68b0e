"""What a card is worth to a player now: a cheap reading of its effect text, in points, for the greedy agent.

The estimate reads the card's syntax tree against a snapshot of the table: every seat's numbers,
no copy of the game, no simulation. Every weight below is a guess a designer can read; the unit
is one point of score.

The reading is in four modules: its weights (rulekit/agents/weights.py), the snapshot of the table and
what both readers share (snapshot.py), the Walker (walker.py), and a card as a whole (here); every
name of the four is importable from here. The Walker is the reading written as rules. The agent runs
the same reading written out as Python once per card (rulekit/agents/estgen.py, which takes its weights from here and mirrors
the Walker step by step): a changed weight reaches both; a changed rule of the Walker must be
made in estgen too, and tests/test_estimate_agree.py fails until the two give the same numbers.
What both readers do alike (visiting players, moving things between them, events, time) is
written once (snapshot.py) and called by both, each with its own way of holding what it found (`AccOps`
here, estgen's list operations there). Neither decides what a name is: both read the checker's table of
what every name means (Checked.meaning, through snapshot.meanings), as the game's own code does.

A few constructs cannot be valued from the text at all; `unreadable(card)` names them, and the
agent measures such a card by a short lookahead instead (rulekit/agents/greedy.py).
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rulekit import registry
from rulekit.agents.snapshot import (
    _RANGES, Acc, AccOps, aggregate, as_event, as_seat, as_seat_value, back, block_work, cap, choice_kind,
    choose_options, count_played, count_players, each_player, gain, handlers, me_block, meanings, num_of, Ops,
    over_events, player_with, policy_utility, ranges_of, read_as, Run, seat_numbers, Snapshot, transfer, truth,
    unseen_events, visit, with_event, worth, worth_at,
)
from rulekit.agents.walker import (
    compare, counter_values, counter_values_of, event_deck, event_harm, rerolled, roll_mean, Walker,
)
from rulekit.agents.weights import (
    CHANCE, DERIVED, DISCARD, DRAW, IT_STATE, KIND_STATES, LASTING, LATER, MAX_NUMBER, MAX_REPEAT, MONEY, OTHERS,
    PER_ROUND, PREVENT, PRICE, QUANTITY, RESIDENT, REVEAL, SHIELD_OTHERS, SKIP, STATE_INDEX, STATES, TAKEN_CARD,
    TRACK_INDEX, TRACKS, TRANSITION, TRIGGER_RATE, UNREADABLE, VERB_ORDER, VERB_TO, WORK,
)
from rulekit.core import board as B
from rulekit.core import quantities as Q
from rulekit.language import ast

# The reading's names, wherever they are written (weights, snapshot, walker or here): `estimate.X` for all.
__all__ = [
    "CHANCE",
    "DERIVED",
    "DISCARD",
    "DRAW",
    "IT_STATE",
    "KIND_STATES",
    "LASTING",
    "LATER",
    "MAX_NUMBER",
    "MAX_REPEAT",
    "MONEY",
    "OTHERS",
    "PER_ROUND",
    "PREVENT",
    "PRICE",
    "QUANTITY",
    "RESIDENT",
    "REVEAL",
    "SHIELD_OTHERS",
    "SKIP",
    "STATES",
    "STATE_INDEX",
    "TAKEN_CARD",
    "TRACKS",
    "TRACK_INDEX",
    "TRANSITION",
    "TRIGGER_RATE",
    "UNREADABLE",
    "VERB_ORDER",
    "VERB_TO",
    "WORK",
    "_RANGES",
    "Acc",
    "AccOps",
    "Ops",
    "Run",
    "Snapshot",
    "Unreadable",
    "Walker",
    "aggregate",
    "as_event",
    "as_seat",
    "as_seat_value",
    "back",
    "block_work",
    "borders",
    "cap",
    "choice_kind",
    "choose_options",
    "compare",
    "count_played",
    "count_players",
    "counter_values",
    "counter_values_of",
    "coverage",
    "dead_spread",
    "each_player",
    "endgame",
    "event_deck",
    "event_harm",
    "final_penalty",
    "final_penalty_of",
    "gain",
    "handler_value",
    "handler_worth",
    "handlers",
    "is_lasting",
    "lasting",
    "me_block",
    "meanings",
    "modifier",
    "modifier_of",
    "num_of",
    "of_geometry",
    "on_play",
    "over_events",
    "play_value",
    "player_with",
    "policy_utility",
    "position",
    "quantity_without",
    "ranges_of",
    "react_value",
    "read_as",
    "rerolled",
    "roll_mean",
    "seal_value",
    "seat_numbers",
    "setup_value",
    "shield_value",
    "skip_value",
    "states_of",
    "to_end",
    "transfer",
    "truth",
    "unreadable",
    "unreadable_in",
    "unseen_events",
    "visit",
    "with_event",
    "worth",
    "worth_at",
]


# ---- a card as a whole ---------------------------------------------------------------------
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
    v: float = 0
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
    return unreadable_in(program, getattr(card, "starts", ())) if program is not None else ()


def unreadable_in(program: ast.Program, starts: Sequence[tuple[str, Any]] = ()) -> tuple[Unreadable, ...]:
    """`starts`: the card's counters whose first value is an expression (name, its Checked)."""
    found: dict[str, Unreadable] = {}
    for _, start in starts[:1]:
        found["counter start"] = Unreadable(UNREADABLE["counter start"], start.condition.pos)
    for h in program.handlers:
        if h.form != "on" and h.event.startswith("other ") and "others' moments" not in found:
            found["others' moments"] = Unreadable(UNREADABLE["others' moments"], h.pos)
    for node in program.find_all((ast.VerbStmt, ast.CountOf, ast.SeatPlayer, ast.Name, ast.ChooseCell, ast.Transfer,
                                   ast.Call, ast.Tag)):
        if isinstance(node, ast.Call):
            if node.func == "caused_by" and "cause" not in found:
                found["cause"] = Unreadable(UNREADABLE["cause"], node.pos)
            continue
        if isinstance(node, ast.SeatPlayer) and node.which == "that":
            continue            # inside `when other …`, named above
        if isinstance(node, ast.SeatPlayer) or (isinstance(node, ast.Name) and node.name == "turn"):
            what: str | None = "turn order"
        elif isinstance(node, ast.ChooseCell):
            what = "choose cell"
        elif isinstance(node, ast.Tag) or (isinstance(node, ast.CountOf) and node.what in registry.CELL_TAGS):
            what = "tags"
        elif isinstance(node, ast.Transfer):
            what = "residents" if node.what in KIND_STATES else None
        elif isinstance(node, ast.VerbStmt | ast.CountOf):
            what = ("next to" if node.near is not None else "event deck" if isinstance(node, ast.VerbStmt)
                    and event_deck(node) else node.verb if isinstance(node, ast.VerbStmt) else None)
        else:
            continue
        if what is not None and what in UNREADABLE and what not in found:
            found[what] = Unreadable(UNREADABLE[what], node.pos)
    for item in program.items:
        for what in declared_unreadable(item):
            found.setdefault(what, Unreadable(UNREADABLE[what], item.pos))
    return tuple(found.values())


def declared_unreadable(item) -> tuple[str, ...]:
    """The words of a declaration the reading cannot value: `while`, `shield … from`, `seal border out|both`,
    `floor`/`ceiling`."""
    words = []
    if isinstance(item, ast.Limit):
        words.append("floor")
    if getattr(item, "cond", None) is not None:
        words.append("while")
    if isinstance(item, ast.Shield) and item.sources:
        words.append("from")
    if isinstance(item, ast.Seal) and item.direction in ("out", "both"):
        words.append("seal out")
    return tuple(words)

