"""One game: a GameState, the rules and compiled cards it is played by, and the operations of rules.md over it.

The game moves from one top-level decision to the next (`pending`, `answer`); questions asked inside
card effects go to the seat's chooser at once. `run` plays to the end; `clone` copies the game
exactly, so a search can try an answer and play on.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rulekit import registry
from rulekit.core import board as B
from rulekit.core.errors import EffectError, RuleViolation
from rulekit.core.default import DefaultChooser
from rulekit.core.questions import CELLS, Ask, Chooser, Observation, Question
from rulekit.core.rules import Rules
from rulekit.core.state import Cursor, Entry, GameState

# A trigger with a filter also sets off its handlers without one (`when reveal` hears `reveal mild`).
WORDS = {w: (w, w.split(" ")[0]) for w in registry.TRIGGERS if " " in w}


def _holds_state(*codes: int) -> Callable[[Game, int, Any], bool]:
    return lambda g, seat, it: g.state.board[it] in codes


def _in_hand(g: Game, seat: int, it) -> bool:
    return any(c is it for c in g.state.seats[seat].hand)


def _always(g: Game, seat: int, it) -> bool:
    return True


# What must still be true of a moment for its next handler to run, or its next reaction to be offered
# (docs/language.md §3, 'When a moment is over'): the subject is still what the trigger named.
# Every trigger of the registry says it here (a test holds them to it).
STILL_HOLDS: dict[str, Callable[[Game, int, Any], bool]] = {
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
DEATH_WORDS = {B.HEALTHY: "death healthy", B.MILD: "death mild", B.SEVERE: "death severe"}
# What can go wrong inside an effect's own work; a RuleViolation or a chooser's error passes through.
EFFECT_FAILURES = (EffectError, ArithmeticError, RecursionError)
SIGNED_QUANTITIES = frozenset(name for name, q in registry.QUANTITIES.items() if q.signed)
EFFECT_STEPS = registry.LIMITS["effect_steps"].value


class Frame:
    """One run of a handler: its card, owner, tableau entry, `it`, and whether it prevented something."""

    __slots__ = ("card", "entry", "from_other", "it", "owner", "prevented", "skip")

    def __init__(self, card, owner: int | None, entry: Entry | None = None, it: Any = None,
                 skip: frozenset[int] = frozenset()):
        self.card = card
        self.owner = owner
        self.entry = entry
        self.it = it
        self.prevented = False
        self.skip = skip            # seats an event passes over (their `when event:` prevented it)
        # Effects of events and combos count as "other" for shields (docs/language.md, 'Shield').
        self.from_other = card is not None and card.kind in ("event", "combo")


class Tables:
    """A seat's cards in play, indexed once per change of its tableau or advisor (not per question)."""

    __slots__ = ("_fired", "modifiers", "names", "on", "played", "sealed", "shields", "skips", "triggers")

    def __init__(self, program, seat_state):
        active: list[tuple[Any, Entry | None]] = []      # (compiled card, entry), handler order
        if seat_state.advisor is not None:
            active.append((program.cards[seat_state.advisor.id], None))
        for e in seat_state.tableau:
            if e.on and not e.spent:
                active.append((program.cards[e.card.id], e))
        self.on: dict[str, list] = {}
        self.triggers: dict[str, list] = {}        # word -> [(key, fn, once, card, entry, position, word)]
        self.modifiers: dict[str, list] = {}
        self._fired: dict[tuple[str, ...], tuple] = {}
        shields: set[str] = set()
        skips: set[str] = set()
        self.sealed = False
        for position, (compiled, entry) in enumerate(active):
            for key, fn in compiled.on.items():
                self.on.setdefault(key, []).append((fn, compiled.card, entry))
            for word, handlers in compiled.triggers.items():
                for key, fn, once in handlers:
                    self.triggers.setdefault(word, []).append((key, fn, once, compiled.card, entry, position, word))
            for quantity, fn, floor in compiled.modifiers:
                self.modifiers.setdefault(quantity, []).append((fn, floor, compiled.card, entry))
            shields.update(compiled.shields)
            skips.update(compiled.skips)
            self.sealed = self.sealed or "border" in compiled.seals
        self.shields = frozenset(shields)
        self.skips = frozenset(skips)     # spread steps that do nothing on this board
        self.names = frozenset(e.card.name for e in seat_state.tableau)   # one card per name, all entries
        # What `played("…")` finds: the ids and names of tableau cards not switched off.
        self.played = frozenset(x for e in seat_state.tableau if e.on for x in (e.card.id, e.card.name))

    def fired(self, words: tuple[str, ...]) -> tuple:
        """The handlers a trigger runs: card by card in handler order, each card's words in order."""
        hit = self._fired.get(words)
        if hit is None:
            found = [(h[5], k, h) for k, w in enumerate(words) for h in self.triggers.get(w, ())]
            found.sort(key=lambda x: (x[0], x[1]))
            hit = self._fired[words] = tuple(h[:5] + h[6:] for _, _, h in found)
        return hit


class Game:
    """A game being played: a pure function of (content, rules, seed, choosers)."""

    def __init__(self, program, rules: Rules, state: GameState, choosers: Sequence[Chooser], *,
                 log: list | None = None, verbose: bool = False):
        from rulekit.interpreter.runtime import Runtime

        self.program = program
        self.content = program.content
        self.rules = rules
        self.state = state
        self.players = state.players
        self.geo = B.geometry(state.players)
        self.choosers = list(choosers)
        self.log = log
        self.verbose = verbose and log is not None
        self.rt = Runtime(self)
        self.combos = program.combos
        self._tables: list[Tables | None] = [None] * state.players
        self._order_round = 0                  # the round the orders below were made for (0: make them again)
        self._order: tuple[int, ...] = ()
        self._in_order: tuple[int, ...] = ()
        self._active: tuple[int, ...] = ()
        self._orders()
        self._on_index: dict[str, dict[int, list]] | None = None
        self._frontier: list[set[int]] | None = None
        self._history: frozenset[str] = frozenset()
        self._history_len = 0
        self._where: list[list[set[int]]] | None = None     # cells of each seat by state
        self._pending: Question | None = None
        self.halt = False                      # a partial run reached its end (Cursor.stop)
        self._views = [Observation(self, s) for s in range(state.players)]
        self._chain: list = []                 # cards whose handlers are running, outermost first
        self.dying: set[int] = set()           # cells whose `death` handlers are running: no effect takes them
        self._asking = 0                       # questions asked inside a step (effects, reactions) not yet answered
        self._deadline = registry.LIMITS["game_steps"].value
        self._unlock_seen = [None] * state.players

    # ---- making games --------------------------------------------------------------------------
    @classmethod
    def new(cls, content, seed: int, choosers: Sequence[Chooser], *, players: int | None = None,
            rules: dict | None = None, evaluator: str = "compiled", log: list | None = None,
            combos: list | None = None, verbose: bool = False, unlock: tuple[dict, dict] | None = None) -> Game:
        """A game at its very start (before setup), with decks built from the content.

        `rules` replaces the content's rules mapping: it is checked as rules.yaml is (ContentError
        on a mistake), and its unlock conditions are the ones played. `unlock` (parsed conditions,
        and the file of each) replaces the content's unlock conditions (scenarios read their own).
        """
        from rulekit.interpreter import compile_content

        if rules is not None and unlock is None and rules is not content.rules:
            unlock = rules_given(content, rules)
        rules_dict = rules if rules is not None else content.rules
        typed = Rules.from_dict(rules_dict)
        n = players or typed.players
        if not 2 <= n <= 4:
            raise ValueError(f"a table has 2 to 4 players, not {n}")
        program = compile_content(content, rules_dict, evaluator, combos, unlock)
        state = GameState(n, seed, {name: b[2] for name, b in typed.bounds})
        for card in content.of_kind("policy"):
            if card.stage in state.decks:
                state.decks[card.stage].extend([card] * card.copies)
        for card in content.of_kind("event"):
            state.event_deck.extend([card] * card.copies)
        state.advisor_deck = list(content.of_kind("advisor"))
        return cls(program, typed, state, choosers, log=log, verbose=verbose)

    def clone(self, choosers: list[Chooser] | None = None, log: list | None = None) -> Game:
        """An exact copy of this game at a top-level decision point, to play on apart.

        Without `choosers` the copy asks the original's chooser objects: an agent with its own
        random generator then moves on in both games. Give the copy its own choosers to keep them apart.
        A question asked inside a card's effect is not a point to copy from (the step is half done):
        cloning then raises RuleViolation.
        """
        if self._asking:
            raise RuleViolation("a game can be copied only at a top-level decision (pending()), not while a "
                                "card's effect or a reaction is asking")
        return Game(self.program, self.rules, self.state.clone(),
                    list(choosers) if choosers is not None else self.choosers, log=log)

    # ---- logging -----------------------------------------------------------------------------------
    def record(self, kind: str, **data) -> None:
        if self.log is not None:
            self.log.append({"e": kind, "round": self.state.round, "phase": self.state.phase, **data})

    # ---- turn order ---------------------------------------------------------------------------------
    def _orders(self) -> None:
        """Turn order for this round, and who is still in: made again only when the round or an out changes."""
        st = self.state
        n = st.players
        first = 0 if self.rules.first_player == "fixed" else (st.round - 1) % n
        self._order = tuple((first + i) % n for i in range(n))
        self._in_order = tuple(s for s in self._order if not st.seats[s].out)
        self._active = tuple(s for s in range(n) if not st.seats[s].out)
        self._order_round = st.round

    def turn_order(self) -> tuple[int, ...]:
        if self._order_round != self.state.round:
            self._orders()
        return self._order

    def in_order(self) -> tuple[int, ...]:
        """Seats still in, in this round's turn order."""
        if self._order_round != self.state.round:
            self._orders()
        return self._in_order

    def active_players(self) -> tuple[int, ...]:
        """Seats still in, in seat order."""
        if self._order_round != self.state.round:
            self._orders()
        return self._active

    # ---- questions ------------------------------------------------------------------------------------
    def observation(self, seat: int) -> Observation:
        return self._views[seat]

    def ask(self, seat: int, kind: Ask, options, card=None, text: str = "") -> Any:
        """Ask a seat now and return the option it picks; an out seat's board answers in reading order."""
        q = Question(kind, seat, options, card.id if card is not None else None, text)
        self._asking += 1
        try:
            return self._choose(q)
        finally:
            self._asking -= 1

    def _choose(self, q: Question) -> Any:
        seat = q.seat
        chooser = OUT_OF_GAME if self.state.seats[seat].out else self.choosers[seat]
        k = chooser.choose(self._views[seat], q)
        options = q.options
        if type(k) is not int or not 0 <= k < len(options):
            self._refuse(q, k)
        answer = options[k]
        if self.log is not None:
            self.record("ask", seat=seat, q=q.kind.value, card=q.card, n=len(options), a=_jsonable(answer))
        return answer

    def _refuse(self, q: Question, k) -> None:
        raise RuleViolation(f"P{q.seat + 1} answered {k!r} to '{q.kind.value}', which is not the index of one of its "
                            f"{len(q.options)} options")

    def effect_ask(self, seat: int, kind: Ask, options, card=None, text: str = "") -> Any:
        """A question an effect asks: counted against the game's limit of effect questions."""
        st = self.state
        st.questions += 1
        if st.questions > registry.LIMITS["effect_questions"].value:
            raise EffectError(f"the effects of this game asked more than {registry.LIMITS['effect_questions'].value} "
                              "questions (a loop that keeps asking?)")
        return self.ask(seat, kind, options, card, text)

    def pending(self) -> Question | None:
        """The next top-level decision, running forward to it; None when the run is over."""
        from rulekit.core.phases import advance

        if self._pending is None:
            self._pending = advance(self)
        return self._pending

    def answer(self, k: int) -> None:
        """Answer the pending top-level question with the index of an option."""
        from rulekit.core.phases import resolve

        q = self.pending()
        if q is None:
            raise RuleViolation("the game asks nothing now")
        if type(k) is not int or not 0 <= k < len(q.options):
            raise RuleViolation(f"{k!r} is not the index of one of the {len(q.options)} options of '{q.kind.value}'")
        self._pending = None
        option = q.options[k]
        if self.log is not None:
            self.record("ask", seat=q.seat, q=q.kind.value, card=q.card, n=len(q.options), a=_jsonable(option))
        resolve(self, q, option)

    def run(self) -> None:
        """Play on to the end of the run the cursor is in, every question going to its seat's chooser."""
        from rulekit.core.phases import advance, resolve

        q, self._pending = self._pending, None
        while True:
            if q is None:
                q = advance(self)
                if q is None:
                    return
            resolve(self, q, self._choose(q))
            q = None

    # ---- partial runs (hand-made tables, tests) ---------------------------------------------------------------
    def _run_from(self, cursor: Cursor) -> None:
        self._pending = None
        self.state.cursor = cursor
        self.run()

    def setup(self) -> None:
        """Only the setup; the game is then ready to play on from its first round."""
        self._run_from(Cursor("setup", "deal", stop="setup"))

    def run_phase(self, phase: str) -> None:
        """One whole phase for every player, with its start/end handlers and end-of-phase checks."""
        self._run_from(Cursor(phase, "start", stop="phase"))

    def run_spread_step(self, step: str) -> None:
        """One step of the spread phase for every board, then the unlock checks."""
        self.state.phase = "spread"
        self._run_from(Cursor("spread", step, stop="step"))

    def run_round(self) -> None:
        """One whole round, from `on round start` to `on round end`."""
        self._run_from(Cursor("round", "start", stop="round"))

    # ---- reading the board ------------------------------------------------------------------------------------
    def count(self, seat: int, name: str) -> int:
        return sum(map(self.state.seats[seat].counts.__getitem__, B.COUNT_CODES[name]))

    def cells(self, seat: int, codes) -> list[int]:
        """A seat's cells in these states, in reading order."""
        where = self._where or self._index_cells()
        sets = where[seat]
        if len(codes) == 1:
            return sorted(sets[codes[0]])
        found: list[int] = []
        for code in codes:
            found.extend(sets[code])
        found.sort()
        return found

    def _index_cells(self) -> list[list[set[int]]]:
        board = self.state.board
        where: list[list[set[int]]] = [[set() for _ in range(B.N_CODES)] for _ in range(self.players)]
        for s in range(self.players):
            sets = where[s]
            for i in self.geo.cells_of[s]:
                sets[board[i]].add(i)
        self._where = where
        return where

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

    def _phase_handlers(self, key: str, seat: int):
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
            for fn, bound, card, entry in mods:
                if without is not None and card.id == without:
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
        if frame is None or not (frame.from_other or frame.owner != seat):
            return False
        return what in self.tables(seat).shields

    def sealed(self, seat: int) -> bool:
        return (self._tables[seat] or self._index(seat)).sealed

    # ---- running effects -----------------------------------------------------------------------------------------
    def run_handler(self, fn: Callable, card, seat: int | None, entry: Entry | None = None, it=None,
                    how: str = "", skip: frozenset[int] = frozenset(), values: dict | None = None) -> Frame:
        """Run one handler of a card; an error names the card, its line, the round and the seed."""
        frame = Frame(card, seat, entry, it, skip)
        chain = self._chain
        chain.append(card)
        outer = self._deadline
        st = self.state
        self._deadline = min(outer, st.steps + registry.LIMITS["effect_steps"].value)
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
            self._deadline = outer
        if self.verbose:
            self.record("done", card=card.id, prevented=frame.prevented)
        return frame

    def evaluate(self, fn: Callable, card, seat: int, entry: Entry | None = None):
        """A modifier's amount or a combo's condition, for a seat, within one effect's step budget (its
        count(…), highest and lowest count against it); errors name the card and line."""
        outer = self._deadline
        steps = self.state.steps + EFFECT_STEPS
        self._deadline = steps if steps < outer else outer
        try:
            return fn(self.rt, seat, entry)
        except EFFECT_FAILURES as err:
            raise self.program.located(err, card, self.state) from None
        finally:
            self._deadline = outer

    def bounded(self, fn: Callable, *args):
        """An expression (an unlock condition) within one effect's step budget, as `evaluate`."""
        outer = self._deadline
        self._deadline = min(outer, self.state.steps + EFFECT_STEPS)
        try:
            return fn(*args)
        finally:
            self._deadline = outer

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

    def fire(self, seat: int, word: str, it) -> bool:
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
        if tables.triggers:
            for key, fn, once, card, entry, heard in tables.fired(words):
                if p.out or not holds(self, seat, it):
                    return False
                if once:
                    if key in p.once_fired:
                        continue
                    p.once_fired.add(key)
                frame = self.run_handler(fn, card, seat, entry, it, how=("once when " if once else "when ") + heard)
                if frame.prevented:
                    return True
        if p.hand and self.program.reactive:
            return self.offer_reactions(seat, words, it, holds)
        return False

    def offer_reactions(self, seat: int, words, it, holds: Callable[[Game, int, Any], bool] = _always) -> bool:
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
                if self.react_with(seat, card.id, w, it):
                    return True
                played = True
        return False

    # ---- cells ----------------------------------------------------------------------------------------------
    def set_cell(self, i: int, new: int, cause: str) -> None:
        st = self.state
        board = st.board
        old = board[i]
        if old == new:
            return
        board[i] = new
        seat = self.geo.owner[i]
        ps = st.seats[seat]
        c = ps.counts
        c[old] -= 1
        c[new] += 1
        st.board_version[seat] += 1
        where = self._where
        if where is not None:
            where[seat][old].discard(i)
            where[seat][new].add(i)
        if old == B.TILE and self._frontier is not None:
            self._revealed(i)
        if self.log is not None:
            self.record("cell", cell=list(B.RC[i]), before=B.STATE_NAMES[old], after=B.STATE_NAMES[new], cause=cause)
        if old == B.MILD and new == B.HEALTHY:
            self.add_score(seat, 1, "cured")
            if self.program.hears_cure:
                self.fire(seat, "cure", i)
        elif new == B.DEAD and old in B.ALIVE:
            self.add_score(seat, -1, "death")

    def board_changed(self) -> None:
        """The board was laid by hand: forget what was derived from it."""
        self._frontier = None
        self._where = None
        for s in range(self.players):
            self.state.board_version[s] += 1

    def place_tile(self, i: int, infected: bool) -> None:
        """Lay a face-down tile on a cell (set-up, the planner): no reveal, no trigger."""
        st = self.state
        old = st.board[i]
        if old != B.TILE:
            self._frontier = None
            self._where = None
            seat = self.geo.owner[i]
            st.seats[seat].counts[old] -= 1
            st.seats[seat].counts[B.TILE] += 1
            st.board[i] = B.TILE
            st.board_version[seat] += 1
        st.fronts[i] = 1 if infected else 0

    def reveal_cell(self, i: int) -> None:
        st = self.state
        infected = st.fronts[i]
        st.fronts[i] = 0
        self.set_cell(i, B.MILD if infected else B.HEALTHY, "reveal")
        self.fire(self.geo.owner[i], "reveal mild" if infected else "reveal healthy", i)

    def reveal_candidates(self, seat: int) -> list[int]:
        """A seat's face-down tiles next to a revealed cell (any board), or all of them if none is."""
        frontier = self._frontier
        if frontier is None:
            frontier = self._build_frontier()
        near = frontier[seat]
        if near:
            return sorted(near)
        return self.cells(seat, (B.TILE,))

    def _build_frontier(self) -> list[set[int]]:
        """Each seat's face-down tiles with a revealed neighbour (kept up to date as tiles are revealed)."""
        board, nb, owner = self.state.board, self.geo.neighbours, self.geo.owner
        frontier: list[set[int]] = [set() for _ in range(self.players)]
        for i in self.geo.cells:
            if board[i] == B.TILE and any(board[j] > B.TILE_I for j in nb[i]):
                frontier[owner[i]].add(i)
        self._frontier = frontier
        return frontier

    def _revealed(self, i: int) -> None:
        """Tile i was revealed: it leaves its seat's frontier, and its face-down neighbours join theirs."""
        frontier = self._frontier
        assert frontier is not None
        board, owner = self.state.board, self.geo.owner
        frontier[owner[i]].discard(i)
        for j in self.geo.neighbours[i]:
            if board[j] == B.TILE:
                frontier[owner[j]].add(j)

    def reveal_some(self, seat: int, n: int, card) -> int:
        """Reveal n tiles of the seat's board, one at a time, each next to a revealed cell."""
        done = 0
        for _ in range(n):
            cands = self.reveal_candidates(seat)
            if not cands:
                break
            if len(cands) == 1:
                i = cands[0]
            else:
                c = self.effect_ask(seat, Ask.CELL, [CELLS[k] for k in cands], card=card,
                                    text="reveal a tile next to a revealed cell")
                i = c.row * B.SIZE + c.col
            self.reveal_cell(i)
            done += 1
        return done

    def kill_cell(self, i: int, cause: str) -> bool:
        """A resident dies unless a `death` handler prevents it; True when it died. A `death` handler
        that moved or removed the resident leaves nobody there to die."""
        board = self.state.board
        if board[i] not in B.ALIVE or i in self.dying:
            return False
        self.dying.add(i)
        try:
            prevented = self.fire(self.geo.owner[i], DEATH_WORDS[board[i]], i)
        finally:
            self.dying.discard(i)
        if prevented:
            self.record("death_prevented", cell=list(B.RC[i]))
            return False
        if board[i] not in B.ALIVE:
            return False
        self.set_cell(i, B.DEAD, cause)
        return True

    def pick_cells(self, seat: int, cells: list[int], x: int, text: str, card=None, kind: Ask = Ask.CELL) -> list[int]:
        """X cells of `cells` chosen one at a time by the seat (an effect asks); all when X covers them."""
        if x >= len(cells):
            return list(cells)
        left = list(cells)
        chosen = []
        for _ in range(x):
            c = self.effect_ask(seat, kind, [CELLS[i] for i in left], card=card, text=text)
            i = c.row * B.SIZE + c.col
            left.remove(i)
            chosen.append(i)
        return chosen

    # ---- money, tracks, players -----------------------------------------------------------------------------------
    def gain_money(self, seat: int, n: int, why: str) -> None:
        if n:
            p = self.state.seats[seat]
            new = min(self.rules.bound("money")[1], p.money + n)
            delta, p.money = new - p.money, new
            if self.log is not None and delta:
                self.record("money", seat=seat, delta=delta, money=new, why=why)

    def spend_money(self, seat: int, n: int, why: str) -> None:
        """A payment the player chose: prices, bids, strategies, `spend`, `may pay`."""
        p = self.state.seats[seat]
        if n > p.money:
            raise EffectError(f"P{seat + 1} cannot pay {n} (has {p.money})")
        if n:
            p.money -= n
            if self.log is not None:
                self.record("money", seat=seat, delta=-n, money=p.money, why=why)

    def add_score(self, seat: int, delta: int, why: str) -> None:
        p = self.state.seats[seat]
        if p.out or not delta:
            return
        lo, hi, _ = self.rules.bound("score")
        p.score = max(lo, min(hi, p.score + delta))
        if self.log is not None:
            self.record("track", seat=seat, track="score", delta=delta, value=p.score, why=why)

    def set_track(self, seat: int, track: str, new: int, why: str | None) -> None:
        """Set a track (or money) to a value, clamped to its range; below policy's floor overthrows."""
        p = self.state.seats[seat]
        cur = getattr(p, track)
        lo, hi, _ = self.rules.bound(track)
        if track == "policy" and new < lo:
            self.overthrow(seat)
            return
        if new < lo:
            new = lo
        elif new > hi:
            new = hi
        if new != cur:
            setattr(p, track, new)
            if self.log is not None:
                self.record("track", seat=seat, track=track, delta=new - cur, value=new, why=why)

    def overthrow(self, seat: int) -> None:
        if self.fire(seat, "overthrown", None):
            self.record("overthrow_prevented", seat=seat)
            return
        # The change that would have taken policy below its minimum is not applied (docs/rules.md).
        self.knock_out(seat, "overthrown")

    def knock_out(self, seat: int, reason: str) -> None:
        """The player is out at once; whether the game ends is decided at the end of the phase."""
        p = self.state.seats[seat]
        if p.out:
            return
        p.out = True
        p.out_reason = reason
        self._order_round = 0
        self.record("out", seat=seat, reason=reason)

    def end(self, reason: str) -> None:
        st = self.state
        if not st.over:
            st.over = True
            st.end_reason = reason
            self.record("end", reason=reason)

    def set_unlocked(self, seat: int, stage: int) -> None:
        p = self.state.seats[seat]
        if stage > p.unlocked:
            p.unlocked = stage
            if self.log is not None:
                self.record("unlock", seat=seat, stage=stage)

    def set_advisor(self, seat: int, card) -> None:
        self.state.seats[seat].advisor = card
        self.state.seats[seat].advisor_counters = dict(card.counters)
        self.cards_changed(seat)
        self.record("advisor", seat=seat, card=card.id)

    # ---- decks and hands -------------------------------------------------------------------------------------------
    def draw_policy(self, stage: int):
        st = self.state
        deck = st.decks[stage]
        if not deck and st.discards[stage]:
            deck.extend(st.discards[stage])
            st.discards[stage].clear()
            st.rng.shuffle(deck)
            self.record("refill", stage=stage, cards=len(deck))
        return deck.pop() if deck else None

    def take_from_deck(self, card) -> bool:
        """Take a named card out of whichever deck holds it (hand-made tables)."""
        st = self.state
        for pool in (*st.decks.values(), *st.discards.values(), st.event_deck, st.advisor_deck):
            for i in range(len(pool) - 1, -1, -1):
                if pool[i].id == card.id:
                    del pool[i]
                    return True
        return False

    def to_hand(self, seat: int, card, why: str) -> None:
        p = self.state.seats[seat]
        p.hand.append(card)
        p.drawn_ids.append(card.id)
        if self.log is not None:
            self.record("draw", seat=seat, card=card.id, why=why)

    def take_from_hand(self, seat: int, ref: str):
        hand = self.state.seats[seat].hand
        for k, c in enumerate(hand):
            if ref in (c.id, c.name):
                return hand.pop(k)
        raise EffectError(f"P{seat + 1} has no {ref} in hand")

    def discard_card(self, card) -> None:
        st = self.state
        if card.kind == "policy" and card.stage in st.discards:
            st.discards[card.stage].append(card)
        else:
            st.out_of_game.append(card)
        if self.log is not None:
            self.record("discard", card=card.id)

    # ---- playing cards ------------------------------------------------------------------------------------------------
    def strategy_costs(self, seat: int) -> dict[int, int]:
        seats = self.state.seats
        L = seats[seat].unlocked
        G = max([seats[s].unlocked for s in self.active_players()] or [1])
        return {s: max(0, s - L) for s in (1, 2, 3) if s <= G}

    def price(self, seat: int, card, k: int = 0, note: bool = False) -> int:
        """What playing a card (k = 0) or executing it the k-th time again costs this seat: its price,
        under the seat's `modify price` declarations."""
        base = card.price[k] if k < len(card.price) else 0
        return self.quantity(seat, "price", base, note=note)

    def can_play(self, seat: int, card, reaction: bool = False) -> str | None:
        """Why the card cannot be played now, or None."""
        p = self.state.seats[seat]
        if card.name in (self._tables[seat] or self._index(seat)).names:
            return f"P{seat + 1} already has {card.name} in the tableau (one card per name)"
        price = self.price(seat, card)
        if price > p.money:
            return f"{card.name} costs {price}, P{seat + 1} has {p.money}"
        if not reaction and not self.program.cards[card.id].playable:
            return f"{card.name} is played only as a reaction"
        return None

    def can_execute(self, seat: int, e: Entry) -> str | None:
        p = self.state.seats[seat]
        if len(e.card.price) <= 1:
            return f"{e.card.name} cannot be executed again"
        if e.uses >= len(e.card.price):
            return f"{e.card.name} has been executed {e.uses} times, its most"
        if e.last_round == self.state.round:
            return f"{e.card.name} was already executed this round"
        if e.spent:
            return f"{e.card.name} is spent"
        price = self.price(seat, e.card, e.uses)
        if price > p.money:
            return f"executing {e.card.name} again costs {price}, P{seat + 1} has {p.money}"
        return None

    def entry_of(self, seat: int, ref: str) -> Entry:
        for e in self.state.seats[seat].tableau:
            if ref in (e.card.id, e.card.name):
                return e
        raise RuleViolation(f"P{seat + 1} has no {ref} in the tableau")

    def enter_tableau(self, seat: int, ref: str, reaction: str | None) -> Entry:
        """Pay a hand card's first price and put it in the tableau as its first execution."""
        p = self.state.seats[seat]
        card = next((c for c in p.hand if ref in (c.id, c.name)), None)
        if card is None:
            raise RuleViolation(f"P{seat + 1} has no {ref} in hand")
        why = self.can_play(seat, card, reaction=reaction is not None)
        if why:
            raise RuleViolation(why)
        price = self.price(seat, card, note=True)
        p.hand.remove(card)
        self.spend_money(seat, price, "price of " + card.id)
        if self.program.hears_play:
            self.fire(seat, "play", card)        # the card is not in play yet: only the others hear it
        entry = Entry(card, self.state.round)
        p.tableau.append(entry)
        p.played_ids.append(card.id)
        self.cards_changed(seat)
        self.record("play", seat=seat, card=card.id, price=price, reaction=reaction)
        return entry

    def play_card(self, seat: int, ref: str) -> Entry:
        """Play a card from hand: pay the first price, into the tableau, resolve `on play`."""
        entry = self.enter_tableau(seat, ref, None)
        self.run_on(seat, "play", entry)
        return entry

    def execute_card(self, seat: int, ref: str) -> Entry:
        e = self.entry_of(seat, ref)
        why = self.can_execute(seat, e)
        if why:
            raise RuleViolation(why)
        price = self.price(seat, e.card, e.uses, note=True)
        self.spend_money(seat, price, "price of " + e.card.id)
        e.uses += 1
        e.last_round = self.state.round
        self.record("execute", seat=seat, card=e.card.id, price=price, uses=e.uses)
        self.run_on(seat, "play", e)
        return e

    def react_with(self, seat: int, ref: str, trigger: str, it) -> bool:
        """Play a card from hand as a reaction to `trigger`; True when its block prevented what was happening."""
        entry = self.enter_tableau(seat, ref, trigger)
        fn = self.program.cards[entry.card.id].react[trigger]
        return self.run_handler(fn, entry.card, seat, entry, it, how="react " + trigger).prevented

    def can_switch(self, e: Entry) -> str | None:
        """Why a card in the tableau cannot be switched on or off now, or None."""
        if not e.card.switchable:
            return f"{e.card.name} cannot be switched"
        if e.spent:
            return f"{e.card.name} is spent"
        if e.switched_round == self.state.round:
            return f"{e.card.name} was already switched this round"
        return None

    def switch(self, seat: int, ref: str) -> None:
        e = self.entry_of(seat, ref)
        why = self.can_switch(e)
        if why is not None:
            raise RuleViolation(why)
        e.on = not e.on
        e.switched_round = self.state.round
        self.cards_changed(seat)
        self.record("switch", seat=seat, card=e.card.id, on=e.on)

    # ---- the end ------------------------------------------------------------------------------------------------------
    def winners(self) -> tuple[int, ...]:
        pool = self.active_players()
        if self.rules.out_players_can_win or not pool:
            pool = tuple(range(self.players))
        seats = self.state.seats
        key = lambda s: (seats[s].score, self.count(s, "alive"))
        best = max(key(s) for s in pool)
        return tuple(s for s in pool if key(s) == best)

    def finish(self) -> None:
        """Final scoring (docs/rules.md, scoring) once the game is over."""
        from rulekit.core.phases.end import final_scoring

        final_scoring(self)

    def snapshot(self, seat: int) -> dict:
        """A seat's tracks, money and board counts, for logs and accounts."""
        p = self.state.seats[seat]
        out = {name: getattr(p, name) for name, _ in self.rules.bounds}
        out.update({k: self.count(seat, k) for k in ("healthy", "mild", "severe", "dead", "tiles")})
        out["out"] = p.out
        return out


# An out player's board still spreads; its choices are made in reading order (docs/rules.md).
OUT_OF_GAME = DefaultChooser()
RULES_GIVEN = "<the rules given to new_game>"
_given_cache: dict[tuple[int, str], tuple[Any, tuple[dict, dict]]] = {}


def rules_given(content, rules: dict) -> tuple[dict, dict]:
    """A rules mapping given in Python, checked as rules.yaml is, once per content and mapping: the
    unlock conditions in force (its own, else the content's). ContentError names every mistake."""
    import json

    from rulekit.content.rules import read_rules
    from rulekit.content.yamlpos import Located
    from rulekit.language.diagnostics import ContentError

    try:
        text = json.dumps(rules, sort_keys=True, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(rules)                  # not plain data: the schema check below names what is wrong
    key = (id(content), text)
    hit = _given_cache.get(key)
    if hit is not None and hit[0] is content:
        return hit[1]
    given, diags = read_rules(Located.plain(dict(rules), RULES_GIVEN),
                              lambda kind, ref: content.lookup(ref, kind) is not None)
    errors = [d for d in diags if d.severity == "error"]
    if errors:
        raise ContentError(errors)
    unlock, files = dict(content.unlock), dict(content.unlock_files)
    unlock.update(given)
    files.update(dict.fromkeys(given, RULES_GIVEN))
    if len(_given_cache) > 16:
        _given_cache.clear()
    _given_cache[key] = (content, (unlock, files))
    return unlock, files


def _chain_words(chain) -> str:
    """The loop of cards setting each other off: 'A → B → A', every card of the cycle named."""
    last = chain[-1]
    k = next((k for k in range(2, len(chain) + 1) if chain[-k] is last), None)
    cycle = chain[-k:] if k is not None else chain[-6:]
    return " → ".join(f"{c.name} ({c.id})" for c in cycle)


def _jsonable(v):
    if isinstance(v, tuple):
        return [_jsonable(x) for x in v]
    return v
