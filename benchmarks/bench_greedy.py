"""Greedy games per CPU-second: this rulekit, and (with --old DIR) an older rulekit beside it, with their ratio.

Run by hand: `python benchmarks/bench_greedy.py [--old DIR] [--games N] [--players P] [--rounds R] [--content DIR]`.
DIR is a directory holding an older `rulekit` package and its `content` folder (a checkout or an
unpacked release). Each figure is measured in a fresh Python process (PYTHONPATH set to the
rulekit it measures), after one game to warm up; the runs of the two alternate and each keeps
its best of R, so that a busy machine slows both alike. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def worker(content: str, games: int, players: int) -> None:
    """In the measuring process: print the games per CPU-second of greedy players."""
    from rulekit.content.loader import load_content
    from rulekit.engine import run_game

    loaded = load_content(content)
    run_game(loaded, 10_000, ["greedy"], players=players)
    start = time.process_time()
    for seed in range(games):
        run_game(loaded, seed, ["greedy"], players=players)
    print(games / (time.process_time() - start))


def measure(root: Path, content: Path, games: int, players: int) -> float:
    env = {**os.environ, "PYTHONPATH": str(root)}
    out = subprocess.run([sys.executable, __file__, "--worker", str(content), str(games), str(players)],
                         env=env, capture_output=True, text=True, check=False)
    if out.returncode != 0:
        sys.exit(f"measuring the rulekit in {root} failed:\n{out.stderr.strip()}")
    return float(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--old", type=Path, help="a directory with an older rulekit package and its content folder")
    ap.add_argument("--games", type=int, default=40, help="games per run (default 40)")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=3, help="runs of each, best kept (default 3)")
    ap.add_argument("--content", type=Path, default=ROOT / "content",
                    help="the content folder this rulekit plays (default: the shipped content/)")
    ap.add_argument("--worker", nargs=3, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker(args.worker[0], int(args.worker[1]), int(args.worker[2]))
        return
    if args.old is not None and not (args.old / "rulekit").is_dir():
        sys.exit(f"{args.old} holds no rulekit package (expected {args.old / 'rulekit'})")
    new = old = 0.0
    for _ in range(args.rounds):
        if args.old is not None:
            old = max(old, measure(args.old.resolve(), args.old.resolve() / "content", args.games, args.players))
        new = max(new, measure(ROOT, args.content.resolve(), args.games, args.players))
    print(f"greedy, {args.players} players, {args.games} games a run, best of {args.rounds}")
    if args.old is not None:
        print(f"old ({args.old}): {old:7.1f} games per CPU-second")
    print(f"new ({ROOT}): {new:7.1f} games per CPU-second")
    if args.old is not None:
        print(f"ratio new/old: {new / old:.2f}x")


if __name__ == "__main__":
    main()
