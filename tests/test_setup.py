"""Setup (rules.md 2): the advisor draft, advisors' `on setup` effects, the planner, the corner diagonals."""

from __future__ import annotations

from rulekit.agents.base import DefaultChooser
from rulekit.core import board as B
from rulekit.core.game import Game

SETUP_EFFECTS = {
    "tycoon": lambda p: p.money == 5,
    "epidemiologist": lambda p: p.medical == 7,
    "visionary": lambda p: p.unlocked == 3,
    "beloved": lambda p: p.policy == 2,
    "investor": lambda p: p.economy == 1,
}


def test_each_player_keeps_one_of_two_advisors_and_its_setup_effect_applies(content):
    seen = set()
    for seed in range(40):
        game = Game(content, seed, [DefaultChooser()] * 4)
        game.setup()
        kept = [p.advisor.id for p in game.ps]
        assert len(set(kept)) == 4
        assert len(game.out_of_game) == 4, "the advisor not kept leaves the game"
        for p in game.ps:
            check = SETUP_EFFECTS.get(p.advisor.id)
            if check:
                assert check(p), f"seed {seed}: {p.advisor.id} setup effect missing"
            seen.add(p.advisor.id)
    assert set(SETUP_EFFECTS) <= seen


def test_corner_diagonals_are_revealed_at_setup(content):
    game = Game(content, 9, [DefaultChooser()] * 4)
    game.setup()
    for seat, cells in B.CORNER_DIAGONALS.items():
        for r, c in cells:
            assert game.board[B.idx(r, c)] in (B.HEALTHY, B.MILD)
        assert game.count(seat, "tiles") == 20


class Planner(DefaultChooser):
    """Keeps the planner; puts seen infected fronts in the corner far from the diagonal."""

    def __init__(self):
        self.arranged = []

    def choose(self, game, q):
        if q.kind == "advisor":
            return "planner" if "planner" in q.options else q.options[0]
        if q.kind == "arrange":
            self.arranged.append(q.text)
            corner = [o for o in q.options if o in ((0, 4), (1, 4), (0, 3), (4, 0), (3, 0))]
            return corner[0] if "infected" in q.text and corner else q.options[-1]
        return super().choose(game, q)


def test_planner_sees_ten_fronts_and_places_them(content):
    from rulekit.content.rules import merge_rules

    per_player = merge_rules(content.rules, {"tiles": {"shuffle": "per_player"}})
    for seed in range(200):
        chooser = Planner()
        game = Game(content, seed, [chooser] + [DefaultChooser()] * 3, rules=per_player)
        game.setup()
        if game.ps[0].advisor.id == "planner":
            break
    else:
        raise AssertionError("no seed dealt the planner to P1")
    assert len(chooser.arranged) == 10
    infected = sum(1 for i in game.geo.cells_of[0] if game.board[i] in (B.TILE_I, B.MILD))
    assert infected == 5, "arranging moves tiles, it never changes their fronts"
