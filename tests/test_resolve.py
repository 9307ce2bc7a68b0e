"""The resolver: one table says what every name of an effect means, and every later stage reads it.

A designer writes bare words — `money`, `dead`, `round`, `n`, `charges`, `gain`, `price` — and the
game must read each the same way in the checker, the generated code and the reference walker.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from rulekit.content.loader import load_content
from rulekit.language import ast
from rulekit.language import resolve as rs
from rulekit.language.checker import check_effect
from rulekit.language.parser import parse_effect_recovering
from tests.conftest import ROOT
from tests.test_params import gains  # the money 补助 gave each time it was played, seeded

# One effect with every kind of name: made names (let, choose, as), a counter, a parameter, a card's
# values inside count(played …), tracks, board counts, values the game provides, and a quantity.
EVERY_NAME = """\
modify income by gain
on play:
  let n = infected
  choose k from 0 to 1
  pay k as paid
  charges -= 1
  if hand > 0 and not revealed:
    let extra = charges + gain
    money += extra
  money += n + paid + round + uses + count(played where stage == 1 and price > 0)
  n += 1
"""


def check(text: str, kind: str = "policy", counters=("charges",), params=None):
    checked, diags = check_effect(parse_effect_recovering(text), kind, None, "card.yaml", counters=counters,
                                  params={"gain": 2} if params is None else params)
    return checked, diags


def names(checked) -> dict[tuple[int, int], rs.Meaning]:
    """(line, column) of every name read -> what the table says it means."""
    return {(n.pos.line, n.pos.col): m for n, m in checked.meaning.items() if isinstance(n, ast.Name)}


def statements(program: ast.Program) -> list[ast.Stmt]:
    out: list[ast.Stmt] = []
    stack = [list(h.body) for h in program.handlers]
    while stack:
        for st in stack.pop(0):
            out.append(st)
            stack.extend(list(body) for body in ast.bodies(st))
    return out


def test_the_table_says_what_every_name_means():
    checked, diags = check(EVERY_NAME)
    assert diags == [] and checked is not None
    read = {(m.name, m.kind) for m in names(checked).values()}
    assert read == {("gain", "param"), ("infected", "count"), ("hand", "value"), ("revealed", "value"),
                    ("charges", "counter"), ("extra", "local"), ("n", "local"), ("paid", "local"),
                    ("round", "value"), ("uses", "value"), ("stage", "card"), ("price", "card"), ("k", "local")}
    changes = [(st.track, checked.of(st).kind) for st in statements(checked.program) if isinstance(st, ast.TrackChange)]
    assert sorted(changes) == [("charges", "counter"), ("money", "track"), ("money", "track"), ("n", "local")]
    [modify] = [i for i in checked.program.items if isinstance(i, ast.Modify)]
    assert checked.of(modify) == rs.Meaning(rs.QUANTITY, "income")
    assert {m.kind for m in checked.meaning.values()} <= set(rs.KINDS)


def test_a_name_and_its_uses_share_one_binding():
    checked, _ = check(EVERY_NAME)
    body = statements(checked.program)
    let_n = next(st for st in body if isinstance(st, ast.Let) and st.name == "n")
    binding = checked.of(let_n).binding
    assert binding is not None and (binding.name, binding.form, binding.pos.line) == ("n", "let", 3)
    uses = [m for m in names(checked).values() if m.name == "n"]
    change = next(st for st in body if isinstance(st, ast.TrackChange) and st.track == "n")
    assert uses and all(m.binding is binding for m in uses) and checked.of(change).binding is binding
    pay = next(st for st in body if isinstance(st, ast.Pay))
    assert checked.of(pay).binding.form == "as"


def test_the_same_name_in_two_blocks_is_two_bindings():
    text = "on play:\n  if money > 3:\n    let n = 1\n    money += n\n  else:\n    let n = 2\n    money += n\n"
    checked, diags = check(text)
    assert diags == []
    lets = [st for st in statements(checked.program) if isinstance(st, ast.Let)]
    first, second = (checked.of(st).binding for st in lets)
    assert first is not second
    reads = {m.binding.pos.line for m in names(checked).values() if m.name == "n"}
    assert reads == {3, 6}, "each `money += n` reads the n of its own block"


def test_a_counted_cards_price_shadows_a_name_of_the_effect():
    """Inside count(played where …) `price` is the counted card's, even where the effect made a `price`."""
    text = "on play:\n  let price = 100\n  money += price - 99 + count(played where price == 100)\n"
    checked, diags = check(text)
    assert diags == []
    by_col = {col: m.kind for (line, col), m in names(checked).items() if line == 3}
    assert sorted(by_col.items()) == [(12, "local"), (44, "card")]


def test_a_refused_definition_makes_no_name_and_the_checker_says_why():
    _, diags = check("on play:\n  let money = 1\n  let charges = 2\n  let gain = 3\n  let n = 1\n  if n > 0:\n"
                     "    let n = 2\n")
    assert [(d.code, d.line) for d in diags] == [("RK229", 2), ("RK228", 3), ("RK228", 4), ("RK228", 7)]
    assert "already defined by `let` on line 5" in diags[-1].message
    resolution = rs.resolve_program(parse_effect_recovering("on play:\n  let money = 1\n").program)
    [let] = [st for st in resolution.refused]
    assert resolution.refused[let].reason == rs.RESERVED_WORD and resolution.binding(let) is None


def test_an_unknown_name_suggests_a_name_in_reach():
    _, diags = check("on play:\n  let helped = 1\n  money += helpd\n")
    [d] = diags
    assert d.code == "RK211" and "did you mean 'helped'" in d.message


TUNE = ROOT / "tests" / "fixtures" / "tune"
GRANT = """  params: {gain: 2}         # coins it gives: the number tune changes
  flavor: money from a parameter
  effect: |
    on play:
      money += gain
"""
EVERYTHING = """  params: {gain: 2}
  counters: {charges: 3}
  flavor: every kind of name
  effect: |
    modify income by gain - 2
    on play:
      let n = infected
      let price = 100
      pay 0 as paid
      charges -= 1
      if hand >= 0 and not revealed:
        let extra = charges + gain
        money += extra - extra
      after 1 rounds:
        money += n - n + paid + 1
      money += n - n + round - round + uses - uses + price - 100 + count(played where price == 100) + 1
"""


def test_both_evaluators_read_every_kind_of_name_alike(tmp_path: Path):
    root = tmp_path / "c"
    shutil.copytree(TUNE, root)
    path = root / "policies" / "tuned.yaml"
    text = path.read_text(encoding="utf-8")
    assert GRANT in text
    path.write_text(text.replace(GRANT, EVERYTHING), encoding="utf-8")
    content = load_content(root)
    compiled, reference = gains(content, "compiled"), gains(content, "reference")
    assert compiled == reference
    # No played card costs 100: the count reads the cards' prices, not the effect's `price`; the card and its
    # `after` block each give exactly 1.
    assert compiled and set(compiled) == {1}
