"""Phase 2, reserve (储备政策): each player draws 3 cards by a strategy, then discards down to the hand limit."""

from __future__ import annotations

from rulekit.core.phases.end import check_unlocks
from rulekit.core.questions import Ask, Question
from rulekit.core.state import Cursor, unique_ids

# The stages of the 3 cards each draw strategy draws (docs/rules.md, reserve).
STRATEGIES = {1: (1, 1, 1), 2: (1, 1, 2), 3: (1, 2, 3)}


def begin(g, cur: Cursor) -> None:
    check_unlocks(g)
    cur.step = "strategy"
    cur.data = {"order": g.in_order(), "k": 0}


def ask(g, cur: Cursor) -> Question | None:
    order, k = cur.data["order"], cur.data["k"]
    if cur.step == "strategy":
        if k >= len(order):
            if g.rules.hand_limit is None:
                cur.step = "end"
            else:
                cur.step, cur.data = "discard", {"order": g.in_order(), "k": 0}
            return None
        seat = order[k]
        money = g.state.seats[seat].money
        options = tuple(sorted(s for s, c in g.strategy_costs(seat).items() if c <= money))
        return Question(Ask.STRATEGY, seat, options, None, "draw strategy")
    # discard down to the hand limit
    if k >= len(order):
        cur.step = "end"
        return None
    seat = order[k]
    hand = g.state.seats[seat].hand
    limit = g.rules.hand_limit
    if len(hand) <= limit:
        cur.data["k"] = k + 1
        return None
    return Question(Ask.DISCARD, seat, tuple(unique_ids(hand)), None, f"discard down to {limit}")


def answer(g, cur: Cursor, q: Question, option) -> None:
    seat = q.seat
    if q.kind is Ask.STRATEGY:
        cost = g.strategy_costs(seat)[option]
        if cost:
            g.spend_money(seat, cost, "strategy")
        for stage in STRATEGIES[option]:
            card = g.draw_policy(stage)
            if card is not None:
                g.to_hand(seat, card, f"stage {stage}")
        cur.data["k"] += 1
        return
    g.discard_card(g.take_from_hand(seat, option))
