"""Phase 2, reserve (储备政策): each player draws 3 cards by a strategy, then discards down to the hand limit."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulekit.core.phases.end import check_unlocks
from rulekit.core.questions import Ask, Question
from rulekit.core.state import Cursor, unique_ids
from rulekit.core.steps import Sweep

if TYPE_CHECKING:
    from rulekit.core.game import Game

# The stages of the 3 cards each draw strategy draws (docs/rules.md, reserve).
STRATEGIES = {1: (1, 1, 1), 2: (1, 1, 2), 3: (1, 2, 3)}


def begin(g: Game, cur: Cursor) -> None:
    check_unlocks(g)
    cur.step = "strategy"
    cur.data = Sweep(g.in_order(), 0)


def ask(g: Game, cur: Cursor) -> Question | None:
    d = cur.data
    assert isinstance(d, Sweep)
    if cur.step == "strategy":
        if d.k >= len(d.order):
            if g.rules.hand_limit is None:
                cur.step = "end"
                return None
            cur.step = "discard"
            d = cur.data = Sweep(g.in_order(), 0)
        else:
            seat = d.order[d.k]
            money = g.state.seats[seat].money
            options = tuple(sorted(s for s, c in g.strategy_costs(seat).items() if c <= money))
            return Question(Ask.STRATEGY, seat, options, None, "draw strategy")
    # discard down to the hand limit
    limit = g.rules.hand_limit
    assert limit is not None
    while d.k < len(d.order):
        seat = d.order[d.k]
        hand = g.state.seats[seat].hand
        if len(hand) > limit:
            return Question(Ask.DISCARD, seat, tuple(unique_ids(hand)), None, f"discard down to {limit}")
        d.k += 1
    cur.step = "end"
    return None


def answer(g: Game, cur: Cursor, q: Question, option: Any) -> None:
    seat = q.seat
    if q.kind is Ask.STRATEGY:
        cost = g.strategy_costs(seat)[option]
        if cost:
            g.spend_money(seat, cost, "strategy")
        for stage in STRATEGIES[option]:
            card = g.draw_policy(stage)
            if card is not None:
                g.to_hand(seat, card, f"stage {stage}")
        d = cur.data
        assert isinstance(d, Sweep)
        d.k += 1
        return
    g.discard_card(g.take_from_hand(seat, option))
