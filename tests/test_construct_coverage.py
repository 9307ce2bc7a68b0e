"""Issue #3: every construct of the effect language is exercised by a scenario test.

The effects of every card the scenario files use are parsed and their syntax trees walked:
the cards under `cards:` in tests/scenarios/*.scenario.yaml, and the cards of the tests' deck
(tests/fixtures/deck) the scenarios name (advisors, hands, tableaus, events, `play`/`event`
steps, `combos:`). Every statement type of `rulekit.language.ast`, every handler form, amount
mode, predicate, function, quantity, trigger, verb, value and phase of `rulekit.registry` (and the other forms
listed in `_required`: operators, kinds, card kinds, if/elif/else, draw with and without keep…)
must appear at least once, so a construct nobody tests is reported by name and coverage cannot
quietly drift.
"""

from __future__ import annotations

import dataclasses
import typing
from collections import defaultdict
from pathlib import Path

import pytest
import yaml

from rulekit import registry
from rulekit.content.loader import load_content
from rulekit.language import ast
from rulekit.language.parser import parse_effect, parse_expression
from tests.conftest import CONTENT

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = sorted((ROOT / "tests" / "scenarios").glob("*.scenario.yaml"))
SEATS = ("P1", "P2", "P3", "P4")


# ---- which cards the scenarios use -----------------------------------------------------------------------

def _content_refs(data: dict) -> list[str]:
    """Every content card a scenario names (by id or name)."""
    refs: list[str] = []
    setup = data.get("setup") or {}
    for seat in SEATS:
        given = setup.get(seat) or {}
        if given.get("advisor"):
            refs.append(given["advisor"])
        refs += list(given.get("hand") or []) + list(given.get("tableau") or [])
    refs += list(setup.get("events") or [])
    refs += list(data.get("combos") or [])
    for step in data.get("steps") or []:
        if "play" in step:
            refs.append(step["play"]["card"])
        if "event" in step:
            refs.append(step["event"])
    return refs


def _used_trees() -> dict[str, tuple[str, list[ast.Node]]]:
    """{card label: (its kind, [its effect Program, its combo `when:` expression])} for every card a scenario uses."""
    content = load_content(CONTENT)
    trees: dict[str, tuple[str, list[ast.Node]]] = {}
    problems: list[str] = []
    for path in SCENARIOS:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        own = {}
        for card in data.get("cards") or []:
            label = f"{path.name}: {card.get('id')}"
            own[card.get("id")] = own[card.get("name")] = label
            found: list[ast.Node] = []
            if card.get("effect"):
                program, diags = parse_effect(card["effect"])
                if program is None or diags:
                    problems.append(f"{label}: the effect does not parse: {[str(d) for d in diags]}")
                else:
                    found.append(program)
            if card.get("when"):
                expr, diags = parse_expression(card["when"])
                if expr is None or diags:
                    problems.append(f"{label}: `when:` does not parse")
                else:
                    found.append(expr)
            trees[label] = (card.get("kind"), found)
        for ref in _content_refs(data):
            if ref in own:
                continue
            card = content.lookup(ref)
            if card is None:
                problems.append(f"{path.name}: '{ref}' is neither a test card nor a card of the tests' deck")
                continue
            trees.setdefault(card.label, (card.kind, [t for t in (card.effect, card.when) if t is not None]))
    assert not problems, "\n".join(problems)
    return trees


# ---- walking a tree ----------------------------------------------------------------------------------------

def _nodes(node):
    """Every AST node under (and including) node."""
    if isinstance(node, ast.Node):
        yield node
        for f in dataclasses.fields(node):
            yield from _nodes(getattr(node, f.name))
    elif isinstance(node, tuple):
        for x in node:
            yield from _nodes(x)


def _observe(trees: dict[str, tuple[str, list[ast.Node]]]) -> dict[str, set[str]]:
    """{category: the constructs seen}."""
    seen: dict[str, set[str]] = defaultdict(set)
    add = lambda cat, word: seen[cat].add(word)  # noqa: E731
    for kind, roots in trees.values():
        add("card kinds", kind)
        for node in (n for root in roots for n in _nodes(root)):
            add("node types", type(node).__name__)
            match node:
                case ast.Handler(form=form, event=event, edge=edge):
                    add("handler forms", form)
                    if form == "on" and event in registry.PHASES:
                        add("phases", event)
                        add("phase edges", edge)
                    elif form == "on" and f"{event} {edge}" == registry.GAME_END.name:
                        add("moments", "on game end")
                    elif form == "react" and event in registry.REACT_MOMENTS:
                        add("moments", "react at a phase moment")
                    elif form != "on":
                        add("triggers", event)
                case ast.Modify(quantity=q, floor=floor, cond=cond):
                    add("quantities", q)
                    add("modify forms", "min N" if floor is not None else "plain")
                    if cond is not None:
                        add("while forms", "modify")
                case ast.Shield(targets=targets, sources=sources, cond=cond):
                    for t, _ in targets:
                        add("shield targets", t)
                    for source, _ in sources:
                        add("shield sources", source)
                    if cond is not None:
                        add("while forms", "shield")
                case ast.Seal(target=t, direction=direction, cond=cond):
                    add("seal targets", t)
                    add("seal directions", direction)
                    if cond is not None:
                        add("while forms", "seal")
                case ast.Skip(step=step, cond=cond):
                    add("skipped steps", step)
                    if cond is not None:
                        add("while forms", "skip")
                case ast.Limit(which=which, cond=cond):
                    add("track limits", which)
                    if cond is not None:
                        add("while forms", which)
                case ast.Transfer(direction=direction, what=what):
                    add("transfers", direction)
                    add("transferred", "cards" if what in registry.HAND_WORDS else "a track")
                case ast.CountOf(what=what):
                    add("tags" if what in registry.CELL_TAGS else "countable", what)
                case ast.Tag(tag=tag):
                    add("tags", tag)
                case ast.Amount(mode=mode):
                    add("amount modes", mode)
                case ast.VerbStmt(verb=verb, kind=kind, as_name=as_name):
                    add("verbs", verb)
                    if kind != "tiles":
                        add("kinds", kind)
                    if as_name is not None:
                        add("as names", f"{verb} … as")
                case ast.VerbIt(verb=verb):
                    add("verbs", verb)
                    add("it verbs", verb)
                case ast.Pay(as_name=as_name):
                    add("as names", "pay … as" if as_name else "pay")
                case ast.Draw(keep=keep):
                    add("draw forms", "keep" if keep is not None else "no keep")
                case ast.If(branches=branches, orelse=orelse):
                    add("if forms", "if")
                    if len(branches) > 1:
                        add("if forms", "elif")
                    if orelse is not None:
                        add("if forms", "else")
                case ast.EachPlayer(other=other, where=where):
                    add("each player forms", ("each other player" if other else "each player")
                        + (" where" if where is not None else ""))
                case ast.PlayerWith(which=which):
                    add("superlatives", which)
                case ast.TrackChange(track=track, op=op):
                    add("tracks", track)
                    add("track ops", op)
                case ast.Call(func=func):
                    add("predicates" if func in registry.PREDICATES else
                        "aggregates" if func in registry.AGGREGATES else "functions", func)
                case ast.Name(name=name):
                    if name in registry.CARD_VALUES:
                        add("card values", name)
                    if name in registry.VALUES:
                        add("values", name)
                    if name in registry.COUNTS:
                        add("counts", name)
                    if name in registry.SETTABLE:
                        add("tracks read", name)
                case ast.BinOp(op=op) | ast.Compare(op=op) | ast.BoolOp(op=op):
                    add("operators", op)
                case ast.Neg():
                    add("operators", "unary -")
                case ast.Not():
                    add("operators", "not")
    return seen


# Node types no card can use to any effect, with the reason. `it` as a *value* (an ast.It node)
# type-checks only as the whole right side of `let NAME = it`, and the name can then be used
# nowhere (arithmetic, comparisons, conditions and predicate arguments all reject a cell or a
# card: RK225-RK227); `VERB it` is an ast.VerbIt node and is required below.
NOT_REQUIRED = {"It"}


def _required() -> dict[str, set[str]]:
    """{category: every construct that must be seen}."""
    stmt_types = {t.__name__ for t in typing.get_args(ast.Stmt)}
    item_types = {t.__name__ for t in typing.get_args(ast.Item)}
    expr_types = {t.__name__ for t in typing.get_args(ast.Expr)} - NOT_REQUIRED
    return {
        "node types": stmt_types | item_types | expr_types | {"Amount", "Program"},
        "card kinds": set(registry.CARD_KINDS),
        "handler forms": {"on", "when", "once", "react"},
        "phases": set(registry.PHASES),
        "phase edges": {"start", "end"},
        "triggers": set(registry.TRIGGERS),
        "quantities": set(registry.QUANTITIES),
        "modify forms": {"min N", "plain"},
        "shield targets": set(registry.SHIELDABLE),
        "seal targets": set(registry.SEALABLE),
        "shield sources": set(registry.SHIELD_SOURCES),
        "seal directions": set(registry.SEAL_DIRECTIONS),
        "track limits": set(registry.TRACK_LIMITS),
        "while forms": {"modify", "shield", "seal", "skip", "ceiling"},
        "amount modes": {"n", "all", "any", "up_to"},
        "verbs": set(registry.VERBS) | set(registry.TILE_VERBS) | set(registry.IT_ONLY_VERBS) | set(registry.EVENT_VERBS),
        "it verbs": {"discard", "cure", "remove"},
        "kinds": set(registry.KINDS),
        "as names": {"pay … as"} | {f"{v} … as" for v in ("remove", "kill", "treat", "reveal")},
        "draw forms": {"keep", "no keep"},
        "if forms": {"if", "elif", "else"},
        "each player forms": {"each player", "each player where", "each other player", "each other player where"},
        "superlatives": set(registry.SUPERLATIVES),
        "tracks": set(registry.SETTABLE),
        "track ops": {"+=", "-=", "="},
        "predicates": set(registry.PREDICATES),
        "functions": set(registry.FUNCTIONS),
        "values": set(registry.VALUES),
        "counts": set(registry.COUNTS),
        "operators": {"+", "-", "*", "//", "==", "!=", "<", "<=", ">", ">=", "and", "or", "not", "unary -"},
        "skipped steps": set(registry.SKIPPABLE),
        "transfers": set(registry.TRANSFERS),
        "transferred": {"cards", "a track"},
        "countable": set(registry.COUNTABLE),
        "aggregates": set(registry.AGGREGATES),
        "card values": set(registry.CARD_VALUES),
        "tags": set(registry.CELL_TAGS),
        "moments": {"on game end", "react at a phase moment"},
    }


@pytest.fixture(scope="module")
def seen() -> dict[str, set[str]]:
    return _observe(_used_trees())


def test_the_scenarios_are_found():
    assert SCENARIOS, f"no *.scenario.yaml under {ROOT / 'tests' / 'scenarios'}"


def test_every_construct_is_exercised_by_a_scenario(seen):
    missing = {cat: sorted(words - seen.get(cat, set())) for cat, words in _required().items()}
    missing = {cat: words for cat, words in missing.items() if words}
    assert not missing, "constructs no scenario exercises:\n" + "\n".join(
        f"  {cat}: {', '.join(words)}" for cat, words in missing.items())


# Which required category covers each section of registry.all_words() (the docs' vocabulary).
SECTIONS = {
    "tracks": "tracks", "counts": "counts", "values": "values", "kinds": "kinds", "verbs": "verbs",
    "triggers": "triggers", "phases": "phases", "quantities": "quantities", "predicates": "predicates",
    "functions": "functions", "superlatives": "superlatives", "shieldable": "shield targets",
    "sealable": "seal targets", "card kinds": "card kinds", "skippable": "skipped steps",
    "aggregates": "aggregates", "countable": "countable", "card values": "card values", "transfers": "transfers",
    "shield sources": "shield sources", "seal directions": "seal directions", "track limits": "track limits",
    "tags": "tags",
}


def test_the_requirement_follows_the_registry():
    """A word added to the registry is required at once; a new section of it must be mapped here."""
    required = _required()
    words = registry.all_words()
    assert set(words) - {"statements"} == set(SECTIONS), "map the new registry section in SECTIONS"
    for section, category in SECTIONS.items():
        assert set(words[section]) <= required[category], (section, category)
    # the statements section is covered by the AST's statement node types
    assert {t.__name__ for t in typing.get_args(ast.Stmt)} <= required["node types"]
