"""The action phase always ends: a switch is once a round per card, and actions per phase are capped."""

from __future__ import annotations

from rulekit.agents.base import DefaultChooser
from rulekit.content.rules import merge_rules
from rulekit.core import board as B
from rulekit.core.game import Game
from rulekit.core.state import Entry


class Restless(DefaultChooser):
    """Never passes while anything else is legal."""

    def choose(self, game, q):
        if q.kind == "action":
            busy = [o for o in q.options if o[0] != "pass"]
            return busy[0] if busy else ("pass",)
        return super().choose(game, q)


def table(content, rules=None):
    game = Game(content, 1, [Restless()] + [DefaultChooser()] * 3, rules=rules)
    game.fill_tiles()
    game.initial_reveal()
    return game


def test_a_switchable_card_is_switched_once_a_round(content):
    game = table(content)
    card = content.lookup("life_support")
    game.ps[0].tableau.append(Entry(card, game.compiled[card.id], 0))
    game.run_phase("actions")
    switches = [a for a in game.legal_actions(0) if a[0] == "switch"]
    assert switches == [], "after one switch this round, switching is no longer offered"
    assert game.ps[0].tableau[0].on is False
    game.round += 1
    assert ("switch", "life_support") in game.legal_actions(0)


def test_free_relocations_stop_at_the_action_limit(content):
    rules = merge_rules(content.rules, {"actions": {"max_per_phase": 7}})
    game = table(content, rules)
    card = content.lookup("temporary_quarantine")      # modify relocate_cost by -1 min 0
    game.ps[0].tableau.append(Entry(card, game.compiled[card.id], 0))
    assert game.quantity(0, "relocate_cost", 1) == 0
    game.board[B.idx(0, 4)] = B.EMPTY
    log: list = []
    game.log = log
    game.run_phase("actions")
    moves = [r for r in log if r["e"] == "cell" and r["cause"] == "relocate"]
    assert len(moves) == 7 * 2, "seven relocations, each emptying one cell and filling another"
    assert any(r["e"] == "action_limit" for r in log)
