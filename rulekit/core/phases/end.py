"""Unlocks, the end of the game and final scoring (docs/rules.md: unlocks, end of the game, scoring)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulekit.core import board as B
from rulekit.core import quantities as Q
from rulekit.core.state import Cursor

if TYPE_CHECKING:
    from rulekit.core.game import Game


def check_unlocks(g: Game) -> None:
    """Stage 2 and 3 unlock conditions (rules.yaml unlock.stage2/stage3), for every player still in.

    A condition is evaluated again only when what it reads may have changed since it last was false.
    """
    st = g.state
    program = g.program
    seen = g.unlock_seen
    gated = program.unlock_reads_only_board
    versions = st.board_version
    for s in g.active_players():
        p = st.seats[s]
        if p.unlocked >= 3:
            continue
        if gated and seen[s] == (versions[s], p.unlocked):
            continue
        if p.unlocked < 2 and program.unlock_holds(g, "stage2", s):
            g.set_unlocked(s, 2)
        if p.unlocked == 2 and program.unlock_holds(g, "stage3", s):
            g.set_unlocked(s, 3)
        seen[s] = (versions[s], p.unlocked)


def check_end(g: Game) -> None:
    """At the end of every phase: emptied boards put their players out; the fight won or one player left ends it."""
    st = g.state
    for s in g.active_players():
        c = st.seats[s].counts
        if c[B.TILE] == 0 and c[B.HEALTHY] + c[B.MILD] + c[B.SEVERE] == 0:
            g.knock_out(s, "emptied")
    if st.over:
        return
    for p in st.seats:
        c = p.counts
        if c[B.TILE] or c[B.MILD] or c[B.SEVERE]:
            break
    else:
        g.end("won_fight")
        return
    if len(g.active_players()) < 2:
        g.end("one_left")


def check_events_exhausted(g: Game) -> bool:
    """The game ends after the event phase in which the last event card was drawn."""
    st = g.state
    if not st.event_deck and st.last_event is not None:
        g.end("events_exhausted")
        return True
    return False


def final_scoring(g: Game) -> None:
    """Each policy in a tableau adds its `score`; a negative v scores min(0, v − final_penalty). Once.

    The round in which the game ends always ends first: when a phase (or a step) of it ended the
    game, its `on round end` runs now, once, before `on game end` (docs/rules.md 5).
    """
    st = g.state
    if st.phase == "final":
        return
    if st.round_ended != st.round:
        st.round_ended = st.round
        g.run_phase_handlers("round", "end")
    st.phase = "final"
    g.run_phase_handlers("game", "end")
    if len(st.score_history) < st.round:
        st.score_history.append(tuple(p.score for p in st.seats))
    for s in g.active_players():
        p = st.seats[s]
        penalty = g.quantity(s, "final_penalty", Q.final_penalty())
        total = 0
        for e in p.tableau:
            v = e.card.score
            total += v if v >= 0 else min(0, v - penalty)
        if total:
            lo, hi, _ = g.rules.bound("score")
            new = p.score + total
            if "score" in g.tables(s).limits:        # a floor or ceiling on score holds at final scoring too
                new = g.held(s, "score", p.score, new, "final scoring")
            p.score = max(lo, min(hi, new))
            g.record("final_score", seat=s, delta=total, score=p.score)
    g.record("final", scores=[p.score for p in st.seats], winners=list(g.winners()))
    st.cursor = Cursor("idle", "")
