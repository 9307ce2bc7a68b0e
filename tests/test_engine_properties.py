"""Property tests: whatever the seed, table size and agents, every game keeps the invariants and ends."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulekit.agents import make_agent
from rulekit.engine import make_game
from tests.invariants import check, out_players_never_chose, play_checked

agents = st.sampled_from(["random", "default"])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4), names=st.lists(agents, min_size=4, max_size=4))
def test_every_game_keeps_the_invariants_and_ends(content, seed, players, names):
    log: list = []
    choosers = [make_agent(n, seed, s) for s, n in enumerate(names[:players])]
    game = make_game(content, seed, choosers, players=players, log=log)
    play_checked(game)
    st_ = game.state
    assert st_.over and st_.end_reason in ("won_fight", "events_exhausted", "max_rounds", "one_left")
    assert st_.round <= game.rules.max_rounds
    assert game.winners(), "a finished game has at least one winner"
    out_players_never_chose(log)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32), shuffle=st.sampled_from(["global", "per_player"]))
def test_tiles_hold_the_configured_infected_fronts(engine_content, seed, shuffle):
    from rulekit.content.rules import merge_rules
    from rulekit.core.phases.setup import fill_tiles

    rules = merge_rules(engine_content.rules, {"tiles": {"shuffle": shuffle}})
    game = make_game(engine_content, seed, [make_agent("random", seed, s) for s in range(4)], rules=rules)
    fill_tiles(game)
    fronts = game.state.fronts
    per_seat = [sum(fronts[i] for i in game.geo.cells_of[s]) for s in range(4)]
    assert sum(per_seat) == 20
    if shuffle == "per_player":
        assert per_seat == [5, 5, 5, 5]
    check(game)


def test_every_trigger_says_what_must_still_hold_of_its_moment():
    """A trigger added to the registry must say when its moment stops holding (core/game.py STILL_HOLDS):
    without it, the first card using the trigger would stop the game."""
    from rulekit import registry
    from rulekit.core.game import STILL_HOLDS

    assert sorted(STILL_HOLDS) == sorted(registry.TRIGGERS)
