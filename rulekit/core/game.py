"""One game: a GameState, the rules and compiled cards it is played by, and the decision loop over it.

The game moves from one top-level decision to the next (`pending`, `answer`); questions asked inside
card effects go to the seat's chooser at once. `run` plays to the end; `clone` copies the game
exactly, so a search can try an answer and play on. The operations of rules.md are in `Ops`
(core/ops.py), the cards in play and their handlers in `Handlers` (core/handlers.py); a game is put
together from content by rulekit.engine.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from rulekit import registry
from rulekit.core import board as B
from rulekit.core.default import DefaultChooser
from rulekit.core.errors import EffectError, RuleViolation
from rulekit.core import history
from rulekit.core.determinize import determinize
from rulekit.core.handlers import STILL_HOLDS, Frame, Tables
from rulekit.core.ops import Ops
from rulekit.core.phases import advance, resolve
from rulekit.core.phases.actions import Menu
from rulekit.core.phases.end import final_scoring
from rulekit.core.program import Card, Program
from rulekit.core.observation import Observation, make_observation
from rulekit.core.questions import Ask, Chooser, Question
from rulekit.core.rules import Rules
from rulekit.core.state import Cursor, GameState

__all__ = ["OUT_OF_GAME", "STILL_HOLDS", "Frame", "Game", "Tables"]


class Game(Ops):
    """A game being played: a pure function of (content, rules, seed, choosers)."""

    def __init__(self, program: Program, rules: Rules, state: GameState, choosers: Sequence[Chooser], *,
                 log: list[dict[str, Any]] | None = None, verbose: bool = False) -> None:
        self.program = program
        self.content = program.content
        self.rules = rules
        self.state = state
        self.players = state.players
        self.geo = B.geometry(state.players)
        self.choosers = list(choosers)
        self.log = log
        self.verbose = verbose and log is not None
        self.combos = program.combos
        self._tables = [None] * state.players
        self._order_round = 0                  # the round the orders below were made for (0: make them again)
        self._order: tuple[int, ...] = ()
        self._in_order: tuple[int, ...] = ()
        self._active: tuple[int, ...] = ()
        self._orders()
        self._on_index = None
        self._frontier = None
        self._history = frozenset()
        self._history_len = 0
        self._where = None
        self._pending: Question | None = None
        self.halt = False                      # a partial run reached its end (Cursor.stop)
        self._views: list[Observation | None] = [None] * state.players    # made when first asked for
        self._chain = []                       # cards whose handlers are running, outermost first
        self._frames = []                      # and their frames (what caused a moment: 5.37)
        self._becoming = False                 # `once when becomes` conditions are being checked (check_becomes)
        self._becomes_false: dict = {}         # check_becomes: where each condition was last false (a cache)
        self._becomes_live = None              # some seat has a `once when becomes` card in play (None: not known)
        self.stepping = False                  # inside the rules' decision loop (phases.advance)
        self.dying = set()                     # cells whose `death` handlers are running: no effect takes them
        self._asking = 0                       # questions asked inside a step (effects, reactions) not yet answered
        self.deadline = registry.LIMITS["game_steps"].value
        self.unlock_seen: list[tuple[int, int] | None] = [None] * state.players
        self.fixed_rolls: list[int] = []         # rolls a scenario states (core/chance.py); a copy has none
        self.rt = program.runtime(self)        # what compiled effects call (rulekit.interpreter.runtime)

    def clone(self, choosers: Sequence[Chooser] | None = None, log: list[dict[str, Any]] | None = None) -> Game:
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


    def determinize(self, seat: int, rng: random.Random, choosers: Sequence[Chooser] | None = None) -> Game:
        """A copy in which everything `seat` cannot see is drawn again from `rng`, consistently with what it saw
        (core/determinize.py): its observation and info_key are the original's. The original is untouched."""
        return determinize(self, seat, rng, choosers)

    # ---- what each seat has seen (core/history.py) ------------------------------------------------------
    def record(self, kind: str, **data: Any) -> None:
        """A game-log record; the ones a seat sees also go into the history (core/history.py), logged or not."""
        if kind in history.KEPT:
            self.state.seen.extend(history.from_record(kind, data))
        if self.log is not None:
            self.log.append({"e": kind, "round": self.state.round, "phase": self.state.phase, **data})

    def seen_by(self, seat: int) -> tuple:
        """The history `seat` has seen: public entries and its own (core/history.py)."""
        return history.seen_by(self.state, seat)

    def info_key(self, seat: int) -> tuple:
        """Equal for two states `seat` cannot tell apart (core/history.py)."""
        return history.info_key(self, seat)

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
        """The sealed view of one seat (core/observation.py): what its chooser is handed."""
        view = self._views[seat]
        if view is None:
            view = self._views[seat] = make_observation(self, seat)
        return view

    def ask(self, seat: int, kind: Ask, options: Sequence[Any], card: Card | None = None, text: str = "") -> Any:
        """Ask a seat now and return the option it picks; an out seat's board answers in reading order."""
        q = Question(kind, seat, options, card.id if card is not None else None, text)
        self._asking += 1
        try:
            return self.choose_now(q)
        finally:
            self._asking -= 1

    def choose_now(self, q: Question) -> Any:
        """The option the seat's chooser picks for a question (an out seat's board: reading order)."""
        seat = q.seat
        chooser = OUT_OF_GAME if self.state.seats[seat].out else self.choosers[seat]
        options = q.options               # the legal set the core computed, taken before asking
        shown = q if type(options) is not Menu else Question(q.kind, seat, options.copy(), q.card, q.text)
        k = chooser.choose(self._views[seat] or self.observation(seat), shown)
        if not q.accepts(k):
            self._refuse(q, k)
        answer = options[k]
        if self.log is not None:
            self.record("ask", seat=seat, q=q.kind.value, card=q.card, n=len(options), a=_jsonable(answer))
        return answer

    def _refuse(self, q: Question, k: object) -> None:
        raise RuleViolation(f"P{q.seat + 1} answered {k!r} to '{q.kind.value}', which is not the index of one of its "
                            f"{len(q.options)} options")

    def effect_ask(self, seat: int, kind: Ask, options: Sequence[Any], card: Card | None = None,
                   text: str = "") -> Any:
        """A question an effect asks: counted against the game's limit of effect questions."""
        st = self.state
        st.questions += 1
        if st.questions > registry.LIMITS["effect_questions"].value:
            raise EffectError(f"the effects of this game asked more than {registry.LIMITS['effect_questions'].value} "
                              "questions (a loop that keeps asking?)")
        return self.ask(seat, kind, options, card, text)

    def pending(self) -> Question | None:
        """The next top-level decision, running forward to it; None when the run is over."""
        if self._pending is None:
            self._pending = advance(self)
        return self._pending

    def answer(self, k: int) -> None:
        """Answer the pending top-level question with the index of an option."""
        q = self.pending()
        if q is None:
            raise RuleViolation("the game asks nothing now")
        if not q.accepts(k):
            raise RuleViolation(f"{k!r} is not the index of one of the {len(q.options)} options of '{q.kind.value}'")
        self._pending = None
        option = q.options[k]
        if self.log is not None:
            self.record("ask", seat=q.seat, q=q.kind.value, card=q.card, n=len(q.options), a=_jsonable(option))
        resolve(self, q, option)

    def run(self) -> None:
        """Play on to the end of the run the cursor is in, every question going to its seat's chooser."""
        q, self._pending = self._pending, None
        if q is not None:
            resolve(self, q, self.choose_now(q))
        advance(self, auto=True)

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

    # ---- the end ------------------------------------------------------------------------------------------------------
    def winners(self) -> tuple[int, ...]:
        pool = self.active_players()
        if self.rules.out_players_can_win or not pool:
            pool = tuple(range(self.players))
        seats = self.state.seats
        def key(s: int) -> tuple[int, int]:
            return (seats[s].score, self.count(s, "alive"))
        best = max(key(s) for s in pool)
        return tuple(s for s in pool if key(s) == best)

    def finish(self) -> None:
        """Final scoring (docs/rules.md, scoring) once the game is over."""
        final_scoring(self)

    def snapshot(self, seat: int) -> dict:
        """A seat's tracks, money and board counts, for logs and accounts."""
        p = self.state.seats[seat]
        out = {name: getattr(p, name) for name, _ in self.rules.bounds}
        out.update({k: self.count(seat, k) for k in ("healthy", "mild", "severe", "dead", "tiles")})
        out["out"] = p.out
        return out


# An out player's board still spreads; its choices are made in reading order (docs/rules.md).


# An out player's board still spreads; its choices are made in reading order (docs/rules.md).
OUT_OF_GAME = DefaultChooser()


def _jsonable(v: Any) -> Any:
    if isinstance(v, tuple):
        return [_jsonable(x) for x in v]
    return v
