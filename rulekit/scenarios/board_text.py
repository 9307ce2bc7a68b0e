"""A scenario's `board: |` text -> the 100 cell codes of the core, with problems at the file's own positions."""

from __future__ import annotations

import re
from dataclasses import dataclass

from rulekit.core import board as B

LETTERS = {"h": B.TILE_H, "i": B.TILE_I, ".": B.EMPTY, "H": B.HEALTHY, "M": B.MILD, "S": B.SEVERE,
           "D": B.DEAD, "x": B.NOCELL}
LEGEND = "h i . H M S D x (tile healthy, tile infected, empty, healthy, mild, severe, dead, no cell)"
SEATS_MISSING = {4: "", 3: "P4's", 2: "P3's and P4's"}


@dataclass(frozen=True)
class BoardProblem:
    """One problem of the board text: a message at a line and column of the scenario file."""

    message: str
    line: int
    col: int
    width: int = 1
    hint: str | None = None


def parse_board(text: str, players: int, first_line: int, indent: int) -> tuple[list[int] | None, list[BoardProblem]]:
    """Parse the 10×10 text; the block's text starts at first_line, each row indented by indent spaces.

    Every row is checked, so a designer sees all the bad cells at once.
    """
    rows = text.split("\n")
    while rows and not rows[-1].strip():
        rows.pop()
    problems: list[BoardProblem] = []
    cells: list[int] = []
    geo = B.geometry(players)
    row = 0
    for k, raw in enumerate(rows):
        line = first_line + k
        if not raw.strip():
            problems.append(BoardProblem("an empty line inside the board", line, indent + 1,
                                         hint="the board is 10 lines of 10 cells, with no empty line between them"))
            continue
        if row >= B.SIZE:
            if row == B.SIZE:
                problems.append(BoardProblem(f"the board has more than {B.SIZE} rows: this is an 11th",
                                             line, indent + 1, len(raw.strip()), hint="write 10 lines of 10 cells"))
            row += 1
            continue
        tokens = list(re.finditer(r"\S+", raw))
        for c, m in enumerate(tokens):
            col = indent + m.start() + 1
            letter = m.group()
            if c >= B.SIZE:
                problems.append(BoardProblem(f"row {row} has {len(tokens)} cells; a row has {B.SIZE}", line, col, len(letter)))
                break
            code = LETTERS.get(letter)
            if code is None:
                problems.append(BoardProblem(_bad_letter(letter), line, col, len(letter), hint="cells: " + LEGEND))
                cells.append(B.EMPTY)
                continue
            problem = _misplaced(code, row, c, players, geo)
            if problem:
                problems.append(BoardProblem(problem, line, col))
            cells.append(code)
        if len(tokens) < B.SIZE:
            problems.append(BoardProblem(f"row {row} has {len(tokens)} cells; a row has {B.SIZE}",
                                         line, indent + len(raw.rstrip()) + 1,
                                         hint="write the 10 cells of a row separated by spaces"))
            cells.extend([B.EMPTY] * (B.SIZE - len(tokens)))
        row += 1
    if row < B.SIZE:
        last = first_line + max(len(rows) - 1, 0)
        problems.append(BoardProblem(f"the board has {row} rows; it needs {B.SIZE}", last, indent + 1,
                                     hint="write 10 lines of 10 cells"))
    problems = _collapse_missing_quadrant(problems, players)
    if problems:
        return None, problems
    return cells[: B.SIZE * B.SIZE], []


def _collapse_missing_quadrant(problems: list[BoardProblem], players: int) -> list[BoardProblem]:
    """A missing quadrant written with cells in it is one mistake, not 25."""
    marker = f"quadrant, which has no cells at a {players}-player table"
    missing = [p for p in problems if marker in p.message]
    if len(missing) <= 3:
        return problems
    first = missing[0]
    summary = BoardProblem(f"{len(missing)} cells are in {SEATS_MISSING[players]} quadrant, which has no cells at a "
                           f"{players}-player table: write 'x' there", first.line, first.col,
                           hint=_missing_hint(players))
    return [summary if p is first else p for p in problems if p is first or p not in missing]


def _missing_hint(players: int) -> str:
    if players == 3:
        return "rows 5 to 9, columns 0 to 4 are 'x' at a 3-player table"
    return "rows 5 to 9 are 'x' at a 2-player table"


def _bad_letter(letter: str) -> str:
    if len(letter) > 1 and all(ch in LETTERS for ch in letter):
        return f"'{letter}' is several cells written together; separate the cells with spaces"
    return f"'{letter}' is not a cell"


def _misplaced(code: int, r: int, c: int, players: int, geo: B.Geometry) -> str | None:
    owner = geo.owner[B.idx(r, c)]
    if code == B.NOCELL and owner >= 0:
        if players == 4:
            return f"'x' (no cell) at ({r}, {c}): a 4-player board has every cell"
        return f"'x' (no cell) at ({r}, {c}), but that is P{owner + 1}'s board at a {players}-player table"
    if code != B.NOCELL and owner < 0:
        return (f"({r}, {c}) is in {SEATS_MISSING[players]} quadrant, which has no cells at a {players}-player table:"
                " write 'x' there")
    return None
