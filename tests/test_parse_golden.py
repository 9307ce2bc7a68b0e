"""The parser gives what it gave before its AST builder was rewritten, for a fixed set of effects and
conditions, right and slipped (tests/parse_corpus.py): every node and position, every diagnostic,
every mended line.

The digests were taken from the tree-walking builder; eight entries were taken again after the
did-you-mean learnt the grammar's `skip`, `after` and `me`: CHANGED_BY_THE_KEYWORDS names them, and
they are the only ones that differ from it.
"""

from __future__ import annotations

import json

import pytest

from tests.parse_corpus import GOLDEN, digest, outcomes

# Slips the parser now names with a keyword the old hand-kept lists did not have: `kip`/`skp` -> skip,
# `afer`/`afte` -> after, and a statement opened by `m`, `mo` or `ee` -> me (as `i` or `fi` -> if).
CHANGED_BY_THE_KEYWORDS = {
    "tests/fixtures/corpus/policies/stage1.yaml#3~2", "tests/fixtures/reach/policies/reach.yaml#7~4",
    "tests/fixtures/corpus/events/events.yaml#5~2", "tests/fixtures/probes/policies/stage1.yaml#7~5",
    "tests/fixtures/compare/advisors/advisors.yaml#0~4", "tests/fixtures/corpus/policies/stage1.yaml#10~5",
    "tests/fixtures/reach/advisors/advisors.yaml#1~1", "tests/fixtures/reach/policies/reach.yaml#8~1",
}


@pytest.fixture(scope="module")
def parsed() -> dict[str, str]:
    return outcomes()


def test_every_text_parses_to_what_it_did(parsed):
    expected = json.loads(GOLDEN.read_text(encoding="utf-8"))
    found = {name: digest(text) for name, text in parsed.items()}
    assert len(found) > 1900
    assert sorted(found) == sorted(expected), "the corpus changed: rewrite the digests with --write"
    changed = sorted(name for name in expected if found[name] != expected[name])
    assert not changed, f"{len(changed)} texts parse differently (show one: python -m tests.parse_corpus {changed[0]})"


def test_the_set_reaches_the_parsers_corners(parsed):
    """Mended slips, every syntax code, and the nesting and number limits are all in the set."""
    seen = " ".join(parsed.values())
    for code in ("RK101", "RK102", "RK103", "RK104", "did you mean 'skip'", "did you mean 'after'"):
        assert code in seen, code
    for name in CHANGED_BY_THE_KEYWORDS:
        assert "did you mean 'skip'" in parsed[name] or "did you mean 'after'" in parsed[name] \
            or "did you mean 'me'" in parsed[name], name
