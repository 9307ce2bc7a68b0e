"""Behaviour unchanged, game for game: write the full logs of many games with one rulekit, and check that another
plays every one of them to the same bytes.

    python benchmarks/replay_logs.py write DIR      # with the rulekit before a change: 420 logs into DIR
    python benchmarks/replay_logs.py check DIR      # with the rulekit after it: every log played again and compared

The games: the shipped content and the test fixture deck, 2, 3 and 4 players, seven agent mixes, seeds 0-9 (2 x 3 x 7
x 10 = 420), each logged verbosely (every handler, trigger and change), so any change of behaviour shows. The header
(which names the engine's code) is left out of the comparison: only what happened is compared. Prints how many
games were the same and the first differing line of each one that was not; asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from rulekit import load_content
from rulekit.play import log_lines, play_game

ROOT = Path(__file__).resolve().parent.parent
CONTENTS = {"shipped": ROOT / "content", "fixture": ROOT / "tests" / "fixtures" / "deck"}
MIXES = ["random", "greedy", "default", "greedy,random",
         "random,greedy,default", "default,greedy", "greedy,default,random,greedy"]
SEEDS = range(10)


def games():
    for cname, folder in CONTENTS.items():
        content = load_content(folder)
        for players in (2, 3, 4):
            for m, mix in enumerate(MIXES):
                agents = mix.split(",")
                agents = (agents * 4)[:players]
                for seed in SEEDS:
                    yield f"{cname}-{players}p-m{m}-s{seed}.jsonl", content, seed, agents, players


def body(content, seed, agents, players) -> list[str]:
    played = play_game(content, seed, agents, players, header={"e": "header"}, verbose=True)
    return log_lines(played.log)[1:]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=["write", "check"])
    ap.add_argument("folder", type=Path)
    ap.add_argument("--limit", type=int, default=None, help="only the first N games (a quick check)")
    a = ap.parse_args()
    a.folder.mkdir(parents=True, exist_ok=True)
    same = differ = 0
    for k, (name, content, seed, agents, players) in enumerate(games()):
        if a.limit is not None and k >= a.limit:
            break
        lines = body(content, seed, agents, players)
        path = a.folder / name
        if a.what == "write":
            path.write_text("\n".join(lines) + "\n", encoding="utf-8")
            same += 1
            continue
        old = path.read_text(encoding="utf-8").splitlines()
        if old == lines:
            same += 1
            continue
        differ += 1
        at = next((i for i, (x, y) in enumerate(zip(old, lines, strict=False)) if x != y), min(len(old), len(lines)))
        print(f"{name}: differs at record {at + 1}:\n  before {old[at] if at < len(old) else '(end)'}\n"
              f"  after  {lines[at] if at < len(lines) else '(end)'}")
    if a.what == "write":
        print(f"{same} logs written to {a.folder}")
    else:
        print(f"{same} of {same + differ} logged games played to the same bytes; {differ} differ")
        json.dump({"same": same, "differ": differ}, sys.stdout)
        print()


if __name__ == "__main__":
    main()
