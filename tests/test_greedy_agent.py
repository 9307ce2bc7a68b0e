"""The greedy agent's shortcuts decide as the plain reading of its rules would, and cost no memory.

It draws its tie-breaks without random.Random.choice, and reads the action menu from both ends
only; if either assumption broke, its games would change without any rule changing. Its
estimates, generated once per card, go when the card's content goes.
"""

from __future__ import annotations

import random

from rulekit.agents.greedy import GreedyAgent
from rulekit.engine import make_game
from tests.conftest import CONTENT, ENGINE_CONTENT


def test_tie_breaks_draw_as_random_choice():
    """below(n) picks the index random.Random.choice would, and leaves the generator in the same state."""
    agent = GreedyAgent(7, 1)
    reference = random.Random()
    for n in [1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 26, 33, 100] * 40:
        reference.setstate(agent.rng.getstate())
        want = reference.choice(range(n))
        assert agent.below(n) == want
        assert agent.rng.getstate() == reference.getstate()


def test_best_picks_as_the_plain_rule():
    """best() is `rng.choice` over the options within 1e-9 of the top, with the same draws: near ties
    of floats included, and whole numbers (where only equals tie) taken the short way."""
    agent, reference = GreedyAgent(3, 0), random.Random()
    pick = random.Random(11)
    for _ in range(400):
        n = pick.randint(1, 9)
        whole = pick.random() < 0.5
        if whole:
            values = [pick.randint(-3, 3) for _ in range(n)]
        else:
            values = [pick.choice([0.25, 1, 1.0 - 1e-10, 2.5, 2.5 + 5e-10, -0.0, 0.0]) for _ in range(n)]
        indexes = sorted(pick.sample(range(40), n)) if pick.random() < 0.5 else None
        reference.setstate(agent.rng.getstate())
        low = max(values) - 1e-9
        want = reference.choice([k for v, k in zip(values, indexes or range(n), strict=False) if v >= low])
        assert agent.best(values, indexes, whole=whole) == want, values
        assert agent.rng.getstate() == reference.getstate()


RANK = {"pass": 0, "bury": 1, "relocate": 2, "play": 3, "execute": 3, "switch": 3}


class MenuReader(GreedyAgent):
    """A greedy player that checks, at each action, that the menu is pass, then burials, then
    relocations, then cards: the agent reads it from both ends and skips the relocations unread."""

    def __init__(self, seed: int, seat: int, seen: list):
        super().__init__(seed, seat)
        self.seen = seen

    def on_action(self, obs, q):
        ranks = [RANK[o[0]] for o in q.options]
        assert ranks[0] == 0 and 0 not in ranks[1:] and ranks == sorted(ranks), [o[0] for o in q.options]
        self.seen.append(ranks.count(2))
        return super().on_action(obs, q)


def test_the_action_menu_keeps_relocations_together(content):
    seen: list[int] = []
    for seed, players in ((1, 4), (2, 3), (3, 2)):
        make_game(content, seed, [MenuReader(seed, s, seen) for s in range(players)], players=players).run()
    assert sum(1 for n in seen if n) > 20, "the games must have offered relocations"


def test_a_dropped_content_takes_its_compiled_estimates_along():
    """Playtests and notebooks load content again and again: the per-card estimates must not keep
    old cards (and their generated code) alive."""
    import gc
    import weakref

    from rulekit.agents import estgen
    from rulekit.content.loader import load_content

    content = load_content(CONTENT)
    for card in content.cards:
        estgen.of(card)
    watched, made, before = weakref.ref(content.cards[0]), len(content.cards), len(estgen._cache)
    del content, card
    gc.collect()
    assert watched() is None
    assert len(estgen._cache) <= before - made


# ---- the estimate keeps to the game's limits (registry.LIMITS) ------------------------------------------

def _snapshot(engine_content):
    from rulekit.agents import estimate as E
    from rulekit.agents import make_agent
    from rulekit.core.table import Table, set_table

    game = make_game(engine_content, 1, [make_agent("default", 1, s) for s in range(4)])
    set_table(game, Table())
    return E.Snapshot(game.observation(0), 0)


def _advisor(text: str):
    from rulekit.model import Card
    from rulekit.language.parser import parse_effect

    program, problems = parse_effect(text)
    assert program is not None, problems
    return Card(kind="advisor", id="probe", name="探", effect=program)


def test_a_number_past_the_ceiling_is_worth_nothing_to_the_estimate(engine_content):
    """The game stops at `money += 99999 * 99999` (past ±1,000,000,000): the estimate does not count
    9,999,800,001 coins for it, in the reference reading or the generated one."""
    from rulekit.agents import estgen
    from rulekit.agents import estimate as E

    card = _advisor("on setup:\n  let a = 99999\n  money += a * a\n  medical += 1\n")
    snap = _snapshot(engine_content)
    acc = E.Walker(snap).run(card.effect.handlers[0].body)
    assert (acc.d["money"], acc.d["medical"]) == (0.0, 1)
    assert estgen.of(card).setup(snap) == E.worth(acc, snap)


def test_a_reading_with_many_choices_keeps_to_one_effect_s_steps(engine_content):
    """Fourteen `may:` in a row weigh 2^14 ways; the reading stops counting at the effect step limit."""
    from rulekit import registry
    from rulekit.agents import estgen
    from rulekit.agents import estimate as E

    card = _advisor("on setup:\n" + "  may:\n    money += 1\n" * 14)
    snap = _snapshot(engine_content)
    limit = registry.LIMITS["effect_steps"].value
    reference = E.worth(E.Walker(snap).run(card.effect.handlers[0].body), snap)
    assert limit < snap.work < limit + 30, "past the limit, only the choices under way are closed"
    assert estgen.of(card).setup(snap) == reference
    assert limit < snap.work < limit + 30


def test_advisors_that_square_a_number_26_times_stop_the_game_at_once(tmp_path):
    """The greedy draft weighs each advisor's `on setup`: ten that square 3 twenty-six times must not
    hang `rulekit play` (run apart, with a timeout, so a regression fails instead of hanging)."""
    import shutil
    import subprocess
    import sys

    root = tmp_path / "content"
    shutil.copytree(ENGINE_CONTENT, root)
    lines = ["on setup:", "  let a0 = 3", *(f"  let a{k + 1} = a{k} * a{k}" for k in range(26)), "  money += a26"]
    effect = "\\n".join(lines)
    (root / "advisors" / "advisors.yaml").write_text(
        "".join(f'- {{id: square{k}, name: 方{k}, flavor: squares, effect: "{effect}\\n"}}\n' for k in range(10)),
        encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "rulekit", "play", "--content", str(root), "--seed", "1"],
                          capture_output=True, text=True, timeout=60)
    said = done.stdout + done.stderr
    assert "The game stopped: 方" in said and "a number beyond the limit of ±1,000,000,000" in said, said[-3000:]
