"""The action phase always ends: a switch is once a round per card, and actions per phase are capped."""

from __future__ import annotations

from rulekit.content.rules import merge_rules
from rulekit.core import board as B
from rulekit.core.default import DefaultChooser
from rulekit.core.game import Game
from rulekit.core.phases.actions import Menu
from rulekit.core.questions import Ask
from rulekit.core.table import Table, TableSeat, set_table
from rulekit.engine import make_game


class Restless(DefaultChooser):
    """Never passes while anything else is legal."""

    def choose(self, obs, q):
        if q.kind is Ask.ACTION:
            return 1 if len(q.options) > 1 else 0
        return super().choose(obs, q)


def table(content, seat: TableSeat, rules=None, log=None) -> Game:
    game = make_game(content, 1, [Restless()] + [DefaultChooser()] * 3, rules=rules, log=log)
    set_table(game, Table(seats={0: seat}))
    return game


def test_a_switchable_card_is_switched_once_a_round(engine_content):
    game = table(engine_content, TableSeat(tableau=(engine_content.lookup("respirator"),)))
    game.run_phase("actions")
    assert [a for a in Menu(game, 0) if a.verb == "switch"] == [], "after one switch this round, no more switching"
    assert game.state.seats[0].tableau[0].on is False
    game.state.round += 1
    assert ("switch", "respirator") in Menu(game, 0)


def test_free_relocations_stop_at_the_action_limit(engine_content):
    rules = merge_rules(engine_content.rules, {"actions": {"max_per_phase": 7}})
    log: list = []
    game = table(engine_content, TableSeat(tableau=(engine_content.lookup("free_moves"),)), rules, log)
    assert game.quantity(0, "relocate_cost", 1) == 0
    board = list(game.state.board)
    board[B.idx(0, 4)] = B.EMPTY
    from rulekit.core.table import lay_board

    lay_board(game, board)
    game.run_phase("actions")
    moves = [r for r in log if r["e"] == "cell" and r["cause"] == "relocate"]
    assert len(moves) == 7 * 2, "seven relocations, each emptying one cell and filling another"
    assert any(r["e"] == "action_limit" for r in log)


def test_a_spent_card_is_switched_neither_from_the_menu_nor_by_a_script(engine_content):
    import pytest

    from rulekit.core.errors import RuleViolation

    game = table(engine_content, TableSeat(tableau=(engine_content.lookup("respirator"),)))
    game.state.seats[0].tableau[0].spent = True
    assert [a for a in Menu(game, 0) if a.verb == "switch"] == []
    with pytest.raises(RuleViolation, match="spent"):
        game.switch(0, "respirator")
    assert game.state.seats[0].tableau[0].on is True
