"""Playing whole games: agents by name in, a GameResult out (what `play` and `playtest` share)."""

from __future__ import annotations

from rulekit.agents import make_agent, seat_agents
from rulekit.core.errors import EffectError
from rulekit.core.game import Game
from rulekit.core.result import GameResult


def new_game(content, seed: int, agents: list[str], *, players: int | None = None,
             evaluator: str = "compiled", log: list | None = None, rules: dict | None = None) -> Game:
    n = players or int((rules or content.rules).get("players", 4))
    names = seat_agents(list(agents) or ["random"], n)
    choosers = [make_agent(name, seed, seat) for seat, name in enumerate(names)]
    return Game(content, seed, choosers, players=n, rules=rules, evaluator=evaluator, log=log)


def run_game(content, seed: int, agents: list[str], *, players: int | None = None,
             evaluator: str = "compiled", log: list | None = None, rules: dict | None = None) -> GameResult:
    """Play one game to the end; an effect that fails ends it with end_reason 'error'."""
    game = new_game(content, seed, agents, players=players, evaluator=evaluator, log=log, rules=rules)
    error = None
    try:
        game.play()
    except EffectError as err:
        error = err
    return result_of(game, error)


def result_of(game: Game, error: EffectError | None = None) -> GameResult:
    ps = game.ps
    return GameResult(
        seed=game.seed,
        players=game.players,
        agents=tuple(c.name for c in game.choosers),
        advisors=tuple(p.advisor.id if p.advisor else None for p in ps),
        winners=() if error else game.winners(),
        scores=tuple(p.score for p in ps),
        alive=tuple(game.count(p.seat, "alive") for p in ps),
        rounds=game.round,
        end_reason="error" if error else (game.end_reason or "unfinished"),
        out=tuple(p.out for p in ps),
        cards_drawn=tuple(tuple(p.drawn_ids) for p in ps),
        cards_played=tuple(tuple(p.played_ids) for p in ps),
        events=tuple(game.events_drawn),
        combos_fired=tuple(game.combos_log),
        score_history=tuple(game.score_history),
        error=str(error) if error else None,
        error_card=error.card.id if error is not None and error.card is not None else None,
    )
