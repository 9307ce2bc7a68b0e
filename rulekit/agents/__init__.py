"""Who answers the core's questions: the scenario default, random, greedy, scripts."""

from __future__ import annotations

from rulekit.agents.base import Chooser, DefaultChooser, Question, RandomAgent, seed_streams

__all__ = ["Chooser", "DefaultChooser", "Question", "RandomAgent", "agent_names", "make_agent", "seat_agents"]


def agent_names() -> list[str]:
    return sorted(_factories())


def _factories():
    out = {"random": lambda seed, seat: RandomAgent(seed, seat),
           "default": lambda seed, seat: DefaultChooser()}
    from rulekit.agents.greedy import GreedyAgent

    out["greedy"] = lambda seed, seat: GreedyAgent(seed, seat)
    from rulekit.agents.mcts import MctsAgent, parse

    out["mcts"] = lambda seed, seat, options="": MctsAgent(seed, seat, **parse(options)) if options else MctsAgent(seed, seat)
    return out


def _split(name: str) -> tuple[str, str | None]:
    """An agent name, and its options when given: mcts:200 is mcts at 200 iterations a decision (rulekit.agents.mcts
    documents the rest: mcts:50ms, horizon=R, rollout=greedy|random)."""
    base, sep, options = name.partition(":")
    if not sep:
        return name, None
    if base != "mcts":
        raise ValueError(f"'{name}': only mcts takes a budget, a whole number of iterations (mcts:200)")
    from rulekit.agents.mcts import parse

    try:
        parse(options)
    except ValueError as err:
        raise ValueError(f"'{name}': {err}") from None
    return base, options


def make_agent(name: str, seed: int, seat: int) -> Chooser:
    factories = _factories()
    base, budget = _split(name)
    if base not in factories:
        raise ValueError(f"unknown agent '{name}' (known: {', '.join(sorted(factories))})")
    if budget is not None:      # agents get a stream of generators, never the seed
        return factories[base](seed_streams(seed), seat, budget)
    return factories[base](seed_streams(seed), seat)


def seat_agents(names: list[str], players: int) -> list[str]:
    """One agent name for every seat, or one per seat; a ValueError in plain words otherwise."""
    known = agent_names()
    for name in names:
        if _split(name)[0] not in known:
            raise ValueError(f"unknown agent '{name}' (known: {', '.join(known)})")
    if len(names) == 1:
        return names * players
    if len(names) != players:
        raise ValueError(f"{len(names)} agents named for {players} players: name one agent, or one per seat")
    return list(names)
