"""The compiled evaluator and the tree-walking reference give identical games, decision by decision."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulekit.engine import new_game

SEEDS = range(300)


MIXED = ["greedy", "random", "default", "greedy"]


def logged(content, seed: int, evaluator: str, players: int) -> list:
    """Random players in even seeds; greedy, random and default players side by side in odd ones."""
    log: list = []
    agents = ["random"] if seed % 2 == 0 else MIXED[:players]
    game = new_game(content, seed, agents, players=players, evaluator=evaluator, log=log)
    game.run()
    return log


@pytest.mark.parametrize("block", range(6))
def test_compiled_and_reference_games_are_identical(content, block):
    for seed in SEEDS[block::6]:
        players = 2 + seed % 3
        a = logged(content, seed, "compiled", players)
        b = logged(content, seed, "reference", players)
        assert a == b, f"seed {seed}: the evaluators disagree"
        assert any(r["e"] in ("play", "event") for r in a)


def test_effects_actually_ran(content):
    """Guard against a vacuous comparison: over these games, cards were played and events changed tracks."""
    plays = events = 0
    for seed in range(20):
        log = logged(content, seed, "compiled", 4)
        plays += sum(1 for r in log if r["e"] == "play")
        events += sum(1 for r in log if r["e"] == "track" and r.get("why") and r["why"] in
                      {c.id for c in content.of_kind("event")})
    assert plays > 20 and events > 20


REACH = Path(__file__).resolve().parent / "fixtures" / "reach"


@pytest.fixture(scope="module")
def reach_content():
    from rulekit.content.loader import load_content

    return load_content(REACH)


@pytest.mark.parametrize("block", range(2))
def test_the_language_s_reach_is_evaluated_alike(reach_content, block):
    """Cards using every newer construct (tests/fixtures/reach): the same games, effect for effect."""
    fired = set()
    for seed in range(block, 40, 2):
        agents = ["random"] if seed % 4 < 2 else ["greedy", "random", "default", "random"]
        players = 2 + seed % 3 if agents == ["random"] else 4
        logs = []
        for evaluator in ("compiled", "reference"):
            log: list = []
            new_game(reach_content, seed, agents, players=players, evaluator=evaluator, log=log, verbose=True).run()
            logs.append(log)
        assert logs[0] == logs[1], f"seed {seed}: the evaluators disagree"
        fired |= {(r["card"], r["how"]) for r in logs[0] if r["e"] == "fire"}
    assert {("extortion", "on play"), ("evacuation", "after"), ("grant", "react actions start"),
            ("retreat", "when event"), ("census", "when cure"), ("lockdown", "on game end"),
            ("baron", "on play"), ("news_team", "when play"), ("supply_crisis", "on resolve")} <= fired


def test_generated_code_uses_only_the_exported_runtime(reach_content):
    """Generated effects call only the runtime names listed in runtime.EXPORTED, and each exists:
    a card can reach the game only through operations that check their bounds."""
    import re

    from rulekit.interpreter import runtime
    from rulekit.interpreter.program import compile_card

    assert all(callable(getattr(runtime.Runtime, name, None)) for name in runtime.EXPORTED)
    used: set[str] = set()
    for card in reach_content.cards:
        code = compile_card(card, "compiled").code
        if code is not None:
            used |= set(re.findall(r"\brt\.(\w+)", code.source))
    assert used, "no card generated any runtime call"
    assert sorted(used - set(runtime.EXPORTED)) == []
