"""`rulekit playtest` as a designer uses it: same numbers however it runs, resumable, honest about errors."""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
from typing import ClassVar

import pytest
from click.testing import CliRunner

from rulekit.agents.greedy import GreedyAgent
from rulekit.cli import main
from rulekit.engine import make_game, run_game
from rulekit.playtest.runner import game_seed
from rulekit.playtest.stats import newcombe, wilson
from tests.conftest import CONTENT

N = 12
BROKEN = """\
- id: cursed_ledger
  name: 诅咒账本
  stage: 1
  price: 1
  copies: 1
  status: proposed
  effect: |
    on play:
      score += 3
      medical += 1 // (hand - hand)
"""


def playtest(*args):
    return CliRunner().invoke(main, ["playtest", *map(str, args), "--quiet"], catch_exceptions=False)


def summary_bytes(out) -> bytes:
    return (out / "summary.json").read_bytes()


@pytest.fixture(scope="module")
def baseline(tmp_path_factory):
    """N greedy games, one process: what every other way of running must reproduce."""
    out = tmp_path_factory.mktemp("pt") / "base"
    r = playtest(CONTENT, "--games", N, "--seed", 5, "--out", out)
    assert r.exit_code == 0, r.output
    return out


@pytest.fixture
def broken_content(tmp_path):
    root = tmp_path / "content"
    shutil.copytree(CONTENT, root, ignore=shutil.ignore_patterns(".*"))
    (root / "policies" / "zz_broken.yaml").write_text(BROKEN, encoding="utf-8")
    return root


# ---- same inputs, same summary ---------------------------------------------------------------

def test_two_jobs_give_the_same_summary(baseline, tmp_path):
    r = playtest(CONTENT, "--games", N, "--seed", 5, "--jobs", 2, "--out", tmp_path / "j2")
    assert r.exit_code == 0, r.output
    assert summary_bytes(tmp_path / "j2") == summary_bytes(baseline)


def test_resume_equals_a_fresh_run(baseline, tmp_path):
    out = tmp_path / "r"
    assert playtest(CONTENT, "--games", N // 2, "--seed", 5, "--out", out).exit_code == 0
    r = playtest(CONTENT, "--games", N, "--seed", 5, "--out", out, "--resume")
    assert r.exit_code == 0, r.output
    assert "played now 6" in r.output
    assert summary_bytes(out) == summary_bytes(baseline)


@pytest.mark.dask
def test_dask_local_cluster_gives_the_same_summary(baseline, tmp_path):
    pytest.importorskip("dask.distributed")
    r = playtest(CONTENT, "--games", N, "--seed", 5, "--jobs", 2, "--backend", "dask", "--out", tmp_path / "d")
    assert r.exit_code == 0, r.output
    assert summary_bytes(tmp_path / "d") == summary_bytes(baseline)


def test_seeds_depend_on_batch_seed_and_index_only():
    assert game_seed(1, 0) == 182967204537045
    assert len({game_seed(1, i) for i in range(1000)}) == 1000


# ---- what a batch leaves behind -----------------------------------------------------------------

def test_summary_has_the_promised_keys_and_replay_commands(baseline):
    s = json.loads(summary_bytes(baseline))
    for key in ("games", "seed", "seats", "advisors", "cards", "events", "combos", "rounds", "end_reasons",
                "scores", "errors", "metrics", "outliers"):
        assert key in s
    assert s["games"]["total"] == N
    p1 = s["seats"]["P1"]["wins"]
    assert p1["of"] == N and len(p1["ci95"]) == 2
    assert s["cards"]["hospital_expansion"]["name"] == "医院扩容"
    assert "difference_ci95" in s["cards"]["hospital_expansion"]
    for name in ("balance", "decisiveness", "lead_changes", "drama", "comeback_rate"):
        assert s["metrics"][name]["definition"]
    longest = s["outliers"]["longest_game"]
    assert longest["command"].startswith(f"rulekit play --seed {longest['seed']} --players 4 --agents greedy,")
    assert "医院扩容" in summary_bytes(baseline).decode("utf-8")       # ensure_ascii=False
    assert "timestamp" not in s and "seconds" not in json.dumps(s)
    run = json.loads((baseline / "run.json").read_text())
    assert run["games_played"] == N and run["seconds"] > 0


def test_games_are_queryable_in_sqlite(baseline):
    db = sqlite3.connect(baseline / "games.sqlite")
    assert db.execute("SELECT count(*) FROM games").fetchone()[0] == N
    assert db.execute("SELECT count(*) FROM seats").fetchone()[0] == 4 * N
    plays = db.execute("SELECT card, count(*) FROM plays GROUP BY card").fetchall()
    assert plays and all(isinstance(c, str) and n > 0 for c, n in plays)
    params = json.loads(db.execute("SELECT params FROM batch").fetchone()[0])
    assert params["seed"] == 5 and params["agents"] == ["greedy"] * 4


def test_report_is_self_contained_with_plots_and_tables(baseline):
    html = (baseline / "report.html").read_text(encoding="utf-8")
    assert html.count("data:image/png;base64,") >= 4     # every game lasts 14 rounds: that one is a number
    assert "<table>" in html and "医院扩容" in html and "富商巨贾" in html
    assert "http://" not in html and "https://" not in html
    assert "What stands out" in html


# ---- errors ----------------------------------------------------------------------------------------

def test_an_erroring_card_is_recorded_and_the_batch_goes_on(broken_content, tmp_path):
    out = tmp_path / "e"
    r = playtest(broken_content, "--games", N, "--out", out)
    assert r.exit_code == 0, r.output
    s = json.loads(summary_bytes(out))
    assert s["games"]["total"] == N
    errors = s["errors"]
    assert errors["count"] >= 1 and set(errors["by_card"]) == {"cursed_ledger"}
    first = errors["games"][0]
    assert "division by zero" in first["message"]
    assert first["command"] == f"rulekit play --seed {first['seed']} --players 4 --agents greedy,greedy,greedy,greedy" \
                               f" --content {broken_content}"


def test_fail_fast_stops_at_the_first_error(broken_content, tmp_path):
    out = tmp_path / "f"
    r = playtest(broken_content, "--games", N, "--out", out, "--fail-fast")
    assert r.exit_code == 1
    assert "cursed_ledger" in r.output and "rulekit play --seed" in r.output
    stored = sqlite3.connect(out / "games.sqlite").execute("SELECT count(*), sum(end_reason = 'error') FROM games").fetchone()
    assert stored[0] < N and stored[1] == 1
    assert not (out / "summary.json").exists()


# ---- the command line ---------------------------------------------------------------------------------

@pytest.mark.parametrize("args", [["--agents", "nobody"], ["--agents", "greedy,random"], ["--games", "0"],
                                  ["--players", "5"], ["--backend", "spark"], ["--scheduler", "tcp://h:1"]])
def test_bad_options_are_usage_errors(args, tmp_path):
    r = playtest(CONTENT, "--out", tmp_path / "x", *args)
    assert r.exit_code == 2


def test_bad_content_prints_diagnostics_not_a_traceback(tmp_path):
    root = tmp_path / "content"
    shutil.copytree(CONTENT, root, ignore=shutil.ignore_patterns(".*"))
    (root / "policies" / "zz_typo.yaml").write_text(
        "- id: typo\n  name: 错字\n  stage: 1\n  price: 1\n  effect: |\n    on play:\n      medicl += 1\n", encoding="utf-8")
    r = playtest(root, "--games", 2, "--out", tmp_path / "o")
    assert r.exit_code == 1
    assert re.search(r"zz_typo\.yaml:\d+:\d+: RK\d+ ", r.output)
    assert "Traceback" not in r.output


def test_an_existing_batch_needs_resume_and_the_same_parameters(baseline, tmp_path):
    out = tmp_path / "b"
    assert playtest(CONTENT, "--games", 3, "--out", out, "--agents", "random").exit_code == 0
    again = playtest(CONTENT, "--games", 3, "--out", out, "--agents", "random")
    assert again.exit_code == 1 and "--resume" in again.output
    other = playtest(CONTENT, "--games", 3, "--out", out, "--agents", "greedy", "--resume")
    assert other.exit_code == 1 and "agents" in other.output


# ---- statistics -------------------------------------------------------------------------------------------

def test_wilson_interval_known_values():
    assert wilson(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert wilson(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert wilson(10, 10) == pytest.approx((0.7225, 1.0), abs=1e-4)
    assert wilson(81, 263) == pytest.approx((0.2553, 0.3662), abs=1e-4)
    assert wilson(0, 0) is None
    # Newcombe (1998), method 10: 56/70 vs 48/80.
    assert newcombe(56, 70, 48, 80) == pytest.approx((0.0524, 0.3339), abs=1e-4)


# ---- the greedy agent ------------------------------------------------------------------------------------

def test_greedy_beats_random(content):
    wins = {"greedy": 0, "random": 0}
    for i in range(40):
        agents = ["greedy", "random", "greedy", "random"] if i % 2 else ["random", "greedy", "random", "greedy"]
        r = run_game(content, game_seed(99, i), agents)
        for s in r.winners:
            wins[agents[s]] += 1
    assert wins["greedy"] > 3 * wins["random"], wins


class Checked(GreedyAgent):
    """The greedy agent, asserting that every answer is legal and counting question kinds."""

    kinds: ClassVar[set] = set()

    def choose(self, obs, q):
        answer = super().choose(obs, q)
        assert type(answer) is int and 0 <= answer < len(q.options), (q.kind, answer, q.options[:5])
        Checked.kinds.add(q.kind.value)
        return answer


def test_greedy_answers_only_legal_options(content):

    for i in range(12):
        players = 2 + i % 3
        game = make_game(content, game_seed(3, i), [Checked(game_seed(3, i), s) for s in range(players)], players=players)
        game.run()
    assert {"advisor", "strategy", "action", "treat", "cell", "offer", "bid"} <= Checked.kinds


def test_greedy_is_deterministic(content):
    a = run_game(content, 77, ["greedy"])
    b = run_game(content, 77, ["greedy"])
    assert a == b


def test_fresh_starts_the_batch_over(baseline, tmp_path):
    out = tmp_path / "again"
    shutil.copytree(baseline, out)
    (out / "notes.txt").write_text("mine", encoding="utf-8")
    r = playtest(CONTENT, "--games", 4, "--seed", 9, "--out", out, "--fresh")
    assert r.exit_code == 0, r.output
    assert json.loads(summary_bytes(out))["games"]["total"] == 4
    assert (out / "notes.txt").read_text(encoding="utf-8") == "mine", "--fresh removes only the batch's own files"
