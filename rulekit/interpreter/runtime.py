"""The runtime: the only operations compiled effects (and the reference walker) may call.

It reads the state and checks an effect's numbers; every change it makes goes through the game's
operations (rulekit.core.ops), so the rules of a change live in the core alone.

Generated code receives a Runtime as `rt` and a Frame as `f` (the handler's card, owner, tableau
entry and `it`); the subject of a statement is passed explicitly as a seat. Every number an effect
computes goes through `num`, every block through `tick`: the limits of registry.LIMITS hold here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from rulekit import registry
from rulekit.core import board as B
from rulekit.core.errors import EffectError
from rulekit.core.handlers import Frame
from rulekit.core.program import Card
from rulekit.core.questions import Ask
from rulekit.core.state import Entry, SeatState

if TYPE_CHECKING:
    from rulekit.core.game import Game

# The state a cell ends in for each board verb that changes a cell in place (move has its own op), from the
# registry's one table.
VERB_TARGET = {name: B.STATE_BY_NAME[v.target] for name, v in registry.VERBS.items() if v.target in B.STATE_BY_NAME}
KIND_CODES = {k: tuple(B.STATE_BY_NAME[s] for s in states) for k, states in registry.KIND_STATES.items()}
# The cell states each board verb can act on (`VERB it` checks the cell still qualifies).
VERB_FROM = {name: tuple(sorted({c for k in v.kinds for c in KIND_CODES[k]})) for name, v in registry.VERBS.items()}
MAX_NUMBER = registry.MAX_NUMBER
# The cells `choose cell:` (no kind) picks from: revealed, empty or holding a resident.
REVEALED = (B.EMPTY, *B.RESIDENTS)
# Each cell's orthogonal neighbours on the table (up, left, right, down), for `next to`.
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(B.idx(r + dr, c + dc) for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0))
          if 0 <= r + dr < B.SIZE and 0 <= c + dc < B.SIZE) for r, c in B.RC)
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
            "change_counter", "after", "transfer", "discard", "may_discard", "move", "count_near",
            "turn", "seat_player", "choose_cell", "it_as", "roll", "they_choose", "has_advisor", "in_tableau",
            "switched_off", "caused_by", "tableau_cards", "marks", "mark", "draft",
            "tag", "count_tagged", "look_at_events", "reshuffle_events")


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

    def __init__(self, game: Game) -> None:
        self.g = game
        self.st = game.state

    # ---- limits --------------------------------------------------------------------------------
    def tick(self, n: int) -> None:
        """n statements are about to run: count them against the effect's and the game's budget."""
        self.g.tick(n)

    def repeat(self, n: int) -> range:
        if n < 0 or n > registry.MAX_REPEAT:
            raise EffectError(f"repeat {n}: a repeat count must be 0 to {registry.MAX_REPEAT}")
        return range(n)

    # ---- reading ---------------------------------------------------------------------------------
    def _seat(self, s: int | None) -> SeatState:
        if s is None:
            raise EffectError(NO_PLAYER)
        return self.st.seats[s]

    def track(self, s: int | None, name: str) -> int:
        value: int = getattr(self._seat(s), name)
        return value

    def count(self, s: int | None, name: str) -> int:
        return sum(map(self._seat(s).counts.__getitem__, B.COUNT_CODES[name]))

    def hand_size(self, s: int | None) -> int:
        return len(self._seat(s).hand)

    def revealed(self, s: int | None) -> bool:
        return self._seat(s).counts[B.TILE] == 0

    def round(self) -> int:
        return self.st.round

    def marks(self, f: Frame, s: int | None) -> int:
        """`marks`: the subject's stacks of this event's mark."""
        return self._seat(s).marks.get(f.card.id, 0)

    def mark(self, f: Frame, s: int | None, n: int) -> None:
        """`mark N`: N more stacks of this event's mark on the subject (the core keeps them within the limit)."""
        if n < 0:
            raise EffectError(f"a mark gone negative: mark {n}")
        self.g.add_mark(_who(s), f.card, n)

    def players_in(self) -> int:
        return len(self.g.active_players())

    def turn(self, s: int | None) -> int:
        """The subject's place in this round's turn order among the players still in (1 = first player)."""
        seat = _who(s)
        order = self.g.in_order()
        return order.index(seat) + 1 if seat in order else 0

    def seat_player(self, f: Frame, which: str) -> int | None:
        """`player after me:` / `player before me:` / `first player:` (5.34): that player of this round's turn
        order among the players still in, the ring going round from the last to the first; `that player:`
        (5.35) the player whose moment a `when other …` hears. None when it is the owner alone, a player out,
        or a player the event passes over."""
        order = self.g.in_order()
        if which == "first":
            seat = order[0] if order else None
        elif which == "that":                   # `when other …`: the player whose moment it is, if still in
            seat = f.mover if f.mover in order else None
        else:
            owner = f.owner
            if owner not in order or len(order) < 2:
                return None
            k = order.index(owner)
            seat = order[(k + 1) % len(order)] if which == "after" else order[k - 1]
        if seat is None or seat in f.skip:
            return None
        return seat

    def played(self, s: int | None, ref: str) -> bool:
        return ref in self.g.tables(_who(s)).played

    def has_advisor(self, s: int | None, ref: str) -> bool:
        """`advisor("名")` (5.36): the subject's advisor is that one."""
        card = self._seat(s).advisor
        return card is not None and ref in (card.id, card.name)

    def in_tableau(self, s: int | None, ref: str) -> bool:
        """`tableau("名")` (5.36): the card is in the subject's tableau, switched on or off."""
        return ref in self.g.tables(_who(s)).kept

    def switched_off(self, s: int | None, ref: str) -> bool:
        """`switched_off("名")` (5.36): the card is in the subject's tableau and switched off."""
        return ref in self.g.tables(_who(s)).off

    def caused_by(self, f: Frame, what: str, named: bool) -> bool:
        """`caused_by(…)` (5.37): what made the trigger's moment happen (Frame.cause) is the card named, or of
        that cause (registry.CAUSES); a moment of the game's own steps has no cause."""
        cause = f.cause
        if cause is None:
            return False
        card, owner = cause
        if named:
            return what in (card.id, card.name)
        if what in ("event", "combo"):
            return card.kind == what
        if what == "card":
            return True
        lasting = card.kind in registry.LASTING_KINDS
        return lasting and (owner == f.owner) == (what == "mine")

    def event_is(self, ref: str) -> bool:
        ev = self.st.current_event or self.st.last_event
        return ev is not None and ref in (ev.id, ev.name)

    def happened(self, ref: str) -> bool:
        cur = self.st.current_event
        if cur is not None and ref in (cur.id, cur.name):
            return True
        return ref in self.g.history_refs()

    def is_unlocked(self, s: int | None, k: int) -> bool:
        return self._seat(s).unlocked >= k

    # ---- players -------------------------------------------------------------------------------------
    def each_player(self, f: Frame, s: int | None, other: bool) -> tuple[int, ...]:
        order = self.players(f)
        return tuple(x for x in order if x != s) if other else order

    def players_with(self, f: Frame, which: str, key: Callable[[int], int]) -> list[int]:
        """Every player still in whose value of `key` is the highest (lowest, most, fewest)."""
        seats = self._visited(f)
        if not seats:
            return []
        values = [(s, key(s)) for s in seats]
        best = (max if which in ("highest", "most") else min)(v for _, v in values)
        return [s for s, v in values if v == best]

    # ---- tracks and money --------------------------------------------------------------------------
    def change(self, f: Frame, s: int | None, track: str, op: str, value: int) -> None:
        seat = _who(s)
        cur = getattr(self.st.seats[seat], track)
        # Both sides are within the number limit; the track's range then clamps the sum.
        new = cur + value if op == "+=" else cur - value if op == "-=" else value
        self.g.change_track(f, seat, track, new)

    def pay(self, f: Frame, s: int | None, n: int) -> int:
        seat = _who(s)
        if n < 0:
            raise EffectError(f"a payment gone negative: pay {n}")
        return self.g.pay(f, seat, n)

    def spend(self, f: Frame, s: int | None, n: int) -> None:
        seat = _who(s)
        p = self.st.seats[seat]
        if n < 0:
            raise EffectError(f"a payment gone negative: spend {n}")
        if n > p.money:
            raise EffectError(f"spend {n}, but P{seat + 1} has only {p.money}")
        self.g.spend_money(seat, n, f.card.id)

    def may(self, f: Frame, s: int | None) -> bool:
        return bool(self.g.effect_ask(_who(s), Ask.MAY, (True, False), card=f.card, text="resolve this?"))

    def may_pay(self, f: Frame, s: int | None, n: int) -> bool:
        seat = _who(s)
        if n < 0:
            raise EffectError(f"a payment gone negative: may pay {n}")
        if self.st.seats[seat].money < n:
            return False
        g = self.g
        if g.effect_ask(seat, Ask.MAY, (True, False), card=f.card, text=f"pay {n}?"):
            g.spend_money(seat, n, f.card.id)
            return True
        return False

    def choose(self, f: Frame, s: int | None, lo: int, hi: int) -> int:
        seat = self.decider(f, _who(s))
        if lo > hi:
            raise EffectError(f"choose from {lo} to {hi}: there is no number to choose")
        picked: int = self.g.effect_ask(seat, Ask.CHOOSE, range(lo, hi + 1), card=f.card, text=f"choose {lo}–{hi}")
        return picked

    # ---- who decides ----------------------------------------------------------------------------------------
    @staticmethod
    def decider(f: Frame, seat: int) -> int:
        """Who makes a choice on the subject's board (which residents, how many, `choose NAME from`): the card's
        owner, also inside another player's block, unless the card says `they choose:`; an event's subject (it
        has no owner). Choices of a player's own things (`may`, paying, cards from their hand) stay theirs."""
        owner = f.owner
        return seat if owner is None or f.they else owner

    @contextmanager
    def they_choose(self, f: Frame) -> Iterator[None]:
        """`they choose:` — the block's choices are its subject's."""
        outer, f.they = f.they, True
        try:
            yield
        finally:
            f.they = outer

    # ---- the board ----------------------------------------------------------------------------------------
    def _amount(self, f: Frame, s: int, mode: str, n: int | None, available: int, what: str) -> int:
        if mode == "all":
            return available
        if n is not None and n < 0:
            raise EffectError(f"a count gone negative: {n} {what}")
        if mode == "n":
            assert n is not None
            return n
        top = available if mode == "any" or n is None else min(n, available)
        if top <= 0:
            return 0
        picked: int = self.g.effect_ask(s, Ask.AMOUNT, range(top + 1), card=f.card, text=f"how many {what}?")
        return picked

    def _takeable(self, s: int, kind: str) -> list[int]:
        """A seat's cells of a kind that an effect may take: not a resident whose death is being decided."""
        cells = self.g.cells(s, KIND_CODES[kind])
        dying = self.g.dying
        return [i for i in cells if i not in dying] if dying else cells

    def board_verb(self, f: Frame, s: int | None, verb: str, mode: str, n: int | None, kind: str,
                   near: str | None = None) -> int:
        seat = _who(s)
        g = self.g
        cells = self._takeable(seat, kind)
        if near is not None:
            cells = self._next_to(f, cells, near)
        who = self.decider(f, seat)
        x = self._amount(f, who, mode, n, len(cells), kind)
        if x <= 0:
            return 0
        chosen = g.pick_cells(who, cells, x, f"{verb} {kind}", card=f.card)
        target, takes = VERB_TARGET[verb], VERB_FROM[verb]
        return sum(1 for i in chosen if g.board_verb(f, verb, i, target, takes))

    def _next_to(self, f: Frame | None, cells: list[int], near: str) -> list[int]:
        """The cells of these orthogonally next to a resident of kind `near` (on any board, as the table is
        before the statement), or, for 'it', next to the trigger's cell; in the order given."""
        if near == "it":
            it = f.it if f is not None else None       # a condition or a modifier has no `it` (the checker's RK213)
            return [i for i in cells if isinstance(it, int) and it in NEIGHBOURS[i]]
        codes, board = KIND_CODES[near], self.st.board
        return [i for i in cells if any(board[j] in codes for j in NEIGHBOURS[i])]

    def count_near(self, f: Frame | None, s: int | None, kind: str, near: str) -> int:
        """count(KIND next to NEAR): the subject's residents of a kind next to a NEAR (or to the trigger's cell)."""
        return len(self._next_to(f, self.g.cells(_who(s), KIND_CODES[kind]), near))

    def choose_cell(self, f: Frame, s: int | None, kind: str | None, hint: str) -> int | None:
        """`choose cell [with KIND]:` — one cell of the subject's board holding a KIND (without a kind: any revealed
        cell, empty or not), never a resident whose death is being decided; None when there is none. Who picks is
        the `decider`: the card's owner, on another player's board too, unless the card says `they choose:` (an
        event has no owner: the subject picks)."""
        seat = _who(s)
        cells = self._takeable(seat, kind) if kind is not None else [
            i for i in self.g.cells(seat, REVEALED) if i not in self.g.dying]
        if not cells:
            return None
        what = f" with {kind}" if kind is not None else ""
        return self._pick(f, self.decider(f, seat), cells, f"{hint}: choose a cell{what}")

    def it_as(self, f: Frame, cell: int) -> _ItAs:
        """`it` is the chosen cell for the block's statements, and what it was again after them."""
        return _ItAs(f, cell)

    def tag(self, f: Frame, verb: str, tag: str) -> None:
        """`tag it TAG` / `untag it TAG` on the cell `it` (the core's rule: only a living resident takes one)."""
        it = f.it
        if isinstance(it, int):
            self.g.tag_cell(it, tag, verb == "tag", f.card.id)

    def count_tagged(self, s: int | None, tag: str) -> int:
        """count(TAG): the subject's cells holding that tag."""
        return len(self.g.tagged(_who(s), tag))

    def verb_it(self, f: Frame, s: int | None, verb: str) -> None:
        it = f.it
        if verb == "discard":
            self.g.discard_it(f)
        elif isinstance(it, int):
            self.g.board_verb(f, verb, it, VERB_TARGET[verb], VERB_FROM[verb])

    def reveal(self, f: Frame, s: int | None, mode: str, n: int | None) -> int:
        seat = _who(s)
        who = self.decider(f, seat)
        x = self._amount(f, who, mode, n, self.st.seats[seat].counts[B.TILE], "tiles")
        return self.g.reveal_some(seat, x, f.card, who)

    def arrange(self, f: Frame, s: int | None, n: int) -> int:
        """The planner: see the fronts of n random tiles of mine, place them, shuffle the rest."""
        seat = _who(s)
        if n < 0:
            raise EffectError(f"a count gone negative: arrange {n}")
        return self.g.arrange(f, seat, n)

    # ---- cards ------------------------------------------------------------------------------------------------
    def draw(self, f: Frame, s: int | None, n: int, stage: int, keep: int | None) -> None:
        seat = _who(s)
        if stage not in (1, 2, 3):
            raise EffectError(f"there is no stage {stage} deck")
        if n < 0 or (keep is not None and keep < 0):
            raise EffectError("a count gone negative in draw")
        self.g.draw_cards(f, seat, n, stage, keep)

    def draft(self, f: Frame, s: int | None, n: int, stage: int) -> int:
        """`draft N from stage K`: the players still in (less any an event passes over) take one card each in turn
        order, from the subject on (an event's statement: from the round's first player); how many were taken."""
        if stage not in (1, 2, 3):
            raise EffectError(f"there is no stage {stage} deck")
        if n < 0:
            raise EffectError(f"a count gone negative: draft {n}")
        order = self.players(f)
        if s is not None and s in order:
            k = order.index(s)
            order = order[k:] + order[:k]
        return self.g.draft(f, order, n, stage)

    def unlock(self, f: Frame, s: int | None, k: int) -> None:
        seat = _who(s)
        if k not in (1, 2, 3):
            raise EffectError(f"there is no stage {k} to unlock")
        self.g.set_unlocked(seat, k)

    # ---- players, chosen and counted -------------------------------------------------------------------
    def players(self, f: Frame | None) -> tuple[int, ...]:
        """The players an effect visits: those still in, in turn order, less any an event passes over."""
        order = self.g.in_order()
        if f is not None and f.skip:
            return tuple(s for s in order if s not in f.skip)
        return order

    def choose_player(self, f: Frame, s: int | None, other: bool, where: Callable[[int], bool] | None) -> int | None:
        """`choose [other] player [where COND]:` — the subject picks one (None when no one qualifies)."""
        seat = _who(s)
        seats = tuple(x for x in self._visited(f) if not (other and x == seat) and (where is None or where(x)))
        if not seats:
            return None
        picked: int = self.g.effect_ask(seat, Ask.PLAYER, seats, card=f.card, text="choose a player")
        return picked

    # An aggregate reads its expression for every player (or card) it visits: one step each, so
    # aggregates inside aggregates meet the effect's step budget as loops inside loops do.
    def _visited(self, f: Frame | None) -> tuple[int, ...]:
        seats = self.players(f)
        self.g.tick(len(seats))
        return seats

    def highest(self, f: Frame | None, key: Callable[[int], int]) -> int:
        values = [key(s) for s in self._visited(f)]
        return max(values) if values else 0

    def lowest(self, f: Frame | None, key: Callable[[int], int]) -> int:
        values = [key(s) for s in self._visited(f)]
        return min(values) if values else 0

    def count_players(self, f: Frame | None, s: int | None, other: bool, where: Callable[[int], bool] | None) -> int:
        return sum(1 for x in self._visited(f) if not (other and x == s) and (where is None or where(x)))

    def tableau_cards(self, s: int | None) -> list[Card]:
        """The subject's cards for `count(tableau …)`: every card in the tableau, switched on or off."""
        cards = [e.card for e in self._seat(s).tableau]
        self.g.tick(len(cards))
        return cards

    def played_cards(self, s: int | None) -> list[Card]:
        """The subject's played cards for `count(played …)`: in the tableau and not switched off."""
        cards = [e.card for e in self._seat(s).tableau if e.on]
        self.g.tick(len(cards))
        return cards

    # ---- numbers kept on a card ------------------------------------------------------------------------------
    def counter(self, entry: Entry | None, owner: int | None, name: str) -> int:
        return self.g.counters_of(entry, owner)[name]

    def change_counter(self, f: Frame, name: str, op: str, value: int) -> None:
        cur = self.g.counters_of(f.entry, f.owner)[name]
        self.g.set_counter(f, name, num(cur + value if op == "+=" else cur - value if op == "-=" else value))

    # ---- time -------------------------------------------------------------------------------------------------
    def after(self, f: Frame, s: int | None, n: int, block: str, values: dict[str, Any]) -> None:
        """`after N rounds:` — keep the block (and the numbers it reads) for the start of round now + N."""
        if n < 1:
            raise EffectError(f"after {n} rounds: the number of rounds came to {n} here, and `after` needs 1 or "
                              "more (write `after max(1, …) rounds:` when it can be less)")
        self.g.schedule(f, s, n, block, values)

    # ---- moving things between players -------------------------------------------------------------------------
    def transfer(self, f: Frame, direction: str, src: int | None, dst: int | None, what: str, mode: str,
                 n: int | None) -> int:
        """`take`/`give`: move up to the amount from src to dst; the part that could not be moved is returned."""
        a, b = _who(src), _who(dst)
        if n is not None and n < 0:
            raise EffectError(f"a count gone negative: {direction} {n} {what}")
        return self.g.transfer(f, direction, a, b, what, mode == "all", n or 0)

    # ---- hands --------------------------------------------------------------------------------------------------
    def discard(self, f: Frame, s: int | None, mode: str, n: int | None) -> int:
        """`discard AMOUNT cards`: the subject picks which; how many were discarded."""
        seat = _who(s)
        x = self._amount(f, seat, mode, n, len(self.st.seats[seat].hand), "cards")
        if x <= 0:
            return 0
        return self.g.discard_cards(f, seat, x)

    def may_discard(self, f: Frame, s: int | None, n: int) -> bool:
        """`may discard N cards:` — a cost the subject may choose to pay with cards from hand."""
        seat = _who(s)
        if n < 0:
            raise EffectError(f"a count gone negative: may discard {n} cards")
        if len(self.st.seats[seat].hand) < n:
            return False
        g = self.g
        if not g.effect_ask(seat, Ask.MAY, (True, False), card=f.card, text=f"discard {n} cards?"):
            return False
        g.discard_chosen(f, seat, n)
        return True

    # ---- chance -------------------------------------------------------------------------------------------------
    def roll(self, f: Frame, s: int | None, sides: int, rerolls: int = 0) -> int:
        """`roll(N)`, `roll(N, rerolls K)`: a die from the game's generator; the subject may roll again K times."""
        return self.g.roll(f, s, sides, rerolls)

    def look_at_events(self, f: Frame, s: int | None, n: int, reorder: bool) -> int:
        """`foresee N events` / `arrange N events`: the subject looks at the next N events (and orders them)."""
        return self.g.look_at_events(f, _who(s), n, reorder)

    def reshuffle_events(self, f: Frame, mode: str, n: int | None) -> int:
        """`reshuffle AMOUNT events`: the most recent past events back into the deck, shuffled."""
        return self.g.reshuffle_events(f, None if mode == "all" else n)

    # ---- moving residents ---------------------------------------------------------------------------------------
    def move(self, f: Frame, s: int | None, mode: str, n: int | None, kind: str) -> int:
        """`move AMOUNT KIND`: residents to empty cells of the same board, the subject picking which and where."""
        seat = _who(s)
        g = self.g
        cells = self._takeable(seat, kind)
        if not g.cells(seat, (B.EMPTY,)):
            return 0
        who = self.decider(f, seat)
        x = self._amount(f, who, mode, n, len(cells), kind)
        moved_to: list[int] = []
        for _ in range(x):
            left = [i for i in self._takeable(seat, kind) if i not in moved_to]
            empties = g.cells(seat, (B.EMPTY,))
            if not left or not empties:
                break
            a = self._pick(f, who, left, f"move which {kind}?")
            b = self._pick(f, who, empties, "move it to which empty cell?")
            g.move_resident(a, b, f.card.id)
            moved_to.append(b)
        return len(moved_to)

    def _pick(self, f: Frame, s: int, cells: list[int], text: str) -> int:
        """One of these cells, asked of seat s (no question when there is only one)."""
        picked, = self.g.pick_cells(s, cells, 1, text, f.card)
        return picked


class _ItAs:
    """The frame's `it` set to a chosen cell for a block (`with rt.it_as(f, cell):`), put back after it."""

    __slots__ = ("cell", "f", "outer")

    def __init__(self, f: Frame, cell: int) -> None:
        self.f, self.cell, self.outer = f, cell, f.it

    def __enter__(self) -> None:
        self.f.it = self.cell

    def __exit__(self, *exc: object) -> None:
        self.f.it = self.outer


NO_PLAYER = "this statement has no player to act on (an event needs `each player:` or `player with …:` first)"


def _who(s: int | None) -> int:
    """The seat a statement acts on; an event's statement outside `each player:` has none."""
    if s is None:
        raise EffectError(NO_PLAYER)
    return s
