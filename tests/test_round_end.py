"""The round in which the game ends always ends: its `on round end` runs once, for the players still in,
before `on game end` and final scoring — whatever phase (or the round's own end) ended the game."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulekit.agents import make_agent
from rulekit.content.loader import load_content
from rulekit.core import board as B
from rulekit.core.game import Game
from rulekit.core.state import Cursor
from rulekit.core.table import Table, TableSeat, set_table
from rulekit.engine import make_game

ENGINE = Path(__file__).parent / "fixtures" / "engine"
# +10 at each round end; +100 at the game end only if exactly one round end came before it.
CLOCK = """
- id: clock
  name: 钟
  stage: 1
  price: 1
  flavor: counts round ends
  effect: |
    on round end:
      score += 10
    on game end:
      if score == 10:
        score += 100
"""
SCANDAL = ('- {id: scandal, name: 丑, copies: 3, flavor: policy -1 for all, effect: "on resolve:\\n  each player:\\n    policy '
           '-= 1\\n"}\n')


@pytest.fixture(scope="module")
def clock_content(tmp_path_factory):
    root = tmp_path_factory.mktemp("round_end") / "content"
    shutil.copytree(ENGINE, root)
    (root / "policies" / "clock.yaml").write_text(CLOCK, encoding="utf-8")
    (root / "events" / "events.yaml").write_text(SCANDAL, encoding="utf-8")
    return load_content(root)


def play(content, board: int, max_rounds: int = 14, p2_policy: int = 0) -> Game:
    """A 2-player table, played round by round to the game's end: P1 holds the clock (policy 1, so the
    scandal leaves it at 0), every cell of both boards is `board`, no tile is revealed by discovery."""
    rules = {"players": 2, "max_rounds": max_rounds, "discovery": {"per_round": 0}}
    game = make_game(content, 1, [make_agent("default", 1, s) for s in range(2)], rules=rules)
    codes = [B.NOCELL if owner < 0 else board for owner in game.geo.owner]
    seats = {0: TableSeat(tracks={"policy": 1}, tableau=(content.lookup("clock"),)),
             1: TableSeat(tracks={"policy": p2_policy})}
    set_table(game, Table(board=codes, seats=seats))
    game.state.cursor = Cursor("round", "start")
    game.run()
    assert game.state.over
    return game


def test_a_game_won_in_its_first_phase_still_ends_its_round(clock_content):
    """Every board revealed and healthy: the fight is won at the end of income."""
    game = play(clock_content, B.HEALTHY)
    assert (game.state.end_reason, game.state.round) == ("won_fight", 1)
    assert game.state.seats[0].score == 110


def test_a_game_ended_in_the_event_phase_still_ends_its_round(clock_content):
    """P2 (policy −10) is overthrown by the event: fewer than 2 players; P2, out, runs nothing."""
    game = play(clock_content, B.TILE_H, p2_policy=-10)
    assert (game.state.end_reason, game.state.round) == ("one_left", 1)
    assert game.state.seats[0].score == 110 and game.state.seats[1].out


def test_the_last_round_ends_once(clock_content):
    """The last round's end is where max_rounds ends the game: its `on round end` does not run twice."""
    game = play(clock_content, B.TILE_H, max_rounds=1)
    assert (game.state.end_reason, game.state.round) == ("max_rounds", 1)
    assert game.state.seats[0].score == 110
