"""Invariants every game must keep (issue: 25 cells a player, tracks in range, money ≥ 0, cards conserved)."""

from __future__ import annotations

from collections import Counter

from rulekit.core import board as B
from rulekit.core.game import Game

OWN_CHOICES = ("strategy", "action", "treat", "offer", "bid", "may", "react", "keep", "choose", "discard")


def card_places(game: Game) -> Counter:
    where: Counter = Counter()
    for k in (1, 2, 3):
        where.update(c.id for c in game.decks[k])
        where.update(c.id for c in game.discards[k])
    for p in game.ps:
        where.update(c.id for c in p.hand)
        where.update(e.card.id for e in p.tableau)
    where.update(c.id for _, c in game.offers)
    where.update(c.id for c in game.event_deck)
    where.update(c.id for c in game.history)
    if game.current_event is not None:
        where[game.current_event.id] += 1
    where.update(c.id for c in game.out_of_game if c.kind in ("policy", "event"))
    return where


def expected_cards(game: Game) -> Counter:
    want: Counter = Counter()
    for c in game.content.cards:
        if c.kind in ("policy", "event"):
            want[c.id] += c.copies
    return want


def check(game: Game) -> None:
    for s in range(game.players):
        assert len(game.geo.cells_of[s]) == 25
        assert sum(1 for i in game.geo.cells_of[s] if game.board[i] != B.NOCELL) == 25
        p = game.ps[s]
        for name, (lo, hi, _) in game.bounds.items():
            v = getattr(p, name)
            assert lo is None or v >= lo, f"P{s + 1} {name} {v} below {lo}"
            assert hi is None or v <= hi, f"P{s + 1} {name} {v} above {hi}"
        assert p.money >= 0
        names = [e.card.name for e in p.tableau]
        assert len(names) == len(set(names)), f"P{s + 1} has two cards of one name: {names}"
    assert card_places(game) == expected_cards(game)


class CheckedGame(Game):
    """A game that checks every invariant at the end of every phase."""

    def run_phase(self, phase: str) -> None:
        super().run_phase(phase)
        check(self)


def out_players_never_chose(log: list) -> None:
    out_at: dict[int, int] = {}
    for n, rec in enumerate(log):
        if rec.get("e") == "out":
            out_at.setdefault(rec["seat"], n)
        if rec.get("e") == "ask" and rec["seat"] in out_at and rec["q"] in OWN_CHOICES:
            raise AssertionError(f"P{rec['seat'] + 1} is out but was asked '{rec['q']}' (log line {n + 1})")
