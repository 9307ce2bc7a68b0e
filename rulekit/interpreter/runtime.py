"""The runtime: the only operations compiled effects (and the reference walker) may call.

Generated code receives a Runtime as `rt` and a Frame as `f` (the handler's card, owner, tableau
entry and `it`); the subject of a statement is passed explicitly as a seat. Every number an effect
computes goes through `num`, every block through `tick`: the limits of registry.LIMITS hold here.
"""

from __future__ import annotations

from rulekit import registry
from rulekit.core import board as B
from rulekit.core.errors import EffectError
from rulekit.core.questions import CELLS, Ask
from rulekit.core.state import unique_ids

VERB_TARGET = {"cure": B.HEALTHY, "treat": B.MILD, "infect": B.MILD, "worsen": B.SEVERE,
               "kill": B.DEAD, "remove": B.EMPTY}
KIND_CODES = {k: tuple(B.STATE_BY_NAME[s] for s in states) for k, states in registry.KIND_STATES.items()}
# The cell states each board verb can act on (`VERB it` checks the cell still qualifies).
VERB_FROM = {name: tuple(sorted({c for k in v.kinds for c in KIND_CODES[k]})) for name, v in registry.VERBS.items()}
MAX_NUMBER = registry.MAX_NUMBER
# Python errors an effect's arithmetic can raise, in the words a designer reads (both evaluators).
RUNTIME_ERRORS: dict[type[BaseException], str] = {
    ZeroDivisionError: "division by zero: the number after `//` came to 0 here (divide by `max(1, …)` when it "
                       "can be 0)",
    OverflowError: "a number too large",
    RecursionError: "effects nested too deeply",
}


def arithmetic_error(err: BaseException, line: int = 0) -> EffectError:
    """The EffectError a designer reads for a Python error of an effect's arithmetic."""
    return EffectError(RUNTIME_ERRORS.get(type(err), "a number too large"), None, line)

# The Runtime methods generated code may call, as `rt.NAME` (as Jinja's runtime `exported`); besides
# these it sees only `num` and min, max, abs, sum, len.
EXPORTED = ("tick", "change", "pay", "spend", "may", "may_pay", "choose", "board_verb", "reveal",
            "arrange", "verb_it", "draw", "unlock", "each_player", "players_with", "repeat", "track", "count",
            "hand_size", "revealed", "round", "players_in", "played", "event_is", "happened", "is_unlocked",
            "players", "choose_player", "highest", "lowest", "count_players", "played_cards", "counter",
            "change_counter", "after", "transfer", "discard", "may_discard", "move")


def num(v: int) -> int:
    """A number an effect computed, within the number limit."""
    if -MAX_NUMBER <= v <= MAX_NUMBER:
        return v
    raise EffectError(f"a number beyond the limit of ±{MAX_NUMBER:,} ({_short(v)})")


def _short(v: int) -> str:
    s = str(v)
    return s if len(s) <= 24 else f"{s[:10]}…, {len(s)} digits"


class Runtime:
    """One game's operations for effects."""

    __slots__ = ("g", "st")

    def __init__(self, game):
        self.g = game
        self.st = game.state

    # ---- limits --------------------------------------------------------------------------------
    def tick(self, n: int) -> None:
        """n statements are about to run: count them against the effect's and the game's budget."""
        st = self.st
        st.steps += n
        if st.steps > self.g._deadline:
            self.g.over_budget()

    def repeat(self, n: int) -> range:
        if n < 0 or n > registry.MAX_REPEAT:
            raise EffectError(f"repeat {n}: a repeat count must be 0 to {registry.MAX_REPEAT}")
        return range(n)

    # ---- reading ---------------------------------------------------------------------------------
    def _seat(self, s):
        if s is None:
            raise EffectError("this statement has no player to act on (an event needs `each player:` "
                              "or `player with …:` first)")
        return self.st.seats[s]

    def track(self, s, name: str) -> int:
        return getattr(self._seat(s), name)

    def count(self, s, name: str) -> int:
        return sum(map(self._seat(s).counts.__getitem__, B.COUNT_CODES[name]))

    def hand_size(self, s) -> int:
        return len(self._seat(s).hand)

    def revealed(self, s) -> bool:
        return self._seat(s).counts[B.TILE] == 0

    def round(self) -> int:
        return self.st.round

    def players_in(self) -> int:
        return len(self.g.active_players())

    def played(self, s, ref: str) -> bool:
        self._seat(s)
        g = self.g
        return ref in (g._tables[s] or g._index(s)).played

    def event_is(self, ref: str) -> bool:
        ev = self.st.current_event or self.st.last_event
        return ev is not None and ref in (ev.id, ev.name)

    def happened(self, ref: str) -> bool:
        cur = self.st.current_event
        if cur is not None and ref in (cur.id, cur.name):
            return True
        return ref in self.g.history_refs()

    def is_unlocked(self, s, k: int) -> bool:
        return self._seat(s).unlocked >= k

    # ---- players -------------------------------------------------------------------------------------
    def each_player(self, f, s, other: bool) -> tuple[int, ...]:
        order = self.players(f)
        return tuple(x for x in order if x != s) if other else order

    def players_with(self, f, which: str, key) -> list[int]:
        """Every player still in whose value of `key` is the highest (lowest, most, fewest)."""
        seats = self._visited(f)
        if not seats:
            return []
        values = [(s, key(s)) for s in seats]
        best = (max if which in ("highest", "most") else min)(v for _, v in values)
        return [s for s, v in values if v == best]

    # ---- tracks and money --------------------------------------------------------------------------
    def change(self, f, s, track: str, op: str, value: int) -> None:
        p = self._seat(s)
        if p.out:
            return
        cur = getattr(p, track)
        # Both sides are within the number limit; the track's range then clamps the sum.
        new = cur + value if op == "+=" else cur - value if op == "-=" else value
        g = self.g
        if new < cur and g.shielded(s, track, f):
            g.record("shielded", seat=s, what=track, card=f.card.id)
            return
        g.set_track(s, track, new, f.card.id)

    def pay(self, f, s, n: int) -> int:
        p = self._seat(s)
        if n < 0:
            raise EffectError(f"a payment gone negative: pay {n}")
        g = self.g
        if g.shielded(s, "money", f):
            g.record("shielded", seat=s, what="money", card=f.card.id)
            return 0
        paid = min(n, p.money)
        if paid:
            p.money -= paid
            if g.log is not None:
                g.record("money", seat=s, delta=-paid, money=p.money, why=f.card.id)
        return n - paid

    def spend(self, f, s, n: int) -> None:
        p = self._seat(s)
        if n < 0:
            raise EffectError(f"a payment gone negative: spend {n}")
        if n > p.money:
            raise EffectError(f"spend {n}, but P{s + 1} has only {p.money}")
        self.g.spend_money(s, n, f.card.id)

    def may(self, f, s) -> bool:
        self._seat(s)
        return self.g.effect_ask(s, Ask.MAY, (True, False), card=f.card, text="resolve this?")

    def may_pay(self, f, s, n: int) -> bool:
        p = self._seat(s)
        if n < 0:
            raise EffectError(f"a payment gone negative: may pay {n}")
        if p.money < n:
            return False
        g = self.g
        if g.effect_ask(s, Ask.MAY, (True, False), card=f.card, text=f"pay {n}?"):
            g.spend_money(s, n, f.card.id)
            return True
        return False

    def choose(self, f, s, lo: int, hi: int) -> int:
        self._seat(s)
        if lo > hi:
            raise EffectError(f"choose from {lo} to {hi}: there is no number to choose")
        return self.g.effect_ask(s, Ask.CHOOSE, range(lo, hi + 1), card=f.card, text=f"choose {lo}–{hi}")

    # ---- the board ----------------------------------------------------------------------------------------
    def _amount(self, f, s, mode: str, n, available: int, what: str) -> int:
        if mode == "all":
            return available
        if n is not None and n < 0:
            raise EffectError(f"a count gone negative: {n} {what}")
        if mode == "n":
            return n
        top = available if mode == "any" else min(n, available)
        if top <= 0:
            return 0
        return self.g.effect_ask(s, Ask.AMOUNT, range(top + 1), card=f.card, text=f"how many {what}?")

    def _takeable(self, s, kind: str) -> list[int]:
        """A seat's cells of a kind that an effect may take: not a resident whose death is being decided."""
        cells = self.g.cells(s, KIND_CODES[kind])
        dying = self.g.dying
        return [i for i in cells if i not in dying] if dying else cells

    def board_verb(self, f, s, verb: str, mode: str, n, kind: str) -> int:
        self._seat(s)
        g = self.g
        cells = self._takeable(s, kind)
        x = self._amount(f, s, mode, n, len(cells), kind)
        if x <= 0:
            return 0
        chosen = g.pick_cells(s, cells, x, f"{verb} {kind}", card=f.card)
        return sum(1 for i in chosen if self._apply(f, verb, i))

    def _apply(self, f, verb: str, i: int) -> bool:
        """A verb on one cell, if the cell still holds what the verb acts on: a handler set off by an
        earlier cell of the same statement may have changed it."""
        if self.g.state.board[i] not in VERB_FROM[verb]:
            return False
        cause = f.card.id if f.card else verb
        if verb == "kill":
            return self.g.kill_cell(i, cause)
        self.g.set_cell(i, VERB_TARGET[verb], cause)
        return True

    def verb_it(self, f, s, verb: str) -> None:
        it = f.it
        g = self.g
        if verb == "discard":
            hand = g.state.seats[f.owner].hand
            for k, c in enumerate(hand):
                if c is it:
                    hand.pop(k)
                    g.discard_card(c)
                    return
            return
        if isinstance(it, int):
            self._apply(f, verb, it)

    def reveal(self, f, s, mode: str, n) -> int:
        p = self._seat(s)
        x = self._amount(f, s, mode, n, p.counts[B.TILE], "tiles")
        return self.g.reveal_some(s, x, f.card)

    def arrange(self, f, s, n: int) -> int:
        """The planner: see the fronts of n random tiles of mine, place them, shuffle the rest."""
        self._seat(s)
        if n < 0:
            raise EffectError(f"a count gone negative: arrange {n}")
        g, st = self.g, self.st
        cells = [i for i in g.geo.cells_of[s] if st.board[i] == B.TILE]
        seen = sorted(st.rng.sample(cells, min(n, len(cells))))
        fronts = [st.fronts[i] for i in seen]
        rest = [st.fronts[i] for i in cells if i not in seen]
        free = list(cells)
        for front in fronts:
            name = "infected" if front else "healthy"
            c = g.effect_ask(s, Ask.ARRANGE, [CELLS[i] for i in free], card=f.card,
                             text=f"place a tile with a {name} front")
            i = c.row * B.SIZE + c.col
            free.remove(i)
            st.fronts[i] = front
        st.rng.shuffle(rest)
        for i, front in zip(free, rest):
            st.fronts[i] = front
        g.record("arranged", seat=s, tiles=len(fronts))
        return len(fronts)

    # ---- cards ------------------------------------------------------------------------------------------------
    def draw(self, f, s, n: int, stage: int, keep) -> None:
        self._seat(s)
        if stage not in (1, 2, 3):
            raise EffectError(f"there is no stage {stage} deck")
        if n < 0 or (keep is not None and keep < 0):
            raise EffectError("a count gone negative in draw")
        g = self.g
        why = f.card.id
        drawn = []
        for _ in range(n):
            c = g.draw_policy(stage)
            if c is None:
                break           # the deck and its discard pile are empty: nothing more to draw
            self.tick(1)        # a card drawn is a step of the effect's budget, as lint counts it
            drawn.append(c)
        if keep is None or keep >= len(drawn):
            for c in drawn:
                g.to_hand(s, c, why)
            return
        for _ in range(keep):
            cid = g.effect_ask(s, Ask.KEEP, unique_ids(drawn), card=f.card, text="keep a card")
            k = next(k for k, c in enumerate(drawn) if c.id == cid)
            g.to_hand(s, drawn.pop(k), why)
        for c in drawn:
            g.state.discards[stage].append(c)
            g.record("discard", card=c.id)

    def unlock(self, f, s, k: int) -> None:
        self._seat(s)
        if k not in (1, 2, 3):
            raise EffectError(f"there is no stage {k} to unlock")
        self.g.set_unlocked(s, k)

    # ---- players, chosen and counted -------------------------------------------------------------------
    def players(self, f) -> tuple[int, ...]:
        """The players an effect visits: those still in, in turn order, less any an event passes over."""
        order = self.g.in_order()
        if f is not None and f.skip:
            return tuple(s for s in order if s not in f.skip)
        return order

    def choose_player(self, f, s, other: bool, where) -> int | None:
        """`choose [other] player [where COND]:` — the subject picks one (None when no one qualifies)."""
        self._seat(s)
        seats = tuple(x for x in self._visited(f) if not (other and x == s) and (where is None or where(x)))
        if not seats:
            return None
        return self.g.effect_ask(s, Ask.PLAYER, seats, card=f.card, text="choose a player")

    # An aggregate reads its expression for every player (or card) it visits: one step each, so
    # aggregates inside aggregates meet the effect's step budget as loops inside loops do.
    def _visited(self, f) -> tuple[int, ...]:
        seats = self.players(f)
        self.tick(len(seats))
        return seats

    def highest(self, f, key) -> int:
        values = [key(s) for s in self._visited(f)]
        return max(values) if values else 0

    def lowest(self, f, key) -> int:
        values = [key(s) for s in self._visited(f)]
        return min(values) if values else 0

    def count_players(self, f, s, other: bool, where) -> int:
        return sum(1 for x in self._visited(f) if not (other and x == s) and (where is None or where(x)))

    def played_cards(self, s) -> list:
        """The subject's played cards for `count(played …)`: in the tableau and not switched off."""
        cards = [e.card for e in self._seat(s).tableau if e.on]
        self.tick(len(cards))
        return cards

    # ---- numbers kept on a card ------------------------------------------------------------------------------
    def _counters(self, entry, owner) -> dict:
        if entry is not None:
            return entry.counters
        return self._seat(owner).advisor_counters

    def counter(self, entry, owner, name: str) -> int:
        return self._counters(entry, owner)[name]

    def change_counter(self, f, name: str, op: str, value: int) -> None:
        counters = self._counters(f.entry, f.owner)
        cur = counters[name]
        counters[name] = num(cur + value if op == "+=" else cur - value if op == "-=" else value)

    # ---- time -------------------------------------------------------------------------------------------------
    def after(self, f, s, n: int, block: str, values: dict) -> None:
        """`after N rounds:` — keep the block (and the numbers it reads) for the start of round now + N."""
        if n < 1:
            raise EffectError(f"after {n} rounds: the number of rounds came to {n} here, and `after` needs 1 or "
                              "more (write `after max(1, …) rounds:` when it can be less)")
        st = self.st
        st.scheduled.append((st.round + n, f.card.id, block, f.owner, {**values, "S": s}))

    # ---- moving things between players -------------------------------------------------------------------------
    def transfer(self, f, direction: str, src, dst, what: str, mode: str, n) -> int:
        """`take`/`give`: move up to the amount from src to dst; the part that could not be moved is returned."""
        g = self.g
        p, q = self._seat(src), self._seat(dst)
        if n is not None and n < 0:
            raise EffectError(f"a count gone negative: {direction} {n} {what}")
        cards = what in registry.HAND_WORDS
        # A loss the giver did not choose (another's card, an event, a combo) is stopped by its shield.
        forced = g.shielded(src, "hand" if cards else what, f)
        if cards:
            want = len(p.hand) if mode == "all" else n
            if forced:
                g.record("shielded", seat=src, what="hand", card=f.card.id)
                return want
            moved = 0
            for _ in range(min(want, len(p.hand))):
                if direction == "take":
                    card = p.hand.pop(self.st.rng.randrange(len(p.hand)))
                else:
                    ref = g.effect_ask(src, Ask.GIVE, unique_ids(p.hand), card=f.card, text=f"give a card to P{dst + 1}")
                    card = g.take_from_hand(src, ref)
                q.hand.append(card)
                g.record("given", seat=src, to=dst, card=card.id)
                moved += 1
            return want - moved
        lo, hi, _ = g.rules.bound(what)
        have, room = getattr(p, what) - lo, hi - getattr(q, what)
        want = max(0, have) if mode == "all" else n
        if forced:
            g.record("shielded", seat=src, what=what, card=f.card.id)
            return want
        moved = max(0, min(want, have, room))
        if moved:
            g.set_track(src, what, getattr(p, what) - moved, f.card.id)
            g.set_track(dst, what, getattr(q, what) + moved, f.card.id)
        return want - moved

    # ---- hands --------------------------------------------------------------------------------------------------
    def discard(self, f, s, mode: str, n) -> int:
        """`discard AMOUNT cards`: the subject picks which; how many were discarded."""
        p = self._seat(s)
        g = self.g
        x = self._amount(f, s, mode, n, len(p.hand), "cards")
        if x <= 0:
            return 0
        if g.shielded(s, "hand", f):
            g.record("shielded", seat=s, what="hand", card=f.card.id)
            return 0
        if x >= len(p.hand):                 # every card goes: there is nothing to choose
            done = len(p.hand)
            while p.hand:
                g.discard_card(p.hand.pop(0))
            return done
        for _ in range(x):
            ref = g.effect_ask(s, Ask.DISCARD, unique_ids(p.hand), card=f.card, text="discard a card")
            g.discard_card(g.take_from_hand(s, ref))
        return x

    def may_discard(self, f, s, n: int) -> bool:
        """`may discard N cards:` — a cost the subject may choose to pay with cards from hand."""
        p = self._seat(s)
        if n < 0:
            raise EffectError(f"a count gone negative: may discard {n} cards")
        if len(p.hand) < n:
            return False
        g = self.g
        if not g.effect_ask(s, Ask.MAY, (True, False), card=f.card, text=f"discard {n} cards?"):
            return False
        for _ in range(n):
            ref = g.effect_ask(s, Ask.DISCARD, unique_ids(p.hand), card=f.card, text="discard a card")
            g.discard_card(g.take_from_hand(s, ref))
        return True

    # ---- moving residents ---------------------------------------------------------------------------------------
    def move(self, f, s, mode: str, n, kind: str) -> int:
        """`move AMOUNT KIND`: residents to empty cells of the same board, the subject picking which and where."""
        self._seat(s)
        g = self.g
        cells = self._takeable(s, kind)
        if not g.cells(s, (B.EMPTY,)):
            return 0
        x = self._amount(f, s, mode, n, len(cells), kind)
        moved_to: list[int] = []
        for _ in range(x):
            left = [i for i in self._takeable(s, kind) if i not in moved_to]
            empties = g.cells(s, (B.EMPTY,))
            if not left or not empties:
                break
            a = self._pick(f, s, left, f"move which {kind}?")
            b = self._pick(f, s, empties, "move it to which empty cell?")
            state = g.state.board[a]
            cause = f.card.id
            g.set_cell(a, B.EMPTY, cause)
            g.set_cell(b, state, cause)
            moved_to.append(b)
        return len(moved_to)

    def _pick(self, f, s, cells: list[int], text: str) -> int:
        if len(cells) == 1:
            return cells[0]
        c = self.g.effect_ask(s, Ask.CELL, [CELLS[i] for i in cells], card=f.card, text=text)
        return c.row * B.SIZE + c.col
