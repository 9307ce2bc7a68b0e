"""The board's geometry: quadrants, cells, neighbours across borders and the joined borders of small tables."""

from __future__ import annotations

import functools
from dataclasses import dataclass

SIZE = 10
HALF = 5

# Cell states. A face-down tile shows TILE on the board; its front (healthy or infected) is kept
# apart, in GameState.fronts, so that what a seat may see is the board itself.
NOCELL = -1
TILE = 0        # face-down
EMPTY = 2
HEALTHY = 3
MILD = 4
SEVERE = 5
DEAD = 6
# Set-up codes of a hand-made table (scenario boards): a face-down tile with a known front.
TILE_H = TILE
TILE_I = 1

STATE_NAMES = {TILE: "tile", TILE_I: "tile", EMPTY: "empty", HEALTHY: "healthy",
               MILD: "mild", SEVERE: "severe", DEAD: "dead", NOCELL: "none"}
STATE_BY_NAME = {"empty": EMPTY, "healthy": HEALTHY, "mild": MILD, "severe": SEVERE, "dead": DEAD}
ALIVE = (HEALTHY, MILD, SEVERE)
INFECTED = (MILD, SEVERE)
RESIDENTS = (HEALTHY, MILD, SEVERE, DEAD)
# The cell states each board count covers (registry.COUNTS), as indexes into a seat's counts.
COUNT_CODES = {"healthy": (HEALTHY,), "mild": (MILD,), "severe": (SEVERE,), "dead": (DEAD,),
               "infected": INFECTED, "alive": ALIVE, "resident": RESIDENTS, "tiles": (TILE,), "empty": (EMPTY,)}
N_CODES = 7

# The corner diagonal each seat reveals at setup (rules.md 2.4).
CORNER_DIAGONALS = {
    0: [(i, i) for i in range(5)],
    1: [(i, 9 - i) for i in range(5)],
    2: [(9 - i, 9 - i) for i in range(5)],
    3: [(9 - i, i) for i in range(5)],
}


def idx(r: int, c: int) -> int:
    return r * SIZE + c


def rc(i: int) -> tuple[int, int]:
    return divmod(i, SIZE)


# (row, col) of every cell index, made once: questions about cells are asked hundreds of times a game.
RC = tuple(divmod(i, SIZE) for i in range(SIZE * SIZE))


def quadrant_of(r: int, c: int) -> int:
    if r < HALF:
        return 0 if c < HALF else 1
    return 3 if c < HALF else 2


@dataclass(frozen=True)
class Geometry:
    """Cells and neighbours of a table of N players; cells are indexed r*10+c."""

    players: int
    owner: tuple[int, ...]                   # seat owning each cell index, -1 if no cell
    cells_of: tuple[tuple[int, ...], ...]    # cell indexes of each seat, reading order
    neighbours: tuple[tuple[int, ...], ...]  # orthogonal neighbours of each cell, reading order
    cells: tuple[int, ...]                    # every cell of the table, reading order


@functools.cache
def geometry(players: int) -> Geometry:
    owner = [-1] * (SIZE * SIZE)
    for r in range(SIZE):
        for c in range(SIZE):
            q = quadrant_of(r, c)
            if q < players:
                owner[idx(r, c)] = q
    cells_of = tuple(tuple(i for i in range(SIZE * SIZE) if owner[i] == s) for s in range(players))
    links: list[set[int]] = [set() for _ in range(SIZE * SIZE)]
    for i in range(SIZE * SIZE):
        if owner[i] < 0:
            continue
        r, c = rc(i)
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            rr, cc = r + dr, c + dc
            if 0 <= rr < SIZE and 0 <= cc < SIZE and owner[idx(rr, cc)] >= 0:
                links[i].add(idx(rr, cc))
    # Joined borders: an inner edge facing a missing quadrant faces the next seat (rules.md 1).
    if players == 3:
        for c in range(HALF):
            a, b = idx(4, c), idx(9 - c, 5)
            links[a].add(b)
            links[b].add(a)
    elif players == 2:
        for c in range(HALF):
            a, b = idx(4, c), idx(4, 9 - c)
            links[a].add(b)
            links[b].add(a)
    neighbours = tuple(tuple(sorted(s)) for s in links)
    return Geometry(players, tuple(owner), cells_of, neighbours, tuple(i for i in range(SIZE * SIZE) if owner[i] >= 0))
