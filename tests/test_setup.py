"""Setup (docs/rules.md §2): the advisor draft, advisors' `on setup` effects, the planner, the corner diagonals."""

from __future__ import annotations

from rulekit.core import board as B
from rulekit.core.default import DefaultChooser
from rulekit.core.game import Game
from rulekit.core.questions import Ask
from rulekit.engine import make_game

SETUP_EFFECTS = {
    "rich": lambda p: p.money == 5,
    "doctor": lambda p: p.medical == 7,
    "seer": lambda p: p.unlocked == 3,
    "loved": lambda p: p.policy == 2,
    "investor": lambda p: p.economy == 1,
}


def set_up(content, seed: int, choosers, rules=None) -> Game:
    game = make_game(content, seed, choosers, rules=rules)
    game.setup()
    assert game.state.cursor.phase == "round", "after setup the game is ready for its first round"
    return game


def test_each_player_keeps_one_of_two_advisors_and_its_setup_effect_applies(engine_content):
    seen = set()
    for seed in range(40):
        game = set_up(engine_content, seed, [DefaultChooser()] * 4)
        kept = [p.advisor.id for p in game.state.seats]
        assert len(set(kept)) == 4
        assert len(game.state.out_of_game) == 4, "the advisor not kept leaves the game"
        for p in game.state.seats:
            check = SETUP_EFFECTS.get(p.advisor.id)
            if check:
                assert check(p), f"seed {seed}: {p.advisor.id} setup effect missing"
            seen.add(p.advisor.id)
    assert set(SETUP_EFFECTS) <= seen


def test_corner_diagonals_are_revealed_at_setup(engine_content):
    game = set_up(engine_content, 9, [DefaultChooser()] * 4)
    for seat, cells in B.CORNER_DIAGONALS.items():
        for r, c in cells:
            assert game.state.board[B.idx(r, c)] in (B.HEALTHY, B.MILD)
        assert game.count(seat, "tiles") == 20


class Planner(DefaultChooser):
    """Keeps the planner; puts seen infected fronts in the corner far from the diagonal."""

    def __init__(self):
        self.arranged = []

    def choose(self, obs, q):
        if q.kind is Ask.ADVISOR:
            return q.options.index("planner") if "planner" in q.options else 0
        if q.kind is Ask.ARRANGE:
            self.arranged.append(q.text)
            corner = [k for k, o in enumerate(q.options) if o in ((0, 4), (1, 4), (0, 3), (4, 0), (3, 0))]
            return corner[0] if "infected" in q.text and corner else len(q.options) - 1
        return super().choose(obs, q)


def test_planner_sees_ten_fronts_and_places_them(engine_content):
    from rulekit.content.rules import merge_rules

    per_player = merge_rules(engine_content.rules, {"tiles": {"shuffle": "per_player"}})
    for seed in range(200):
        chooser = Planner()
        game = set_up(engine_content, seed, [chooser] + [DefaultChooser()] * 3, rules=per_player)
        if game.state.seats[0].advisor.id == "planner":
            break
    else:
        raise AssertionError("no seed dealt the planner to P1")
    assert len(chooser.arranged) == 10
    st = game.state
    infected = sum(1 for i in game.geo.cells_of[0] if (st.board[i] == B.TILE and st.fronts[i]) or st.board[i] == B.MILD)
    assert infected == 5, "arranging moves tiles, it never changes their fronts"
