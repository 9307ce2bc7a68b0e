"""The language's reach, measured: 56 card effects from hobby designs, written in the effect language.

tests/fixtures/corpus holds them as a content folder; each card's notes say what it was meant to do
and whether the card does exactly that (`verdict: exact`), something close (`approximate: …`), or
cannot be written (`impossible: …`, a tbd card). The count of exact verdicts is the measure.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from rulekit.content.loader import load_content
from rulekit.engine import make_game, run_game
from rulekit.lint.run import lint
from tests.lint_fixtures import private_lint_cache  # noqa: F401 — autouse: the cache away from ~/.cache

CORPUS = Path(__file__).resolve().parent / "fixtures" / "corpus"
_VERDICT = re.compile(r"^verdict: (exact|approximate: \S.*|impossible: \S.*)$", re.M)

# The aim: 9 in 10 (51 of 56) written exactly as meant. The figures as measured (MEASURE.md, on main
# 2375211): chance (roll) made 生死未卜 writable but only approximate, as nothing visits each
# resident of a kind once; then the event deck (arrange N events) made 疫情预报 exact
# (scenario 404); still impossible: playing or copying another card's effect, picking and removing
# a card of a tableau. Each non-exact card's verdict says what is missing. A change of these
# figures, up or down, is a change of the measure: update them and MEASURE.md.
VERDICTS = {"exact": 53, "approximate": 1, "impossible": 2}
CARDS = 56


@pytest.fixture(scope="module")
def corpus():
    return load_content(CORPUS)


@pytest.fixture(scope="module")
def every_card():
    """The tbd cards too: the decks leave them out, the count does not."""
    return load_content(CORPUS, include_tbd=True)


def verdict(card) -> str:
    found = _VERDICT.findall(card.notes or "")
    assert len(found) == 1, f"{card.id}: its notes need exactly one `verdict:` line, found {len(found)}"
    return found[0].split(":")[0]


def test_the_corpus_lints_without_errors_or_warnings():
    report = lint([CORPUS], use_cache=False)
    problems = [f"{d.file}:{d.line}:{d.col}: {d.code} {d.message}" for d in report.diagnostics
                if d.severity in ("error", "warning")]
    assert not problems, "\n".join(problems)


def test_a_verdict_matches_what_the_card_is(every_card):
    """Impossible cards are tbd with no effect; the others are written and in the decks."""
    wrong = []
    for card in every_card.cards:
        v = verdict(card)
        written = card.effect is not None and card.status != "tbd"
        if (v == "impossible") == written:
            wrong.append(f"{card.id}: verdict {v}, status {card.status}, effect {'yes' if card.effect else 'none'}")
    assert not wrong, "\n".join(wrong)


def test_the_verdicts_of_the_56_are_counted_as_measured(every_card):
    counts = Counter(verdict(card) for card in every_card.cards)
    assert sum(counts.values()) == CARDS
    assert dict(counts) == VERDICTS, dict(counts)


def test_seeded_games_on_the_corpus_end_without_an_error(corpus):
    """Random and greedy players, a few seeds: no game stops on an error."""
    for seed in range(12):
        for agents in (["random"], ["greedy"], ["greedy", "random", "greedy", "random"]):
            result = run_game(corpus, seed, agents)
            assert result.end_reason != "error", f"seed {seed}, {agents}: {result.error}"


def test_every_written_card_does_its_work_on_a_table(corpus):
    """Each written card in play on a hand-made table for a whole round: a policy played from hand
    (with money enough), an advisor kept, an event resolved — no error, and every handler of it that
    the round reaches runs."""
    from rulekit.agents import make_agent
    from rulekit.core.phases.events import resolve_event
    from rulekit.core.table import Table, TableSeat, set_table

    for card in corpus.cards:
        if card.status == "tbd" or card.kind == "combo":
            continue
        game = make_game(corpus, 3, [make_agent("random", 3, s) for s in range(4)])
        seat = TableSeat(tracks={"money": 30}, hand=(card,) if card.kind == "policy" else (),
                         advisor=card if card.kind == "advisor" else None)
        set_table(game, Table(seats={0: seat}))
        if card.kind == "policy" and game.program.cards[card.id].playable:
            game.play_card(0, card.id)
        elif card.kind == "event":
            resolve_event(game, card)
        game.run_round()
