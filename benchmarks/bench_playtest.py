"""Playtest speed: games per second on one core for random and greedy agents, and the speed-up from 1 to 2 jobs.

Measures the real runner (games played and stored in SQLite; summary and report left out):
    python benchmarks/bench_playtest.py [--games 200]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

from rulekit.content.loader import load_content
from rulekit.playtest.runner import Batch, run

CONTENT = Path(__file__).resolve().parent.parent / "content"


def games_per_second(content, agent: str, games: int, jobs: int) -> tuple[float, float]:
    """(games per wall-clock second, games per CPU second of this process)."""
    batch = Batch(str(CONTENT), games, 1, 4, (agent,) * 4)
    with tempfile.TemporaryDirectory() as tmp:
        cpu = time.process_time()
        outcome = run(content, batch, Path(tmp), jobs=jobs)
        cpu = time.process_time() - cpu
    return outcome.played / outcome.seconds, outcome.played / cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    content = load_content(CONTENT)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"{args.games} games of 4 players, shipped content, {os.cpu_count()} CPUs, load average {load:.1f}")
    one = {}
    for agent in ("random", "greedy"):
        one[agent], per_cpu = games_per_second(content, agent, args.games, 1)
        print(f"  {agent:7} 1 job : {one[agent]:6.1f} games/s ({per_cpu:.1f} per CPU second)")
    two, _ = games_per_second(content, "greedy", args.games, 2)
    print(f"  greedy  2 jobs: {two:6.1f} games/s — speed-up ×{two / one['greedy']:.2f} from 1 to 2 jobs"
          " (worker start-up included; needs 2 idle cores)")


if __name__ == "__main__":
    main()
