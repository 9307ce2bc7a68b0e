"""Games per second of the core on the shipped content: compiled vs reference evaluator, per agent.

Run by hand: `python benchmarks/bench_engine.py [--games N]`. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from rulekit.content.loader import load_content
from rulekit.engine import run_game

ROOT = Path(__file__).resolve().parent.parent


def rate(content, games: int, agents: list[str], evaluator: str) -> float:
    start = time.perf_counter()
    for seed in range(games):
        run_game(content, seed, agents, evaluator=evaluator)
    return games / (time.perf_counter() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=200)
    args = ap.parse_args()
    content = load_content(ROOT / "content")
    from rulekit.agents import agent_names

    for agent in [a for a in ("random", "default", "greedy") if a in agent_names()]:
        fast = rate(content, args.games, [agent], "compiled")
        slow = rate(content, args.games, [agent], "reference")
        print(f"{agent:8} compiled {fast:7.1f} games/s   reference {slow:7.1f} games/s   ratio {fast / slow:4.2f}x")


if __name__ == "__main__":
    main()
