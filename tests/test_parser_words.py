"""The parser's words are the grammar's: every keyword of rulekit/grammar.lark is known to the
did-you-mean, so a slip in a word the language has is named, whichever word it is."""

from __future__ import annotations

import re
from importlib import resources

import pytest

from rulekit import registry
from rulekit.language.parser import keywords, parse_effect


def messages(text: str) -> list[tuple[int, int, str]]:
    _, found = parse_effect(text)
    return [(d.line, d.col, d.message) for d in found]


@pytest.mark.parametrize("text, line, col, word, meant", [
    ("on play:\n  money += 1\nskp contagion\n", 3, 1, "skp", "skip"),
    ("on play:\n  afer 2 rounds:\n    money += 1\n", 2, 3, "afer", "after"),
    ("on play:\n  each other player:\n    mee:\n      money += 1\n", 3, 5, "mee", "me"),
])
def test_a_slip_in_a_word_the_hand_kept_lists_had_missed_is_named(text, line, col, word, meant):
    assert messages(text) == [(line, col, f"unknown word '{word}' — did you mean '{meant}'?")]


def test_the_mended_line_is_read_as_the_word_meant():
    program, _ = parse_effect("skp contagion\n")
    assert program is not None and [type(i).__name__ for i in program.items] == ["Skip"]


def _grammar_words() -> set[str]:
    text = resources.files("rulekit").joinpath("grammar.lark").read_text(encoding="utf-8")
    return set(re.findall(r'^[A-Z]+: "([a-z]+)"$', text, re.M)) | set(re.findall(r'"([a-z]+)"', text))


def test_every_keyword_of_the_grammar_is_known_to_the_parser_and_reserved_by_the_checker():
    assert keywords().all == _grammar_words()
    assert set(registry.KEYWORDS) == keywords().all       # the names `let` may not take


def test_the_words_that_open_a_line_are_the_grammars():
    kw = keywords()
    assert set(kw.items) == {"on", "when", "once", "react", "modify", "shield", "seal", "skip", "floor", "ceiling"}
    assert {"let", "if", "elif", "else", "each", "player", "after", "me", "may", "choose"} <= set(kw.statements)
    assert not {"by", "from", "to", "where", "and", "it"} & set(kw.statements)


@pytest.mark.parametrize("word", keywords().items)
def test_a_slip_in_any_word_that_opens_an_item_is_named(word):
    assert messages(f"{word}{word[-1]} x\n")[0][2] == f"unknown word '{word}{word[-1]}' — did you mean '{word}'?"


@pytest.mark.parametrize("word", keywords().statements)
def test_a_slip_in_any_word_that_opens_a_statement_is_named(word):
    found = messages(f"on play:\n  money += 1\n  {word}{word[-1]} x:\n    money += 1\n")
    assert found[0][:2] == (3, 3)
    assert found[0][2] == f"unknown word '{word}{word[-1]}' — did you mean '{word}'?"
