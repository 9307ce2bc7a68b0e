"""The compiled evaluator and the tree-walking reference give identical games, decision by decision."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulekit.engine import make_game, new_game

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


# The cards of reach_moments.yaml (and advisors/moments.yaml): counters' first values, ...
MOMENTS_FIRED = {("remembrance", "on play"), ("remembrance", "on round end"), ("archivist", "on round end"),
                 ("cross_triage", "on play"), ("open_market", "on play"), ("all_clear", "once when becomes"),
                 ("watchman", "once when becomes")}


@pytest.mark.parametrize("block", range(2))
def test_the_language_s_reach_is_evaluated_alike(reach_content, block):
    """Cards using every newer construct (tests/fixtures/reach): the same games, effect for effect."""
    fired = set()
    chance: set = set()          # dice rolled and rerolls asked (tests/fixtures/reach/*/reach_chance, chance)
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
        # Declarations do not fire: a floor or ceiling that cut a change, a `while` modifier that applied.
        fired |= {(r["card"], f"held {r['track']}") for r in logs[0] if r["e"] == "held"}
        fired |= {(r["card"], "modifier") for r in logs[0] if r["e"] == "modifier"}
        chance |= {(r["card"], r["q"]) for r in logs[0] if r["e"] == "ask" and r["q"] == "reroll"}
        chance |= {(r["card"], "roll") for r in logs[0] if r["e"] == "roll"}
        chance |= {(r["card"], r["e"]) for r in logs[0] if r["e"] in ("looked", "reshuffled")}
        chance |= {(r["card"], r["q"]) for r in logs[0] if r["e"] == "ask" and r["q"] == "order"}
    assert {("extortion", "on play"), ("evacuation", "after"), ("grant", "react actions start"),
            ("retreat", "when event"), ("census", "when cure"), ("lockdown", "on game end"),
            ("baron", "on play"), ("news_team", "when play"), ("supply_crisis", "on resolve"),
            ("stipend", "on play"), ("stipend", "after"), ("patron", "on setup"), ("outbreak", "on play"),
            ("breach", "when reveal mild"), ("breach", "when death severe"), ("breach", "when cure"),
            ("round_table", "on play"), ("bystander", "when other unsold"), ("bystander", "when other cure"),
            ("bystander", "when other play"), ("bystander", "once when other play"), ("inquest", "on play"),
            ("inquest", "when cure")} <= fired
    assert {("safety_net", "held policy"), ("safety_net", "held disease"), ("boom_years", "modifier"),
            ("poison_fog", "on resolve"), ("poison_fog", "on round end")} <= fired
    # cells2 (tests/fixtures/reach/policies/reach_cells2.yaml)
    assert {("field_clinic", "on play"), ("field_clinic", "when reveal mild"), ("resurrection", "on play"),
            ("resurrection", "on round end"), ("export", "on play"), ("export", "on round start"),
            ("shelter", "on play"), ("shelter", "when reveal mild"), ("shelter", "on round end")} <= fired
    assert {("dice_gamble", "roll"), ("dice_gamble", "reroll"), ("fever", "roll"), ("fever", "reroll"),
            ("oracle", "looked"), ("oracle", "order"), ("rewind", "reshuffled")} <= chance
    assert {("oracle", "on play"), ("rewind", "on play"), ("rewind", "on round end")} <= fired
    assert fired >= MOMENTS_FIRED


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


# ---- a failing effect names the same line in both evaluators ------------------------------------------

ENGINE = Path(__file__).resolve().parent / "fixtures" / "engine"
# Each effect fails on a fresh table (no dead yet, so `// dead` divides by 0); the number is the
# effect's own line the failure must name, 1 being its first: the statement a designer looks at.
FAILING = {
    "loops past the step budget: the innermost loop": (
        "on income start:\n  money += 0\n  repeat 100:\n    repeat 100:\n      repeat 100:\n        money += 1\n", 5),
    "a failing `elif` condition: the `elif`": (
        "on income start:\n  if money > 100:\n    money += 1\n  elif 3 // dead > 1:\n    money += 1\n", 4),
    "a failing `where`: its statement": ("on income start:\n  each player where 3 // dead > 0:\n    money += 1\n", 2),
    "a value of `player with` on a line of its own: its statement": (
        "on income start:\n  player with highest (\n      3 // dead):\n    money += 1\n", 2),
    "a failing `choose player where`: its statement": (
        "on income start:\n  choose player where (\n      3 // dead > 0):\n    money += 1\n", 2),
    "an expression over two lines: its statement": ("on income start:\n  money += (1 +\n    3 // dead)\n", 2),
    "a modifier: the `modify` line": ("modify income by 3 // dead\n", 1),
    "an `after` block past the budget: its innermost loop": (
        "on income start:\n  after 1 rounds:\n    repeat 100:\n      repeat 100:\n        repeat 100:\n"
        "          money += 1\n", 5),
    "`after 0 rounds` computed: the `after` line": ("on income start:\n  let k = dead\n  after k rounds:\n    money += 1\n", 3),
    "a number past the limit: its statement": (
        "on income start:\n  let a = 9999\n  let b = a * a\n  if b > 0:\n    money += b * a\n", 5),
}
COMBO = "- id: broken_combo\n  name: 坏连击\n  when: 3 // dead > 0\n  effect: |\n    on resolve:\n      money += 1\n"


def failing_content(tmp_path: Path, effect: str, combo: bool = False):
    """The engine's fixture cards plus one stage-1 policy with this effect (and a broken combo)."""
    import shutil
    import textwrap

    from rulekit.content.loader import load_content

    root = tmp_path / "content"
    shutil.copytree(ENGINE, root)
    body = textwrap.indent(effect, "    ")
    (root / "policies" / "extra.yaml").write_text(
        f"- id: broken\n  name: 坏牌\n  stage: 1\n  price: 0\n  flavor: fails\n  effect: |\n{body}", encoding="utf-8")
    if combo:
        (root / "combos").mkdir()
        (root / "combos" / "extra.yaml").write_text(COMBO, encoding="utf-8")
    return load_content(root)


def failure(content, evaluator: str, tableau: tuple[str, ...]) -> str:
    """The message a table of random players stops with, every seat holding these cards."""
    from rulekit.agents import make_agent
    from rulekit.core.errors import EffectError
    from rulekit.core.table import Table, TableSeat, set_table

    game = make_game(content, 3, [make_agent("random", 3, s) for s in range(4)], evaluator=evaluator)
    cards = tuple(content.lookup(c) for c in tableau)
    set_table(game, Table(seats={s: TableSeat(tableau=cards) for s in range(4)}))
    with pytest.raises(EffectError) as err:
        for _ in range(3):
            game.run_round()
    return str(err.value)


@pytest.mark.parametrize("case", sorted(FAILING))
def test_a_failing_effect_names_the_same_line_in_both_evaluators(tmp_path, case):
    effect, line = FAILING[case]
    content = failing_content(tmp_path, effect)
    compiled, reference = (failure(content, ev, ("broken",)) for ev in ("compiled", "reference"))
    assert compiled == reference
    assert f"坏牌 (broken), {content.lookup('broken').file}:{6 + line}: " in compiled, compiled


def test_a_failing_combo_condition_names_its_when_line_in_both_evaluators(tmp_path):
    content = failing_content(tmp_path, "on play:\n  money += 1\n", combo=True)
    compiled, reference = (failure(content, ev, ()) for ev in ("compiled", "reference"))
    assert compiled == reference
    assert f"坏连击 (broken_combo), {content.lookup('broken_combo').file}:3: division by zero" in compiled, compiled
