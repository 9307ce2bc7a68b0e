"""One table of question kinds and their answer formats (rulekit/core/questions.py KINDS): every kind has its
form, every kind the core asks is in it, and an answer outside a kind's form is refused in plain words, by the
log validator and by a scenario's scripted answers alike.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from rulekit import play as P
from rulekit.agents.greedy import GreedyAgent
from rulekit.core.questions import KINDS, NUMBER_KINDS, Ask, Form, answer_problem
from rulekit.engine import make_game
from rulekit.scenarios import chooser
from tests.conftest import ROOT

# One answer of the right form for each kind (a log's JSON), and one that is not.
GOOD = {"advisor": "doctor", "strategy": 2, "action": ["relocate", [0, 1], [2, 3]], "treat": "done", "cell": [9, 0],
        "amount": 0, "choose": -3, "may": False, "react": True, "keep": "c1", "discard": "c2", "offer": None, "bid": 4,
        "arrange": [0, 9], "player": 1, "give": "c3", "reroll": True, "draft": "c4", "order": "e1"}
BAD = {"advisor": "", "strategy": 4, "action": ["bury"], "treat": "pass", "cell": [10, 0], "amount": -1,
       "choose": 1.0, "may": 0, "react": "yes", "keep": 3, "discard": None, "offer": [], "bid": True,
       "arrange": [0], "player": 2, "give": ["c3"], "reroll": 1, "draft": 4, "order": 2}


def test_every_kind_has_a_form():
    """Each kind of Ask has one Form, saying what it asks, its answer in words, and the scripted answers it takes."""
    assert list(KINDS) == list(Ask)
    assert {k.value for k in Ask} == set(GOOD) == set(BAD)
    for kind, form in KINDS.items():
        assert isinstance(form, Form) and form.asks and form.answer and form.scripted, kind
        assert form.check(GOOD[kind.value], 2), (kind, GOOD[kind.value])
        assert not form.check(BAD[kind.value], 2), (kind, BAD[kind.value])
    assert {Ask.STRATEGY, Ask.AMOUNT, Ask.CHOOSE, Ask.BID} == NUMBER_KINDS


def _asked_in_source() -> set[str]:
    """The Ask members named anywhere in the core and the interpreter (where questions are asked)."""
    found = set()
    for folder in ("core", "interpreter"):
        for path in sorted(Path(ROOT, "rulekit", folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "Ask":
                    found.add(node.attr)
    return found


def test_every_kind_the_core_asks_is_in_the_table(content):
    """Every `Ask.X` the core or the interpreter names is a kind of the table, and a few played games ask
    nothing outside it (each question's options are answers of its kind's form, as a log writes them)."""
    named = _asked_in_source()
    assert named and named <= {k.name for k in Ask}
    asked = set()
    for seed in range(3):
        log: list[dict] = []
        game = make_game(content, seed, [GreedyAgent(seed, s) for s in range(4)], log=log)
        game.run()
        for rec in log:
            if rec["e"] == "ask":
                asked.add(rec["q"])
                assert answer_problem(rec["q"], rec["a"], 4) is None, rec
    assert {"advisor", "strategy", "action", "treat", "cell", "bid", "offer"} <= asked <= set(P.ANSWERS)


@pytest.mark.parametrize("kind", [k.value for k in Ask])
def test_an_answer_outside_the_form_is_refused_clearly(kind):
    """The log validator refuses an `ask` record whose answer is not of its question's form, naming the kind,
    the form expected and the value given."""
    rec = {"e": "ask", "round": 1, "phase": "actions", "seat": 0, "q": kind, "card": None, "n": 2, "a": BAD[kind]}
    problem = P.record_problem(rec, 2)
    assert problem is not None
    assert f"an answer to the question '{kind}'" in problem and KINDS[Ask(kind)].answer in problem
    assert P.record_problem({**rec, "a": GOOD[kind]}, 2) is None
    said = answer_problem(kind, BAD[kind], 2)
    assert said is not None and KINDS[Ask(kind)].answer in said and repr(BAD[kind]) in said


def test_an_unknown_kind_is_refused_clearly():
    assert "no kind of question" in (answer_problem("vote", 1, 2) or "")
    problem = P.record_problem({"e": "ask", "round": 1, "phase": "actions", "seat": 0, "q": "vote", "card": None,
                                "n": 2, "a": 1}, 2)
    assert problem is not None and "a kind of question: advisor, strategy" in problem


class _Answer:
    def __init__(self, form, value):
        self.form, self.value, self.text = form, value, str(value)


def test_scripted_answers_follow_the_table():
    """A scenario's scripted answer stands for an option only in a form its kind takes: a number answers `bid`,
    never `may`; `none` answers `offer` only; a card answers an action as playing it."""
    from rulekit.core.questions import Question

    class Card:
        id = "clinic"

    for kind, form in KINDS.items():
        q = Question(kind, 0, [("pass",), ("play", "clinic")] if kind is Ask.ACTION else [1, None, "done"])
        for scripted in ("number", "bool", "cell", "done", "none", "player", "pass", "action", "card"):
            option = chooser.to_option(_Answer(scripted, Card() if scripted == "card" else 1), q)
            assert (option is not chooser._NO_OPTION) == (scripted in form.scripted), (kind, scripted)
    q = Question(Ask.ACTION, 0, [("pass",), ("play", "clinic")])
    assert chooser.to_option(_Answer("card", Card()), q) == ("play", "clinic")
    assert chooser.to_option(_Answer("none", None), Question(Ask.OFFER, 0, ["c", None])) is None
