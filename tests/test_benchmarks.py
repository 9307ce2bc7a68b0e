"""Each benchmark still runs against today's engine, at a tiny size (figures are not checked: speed is
measured by running the benchmarks by hand, never in a test). A benchmark that has drifted from the
API it times can report nothing when the next change needs its figures."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import CONTENT

BENCH = Path(__file__).resolve().parents[1] / "benchmarks"
DECK = ["--content", str(CONTENT)]          # not the shipped cards, which the designer rewrites
RUNS = {
    "bench_compare.py": ["--games", "12", "--players", "2", "--jobs", "1", *DECK],
    "bench_engine.py": ["--games", "8", *DECK],
    # The checkout itself as the tree: no compiled build there, so pure Python only (a build takes a minute).
    "bench_compiled.py": ["--games", "4", "--rounds", "1", "--build", str(BENCH.parent), *DECK],
    "bench_greedy.py": ["--games", "2", "--rounds", "1", *DECK],
    "bench_lint.py": ["--cards", "40", "--repeat", "1", *DECK],
    "bench_mcts.py": ["--games", "2", "--budgets", "1", "--jobs", "1", "--only", "random", *DECK],
    "bench_serve_reload.py": ["--saves", "1", *DECK],      # a copy, edited in a temporary folder
    "bench_lsp.py": ["--edits", "4", *DECK],
    "bench_playtest.py": ["--games", "12", "--small", "6", "--agent", "random", *DECK],
    "ceiling.py": ["--games", "5"],
    "replay_logs.py": ["write", "logs", "--limit", "3"],
    "bench_value.py": ["--games", "3", "--card", "five", "--content", str(BENCH.parent / "tests" / "fixtures" / "value")],
    "free_cards.py": ["--games", "2", "--content", str(Path(__file__).resolve().parent / "fixtures" / "probes")],
    "bench_tune.py": ["--card", "长青", "--budget", "30", "--reference-games", "5", "--players", "2",
                      "--content", str(BENCH.parent / "tests" / "fixtures" / "tune")],
}


def test_every_benchmark_is_listed():
    assert sorted(p.name for p in BENCH.glob("*.py")) == sorted(RUNS)


@pytest.mark.parametrize("name", sorted(RUNS))
def test_benchmark_runs_and_prints_figures(name, tmp_path):
    out = subprocess.run([sys.executable, str(BENCH / name), *RUNS[name]], capture_output=True, text=True,
                         cwd=tmp_path, timeout=120, encoding="utf-8")
    assert out.returncode == 0, out.stderr[-2000:]
    assert "Traceback" not in out.stderr
    assert any(ch.isdigit() for ch in out.stdout), out.stdout


def test_replay_logs_finds_the_same_games_the_same_and_a_changed_log_different(tmp_path):
    """The yardstick of 'behaviour unchanged' must itself see a difference: one edited record is reported."""
    run = [sys.executable, str(BENCH / "replay_logs.py")]
    subprocess.run([*run, "write", "logs", "--limit", "2"], cwd=tmp_path, check=True, capture_output=True, timeout=120)
    same = subprocess.run([*run, "check", "logs", "--limit", "2"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert "2 of 2 logged games played to the same bytes" in same.stdout
    first = sorted((tmp_path / "logs").glob("*.jsonl"))[0]
    lines = first.read_text(encoding="utf-8").splitlines()
    lines[5] += " "                     # one byte more in record 6
    first.write_text("\n".join(lines) + "\n", encoding="utf-8")
    changed = subprocess.run([*run, "check", "logs", "--limit", "2"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert "1 of 2 logged games played to the same bytes; 1 differ" in changed.stdout
    assert f"{first.name}: differs at record 6" in changed.stdout
