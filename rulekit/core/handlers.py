"""Handler tables, frames, triggers, reactions and modifiers: how the cards in play hear the game.

`Tables` indexes one seat's cards in play (made again only when its tableau or advisor changes);
`Frame` is one run of a handler. `Handlers` is the part of a Game that runs compiled handlers within
their step budget, fires triggers, offers reactions and applies modifiers to quantities.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from rulekit import registry
from rulekit.core import board as B
from rulekit.core.errors import EffectError
from rulekit.core.program import Card, Expression, Handler, Program
from rulekit.core.questions import Ask
from rulekit.core.state import Entry, GameState, SeatState

SOURCE_OF_KIND = registry.SOURCE_OF_KIND

if TYPE_CHECKING:
    pass

WORDS = {w: (w, w.split(" ")[0]) for w in registry.TRIGGERS if " " in w and w not in registry.OTHER_TRIGGERS}
# The word another player's card hears a moment by (`when other cure:` hears 'cure').
OTHER_WORD = {w.split(" ", 1)[1]: (w,) for w in registry.OTHER_TRIGGERS}
# Whether a moment still holds: (game, seat, what the trigger is about).
Holds = Callable[["Handlers", int, Any], bool]


def _holds_state(*codes: int) -> Holds:
    return lambda g, seat, it: g.state.board[it] in codes


def _in_hand(g: Handlers, seat: int, it: Any) -> bool:
    return any(c is it for c in g.state.seats[seat].hand)


def _always(g: Handlers, seat: int, it: Any) -> bool:
    return True


# What must still be true of a moment for its next handler to run, or its next reaction to be offered
# (docs/language.md §3, 'When a moment is over'): the subject is still what the trigger named.
# Every trigger of the registry says it here (a test holds them to it).
STILL_HOLDS: dict[str, Holds] = {
    "reveal": _holds_state(B.HEALTHY, B.MILD),      # the resident the tile turned up as, still in its cell
    "reveal mild": _holds_state(B.MILD),
    "reveal healthy": _holds_state(B.HEALTHY),
    # The dying resident, still alive in its cell (whatever its kind now: it is the one dying).
    **dict.fromkeys(("death", "death healthy", "death mild", "death severe"), _holds_state(*B.ALIVE)),
    "cure": _holds_state(B.HEALTHY),                # the cured resident, healthy in its cell
    "event": _always,                               # the event resolves next, whatever its handlers did
    "play": _always,                                # the card is paid for and out of the hand
    "overthrown": _always,                          # the change that would overthrow is not made
    "unsold": _in_hand,                             # the unsold card, back in its owner's hand
}
# Another player's moment still holds as their own does (the seat is theirs, not the listener's).
STILL_HOLDS.update({w: STILL_HOLDS[w.split(" ", 1)[1]] for w in registry.OTHER_TRIGGERS})
DEATH_WORDS = {B.HEALTHY: "death healthy", B.MILD: "death mild", B.SEVERE: "death severe"}
# What can go wrong inside an effect's own work; a RuleViolation or a chooser's error passes through.
EFFECT_FAILURES = (EffectError, ArithmeticError, RecursionError)
SIGNED_QUANTITIES = frozenset(name for name, q in registry.QUANTITIES.items() if q.signed)
EFFECT_STEPS = registry.LIMITS["effect_steps"].value


class Frame:
    """One run of a handler: its card, owner, tableau entry, `it`, and whether it prevented something."""

    __slots__ = ("card", "cause", "entry", "from_other", "it", "mover", "owner", "prevented", "skip", "they")

    def __init__(self, card: Card, owner: int | None, entry: Entry | None = None, it: Any = None,
                 skip: frozenset[int] = frozenset(), cause: tuple[Card, int | None] | None = None,
                 mover: int | None = None):
        self.card = card
        self.owner = owner
        self.entry = entry
        self.it = it
        self.prevented = False
        self.skip = skip            # seats an event passes over (their `when event:` prevented it)
        # A trigger's: the card (and its owner) whose effect made the moment happen, None for the game's own
        # steps (`caused_by`, 5.37); and the player whose moment it is (`that player:` in `when other …`, 5.35).
        self.cause = cause
        self.mover = mover
        # Inside `they choose:`: the subject, not the owner, makes the choices on the board (Runtime.decider).
        self.they = False
        # Effects of events and combos count as "other" for shields (docs/language.md, 'Shield').
        self.from_other = card is not None and card.kind in ("event", "combo")


# What a `once when becomes` condition may read for check_becomes to skip it while none of it changed; without
# "players" (aggregates, count(player …)) it reads only its own seat, and the boards (next to: any board).
_SIGNED = ("board", "tracks", "round", "stage", "hand", "counters")


class Tables:
    """A seat's cards in play, indexed once per change of its tableau or advisor (not per question)."""

    __slots__ = ("_fired", "becomes", "kept", "limits", "modifiers", "names", "off", "on", "played", "seal_in",
                 "seal_out", "sealed", "sealed_out", "shields", "shields_while", "skips", "skips_while", "triggers")

    def __init__(self, program: Program, seat_state: SeatState) -> None:
        active: list[tuple[Any, Entry | None]] = []      # (compiled card, entry), handler order
        if seat_state.advisor is not None:
            active.append((program.cards[seat_state.advisor.id], None))
        for e in seat_state.tableau:
            if e.on and not e.spent:
                active.append((program.cards[e.card.id], e))
        self.on: dict[str, list] = {}
        self.triggers: dict[str, list] = {}        # word -> [(key, fn, once, card, entry, position, word)]
        self.modifiers: dict[str, list] = {}
        self.becomes: list = []                    # [(key, condition, fn, card, entry, flags)], handler order
        self._fired: dict[tuple[str, ...], tuple] = {}
        shields: set[tuple[str, str]] = set()
        skips: set[str] = set()
        # Declarations with `while COND` are kept apart, with their card, and their condition read each time
        # the game consults them (docs/language.md 4, 'while'); the ones without are plain sets and flags.
        self.shields_while: list[tuple[str, frozenset[str], Expression, Card, Entry | None]] = []
        self.skips_while: list[tuple[str, Expression, Card, Entry | None]] = []
        self.seal_in: list[tuple[Expression, Card, Entry | None]] = []
        self.seal_out: list[tuple[Expression, Card, Entry | None]] = []
        self.limits: dict[str, list[tuple[str, int, Expression | None, Card, Entry | None]]] = {}
        self.sealed = self.sealed_out = False
        for position, (compiled, entry) in enumerate(active):
            card = compiled.card
            for key, fn in compiled.on.items():
                self.on.setdefault(key, []).append((fn, card, entry))
            for word, handlers in compiled.triggers.items():
                for key, fn, once in handlers:
                    self.triggers.setdefault(word, []).append((key, fn, once, card, entry, position, word))
            for key, cond, fn, reads in compiled.becomes:
                flags = None if reads is None else tuple(w in reads for w in _SIGNED)
                self.becomes.append((key, cond, fn, card, entry, flags))
            for quantity, fn, floor, cond in compiled.modifiers:
                self.modifiers.setdefault(quantity, []).append((fn, floor, card, entry, cond))
            for target, sources, cond in compiled.shields:
                if cond is None:
                    shields.update((target, source) for source in sources)
                else:
                    self.shields_while.append((target, sources, cond, card, entry))
            for step, cond in compiled.skips:
                if cond is None:
                    skips.add(step)
                else:
                    self.skips_while.append((step, cond, card, entry))
            for target, direction, cond in compiled.seals:
                if target != "border":
                    continue
                into, out = direction in ("in", "both"), direction in ("out", "both")
                if cond is None:
                    self.sealed = self.sealed or into
                    self.sealed_out = self.sealed_out or out
                else:
                    if into:
                        self.seal_in.append((cond, card, entry))
                    if out:
                        self.seal_out.append((cond, card, entry))
            for track, which, value, cond in compiled.limits:
                self.limits.setdefault(track, []).append((which, value, cond, card, entry))
        # Events' marks on this seat (`mark`): each marking event's phase handlers (`on PHASE start|end`,
        # `on game end`) run for this seat after its cards', in the order the marks came; its `on resolve` does not.
        for cid, stacks in seat_state.marks.items():
            if stacks:
                compiled = program.cards[cid]
                for key, fn in compiled.on.items():
                    if key != "resolve":
                        self.on.setdefault(key, []).append((fn, compiled.card, None))
        self.shields = frozenset(shields)     # (target, source) pairs
        self.skips = frozenset(skips)     # spread steps that do nothing on this board
        self.names = frozenset(e.card.name for e in seat_state.tableau)   # one card per name, all entries
        # What `played("…")` finds: the ids and names of tableau cards not switched off.
        self.played = frozenset(x for e in seat_state.tableau if e.on for x in (e.card.id, e.card.name))
        # `tableau("…")` and `switched_off("…")` (5.36): every tableau card, and those switched off.
        self.kept = frozenset(x for e in seat_state.tableau for x in (e.card.id, e.card.name))
        self.off = frozenset(x for e in seat_state.tableau if not e.on for x in (e.card.id, e.card.name))

    def fired(self, words: tuple[str, ...]) -> tuple:
        """The handlers a trigger runs: card by card in handler order, each card's words in order."""
        hit = self._fired.get(words)
        if hit is None:
            found = [(h[5], k, h) for k, w in enumerate(words) for h in self.triggers.get(w, ())]
            found.sort(key=lambda x: (x[0], x[1]))
            hit = self._fired[words] = tuple(h[:5] + h[6:] for _, _, h in found)
        return hit




class Handlers:
    """The cards in play of a game: their tables, and running their handlers, triggers and reactions."""

    state: GameState
    program: Program
    players: int
    log: list[dict[str, Any]] | None
    verbose: bool
    rt: object
    deadline: int                          # the step count at which the running effect is over its budget
    dying: set[int]
    _tables: list[Tables | None]
    _on_index: dict[str, dict[int, list[tuple[Handler, Card, Entry | None]]]] | None
    _chain: list[Card]
    _frames: list[Frame]                   # the frames of the handlers running, outermost first (a moment's cause)
    _becoming: bool
    _becomes_live: bool | None
    stepping: bool
    _becomes_false: dict[tuple[int, str], Any]
    _history: frozenset[str]
    _history_len: int

    if TYPE_CHECKING:                      # the decision loop and the operations, in Game and Ops
        def ask(self, seat: int, kind: Ask, options: Sequence[Any], card: Card | None = None,
                text: str = "") -> Any: ...
        def effect_ask(self, seat: int, kind: Ask, options: Sequence[Any], card: Card | None = None,
                       text: str = "") -> Any: ...
        def in_order(self) -> tuple[int, ...]: ...
        def active_players(self) -> tuple[int, ...]: ...
        def can_play(self, seat: int, card: Card, reaction: bool = False) -> str | None: ...
        def react_with(self, seat: int, ref: str, trigger: str, it: Any,
                       cause: tuple[Card, int | None] | None = None) -> bool: ...

    def record(self, kind: str, **data: Any) -> None:
        if self.log is not None:
            self.log.append({"e": kind, "round": self.state.round, "phase": self.state.phase, **data})

    # ---- the cards in play -------------------------------------------------------------------------------------
    def tables(self, seat: int) -> Tables:
        return self._tables[seat] or self._index(seat)

    def _index(self, seat: int) -> Tables:
        t = self._tables[seat] = Tables(self.program, self.state.seats[seat])
        return t

    def history_refs(self) -> frozenset[str]:
        """The ids and names of the events in the history (made again only when the history grows)."""
        history = self.state.history
        if self._history_len != len(history):
            self._history = frozenset(x for e in history for x in (e.id, e.name))
            self._history_len = len(history)
        return self._history

    def cards_changed(self, seat: int) -> None:
        """A card entered or left a seat's play (or was switched, or spent): index its tables again."""
        self._tables[seat] = None
        self._on_index = None
        self._becomes_live = None

    def _phase_handlers(self, key: str, seat: int) -> list[tuple[Handler, Card, Entry | None]] | None:
        index = self._on_index
        if index is None:
            index = self._on_index = {}
            for s in range(self.players):
                for k, handlers in self.tables(s).on.items():
                    index.setdefault(k, {})[s] = handlers
        by_seat = index.get(key)
        return by_seat.get(seat) if by_seat else None

    def quantity(self, seat: int, name: str, base: int, without: str | None = None, note: bool = True) -> int:
        """X' = max(0, X + Σd, max over bounds of min(N, X)) (docs/rules.md, modifiers)."""
        mods = (self._tables[seat] or self._index(seat)).modifiers.get(name)
        if mods:
            total = base
            floor = None
            for fn, bound, card, entry, cond in mods:
                if without is not None and card.id == without:
                    continue
                if cond is not None and not self.evaluate(cond, card, seat, entry):
                    continue
                d = self.evaluate(fn, card, seat, entry)
                total += d
                if note and self.verbose and d:
                    self.record("modifier", seat=seat, card=card.id, quantity=name, delta=d)
                if bound is not None:
                    m = min(bound, base)
                    floor = m if floor is None or m > floor else floor
            if floor is not None and floor > total:
                total = floor
        else:
            total = base
        if name in SIGNED_QUANTITIES or total >= 0:
            return total
        return 0

    def shielded(self, seat: int, what: str, frame: Frame | None) -> bool:
        """Whether a loss of `what` the frame's statement would cause the seat is stopped by one of its shields:
        the frame's card counts as the source its kind says (an event, a combo, or another player's card)."""
        if frame is None or not (frame.from_other or frame.owner != seat):
            return False
        t = self._tables[seat] or self._index(seat)
        source = SOURCE_OF_KIND.get(frame.card.kind, "players") if frame.card is not None else "players"
        if (what, source) in t.shields:
            return True
        for target, sources, cond, card, entry in t.shields_while:
            if target == what and source in sources and self.evaluate(cond, card, seat, entry):
                return True
        return False

    def sealed(self, seat: int) -> bool:
        """Whether contagion from other boards cannot reach the seat's board now (`seal border [in|both]`)."""
        t = self._tables[seat] or self._index(seat)
        return t.sealed or (bool(t.seal_in) and self._any_holds(t.seal_in, seat))

    def sealed_out(self, seat: int) -> bool:
        """Whether the seat's infected and dead cannot reach other boards now (`seal border out|both`)."""
        t = self._tables[seat] or self._index(seat)
        return t.sealed_out or (bool(t.seal_out) and self._any_holds(t.seal_out, seat))

    def skipping(self, seat: int, step: str) -> bool:
        """Whether a spread step does nothing on the seat's board now (`skip STEP [while COND]`)."""
        t = self._tables[seat] or self._index(seat)
        if step in t.skips:
            return True
        return any(s == step and self.evaluate(cond, card, seat, entry) for s, cond, card, entry in t.skips_while)

    def _any_holds(self, conds: list[tuple[Expression, Card, Entry | None]], seat: int) -> bool:
        return any(self.evaluate(cond, card, seat, entry) for cond, card, entry in conds)

    def held(self, seat: int, track: str, cur: int, new: int, why: str | None) -> int:
        """A change of the seat's track from cur to new, held to its cards' floors and ceilings (`floor TRACK N`,
        `ceiling TRACK N` [while COND]): a floor N stops a fall at min(N, cur), a ceiling a rise at max(N, cur),
        so neither ever moves the track itself. Each cut is logged as "held", the card that held it named."""
        for which, value, cond, card, entry in (self._tables[seat] or self._index(seat)).limits[track]:
            if cond is not None and not self.evaluate(cond, card, seat, entry):
                continue
            if which == "floor":
                bound = value if value < cur else cur
                if new >= bound:
                    continue
            else:
                bound = value if value > cur else cur
                if new <= bound:
                    continue
            self.record("held", seat=seat, track=track, card=card.id, wanted=new, value=bound, why=why)
            new = bound
        return new

    # ---- running effects -----------------------------------------------------------------------------------------
    def run_handler(self, fn: Handler, card: Card, seat: int | None, entry: Entry | None = None, it: Any = None,
                    how: str = "", skip: frozenset[int] = frozenset(), values: dict[str, Any] | None = None,
                    cause: tuple[Card, int | None] | None = None, mover: int | None = None) -> Frame:
        """Run one handler of a card; an error names the card, its line, the round and the seed."""
        frame = Frame(card, seat, entry, it, skip, cause, mover)
        chain = self._chain
        chain.append(card)
        frames = self._frames
        frames.append(frame)
        outer = self.deadline
        st = self.state
        self.deadline = min(outer, st.steps + registry.LIMITS["effect_steps"].value)
        if self.verbose:
            self.record("fire", seat=seat, card=card.id, how=how)
        try:
            if len(chain) > registry.MAX_TRIGGER_DEPTH:
                raise EffectError("effects set each other off more than "
                                  f"{registry.MAX_TRIGGER_DEPTH} times in a row: {_chain_words(chain)}", card, 0)
            if values is None:
                fn(self.rt, frame)
            else:
                fn(self.rt, frame, values)
        except EFFECT_FAILURES as err:
            raise self.program.located(err, card, st) from None
        finally:
            chain.pop()
            frames.pop()
            self.deadline = outer
        if self.verbose:
            self.record("done", card=card.id, prevented=frame.prevented)
        if not chain and not self.stepping and self.program.hears_becomes:
            self.check_becomes()            # an effect outside the rules' steps (inside one: when the step is done)
        return frame

    def check_becomes(self) -> None:
        """`once when becomes COND:` — every seat's cards in play, in turn order and handler order: a handler
        whose condition now holds runs, once in the game (docs/language.md 5.41). Called after every step of
        the rules and after every outermost effect; what a handler run changes is checked again at once."""
        if self._becoming:
            return
        tables = self._tables
        live = self._becomes_live
        if live is None:
            live = self._becomes_live = any((tables[s] or self._index(s)).becomes for s in range(self.players))
        if not live:
            return
        self._becoming = True
        st = self.state
        false_at = self._becomes_false      # (seat, key) -> the signature at which it was last false
        try:
            ran = True
            while ran:
                ran = False
                board = sum(st.board_version)       # each seat's version only grows: equal sums, equal boards
                for seat in self.in_order():
                    p = st.seats[seat]
                    for key, cond, fn, card, entry, flags in (tables[seat] or self._index(seat)).becomes:
                        if key in p.once_fired or p.out or st.over:
                            continue
                        sig = None
                        if flags is not None:       # worked out again only when something it reads changed
                            b, t, r, s, h, c = flags
                            sig = (board if b else 0,
                                   (p.medical, p.disease, p.policy, p.score, p.economy, p.money) if t else 0,
                                   st.round if r else 0, p.unlocked if s else 0, len(p.hand) if h else 0,
                                   tuple((entry.counters if entry is not None else p.advisor_counters).items())
                                   if c else 0)
                            if false_at.get((seat, key)) == sig:
                                continue
                        if self.evaluate(cond, card, seat, entry):
                            p.once_fired.add(key)
                            self.run_handler(fn, card, seat, entry, how="once when becomes")
                            ran = True
                            break
                        if sig is not None:
                            false_at[(seat, key)] = sig
                    if ran:
                        break
        finally:
            self._becoming = False

    def evaluate(self, fn: Expression, card: Card, seat: int, entry: Entry | None = None) -> Any:
        """A modifier's amount or a combo's condition, for a seat, within one effect's step budget (its
        count(…), highest and lowest count against it); errors name the card and line."""
        outer = self.deadline
        steps = self.state.steps + EFFECT_STEPS
        self.deadline = steps if steps < outer else outer
        try:
            return fn(self.rt, seat, entry)
        except EFFECT_FAILURES as err:
            raise self.program.located(err, card, self.state) from None
        finally:
            self.deadline = outer

    def bounded(self, fn: Callable[..., Any], *args: Any) -> Any:
        """An expression (an unlock condition) within one effect's step budget, as `evaluate`."""
        outer = self.deadline
        self.deadline = min(outer, self.state.steps + EFFECT_STEPS)
        try:
            return fn(*args)
        finally:
            self.deadline = outer

    def tick(self, n: int) -> None:
        """n statements are about to run: count them against the effect's and the game's budget."""
        st = self.state
        st.steps += n
        if st.steps > self.deadline:
            self.over_budget()

    def over_budget(self) -> None:
        st = self.state
        if st.steps > registry.LIMITS["game_steps"].value:
            raise EffectError(f"the effects of this game ran more than {registry.LIMITS['game_steps'].value} "
                              "statements (a loop that never ends?)")
        raise EffectError(f"this effect ran more than {registry.LIMITS['effect_steps'].value} statements "
                          "(repeat inside repeat, count(…) or highest(…) inside one another, or effects setting "
                          "each other off)")

    def run_on(self, seat: int, key: str, entry: Entry | None = None) -> None:
        """Run the `on KEY` handler of a seat's card (its advisor when entry is None)."""
        card = entry.card if entry is not None else self.state.seats[seat].advisor
        if card is None:
            return
        fn = self.program.cards[card.id].on.get(key)
        if fn is not None:
            self.run_handler(fn, card, seat, entry, how="on " + key)

    def run_phase_handlers(self, phase: str, edge: str) -> None:
        """The `on PHASE start/end` handlers of every player in turn order, then `react PHASE start/end` offers."""
        key = f"{phase} {edge}"
        if self._on_index is None or key in self._on_index:
            seats = self.state.seats
            for s in self.in_order():
                handlers = None if seats[s].out else self._phase_handlers(key, s)
                if handlers:
                    for fn, card, entry in handlers:
                        self.run_handler(fn, card, s, entry, how="on " + key)
        if key in self.program.react_moments:
            seats = self.state.seats
            for s in self.in_order():
                if seats[s].hand and not seats[s].out:
                    self.offer_reactions(s, (key,), None)

    def fire(self, seat: int, word: str, it: Any) -> bool:
        """Run `when`/`once when` handlers and offer reactions for a trigger; True if prevented.

        A prevented moment hears no further handler and is offered no reaction; nor is a moment that
        no longer holds (STILL_HOLDS: the revealed mild removed, the dying resident gone) or whose
        player is out (docs/language.md §3, 'When a moment is over').
        """
        p = self.state.seats[seat]
        if p.out:
            return False
        words = WORDS.get(word) or (word,)
        holds = STILL_HOLDS[word]
        tables = self._tables[seat] or self._index(seat)
        cause = self.cause_of(word, it)
        if tables.triggers:
            for key, fn, once, card, entry, heard in tables.fired(words):
                if p.out or not holds(self, seat, it):
                    return False
                if once:
                    if key in p.once_fired:
                        continue
                    p.once_fired.add(key)
                frame = self.run_handler(fn, card, seat, entry, it, how=("once when " if once else "when ") + heard,
                                         cause=cause, mover=seat)
                if frame.prevented:
                    return True
        if p.hand and self.program.reactive and self.offer_reactions(seat, words, it, holds, cause):
            return True
        if word in self.program.hears_other:
            self.fire_others(seat, word, it, holds, cause)
        return False

    def cause_of(self, word: str, it: Any) -> tuple[Card, int | None] | None:
        """What made a moment happen (`caused_by`, 5.37): the event about to resolve, or the card (and owner)
        whose handler is running; None for the game's own steps (treatment, the spread, discovery, actions)."""
        if word == "event":
            return (it, None)
        frames = self._frames
        if not frames:
            return None
        f = frames[-1]
        return (f.card, f.owner)

    def fire_others(self, seat: int, word: str, it: Any, holds: Holds, cause: tuple[Card, int | None] | None) -> None:
        """`when other …` (5.35): after the moment's own player, every other player still in, in this round's
        turn order, runs its cards' handlers for it, while the moment holds and its player is still in."""
        words = OTHER_WORD[word]
        seats = self.state.seats
        for s in self.in_order():
            if s == seat:
                continue
            tables = self._tables[s] or self._index(s)
            if not tables.triggers:
                continue
            q = seats[s]
            for key, fn, once, card, entry, heard in tables.fired(words):
                if seats[seat].out or not holds(self, seat, it):
                    return
                if q.out:
                    break
                if once:
                    if key in q.once_fired:
                        continue
                    q.once_fired.add(key)
                self.run_handler(fn, card, s, entry, it, how=("once when " if once else "when ") + heard,
                                 cause=cause, mover=seat)

    def offer_reactions(self, seat: int, words: Sequence[str], it: Any, holds: Holds = _always,
                        cause: tuple[Card, int | None] | None = None) -> bool:
        """Offer each card in hand that reacts to the moment, while the moment still holds; True when one
        prevented it (then no more are offered)."""
        p = self.state.seats[seat]
        if p.out or not holds(self, seat, it):
            return False
        reactive = self.program.reactive
        offered: list[str] = []
        played = False              # once a reaction is played, the moment and the hand may have changed
        for card in list(p.hand):
            if card.id not in reactive or card.id in offered:
                continue
            if played:
                if p.out or not holds(self, seat, it):
                    return False
                if all(c is not card for c in p.hand):
                    continue        # the reaction took it from the hand
            react = self.program.cards[card.id].react
            w = next((w for w in words if w in react), None)
            if w is None or self.can_play(seat, card, reaction=True) is not None:
                continue
            offered.append(card.id)
            if self.ask(seat, Ask.REACT, (True, False), card=card, text=f"play {card.name} as a reaction?"):
                if self.react_with(seat, card.id, w, it, cause):
                    return True
                played = True
        return False


def _chain_words(chain: Sequence[Card]) -> str:
    """The loop of cards setting each other off: 'A → B → A', every card of the cycle named."""
    last = chain[-1]
    k = next((k for k in range(2, len(chain) + 1) if chain[-k] is last), None)
    cycle = chain[-k:] if k is not None else chain[-6:]
    return " → ".join(f"{c.name} ({c.id})" for c in cycle)
