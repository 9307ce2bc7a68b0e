"""The greedy agent's generated estimate (rulekit.agents.estgen) and the reference reading
(rulekit.agents.estimate.Walker) give the same numbers to the last bit, for every card.

The cards are the shipped content, every card written in a scenario file (together they use
every construct of the effect language, tests/test_construct_coverage.py), the corpus and the
probe cards of tests/fixtures; the positions are questions met in real games of 2, 3 and 4
players. A difference here would make the greedy agent decide differently from the rules its
docs describe.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest
import yaml

from rulekit.agents import estgen
from rulekit.agents import estimate as E
from rulekit.agents.greedy import GreedyAgent
from rulekit.model import Card
from rulekit.engine import make_game
from rulekit.language import ast
from rulekit.language.parser import parse_effect
from rulekit.language.visitor import STATEMENTS

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ("corpus", "probes")
ANSWERS = {"may": (True, False), "choose": (0, 1, 3), "amount": (0, 2, 5), "player": (0, 1), "roll": (1, 3.5, 6)}
# Corners no shipped or scenario card needs: answers worth the same (the first is kept), a
# statement that fails (skipped), a name bound only where its statement did not fail, a
# modifier that fails (the reading fails alike), chances inside conditions, numbers past the ceiling
# (the statement fails), and a reading stopped at the effect step limit part of the way through.
EDGES = (
    "on play:\n  let a = 99999\n  let b = a * a\n  money += b\n  let c = 40000\n  c += c * c\n  medical += 1",
    "on play:\n" + "  may:\n    money += 1\n    choose k from 0 to 2\n    score += k\n" * 9,
    "on play:\n  may:\n    prevent\n  choose k from 0 to 2\n  if k > 5:\n    prevent",
    "on play:\n  let x = 3 // (hand - hand)\n  score += x\n  medical += 2",
    "modify new_mild by 1 // (round - round)",
    # names that change across a player block, counted and compared players, a later block reading them
    ("on play:\n  let helped = 0\n  each other player where money >= lowest(money):\n    helped += 1\n"
     "    take 1 money as short\n    me:\n      score += short\n  after helped rounds:\n    medical += helped\n"
     "  economy += count(played where stage == 1 and price >= 2) + count(other player)"),
    "on play:\n  choose other player where hand > 0:\n    me:\n      give 1 cards\n  after 1 round:\n    prevent",
    "when event:\n  if event(\"游行示威\") or happened(\"病毒变异\"):\n    may pay 2:\n      prevent\n  money += 1",
    "react event:\n  prevent\non game end:\n  score += highest(score) - score",
    ("on play:\n  if event(\"阴谋论\") or happened(\"游行示威\"):\n    policy -= 3\n"
     "  elif not played(\"医院扩容\"):\n    may pay 2:\n      kill 1 healthy as n\n      score += n\n"
     "  else:\n    disease += 1"),
)


def scenario_cards() -> list[Card]:
    """Every card under `cards:` in the scenario files, parsed (ids may repeat between files)."""
    out = []
    for path in sorted((ROOT / "tests" / "scenarios").glob("*.scenario.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        for raw in (data or {}).get("cards") or []:
            program, _ = parse_effect(raw.get("effect") or "")
            if program is None:
                continue
            price = raw.get("price", ())
            out.append(Card(kind=raw.get("kind", "policy"), id=raw["id"], name=raw.get("name", raw["id"]),
                            effect=program, price=tuple(price) if isinstance(price, list) else (price,),
                            score=raw.get("score", 0), duration=raw.get("duration", "lasting"),
                            counters=tuple((raw.get("counters") or {}).items())))
    for k, text in enumerate(EDGES):
        program, problems = parse_effect(text)
        assert program is not None, problems
        out.append(Card(kind="policy", id=f"edge_{k}", name=f"edge {k}", effect=program, price=(1,), score=-1,
                        duration=2 if k % 2 else "lasting", counters=(("charges", 2),) if k % 3 == 0 else ()))
    return out


def fixture_cards() -> list[Card]:
    """The cards of the fixture content folders (the corpus, the probes)."""
    from rulekit.content.loader import load_content

    return [card for name in FIXTURES for card in load_content(ROOT / "tests" / "fixtures" / name).cards]


def same(a, b) -> bool:
    """Equal, of the same type, and of the same sign when zero: nothing downstream can tell them apart."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)
    return a == b


def fields(acc: E.Acc) -> list:
    return [acc.d[t] for t in E.TRACKS] + [acc.counts[s] for s in E.STATES] + [acc.extra, acc.dprevent, acc.up]


def outcome(fn, *args):
    """What a reading gives (a tuple as a list), or the kind of error it stops with."""
    try:
        out = fn(*args)
    except Exception as err:
        return ("raised", type(err).__name__)
    return list(out) if isinstance(out, tuple) else out


def agree(name: str, a, b, where: str) -> None:
    if isinstance(a, list) and isinstance(b, list):
        assert len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=False)), f"{where}: {name} {a} != {b}"
    else:
        assert same(a, b), f"{where}: {name} {a!r} != {b!r}"


def generated_acc(est, a: list) -> tuple[list, dict]:
    env = {n: a[k] for n, k in est.names.items() if a[k] is not estgen.UNBOUND}
    return a[:estgen.SLOTS], env


def generated_play(est, w, uses: int) -> list:
    w.uses = uses
    return est.play(w)


def forced_worth(run, w, kind: str, answer) -> float:
    w.uses, w.as_subject, w.fk, w.force = 2, kind != "player", kind, answer
    try:
        return estgen.worth(run(w), w)
    finally:
        w.as_subject, w.fk, w.force = False, None, None


def compare_card(obs, seat: int, card, where: str) -> None:
    est = estgen.of(card)
    w, r = E.Snapshot(obs, seat), E.Snapshot(obs, seat)
    at = f"{where}, {card.id}"
    for uses in (1, 2, 3):
        ref, got = outcome(E.on_play, card, r, uses), outcome(generated_play, est, w, uses)
        if isinstance(ref, E.Acc):
            a, env = generated_acc(est, got)
            agree("on play", fields(ref), a, f"{at}, uses {uses}")
            assert env == ref.env, f"{at}: names bound {env} != {ref.env}"
            agree("worth", E.worth(ref, r), estgen.worth(got, w), f"{at}, uses {uses}")
        else:
            agree("on play", ref, got, at)
        for again in (False, True):
            agree("play value", outcome(E.play_value, card, r, uses, again), outcome(est.value, w, uses, again),
                  f"{at}, uses {uses}, again {again}")
    for uses in (0, 1, 2, 3):
        agree("lasting", outcome(E.lasting, card, r, uses), outcome(est.lasting, w, uses), f"{at}, uses {uses}")
    agree("react", outcome(E.react_value, card, r), outcome(est.react, w), at)
    agree("setup", outcome(E.setup_value, card, r), outcome(est.setup, w), at)
    if card.kind == "event":
        agree("event", outcome(E.event_harm, card, r), outcome(estgen.harm, card, w), at)
    unseen = E.unseen_events(r)
    if unseen and any(h.event == "event" for h in E.handlers(card)):
        ev = unseen[-1][0]
        agree("react to an event", outcome(E.with_event, r, ev, lambda s: E.react_value(card, s), E.event_harm),
              outcome(E.with_event, w, ev, est.react, estgen.harm), at)
    for kind, (handler, run) in est.forced.items():
        trigger = handler.event if handler.form in ("when", "once", "react") else None
        for answer in ANSWERS[kind]:
            if kind == "player" and answer >= obs.players:
                continue
            walker = E.Walker(r, trigger=trigger, force=answer, force_kind=kind, uses=2, as_subject=kind != "player",
                              card=card)
            ref = outcome(lambda walker, body: E.worth(walker.run(body), r), walker, handler.body)
            agree(f"forced {kind}={answer!r}", ref, outcome(forced_worth, run, w, kind, answer), at)


class Probe(GreedyAgent):
    """A greedy player that, at some of its questions, weighs every card both ways first."""

    def __init__(self, seed: int, seat: int, cards: list, at: set[int], seen: list):
        super().__init__(seed, seat)
        self.cards, self.at, self.seen, self.n = cards, at, seen, 0

    def choose(self, obs, q):
        self.n += 1
        if self.n in self.at:
            where = f"seat {self.seat}, question {self.n} ({q.kind.value}), round {obs.round}"
            for card in self.cards:
                compare_card(obs, self.seat, card, where)
            self.seen.append(obs.round)
        return super().choose(obs, q)


@pytest.fixture(scope="module")
def cards(content):
    return list(content.cards) + scenario_cards() + fixture_cards()


@pytest.mark.parametrize("folder,players,seed", [("content", 2, 5), ("content", 3, 8), ("content", 4, 13),
                                                 ("tests/fixtures/probes", 4, 3)])
def test_generated_estimate_matches_the_reference(cards, folder, players, seed):
    from rulekit.content.loader import load_content

    content = load_content(ROOT / folder)
    seen: list[int] = []
    at = {3, 40, 90, 150}
    choosers = [Probe(seed, s, cards, at if s == seed % players else set(), seen) for s in range(players)]
    game = make_game(content, seed, choosers, players=players)
    game.run()
    assert len(seen) >= 3, "the probe must have weighed the cards at several points of a game"


def test_policy_utility_is_its_formula():
    """policy_utility, written with conditionals for speed, is the min/max formula it stands for, at the
    default floor of policy (-10) and at a floor a designer's rules.yaml may set."""
    def formula(p, rounds_left, floor):
        if p < floor:
            return -60.0
        if p >= 0:
            return 0.5 * min(p, 3) + 0.1 * max(0.0, p - 3)
        return p * 0.4 * min(rounds_left, 5) - 1.5 * max(0.0, floor // 2 - p) ** 2

    values = [k / 4 for k in range(-48, 48)] + list(range(-12, 12)) + [-0.0, 0.1 + 0.2, -7.3, 3.0000001]
    for floor in (-10, -5):
        for p in values:
            for rounds_left in range(1, 14):
                agree("policy utility", formula(p, rounds_left, floor), E.policy_utility(p, rounds_left, floor),
                      f"p={p!r} floor={floor}")
    assert E.policy_utility(-7, 5, -10) > -60.0 and E.policy_utility(-7, 5, -5) == -60.0


def test_every_construct_is_compared(cards):
    """Guard against a vacuous comparison: the cards compared hold choices of every kind, player blocks
    and lasting declarations."""
    kinds = set()
    for card in cards:
        kinds |= set(estgen.of(card).forced)
    assert kinds == set(ANSWERS)
    assert len(cards) > 100
    used = {type(s).__name__ for card in cards if card.effect is not None
            for h in card.effect.handlers for s in _statements(h.body)}
    assert used >= {t.__name__ for t in STATEMENTS}, "a statement of the language no compared card uses"
    assert any(card.counters for card in cards) and any(isinstance(card.duration, int) for card in cards)


def _statements(stmts):
    for s in stmts:
        yield s
        for body in ast.bodies(s):
            yield from _statements(body)
