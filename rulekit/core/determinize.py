"""A determinization: a copy of the game in which everything one seat cannot see is drawn again (TAG's copy(playerId)).

What the seat sees is kept as it is: the board as it lies, every public field, its own hand, the market, the
events drawn, deck and discard sizes, its history (core/history.py), so its observation and `info_key` in the
copy equal the original's. What it cannot see is drawn again from `rng`, consistently with what it saw:

- the fronts of face-down tiles: within each pool of tiles shuffled together (`tiles.shuffle`: the table, or
  each quadrant), as many infected fronts as the pool still holds (its share set by the rules less the
  reveals), on tiles chosen at random; the fronts the planner saw (its `arranged` history) stay put;
- the cards it cannot place: other seats' hands (less the cards it saw go into them and not leave: won or
  returned at the exchange, given by it), the policy decks and discard piles. Each deck and pile keeps its
  size and stage; the cards of a stage not in its deck or pile are the ones in hands;
- the order of the event deck (which events are left is public), but for the events on top the seat saw there
  (`foresee`, `arrange N events`: history.events_known), which stay in place;
- the sealed bids already made on the offer being auctioned (its own stays);
- during the advisor draft, the other seats' dealt pairs and what they kept;
- all chance to come: the copy's generator is seeded from `rng`, and its seed is not the game's.

Other seats' private history (their cards, bids, advisors) is left out of the copy, so the copy gives no more
away than the observation does. Only at a top-level decision, as Game.clone.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from rulekit.core import board as B
from rulekit.core.history import PUBLIC, events_known
from rulekit.core.observation import advisors_hidden
from rulekit.core.steps import AuctionStep, SetupStep

if TYPE_CHECKING:
    from rulekit.core.game import Game
    from rulekit.core.program import Card
    from rulekit.core.questions import Chooser

UNKNOWN_SEED = -1        # a determinized copy's seed: not the game's (the setup could be played again from it)


def determinize(game: Game, seat: int, rng: random.Random, choosers: Sequence[Chooser] | None = None) -> Game:
    """A copy of `game` in which what `seat` cannot see is drawn again from `rng` (see the module)."""
    copy = game.clone(choosers)
    st = copy.state
    _fronts(copy, seat, rng)
    _cards(copy, seat, rng)
    _events(copy, seat, rng)
    _bids(copy, seat, rng)
    _draft(copy, seat, rng)
    st.seen = [e for e in st.seen if e[0] == PUBLIC or e[0] == seat]
    for p in st.seats:
        if p.seat != seat:
            p.drawn_ids = []                 # which cards another seat drew is not seen
    st.rng = random.Random(rng.getrandbits(64))
    st.seed = UNKNOWN_SEED
    return copy


def _fronts(g: Game, seat: int, rng: random.Random) -> None:
    st = g.state
    known = {i for e in st.seen if e[0] == seat and e[1] == "arranged" for i, _ in e[2]}
    pools = g.geo.cells_of if g.rules.shuffle == "per_player" else (g.geo.cells,)
    for cells in pools:
        free = [i for i in cells if st.board[i] == B.TILE and i not in known]
        infected = sum(st.fronts[i] for i in free)
        for i in free:
            st.fronts[i] = 0
        for i in rng.sample(free, infected):
            st.fronts[i] = 1


def _known_in_hands(g: Game, seat: int) -> list[Counter]:
    """The cards `seat` saw go into each other seat's hand and not come out (by the history)."""
    known: list[Counter[str]] = [Counter() for _ in range(g.players)]
    for e in g.state.seen:
        who, kind = e[0], e[1]
        if who not in (PUBLIC, seat):
            continue
        if kind == "sold":
            known[e[3]][e[4]] += 1
        elif kind == "unsold":
            known[e[2]][e[3]] += 1
        elif kind == "gave":
            known[e[3]][e[2]] += 1
        elif kind in ("play", "offer") and known[e[2]][e[3]] > 0:
            known[e[2]][e[3]] -= 1
        elif kind == "given" and e[2] != seat:
            known[e[2]].clear()              # a card left that hand unseen: what was known of it may have gone
    return known


def _cards(g: Game, seat: int, rng: random.Random) -> None:
    st = g.state
    known = _known_in_hands(g, seat)
    pool: list[Card] = []
    kept: list[list[Card]] = [[] for _ in range(g.players)]
    for p in st.seats:
        if p.seat == seat:
            continue
        want = Counter(known[p.seat])
        for card in p.hand:                  # a card known to be there stays (if it still is)
            if want[card.id] > 0:
                want[card.id] -= 1
                kept[p.seat].append(card)
            else:
                pool.append(card)
    for stage in sorted(st.decks):
        pool += st.decks[stage] + st.discards[stage]
    pool.sort(key=lambda c: c.id)            # the copy's cards depend on rng alone, not on where they were
    rng.shuffle(pool)
    for stage in sorted(st.decks):           # copies of a card are one object: places are counted, not compared
        at = [k for k, c in enumerate(pool) if c.stage == stage]
        d, r = len(st.decks[stage]), len(st.discards[stage])
        st.decks[stage] = [pool[k] for k in at[:d]]
        st.discards[stage] = [pool[k] for k in at[d:d + r]]
        taken = set(at[:d + r])
        pool = [c for k, c in enumerate(pool) if k not in taken]
    for p in st.seats:
        if p.seat == seat:
            continue
        n = len(p.hand) - len(kept[p.seat])
        hand = kept[p.seat] + pool[:n]
        pool = pool[n:]
        rng.shuffle(hand)
        p.hand = hand
    assert not pool, "every card the seat cannot place has a place in the copy"


def _events(g: Game, seat: int, rng: random.Random) -> None:
    """The event deck dealt again, the events the seat knows lie on top kept in their places."""
    st = g.state
    known = events_known(st.seen, seat)
    if not known:
        rng.shuffle(st.event_deck)
        return
    pool = list(st.event_deck)
    top: list[Card | None] = []
    for ref in known:
        at = next((k for k, c in enumerate(pool) if c.id == ref), None) if ref is not None else None
        top.append(None if at is None else pool.pop(at))
    rng.shuffle(pool)
    placed: list[Card] = []
    for c in top:                        # a place it does not know: any event it cannot place
        if c is None and not pool:
            break
        placed.append(c if c is not None else pool.pop())
    st.event_deck = pool + placed[::-1]


def _bids(g: Game, seat: int, rng: random.Random) -> None:
    """The sealed bids already made on the offer being auctioned, drawn again (the seat's own kept)."""
    st = g.state
    a = st.cursor.data
    if not isinstance(a, AuctionStep) or a.bidders is None or not st.offers:
        return
    card = st.offers[0][1].id
    mine = next((e[3] for e in reversed(st.seen) if e[0] == seat and e[1] == "bid" and e[2] == card), 0)
    a.best, a.best_bid = None, 0
    for s in a.bidders[:a.k]:
        bid = mine if s == seat else (0 if rng.random() < 0.5 else rng.randint(0, st.seats[s].money))
        if bid > a.best_bid:
            a.best, a.best_bid = s, bid


def _draft(g: Game, seat: int, rng: random.Random) -> None:
    """During the advisor draft: the other seats' pairs dealt again from the advisors the seat has not seen."""
    st = g.state
    d = st.cursor.data
    if not advisors_hidden(g) or not isinstance(d, SetupStep):
        return
    content = g.program.content
    mine = set(d.dealt[seat])
    pool = sorted(c.id for c in content.of_kind("advisor") if c.id not in mine)
    rng.shuffle(pool)
    dealt = []
    for s, pair in enumerate(d.dealt):
        if s == seat:
            dealt.append(pair)
            continue
        dealt.append(tuple(pool[:len(pair)]))
        pool = pool[len(pair):]
    st.advisor_deck = [c for ref in pool if (c := content.lookup(ref, "advisor")) is not None]
    out = [c for c in st.out_of_game if c.kind != "advisor"]
    for s, pair in enumerate(dealt):
        p = st.seats[s]
        if s == seat or p.advisor is None or not pair:
            out += [c for ref in pair if s < d.seat and (c := content.lookup(ref, "advisor")) is not None
                    and (p.advisor is None or c.id != p.advisor.id)]
            continue
        keep = rng.choice(pair)
        card = content.lookup(keep, "advisor")
        assert card is not None
        p.advisor, p.advisor_counters = card, dict(card.counters)
        out += [c for ref in pair if ref != keep and (c := content.lookup(ref, "advisor")) is not None]
    st.out_of_game = out
    d.dealt = tuple(dealt)
