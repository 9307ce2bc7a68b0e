"""The cost of the causal value of cards, as a multiple of a plain batch of the same games (one run, one process):
    python benchmarks/bench_value.py [--games 40] [--card 医院扩容] [--content content]

Prints the seconds of a plain batch, of `rulekit value --card CARD` (one card, every way it is measured), of
--give CARD and of every card (`playtest --value`), each as a ratio to the plain batch, and the cost of
every card divided by the number of cards measured. Compare ratios from one run only: the machine is shared.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

CONTENT = Path(__file__).resolve().parent.parent / "content"


def seconds(content, games: int, plan) -> tuple[float, int]:
    """One batch through the real runner (games stored in SQLite): its seconds and the points it measured."""
    from rulekit.playtest.runner import Batch, run
    from rulekit.playtest.store import Store
    from rulekit.playtest.value_stats import stored, summarize

    batch = Batch(str(content.root), games, 1, 4, ("greedy",) * 4, value=plan)
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        run(content, batch, Path(tmp))
        took = time.perf_counter() - start
        if plan is None:
            return took, 0
        store = Store(Path(tmp))
        try:
            return took, summarize(stored(store), content, plan).summary()["points"]
        finally:
            store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--card", default="医院扩容")
    parser.add_argument("--content", type=Path, default=CONTENT)
    args = parser.parse_args()

    from rulekit.content.loader import load_content
    from rulekit.playtest.value import ValuePlan, measured_ids

    content = load_content(args.content)
    card = content.lookup(args.card).id
    plain, _ = seconds(content, args.games, None)
    print(f"plain batch, {args.games} greedy games: {plain:.2f} s")
    every = ValuePlan()
    measured = len(set().union(*measured_ids(content, every).values()))
    for words, plan in ((f"value --card {args.card}", ValuePlan(cards=(card,))),
                        (f"value --give {args.card}", ValuePlan(give=card)),
                        (f"playtest --value (all {measured} cards)", every)):
        took, points = seconds(content, args.games, plan)
        print(f"{words}: {took:.2f} s, {points} points, {took / plain:.2f}x the plain batch")
        if plan is every:
            print(f"  per card measured: {took / plain / measured:.2f}x the plain batch")


if __name__ == "__main__":
    main()
