"""game.determinize(seat, rng): a copy the seat cannot tell from the truth, whose hidden parts are drawn again (issue 17)."""

from __future__ import annotations

import json
import random
from collections import Counter

from rulekit.agents import RandomAgent
from rulekit.core import board as B
from rulekit.core.determinize import UNKNOWN_SEED
from rulekit.core.questions import Ask
from rulekit.engine import new_game


def _points(content, seed, players, every=7, limit=40):
    """(game, question) at every `every`-th top-level decision of a random game, the game left there."""
    game = new_game(content, seed, ["random"], players=players)
    agents = [RandomAgent(seed, s) for s in range(players)]
    n = 0
    while (q := game.pending()) is not None and n < every * limit:
        if n % every == 0:
            yield game, q
        game.answer(agents[q.seat].choose(game.observation(q.seat), q))
        n += 1


def _hidden(game, seat):
    st = game.state
    return (tuple(tuple(c.id for c in p.hand) for p in st.seats if p.seat != seat),
            tuple(tuple(c.id for c in d) for d in st.decks.values()), bytes(st.fronts),
            tuple(c.id for c in st.event_deck))


def test_the_seat_cannot_tell_a_copy_from_the_truth_and_the_truth_is_untouched(content):
    points = varied = 0
    for players in (2, 4):
        for game, q in _points(content, 11, players):
            before = json.dumps(game.state.to_json(), sort_keys=True)
            truth = _hidden(game, q.seat)
            hidden = set()
            for r in range(4):
                copy = game.determinize(q.seat, random.Random(r))
                assert copy.info_key(q.seat) == game.info_key(q.seat)
                mine, theirs = copy.observation(q.seat), game.observation(q.seat)
                assert (mine.board, mine.hand, mine.offers, mine.tableau(q.seat)) == \
                       (theirs.board, theirs.hand, theirs.offers, theirs.tableau(q.seat))
                again = copy.pending()
                assert again is not None and (again.kind, again.seat, list(again.options)) == \
                       (q.kind, q.seat, list(q.options))
                assert copy.state.seed == UNKNOWN_SEED
                hidden.add(_hidden(copy, q.seat))
            assert json.dumps(game.state.to_json(), sort_keys=True) == before
            points += 1
            varied += len(hidden) > 1 or truth not in hidden
    assert points >= 60 and varied >= points * 0.9


def test_a_copy_plays_on_to_the_end(content):
    for game, q in list(_points(content, 5, 3, every=40, limit=5)):
        copy = game.determinize(q.seat, random.Random(1), [RandomAgent(9, s) for s in range(3)])
        copy.run()
        assert copy.state.over
        assert not game.state.over


def test_fronts_are_drawn_with_the_right_marginals(content):
    """Every face-down tile of a pool is infected equally often, and the pool keeps its number of infected."""
    game = new_game(content, 2, ["random"], players=2)
    game.setup()
    q = game.pending()
    assert q is not None
    st = game.state
    cells = [i for i in game.geo.cells if st.board[i] == B.TILE]
    infected = sum(st.fronts[i] for i in cells)
    counts: Counter = Counter()
    n = 400
    for r in range(n):
        copy = game.determinize(q.seat, random.Random(r))
        assert sum(copy.state.fronts[i] for i in cells) == infected
        counts.update(i for i in cells if copy.state.fronts[i])
    p = infected / len(cells)
    for i in cells:                       # binomial(400, p): 5 standard deviations either side
        sd = (n * p * (1 - p)) ** 0.5
        assert abs(counts[i] - n * p) < 5 * sd, (i, counts[i], n * p)


def test_what_the_seat_knows_is_never_drawn_again(content):
    """Its own hand, every tableau, the market and the draft it was dealt stay; others' cards do not."""
    game = new_game(content, 4, ["random"], players=3)
    q = game.pending()
    assert q is not None and q.kind is Ask.ADVISOR and q.seat == 0
    others = set()
    for r in range(30):
        copy = game.determinize(0, random.Random(r))
        assert copy.state.cursor.data.dealt[0] == game.state.cursor.data.dealt[0]
        others.add(copy.state.cursor.data.dealt[1])
        assert not set(copy.state.cursor.data.dealt[1]) & set(game.state.cursor.data.dealt[0])
    assert len(others) > 5
    game.run_round()
    game.run_round()
    theirs = set()
    for r in range(10):
        copy = game.determinize(1, random.Random(r))
        theirs.add(tuple(tuple(c.id for c in p.hand) for p in copy.state.seats if p.seat != 1))
        assert [c.id for c in copy.state.seats[1].hand] == [c.id for c in game.state.seats[1].hand]
        assert [[e.card.id for e in p.tableau] for p in copy.state.seats] == \
               [[e.card.id for e in p.tableau] for p in game.state.seats]
    assert any(game.state.seats[s].hand for s in (0, 2)) and len(theirs) > 1


def test_forecast_is_a_determinization_not_the_truth(content):
    game = new_game(content, 6, ["random"], players=2)
    game.setup()
    game.run_round()
    q = game.pending()
    assert q is not None
    obs = game.observation(q.seat)
    copy = obs.forecast([RandomAgent(0, s) for s in range(2)])
    assert copy.state.seed == UNKNOWN_SEED
    assert copy.info_key(q.seat) == game.info_key(q.seat)
    assert _hidden(copy, q.seat) != _hidden(game, q.seat)
    # other seats' private history (their cards, bids) is not in the copy
    assert all(e[0] in (-1, q.seat) for e in copy.state.seen)
