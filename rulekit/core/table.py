"""A table set up by hand (scenario files, tests, notebooks): the public way to build a game state mid-game."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rulekit.core import board as B
from rulekit.core.phases.setup import fill_tiles, initial_reveal, shuffle_decks
from rulekit.core.state import Cursor, Entry

if TYPE_CHECKING:
    from rulekit.core.game import Game


@dataclass(frozen=True)
class TableSeat:
    """What one seat holds; anything not given keeps its start value."""

    tracks: Mapping[str, int] = field(default_factory=dict)     # tracks and money
    advisor: Any = None                                          # its `on setup` does not run
    hand: Sequence = ()
    tableau: Sequence = ()        # each on, executed once in an earlier round (a one-round card: spent)
    unlocked: int | None = None


@dataclass(frozen=True)
class Table:
    """A hand-made table: the board (None: shuffled and first revealed as in a game), the seats,
    the events that come first off the deck (in this order), and the round number."""

    board: Sequence[int] | None = None      # board codes by cell index; B.TILE_H / B.TILE_I for face-down tiles
    seats: Mapping[int, TableSeat] = field(default_factory=dict)
    events: Sequence = ()
    round: int = 1


def set_table(game: Game, table: Table) -> None:
    """Lay the table on a game that has not been set up: no advisor dealt, no `on setup` run.

    Every card named is taken out of its deck, so each card stays in exactly one place.
    """
    st = game.state
    st.round = table.round
    for seat, s in table.seats.items():
        if s.advisor is not None:
            game.take_from_deck(s.advisor)
            game.set_advisor(seat, s.advisor)
    if table.board is not None:
        lay_board(game, table.board)
    else:
        fill_tiles(game)
        initial_reveal(game)
    shuffle_decks(game)
    for seat, s in table.seats.items():
        p = st.seats[seat]
        for card in s.hand:
            game.take_from_deck(card)
            p.hand.append(card)
        for card in s.tableau:
            game.take_from_deck(card)
            entry = Entry(card, table.round - 1)
            entry.spent = card.duration == "round"
            game.start_counters(seat, card, entry)
            p.tableau.append(entry)
            p.played_ids.append(card.id)
        for name, value in s.tracks.items():
            setattr(p, name, value)
        if s.unlocked is not None:
            p.unlocked = s.unlocked
        game.cards_changed(seat)
    for card in table.events:
        game.take_from_deck(card)
    st.event_deck.extend(reversed(list(table.events)))
    st.phase = "scenario"
    st.cursor = Cursor("idle", "")


def lay_board(game: Game, codes: Sequence[int]) -> None:
    """Put every cell in the given state (face-down tiles with their fronts), counts kept true."""
    st = game.state
    for i, code in enumerate(codes):
        if game.geo.owner[i] < 0:
            continue
        if code in (B.TILE_H, B.TILE_I):
            game.place_tile(i, code == B.TILE_I)
            continue
        seat = game.geo.owner[i]
        counts = st.seats[seat].counts
        counts[st.board[i]] -= 1
        counts[code] += 1
        st.board[i] = code
        st.fronts[i] = 0
    game.board_changed()
