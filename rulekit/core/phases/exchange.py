"""Phase 6, exchange (公务交流): each player may offer a card face up; every other player bids once, sealed.

The highest bid wins (ties to the earliest in turn order) and is paid to the owner; an offer with
no bid goes back to its owner's hand, and the owner's `when unsold` handlers run.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulekit.core.program import Card
from rulekit.core.questions import Ask, Question
from rulekit.core.state import Cursor, unique_ids
from rulekit.core.steps import AuctionStep, Sweep

if TYPE_CHECKING:
    from rulekit.core.game import Game


def begin(g: Game, cur: Cursor) -> None:
    g.state.offers = []
    cur.step = "offer"
    cur.data = Sweep(g.in_order(), 0)


def ask(g: Game, cur: Cursor) -> Question | None:
    st = g.state
    while cur.step == "offer":
        d = cur.data
        assert isinstance(d, Sweep)
        if d.k >= len(d.order):
            cur.step = "auction"
            cur.data = AuctionStep()
            break
        seat = d.order[d.k]
        hand = st.seats[seat].hand
        if not hand:
            d.k += 1
            continue
        return Question(Ask.OFFER, seat, (*unique_ids(hand), None), None, "offer one card, or none")
    # auction: the first offer still on the market
    while True:
        if not st.offers:
            cur.step = "end"
            return None
        a = cur.data
        assert isinstance(a, AuctionStep)
        owner, card = st.offers[0]
        bidders = a.bidders
        if bidders is None:
            bidders = a.bidders = tuple(s for s in g.in_order() if s != owner)
            a.k, a.best, a.best_bid = 0, None, 0
        if a.k >= len(bidders):
            st.offers.pop(0)
            settle(g, owner, card, a.best, a.best_bid)
            cur.data = AuctionStep()
            continue
        seat = bidders[a.k]
        return Question(Ask.BID, seat, range(st.seats[seat].money + 1), card.id, f"bid for {card.name}")


def answer(g: Game, cur: Cursor, q: Question, option: Any) -> None:
    d = cur.data
    if q.kind is Ask.OFFER:
        assert isinstance(d, Sweep)
        if option is not None:
            card = g.take_from_hand(q.seat, option)
            g.state.offers.append((q.seat, card))
            g.record("offer", seat=q.seat, card=card.id)
        d.k += 1
        return
    assert isinstance(d, AuctionStep)
    g.state.seen.append((q.seat, "bid", q.card, option))        # sealed: only the bidder sees it
    if option > d.best_bid:
        d.best, d.best_bid = q.seat, option
    d.k += 1


def settle(g: Game, owner: int, card: Card, best: int | None, bid: int) -> None:
    if best is None:
        g.record("unsold", seat=owner, card=card.id)
        g.state.seats[owner].hand.append(card)
        g.fire(owner, "unsold", card)
        return
    g.spend_money(best, bid, "bid")
    g.gain_money(owner, bid, "sale")
    g.state.seats[best].hand.append(card)
    g.record("sold", seat=owner, to=best, card=card.id, bid=bid)
