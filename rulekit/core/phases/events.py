"""Phase 7, the global event (全局事件): draw and resolve the top event, then combos and event scoring."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulekit.core import board as B
from rulekit.core.program import Card
from rulekit.core.questions import Question
from rulekit.core.state import Cursor

if TYPE_CHECKING:
    from rulekit.core.game import Game

# A card's `duration` in rounds: lasting cards are never spent; a number N is spent after N event phases.
ROUNDS: dict[str, int] = {"lasting": 0, "round": 1}


def begin(g: Game, cur: Cursor) -> None:
    cur.step = "draw"


def ask(g: Game, cur: Cursor) -> None:
    st = g.state
    if st.event_deck:
        resolve_event(g, st.event_deck.pop())
    cur.step = "end"


def answer(g: Game, cur: Cursor, q: Question, option: Any) -> None:  # pragma: no cover - asks no top-level question
    raise AssertionError("the event phase asks no top-level question")


def resolve_event(g: Game, card: Card) -> None:
    """The event is the current one: its `on resolve`, then combos, event scoring, the history."""
    st = g.state
    st.current_event = card
    st.last_event = card
    st.events_drawn.append(card.id)
    g.record("event", card=card.id)
    fn = g.program.cards[card.id].on.get("resolve")
    if fn is not None:
        skip = frozenset(s for s in g.in_order() if g.fire(s, "event", card)) if g.program.hears_event else frozenset()
        g.run_handler(fn, card, None, how="on resolve", skip=skip)
    fire_combos(g)
    event_scoring(g)
    st.history.append(card)
    st.current_event = None
    for p in st.seats:
        spent = False
        for e in p.tableau:
            d = e.card.duration
            rounds = ROUNDS.get(d, 0) if isinstance(d, str) else d
            if rounds and not e.spent and st.round >= e.played_round + rounds - 1:
                e.spent = spent = True
                g.record("spent", seat=p.seat, card=e.card.id)
        if spent:
            g.cards_changed(p.seat)


def fire_combos(g: Game) -> None:
    """Each player in turn order, each combo in id order whose `when:` holds for them, resolves."""
    every = g.rules.combos_repeat == "every_round"
    seats = g.state.seats
    for s in g.in_order():
        p = seats[s]
        if p.out:                          # put out by an earlier player's combo
            continue
        for combo in g.combos:
            if not every and combo.id in p.combos_fired:
                continue
            compiled = g.program.cards[combo.id]
            if compiled.condition is not None and g.evaluate(compiled.condition, combo, s):
                p.combos_fired.add(combo.id)
                g.state.combos_log.append((s, combo.id))
                g.record("combo", seat=s, card=combo.id)
                fn = compiled.on.get("resolve")
                if fn is not None:
                    g.run_handler(fn, combo, s, how="combo")
            if p.out:
                break


def event_scoring(g: Game) -> None:
    """Policy below 0: −1. A fully revealed board: +1 without dead, +1 without severe, +1 with fewer than 5 infected."""
    seats = g.state.seats
    for s in g.in_order():
        p = seats[s]
        c = p.counts
        delta = -1 if p.policy < 0 else 0
        if c[B.TILE] == 0:
            delta += (c[B.DEAD] == 0) + (c[B.SEVERE] == 0) + (c[B.MILD] + c[B.SEVERE] < 5)
        if delta:
            g.add_score(s, delta, "event scoring")
