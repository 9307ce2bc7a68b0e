"""Syntax errors in effects as a designer meets them: one message per mistake, at its own place,
naming the word meant, with the rest of the card still checked — and never a traceback."""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulekit.cli import main
from rulekit.content.loader import check_paths, load_content
from rulekit.language.diagnostics import ContentError
from rulekit.language.parser import Origin, parse_effect, parse_expression
from tests.conftest import CONTENT

EFFECT_LINE = 7          # the file line of the effect's first line in CARD
EFFECT_COL = 5

CARD = """\
- id: field_hospital
  name: 野战医院
  stage: 2
  price: 3
  copies: 2
  effect: |
{effect}
"""


def card_file(root: Path, effect: str) -> Path:
    """A content folder with one policy whose effect is `effect` (written from column 1)."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "rules.yaml").write_text("players: 4\n", encoding="utf-8")
    body = "\n".join("    " + line if line else "" for line in textwrap.dedent(effect).strip("\n").split("\n"))
    p = root / "policies" / "card.yaml"
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(CARD.format(effect=body), encoding="utf-8")
    return p


def problems(tmp_path: Path, effect: str) -> list:
    """Errors and warnings of the card (the folder-level counts of a one-card folder left out)."""
    p = card_file(tmp_path / "content", effect)
    _, found = check_paths([p])
    return [d for d in found if d.severity != "info" and d.file == str(p)]


def at(effect_line: int, effect_col: int) -> tuple[int, int]:
    """File line and column of a place in the effect (both 1-based)."""
    return EFFECT_LINE + effect_line - 1, EFFECT_COL + effect_col - 1


# ---- a block with nothing under it -----------------------------------------------------------------

@pytest.mark.parametrize("opener", ["if dead >= 8:", "may:", "each player:", "repeat 2:"])
def test_a_block_with_nothing_indented_under_it_is_one_error_at_its_colon(tmp_path, opener):
    found = problems(tmp_path, f"""
        on play:
          {opener}
          let x = 1
          medical += x
    """)
    assert [(d.code, d.message) for d in found] == [("RK101", "expected an indented block after ':'")]
    assert (found[0].line, found[0].col) == at(2, 3 + len(opener) - 1)


def test_an_empty_if_before_elif_and_else_is_one_error_and_the_branches_are_still_checked(tmp_path):
    found = problems(tmp_path, """
        on play:
          if dead >= 8:
          elif dead > 2:
            money += 1
          else:
            mony += 1
    """)
    assert [d.code for d in found] == ["RK101", "RK201"]
    assert (found[1].line, found[1].col) == at(6, 5)


# ---- tabs ------------------------------------------------------------------------------------------

def test_a_tab_as_the_only_indentation_is_reported_at_each_tab(tmp_path):
    found = problems(tmp_path, "on play:\n\tmedical += 1\n\tpolicy += 1")
    assert [(d.code, d.line, d.col) for d in found] == [("RK101", *at(2, 1)), ("RK101", *at(3, 1))]
    assert all("tab" in d.message for d in found)


def test_a_tab_mixed_with_spaces_is_reported_on_its_own_line_and_column(tmp_path):
    found = problems(tmp_path, "on play:\n  medical += 1\n  \tpolicy += 1\n  score += 1")
    assert [(d.code, d.line, d.col) for d in found] == [("RK101", *at(3, 3))]
    assert "tab" in found[0].message


def test_every_tab_of_a_line_is_reported(tmp_path):
    found = problems(tmp_path, "on play:\n  medical\t+=\t1")
    assert [(d.line, d.col) for d in found] == [at(2, 10), at(2, 13)]


# ---- the word that was meant -----------------------------------------------------------------------

@pytest.mark.parametrize("effect, line, col, word, meant", [
    ("on play:\n  iff dead >= 8:\n    medical += 1", 2, 3, "iff", "if"),
    ("wen death:\n  prevent", 1, 1, "wen", "when"),
    ("on play:\n  each players:\n    medical += 1", 2, 8, "players", "player"),
    ("on play:\n  repaet 2:\n    medical += 1", 2, 3, "repaet", "repeat"),
    ("on play:\n  draw 3 form stage 1", 2, 10, "form", "from"),
])
def test_a_misspelt_keyword_gets_the_nearest_one(tmp_path, effect, line, col, word, meant):
    found = problems(tmp_path, effect)
    assert [(d.code, d.line, d.col, d.message) for d in found] == [
        ("RK101", *at(line, col), f"unknown word '{word}' — did you mean '{meant}'?")]


def test_a_statement_outside_any_handler_says_so(tmp_path):
    found = problems(tmp_path, "money += 1\non play:\n  medical += 1")
    assert [(d.code, d.line, d.col) for d in found] == [("RK101", *at(1, 1))]
    assert "outside any handler" in found[0].message and "on play:" in found[0].hint


def test_a_condition_gets_the_nearest_word_too():
    expr, found = parse_expression("infected > 12 adn unlocked(2)", Origin("rules.yaml", 3, 11))
    assert expr is None
    assert [(d.line, d.col, d.message) for d in found] == [(3, 25, "unknown word 'adn' — did you mean 'and'?")]


# ---- one mistake does not hide the rest ------------------------------------------------------------

def test_one_syntax_error_does_not_hide_the_rest_of_the_card(tmp_path):
    found = problems(tmp_path, """
        on play:
          iff dead >= 8:
            medical += 1
          mony += 1
    """)
    assert [(d.code, d.line) for d in found] == [("RK101", at(2, 1)[0]), ("RK201", at(4, 1)[0])]
    assert "did you mean 'money'" in found[1].message


def test_a_broken_line_does_not_cause_reports_about_the_names_it_made(tmp_path):
    found = problems(tmp_path, """
        on play:
          pay 3 az unpaid
          policy -= unpaid
          medicl += 1
    """)
    assert [d.code for d in found] == ["RK101", "RK201"]      # no "unknown name 'unpaid'"


def test_a_card_with_a_syntax_error_is_still_refused(tmp_path):
    card_file(tmp_path / "content", "on play:\n  iff dead >= 8:\n    medical += 1")
    with pytest.raises(ContentError):
        load_content(tmp_path / "content")


def test_an_expression_may_go_on_over_lines_inside_brackets(tmp_path):
    assert problems(tmp_path, "on play:\n  medical += (1 +\n1 +\n  2)\n  policy += 1") == []


def test_the_indentation_caret_is_under_the_lines_text(tmp_path):
    found = problems(tmp_path, "on play:\n    money += 1\n   policy += 1")
    assert [(d.code, d.line, d.col) for d in found] == [("RK102", *at(3, 4))]


# ---- nesting and numbers: an error at the place, never a traceback ------------------------------------

DEEP = {
    "3,000 nots": "on play:\n  if " + "not " * 3000 + "dead > 1:\n    medical += 1",
    "an expression over 3,000 lines": "on play:\n  medical += (" + "\n".join(["1 +"] * 3000) + " 1)",
    "a 5,000-operator chain": "on play:\n  money += " + " + ".join(["1"] * 5000),
    "40 nested calls": "on play:\n  money += " + "max(1, " * 40 + "1" + ")" * 40,
    "40 nested blocks": "on play:\n" + "".join("  " * i + "  if money > 0:\n" for i in range(40))
                        + "  " * 41 + "money += 1",
}


@pytest.mark.parametrize("name", DEEP)
def test_deep_nesting_is_rk103_at_its_place(tmp_path, name):
    found = problems(tmp_path, DEEP[name])
    assert [d.code for d in found] == ["RK103"], found
    assert found[0].line >= EFFECT_LINE


def test_a_number_past_the_limit_is_rk104_at_the_number(tmp_path):
    found = problems(tmp_path, "on play:\n  money += " + "9" * 5000 + "\n  policy += 1000000001")
    assert [(d.code, d.line, d.col) for d in found] == [("RK104", *at(2, 12)), ("RK104", *at(3, 13))]
    assert "1,000,000,000" in found[0].message and "5000 digits" in found[0].message
    assert problems(tmp_path / "ok", "on play:\n  repeat 100:\n    money += 1000000 // 1000000") == []


def test_a_deep_unlock_condition_is_an_error_in_rules_yaml(tmp_path):
    root = tmp_path / "content"
    shutil.copytree(CONTENT, root)
    rules = root / "rules.yaml"
    rules.write_text(rules.read_text(encoding="utf-8").replace(
        'stage2: "infected > 12"', 'stage2: "' + "not " * 3000 + 'infected > 12"'), encoding="utf-8")
    _, found = check_paths([root])
    assert [(d.code, d.file) for d in found if d.severity == "error"] == [("RK103", str(rules))]


@pytest.mark.parametrize("name", ["3,000 nots", "an expression over 3,000 lines"])
def test_play_refuses_a_deep_card_with_a_message_not_a_traceback(tmp_path, name):
    root = tmp_path / "content"
    shutil.copytree(CONTENT, root)
    p = root / "policies" / "deep.yaml"
    body = "\n".join("    " + line for line in DEEP[name].split("\n"))
    p.write_text(CARD.format(effect=body), encoding="utf-8")
    result = CliRunner().invoke(main, ["play", "--content", str(root), "--seed", "1"])
    assert result.exit_code == 1
    assert isinstance(result.exception, SystemExit)
    assert f"{p}:" in result.output and "RK103" in result.output


def test_parse_effect_keeps_what_parsed():
    program, found = parse_effect("on play:\n  iff x:\n    money += 1\non setup:\n  policy += 1\n")
    assert [d.message for d in found] == ["unknown word 'iff' — did you mean 'if'?"]
    assert program is not None and [h.event for h in program.handlers] == ["play", "setup"]
