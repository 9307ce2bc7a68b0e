"""What a card is worth to a player now: a cheap reading of its effect text, in points, for the greedy agent.

The estimate reads the card's syntax tree against a snapshot of the player's state: no copy of
the game, no simulation. Every weight below is a guess a designer can read; the unit is one
point of score.

The Walker below is the reading written as rules. The agent runs the same reading written out
as Python once per card (rulekit/agents/estgen.py, which takes its weights from here and mirrors
the Walker step by step): a changed weight reaches both; a changed rule of the Walker must be
made in estgen too, and tests/test_estimate_agree.py fails until the two give the same numbers.
"""

from __future__ import annotations

import operator

from rulekit import registry
from rulekit.core import board as B
from rulekit.language import ast
from rulekit.language.visitor import Visitor

MONEY = 0.3           # a coin, in points: about what a coin buys elsewhere
LASTING = 0.6         # discount on effects that repeat every round: the future is uncertain
OTHERS = 0.25         # what another player's gain costs me (a point for them = -0.25 for me)
PER_ROUND = {"medical": 0.45, "disease": -0.6, "economy": MONEY}
TRACK_RANGE = {"medical": (0, 15), "disease": (0, 20), "economy": (0, 10)}
DRAW = {1: 1.0, 2: 1.5, 3: 2.0}   # a card kept from a draw, by stage
REVEAL = 0.3          # a tile revealed early: a fully revealed board scores each event phase, less the risk
# A modified quantity: (points per unit per round, +1 if more is better / -1 if less is better).
QUANTITY = {"new_mild": (0.8, -1), "new_severe": (0.6, -1), "new_dead": (1.2, -1), "income": (MONEY, 1),
            "mild_cost": (0.5, -1), "severe_cost": (0.4, -1), "bury_cost": (0.1, -1),
            "relocate_cost": (0.05, -1), "discovery": (0.0, 1)}
# Beyond the score a change of cell state scores (cure +1, death -1): what it does to the spread.
TRANSITION = {("mild", "healthy"): 0.5, ("severe", "mild"): 0.9, ("healthy", "mild"): -1.0,
              ("mild", "severe"): -0.8, ("healthy", "dead"): -0.6, ("mild", "dead"): -0.6,
              ("severe", "dead"): -0.3, ("dead", "empty"): 1.0, ("severe", "empty"): 0.9,
              ("mild", "empty"): 0.5, ("healthy", "empty"): -1.2}
# Which residents a verb takes first when it may take several states (the agent answers the same way).
VERB_ORDER = {"cure": ("mild",), "treat": ("severe",), "infect": ("healthy",), "worsen": ("mild",),
              "kill": ("severe", "mild", "healthy"), "remove": ("dead", "severe", "mild", "healthy")}
VERB_TO = {"cure": "healthy", "treat": "mild", "infect": "mild", "worsen": "severe", "kill": "dead",
           "remove": "empty"}
KIND_STATES = {"healthy": ("healthy",), "mild": ("mild",), "severe": ("severe",), "dead": ("dead",),
               "infected": ("mild", "severe"), "alive": ("healthy", "mild", "severe"),
               "resident": ("healthy", "mild", "severe", "dead")}
STATES = ("healthy", "mild", "severe", "dead", "tiles")
# The state of `it` in a handler of each trigger, and how often the trigger comes per round.
IT_STATE = {"reveal mild": "mild", "reveal healthy": "healthy", "reveal": "mild", "death": "severe"}
TRIGGER_RATE = {"reveal": 2.0, "reveal mild": 0.4, "reveal healthy": 1.6, "unsold": 0.3}
PREVENT = {"death": 1.6, "overthrown": 20.0}
DISCARD = 0.2         # a card from hand given up (`discard`, `may discard`)
CHANCE = {"event": 0.15, "happened": 0.3}   # unknown future events, as a probability


TRACKS = ("medical", "disease", "policy", "score", "economy", "money")
# The reading keeps to the game's own limits (registry.LIMITS): a number past the ceiling fails its
# statement (worth nothing, as any statement the reading cannot read), and one reading runs at most
# as many statements as one effect may, counted over every answer it weighs; what is left unread then
# is worth nothing. So no card's text can make a decision hang.
MAX_NUMBER = registry.MAX_NUMBER
WORK = registry.LIMITS["effect_steps"].value


def cap(v):
    """A number the reading computed, within the game's number limit (OverflowError past it, as the
    game stops there)."""
    if -MAX_NUMBER <= v <= MAX_NUMBER:
        return v
    raise OverflowError("a number beyond the limit")


def block_work(stmts) -> int:
    """The statements one run of a block reads before it branches: up to its first choice, or all."""
    return next((k + 1 for k, s in enumerate(stmts) if choice_kind(s) is not None), len(stmts))


class Snapshot:
    """The numbers an estimate reads, taken once per question, and the parameters of the reading under way.

    `key` tells two snapshots of the same numbers apart from the rest: the agent keeps what it
    worked out while the key stays the same.
    """

    __slots__ = ("__dict__", "base", "c", "final_penalty", "hand", "key", "obs", "players", "r", "round",
                 "rounds_left", "seat", "t", "tf", "unlocked")
    # Worked out at most once a question, when first needed: policy_utility at today's policy,
    # seal_value, and quantities without one card's modifier.
    pu0 = seal = without = None
    # The reading under way (Walker's parameters, for the generated reading): uses, the answer
    # forced at the first choice of kind fk, whether the player is the subject of every block, and
    # the statements read so far (against WORK).
    uses, fk, force, as_subject, work = 1, None, None, False, 0

    def __init__(self, obs, seat: int):
        self.obs, self.seat = obs, seat
        self.key = rnd, _, t, c, hand, unlocked, _, players = self.key_of(obs, seat)
        self.t, self.c, self.hand, self.round, self.unlocked, self.players = t, c, hand, rnd, unlocked, players
        self.tf = tuple(map(float, t))        # the tracks as floats, for the generated reading (estgen)
        self.base = [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, *c, 0.0, 0.0]              # a new Acc, as a list (estgen)
        left, events = obs.rules.max_rounds - rnd + 1, obs.events_left
        rl = events if events < left else left
        self.rounds_left = rl = rl if rl > 1 else 1                            # max(1, min(left, events))
        self.r = rl * LASTING
        self.final_penalty = obs.quantity(seat, "final_penalty", 0)

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
        rules, t = self.obs.rules, self.t
        if name == "new_mild":
            return t[1] // 3
        if name in ("new_severe", "new_dead"):
            return t[1] // 4
        if name == "income":
            return t[4] + self.c[0] // 2
        if name == "mild_cost":
            return rules.mild_cost
        if name == "severe_cost":
            return rules.severe_cost
        if name == "discovery":
            return rules.discovery
        return 1


def policy_utility(p: float, rounds_left: int) -> float:
    """Concave: a point below 0 costs a point per event phase; near -10 the player may be overthrown.

    At 0 or above: half a point for each of the first 3, a tenth for each beyond. Below 0: 0.4 a
    point per round left (5 at most counted), less 1.5 times the square of how far it is below -5;
    below -10, -60. (min and max written as conditionals: this is weighed hundreds of times a game.)
    """
    if p < -10:
        return -60.0
    if p >= 0:
        beyond = p - 3
        return 0.5 * (3 if 3 < p else p) + 0.1 * (beyond if beyond > 0.0 else 0.0)
    rounds = 5 if 5 < rounds_left else rounds_left
    under = -5 - p
    return p * 0.4 * rounds - 1.5 * (under if under > 0.0 else 0.0) ** 2


class Acc:
    """The effects found so far: track deltas, residents moved, and points that need no track."""

    __slots__ = ("counts", "d", "dprevent", "env", "extra")

    def __init__(self, snap: Snapshot):
        self.d = dict.fromkeys(snap.tracks, 0.0)
        self.counts = dict(snap.counts)
        self.extra = 0.0
        self.env: dict = {}
        self.dprevent = 0.0

    def clone(self) -> Acc:
        c = Acc.__new__(Acc)
        c.d, c.counts, c.extra, c.env, c.dprevent = dict(self.d), dict(self.counts), self.extra, dict(self.env), self.dprevent
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
        return out


def worth(acc: Acc, snap: Snapshot) -> float:
    """Points the effects found are worth to the snapshot's player."""
    t, d = snap.tracks, acc.d
    r = snap.rounds_left * LASTING
    v = acc.extra + d["score"] + d["money"] * MONEY
    for track, per in PER_ROUND.items():
        lo, hi = TRACK_RANGE[track]
        v += (min(hi, max(lo, t[track] + d[track])) - t[track]) * per * r
    v += policy_utility(t["policy"] + d["policy"], snap.rounds_left) - policy_utility(t["policy"], snap.rounds_left)
    return v


class Walker(Visitor, walks=("statements", "expressions")):
    """Reads one handler body against a snapshot; choices inside it are taken the best way for the player.

    A method per statement (`s_…`) and per expression (`e_…`) of the language, as every walker of
    the trees has (rulekit.language.visitor): a new statement cannot be passed over unnoticed. What
    the reading does not weigh says so in its method.
    """

    def __init__(self, snap: Snapshot, trigger: str | None = None, force=None, force_kind: str | None = None,
                 uses: int = 1, as_subject: bool = False, params: dict[str, int] | None = None):
        self.snap = snap
        self.params = params or {}      # the numbers the card names (`params:`): constants
        self.trigger = trigger
        self.force = force              # the answer to try at the first choice of force_kind
        self.force_kind = force_kind    # 'choose' | 'amount' | 'may'
        self.uses = uses
        self.as_subject = as_subject    # I am the subject of every player block (I was asked)

    def run(self, stmts) -> Acc:
        self.snap.work = 0
        return self.block(tuple(stmts), Acc(self.snap))

    # ---- blocks, with the choices they hold --------------------------------------------
    def block(self, stmts: tuple, acc: Acc) -> Acc:
        snap = self.snap
        snap.work += block_work(stmts)
        if snap.work > WORK:
            return acc
        for k, s in enumerate(stmts):
            options = self.choice(s, acc)
            if options is not None:
                rest = stmts[k + 1:]
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

    def choice(self, s, acc: Acc) -> list | None:
        """The answers to weigh at a choice point, or None when s is not one."""
        kind = choice_kind(s)
        if kind is None:
            return None
        if self.force_kind == kind:
            self.force_kind = None
            return [self.force]
        try:
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

    # ---- statements ------------------------------------------------------------------------
    def s_TrackChange(self, s: ast.TrackChange, acc: Acc) -> Acc:
        if s.track in acc.env:                  # a name that changes (`fewest = min(fewest, infected)`)
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
        return self.players(s, acc)

    s_PlayerWith = s_ChoosePlayer = s_EachPlayer

    def s_Me(self, s: ast.Me, acc: Acc) -> Acc:
        """Read as the player's own effects, wherever the block stands."""
        return self.block(s.body, acc)

    def s_After(self, s: ast.After, acc: Acc) -> Acc:
        """Read as if the block ran now: the reading does not discount what comes later."""
        return self.block(s.body, acc)

    def s_Repeat(self, s: ast.Repeat, acc: Acc) -> Acc:
        for _ in range(max(0, min(10, int(self.num(s.count, acc))))):
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
        acc.dprevent += 1
        acc.extra += PREVENT.get(self.trigger or "", 0.0)
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
        """Not weighed: what it is worth depends on which of two players the reading stands for."""
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

    def players(self, s, acc: Acc) -> Acc:
        """My share of a player block, and what the others gain, at OTHERS a point."""
        if self.as_subject:
            return self.block(s.body, acc)
        n = self.snap.players
        if isinstance(s, ast.PlayerWith):
            mine, others = 1 / n, (n - 1) / n
        else:
            p = truth(self.value(s.where, acc)) if s.where is not None else 1.0
            if isinstance(s, ast.ChoosePlayer):      # one player, chosen among n (n - 1 when other)
                mine, others = (0.0, p) if s.other else (p / n, p * (n - 1) / n)
            else:
                mine, others = (0.0 if s.other else p), (n - 1) * p
        if others:
            theirs = self.block(s.body, Acc(self.snap))
            acc.extra -= OTHERS * others * worth(theirs, self.snap)
        if mine:
            acc = Acc.mix([(mine, self.block(s.body, acc.clone())), (1 - mine, acc)]) if mine < 1 else \
                self.block(s.body, acc)
        return acc

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
        v = self.value(e, acc)
        return v if isinstance(v, (int, float)) else 0

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
        """Not read: the cell a trigger is about is not part of the snapshot."""
        return 0

    def e_CountOf(self, e: ast.CountOf, acc: Acc):
        """Not read: other players and the cards in play are not part of the snapshot's numbers."""
        return 0

    def name(self, name: str, acc: Acc):
        if name in acc.env:
            return acc.env[name]
        if name in self.params:
            return self.params[name]
        snap = self.snap
        if name in acc.d:
            return snap.tracks[name] + acc.d[name]
        c = acc.counts
        derived = {"infected": ("mild", "severe"), "alive": ("healthy", "mild", "severe"),
                   "resident": ("healthy", "mild", "severe", "dead")}
        if name in c:
            return c[name]
        if name in derived:
            return sum(c[k] for k in derived[name])
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
        if f in ("min", "max"):
            vals = [self.num(a, acc) for a in e.args]
            return min(vals) if f == "min" else max(vals)
        if f == "abs":
            return abs(self.num(e.args[0], acc))
        if f in CHANCE:
            return CHANCE[f]
        if f == "played":
            ref = self.value(e.args[0], acc)
            return float(any(ref in (x.card.id, x.card.name) and x.on for x in self.snap.obs.tableau(self.snap.seat)))
        if f == "unlocked":
            return float(self.snap.unlocked >= self.num(e.args[0], acc))
        return 0        # not read: highest/lowest (other players are not in the snapshot's numbers)


def choice_kind(s) -> str | None:
    """The kind of choice a statement asks its subject ('choose', 'may', 'amount'), or None."""
    if isinstance(s, ast.Choose):
        return "choose"
    if isinstance(s, (ast.May, ast.MayPay, ast.MayDiscard)):
        return "may"
    if isinstance(s, ast.VerbStmt) and s.amount.mode in ("any", "up_to"):
        return "amount"
    return None


def truth(v) -> float:
    """A condition as a probability: booleans and numbers are certain, chances are not."""
    if isinstance(v, float) and 0.0 < v < 1.0:
        return v
    return 1.0 if v else 0.0


def compare(op: str, a, b) -> bool:
    return {"==": a == b, "!=": a != b, "<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]


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


def on_play(card, snap: Snapshot, uses: int = 1) -> Acc:
    """The effects of the card's `on play`, as the player would resolve it now."""
    acc = Acc(snap)
    walker = Walker(snap, uses=uses, params=dict(card.params))
    snap.work = 0
    for h in handlers(card, "on", "play"):
        acc = walker.block(h.body, acc)
    return acc


def lasting(card, snap: Snapshot, uses: int = 1) -> float:
    """Points from the card staying in the tableau: modifiers, phase handlers, triggers, shields, seals."""
    program = card.effect
    if program is None:
        return 0.0
    per_round = snap.rounds_left * LASTING if card.duration != "round" else 1.0
    v = 0.0
    params = dict(card.params)
    for item in program.items:
        if isinstance(item, ast.Modify) and item.quantity == "final_penalty":
            v += final_penalty(item, snap, params)
        elif isinstance(item, ast.Modify):
            v += modifier(item, snap, uses, card.id, params) * per_round
        elif isinstance(item, ast.Shield):
            v += 0.1 * snap.rounds_left * len(item.targets)
        elif isinstance(item, ast.Seal):
            v += seal_value(snap) * per_round
        elif isinstance(item, ast.Handler) and item.form != "react" and item.event not in ("play", "setup"):
            v += handler_value(item, snap, uses, per_round, params)
    return v


def seal_value(snap: Snapshot) -> float:
    """Points per round of `seal border`: the cross-border infections it would block now, as
    fewer new mild (at most about one neighbour's contagion a round), plus a little for later."""
    if snap.seal is None:
        board = snap.obs.board
        threatened = sum(1 for i, across in borders(snap.obs.geometry, snap.seat)
                         if board[i] == B.HEALTHY and any(board[j] in (B.MILD, B.SEVERE, B.DEAD) for j in across))
        snap.seal = QUANTITY["new_mild"][0] * min(threatened, 3) + 0.2
    return snap.seal


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


def modifier(item: ast.Modify, snap: Snapshot, uses: int, card_id: str, params: dict[str, int] | None = None) -> float:
    """Points per round of one `modify` declaration, given the player's other modifiers."""
    return modifier_of(Walker(snap, uses=uses, params=params).num(item.expr, Acc(snap)), item.quantity, item.floor,
                       snap, card_id)


def modifier_of(d, quantity: str, floor: int | None, snap: Snapshot, card_id: str) -> float:
    """Points per round of a modifier that changes a quantity by d."""
    weight, better = QUANTITY.get(quantity, (0.0, 1))
    base = snap.quantity_base(quantity)
    cur = quantity_without(snap, quantity, base, card_id)
    new = cur + d
    if floor is not None:
        new = max(new, min(floor, base))
    new = max(0, new)
    return (new - cur) * better * weight


def quantity_without(snap: Snapshot, name: str, base: int, card_id: str) -> int:
    """The quantity under the player's other active modifiers, so a card never discounts itself."""
    if snap.without is None:
        snap.without = {}
    key = (name, base, card_id)
    if key not in snap.without:
        snap.without[key] = max(0, snap.obs.quantity(snap.seat, name, base, without=card_id))
    return snap.without[key]


def final_penalty(item: ast.Modify, snap: Snapshot, params: dict[str, int] | None = None) -> float:
    """A lower final penalty is worth half a point per negative policy I hold (and one to come)."""
    return final_penalty_of(Walker(snap, params=params).num(item.expr, Acc(snap)), snap)


def final_penalty_of(d, snap: Snapshot) -> float:
    negative = sum(1 for e in snap.obs.tableau(snap.seat) if e.card.score < 0)
    return -d * 0.5 * (1 + negative)


def handler_value(h: ast.Handler, snap: Snapshot, uses: int, per_round: float,
                  params: dict[str, int] | None = None) -> float:
    trigger = h.event if h.form in ("when", "once") else None
    body = worth(Walker(snap, trigger=trigger, uses=uses, params=params).run(h.body), snap)
    return handler_worth(body, trigger, h.form == "once", snap, per_round)


def handler_worth(body: float, trigger: str | None, once: bool, snap: Snapshot, per_round: float) -> float:
    """A lasting handler worth `body` each time it runs, by how often its trigger comes."""
    if trigger == "overthrown":
        p = snap.t[2]
        return body * (1.0 if p <= -6 else 0.3 if p <= -3 else 0.05)
    if trigger == "death":
        rate = max(0.3, min(snap.c[2], snap.quantity_base("new_dead")))
    elif trigger is not None:
        rate = TRIGGER_RATE.get(trigger, 0.3)
    else:
        rate = 1.0
    if once:
        return body * min(1.0, rate * snap.rounds_left)
    return body * rate * per_round


def endgame(card, snap: Snapshot) -> float:
    s = card.score
    return s if s >= 0 else min(0, s - snap.final_penalty)


def react_value(card, snap: Snapshot) -> float:
    """A reaction card's worth when its moment comes (before its price)."""
    return max((worth(Walker(snap, trigger=h.event, params=dict(card.params)).run(h.body), snap)
                for h in handlers(card, "react")), default=0.0)
