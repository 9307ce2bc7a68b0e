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
    "bench_playtest.py": ["--games", "12", "--small", "6", "--agent", "random", *DECK],
    "ceiling.py": ["--games", "5"],
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
