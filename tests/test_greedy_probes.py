"""The greedy agent values every construct a card can use: a free card that helps is played, one that hurts is not.

The probe cards (tests/fixtures/probes) are free; each is worth something only through one construct
the bots once read as nothing (a counter, `when event: prevent`, `take`, `count(…)`, `after`, a
duration), or through `move`, which the reading cannot value and the lookahead measures. A designer
reading "drawn but never played" must be able to trust that the card was judged, not misread.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulekit import registry
from rulekit.agents import estgen, make_agent
from rulekit.agents import estimate as E
from rulekit.agents import greedy as G
from rulekit.content.loader import load_content
from rulekit.core.game import Game
from rulekit.core.questions import Ask
from rulekit.engine import make_game, new_game, result_of

PROBES = Path(__file__).resolve().parent / "fixtures" / "probes"
HELPFUL = ("probe_counters", "probe_dodge", "probe_take", "probe_count", "probe_later", "probe_duration", "probe_stuck")


@pytest.fixture(scope="module")
def probes():
    return load_content(PROBES)


@pytest.fixture(scope="module")
def batch(probes):
    """20 games of four greedy players: for each card, (player-games that drew it, of those, that played it)."""
    drawn: dict[str, int] = {}
    played: dict[str, int] = {}
    for seed in range(20):
        game = new_game(probes, seed, ["greedy"], players=4)
        game.run()
        r = result_of(game)
        for seat in range(4):
            mine = set(r.cards_played[seat])
            for card in set(r.cards_drawn[seat]):
                drawn[card] = drawn.get(card, 0) + 1
                played[card] = played.get(card, 0) + (card in mine)
    return drawn, played


@pytest.mark.parametrize("card", HELPFUL)
def test_a_free_card_that_helps_is_played_when_drawn(batch, card):
    drawn, played = batch
    assert drawn[card] >= 15, "the batch must draw the probe often enough to tell"
    assert played[card] >= 0.8 * drawn[card], \
        f"{card}: played in {played[card]} of the {drawn[card]} games it was drawn"


def test_a_free_card_that_hurts_is_not_played(batch):
    drawn, played = batch
    assert drawn["probe_harm"] >= 15 and played["probe_harm"] == 0
    assert drawn["probe_move_harm"] >= 15 and played["probe_move_harm"] <= 0.1 * drawn["probe_move_harm"], \
        "the lookahead must see that a card it cannot read hurts"


# ---- what the reading says of each construct ------------------------------------------------------------

def first_action(content, seed: int = 1, seat: int = 0, hand=(), agents=("default",) * 4) -> Game:
    """A game at the first action question of `seat`, the given cards added to its hand at the start."""
    game = make_game(content, seed, [make_agent(a, seed, s) for s, a in enumerate(agents)])
    for card in hand:
        game.take_from_deck(card)
        game.state.seats[seat].hand.append(card)
    while True:
        q = game.pending()
        if q.kind is Ask.ACTION and q.seat == seat:
            return game
        game.answer(game.choosers[q.seat].choose(game.observation(q.seat), q))


def worth(content, ref: str, game: Game, seat: int = 0) -> float:
    card = content.lookup(ref)
    return E.play_value(card, E.Snapshot(game.observation(seat), seat))[0]


def test_a_counter_is_read_at_its_value(probes):
    game = first_action(probes)
    card = probes.lookup("probe_counters")
    fresh = worth(probes, "probe_counters", game)
    from rulekit.core.state import Entry

    entry = Entry(card, 1)
    entry.counters["charges"] = 0
    game.state.seats[0].tableau.append(entry)
    spent = E.lasting(card, E.Snapshot(game.observation(0), 0))
    assert fresh > 1.0 and spent == 0.0, "a card whose charges are used up brings nothing more"


def test_preventing_an_event_is_worth_its_harm_to_the_seat(probes):
    game = first_action(probes)
    obs = game.observation(0)
    snap = E.Snapshot(obs, 0)
    harms = {e.id: E.event_harm(e, snap)[0] for e in probes.of_kind("event")}
    assert harms["surge"] < harms["unrest"] < 0 < harms["windfall"]
    dodge = E.play_value(probes.lookup("probe_dodge"), snap)[0]
    mean = sum(share * harms[e.id] for e, share in E.unseen_events(snap))
    assert dodge == pytest.approx(-mean * snap.rounds_left * E.LASTING), \
        "one event a round, each as likely as its copies"
    game.state.event_deck[:] = [probes.lookup("windfall")] * 3
    assert E.play_value(probes.lookup("probe_dodge"), E.Snapshot(obs, 0))[0] < 0, "dodging only good news is a loss"


def test_take_is_worth_what_it_can_take(probes):
    game = first_action(probes)
    snap = E.Snapshot(game.observation(0), 0)
    assert E.play_value(probes.lookup("probe_take"), snap)[0] > 3 * E.PER_ROUND["medical"]
    for seat in (1, 2, 3):
        game.state.seats[seat].medical = 0
    assert E.play_value(probes.lookup("probe_take"), E.Snapshot(game.observation(0), 0))[0] == 0.0, \
        "nothing to take from players without medical"


def test_count_and_highest_read_the_table(probes):
    game = first_action(probes)
    assert worth(probes, "probe_count", game) == pytest.approx(4 * E.MONEY)
    game.state.seats[2].medical = 0
    assert worth(probes, "probe_count", game) == pytest.approx(3 * E.MONEY)


def test_a_later_block_is_worth_less_and_nothing_past_the_game(probes):
    game = first_action(probes)
    now = E.Snapshot(game.observation(0), 0)
    later = E.play_value(probes.lookup("probe_later"), now)[0]
    assert 0 < later < 2 * E.PER_ROUND["medical"] * now.rounds_left * E.LASTING
    del game.state.event_deck[2:]        # two events left: the game ends before two rounds pass
    assert E.play_value(probes.lookup("probe_later"), E.Snapshot(game.observation(0), 0))[0] == 0.0


def test_a_card_of_two_rounds_is_worth_two_rounds(probes):
    from dataclasses import replace

    game = first_action(probes)
    snap = E.Snapshot(game.observation(0), 0)
    two = probes.lookup("probe_duration")
    assert E.play_value(two, snap)[0] == pytest.approx(E.play_value(replace(two, duration="round"), snap)[0] * 1.2)
    assert E.play_value(two, snap)[0] < E.play_value(replace(two, duration="lasting"), snap)[0]


# ---- the lookahead ----------------------------------------------------------------------------------------

def test_unreadable_names_the_constructs_the_reading_cannot_value(probes):
    reasons = {card.id: [str(u) for u in E.unreadable(card)] for card in probes.cards}
    assert [card for card, why in reasons.items() if why] == ["probe_stuck", "probe_move_harm"]
    assert "`move`" in reasons["probe_stuck"][0]
    assert estgen.of(probes.lookup("probe_stuck")).unreadable == E.unreadable(probes.lookup("probe_stuck"))


def test_the_lookahead_plays_a_card_the_reading_cannot_value(probes):
    """疏散补贴 pays 6 when there is nowhere to move an infected resident to: the reading cannot see it, the
    lookahead can (no cell is empty in round 1)."""
    stuck = probes.lookup("probe_stuck")
    for looks in (False, True):
        game = first_action(probes, hand=[stuck])
        assert worth(probes, "probe_stuck", game) == 0.0, "read from the text, the card is worth nothing"
        agent = game.choosers[0] = G.GreedyAgent(1, 0)
        agent.looks = looks
        while game.state.phase == "actions":
            q = game.pending()
            game.answer(game.choosers[q.seat].choose(game.observation(q.seat), q))
        assert ("probe_stuck" in game.state.seats[0].played_ids) is looks
        assert 0 < agent.looked <= G.LOOK_GAME if looks else agent.looked == 0


def test_the_lookahead_is_deterministic_and_leaves_the_agent_s_generator_alone(probes):
    def log_of() -> list:
        log: list = []
        game = new_game(probes, 4, ["greedy"], players=4, log=log)
        game.run()
        assert sum(c.looked for c in game.choosers) > 0
        return log

    assert json.dumps(log_of(), default=str) == json.dumps(log_of(), default=str)
    stuck = probes.lookup("probe_stuck")
    game = first_action(probes, hand=[stuck])
    agent = G.GreedyAgent(1, 0)
    snap = E.Snapshot(game.observation(0), 0)
    before = agent.rng.getstate()
    look = G.Lookahead((game.pending().options.index(("play", "probe_stuck")),))
    agent.look(game.observation(0), look.skip[0], snap, stuck, False, look, 200)
    assert agent.rng.getstate() == before


def test_the_lookahead_keeps_to_its_budgets_and_is_kept_per_snapshot(probes, monkeypatch):
    stuck = probes.lookup("probe_stuck")
    game = first_action(probes, hand=[stuck])
    q, obs = game.pending(), game.observation(0)
    agent = G.GreedyAgent(1, 0)
    agent.choose(obs, q)
    spent = agent.looked
    agent.choose(obs, q)
    assert agent.looked == spent, "the same question at the same table is not measured twice"
    monkeypatch.setattr(G, "LOOK_GAME", 30)
    for seed in range(3):
        game = new_game(probes, seed, ["greedy"], players=4)
        game.run()
        assert all(c.looked <= 30 for c in game.choosers)


def test_a_forecast_is_a_copy_apart(probes):
    game = first_action(probes)
    before = json.dumps(game.state.to_json(), sort_keys=True)
    copy = game.observation(0).forecast([make_agent("greedy", 1, s) for s in range(4)])
    copy.run()
    assert copy.state.over and json.dumps(game.state.to_json(), sort_keys=True) == before


def test_lint_names_every_card_the_bots_cannot_value(tmp_path):
    from rulekit.lint.engine import check

    notes = [d for d in check([PROBES]) if d.code == "RK244"]
    lines = (PROBES / "policies" / "stage1.yaml").read_text(encoding="utf-8").splitlines()
    assert sorted(lines[d.line - 1].strip() for d in notes) == ["move 1 healthy", "move 1 infected as n"]
    assert all(d.severity == "info" and "`move`" in d.message and "lookahead" in d.message for d in notes)
    (tmp_path / "advisors").mkdir()
    (tmp_path / "rules.yaml").write_text("players: 4\n", encoding="utf-8")
    advisor = tmp_path / "advisors" / "advisors.yaml"
    advisor.write_text("- id: mover\n  name: 搬\n  effect: |\n    on setup:\n      move 1 healthy\n", encoding="utf-8")
    (found,) = [d for d in check([advisor]) if d.code == "RK244"]
    assert "choosing an advisor" in found.message


@pytest.mark.parametrize("trigger", sorted(registry.TRIGGERS))
def test_a_card_that_scores_at_any_trigger_is_worth_something(probes, trigger):
    from rulekit.model import Card
    from rulekit.language.parser import parse_effect

    program, problems = parse_effect(f"when {trigger}:\n  score += 1\n")
    assert program is not None, problems
    card = Card(kind="policy", id="listener", name="听", effect=program, price=(0,), stage=1)
    game = first_action(probes)
    assert E.play_value(card, E.Snapshot(game.observation(0), 0))[0] > 0


def test_a_card_using_next_to_is_named_one_the_reading_cannot_value():
    """`next to` depends on the board's layout, which the reading does not look at: such a card is measured by the
    lookahead (and named by RK244), never valued as the plain verb or read as a count of players."""
    from pathlib import Path

    from rulekit.content.loader import load_content

    reach = load_content(Path(__file__).parent / "fixtures" / "reach")
    for cid in ("outbreak", "breach"):
        why = [str(u) for u in E.unreadable(reach.lookup(cid))]
        assert len(why) == 1 and "`next to`" in why[0], (cid, why)
        assert estgen.of(reach.lookup(cid)).unreadable == E.unreadable(reach.lookup(cid))


def test_a_card_using_turn_order_is_named_one_the_reading_cannot_value():
    """Who sits after me, and my place, depend on the round and on who is out, which the reading does not
    follow: such a card is measured by the lookahead (and named by RK244)."""
    from pathlib import Path

    from rulekit.content.loader import load_content

    reach = load_content(Path(__file__).parent / "fixtures" / "reach")
    why = [str(u) for u in E.unreadable(reach.lookup("round_table"))]
    assert len(why) == 1 and why[0].startswith("turn order"), why
    assert estgen.of(reach.lookup("round_table")).unreadable == E.unreadable(reach.lookup("round_table"))


def test_a_card_hearing_other_players_moments_is_named_one_the_reading_cannot_value():
    """How often the others' offers go unsold, or they cure or play, is theirs: measured by the lookahead (RK244)."""
    from pathlib import Path

    from rulekit.content.loader import load_content

    reach = load_content(Path(__file__).parent / "fixtures" / "reach")
    why = [str(u) for u in E.unreadable(reach.lookup("bystander"))]
    assert len(why) == 1 and why[0].startswith("another player's moment"), why
    assert estgen.of(reach.lookup("bystander")).unreadable == E.unreadable(reach.lookup("bystander"))


def test_a_card_asking_what_caused_a_moment_is_named_one_the_reading_cannot_value():
    """`caused_by` is the game's (which card, whose, an event): the card is measured by the lookahead (RK244); its
    `advisor(…)`, `tableau(…)` and `switched_off(…)` the reading values from the player's own table."""
    from pathlib import Path

    from rulekit.content.loader import load_content

    reach = load_content(Path(__file__).parent / "fixtures" / "reach")
    why = [str(u) for u in E.unreadable(reach.lookup("inquest"))]
    assert len(why) == 1 and why[0].startswith("`caused_by`"), why
    assert estgen.of(reach.lookup("inquest")).unreadable == E.unreadable(reach.lookup("inquest"))
