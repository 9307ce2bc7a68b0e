"""The causal value of a card (rulekit value, playtest --value): known values found, the game left as it was, same bytes."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from rulekit.agents import make_agent
from rulekit.cli import main
from rulekit.content.loader import load_content
from rulekit.engine import new_game, run_game
from rulekit.playtest.value import ValuePlan, card_values, give_value, measure_game
from tests.conftest import ROOT

VALUE_CONTENT = ROOT / "tests" / "fixtures" / "value"
SEEDS = list(range(40))


@pytest.fixture(scope="module")
def known():
    return load_content(VALUE_CONTENT)


@pytest.fixture(scope="module")
def values(known):
    return card_values(known, SEEDS, ["greedy"], cards=["blank", "five"])


def cli(*args):
    return CliRunner().invoke(main, [*map(str, args), "--quiet"], catch_exceptions=False)


def contains(ci, x) -> bool:
    return ci[0] <= x <= ci[1]


@pytest.mark.parametrize("agent", ["greedy", "random", "default"])
def test_a_forked_agent_answers_as_the_original_would(known, agent):
    """Fork every agent in round 3 and play a copy on with the forks: the same rest of the game, record for record."""
    log: list = []
    game = new_game(known, 11, [agent], log=log)
    while (q := game.pending()) is not None and game.state.round < 3:
        game.answer(game.choosers[q.seat].choose(game.observation(q.seat), q))
    assert q is not None
    twin_log: list = []
    twin = game.clone(choosers=[c.fork() for c in game.choosers], log=twin_log)
    start = len(log)
    game.run()
    twin.run()
    assert twin_log == log[start:]
    assert len(twin_log) > 100
    assert [p.score for p in twin.state.seats] == [p.score for p in game.state.seats]


def test_a_forked_random_agent_draws_apart_from_the_original():
    """The fork's generator is a copy, not the same object: drawing from one leaves the other where it was."""
    agent = make_agent("random", 3, 0)
    twin = agent.fork()
    first = [agent.rng.random() for _ in range(3)]
    assert [twin.rng.random() for _ in range(3)] == first


@pytest.mark.parametrize("agent", ["greedy", "random"])
def test_measuring_leaves_the_game_as_an_unmeasured_run_plays_it(known, agent):
    """Every copy plays with copies of the agents: the game itself, record for record, is the plain game."""
    for seed in (2, 9):
        plain: list = []
        result = run_game(known, seed, [agent], log=plain)
        measured: list = []
        m = measure_game(known, [agent] * 4, 4, ValuePlan(points=2), 0, seed, log=measured)
        assert measured == plain
        assert m.result == result
        assert len(m.points) > 10


def test_a_card_that_does_nothing_is_worth_nothing(values):
    play = values["blank"].play
    assert play.points >= 30 and play.errors == 0
    assert contains(play.score.ci95, 0)
    assert contains(play.win.ci95, 0)


def test_a_card_worth_five_points_is_worth_five_points(values):
    play = values["five"].play
    assert play.points >= 30
    assert contains(play.score.ci95, 5) and not contains(play.score.ci95, 0)
    assert play.score_with - play.score_without == pytest.approx(play.score.value)
    assert play.win.value > 0


def test_an_advisor_is_measured_by_keeping_it(known):
    values = card_values(known, SEEDS[:12], ["greedy"], cards=["seer"])
    keep = values["seer"].keep
    assert values["seer"].play is None and keep.points == keep.games > 0


def test_giving_a_card_worth_five_points_gives_about_five(known):
    given = give_value(known, SEEDS, ["greedy"], "windfall")
    assert given.points == len(SEEDS) and given.errors == 0
    assert 3.5 < given.score.value < 6.5
    assert given.score.ci95[0] > 0
    nothing = give_value(known, SEEDS, ["greedy"], "白板")
    assert contains(nothing.score.ci95, 0)


def test_the_value_is_the_same_whatever_the_jobs(known, values):
    assert card_values(known, SEEDS, ["greedy"], cards=["blank", "five"], jobs=2) == values


def test_rulekit_value_writes_the_same_bytes_with_one_job_or_two(tmp_path):
    outs = []
    for jobs in (1, 2):
        out = tmp_path / f"j{jobs}"
        r = cli("value", VALUE_CONTENT, "--games", 10, "--card", "five", "--card", "seer", "--jobs", jobs, "--out", out)
        assert r.exit_code == 0, r.output
        outs.append((out / "value.json").read_bytes())
    assert outs[0] == outs[1]
    assert "五分 (five)" in r.output and "10 局 games" in r.output


def test_playtest_value_resumes_without_playing_again_and_gives_the_same_summary(tmp_path):
    once = tmp_path / "once"
    r = cli("playtest", VALUE_CONTENT, "--games", 8, "--value", "--jobs", 2, "--out", once)
    assert r.exit_code == 0, r.output
    twice = tmp_path / "twice"
    assert cli("playtest", VALUE_CONTENT, "--games", 5, "--value", "--out", twice).exit_code == 0
    r = cli("playtest", VALUE_CONTENT, "--games", 8, "--value", "--resume", "--out", twice)
    assert r.exit_code == 0, r.output
    assert "played now 3" in r.output
    assert (twice / "summary.json").read_bytes() == (once / "summary.json").read_bytes()
    report = (once / "report.html").read_text(encoding="utf-8")
    assert "因果价值" in report


def test_resuming_a_plain_batch_with_value_is_refused(tmp_path):
    out = tmp_path / "b"
    assert cli("playtest", VALUE_CONTENT, "--games", 3, "--out", out).exit_code == 0
    r = cli("playtest", VALUE_CONTENT, "--games", 3, "--value", "--resume", "--out", out)
    assert r.exit_code == 1
    assert "value" in r.output


def test_an_unknown_card_is_a_usage_error(tmp_path):
    r = cli("value", VALUE_CONTENT, "--card", "nonesuch", "--out", tmp_path / "x")
    assert r.exit_code == 2
    assert "no 政策或顾问 policy or advisor named 'nonesuch'" in r.output


@pytest.mark.dask
def test_the_dask_backend_writes_the_same_value(tmp_path):
    pytest.importorskip("dask.distributed")
    outs = []
    for backend in ("local", "dask"):
        out = tmp_path / backend
        r = cli("value", VALUE_CONTENT, "--games", 6, "--card", "five", "--jobs", 2, "--backend", backend, "--out", out)
        assert r.exit_code == 0, r.output
        outs.append((out / "value.json").read_bytes())
    assert outs[0] == outs[1]


def test_value_takes_the_batch_limits_and_lock_playtest_takes(tmp_path):
    """`rulekit value` plays a batch as playtest does: the same ceiling on --games, the same scheduler check,
    and the same lock on its folder."""
    from rulekit.playtest.store import batch_lock

    r = cli("value", VALUE_CONTENT, "--games", 100_000_000, "--out", tmp_path / "x")
    assert r.exit_code == 2 and "1,000,000" in r.output
    r = cli("value", VALUE_CONTENT, "--backend", "dask", "--scheduler", "tcp://host:notaport", "--out", tmp_path / "x")
    assert r.exit_code == 2 and "not a dask scheduler address" in r.output
    out = tmp_path / "locked"
    with batch_lock(out):
        r = cli("value", VALUE_CONTENT, "--games", 2, "--out", out)
    assert r.exit_code == 1 and "another playtest run" in r.output, r.output
