"""A batch on disk: DIR/games.sqlite, one row per finished game, written as each game ends."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path

from rulekit.core.result import GameResult

SCHEMA = """
CREATE TABLE IF NOT EXISTS batch (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    params TEXT NOT NULL,          -- JSON: what the results depend on; --resume must match it
    fingerprint TEXT NOT NULL,     -- sha256 over the content files
    seed INTEGER NOT NULL,
    players INTEGER NOT NULL,
    agents TEXT NOT NULL,          -- JSON list, one name per seat
    games INTEGER NOT NULL         -- games asked for so far (--resume may raise it)
);
CREATE TABLE IF NOT EXISTS games (
    game INTEGER PRIMARY KEY,      -- the game's index in the batch, 0-based
    seed INTEGER NOT NULL,         -- rulekit play --seed SEED replays it
    players INTEGER NOT NULL,
    agents TEXT NOT NULL,          -- JSON lists below are by seat (seat 0 is P1)
    advisors TEXT NOT NULL,
    winners TEXT NOT NULL,
    scores TEXT NOT NULL,
    alive TEXT NOT NULL,
    rounds INTEGER NOT NULL,
    end_reason TEXT NOT NULL,
    out_seats TEXT NOT NULL,
    cards_drawn TEXT NOT NULL,
    cards_played TEXT NOT NULL,
    events TEXT NOT NULL,
    combos TEXT NOT NULL,          -- [[seat, combo id], ...] in firing order
    score_history TEXT NOT NULL,   -- score per seat at the end of each round
    error TEXT,
    error_card TEXT
);
CREATE TABLE IF NOT EXISTS seats (
    game INTEGER NOT NULL, seat INTEGER NOT NULL, agent TEXT NOT NULL, advisor TEXT,
    score INTEGER NOT NULL, won INTEGER NOT NULL, out INTEGER NOT NULL,
    PRIMARY KEY (game, seat)
);
CREATE TABLE IF NOT EXISTS plays (
    game INTEGER NOT NULL, seat INTEGER NOT NULL, card TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS plays_card ON plays (card);
"""

COLUMNS = ("game", "seed", "players", "agents", "advisors", "winners", "scores", "alive", "rounds",
           "end_reason", "out_seats", "cards_drawn", "cards_played", "events", "combos",
           "score_history", "error", "error_card")


class Store:
    """The SQLite file of one batch (WAL; one commit per game, so a killed run loses only games in flight)."""

    def __init__(self, out: str | Path):
        self.path = Path(out) / "games.sqlite"
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(self.path)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.executescript(SCHEMA)

    def close(self) -> None:
        self.db.close()

    # ---- the batch ----------------------------------------------------------------------
    def batch(self) -> dict | None:
        row = self.db.execute("SELECT params, games FROM batch WHERE id = 1").fetchone()
        if row is None:
            return None
        return {"params": json.loads(row[0]), "games": row[1]}

    def set_batch(self, params: dict, games: int) -> None:
        self.db.execute(
            "INSERT INTO batch (id, params, fingerprint, seed, players, agents, games) VALUES (1, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT(id) DO UPDATE SET games = max(games, excluded.games)",
            (_dumps(params), params["fingerprint"], params["seed"], params["players"],
             _dumps(params["agents"]), games))
        self.db.commit()

    def done(self) -> set[int]:
        return {g for (g,) in self.db.execute("SELECT game FROM games")}

    def count(self) -> int:
        return self.db.execute("SELECT count(*) FROM games").fetchone()[0]

    # ---- games --------------------------------------------------------------------------
    def add(self, index: int, r: GameResult) -> None:
        """Write one game (its row, its seats, its plays) and commit."""
        row = (index, r.seed, r.players, _dumps(r.agents), _dumps(r.advisors), _dumps(r.winners),
               _dumps(r.scores), _dumps(r.alive), r.rounds, r.end_reason, _dumps(r.out),
               _dumps(r.cards_drawn), _dumps(r.cards_played), _dumps(r.events), _dumps(r.combos_fired),
               _dumps(r.score_history), r.error, r.error_card)
        with self.db:
            self.db.execute(f"INSERT OR REPLACE INTO games ({', '.join(COLUMNS)}) VALUES ({', '.join('?' * len(COLUMNS))})", row)
            self.db.execute("DELETE FROM seats WHERE game = ?", (index,))
            self.db.execute("DELETE FROM plays WHERE game = ?", (index,))
            self.db.executemany("INSERT INTO seats VALUES (?, ?, ?, ?, ?, ?, ?)",
                                [(index, s, r.agents[s], r.advisors[s], r.scores[s], int(s in r.winners), int(r.out[s]))
                                 for s in range(r.players)])
            self.db.executemany("INSERT INTO plays VALUES (?, ?, ?)",
                                [(index, s, card) for s in range(r.players) for card in r.cards_played[s]])

    def results(self) -> Iterator[tuple[int, GameResult]]:
        """Every stored game in index order, one at a time (the cursor streams; memory stays flat)."""
        cur = self.db.execute(f"SELECT {', '.join(COLUMNS)} FROM games ORDER BY game")
        for row in cur:
            yield row[0], _result(row)


def _dumps(v) -> str:
    return json.dumps(v, ensure_ascii=False, separators=(",", ":"))


def _tuples(v):
    return tuple(_tuples(x) for x in v) if isinstance(v, list) else v


def _result(row) -> GameResult:
    (_, seed, players, agents, advisors, winners, scores, alive, rounds, end_reason, out, drawn, played,
     events, combos, history, error, error_card) = row
    load = lambda s: _tuples(json.loads(s))
    return GameResult(seed=seed, players=players, agents=load(agents), advisors=load(advisors),
                      winners=load(winners), scores=load(scores), alive=load(alive), rounds=rounds,
                      end_reason=end_reason, out=load(out), cards_drawn=load(drawn), cards_played=load(played),
                      events=load(events), combos_fired=load(combos), score_history=load(history),
                      error=error, error_card=error_card)
