"""A seat's history holds what it saw and nothing else; info_key tells apart only what the seat can (issue 17)."""

from __future__ import annotations

from rulekit.core import board as B
from rulekit.core.history import PUBLIC
from rulekit.engine import new_game


def _played(content, seed=3, players=3, rounds=3):
    game = new_game(content, seed, ["greedy"], players=players)
    game.setup()
    for _ in range(rounds):
        game.run_round()
    return game


def test_a_seat_sees_its_own_cards_and_only_the_counts_of_others(content):
    game = _played(content)
    mine = game.seen_by(0)
    got = [e[1] for e in mine if e[0] == "got"]
    assert got and sorted(got) == sorted(game.state.seats[0].drawn_ids)
    drew_by_others = [e for e in mine if e[0] == "drew" and e[1] != 0]
    assert drew_by_others, "another seat's draws show (that it drew, not what)"
    bids = [e for e in game.state.seen if e[1] == "bid"]
    assert {e[0] for e in bids} == {0, 1, 2}, "every seat bid at least once"
    assert len([e for e in mine if e[0] == "bid"]) == len([e for e in bids if e[0] == 0])   # sealed: its own only
    assert all(e[0] in (PUBLIC, 0) or e[1] in ("got", "bid", "advisor", "arranged", "gave") for e in game.state.seen)
    # every reveal is public, with its front: the history accounts for every tile turned
    reveals = [e for e in mine if e[0] == "reveal"]
    tiles_left = sum(1 for c in game.state.board if c == B.TILE)
    assert len(reveals) + tiles_left == sum(len(cells) for cells in game.geo.cells_of)


def test_events_plays_and_offers_are_public(content):
    game = _played(content)
    for seat in range(3):
        seen = game.seen_by(seat)
        assert [e[1] for e in seen if e[0] == "event"] == game.state.events_drawn
        assert sorted(e[2] for e in seen if e[0] == "play") == sorted(
            c for p in game.state.seats for c in p.played_ids)


def test_info_key_is_blind_to_what_the_seat_cannot_see(content):
    game = _played(content)
    other = game.clone()
    st = other.state
    # swap a card of P2's hand with a card of a deck, and two face-down fronts of P3's board
    hand, deck = st.seats[1].hand, next(d for d in st.decks.values() if d)
    assert hand, "P2 holds a card"
    k = next((j for j, c in enumerate(deck) if c.id != hand[0].id), None)
    assert k is not None
    hand[0], deck[k] = deck[k], hand[0]
    tiles = [i for i in game.geo.cells_of[2] if st.board[i] == B.TILE]
    a = next(i for i in tiles if st.fronts[i])
    b = next(i for i in tiles if not st.fronts[i])
    st.fronts[a], st.fronts[b] = 0, 1
    assert game.info_key(0) == other.info_key(0)          # P1 cannot tell these two games apart
    assert game.info_key(1) != other.info_key(1)          # P2 can: its hand changed
    st.seats[1].money += 1                                # money is public
    assert game.info_key(0) != other.info_key(0)
