"""The public Python API of docs/api.md, used the way the document shows."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import rulekit
from tests.conftest import CONTENT

ROOT = Path(__file__).resolve().parent.parent


def test_import_rulekit_is_quick_and_loads_the_rest_on_first_use():
    code = "import sys, rulekit; assert 'rulekit.core.game' not in sys.modules; rulekit.run_game; " \
           "assert 'rulekit.core.game' in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def test_every_name_the_document_promises_is_importable_from_rulekit():
    for name in ("load_content", "run_game", "new_game", "make_agent", "Game", "GameState", "GameResult", "Ask",
                 "Question", "Observation", "Cell", "Action", "Table", "TableSeat", "RuleViolation", "EffectError",
                 "ContentError"):
        assert getattr(rulekit, name) is not None, name
        assert name in rulekit.__all__


def test_load_content_and_run_game(content):
    again = rulekit.load_content(CONTENT)
    result = rulekit.run_game(again, 7, ["greedy"])
    assert result.end_reason in ("won_fight", "events_exhausted", "max_rounds", "one_left")
    assert result == rulekit.run_game(again, 7, ["greedy"]), "a game is a pure function of its inputs"
    assert isinstance(result, rulekit.GameResult) and len(result.scores) == 4


def test_the_forward_model_as_the_document_shows(engine_content):
    game = rulekit.new_game(engine_content, 7, ["random"])
    q = game.pending()
    assert isinstance(q, rulekit.Question) and q.kind is rulekit.Ask.ADVISOR
    game.answer(0)
    twin = game.clone(choosers=[rulekit.make_agent("random", 1, s) for s in range(4)])
    twin.run()
    assert twin.state.over and not game.state.over
    saved = json.dumps(game.state.to_json())
    again = rulekit.Game(game.program, game.rules, rulekit.GameState.from_json(json.loads(saved), engine_content),
                         game.choosers)
    assert again.pending().kind is game.pending().kind


def test_a_hand_made_table_and_a_chooser_of_ones_own(engine_content):
    from rulekit.core.table import set_table

    class Cautious:
        name = "cautious"

        def choose(self, obs, q):
            if q.kind is rulekit.Ask.ACTION:
                return 0
            return len(q.options) - 1

    game = rulekit.make_game(engine_content, 1, [Cautious()] * 4)
    clinic = engine_content.lookup("诊所")
    set_table(game, rulekit.Table(seats={0: rulekit.TableSeat(tracks={"money": 5}, hand=(clinic,))}))
    game.play_card(0, "诊所")
    assert game.state.seats[0].medical == 6 and game.state.seats[0].money == 3
    game.run_phase("treatment")
    game.run_round()
    assert game.state.round == 2


def test_a_rules_mapping_is_checked_and_its_unlock_conditions_are_played(engine_content):
    import pytest

    from rulekit.content.rules import merge_rules

    early = merge_rules(engine_content.rules, {"unlock": {"stage2": "round >= 1"}})
    game = rulekit.new_game(engine_content, 3, ["random"], rules=early)
    while game.state.round < 2 and game.pending() is not None:
        game.answer(0)
    assert all(p.unlocked >= 2 for p in game.state.seats), "stage 2 unlocks in round 1 under the given rules"
    for mistake, words in (({"unlock": {"stage2": "this is not a condition"}}, "RK101"),
                           ({"max_rounds": "many"}, "max_rounds must be a whole number")):
        with pytest.raises(rulekit.ContentError, match=words):
            rulekit.run_game(engine_content, 3, ["random"], rules=merge_rules(engine_content.rules, mistake))
