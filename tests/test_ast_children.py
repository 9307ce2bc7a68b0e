"""AST nodes list their children (Jinja's iter_child_nodes / find_all), so a small analysis of an
effect is a line or two, and finds what the hand-written walks of the checker and the compiler find."""

from __future__ import annotations


import pytest

from rulekit.language import ast
from rulekit.language.parser import parse_effect
from tests.parse_corpus import texts

EFFECT = """\
on play:
  if money > 2:
    medical += 1
  elif count(other player where dead > 0) >= 1:
    each player where healthy > 1:
      policy -= min(1, x)
  else:
    after 2 rounds:
      money += 3
"""


def programs() -> list[ast.Program]:
    out = []
    for _, kind, text in texts():
        program, _ = parse_effect(text) if kind == "effect" else (None, [])
        if program is not None:
            out.append(program)
    return out


def test_the_children_of_an_if_are_its_conditions_and_blocks_in_the_order_of_the_text():
    program, _ = parse_effect(EFFECT)
    assert program is not None
    stmt = program.handlers[0].body[0]
    assert [type(c).__name__ for c in stmt.iter_child_nodes()] == ["Compare", "TrackChange", "Compare", "EachPlayer",
                                                                  "After"]


def test_find_all_finds_every_node_of_a_type_at_any_depth_in_the_order_of_the_text():
    program, _ = parse_effect(EFFECT)
    assert program is not None
    assert [n.name for n in program.find_all(ast.Name)] == ["money", "dead", "healthy", "x"]
    assert [t.track for t in program.find_all(ast.TrackChange)] == ["medical", "policy", "money"]
    assert [type(n).__name__ for n in program.find_all((ast.CountOf, ast.Call))] == ["CountOf", "Call"]
    found = program.find(ast.After)
    assert found is not None and found.unit == "rounds"
    assert program.find(ast.Prevent) is None


def test_a_leaf_has_no_children_and_a_shields_names_are_not_nodes():
    program, _ = parse_effect("shield worsening, contagion\n")
    assert program is not None
    assert list(program.items[0].iter_child_nodes()) == []
    assert list(ast.Num(ast.NOPOS, 1).iter_child_nodes()) == []


@pytest.fixture(scope="module")
def corpus() -> list[ast.Program]:
    found = programs()
    assert len(found) > 250
    return found


def _afters_by_bodies(program: ast.Program) -> list[ast.After]:
    """The walk the compiler used before find_all: through statement bodies only (the oracle)."""
    found: list[ast.After] = []
    stack = [h.body for h in program.handlers]
    while stack:
        for s in stack.pop():
            if isinstance(s, ast.After):
                found.append(s)
            stack.extend(ast.bodies(s))
    return found


def test_the_compilers_after_blocks_are_those_a_walk_through_bodies_finds(corpus):
    """The compiler finds `after` blocks with find_all now: the same blocks as the walk through bodies."""
    from collections import Counter

    from rulekit.interpreter.program import afters

    for program in corpus:
        assert Counter(map(id, afters(program.handlers))) == Counter(map(id, _afters_by_bodies(program)))
    assert any(_afters_by_bodies(p) for p in corpus)
