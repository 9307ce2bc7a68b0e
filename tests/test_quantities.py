"""Every base formula of the rules is one function (rulekit/core/quantities.py), and the greedy bot reads the
ranges of the rules in force: a designer who changes either changes what every part of rulekit plays by.
"""

from __future__ import annotations

import shutil

import pytest

from rulekit import registry
from rulekit.agents import estimate as E
from rulekit.agents.greedy import GreedyAgent
from rulekit.content.loader import load_content
from rulekit.core import board as B
from rulekit.core import quantities as Q
from rulekit.core.questions import Ask
from rulekit.engine import make_game
from tests.conftest import ENGINE_CONTENT


def test_every_registry_quantity_has_one_base_formula():
    """The registry names each quantity; core.quantities gives each one formula (price: the card's own)."""
    assert set(Q.BASE) | Q.CARD_BASED == set(registry.QUANTITIES)
    assert not set(Q.BASE) & Q.CARD_BASED
    with pytest.raises(KeyError, match="price"):
        Q.base("price", make_rules(), 10, 0, 0)


def make_rules():
    from rulekit.core.rules import Rules
    return Rules.from_dict(registry.DEFAULT_RULES)


def test_formulas_say_what_the_registry_says():
    """The words of registry.QUANTITIES and the code agree at a few points (disease 11: 3 new mild, 2 new severe)."""
    rules = make_rules()
    assert Q.base("new_mild", rules, 11, 0, 0) == 3
    assert Q.base("new_severe", rules, 11, 0, 0) == Q.base("new_dead", rules, 11, 0, 0) == 2
    assert Q.base("income", rules, 0, 3, 5) == 3 + 2
    assert Q.base("discovery", rules, 0, 0, 0) == registry.DEFAULT_RULES["discovery"]["per_round"] == 2
    assert Q.base("mild_cost", rules, 0, 0, 0) == 2 and Q.base("severe_cost", rules, 0, 0, 0) == 3
    assert Q.base("bury_cost", rules, 0, 0, 0) == Q.base("relocate_cost", rules, 0, 0, 0) == 1
    assert Q.base("final_penalty", rules, 0, 0, 0) == 0
    assert Q.price((2, 3, 4), 1) == 3 and Q.price((2,), 1) == 0


def test_phases_and_observation_read_one_formula(content):
    """Each base a phase computes for a seat equals what Observation.quantity computes from that seat's numbers
    at the same moment: the two call one function, so they cannot drift apart."""
    checked: set[str] = set()
    for seed in range(6):
        game = make_game(content, seed, [GreedyAgent(seed, s) for s in range(4)])
        real = game.quantity
        inside = []

        def spy(s, name, base, without=None, note=True, inside=inside, game=game, real=real):
            if without is None and name != "price" and not inside:
                inside.append(name)
                p = game.state.seats[s]
                assert base == Q.base(name, game.rules, p.disease, p.economy, p.counts[B.HEALTHY]), name
                # Observation.quantity with no base reads the same formula; modifiers alike (the seat's own
                # observation: another seat's quantities stay hidden during the advisor draft).
                assert game.observation(s).quantity(s, name) == real(s, name, base, None, False), name
                checked.add(name)
                inside.pop()
            return real(s, name, base, without, note)

        game.quantity = spy
        while game.state.round <= 3 and game.pending() is not None:
            q = game.pending()
            game.answer(game.choosers[q.seat].choose(game.observation(q.seat), q))
    # Every seat formula the phases use in three rounds was compared (bury/relocate: when burying happens).
    assert {"new_mild", "new_severe", "new_dead", "discovery", "income", "mild_cost", "severe_cost"} <= checked


def _first_action(content):
    """A game of the content at P1's first action question, and the greedy P1's snapshot there."""
    agents = [GreedyAgent(1, s) for s in range(4)]
    game = make_game(content, 1, agents)
    while (q := game.pending()) is not None and not (q.kind is Ask.ACTION and q.seat == 0):
        game.answer(game.choosers[q.seat].choose(game.observation(q.seat), q))
    assert q is not None
    obs = game.observation(0)
    return game, q, obs, agents[0].snapshot(obs)


def test_greedy_follows_a_track_range_in_rules_yaml(tmp_path):
    """A designer caps medical at its start (5) in rules.yaml: the greedy bot then sees no worth in a
    card that raises medical, where under the default range (up to 15) it counts it each round left,
    and it weighs its standing (the lookahead's yardstick) by the same capped track."""
    folder = tmp_path / "engine"
    shutil.copytree(ENGINE_CONTENT, folder)
    with open(folder / "rules.yaml", "a", encoding="utf-8") as f:
        f.write("tracks:\n  medical: {max: 5}\n")
    default, capped = load_content(ENGINE_CONTENT), load_content(folder)
    assert capped.rules["tracks"]["medical"]["max"] == 5

    worth = {}
    for label, content in (("default", default), ("capped", capped)):
        game, _, obs, snap = _first_action(content)
        assert obs.track(0, "medical") == 5
        assert snap.ranges["medical"] == game.rules.bound("medical")[:2]
        agent = game.choosers[0]
        card, est, _ = agent.card(obs, "clinic")            # on play: medical += 1
        worth[label] = agent.play_worth(snap, card, est)[0]
        medical_up = E.Acc(snap)
        medical_up.d["medical"] = 1.0
        worth[label + " acc"] = E.worth(medical_up, snap)
    assert worth["default"] == pytest.approx(worth["default acc"]) and worth["default"] > 1.0
    assert worth["capped"] == 0.0 and worth["capped acc"] == 0.0


def test_greedy_follows_the_policy_floor_in_rules_yaml(tmp_path):
    """With policy's lowest raised to -4, a policy of -4 is the brink: the bot's utility there falls off
    the cliff (-60) a point lower, where under the default floor (-10) -5 is far from it."""
    folder = tmp_path / "engine"
    shutil.copytree(ENGINE_CONTENT, folder)
    with open(folder / "rules.yaml", "a", encoding="utf-8") as f:
        f.write("tracks:\n  policy: {min: -4}\n")
    _, _, _, snap = _first_action(load_content(folder))
    assert snap.floor == -4
    assert E.policy_utility(-5, 5, snap.floor) == -60.0
    assert E.policy_utility(-5, 5, -10) > -60.0
