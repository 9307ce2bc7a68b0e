"""How long `rulekit tune CARD` takes, and what it spends its games on (one run, one machine):
    python benchmarks/bench_tune.py [--card 曙光纪念碑] [--field price] [--budget 2000] [--reference-games 200]
                                    [--players 4] [--jobs 1] [--content content]

Prints the seconds of the stage reference (the default target: every policy of the card's stage measured
on the same seeds), of the search itself, and of the whole run with the reference already kept (as a second
tune of the same stage finds it); each with its games, and the search's rounds and advice. A plain batch of
as many games is timed beside them, so the figures read as multiples of playing the games alone. Compare
figures from one run only: the machine is shared.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

CONTENT = Path(__file__).resolve().parent.parent / "content"


def search(content, args, out: Path):
    """One tune through the real search (local backend); its result and its seconds."""
    from rulekit.content.edit import Field
    from rulekit.playtest.runner import Batch
    from rulekit.playtest.tune import Ask, Search
    from rulekit.playtest.tune_measure import Player

    batch = Batch(str(content.root), args.budget, 1, args.players, ("greedy",) * args.players)
    ask = Ask(args.card, Field.parse(args.field), budget=args.budget, reference_games=args.reference_games)
    phases: list[tuple[str, float]] = []
    start = time.perf_counter()
    tuned = Search(content, ask, batch, Player(batch, args.jobs, "local", None), out=out,
                   on_phase=lambda words, total: phases.append((words, time.perf_counter()))).run()
    end = time.perf_counter()
    return tuned, start, phases, end


def plain(content, games: int, players: int) -> float:
    from rulekit.engine import run_game
    from rulekit.playtest.runner import game_seed

    start = time.perf_counter()
    for i in range(games):
        run_game(content, game_seed(1, i), ["greedy"], players=players)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--card", default="曙光纪念碑")
    parser.add_argument("--field", default="price")
    parser.add_argument("--budget", type=int, default=2000)
    parser.add_argument("--reference-games", type=int, default=200)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--content", type=Path, default=CONTENT)
    args = parser.parse_args()

    from rulekit.content.loader import load_content

    content = load_content(args.content)
    with tempfile.TemporaryDirectory() as tmp:
        tuned, start, phases, end = search(content, args, Path(tmp))
        marks = [t for _, t in phases] + [end]
        reference = marks[1] - marks[0] if len(phases) > 1 else 0.0
        rounds = len(tuned.rounds)
        print(f"tune {args.card} --field {args.field}, {args.players} players, --jobs {args.jobs}: "
              f"{end - start:.1f} s in all")
        if len(phases) > 1:
            print(f"  stage reference: {reference:.1f} s for {tuned.reference_games} games "
                  f"({reference / max(1, tuned.reference_games) * 1000:.0f} ms a game, every policy of the stage)")
        search_s = marks[-1] - marks[-2]
        print(f"  search: {search_s:.1f} s for {tuned.spent} games in {rounds} rounds "
              f"({search_s / max(1, tuned.spent) * 1000:.0f} ms a game, {len(tuned.rows)} values tried)")
        print(f"  advice: {tuned.advice.value} ({tuned.advice.kind}); {tuned.advice.en}")
        again, start2, _, end2 = search(content, args, Path(tmp))
        print(f"  again, the stage reference kept: {end2 - start2:.1f} s (same advice: "
              f"{again.advice == tuned.advice})")
    games = tuned.spent + tuned.reference_games
    base = plain(content, min(games, 400), args.players) * games / min(games, 400)
    print(f"a plain batch of {games} games: {base:.1f} s; the whole tune: {(end - start) / base:.1f}x, "
          f"the search alone: {search_s / max(1e-9, base * tuned.spent / games):.1f}x its own games")


if __name__ == "__main__":
    main()
