"""Cells next to others (issue 18, "Cells"): `VERB AMOUNT KIND next to KIND2` and `… next to it`, what
the checker tells a designer who writes them wrong, and that the construct reaches both evaluators
(the games themselves: tests/scenarios/143 and 144, and tests/fixtures/reach in test_evaluators_agree)."""

from __future__ import annotations

import pytest

from rulekit import registry
from rulekit.diagnostics.codes import R
from tests.effect_seen import seen



@pytest.mark.parametrize("src", [
    "on play:\n  infect all healthy next to severe as n\n  money += n\n",
    "on play:\n  cure up to 2 mild next to healthy\n",
    "when reveal mild:\n  infect any healthy next to it\n",
    "when death severe:\n  worsen all mild next to it\n",
    "when cure:\n  kill 1 severe next to it\n",
])
def test_next_to_reads_clean(src):
    assert seen(src) == []


def test_a_misspelt_kind_after_next_to_gets_its_did_you_mean_at_the_kind():
    assert seen("on play:\n  cure 1 mild next to sever\n") == [(
        R.NEXT_TO, 2, 23, "`next to`: unknown kind of resident 'sever' — did you mean 'severe' (重症)?",
        "write the English word; known: " + ", ".join(sorted(registry.KINDS)))]


def test_a_word_that_is_no_kind_gets_no_guess():
    (code, _, _, message, _), = seen("on play:\n  cure 1 mild next to hospital\n")
    assert code == R.NEXT_TO and message == "`next to`: unknown kind of resident 'hospital': the language has no such word"


def test_a_misspelt_next_is_named_by_the_parser():
    found = seen("on play:\n  cure 1 mild nxt to severe\n")
    assert found[0][:4] == (R.EFFECT_SYNTAX, 2, 15, "unknown word 'nxt' — did you mean 'next'?")


@pytest.mark.parametrize("line, verb", [("reveal 1 tiles next to mild", "reveal"), ("move 1 mild next to severe", "move")])
def test_next_to_after_a_verb_that_picks_no_resident_is_refused(line, verb):
    (code, row, _, message, hint), = seen(f"on play:\n  {line}\n")
    assert (code, row) == (R.NEXT_TO, 2)
    assert message == f"`next to` picks residents for a board verb, not for `{verb}`"
    assert hint == "`next to` goes with cure, treat, infect, worsen, kill, remove, revive"


def test_next_to_it_where_it_is_a_card_is_refused():
    (code, row, col, message, _), = seen("when unsold:\n  cure 1 mild next to it\n")
    assert (code, row, col) == (R.NEXT_TO, 2, 23)
    assert message == "`next to it` needs `it` to be a cell, but here it is a card"


def test_next_to_it_without_a_trigger_is_rk213_and_inside_after_rk238():
    assert [c for c, *_ in seen("on play:\n  cure 1 mild next to it\n")] == [R.IT_WITHOUT_TRIGGER]
    assert [c for c, *_ in seen("when cure:\n  after 1 rounds:\n    cure 1 mild next to it\n")] == [R.IT_OR_PREVENT_IN_AFTER]


def test_next_is_reserved():
    assert "next" in registry.KEYWORDS
    (code, _, _, message, _), = seen("on play:\n  let next = 1\n")
    assert code == R.EFFECT_SYNTAX and message == "'next' is a reserved word of the language, so it cannot be a name here"


def test_neighbours_are_orthogonal_and_stop_at_the_table_edge():
    from rulekit.interpreter.runtime import NEIGHBOURS

    assert NEIGHBOURS[0] == (1, 10)                     # the corner: right and below
    assert NEIGHBOURS[55] == (45, 54, 56, 65)           # (5, 5): up, left, right, down; no diagonal
    assert NEIGHBOURS[99] == (89, 98)


def test_the_compiled_call_names_the_neighbour_and_a_plain_verb_compiles_as_before():
    from rulekit.content.loader import load_content
    from rulekit.interpreter.program import compile_card
    from tests.conftest import CONTENT, ROOT

    reach = load_content(ROOT / "tests" / "fixtures" / "reach")
    code = compile_card(reach.lookup("outbreak"), "compiled").code
    assert code is not None
    assert "= rt.board_verb(f, S0, 'infect', 'all', None, 'healthy', 'severe')\n" in code.source
    plain = compile_card(load_content(CONTENT).lookup("execute_infected"), "compiled").code
    assert plain is not None and "rt.board_verb(f, S0, 'remove', 'any', None, 'infected')\n" in plain.source + "\n"


# ---- count(KIND next to …) ---------------------------------------------------------------------------

@pytest.mark.parametrize("src", [
    "on play:\n  money += count(healthy next to severe)\n",
    "when death:\n  if count(healthy next to it) > 1:\n    prevent\n",
    "modify income by count(mild next to severe)\n",
])
def test_count_next_to_reads_clean(src):
    assert seen(src) == []


def test_count_next_to_names_a_misspelt_kind_on_either_side():
    found = seen("on play:\n  money += count(helthy next to sever)\n")
    assert [(c, r, col, m) for c, r, col, m, _ in found] == [
        (R.UNKNOWN_COUNT, 2, 18, "unknown kind of resident 'helthy' — did you mean 'healthy' (健康人)?"),
        (R.NEXT_TO, 2, 33, "`next to`: unknown kind of resident 'sever' — did you mean 'severe' (重症)?")]


def test_count_next_to_it_in_a_modifier_has_no_it_and_in_an_event_no_board():
    assert [c for c, *_ in seen("modify income by count(mild next to it)\n")] == [R.IT_WITHOUT_TRIGGER]
    found = seen("on resolve:\n  each player:\n    money += count(mild next to severe)\n", kind="event")
    assert found == []
    (code, _, _, message, _), = seen("on resolve:\n  let n = count(mild next to severe)\n", kind="event")
    assert code == R.NO_PLAYER and message.startswith("count(… next to …) counts on a player's board")
