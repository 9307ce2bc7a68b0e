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
    return out


def make_agent(name: str, seed: int, seat: int) -> Chooser:
    factories = _factories()
    if name not in factories:
        raise ValueError(f"unknown agent '{name}' (known: {', '.join(sorted(factories))})")
    return factories[name](seed_streams(seed), seat)     # agents get a stream of generators, never the seed


def seat_agents(names: list[str], players: int) -> list[str]:
    """One agent name for every seat, or one per seat; a ValueError in plain words otherwise."""
    known = agent_names()
    for name in names:
        if name not in known:
            raise ValueError(f"unknown agent '{name}' (known: {', '.join(known)})")
    if len(names) == 1:
        return names * players
    if len(names) != players:
        raise ValueError(f"{len(names)} agents named for {players} players: name one agent, or one per seat")
    return list(names)
