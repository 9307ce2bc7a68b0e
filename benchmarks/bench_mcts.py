"""What the mcts agent wins, and what it costs: one mcts seat against three greedy (or random) seats.

Run by hand: `python benchmarks/bench_mcts.py [--games N] [--budgets A,B] [--jobs J] [--only greedy|random]
[--no-clairvoyant] [--content DIR]`. For each budget it plays N 4-player games (seeds 0..N-1, the mcts seat
rotating over the four seats) against greedy and against random players, honestly (searching
determinizations: obs.forecast) and clairvoyantly (searching clones of the true game, which knows every
hidden front, hand, deck order and all chance to come), and prints the mcts seat's win rate with its 95%
Wilson interval (a tie shares the win), CPU-seconds per game (the whole game, every seat), and which advisors it
kept, beside "greedy here": what a greedy player wins in the same seat of the same seeds (the seeds' own
baseline, which is not exactly 1/4 over a few hundred games). The gap between the honest and the clairvoyant
rate is what honesty costs. Prints figures; asserts
nothing. The issue-17 target: `--games 200 --only greedy --no-clairvoyant` at the default budget, the lower end
of the interval above 0.25 and at most 5 CPU-s a game.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

_CONTENT = None


def _load(content: str):
    global _CONTENT
    if _CONTENT is None:
        from rulekit.content.loader import load_content

        _CONTENT = load_content(content)
    return _CONTENT


def one_game(job: tuple) -> tuple[float, float, str | None, int, int, float]:
    """(the mcts seat's share of the win, CPU-s, its advisor, decisions searched, answers not greedy's, and the share
    a greedy player wins in that seat of the same seed: the baseline the seeds themselves give)."""
    content, seed, agent, other, clairvoyant = job
    from rulekit.core.errors import EffectError
    from rulekit.engine import new_game

    loaded = _load(content)
    seat = seed % 4
    names = [other] * 4
    names[seat] = agent
    start = time.process_time()
    game = new_game(loaded, seed, names, players=4)
    mcts = game.choosers[seat]
    if clairvoyant:       # search clones of the true game: every hidden thing and all chance known
        mcts.worlds = lambda obs, rng, choosers: game.clone(choosers)
    try:
        game.run()
    except EffectError:
        return 0.0, time.process_time() - start, None, 0, 0, _greedy_share(loaded, seed, names, seat)
    cpu = time.process_time() - start
    won = game.winners()
    advisor = game.state.seats[seat].advisor
    return ((1 / len(won)) if seat in won else 0.0, cpu, advisor.id if advisor is not None else None,
            mcts.searched, mcts.changed, _greedy_share(loaded, seed, names, seat))


def _greedy_share(loaded, seed: int, names: list[str], seat: int) -> float:
    from rulekit.engine import run_game

    r = run_game(loaded, seed, [*names[:seat], "greedy", *names[seat + 1:]], players=4)
    return (1 / len(r.winners)) if seat in r.winners else 0.0


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    p = wins / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return centre - half, centre + half


def main() -> None:
    from rulekit.agents.mcts import DEFAULT_ITERATIONS

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=40, help="games per line (default 40)")
    ap.add_argument("--budgets", default=f"{DEFAULT_ITERATIONS // 2},{DEFAULT_ITERATIONS}",
                    help=f"iteration budgets, comma-separated (default half the default and the default, "
                         f"{DEFAULT_ITERATIONS})")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    ap.add_argument("--only", choices=("greedy", "random"), help="only against these opponents")
    ap.add_argument("--no-clairvoyant", action="store_true", help="only the honest agent")
    ap.add_argument("--content", type=Path, default=ROOT / "content")
    args = ap.parse_args()
    budgets = [int(b) for b in args.budgets.split(",")]
    lines = [(b, other, clair) for b in budgets for other in ("greedy", "random") if args.only in (None, other)
             for clair in (False, True) if not (clair and args.no_clairvoyant)]
    print(f"one mcts seat (rotating) against three others, {args.games} 4-player games a line, content {args.content}")
    print(f"{'agent':<10} {'search':<12} {'against':<8} {'win rate':>8}  {'95% interval':<15} {'CPU-s/game':>10} "
          f"{'searched':>8} {'not greedy':>10} {'greedy here':>11}  advisors kept")
    with multiprocessing.Pool(args.jobs) as pool:
        for budget, other, clair in lines:
            jobs = [(str(args.content), seed, f"mcts:{budget}", other, clair) for seed in range(args.games)]
            out = pool.map(one_game, jobs, chunksize=1)
            wins = sum(o[0] for o in out)
            lo, hi = wilson(wins, len(out))
            cpu = sum(o[1] for o in out) / len(out)
            kept = Counter(o[2] for o in out if o[2] is not None)
            searched = sum(o[3] for o in out) / len(out)
            changed = sum(o[4] for o in out) / len(out)
            base = sum(o[5] for o in out) / len(out)
            print(f"{'mcts:' + str(budget):<10} {'clairvoyant' if clair else 'honest':<12} {other:<8} "
                  f"{wins / len(out):>8.3f}  [{lo:.3f}, {hi:.3f}]  {cpu:>10.2f} {searched:>8.0f} {changed:>10.1f} {base:>11.3f}  "
                  f"{len(kept)} advisors: " + ", ".join(f"{a} {n}" for a, n in sorted(kept.items())), flush=True)


if __name__ == "__main__":
    main()
