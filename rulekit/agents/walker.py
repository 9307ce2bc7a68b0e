"""The Walker: the estimate's reading of a card's effect written as rules, statement by statement
(rulekit/agents/estimate.py explains the reading; rulekit/agents/estgen.py writes the same reading out as
Python, and tests/test_estimate_agree.py holds the two together).
"""

from __future__ import annotations

from collections.abc import Callable

from rulekit import registry
from rulekit.agents.snapshot import (
    Acc, AccOps, aggregate, as_event, block_work, cap, choice_kind, choose_options, count_played, count_players,
    each_player, handlers, me_block, meanings, num_of, player_with, Run, Snapshot, transfer, truth, visit, worth,
    worth_at,
)
from rulekit.agents.weights import (
    CHANCE, DERIVED, DISCARD, DRAW, IT_STATE, KIND_STATES, LATER, MAX_REPEAT, PREVENT, REVEAL, TRACK_INDEX, TRACKS,
    TRANSITION, VERB_ORDER, VERB_TO, WORK,
)
from rulekit.language import ast
from rulekit.language import resolve as rs
from rulekit.language.visitor import Visitor

MAX_DIE = registry.MAX_DIE


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
        self.meaning = meanings(card)   # what each name means (Checked.meaning); read, never decided again
        self.cv = None                  # (stage, price) of the card `count(played where …)` is reading
        self.pv = snap.pv if trigger == "event" else PREVENT.get(trigger or "", 0.0)

    def new_acc(self) -> Acc:
        """Nothing found yet, the card's counters as its names."""
        acc = Acc(self.snap)
        card = self.card
        if card is not None and card.counters:
            acc.env = dict(zip((name for name, _ in card.counters), counter_values(self.snap, card), strict=False))
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
                    try:  # noqa: SIM105 - a plain try costs nothing on this hot path; suppress() builds a context
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

    def read(self, e) -> Run:
        return lambda snap, a: self.value(e, a)

    def cond(self, e) -> Run | None:
        return None if e is None else self.read(e)

    # ---- statements ------------------------------------------------------------------------
    def s_TrackChange(self, s: ast.TrackChange, acc: Acc) -> Acc:
        m = self.meaning.get(s)
        # A name that changes, once bound, or a counter (`charges -= 1`); a track otherwise (a name not
        # bound yet reads as no track: its statement fails, as the game's would).
        named = s.track in acc.env if m is None else m.kind in _NAMED and m.name in acc.env
        if named:
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
        return player_with(self.snap, AccOps, acc, s.which, self.read(s.expr), self.body(s.body))

    def s_ChoosePlayer(self, s: ast.ChoosePlayer, acc: Acc) -> Acc:
        """Reached only when I was asked inside it (block() weighs the seats otherwise): mine."""
        return self.block(s.body, acc)

    def s_SeatPlayer(self, s: ast.SeatPlayer, acc: Acc) -> Acc:
        """Unread (UNREADABLE: who sits after me is the table's, not the text's): the lookahead measures it."""
        return acc

    def s_Tag(self, s: ast.Tag, acc: Acc) -> Acc:
        """A tag's worth depends on the cell and its neighbours (UNREADABLE): nothing read."""
        return acc

    def s_ChooseCell(self, s: ast.ChooseCell, acc: Acc) -> Acc:
        """The block, with `it` no cell the reading knows (which cell is chosen: UNREADABLE, the agent looks ahead)."""
        outer, self.trigger = self.trigger, None
        try:
            return self.block(s.body, acc)
        finally:
            self.trigger = outer

    def s_TheyChoose(self, s: ast.TheyChoose, acc: Acc) -> Acc:
        """Who makes the block's choices: the reading weighs the block as if its subject did (as it always has)."""
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

    def s_Draft(self, s: ast.Draft, acc: Acc) -> Acc:
        """A draft gives me one card of the stage (the others take one each too, from what is left)."""
        n = self.num(s.count, acc)
        acc.extra += min(1, max(0, n)) * DRAW.get(int(self.num(s.stage, acc)), 1.0)
        return acc

    def s_Unlock(self, s: ast.Unlock, acc: Acc) -> Acc:
        acc.extra += 0.5 * max(0, int(self.num(s.stage, acc)) - self.snap.unlocked)
        return acc

    def s_Mark(self, s: ast.Mark, acc: Acc) -> Acc:
        """An event's mark is valued by no one: the reading values the cards a player plays, not events' marks."""
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
        if s.what in KIND_STATES:       # residents sent to another board: unreadable (UNREADABLE), all moved
            if s.as_name:
                acc.env[s.as_name] = 0
            return acc
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
        if event_deck(s):               # worth: unreadable (UNREADABLE), measured by the lookahead
            return 0
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
        m = self.meaning.get(e)
        if m is None:                       # no table (a Walker without its card): by the words alone
            return self.name(e.name, acc)
        kind, name = m.kind, m.name
        if kind in _NAMED:                  # the effect's own name, or a counter: 0 until bound
            return acc.env.get(name, 0)
        if kind == rs.TRACK:
            return self.snap.t[TRACK_INDEX[name]] + acc.d[name]
        if kind == rs.COUNT:
            c = acc.counts
            return c[name] if name in c else sum(c[k] for k in DERIVED[name])
        if kind == rs.PARAM:
            return self.card_params.get(name, 0)
        if kind == rs.CARD:                 # the counted card's, inside `count(played where …)`; nothing outside
            cv = self.cv
            return 0 if cv is None else cv[0] if name == "stage" else cv[1]
        if kind == rs.VALUE:
            return self.game_value(name, acc)
        return self.name(name, acc)         # an unknown word (never in a checked card): by the words alone

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
        if e.what in ("played", "tableau"):
            where = None if e.where is None else self.card_condition(e.where)
            return count_played(self.snap, acc, where, e.what == "tableau")
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
        return self.game_value(name, acc)

    def game_value(self, name: str, acc: Acc):
        """A value the game provides (resolve.VALUE): the card's uses, the subject's hand and board, the round."""
        if name == "uses":
            return self.uses
        snap = self.snap
        if name == "hand":
            return snap.hand
        if name == "round":
            return snap.round
        if name == "players":
            return snap.players
        if name == "revealed":
            return float(acc.counts["tiles"] <= 0)
        return 0

    def call(self, e: ast.Call, acc: Acc):
        f = e.func
        snap = self.snap
        if f in ("min", "max"):
            vals = [self.num(a, acc) for a in e.args]
            return min(vals) if f == "min" else max(vals)
        if f == "abs":
            return abs(self.num(e.args[0], acc))
        if f == "roll":                     # a die: its mean; the one being rerolled, at the value tried
            if self.force_kind == "roll" and e.rerolls:
                self.force_kind = None
                return self.force
            return roll_mean(self.num(e.args[0], acc))
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
        if f in ("played", "tableau", "switched_off"):
            ref = self.value(e.args[0], acc)
            return float(any(ref in (x.card.id, x.card.name) and (f == "tableau" or x.on == (f == "played"))
                             for x in snap.obs.tableau(snap.seat)))
        if f == "advisor":
            ref, mine = self.value(e.args[0], acc), snap.obs.advisor(snap.seat)
            return float(mine is not None and ref in (mine.id, mine.name))
        if f == "unlocked":
            return float(snap.unlocked >= self.num(e.args[0], acc))
        if f in ("highest", "lowest"):
            arg = e.args[0]
            return aggregate(snap, AccOps, acc, f == "highest", lambda w, a: self.value(arg, a))
        return 0


_NAMED = (rs.LOCAL, rs.COUNTER)    # the kinds of name an Acc holds by name (Acc.env)


def event_deck(s: ast.VerbStmt) -> bool:
    """`foresee`, `arrange N events`, `reshuffle`: statements on the event deck."""
    return s.kind == registry.EVENTS_WORD and (s.verb in registry.EVENT_VERBS or s.verb == "arrange")


def rerolled(h) -> bool:
    """Does a handler roll a die its subject may roll again (`roll(N, rerolls K)`)?"""
    return any(c.func == "roll" and c.rerolls for c in h.find_all(ast.Call))


def roll_mean(sides) -> float:
    """What a die of `sides` sides gives on average (the reading values a roll by it)."""
    return (max(1, min(sides, MAX_DIE)) + 1) / 2


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
