"""Phase 6, exchange (公务交流): each player may offer a card face up; every other player bids once, sealed.

The highest bid wins (ties to the earliest in turn order) and is paid to the owner; an offer with
no bid goes back to its owner's hand, and the owner's `when unsold` handlers run.
"""

from __future__ import annotations

from rulekit.core.questions import Ask, Question
from rulekit.core.state import Cursor, unique_ids


def begin(g, cur: Cursor) -> None:
    g.state.offers = []
    cur.step = "offer"
    cur.data = {"order": g.in_order(), "k": 0}


def ask(g, cur: Cursor) -> Question | None:
    d = cur.data
    st = g.state
    if cur.step == "offer":
        if d["k"] >= len(d["order"]):
            cur.step = "auction"
            cur.data = {}
            return None
        seat = d["order"][d["k"]]
        hand = st.seats[seat].hand
        if not hand:
            d["k"] += 1
            return None
        return Question(Ask.OFFER, seat, (*unique_ids(hand), None), None, "offer one card, or none")
    # auction: the first offer still on the market
    if not st.offers:
        cur.step = "end"
        return None
    owner, card = st.offers[0]
    if "bidders" not in d:
        d.update(bidders=tuple(s for s in g.in_order() if s != owner), k=0, best=None, best_bid=0)
    if d["k"] >= len(d["bidders"]):
        st.offers.pop(0)
        settle(g, owner, card, d["best"], d["best_bid"])
        cur.data = {}
        return None
    seat = d["bidders"][d["k"]]
    return Question(Ask.BID, seat, range(st.seats[seat].money + 1), card.id, f"bid for {card.name}")


def answer(g, cur: Cursor, q: Question, option) -> None:
    d = cur.data
    if q.kind is Ask.OFFER:
        if option is not None:
            card = g.take_from_hand(q.seat, option)
            g.state.offers.append((q.seat, card))
            g.record("offer", seat=q.seat, card=card.id)
        d["k"] += 1
        return
    if option > d["best_bid"]:
        d["best"], d["best_bid"] = q.seat, option
    d["k"] += 1


def settle(g, owner: int, card, best: int | None, bid: int) -> None:
    if best is None:
        g.record("unsold", seat=owner, card=card.id)
        g.state.seats[owner].hand.append(card)
        g.fire(owner, "unsold", card)
        return
    g.spend_money(best, bid, "bid")
    g.gain_money(owner, bid, "sale")
    g.state.seats[best].hand.append(card)
    g.record("sold", seat=owner, to=best, card=card.id, bid=bid)
