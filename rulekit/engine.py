"""Assembling and playing games: the one place where content, rules and compiled cards meet the core.

`make_game` compiles a content (rulekit.interpreter), checks a rules mapping given in Python as rules.yaml is
(rulekit.content), builds the decks and hands the core a Game; `new_game` and `run_game` do the same with
agents by name (what `play`, `playtest` and the API share). The core itself imports none of these stages.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from rulekit.agents import make_agent, seat_agents
from rulekit.content.rules import read_rules
from rulekit.content.yamlpos import Located
from rulekit.core.errors import EffectError
from rulekit.core.game import Game
from rulekit.core.questions import Chooser
from rulekit.core.result import GameResult
from rulekit.core.rules import Rules
from rulekit.core.state import GameState
from rulekit.interpreter import compile_content
from rulekit.language.checker import Checked
from rulekit.language.diagnostics import ContentError
from rulekit.model import Card, Content

Unlock = tuple[dict[str, Checked], dict[str, str]]      # checked unlock conditions by stage, and the file of each


def make_game(content: Content, seed: int, choosers: Sequence[Chooser], *, players: int | None = None,
              rules: Mapping[str, Any] | None = None, evaluator: str = "compiled",
              log: list[dict[str, Any]] | None = None, combos: Sequence[Card] | None = None, verbose: bool = False,
              unlock: Unlock | None = None) -> Game:
    """A game at its very start (before setup), with decks built from the content.

    `rules` replaces the content's rules mapping: it is checked as rules.yaml is (ContentError
    on a mistake), and its unlock conditions are the ones played. `unlock` (parsed conditions,
    and the file of each) replaces the content's unlock conditions (scenarios read their own).
    """
    if rules is not None and unlock is None and rules is not content.rules:
        unlock = rules_given(content, rules)
    rules_dict = dict(rules) if rules is not None else content.rules
    typed = Rules.from_dict(rules_dict)
    n = players or typed.players
    if not 2 <= n <= 4:
        raise ValueError(f"a table has 2 to 4 players, not {n}")
    program = compile_content(content, rules_dict, evaluator, list(combos) if combos is not None else None, unlock)
    state = GameState(n, seed, {name: b[2] for name, b in typed.bounds})
    for card in content.of_kind("policy"):
        if card.stage in state.decks:
            state.decks[card.stage].extend([card] * card.copies)
    for card in content.of_kind("event"):
        state.event_deck.extend([card] * card.copies)
    state.advisor_deck = list(content.of_kind("advisor"))
    return Game(program, typed, state, choosers, log=log, verbose=verbose)


def new_game(content: Content, seed: int, agents: Sequence[str], *, players: int | None = None,
             evaluator: str = "compiled", log: list[dict[str, Any]] | None = None,
             rules: Mapping[str, Any] | None = None, verbose: bool = False) -> Game:
    """A game at its start, one agent per seat made by name and seeded by (seed, seat)."""
    if rules is not None:
        rules_given(content, rules)           # checked first, as rules.yaml is: ContentError on a mistake
    n = players or Rules.from_dict(rules or content.rules).players
    names = seat_agents(list(agents) or ["random"], n)
    choosers = [make_agent(name, seed, seat) for seat, name in enumerate(names)]
    return make_game(content, seed, choosers, players=n, rules=rules, evaluator=evaluator, log=log, verbose=verbose)


def run_game(content: Content, seed: int, agents: Sequence[str], *, players: int | None = None,
             evaluator: str = "compiled", log: list[dict[str, Any]] | None = None,
             rules: Mapping[str, Any] | None = None) -> GameResult:
    """Play one game to the end; an effect that fails ends it with end_reason 'error'."""
    game = new_game(content, seed, agents, players=players, evaluator=evaluator, log=log, rules=rules)
    error = None
    try:
        game.run()
    except EffectError as err:
        error = err
    return result_of(game, error)


def result_of(game: Game, error: EffectError | None = None) -> GameResult:
    st = game.state
    ps = st.seats
    return GameResult(
        seed=st.seed,
        players=st.players,
        agents=tuple(c.name for c in game.choosers),
        advisors=tuple(p.advisor.id if p.advisor else None for p in ps),
        winners=() if error else game.winners(),
        scores=tuple(p.score for p in ps),
        alive=tuple(game.count(p.seat, "alive") for p in ps),
        rounds=st.round,
        end_reason="error" if error else (st.end_reason or "unfinished"),
        out=tuple(p.out for p in ps),
        cards_drawn=tuple(tuple(p.drawn_ids) for p in ps),
        cards_played=tuple(tuple(p.played_ids) for p in ps),
        events=tuple(st.events_drawn),
        combos_fired=tuple(st.combos_log),
        score_history=tuple(st.score_history),
        error=str(error) if error else None,
        error_card=error.card.id if error is not None and error.card is not None else None,
    )


# ---- a rules mapping given in Python ------------------------------------------------------------------------
RULES_GIVEN = "<the rules given to new_game>"
_given_cache: dict[tuple[int, str], tuple[Content, Unlock]] = {}


def rules_given(content: Content, rules: Mapping[str, Any]) -> Unlock:
    """A rules mapping given in Python, checked as rules.yaml is, once per content and mapping: the
    unlock conditions in force (its own, else the content's). ContentError names every mistake."""
    try:
        text = json.dumps(rules, sort_keys=True, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(rules)                  # not plain data: the schema check below names what is wrong
    key = (id(content), text)
    hit = _given_cache.get(key)
    if hit is not None and hit[0] is content:
        return hit[1]
    given, diags = read_rules(Located.plain(dict(rules), RULES_GIVEN),
                              lambda kind, ref: content.lookup(ref, kind) is not None)
    errors = [d for d in diags if d.severity == "error"]
    if errors:
        raise ContentError(errors)
    unlock, files = dict(content.unlock), dict(content.unlock_files)
    unlock.update(given)
    files.update(dict.fromkeys(given, RULES_GIVEN))
    if len(_given_cache) > 16:
        _given_cache.clear()
    _given_cache[key] = (content, (unlock, files))
    return unlock, files
