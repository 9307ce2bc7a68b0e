"""The greedy estimate as Python: each card's reading (rulekit.agents.estimate) generated once, run many times.

estimate.py holds the weights and the reference reading, a walk over the card's syntax tree.
This module writes the same reading as Python source, one small module per card, compiled the
first time the card is weighed and kept for as long as the card is loaded. A decision then
costs a few lines of arithmetic instead of a tree walk.

The generated code does what the reference walk does, operation by operation, in the same order
and on the same types, so the two give the same floats to the last bit
(tests/test_estimate_agree.py checks it on every card of the shipped content):

- the effects found so far (estimate.Acc) are one list: the six track deltas in TRACKS order,
  the five board counts in STATES order, the extra points, the prevented count, the points that
  reach the player from another seat's block (`up`), then one slot per counter of the card and
  per name it binds (`let`, `choose`, `as`), UNBOUND until bound;
- every block is a function of (snapshot, list); at a choice (`choose`, `may`, `any` / `up to`
  amounts) the rest of the block is a function of its own, run once per answer;
- a statement the reference skips because it raised is skipped here by the same `try`;
- every `+ - * //` goes through estimate.cap, and every block adds the statements it reads to
  w.work and reads nothing once it passes estimate.WORK, as the reference does (the game's limits);
- what the two readers share (player blocks, `take`/`give`, `me:`, counts, events) is estimate's
  own code, called with the list operations below (ListOps) where the Walker passes AccOps.
"""

from __future__ import annotations

import weakref

from rulekit import registry
from rulekit.agents import estimate as E
from rulekit.language import ast
from rulekit.language import resolve as rs
from rulekit.language.visitor import Visitor

ERRORS = (ArithmeticError, TypeError, ValueError, KeyError)   # what the reference walk skips
UNBOUND = object()
TRACK = {name: k for k, name in enumerate(E.TRACKS)}
COUNT = {name: len(E.TRACKS) + k for k, name in enumerate(E.STATES)}
EXTRA = len(E.TRACKS) + len(E.STATES)
PREVENTED = EXTRA + 1
UP = PREVENTED + 1
SLOTS = UP + 1                 # the first slot of a counter or bound name; what Acc.mix combines comes before it
DERIVED = E.DERIVED
COMPARE = ("==", "!=", "<", "<=", ">", ">=")
KINDS = ("choose", "may", "amount", "player")
NAMED = (rs.LOCAL, rs.COUNTER)     # the kinds of name the list holds in a slot of its own


# ---- what generated code calls ------------------------------------------------------------------------

def _num(v):
    return v if isinstance(v, (int, float)) else 0


def _bor(a, b):
    return a + b - a * b


def _compare(op, a, b):
    return float(E.compare(op, a, b))


def _played(w, ref, f="played"):
    """played / tableau / switched_off (Walker.call): a card of the subject's tableau, on, either, or off."""
    return float(any(ref in (x.card.id, x.card.name) and (f == "tableau" or x.on == (f == "played"))
                     for x in w.obs.tableau(w.seat)))


def _advisor(w, ref):
    mine = w.obs.advisor(w.seat)
    return float(mine is not None and ref in (mine.id, mine.name))


def _roll(w, sides, rerolled: bool):
    """Walker.call's `roll`: the mean of the die, or the value tried at the first die that may be rerolled."""
    if rerolled and w.fk == "roll":
        w.fk = None
        return w.force
    return E.roll_mean(sides)


def _missing():
    raise IndexError("a function called without its argument")


def _no_count(state):
    raise KeyError(state)


def _weight(wa):
    return wa[0]


def _mix(parts):
    """estimate.Acc.mix on lists (the same sums: sum() of the same terms in the same order)."""
    if len(parts) == 2:
        (u, a), (v, b) = parts
        return _mix2(u, a, v, b)
    out = max(parts, key=_weight)[1][:]
    out[:SLOTS] = [sum([w * a[k] for w, a in parts]) for k in range(SLOTS)]
    return out


def _function(source: str, name: str, namespace: dict):
    """The function `name` defined by generated source."""
    exec(compile(source, f"<rulekit estimate {name}>", "exec"), namespace)
    return namespace[name]


# _mix of two outcomes (the commonest mix: if/else, a player block), each slot's sum written out.
_SUMS = ", ".join(f"sum((u * a[{k}], v * b[{k}]))" for k in range(SLOTS))
_mix2 = _function(f"def _mix2(u, a, v, b):\n    out = (b if v > u else a)[:]\n    out[:{SLOTS}] = ({_SUMS})\n"
                  "    return out\n", "_mix2", {})


def _branch(w, a, options, take, rest):
    """A choice: the rest of the block after each answer; the outcome worth most, the first of equals
    (estimate.Walker.block)."""
    best = top = None
    for o in options:
        try:
            x = rest(w, take(w, o, a[:]))
        except ERRORS:
            continue
        v = worth(x, w)
        if best is None or v > top:
            best, top = x, v
    if best is None:
        return rest(w, a)
    return best


def _worth_lines() -> list[str]:
    """estimate.worth of the list `a` to the snapshot `w`, leaving it in `v`: written out from PER_ROUND
    and the snapshot's track ranges (the rules'), one loop turn per line, with the same values at every step:

    - `y if y > lo else lo` is max(lo, y) and `y if y < hi else hi` is min(hi, y), without two calls;
    - the tracks and the bounds are read as floats (w.tf): a track delta is always a float, and an
      int meets a float as the float of the same value, so every sum and difference is the same
      number, reached by the interpreter's faster float operations."""
    p = TRACK["policy"]
    # With no change of policy the reference adds utility(p + 0.0) - utility(p), which is 0.0 exactly.
    return [*_track_lines("w.r"), f"if a[{p}]:",
                                  "    u = w.pu0",
                                  "    if u is None:",
                                  f"        u = w.pu0 = policy_utility(w.t[{p}], w.rounds_left, w.floor)",
                                  f"    v += policy_utility(t[{p}] + a[{p}], w.rounds_left, w.floor) - u",
                                  "else:",
                                  "    v += 0.0"]


def _worth_at_lines() -> list[str]:
    """estimate.worth_at of the list `a` to the snapshot `w` with `rl` rounds left, leaving it in `v`: as
    _worth_lines, the policy's two utilities read at rl."""
    p = TRACK["policy"]
    return [*_track_lines(f"rl * {E.LASTING!r}"),
            f"v += policy_utility(t[{p}] + a[{p}], rl, w.floor) - policy_utility(w.t[{p}], rl, w.floor)"]


def _track_lines(r: str) -> list[str]:
    """The worth of everything but policy, leaving it in `v`, with `r` the rounds left times LASTING."""
    lines = ["t = w.tf",
             "b = w.fbounds",
             f"r = {r}",
             f"v = a[{EXTRA}] + a[{TRACK['score']}] + a[{TRACK['money']}] * {E.MONEY!r}"]
    for n, (track, per) in enumerate(E.PER_ROUND.items()):
        lo, hi = f"b[{2 * n}]", f"b[{2 * n + 1}]"      # the track's range in the rules (Snapshot.fbounds)
        k = TRACK[track]
        lines += [f"y = t[{k}] + a[{k}]",
                  f"y = y if y > {lo} else {lo}",
                  f"v += ((y if y < {hi} else {hi}) - t[{k}]) * {per!r} * r"]
    return lines


worth = _function("def worth(a, w):\n" + "".join(f"    {x}\n" for x in _worth_lines()) + "    return v\n", "worth",
                  {"policy_utility": E.policy_utility})
worth.__doc__ = "Points the effects found (a list) are worth to the snapshot's player: estimate.worth."


worth_at = _function("def worth_at(a, w, rl):\n" + "".join(f"    {x}\n" for x in _worth_at_lines()) + "    return v\n",
                     "worth_at", {"policy_utility": E.policy_utility})
worth_at.__doc__ = "estimate.worth_at on a list: the worth if rl rounds were left."


class ListOps:
    """estimate.AccOps on the generated reading's lists."""

    @staticmethod
    def fresh(w, a: list) -> list:
        return w.base + a[SLOTS:]

    @staticmethod
    def clone(a: list) -> list:
        return a[:]

    mix = staticmethod(_mix)
    worth = staticmethod(worth)

    @staticmethod
    def add_extra(a: list, v: float) -> None:
        a[EXTRA] += v

    @staticmethod
    def up(a: list) -> float:
        return a[UP]

    @staticmethod
    def add_up(a: list, v: float) -> None:
        a[UP] += v

    @staticmethod
    def set_env(dst: list, src: list) -> None:
        dst[SLOTS:] = src[SLOTS:]

    @staticmethod
    def deltas(a: list) -> tuple:
        return tuple(a[:len(E.TRACKS)])


def harm(card, w) -> tuple[float, tuple]:
    """estimate.as_event, read by the card's generated `on resolve` (estimate.event_harm)."""
    return E.as_event(w, card, "generated", of(card).resolve)


# ---- one card's module ----------------------------------------------------------------------------------

class CardEstimate:
    """A card's generated reading: on play, on setup, lasting, reactions, and the handler asking each choice.

    Every function takes the question's Snapshot `w`; w.uses, w.fk, w.force and w.as_subject are
    the parameters of the reading (estimate.Walker's), set by whoever calls.
    """

    __slots__ = ("forced", "lasting", "names", "play", "react", "resolve", "setup", "source", "unreadable", "value")

    def __init__(self, fns: dict, forced: dict, names: dict[str, int], source: str, unreadable: tuple):
        self.play = fns["play"]          # (w) -> list: the effects of `on play`
        self.value = fns["value"]        # (w, uses, again) -> (worth, policy change): estimate.play_value
        self.setup = fns["setup"]        # (w) -> float: the worth of `on setup`
        self.lasting = fns["lasting"]    # (w, uses) -> float: estimate.lasting
        self.react = fns["react"]        # (w) -> float: estimate.react_value
        self.resolve = fns["resolve"]    # (w) -> float: an event's `on resolve` as estimate.event_harm reads it
        self.forced = forced             # kind -> (handler, (w) -> list): the first handler holding such a choice
        self.names = names               # each counter and name the card binds -> its slot in the list
        self.source = source
        self.unreadable = unreadable     # estimate.unreadable: what the reading cannot value (the agent looks ahead)


_cache: dict[int, tuple] = {}


def of(card) -> CardEstimate:
    """The card's generated reading, made on first use and kept while the card is loaded."""
    hit = _cache.get(id(card))
    if hit is not None and hit[0]() is card:
        return hit[1]
    est = _Gen(card).build()
    key = id(card)

    def forget(_: object) -> None:
        _cache.pop(key, None)
    _cache[key] = (weakref.ref(card, forget), est)
    return est


def holds(stmts, kind: str) -> bool:
    """Does a block hold a choice of this kind (searching nested blocks)?"""
    for s in stmts:
        if E.choice_kind(s) == kind:
            return True
        for body in ast.bodies(s):
            if holds(body, kind):
                return True
    return False


def _bound(stmts, out: dict) -> None:
    """Every name a block binds, in order of first appearance."""
    for s in stmts:
        name = s.name if isinstance(s, (ast.Let, ast.Choose)) else getattr(s, "as_name", None)
        if name is not None and name not in out:
            out[name] = SLOTS + len(out)
        for body in ast.bodies(s):
            _bound(body, out)


class _Gen(Visitor, walks=("statements", "expressions")):
    """Writes one card's module, mirroring estimate.Walker statement by statement (a method per node
    type, as the Walker has: `s_…` gives the lines a statement runs, `e_…` an expression's code)."""

    def __init__(self, card) -> None:
        self.card = card
        program = card.effect
        self.handlers = program.handlers if program is not None else ()
        self.slots: dict[str, int] = {}
        for name, _ in card.counters:
            self.slots[name] = SLOTS + len(self.slots)
        self.counters = len(self.slots)
        for h in self.handlers:
            _bound(h.body, self.slots)
        self.out: list[str] = []
        self.n = 0
        self.trigger: str | None = None
        self.card_mode = False          # inside `count(played where …)`: stage and price are the card's
        self.meaning = E.meanings(card)  # what each name means (Checked.meaning); read, never decided again
        self.params = dict(card.params)

    def fresh(self, prefix: str) -> str:
        self.n += 1
        return f"{prefix}{self.n}"

    def new_acc(self) -> str:
        """Walker.new_acc: the snapshot's counts, nothing found yet, the card's counters, no name bound."""
        if self.counters:
            return "w.base + list(E.counter_values_of(w, CID, CTRS)) + ENV"
        return "w.base + ENV" if self.slots else "w.base[:]"

    # ---- the card -----------------------------------------------------------------------------------
    def build(self) -> CardEstimate:
        card = self.card
        bodies = {}
        for k, h in enumerate(self.handlers):
            self.trigger = h.event if h.form != "on" else None     # what the reference walk is given
            bodies[k] = self.block(h.body)
            self.out.append(f"def h{k}(w):\n    w.work = 0\n    return {bodies[k]}(w, {self.new_acc()})\n")
        self.trigger = None
        self.out.append("\n".join(["def play(w):", *self.on_play(bodies), "    return a"]) + "\n")
        setup = [f"    v = v + worth(h{k}(w), w)\n" for k, h in enumerate(self.handlers)
                 if h.form == "on" and h.event == "setup"]
        self.out.append("def setup(w):\n    w.uses = 1\n    v = 0\n" + "".join(setup) + "    return v\n")
        react = []
        for k, h in enumerate(self.handlers):
            if h.form == "react":
                self.out.append(f"def hw{k}(w):\n    return worth(h{k}(w), w)\n")
                react.append(f"(E.over_events(w, hw{k}, harm) if w.ev is None else hw{k}(w))" if h.event == "event"
                             else f"hw{k}(w)")
        self.out.append("def react(w):\n    w.uses = 1\n"
                        + (f"    return max([{', '.join(react)}])\n" if react else "    return 0.0\n"))
        resolve = [f"    v += h{k}(w)[{UP}]\n" for k, h in enumerate(self.handlers)
                   if h.form == "on" and h.event == "resolve"]
        self.out.append("def resolve(w):\n    v = 0.0\n" + "".join(resolve) + "    return v\n")
        self.lasting()
        self.play_value(bodies)
        source = "".join(self.out)
        ns = {"ERRORS": ERRORS, "UNB": UNBOUND, "WORK": E.WORK, "_cap": E.cap,
              "ENV": [UNBOUND] * (len(self.slots) - self.counters), "CID": card.id, "CTRS": card.counters,
              "DUR": card.duration, "worth": worth, "worth_at": worth_at, "harm": harm, "OPS": ListOps,
              "_truth": E.truth, "_num": _num, "_bor": _bor, "_compare": _compare, "_played": _played, "_advisor": _advisor,
              "_missing": _missing, "_roll": _roll, "_no_count": _no_count, "_mix": _mix, "_branch": _branch, "DRAW": E.DRAW,
              "E": E, "policy_utility": E.policy_utility}    # not the card: the cache must not keep it alive
        exec(compile(source, f"<rulekit estimate {card.id}>", "exec"), ns)
        forced = {}
        for kind in KINDS:
            first = next((k for k, h in enumerate(self.handlers) if holds(h.body, kind)), None)
            if first is not None:
                forced[kind] = (self.handlers[first], ns[f"h{first}"])
        first = next((k for k, h in enumerate(self.handlers) if E.rerolled(h)), None)
        if first is not None:            # a die the owner may roll again: weighed at the value shown
            forced["roll"] = (self.handlers[first], ns[f"h{first}"])
        return CardEstimate(ns, forced, dict(self.slots), source, E.unreadable(card))

    def on_play(self, bodies: dict) -> list[str]:
        """estimate.on_play: lines leaving in `a` the effects of the `on play` handlers, one after another."""
        return [f"    a = {self.new_acc()}", "    w.work = 0"] + [
            f"    a = {bodies[k]}(w, a)" for k, h in enumerate(self.handlers) if h.form == "on" and h.event == "play"]

    def play_value(self, bodies: dict) -> None:
        """estimate.play_value: the worth of playing the card now (again: of executing it once more)."""
        card = self.card
        lines = ["def value(w, uses, again):", "    w.uses = uses", *self.on_play(bodies)]
        lines += ["    " + x for x in _worth_lines()]
        if self.lasting_items():
            again, first = "lasting(w, uses) - lasting(w, uses - 1)", "lasting(w, uses)"
        else:
            again, first = "0.0 - 0.0", "0.0"      # what lasting() gives a card with nothing lasting
        end = repr(card.score) if card.score >= 0 else f"min(0, {card.score!r} - w.final_penalty)"
        lines += ["    if again:", f"        v += {again}", "    else:", f"        v += {first} + {end}",
                  f"    return v, a[{TRACK['policy']}]"]
        self.out.append("\n".join(lines) + "\n")

    def lasting_items(self) -> list:
        """The items estimate.lasting counts."""
        program = self.card.effect
        if program is None:
            return []
        return [item for item in program.items if isinstance(item, (ast.Modify, ast.Shield, ast.Seal, ast.Skip)) or (
            isinstance(item, ast.Handler) and E.is_lasting(item))]

    def lasting(self) -> None:
        """estimate.lasting, with the card's items unrolled."""
        card = self.card
        program = card.effect
        lines = ["def lasting(w, uses):"]
        if program is None:
            lines.append("    return 0.0")
            self.out.append("\n".join(lines) + "\n")
            return
        lines += ["    rounds, per_round = E.coverage(DUR, w)", "    v = 0.0"]
        handler_no = {id(h): k for k, h in enumerate(self.handlers)}
        for item in program.items:
            if isinstance(item, ast.Modify):
                fn = self.expression(item.expr)
                if item.quantity == "final_penalty":
                    lines.append(f"    w.uses = 1\n    v += E.final_penalty_of({fn}(w), w) if E.to_end(DUR, w) "
                                 "else 0.0")
                else:
                    lines.append(f"    w.uses = uses\n    v += E.modifier_of({fn}(w), {item.quantity!r}, "
                                 f"{item.floor!r}, w, {card.id!r}) * per_round")
            elif isinstance(item, ast.Shield):
                lines.append(f"    v += E.shield_value({tuple(t for t, _ in item.targets)!r}, w, harm) * per_round")
            elif isinstance(item, ast.Seal):
                lines.append("    v += E.seal_value(w) * per_round")
            elif isinstance(item, ast.Skip):
                lines.append(f"    v += E.skip_value({item.step!r}, w, {card.id!r}) * per_round")
            elif isinstance(item, ast.Handler) and E.is_lasting(item):
                k = handler_no[id(item)]
                trigger = item.event if item.form in ("when", "once") else None
                if item.event == "game" and item.form == "on":
                    lines.append(f"    w.uses = uses\n    v += worth(h{k}(w), w) if E.to_end(DUR, w) else 0.0")
                    continue
                self.out.append(f"def hw{k}(w):\n    return worth(h{k}(w), w)\n")
                body = f"E.over_events(w, hw{k}, harm)" if trigger == "event" else f"hw{k}(w)"
                lines.append(f"    w.uses = uses\n    v += E.handler_worth({body}, {trigger!r}, {item.form == 'once'}, "
                             "w, per_round, rounds)")
        lines.append("    return v")
        self.out.append("\n".join(lines) + "\n")

    def expression(self, e) -> str:
        """A modifier's amount: Walker.num against a new Acc."""
        name = self.fresh("x")
        self.out.append(f"def {name}(w):\n    a = {self.new_acc()}\n    return {self.num(e)}\n")
        return name

    # ---- blocks ------------------------------------------------------------------------------------------
    def block(self, stmts) -> str:
        """Walker.block: a function (w, a) -> a."""
        name = self.fresh("b")
        lines = [f"def {name}(w, a):"]
        if stmts:
            lines += [f"    w.work += {E.block_work(stmts)}", "    if w.work > WORK:", "        return a"]
        for k, s in enumerate(stmts):
            kind = E.choice_kind(s)
            if kind is not None:
                rest = self.block(stmts[k + 1:])
                body = self.block(s.body) if kind == "player" else None
                take = self.take(s, body)
                lines += [f"    if w.fk == {kind!r}:",
                          "        w.fk = None",
                          "        o = [w.force]"]
                if kind == "player":            # Walker.choice: read as mine when I was asked inside it
                    lines += ["    elif w.as_subject:",
                              "        try:",
                              f"            a = {body}(w, a)",
                              "        except ERRORS:",
                              "            pass",
                              f"        return {rest}(w, a)"]
                lines += ["    else:",
                          "        try:"]
                lines += ["            " + x for x in self.options(s, kind)]
                lines += ["        except ERRORS:",
                          "            o = []",
                          f"    return _branch(w, a, o, {take}, {rest})"]
                break
            body = self.stmt(s)
            if body:
                lines += ["    try:"] + ["        " + x for x in body] + ["    except ERRORS:", "        pass"]
        else:
            lines.append("    return a")
        self.out.append("\n".join(lines) + "\n")
        return name

    def options(self, s, kind: str) -> list[str]:
        """Walker.choice for a statement that is a choice: the answers, as `o`."""
        if kind == "player":
            return [f"o = E.choose_options(w, OPS, a, {s.other!r}, {self.condition(s.where)})"]
        if kind == "choose":
            return [f"lo, hi = int({self.num(s.lo)}), int({self.num(s.hi)})",
                    "o = sorted({lo, hi}) if lo <= hi else []"]
        if kind == "may":
            if isinstance(s, ast.MayPay):
                return [f"o = [False] if {self.num(s.amount)} > {self.money()} else [True, False]"]
            if isinstance(s, ast.MayDiscard):
                return [f"o = [False] if {self.num(s.amount)} > w.hand else [True, False]"]
            return ["o = [True, False]"]
        return [f"o = [0, {self.available(s)}]"]

    def take(self, s, body: str | None) -> str:
        """Walker.take: a function (w, answer, a) -> a (body: a `choose player`'s block, written)."""
        name = self.fresh("t")
        lines = [f"def {name}(w, o, a):"]
        if isinstance(s, ast.ChoosePlayer):
            lines.append(f"    return E.visit(w, OPS, a, o, 1.0, {body})")
        elif isinstance(s, ast.Choose):
            lines.append(f"    a[{self.slots[s.name]}] = o")
        elif isinstance(s, (ast.May, ast.MayPay, ast.MayDiscard)):
            lines.append("    if not o:\n        return a")
            if isinstance(s, ast.MayPay):
                lines.append(f"    a[{TRACK['money']}] -= {self.num(s.amount)}")
            elif isinstance(s, ast.MayDiscard):
                lines.append(f"    a[{EXTRA}] -= {E.DISCARD!r} * {self.num(s.amount)}")
            lines.append(f"    return {self.block(s.body)}(w, a)")
        else:
            lines += ["    " + x for x in self.verb(s, "o")]
            if s.as_name:
                lines.append(f"    a[{self.slots[s.as_name]}] = n")
        if not lines[-1].lstrip().startswith("return"):
            lines.append("    return a")
        self.out.append("\n".join(lines) + "\n")
        return name

    # ---- statements (the Walker's s_ methods): lines run inside the statement's try --------------------------
    def s_TrackChange(self, s: ast.TrackChange) -> list[str]:
        m = self.meaning.get(s)
        named = m is None or m.kind in NAMED            # no table: by the words alone
        k = self.slots.get(s.track) if named else None
        out: list[str] = []
        if k is not None:                   # a name that changes, once bound; a track's name never is one
            if s.op == "=":
                change = [f"    a[{k}] = {self.value(s.expr)}"]
            else:
                change = [f"    v = {self.num(s.expr)}", f"    cur = a[{k}]",
                          "    cur = cur if isinstance(cur, (int, float)) else 0",
                          f"    a[{k}] = _cap(cur {s.op[0]} v)"]
            out = [f"if a[{k}] is not UNB:", *change, "else:"]
        out += ["    " + x for x in self.track_change(s)] if out else self.track_change(s)
        return out

    def track_change(self, s: ast.TrackChange) -> list[str]:
        if s.track not in TRACK:
            return [f"raise KeyError({s.track!r})"]
        k = TRACK[s.track]
        v = self.num(s.expr)
        if s.op == "+=":
            return [f"a[{k}] += {v}"]
        if s.op == "-=":
            return [f"a[{k}] += -{v}"]
        return [f"v = {v}", f"a[{k}] += v - (w.tf[{k}] + a[{k}])"]

    def s_Let(self, s: ast.Let) -> list[str]:
        return [f"a[{self.slots[s.name]}] = {self.value(s.expr)}"]

    def s_If(self, s: ast.If) -> list[str]:
        return self.branch(s)

    def s_EachPlayer(self, s: ast.EachPlayer) -> list[str]:
        body = self.block(s.body)
        return ["if w.as_subject:", f"    a = {body}(w, a)", "else:",
                f"    a = E.each_player(w, OPS, a, {s.other!r}, {self.condition(s.where)}, {body})"]

    def s_PlayerWith(self, s: ast.PlayerWith) -> list[str]:
        body = self.block(s.body)
        return ["if w.as_subject:", f"    a = {body}(w, a)", "else:",
                f"    a = E.player_with(w, OPS, a, {s.which!r}, {self.condition(s.expr)}, {body})"]

    def s_ChoosePlayer(self, s: ast.ChoosePlayer) -> list[str]:
        return [f"a = {self.block(s.body)}(w, a)"]       # reached only when I was asked inside it

    def s_SeatPlayer(self, s: ast.SeatPlayer) -> list[str]:
        return ["pass"]         # as Walker.s_SeatPlayer: unread (UNREADABLE), the lookahead measures it
    s_Tag = s_SeatPlayer        # Walker.s_Tag: a tag on a cell, unread too

    def s_ChooseCell(self, s: ast.ChooseCell) -> list[str]:
        outer, self.trigger = self.trigger, None      # Walker.s_ChooseCell: `it` is no cell the reading knows
        body = self.block(s.body)
        self.trigger = outer
        return [f"a = {body}(w, a)"]

    def s_TheyChoose(self, s: ast.TheyChoose) -> list[str]:
        return [f"a = {self.block(s.body)}(w, a)"]       # as Walker.s_TheyChoose

    def s_Me(self, s: ast.Me) -> list[str]:
        return [f"a = E.me_block(w, OPS, a, {self.block(s.body)})"]

    def s_After(self, s: ast.After) -> list[str]:
        body = self.block(s.body)
        return [f"n = int({self.num(s.count)})",
                "if n < 1:",
                "    raise ValueError('after fewer than 1 rounds')",
                "if n < w.rounds_left:",
                "    b = a[:]",
                f"    b[0:{len(E.TRACKS)}] = {[0.0] * len(E.TRACKS)!r}",
                f"    b[{EXTRA}], b[{PREVENTED}], b[{UP}] = 0.0, 0.0, 0.0",
                f"    b = {body}(w, b)",
                f"    f = {E.LATER!r} ** n",
                f"    a[{EXTRA}] += f * worth_at(b, w, w.rounds_left - n)",
                f"    a[{UP}] += f * b[{UP}]"]

    def s_Repeat(self, s: ast.Repeat) -> list[str]:
        body = self.block(s.body)
        return [f"for _ in range(max(0, min({E.MAX_REPEAT}, int({self.num(s.count)})))):", f"    a = {body}(w, a)"]

    def s_Spend(self, s: ast.Spend) -> list[str]:
        return [f"a[{TRACK['money']}] -= {self.num(s.amount)}"]

    def s_Pay(self, s: ast.Pay) -> list[str]:
        m = TRACK["money"]
        out = [f"n = {self.num(s.amount)}", f"paid = {self.money()}", "paid = paid if paid < n else n",
               f"a[{m}] -= paid"]
        if s.as_name:
            out.append(f"a[{self.slots[s.as_name]}] = n - paid")
        return out

    def s_VerbStmt(self, s: ast.VerbStmt) -> list[str]:
        out = self.verb(s, None)
        if s.as_name:
            out.append(f"a[{self.slots[s.as_name]}] = n")
        return out

    def s_VerbIt(self, s: ast.VerbIt) -> list[str]:
        if s.verb == "discard":
            return [f"a[{EXTRA}] -= {E.DISCARD!r}"]
        state = E.IT_STATE.get(self.trigger or "")
        if state is not None and state in E.VERB_ORDER.get(s.verb, ()):
            return self.move(state, E.VERB_TO[s.verb], "1")
        return []

    def s_Draw(self, s: ast.Draw) -> list[str]:
        out = [f"n = {self.num(s.count)}"]
        out.append(f"kept = min(n, {self.num(s.keep)})" if s.keep is not None else "kept = n")
        out.append(f"a[{EXTRA}] += kept * DRAW.get(int({self.num(s.stage)}), 1.0) + 0.2 * max(0, n - kept)")
        return out

    def s_Draft(self, s: ast.Draft) -> list[str]:
        return [f"a[{EXTRA}] += min(1, max(0, {self.num(s.count)})) * DRAW.get(int({self.num(s.stage)}), 1.0)"]

    def s_Unlock(self, s: ast.Unlock) -> list[str]:
        return [f"a[{EXTRA}] += 0.5 * max(0, int({self.num(s.stage)}) - w.unlocked)"]

    def s_Mark(self, s: ast.Mark) -> list[str]:
        return []                       # as walker.s_Mark: an event's mark is not valued

    def s_Prevent(self, s: ast.Prevent) -> list[str]:
        pv = "w.pv" if self.trigger == "event" else repr(E.PREVENT.get(self.trigger or "", 0.0))
        return [f"a[{PREVENTED}] += 1", f"a[{EXTRA}] += {pv}"]

    def s_Discard(self, s: ast.Discard) -> list[str]:
        mode = s.amount.mode
        n = "0" if mode in ("any", "up_to") else "w.hand" if mode == "all" else self.num(s.amount.expr)
        out = [f"n = {n}", "n = min(n, w.hand)", f"a[{EXTRA}] -= {E.DISCARD!r} * n"]
        if s.as_name:
            out.append(f"a[{self.slots[s.as_name]}] = n")
        return out

    def s_Transfer(self, s: ast.Transfer) -> list[str]:
        if s.what in E.KIND_STATES:     # Walker.s_Transfer: residents, unreadable
            return [f"a[{self.slots[s.as_name]}] = 0"] if s.as_name else []
        cards = s.what in registry.HAND_WORDS
        if not cards and s.what not in TRACK:
            return [f"raise KeyError({s.what!r})"]
        n = "None" if s.amount.mode == "all" else self.num(s.amount.expr)
        cur = "w.hand" if cards else f"(w.tf[{TRACK[s.what]}] + a[{TRACK[s.what]}])"
        out = [f"n = {n}", f"change, points, up, unmoved = E.transfer(w, {s.direction!r}, {s.what!r}, n, {cur})"]
        out.append(f"a[{EXTRA}] += points" if cards else f"a[{TRACK[s.what]}] += change")
        out.append(f"a[{UP}] += up")
        if s.as_name:
            out.append(f"a[{self.slots[s.as_name]}] = unmoved")
        return out

    def s_Choose(self, s) -> list[str]:
        return []               # a choice: block() writes it

    s_May = s_MayPay = s_MayDiscard = s_Choose

    def branch(self, s: ast.If) -> list[str]:
        out = ["left, parts = 1.0, []"]
        for cond, body in s.branches:
            fn = self.block(body)
            out += [f"p = left * {self.truth(cond)}", "if p > 0:", f"    parts.append((p, {fn}(w, a[:])))",
                    "left -= p"]
        orelse = f"{self.block(s.orelse)}(w, a[:])" if s.orelse else "a"
        out += ["if left > 0:", f"    parts.append((left, {orelse}))",
                "a = _mix(parts) if len(parts) > 1 else parts[0][1]"]
        return out

    def condition(self, e) -> str:
        """Walker.cond: a function (w, a) -> the value of e, or None."""
        if e is None:
            return "None"
        name = self.fresh("c")
        self.out.append(f"def {name}(w, a):\n    return {self.value(e)}\n")
        return name

    def verb(self, s: ast.VerbStmt, answer: str | None) -> list[str]:
        """Walker.verb: lines leaving the number of cells taken in `n`. `y if y < x else x` is min(x, y)
        and `y if y > x else x` is max(x, y): the same object, without the calls."""
        tiles = COUNT["tiles"]
        if E.event_deck(s):             # the event deck: unreadable (estimate.UNREADABLE)
            return ["n = 0"]
        if s.verb in ("reveal", "arrange"):
            out = [f"n = {answer}" if answer is not None else f"n = {self.amount(s, f'a[{tiles}]')}",
                   f"n, m = int(n), int(a[{tiles}])",
                   "n = m if m < n else n",
                   "n = n if n > 0 else 0",                         # max(0, min(int(n), int(tiles)))
                   f"a[{EXTRA}] += {(E.REVEAL if s.verb == 'reveal' else 0.15)!r} * n"]
            if s.verb == "reveal":
                out.append(f"a[{tiles}] -= n")
            return out
        out = [f"avail = {self.available(s)}",
               f"n = {answer}" if answer is not None else f"n = {self.amount(s, 'avail')}",
               "left = int(n)",
               "left = avail if avail < left else left",
               "left = left if left > 0 else 0",                    # max(0, min(int(n), avail))
               "taken = left"]
        if s.verb == "move":            # how many, and nothing more (estimate.UNREADABLE)
            return [*out, "n = taken"]
        if s.verb not in E.VERB_ORDER:
            return [*out, f"raise KeyError({s.verb!r})"]
        for state in E.VERB_ORDER[s.verb]:
            if s.kind not in E.KIND_STATES:
                return [*out, f"raise KeyError({s.kind!r})"]
            if state not in E.KIND_STATES[s.kind]:
                continue
            out += ["if left > 0:", f"    k = int({self.count(state)})", "    k = k if k < left else left"]
            if s.verb not in E.VERB_TO:
                return [*out, f"    raise KeyError({s.verb!r})"]
            out += ["    " + x for x in self.move(state, E.VERB_TO[s.verb], "k")]
            out.append("    left -= k")
        # `n` is what the reference returns: the cells it set out to take, before the loop.
        out.append("n = taken")
        return out

    def move(self, old: str, new: str, k: str) -> list[str]:
        """Walker.move with old and new known."""
        body = [f"{self.count(old)} -= {k}"]
        if new != "empty":
            body.append(f"{self.count(new)} += {k}")
        if (old, new) == ("mild", "healthy"):
            body.append(f"a[{TRACK['score']}] += {k}")
        elif new == "dead":
            body.append(f"a[{TRACK['score']}] -= {k}")
        body.append(f"a[{EXTRA}] += {E.TRANSITION.get((old, new), 0.0)!r} * {k}")
        if k == "1":
            return body
        return [f"if {k} > 0:"] + ["    " + x for x in body]

    def count(self, state: str) -> str:
        if state not in COUNT:
            return f"a[_no_count({state!r})]"      # a KeyError where the reference has one
        return f"a[{COUNT[state]}]"

    def available(self, s: ast.VerbStmt) -> str:
        states = E.KIND_STATES.get(s.kind, ("tiles",))
        return f"int({' + '.join(['0'] + [self.count(st) for st in states])})"

    def amount(self, s: ast.VerbStmt, avail: str) -> str:
        if s.amount.mode == "all" or s.amount.expr is None:
            return f"int({avail})"
        return f"int({self.num(s.amount.expr)})"

    def money(self) -> str:
        m = TRACK["money"]
        return f"(w.tf[{m}] + a[{m}])"

    # ---- expressions (Walker.value / num / truth) -------------------------------------------------------------
    def num(self, e) -> str:
        code, numeric = self.value_of(e)
        if numeric:
            return code
        if isinstance(e, ast.Str):
            return "0"
        return f"_num({code})"

    def value(self, e) -> str:
        return self.value_of(e)[0]

    def truth(self, e) -> str:
        code = self.value(e)
        return code if isinstance(e, ast.Compare) and e.op in COMPARE else f"_truth({code})"

    def value_of(self, e) -> tuple[str, bool]:
        """The Python expression of Walker.value(e), and whether it is surely a number."""
        return self.expr(e)

    def e_Num(self, e) -> tuple[str, bool]:
        return repr(e.value), isinstance(e.value, (int, float))

    e_Str = e_Num

    def e_Name(self, e: ast.Name) -> tuple[str, bool]:
        m = self.meaning.get(e)
        k = None if m is None else self.slots.get(m.name)
        if m is None or m.kind == rs.UNKNOWN or (m.kind in NAMED and k is None):
            return self.by_words(e)             # no table, or a word no checked card has: by the words alone
        kind, name = m.kind, m.name
        if kind in NAMED:                       # the effect's own name, or a counter: 0 until bound
            return f"(a[{k}] if a[{k}] is not UNB else 0)", False
        if kind == rs.PARAM:
            return repr(self.params.get(name, 0)), True
        if kind == rs.CARD:                     # the counted card's, inside `count(played where …)`; nothing outside
            return ("cv[0]" if name == "stage" else "cv[1]") if self.card_mode else "0", True
        if kind == rs.TRACK:
            k = TRACK[name]
            return f"(w.tf[{k}] + a[{k}])", True
        if kind == rs.COUNT:
            return self.count_of(name), True
        return self.game_value(name), True      # rs.VALUE

    def by_words(self, e: ast.Name) -> tuple[str, bool]:
        static = self.name(e.name)
        k = self.slots.get(e.name)
        if k is None:
            return static, True
        return f"(a[{k}] if a[{k}] is not UNB else {static})", False

    def e_BinOp(self, e: ast.BinOp) -> tuple[str, bool]:
        op = e.op if e.op in ("+", "-", "*") else "//"
        # estimate.cap inline (`z` a local of its own): the commonest arithmetic, spared a call.
        m = E.MAX_NUMBER
        return f"(z if -{m} <= (z := {self.num(e.left)} {op} {self.num(e.right)}) <= {m} else _cap(z))", True

    def e_Neg(self, e: ast.Neg) -> tuple[str, bool]:
        return f"(-{self.num(e.operand)})", True

    def e_Not(self, e: ast.Not) -> tuple[str, bool]:
        return f"(1.0 - {self.truth(e.operand)})", True

    def e_Compare(self, e: ast.Compare) -> tuple[str, bool]:
        a, b = self.num(e.left), self.num(e.right)
        if e.op in COMPARE:
            return f"float({a} {e.op} {b})", True
        return f"_compare({e.op!r}, {a}, {b})", True

    def e_BoolOp(self, e: ast.BoolOp) -> tuple[str, bool]:
        a, b = self.truth(e.left), self.truth(e.right)
        return (f"({a} * {b})" if e.op == "and" else f"_bor({a}, {b})"), True

    def e_Call(self, e: ast.Call) -> tuple[str, bool]:
        return self.call(e), True

    def e_It(self, e) -> tuple[str, bool]:
        if self.trigger == "event":
            return "(w.ev.id if w.ev is not None else None)", False
        return repr(E.IT_STATE.get(self.trigger or "")), False

    def e_CountOf(self, e: ast.CountOf) -> tuple[str, bool]:
        if e.what in ("played", "tableau"):
            where = "None"
            if e.where is not None:
                where = self.fresh("c")
                outer, self.card_mode = self.card_mode, True
                code = self.value(e.where)
                self.card_mode = outer
                self.out.append(f"def {where}(w, a, cv):\n    return {code}\n")
            return f"E.count_played(w, a, {where}, {e.what == 'tableau'!r})", True
        return f"E.count_players(w, OPS, a, {e.what == 'other player'!r}, {self.condition(e.where)})", True

    def call(self, e: ast.Call) -> str:
        f = e.func
        if f in ("min", "max"):
            return f"{f}([{', '.join(self.num(x) for x in e.args)}])"
        if f == "abs":
            return f"abs({self.num(e.args[0])})" if e.args else "_missing()"
        if f == "roll":
            return f"_roll(w, {self.num(e.args[0])}, {e.rerolls!r})" if e.args else "_missing()"
        if f == "event":
            ref = self.value(e.args[0]) if e.args else "_missing()"
            return f"({E.CHANCE['event']!r} if w.ev is None else float({ref} in (w.ev.id, w.ev.name)))"
        if f == "happened":
            ref = self.value(e.args[0]) if e.args else "_missing()"
            return f"(1.0 if w.ev is not None and {ref} in (w.ev.id, w.ev.name) else {E.CHANCE['happened']!r})"
        if f in ("played", "tableau", "switched_off"):
            return f"_played(w, {self.value(e.args[0])}, {f!r})" if e.args else "_missing()"
        if f == "advisor":
            return f"_advisor(w, {self.value(e.args[0])})" if e.args else "_missing()"
        if f == "unlocked":
            return f"float(w.unlocked >= {self.num(e.args[0])})" if e.args else "_missing()"
        if f in ("highest", "lowest"):
            if not e.args:
                return "_missing()"
            return f"E.aggregate(w, OPS, a, {f == 'highest'!r}, {self.condition(e.args[0])})"
        return "0"

    def name(self, name: str) -> str:
        """Walker.name for a name no `let` holds, by the words alone (a card without a table)."""
        params = self.params
        if name in params:          # a number the card names (`params:`): a constant
            return repr(params[name])
        if self.card_mode and name in registry.CARD_VALUES:
            return "cv[0]" if name == "stage" else "cv[1]"
        if name in TRACK:
            k = TRACK[name]
            return f"(w.tf[{k}] + a[{k}])"
        if name in COUNT or name in DERIVED:
            return self.count_of(name)
        return self.game_value(name)

    def count_of(self, name: str) -> str:
        """A board count (resolve.COUNT): a state's, or the sum of the states it counts (DERIVED)."""
        if name in COUNT:
            return f"a[{COUNT[name]}]"
        return "(" + " + ".join(["0"] + [f"a[{COUNT[s]}]" for s in DERIVED[name]]) + ")"

    def game_value(self, name: str) -> str:
        """A value the game provides (resolve.VALUE): the card's uses, the subject's hand and board, the round."""
        if name in ("uses", "hand", "round", "players"):
            return f"w.{name}"
        if name == "revealed":
            return f"float(a[{COUNT['tiles']}] <= 0)"
        return "0"
