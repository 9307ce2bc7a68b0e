"""Invariants every game must keep: 25 cells a player, tracks in range, money ≥ 0, cards conserved, counts true."""

from __future__ import annotations

from collections import Counter

from rulekit.core import board as B
from rulekit.core.game import Game

OWN_CHOICES = ("strategy", "action", "treat", "offer", "bid", "may", "react", "keep", "choose", "discard")


def card_places(game: Game) -> Counter:
    st = game.state
    where: Counter = Counter()
    for k in (1, 2, 3):
        where.update(c.id for c in st.decks[k])
        where.update(c.id for c in st.discards[k])
    for p in st.seats:
        where.update(c.id for c in p.hand)
        where.update(e.card.id for e in p.tableau)
    where.update(c.id for _, c in st.offers)
    where.update(c.id for c in st.event_deck)
    where.update(c.id for c in st.history)
    if st.current_event is not None:
        where[st.current_event.id] += 1
    where.update(c.id for c in st.out_of_game if c.kind in ("policy", "event"))
    return where


def expected_cards(game: Game) -> Counter:
    want: Counter = Counter()
    for c in game.content.cards:
        if c.kind in ("policy", "event"):
            want[c.id] += c.copies
    return want


def check(game: Game) -> None:
    st = game.state
    for s in range(st.players):
        cells = game.geo.cells_of[s]
        assert len(cells) == 25
        assert sum(1 for i in cells if st.board[i] != B.NOCELL) == 25
        p = st.seats[s]
        for name, (lo, hi, _) in game.rules.bounds:
            v = getattr(p, name)
            assert lo <= v <= hi, f"P{s + 1} {name} {v} outside {lo}..{hi}"
        assert p.money >= 0
        names = [e.card.name for e in p.tableau]
        assert len(names) == len(set(names)), f"P{s + 1} has two cards of one name: {names}"
        counts = [0] * B.N_CODES
        for i in cells:
            counts[st.board[i]] += 1
        assert counts == p.counts, f"P{s + 1}'s kept counts {p.counts} differ from its board {counts}"
    assert card_places(game) == expected_cards(game)


def play_checked(game: Game) -> None:
    """Play to the end, checking every invariant at the first decision of every phase (and so after
    the phase before it) and at the end."""
    from rulekit.core.phases import advance, resolve

    last = None
    checks = 0
    while True:
        q = advance(game)
        phase = (game.state.round, game.state.cursor.phase)
        if phase != last:
            check(game)
            checks += 1
        last = phase
        if q is None:
            break
        resolve(game, q, game.choose_now(q))
    check(game)
    assert checks > game.state.round, "the invariants were checked less than once a round"


def out_players_never_chose(log: list) -> None:
    out_at: dict[int, int] = {}
    for n, rec in enumerate(log):
        if rec.get("e") == "out":
            out_at.setdefault(rec["seat"], n)
        if rec.get("e") == "ask" and rec["seat"] in out_at and rec["q"] in OWN_CHOICES:
            raise AssertionError(f"P{rec['seat'] + 1} is out but was asked '{rec['q']}' (log line {n + 1})")
