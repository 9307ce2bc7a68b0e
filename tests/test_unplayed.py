"""The playtest report says why the bots never played a card they drew, instead of a bare "never played".

A designer drops a card the report calls unplayed; the reason tells them whether the card or the bots
are to blame: a reaction whose moment never came, a card the bots cannot read, a price they never had,
or a worth they judged below its price.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from rulekit.content.loader import load_content
from rulekit.model import Card
from rulekit.engine import run_game
from rulekit.language.parser import parse_effect
from rulekit.playtest import report, stats, unplayed
from rulekit.playtest.runner import Batch, game_seed

PROBES = Path(__file__).resolve().parent / "fixtures" / "probes"


def policy(id: str, text: str, price: int = 0) -> Card:
    program, problems = parse_effect(text)
    assert program is not None, problems
    return Card(kind="policy", id=id, name=id, effect=program, price=(price,), stage=1)


def test_each_reason_is_told_apart():
    content = load_content(PROBES)
    cards = [policy("door", "react reveal mild:\n  remove it"),
             policy("mover", "on play:\n  move 1 healthy"),
             dataclasses.replace(content.lookup("clinic"), price=(99,)),
             content.lookup("probe_harm"),
             content.lookup("fund")]
    why = unplayed.reasons(content, cards, 4, 7, greedy=True)
    assert [w["why"] for w in why["door"]] == ["reaction"]
    assert [w["why"] for w in why["mover"]] == ["unreadable"] and "`move`" in why["mover"][0]["en"]
    assert [w["why"] for w in why["clinic"]] == ["unaffordable"] and "99" in why["clinic"][0]["en"]
    assert [w["why"] for w in why["probe_harm"]] == ["not_worth"]
    assert [w["why"] for w in why["fund"]] == ["unknown"], "fund is worth its price: the sample would play it"
    assert all(w["zh"] and w["en"] for ws in why.values() for w in ws)
    assert unplayed.reasons(content, cards, 4, 7, greedy=False)["clinic"] == [], "no sample game without greedy"


def test_the_report_names_the_unplayed_cards_with_why():
    content = load_content(PROBES)
    batch = Batch(str(PROBES), 3, 5, 4, ("greedy",) * 4)
    results = [(k, run_game(content, game_seed(batch.seed, k), list(batch.agents), players=4)) for k in range(3)]
    summary = stats.summarize(iter(results), content, batch, content.fingerprint)
    harm = summary["cards"]["probe_harm"]
    assert harm["drawn"] and not harm["played_by"]["count"]
    assert [w["why"] for w in harm["never_played"]] == ["not_worth"]
    assert summary["cards"]["fund"]["never_played"] is None, "a card that was played has no reason"
    line = next(n for n in report.notes(summary) if "probe_harm" in n)
    assert "drawn but never played: judged worth less than its price" in line and "不值" in line
    assert "never played: judged worth less" in report.render(summary)
    assert stats.dumps(summary) == stats.dumps(stats.summarize(iter(results), content, batch, content.fingerprint))
