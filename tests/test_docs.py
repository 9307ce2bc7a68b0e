"""docs/language.md stays true to the registry and the parser: every word documented, every example readable."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulekit import registry
from rulekit.language.diagnostics import concise
from rulekit.language.parser import Origin, parse_effect

DOC = Path(__file__).resolve().parent.parent / "docs" / "language.md"
_FENCE = re.compile(r"^(?P<fence>`{3,})(?P<lang>[^\n`]*)\n(?P<body>.*?)^(?P=fence)[ \t]*$", re.M | re.S)
_INLINE = re.compile(r"(?<!`)`([^`\n]+)`(?!`)")


def _text() -> str:
    return DOC.read_text(encoding="utf-8")


def _effect_blocks() -> list[tuple[int, str]]:
    """(line of the block's first line, text) of every ```effect block."""
    text = _text()
    return [(text.count("\n", 0, m.start("body")) + 1, m.group("body"))
            for m in _FENCE.finditer(text) if m.group("lang").strip() == "effect"]


def _inline_code() -> set[str]:
    """Every `inline code` span of the prose and tables (fenced blocks left out)."""
    prose = _FENCE.sub("", _text())
    return {span.strip() for span in _INLINE.findall(prose)}


def test_every_registry_word_is_documented_in_backticks():
    spans = _inline_code()
    missing = [f"{section}: {word}" for section, words in registry.all_words().items()
               for word in words if word not in spans]
    assert not missing, "docs/language.md lacks these registry words in backticks:\n  " + "\n  ".join(missing)


def test_every_chinese_name_of_the_registry_is_documented():
    text = _text()
    tables = [registry.TRACKS, {"money": registry.MONEY}, registry.COUNTS, registry.VALUES, registry.KINDS,
              registry.VERBS, registry.TILE_VERBS, registry.TRIGGERS, registry.PHASES, registry.QUANTITIES,
              registry.PREDICATES, registry.FUNCTIONS, registry.SUPERLATIVES, registry.SHIELDABLE,
              registry.SEALABLE, registry.CARD_KINDS, registry.STATEMENTS]
    missing = [f"{w.name} ({w.zh})" for table in tables for w in table.values() if w.zh not in text]
    assert not missing, "docs/language.md lacks these Chinese names:\n  " + "\n  ".join(missing)


def test_the_doc_has_effect_examples():
    assert len(_effect_blocks()) >= 40


@pytest.mark.parametrize("line,body", _effect_blocks(), ids=lambda v: f"line{v}" if isinstance(v, int) else "")
def test_every_effect_example_parses(line, body):
    program, diags = parse_effect(body, Origin("docs/language.md", line, 1))
    assert not diags, "\n".join(concise(d) for d in diags)
    assert program is not None and program.items
