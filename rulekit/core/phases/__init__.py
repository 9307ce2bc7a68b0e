"""The round as steps over the state: each phase a module, the cursor saying which step runs next.

`advance(game)` runs the steps at the cursor: a step with no top-level decision changes the state
and moves the cursor on; a decision is returned as a Question without changing anything, and
`resolve(game, question, option)` then applies the answer and moves the cursor on. A decision of a
player who is out (their board still spreads) is answered at once, in reading order: only players
still in are ever handed a question. A partial run
(`Cursor.stop`: setup, round, phase or step) halts where it ends, the cursor ready to go on.
Decisions inside card effects are not steps: they are asked at once, while the step runs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulekit import registry
from rulekit.core.phases import actions, end, events, exchange, income, reserve, setup, spread, treatment
from rulekit.core.questions import Question
from rulekit.core.state import Cursor

if TYPE_CHECKING:
    from rulekit.core.game import Game

# The modules of the seven phases, in order (docs/rules.md, the round).
RULE_PHASES = {"income": income, "reserve": reserve, "actions": actions, "treatment": treatment,
               "spread": spread, "exchange": exchange, "event": events}
assert tuple(RULE_PHASES) == registry.PHASE_ORDER


def advance(g: Game, auto: bool = False) -> Question | None:
    """Run steps until one is a decision (returned, the state unchanged by it) or the run is over (None).

    With `auto` (Game.run) every decision goes to its seat's chooser at once and the steps go on: the
    answer is applied where the question was made, not passed up and found again.
    """
    becomes = g.program.hears_becomes
    if becomes:
        outer, g.stepping = g.stepping, True
        try:
            return _advance(g, auto, becomes)
        finally:
            g.stepping = outer
    return _advance(g, auto, becomes)


def _advance(g: Game, auto: bool, becomes: bool) -> Question | None:
    st = g.state
    seats = st.seats
    choose = g.choose_now
    while True:
        if becomes:
            g.check_becomes()                   # after every step of the rules (docs/language.md 5.41)
        if g.halt:
            g.halt = False
            return None
        cur = st.cursor
        phase = cur.phase
        module = RULE_PHASES.get(phase)
        if module is not None:
            step = cur.step
            if step == "start":
                _start(g, cur)
            elif step == "end":
                _end(g, cur)
            else:
                q = module.ask(g, cur)
                if q is not None:
                    if not auto and not seats[q.seat].out:
                        return q
                    module.answer(g, cur, q, choose(q))     # an out player's board answers for itself
        elif phase == "round":
            _round_start(g, cur)
        elif phase == "round_end":
            _round_end(g, cur)
        elif phase == "setup":
            q = setup.ask(g, cur)
            if q is not None:
                if not auto:
                    return q
                setup.answer(g, cur, q, choose(q))
        elif phase == "final":
            end.final_scoring(g)
        elif phase == "idle":
            return None
        else:
            raise AssertionError(f"no step at {phase}/{cur.step}")


def resolve(g: Game, q: Question, option: Any) -> None:
    cur = g.state.cursor
    module = setup if cur.phase == "setup" else RULE_PHASES[cur.phase]
    module.answer(g, cur, q, option)


def _round_start(g: Game, cur: Cursor) -> None:
    g.record("round_start")
    run_scheduled(g)
    g.run_phase_handlers("round", "start")
    cur.phase, cur.step = "income", "start"


def run_scheduled(g: Game) -> None:
    """`after N rounds:` blocks whose round has come, in the order they were scheduled."""
    st = g.state
    if not st.scheduled:
        return
    due = [x for x in st.scheduled if x[0] <= st.round]
    st.scheduled = [x for x in st.scheduled if x[0] > st.round]
    for _, card_id, block, owner, values in due:
        subject = values["S"]
        if subject is not None and st.seats[subject].out:
            continue                       # a player who is out takes part in nothing any more
        compiled = g.program.cards[card_id]
        entry = None
        if owner is not None:
            entry = next((e for e in st.seats[owner].tableau if e.card.id == card_id), None)
        g.run_handler(compiled.later[block], compiled.card, owner, entry, how="after", values=values)


def _start(g: Game, cur: Cursor) -> None:
    g.state.phase = cur.phase
    g.record("phase")
    g.run_phase_handlers(cur.phase, "start")
    RULE_PHASES[cur.phase].begin(g, cur)


def _end(g: Game, cur: Cursor) -> None:
    phase = cur.phase
    g.run_phase_handlers(phase, "end")
    end.check_unlocks(g)
    end.check_end(g)
    st = g.state
    if phase == "event" and cur.stop == "phase":
        end.check_events_exhausted(g)       # a lone event phase: no round end follows it
    if st.over:
        st.cursor = Cursor("final", "")
        g.halt = cur.stop != "game"         # a partial run stops before final scoring: its caller decides
    elif phase == "event":
        st.cursor = Cursor("round_end", "", stop=cur.stop)
    else:
        st.cursor = Cursor(registry.PHASE_ORDER[registry.PHASE_ORDER.index(phase) + 1], "start", stop=cur.stop)
    if cur.stop == "phase":
        st.cursor.stop = "game"
        g.halt = True


def _round_end(g: Game, cur: Cursor) -> None:
    st = g.state
    st.round_ended = st.round
    g.run_phase_handlers("round", "end")
    st.score_history.append(tuple(p.score for p in st.seats))
    if g.log is not None:
        g.record("tracks", players=[g.snapshot(s) for s in range(st.players)])
    end.check_end(g)
    if not st.over and not end.check_events_exhausted(g) and st.round >= g.rules.max_rounds:
        g.end("max_rounds")
    if not st.over:
        st.round += 1
    st.cursor = Cursor("final", "") if st.over else Cursor("round", "start", stop=cur.stop)
    if cur.stop != "game":
        st.cursor.stop = "game"
        g.halt = cur.stop == "round" or st.over
