"""A hand-written CPython game loop: the speed a rules engine of this size could reach in pure Python.

It plays a stripped-down 瘟疫到来 with no card effects: a flat 100-cell board, per-seat sets of
cells by state, a discovery frontier, and every decision a bare index drawn from one generator.
Its rounds make about as many decisions (≈650) and cell changes (≈560) as a 4-player game of
random rulekit players — the bench prints both, so the comparison stays honest. It is the yardstick
of benchmarks/bench_engine.py, not a second engine: nothing else imports it.

Run by hand: `python benchmarks/ceiling.py [--games N]`.
"""

from __future__ import annotations

import argparse
import random
import time

SIZE, PLAYERS, ROUNDS = 10, 4, 14
TILE, EMPTY, HEALTHY, MILD, SEVERE, DEAD = range(6)


def _neighbours() -> list[tuple[int, ...]]:
    out = []
    for i in range(SIZE * SIZE):
        r, c = divmod(i, SIZE)
        out.append(tuple(rr * SIZE + cc for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                         if 0 <= rr < SIZE and 0 <= cc < SIZE))
    return out


NB = _neighbours()
QUADRANT = [((i // SIZE) >= 5) * 2 + ((i % SIZE) >= 5) for i in range(SIZE * SIZE)]
OWNER = [(0, 1, 3, 2)[q] for q in QUADRANT]
CELLS = [[i for i in range(SIZE * SIZE) if OWNER[i] == s] for s in range(PLAYERS)]


class Ceiling:
    """One game's state and its loop; `decisions` and `changes` count the work done."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        fronts = [True] * 20 + [False] * 80
        self.rng.shuffle(fronts)
        self.infected_front = fronts
        self.board = [TILE] * 100
        self.by_state = [[set(), set(), set(), set(), set(), set()] for _ in range(PLAYERS)]
        for s in range(PLAYERS):
            self.by_state[s][TILE] = set(CELLS[s])
        self.frontier: list[set[int]] = [set() for _ in range(PLAYERS)]
        self.disease = [10] * PLAYERS
        self.medical = [5] * PLAYERS
        self.money = [0] * PLAYERS
        self.score = [0] * PLAYERS
        self.hand = [0] * PLAYERS
        self.decisions = 0
        self.changes = 0

    def pick(self, n: int) -> int:
        self.decisions += 1
        return self.rng.randrange(n)

    def set(self, i: int, new: int) -> None:
        old = self.board[i]
        s = OWNER[i]
        self.by_state[s][old].discard(i)
        self.by_state[s][new].add(i)
        self.board[i] = new
        self.changes += 1
        if old == MILD and new == HEALTHY:
            self.score[s] += 1
        elif new == DEAD:
            self.score[s] -= 1

    def reveal(self, i: int) -> None:
        self.set(i, MILD if self.infected_front[i] else HEALTHY)
        for j in NB[i]:
            if self.board[j] == TILE:
                self.frontier[OWNER[j]].add(j)
        self.frontier[OWNER[i]].discard(i)

    def spread(self, cands: list[int], x: int, new: int) -> None:
        """X of the candidates change, one decision each, unless X takes them all."""
        if x >= len(cands):
            for i in cands:
                self.set(i, new)
            return
        for _ in range(x):
            self.set(cands.pop(self.pick(len(cands))), new)

    def play(self) -> None:
        for s in range(PLAYERS):
            for k in range(5):
                self.reveal(CELLS[s][k * 6])
        for _ in range(ROUNDS):
            for s in range(PLAYERS):                                   # income
                self.money[s] += len(self.by_state[s][HEALTHY]) // 2
            for s in range(PLAYERS):                                   # reserve: a strategy
                self.pick(3)
                self.hand[s] += 3
            for s in range(PLAYERS):                                   # actions: relocate or pass
                while True:
                    options = 1 + (len(self.by_state[s][DEAD]) if self.money[s] else 0)
                    if self.pick(options + 1) == 0 or self.money[s] == 0:
                        break
                    dead = sorted(self.by_state[s][DEAD])
                    if dead:
                        self.money[s] -= 1
                        self.set(dead[0], EMPTY)
            for s in range(PLAYERS):                                   # treatment
                budget = self.medical[s]
                while budget >= 2:
                    cands = sorted(self.by_state[s][MILD] | self.by_state[s][SEVERE])
                    if not cands:
                        break
                    i = cands[self.pick(len(cands))]
                    budget -= 2 if self.board[i] == MILD else 3
                    if budget >= 0:
                        self.set(i, HEALTHY if self.board[i] == MILD else MILD)
            for s in range(PLAYERS):                                   # discovery
                for _ in range(2):
                    tiles = sorted(self.frontier[s] or self.by_state[s][TILE])
                    if tiles:
                        self.reveal(tiles[self.pick(len(tiles))] if len(tiles) > 1 else tiles[0])
            for s in range(PLAYERS):                                   # contagion
                x = self.disease[s] // 3
                sources = self.by_state[s][MILD] | self.by_state[s][SEVERE]
                cands = sorted({j for i in sources for j in NB[i] if self.board[j] == HEALTHY})
                self.spread(cands, x, MILD)
            for s in range(PLAYERS):                                   # deaths and worsening
                for old, new in ((SEVERE, DEAD), (MILD, SEVERE)):
                    self.spread(sorted(self.by_state[s][old]), self.disease[s] // 4, new)
            for s in range(PLAYERS):                                   # exchange: an offer, three bids
                if self.hand[s] and self.pick(2):
                    for _ in range(PLAYERS - 1):
                        self.pick(self.money[s] + 1)
            for s in range(PLAYERS):                                   # the event
                self.disease[s] = min(20, self.disease[s] + (self.rng.random() < 0.2))


def games_per_cpu_second(games: int) -> tuple[float, float, float]:
    """(games per CPU-second, decisions per game, cell changes per game)."""
    decisions = changes = 0
    start = time.process_time()
    for seed in range(games):
        g = Ceiling(seed)
        g.play()
        decisions += g.decisions
        changes += g.changes
    spent = time.process_time() - start
    return games / spent, decisions / games, changes / games


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=500)
    rate, decisions, changes = games_per_cpu_second(ap.parse_args().games)
    print(f"ceiling loop: {rate:7.1f} games per CPU-second ({decisions:.0f} decisions, {changes:.0f} cell changes a game)")


if __name__ == "__main__":
    main()
