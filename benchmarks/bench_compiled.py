"""The compiled build against pure Python, as ratios measured side by side in one run.

Builds this checkout's compiled modules (rulekit/build_info.py COMPILED) into a temporary copy, or takes an
existing build with `--build DIR` (a folder holding rulekit/ with its extensions beside the sources; without
a usable build there, it measures pure Python only). Then, in rounds, plays the same games in fresh
processes on that tree twice: compiled, and with RULEKIT_PURE=1 (the same sources, interpreted).
Prints random and greedy games per CPU-second for each (medians over the rounds), compiled ÷ pure, and
each as a share of the hand-written ceiling loop (benchmarks/ceiling.py), and how long the build took.

Run by hand: `python benchmarks/bench_compiled.py [--games N] [--rounds R] [--build DIR] [--content DIR]`.
Prints figures; asserts nothing. Needs mypyc (it comes with mypy) unless --build is given.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from rulekit import build_info

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_engine  # noqa: E402  (the timing script, beside this file)
import ceiling  # noqa: E402  (the yardstick beside this file)

# bench_engine's timing script (it must also run an older rulekit), then which build ran it.
RATE = bench_engine.RATE + "from rulekit import build_info\nprint(build_info.guard().mode)\n"


def rate(tree: Path, content: Path, agent: str, games: int, pure: bool, built: bool = True) -> float:
    env = {k: v for k, v in os.environ.items() if k != build_info.PURE_ENV}
    env["PYTHONPATH"] = str(tree)
    if pure:
        env[build_info.PURE_ENV] = "1"
    out = subprocess.run([sys.executable, "-c", RATE, str(content), agent, str(games)], cwd=tree, env=env,
                         capture_output=True, text=True, check=True)
    value, mode = out.stdout.split()      # the rate, then the build
    want = ("disabled" if pure else "compiled") if built else "pure"
    if mode != want:
        raise SystemExit(f"expected the {want} build in {tree}, got {mode}: {out.stderr.strip()}")
    return float(value)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=100, help="random games a measurement (greedy: a quarter)")
    ap.add_argument("--rounds", type=int, default=5, help="alternating pure/compiled rounds (medians)")
    ap.add_argument("--build", type=Path, help="an existing compiled tree to measure instead of building one")
    ap.add_argument("--content", type=Path, default=ROOT / "content", help="the content folder to play")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="rulekit-compiled-") as tmp:
        tree = args.build
        if tree is None:
            tree = Path(tmp)
            seconds = build_info.build_tree(ROOT, tree)
            print(f"build               {seconds:8.1f} s wall ({len(build_info.COMPILED)} modules, at nice)")
        status = build_info.inspect_build(tree / "rulekit")
        print(f"tree                {tree}: {status.describe()}")
        built = status.mode == "compiled"
        if not built:
            print("no usable compiled build there: pure Python only")
        ceil, _, _ = ceiling.games_per_cpu_second(300)
        print(f"ceiling loop        {ceil:8.1f} games/CPU-s")
        rates: dict[tuple[str, bool], list[float]] = {}
        for _ in range(args.rounds):
            for agent, games in (("random", args.games), ("greedy", max(1, args.games // 4))):
                for pure in (True, False) if built else (True,):
                    rates.setdefault((agent, pure), []).append(rate(tree, args.content, agent, games, pure, built))
        for agent in ("random", "greedy"):
            pure = statistics.median(rates[(agent, True)])
            print(f"{agent:6} pure        {pure:8.1f} games/CPU-s = {pure / ceil:.3f}× the ceiling")
            if not built:
                continue
            fast = statistics.median(rates[(agent, False)])
            print(f"{agent:6} compiled    {fast:8.1f} games/CPU-s = {fast / ceil:.3f}× the ceiling   "
                  f"compiled ÷ pure {fast / pure:.2f}×")


if __name__ == "__main__":
    main()
