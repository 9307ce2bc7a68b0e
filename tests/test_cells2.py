"""Cells, second round (issue 18): one chosen cell as `it` (`choose cell [with KIND]:`), what the checker tells a
designer who writes it wrong, and what the bots make of it (the games themselves: tests/scenarios/300-301, and
tests/fixtures/reach/policies/reach_cells2.yaml in test_evaluators_agree)."""

from __future__ import annotations

import pytest

from rulekit import registry
from rulekit.diagnostics.codes import R
from rulekit.language import ast
from rulekit.language.parser import Origin, parse_effect_recovering
from tests.effect_seen import seen



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


def test_a_verb_after_another_on_the_chosen_cell_is_not_blamed():
    """`treat it` makes the severe case mild, so the `cure it` after it acts (the corpus card 生死未卜 does it):
    once a verb has acted on `it`, what the cell holds is no longer known and RK230 says nothing."""
    assert seen("on play:\n  choose cell with severe:\n    treat it\n    cure it\n") == []
    assert [d[0] for d in seen("on play:\n  choose cell with severe:\n    cure it\n")] == ["RK230"]
    assert [d[0] for d in seen("when reveal mild:\n  treat it\n")] == ["RK230"]   # a trigger's `it`, as before
    assert seen("when reveal mild:\n  worsen it\n  treat it\n") == []


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


# ---- tags -----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("src", [
    "on play:\n  choose cell with mild:\n    tag it sheltered\n  money += count(sheltered)\n",
    "when reveal mild:\n  tag it sheltered\n",
    "on round end:\n  choose cell:\n    untag it sheltered\n",
])
def test_tags_read_clean(src):
    assert seen(src) == []


def test_a_misspelt_tag_gets_its_did_you_mean():
    assert seen("on play:\n  choose cell with mild:\n    tag it shelterd\n") == [(
        R.CELL_TAG, 3, 13, "unknown tag 'shelterd' — did you mean 'sheltered' (庇护)?",
        "write the English word; known: " + ", ".join(sorted(registry.CELL_TAGS)))]


def test_a_misspelt_tag_gets_its_did_you_mean():
    (code, row, col, message, _), = seen("on play:\n  choose cell:\n    tga it sheltered\n")
    assert (code, row, col, message) == (R.CELL_TAG, 3, 5, "unknown verb 'tga' — did you mean 'tag'?")


def test_a_word_after_another_verb_s_it_is_named():
    (code, _, _, message, hint), = seen("when reveal mild:\n  cure it now\n")
    assert code == R.CELL_TAG and message == "`cure it now`: only `tag it` and `untag it` take a word after `it`"
    assert hint == "write `tag it sheltered` or `untag it sheltered`; other verbs take `it` alone (`cure it`)"


def test_a_card_takes_no_tag():
    (code, _, _, message, _), = seen("when unsold:\n  tag it sheltered\n")
    assert code == R.CELL_TAG and message == "`tag it` needs `it` to be a cell, but here it is a card"


def test_count_of_a_tag_takes_no_where_and_needs_a_player():
    (code, _, _, message, _), = seen("on play:\n  money += count(sheltered where mild > 0)\n")
    assert code == R.UNKNOWN_COUNT and message == "count(sheltered) counts tagged cells and takes no `where`"
    (code, _, _, message, _), = seen("on resolve:\n  if count(sheltered) > 0:\n    each player:\n      money += 1\n",
                                     "event")
    assert code == R.NO_PLAYER
    assert message == "count(sheltered) counts on a player's board, but an event has no player here"


def _tagged_game():
    """A reach game at its first question, with a sheltered mild case on P1's board."""
    from pathlib import Path

    from rulekit.agents import make_agent
    from rulekit.content.loader import load_content
    from rulekit.core import board as B
    from rulekit.engine import make_game

    reach = load_content(Path(__file__).parent / "fixtures" / "reach")
    game = make_game(reach, 3, [make_agent("random", 3, s) for s in range(4)])
    i = game.geo.cells_of[0][7]
    game.set_cell(i, B.MILD, "test")
    assert game.tag_cell(i, "sheltered", True, "test")
    return reach, game, i


def test_a_tag_is_saved_cloned_determinized_and_public():
    import random

    from rulekit.core.state import GameState

    reach, game, i = _tagged_game()
    st = game.state
    assert st.tags == {i: "sheltered"}
    again = GameState.from_json(st.to_json(), reach)
    assert again.tags == {i: "sheltered"} and again.to_json() == st.to_json()
    assert st.clone().tags == {i: "sheltered"} and st.clone().tags is not st.tags
    assert game.determinize(1, random.Random(0)).state.tags == {i: "sheltered"}
    for seat in range(4):
        assert game.observation(seat).tags == ((i, "sheltered"),)
    key = game.info_key(1)
    game.tag_cell(i, "sheltered", False, "test")
    assert game.info_key(1) != key and st.to_json()["tags"] == []


def test_a_tag_takes_only_a_living_resident_and_goes_with_it():
    from rulekit.core import board as B

    _, game, i = _tagged_game()
    empty = next(j for j in game.geo.cells_of[0] if game.state.board[j] != B.TILE and j != i)
    game.set_cell(empty, B.EMPTY, "test")
    assert not game.tag_cell(empty, "sheltered", True, "test")
    game.set_cell(i, B.SEVERE, "test")          # any change of the cell takes its tag off
    assert game.state.tags == {}


def test_the_board_text_and_the_serve_page_show_tags():
    from rulekit.play import board_picture
    from rulekit.serve import view

    _, game, i = _tagged_game()
    r, c = divmod(i, 10)
    assert board_picture(game)[-1] == f"  标签 tags: ({r}, {c}) sheltered"
    assert view.page(game.observation(2))["tags"] == {str(i): "sheltered"}
