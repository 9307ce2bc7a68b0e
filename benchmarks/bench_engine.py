"""The core's speed, as ratios measured side by side in one run (these machines are shared and noisy).

Prints: random and greedy games per CPU-second (4 players, shipped content or --content DIR) and their ratio to the
hand-written ceiling loop (benchmarks/ceiling.py); generated effects against the reference walker;
a card effect in generated code against the same effect written by hand against the runtime; and
clone() of a mid-game state as a share of a whole game. With `--old DIR` (a checkout of an earlier
rulekit, e.g. made with `git worktree add /tmp/before HEAD~10`), the same games are timed with that
rulekit in a subprocess, for the before/after ratio.

Run by hand: `python benchmarks/bench_engine.py [--games N] [--old DIR] [--content DIR]`. Prints figures;
asserts nothing.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

from rulekit import load_content, new_game
from rulekit.core.game import Frame
from rulekit.engine import run_game
from rulekit.interpreter import compile_content

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

import ceiling  # noqa: E402  (the yardstick beside this file)

RATE = """
import sys, time
from rulekit.content.loader import load_content
from rulekit.engine import run_game
content = load_content(sys.argv[1])
agent, games = sys.argv[2], int(sys.argv[3])
run_game(content, 10**6, [agent])
start = time.process_time()
for seed in range(games):
    run_game(content, seed, [agent])
print(games / (time.process_time() - start))
"""


def rate(content, games: int, agent: str, evaluator: str = "compiled") -> float:
    run_game(content, 10**6, [agent], evaluator=evaluator)          # compile and warm up
    start = time.process_time()
    for seed in range(games):
        run_game(content, seed, [agent], evaluator=evaluator)
    return games / (time.process_time() - start)


def old_rate(old: Path, games: int, agent: str) -> float:
    out = subprocess.run([sys.executable, "-c", RATE, str(old / "content"), agent, str(games)], cwd=old,
                         env={"PYTHONPATH": str(old), "PATH": ""}, capture_output=True, text=True, check=True)
    return float(out.stdout.strip())


# ---- one effect: generated code against the same code written by hand ------------------------------

def hand_food_shortage(rt, f):
    """粮食告急, as a person would write it against the runtime."""
    rt.tick(1)
    subject = f.owner
    for seat in rt.each_player(f, subject, False):
        rt.tick(2)
        unpaid = rt.pay(f, seat, rt.count(seat, "alive") // 5)
        rt.change(f, seat, "policy", "-=", unpaid)


def hand_vaccination(rt, seat, entry):
    """疫苗接种's modifier amount: -uses."""
    return -(entry.uses if entry is not None else 0)


def per_call(fn, args, n: int) -> float:
    start = time.process_time()
    for _ in range(n):
        fn(*args)
    return (time.process_time() - start) / n


def effect_ratios(content, n: int) -> list[tuple[str, float]]:
    program = compile_content(content, content.rules)
    game = new_game(content, 5, ["random"])
    for _ in range(60):                        # a mid-game table
        q = game.pending()
        game.answer(game.choosers[q.seat].choose(game.observation(q.seat), q))
    for p in game.state.seats:
        p.money = 10**6 // 2                   # enough to pay every time; the policy track is left alone
    food = content.lookup("food_shortage")
    generated_food = program.cards[food.id].on["resolve"]
    def frame():
        return Frame(food, None)
    out = []
    # Each policy -= unpaid is 0 with this much money: the same runtime calls, no change of state.
    gen = per_call(lambda: generated_food(game.rt, frame()), (), n)
    hand = per_call(lambda: hand_food_shortage(game.rt, frame()), (), n)
    out.append(("粮食告急 food_shortage (each player, pay … as, policy -=)", gen / hand))
    vac = content.lookup("vaccination")
    generated_vac = program.cards[vac.id].modifiers[0][1]
    entry = None
    gen = per_call(generated_vac, (game.rt, 0, entry), n * 10)
    hand = per_call(hand_vaccination, (game.rt, 0, entry), n * 10)
    out.append(("疫苗接种 vaccination (modify new_mild by -uses)", gen / hand))
    return out


def clone_share(content, agent: str, game_rate: float, n: int) -> float:
    game = new_game(content, 9, [agent])
    for _ in range(300):                       # mid-game
        q = game.pending()
        game.answer(game.choosers[q.seat].choose(game.observation(q.seat), q))
    per = per_call(game.clone, (), n)
    return per * game_rate


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--old", type=Path, help="a checkout of an earlier rulekit to compare with")
    ap.add_argument("--content", type=Path, default=ROOT / "content",
                    help="the content folder to play (default: the shipped content/)")
    args = ap.parse_args()
    content = load_content(args.content)
    games = args.games
    ceil, decisions, changes = ceiling.games_per_cpu_second(max(games, 300))
    print(f"ceiling loop        {ceil:8.1f} games/CPU-s ({decisions:.0f} decisions, {changes:.0f} cell changes a game)")
    random_rate = rate(content, games, "random")
    print(f"random, generated   {random_rate:8.1f} games/CPU-s = {random_rate / ceil:.2f}× the ceiling")
    ref = rate(content, games // 2, "random", "reference")
    print(f"random, reference   {ref:8.1f} games/CPU-s   generated ÷ reference {random_rate / ref:.2f}×")
    greedy = rate(content, games // 4, "greedy")
    print(f"greedy, generated   {greedy:8.1f} games/CPU-s = {greedy / ceil:.3f}× the ceiling")
    if args.old:
        for agent, mine, n in (("random", random_rate, games), ("greedy", greedy, games // 4)):
            before = old_rate(args.old, n, agent)
            print(f"{agent:6} before       {before:8.1f} games/CPU-s   now ÷ before {mine / before:.2f}×")
    for what, ratio in effect_ratios(content, 3000):
        print(f"effect {what}: generated ÷ hand-written {ratio:.2f}×")
    for agent, r in (("random", random_rate), ("greedy", greedy)):
        print(f"clone() mid-game = {100 * clone_share(content, agent, r, 2000):.2f}% of a {agent} game")


if __name__ == "__main__":
    main()
