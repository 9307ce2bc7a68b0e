"""Setup (docs/rules.md, setup): tiles, the advisor draft, advisors' `on setup`, the first reveal, the decks."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulekit import registry
from rulekit.core import board as B
from rulekit.core.questions import Ask, Question
from rulekit.core.state import Cursor
from rulekit.core.steps import SetupStep

if TYPE_CHECKING:
    from rulekit.core.game import Game


def ask(g: Game, cur: Cursor) -> Question | None:
    if cur.step == "deal":
        fill_tiles(g)
        deck = g.state.advisor_deck
        g.state.rng.shuffle(deck)
        each = registry.ADVISORS_DEALT
        cur.data = SetupStep(tuple(tuple(deck.pop().id for _ in range(min(each, len(deck)))) for _ in range(g.players)), 0)
        cur.step = "advisor"
    d = cur.data
    assert isinstance(d, SetupStep)
    if cur.step == "advisor":
        while d.seat < g.players:
            dealt = d.dealt[d.seat]
            if dealt:
                return Question(Ask.ADVISOR, d.seat, dealt, None, "keep one advisor")
            d.seat += 1
        cur.step = "effects"
    # effects: advisors' `on setup` in seat order, the first reveal, the decks shuffled
    g.state.phase = "setup"
    for s in range(g.players):
        g.run_on(s, "setup")
    initial_reveal(g)
    shuffle_decks(g)
    g.record("setup_done")
    g.state.cursor = Cursor("round", "start")
    g.halt = cur.stop == "setup"
    return None


def answer(g: Game, cur: Cursor, q: Question, keep: str) -> None:
    d = cur.data
    assert isinstance(d, SetupStep)
    seat = q.seat
    for ref in q.options:
        card = g.program.content.lookup(ref, "advisor")
        assert card is not None, ref
        if ref == keep and g.state.seats[seat].advisor is None:
            g.set_advisor(seat, card)
        else:
            g.state.out_of_game.append(card)
    d.seat = seat + 1


def fill_tiles(g: Game) -> None:
    """Shuffle the tiles and lay them face down (rules.yaml tiles.shuffle, tiles.infected_per_player)."""
    rules, st = g.rules, g.state
    per = rules.infected_per_player
    if rules.shuffle == "per_player":
        for s in range(g.players):
            fronts = [True] * per + [False] * (25 - per)
            st.rng.shuffle(fronts)
            for i, f in zip(g.geo.cells_of[s], fronts, strict=False):
                g.place_tile(i, f)
    else:
        n = 25 * g.players
        fronts = [True] * (per * g.players) + [False] * (n - per * g.players)
        st.rng.shuffle(fronts)
        for i, f in zip(g.geo.cells, fronts, strict=False):
            g.place_tile(i, f)


def initial_reveal(g: Game) -> None:
    if g.rules.reveal != "corner_diagonal":
        return
    board = g.state.board
    for s in range(g.players):
        for r, c in B.CORNER_DIAGONALS[s]:
            i = B.idx(r, c)
            if board[i] == B.TILE:
                g.reveal_cell(i)


def shuffle_decks(g: Game) -> None:
    st = g.state
    st.rng.shuffle(st.event_deck)
    for k in (1, 2, 3):
        st.rng.shuffle(st.decks[k])
