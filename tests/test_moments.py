"""Issue 18's moments: counters' first values (`counters: {NAME: "= EXPR"}`), what the checker tells a
designer who writes them wrong, and what the bots make of them (the games themselves: tests/scenarios/380-,
and tests/fixtures/reach in test_evaluators_agree)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulekit.agents import estgen
from rulekit.agents import estimate as E
from rulekit.content.loader import load_content
from rulekit.diagnostics.codes import R
from rulekit.lint.engine import check

REACH = Path(__file__).parent / "fixtures" / "reach"


def linted(tmp_path: Path, card: str, kind: str = "policies") -> list[tuple[str, int, int, str, str | None]]:
    (tmp_path / kind).mkdir()
    (tmp_path / "rules.yaml").write_text("players: 4\n", encoding="utf-8")
    path = tmp_path / kind / "cards.yaml"
    path.write_text(card, encoding="utf-8")
    return [(d.code, d.line, d.col, d.message, d.hint) for d in check([path])
            if d.severity != "info" ]


MEMORIAL = """- id: memorial
  name: 纪念碑
  stage: 1
  price: 0
  copies: 1
  counters: {{seen: {start}}}
  effect: |
    on round end:
      money += max(0, dead - seen)
"""


@pytest.mark.parametrize("start", ['"= dead"', '"= count(other player where dead > 0) + 1"', '"dead * 2"', "3",
                                   '"= max(0, round - 1)"'])
def test_a_counter_s_first_value_reads_clean(tmp_path, start):
    assert linted(tmp_path, MEMORIAL.format(start=start)) == []


def test_a_misspelt_name_in_a_first_value_gets_its_did_you_mean_at_the_name(tmp_path):
    (code, line, col, message, _), = linted(tmp_path, MEMORIAL.format(start='"= daed"'))
    assert (code, line, col) == (R.UNKNOWN_NAME, 6, 23)
    assert message == "unknown name 'daed' — did you mean 'dead' (死者)?"


def test_a_first_value_that_reads_a_counter_is_refused(tmp_path):
    (code, line, col, message, hint), = linted(tmp_path, MEMORIAL.format(start='"= seen + dead"'))
    assert (code, line, col) == (R.COUNTER_START, 6, 23)
    assert message == ("the first value of the counter 'seen' cannot read the counter 'seen': no counter has a "
                       "value yet when the card enters play")
    assert hint == "work it out from the tracks, counts and `params:` instead"


def test_a_first_value_must_be_a_number(tmp_path):
    (code, line, col, message, _), = linted(tmp_path, MEMORIAL.format(start='"= dead > 1"'))
    assert (code, line, col) == (R.NEEDS_NUMBER, 6, 23)
    assert message == "the first value of the counter 'seen' needs a number, but this is a true/false value"


def test_a_first_value_that_does_not_parse_is_a_syntax_error_at_its_place(tmp_path):
    (code, line, _, _, _), = linted(tmp_path, MEMORIAL.format(start='"= dead +"'))
    assert (code, line) == (R.EFFECT_SYNTAX, 6)


def test_a_counter_with_a_first_value_is_named_one_the_reading_cannot_value():
    """The reading does not work the first value out: such a policy is measured by the lookahead (RK244)."""
    reach = load_content(REACH)
    for cid in ("remembrance", "archivist"):
        why = [str(u) for u in E.unreadable(reach.lookup(cid))]
        assert len(why) == 1 and "counter's first value" in why[0], (cid, why)
        assert estgen.of(reach.lookup(cid)).unreadable == E.unreadable(reach.lookup(cid))


# ---- who decides: the owner, unless `they choose:` ---------------------------------------------------------

def effect_seen(src: str, kind: str = "policy") -> list[tuple[str, int, int, str, str | None]]:
    from rulekit.language.checker import check_effect
    from rulekit.language.parser import Origin, parse_effect_recovering

    parsed = parse_effect_recovering(src, Origin("card.yaml", 1, 1, 0))
    _, found = check_effect(parsed, kind, None, "card.yaml")
    return [(d.code, d.line, d.col, d.message, d.hint) for d in [*parsed.diags, *found]]


@pytest.mark.parametrize("src", [
    "on play:\n  choose other player:\n    they choose:\n      cure 1 mild\n",
    "on play:\n  each other player:\n    they choose:\n      choose n from 0 to 2\n      medical += n\n",
    "on play:\n  player with most infected:\n    they choose:\n      kill up to 1 mild\n",
])
def test_they_choose_in_another_player_s_block_reads_clean(src):
    assert effect_seen(src) == []


def test_they_choose_outside_a_player_block_changes_nothing():
    assert effect_seen("on play:\n  they choose:\n    cure 1 mild\n") == [(
        R.THEY_CHOOSE, 2, 3, "`they choose:` changes nothing here: outside a player block the subject is the "
        "card's owner, who makes the choices anyway",
        "put it inside `choose other player:`, `each other player:` or `player with …:`")]


def test_they_choose_in_an_event_changes_nothing():
    (code, line, col, message, hint), = effect_seen(
        "on resolve:\n  each player:\n    they choose:\n      cure 1 mild\n", kind="event")
    assert (code, line, col) == (R.THEY_CHOOSE, 3, 5)
    assert message == ("`they choose:` changes nothing in an event: an event has no owner, so each player already "
                       "makes the choices in their own block")
    assert hint == "remove `they choose:` and keep its block"


def test_a_misspelt_they_is_named_by_the_parser():
    (code, line, col, message, _), *_ = effect_seen("on play:\n  choose other player:\n    thy choose:\n      cure 1 mild\n")
    assert (code, line, col, message) == (R.EFFECT_SYNTAX, 3, 5, "unknown word 'thy' — did you mean 'they'?")
