"""Cells, second round (issue 18): one chosen cell as `it` (`choose cell [with KIND]:`), what the checker tells a
designer who writes it wrong, and what the bots make of it (the games themselves: tests/scenarios/300-301, and
tests/fixtures/reach/policies/reach_cells2.yaml in test_evaluators_agree)."""

from __future__ import annotations

import pytest

from rulekit import registry
from rulekit.diagnostics.codes import R
from rulekit.language import ast
from rulekit.language.checker import check_effect
from rulekit.language.parser import Origin, parse_effect_recovering


def seen(src: str, kind: str = "policy") -> list[tuple[str, int, int, str, str | None]]:
    parsed = parse_effect_recovering(src, Origin("card.yaml", 1, 1, 0))
    _, found = check_effect(parsed, kind, None, "card.yaml")
    return [(d.code, d.line, d.col, d.message, d.hint) for d in [*parsed.diags, *found]]


# ---- choose cell -------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("src", [
    "on play:\n  choose cell with mild:\n    cure it\n    cure all mild next to it\n",
    "on play:\n  choose cell:\n    money += count(healthy next to it)\n",
    "on play:\n  choose other player:\n    choose cell with healthy:\n      infect it\n",
    "when unsold:\n  choose cell with severe:\n    treat it\n",          # inside the block, `it` is the cell
    "on play:\n  after 1 rounds:\n    choose cell with dead:\n      remove it\n",
    "on resolve:\n  each player:\n    choose cell with severe:\n      kill it\n",
])
def test_choose_cell_reads_clean(src):
    kind = "event" if "on resolve" in src else "policy"
    assert seen(src, kind) == []


def test_a_misspelt_cell_gets_its_did_you_mean_at_the_word():
    assert seen("on play:\n  choose cel with mild:\n    cure it\n") == [(
        R.CHOOSE_CELL, 2, 10, "`choose cel:` — did you mean `choose cell`?",
        "write `choose cell:` or `choose cell with mild:` (a cell), `choose player:` (a player), "
        "or `choose NAME from 1 to 3` (a number)")]


def test_a_choose_that_lost_its_range_is_named_without_a_guess():
    (code, row, col, message, _), = seen("on play:\n  choose amount:\n    money += 1\n")
    assert (code, row, col) == (R.CHOOSE_CELL, 2, 10)
    assert message == "`choose amount:` chooses nothing the language knows"


def test_a_misspelt_kind_gets_its_did_you_mean_at_the_kind():
    assert seen("on play:\n  choose cell with sever:\n    treat it\n") == [(
        R.CHOOSE_CELL, 2, 20, "`choose cell with`: unknown kind of resident 'sever' — did you mean 'severe' (重症)?",
        "write the English word; known: " + ", ".join(sorted(registry.KINDS)))]


def test_choose_cell_in_an_event_needs_a_player():
    (code, row, _, message, _), = seen("on resolve:\n  choose cell with mild:\n    cure it\n", "event")
    assert (code, row) == (R.NO_PLAYER, 2)
    assert message == "`choose cell` needs a player, but an event has no player here"


def test_a_verb_that_never_changes_the_chosen_cell_is_named():
    (code, row, _, message, _), = seen("on play:\n  choose cell with healthy:\n    cure it\n")
    assert (code, row) == (R.IT_NEVER_CHANGES, 3)
    assert message.startswith("`cure it` never does anything here: `it` is a healthy cell")


def test_discard_it_on_a_chosen_cell_names_the_block():
    (code, row, _, message, _), = seen("when unsold:\n  choose cell:\n    discard it\n")
    assert (code, row) == (R.IT_WRONG_TYPE, 3)
    assert message == "`discard` takes a card, but `it` in `choose cell` is a cell"


def test_it_of_a_chosen_cell_inside_after_is_refused():
    (code, row, _, message, _), = seen("on play:\n  choose cell with mild:\n    after 1 rounds:\n      cure it\n")
    assert (code, row) == (R.IT_OR_PREVENT_IN_AFTER, 4)
    assert message.startswith("`it` means nothing inside `after`")


def test_outside_the_block_it_is_the_trigger_s_again():
    (code, row, _, _, _), = seen("when unsold:\n  choose cell with mild:\n    cure it\n  cure it\n")
    assert (code, row) == (R.IT_WRONG_TYPE, 4)


def test_the_question_names_the_first_verb_done_to_the_cell():
    """The bots read what a cell is chosen for from the question's first word (the greedy agent's on_cell)."""
    def hint(src: str) -> str:
        parsed = parse_effect_recovering(src, Origin("card.yaml", 1, 1, 0))
        choose = parsed.program.find(ast.ChooseCell)
        assert choose is not None
        return ast.cell_hint(choose.body)
    assert hint("on play:\n  choose cell with mild:\n    money += 1\n    cure all mild next to it\n    kill it\n") == "cure"
    assert hint("on play:\n  choose cell:\n    if money > 1:\n      kill it\n") == "kill"
    assert hint("on play:\n  choose cell:\n    money += 1\n") == "choose"


def test_choose_cell_is_named_one_the_reading_cannot_value():
    from pathlib import Path

    from rulekit.agents import estgen
    from rulekit.agents import estimate as E
    from rulekit.content.loader import load_content

    reach = load_content(Path(__file__).parent / "fixtures" / "reach")
    card = reach.lookup("field_clinic")
    why = [str(u) for u in E.unreadable(card)]
    assert any("`choose cell`" in w for w in why), why
    assert estgen.of(card).unreadable == E.unreadable(card)


# ---- revive ------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("src", [
    "on play:\n  revive up to 2 dead as n\n  money += n\n",
    "on play:\n  revive all dead next to mild\n",
    "on play:\n  choose cell with dead:\n    revive it\n",
])
def test_revive_reads_clean(src):
    assert seen(src) == []


def test_revive_takes_only_the_dead():
    assert seen("on play:\n  revive 1 mild\n") == [(
        R.VERB_WRONG_KIND, 2, 12,
        "`revive` cannot take 'mild': revive is a dead resident → healthy (scores nothing: the death's -1 stays)",
        "`revive` takes: dead")]


def test_revive_it_in_a_death_handler_points_to_prevent():
    assert seen("when death:\n  revive it\n") == [(
        R.IT_NEVER_CHANGES, 2, 3,
        "`revive it` never does anything here: `it` is a healthy/mild/severe cell, and revive is a dead resident → healthy "
        "(scores nothing: the death's -1 stays)",
        "its resident is still alive while its death is decided: write `prevent` to keep it alive")]


def test_a_misspelt_revive_gets_its_did_you_mean():
    (code, _, _, message, _), = seen("on play:\n  revve 1 dead\n")
    assert code == R.UNKNOWN_VERB and message == "unknown verb 'revve' — did you mean 'revive' (复活)?"


def test_the_reading_values_a_revival_by_the_dead_on_the_board():
    """revive is valued from the text (no lookahead): worth something with a dead resident on my board, nothing
    without one; and it scores nothing (the death's -1 stays)."""
    from pathlib import Path

    from rulekit.agents import estimate as E
    from rulekit.agents.weights import TRANSITION
    from rulekit.content.loader import load_content
    from rulekit.core import board as B
    from rulekit.language.parser import parse_effect
    from rulekit.model import Card
    from tests.test_greedy_probes import first_action

    probes = load_content(Path(__file__).parent / "fixtures" / "probes")
    program, problems = parse_effect("on play:\n  revive 1 dead\n")
    assert program is not None, problems
    card = Card(kind="policy", id="miracle", name="奇迹", effect=program, price=(0,), stage=1)
    assert E.unreadable(card) == ()
    game = first_action(probes)
    before = E.play_value(card, E.Snapshot(game.observation(0), 0))[0]
    healthy = game.cells(0, (B.HEALTHY,))
    game.set_cell(healthy[0], B.DEAD, "test")
    after = E.play_value(card, E.Snapshot(game.observation(0), 0))[0]
    assert after > before
    assert TRANSITION[("dead", "healthy")] > 0


# ---- take/give residents -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("src", [
    "on play:\n  choose other player:\n    give 1 mild as left\n    me:\n      money -= left\n",
    "on play:\n  each other player:\n    take 1 healthy\n",
    "on resolve:\n  player with highest medical:\n    choose other player:\n      give all severe\n",
])
def test_moving_residents_between_boards_reads_clean(src):
    assert seen(src, "event" if "resolve" in src else "policy") == []


def test_a_misspelt_kind_to_give_gets_its_did_you_mean():
    assert seen("on play:\n  choose other player:\n    give 1 mlid\n") == [(
        R.TRANSFER_OR_UNIT_WORD, 3, 12, "unknown thing to give 'mlid' — did you mean 'mild' (轻症)?",
        "a track, money, cards, or a kind of resident")]


def test_residents_outside_a_player_block_are_refused():
    (code, row, _, message, _), = seen("on play:\n  give 1 mild\n")
    assert (code, row) == (R.TRANSFER_OUTSIDE_PLAYER_BLOCK, 2)
    assert message == "`give` moves things between two players, and here there is only one"


def test_moving_residents_is_named_one_the_reading_cannot_value():
    from pathlib import Path

    from rulekit.agents import estgen
    from rulekit.agents import estimate as E
    from rulekit.content.loader import load_content

    reach = load_content(Path(__file__).parent / "fixtures" / "reach")
    card = reach.lookup("export")
    why = [str(u) for u in E.unreadable(card)]
    assert len(why) == 1 and "`take`/`give` of residents" in why[0], why
    assert estgen.of(card).unreadable == E.unreadable(card)


def test_the_serve_page_shows_a_chosen_cell_question_as_board_clicks():
    """`choose cell` and residents sent between boards ask `cell` questions: the serve page renders their options
    as cells to click on the board (rulekit/serve/view.py), with the question's text."""
    from pathlib import Path

    from rulekit.agents import make_agent
    from rulekit.content.loader import load_content
    from rulekit.core.questions import Ask
    from rulekit.engine import make_game
    from rulekit.serve import view

    seen_texts: set[str] = set()

    class Looking:
        """A random player that renders each question of these constructs as the serve page would."""

        name = "looking"

        def __init__(self, seed: int, seat: int) -> None:
            self.inner = make_agent("random", seed, seat)

        def choose(self, obs, q) -> int:
            if q.kind is Ask.CELL and ("choose a cell" in q.text or q.text.startswith("send ")):
                page = view.page(obs, q, 1)
                assert page["question"]["text"] == q.text
                assert [o["cell"] for o in page["question"]["options"]] == [list(c) for c in q.options]
                seen_texts.add(q.text.partition(" ")[0])
            return self.inner.choose(obs, q)

    reach = load_content(Path(__file__).parent / "fixtures" / "reach")
    for seed in range(6):
        make_game(reach, seed, [Looking(seed, s) for s in range(4)]).run()
    assert {"cure:", "send"} <= seen_texts, seen_texts
