"""Playing whole games: agents by name in, a GameResult out (what `play`, `playtest` and the API share)."""

from __future__ import annotations

from rulekit.agents import make_agent, seat_agents
from rulekit.core.errors import EffectError
from rulekit.core.game import Game
from rulekit.core.result import GameResult


def new_game(content, seed: int, agents: list[str], *, players: int | None = None,
             evaluator: str = "compiled", log: list | None = None, rules: dict | None = None,
             verbose: bool = False) -> Game:
    """A game at its start, one agent per seat made by name and seeded by (seed, seat)."""
    from rulekit.core.game import rules_given
    from rulekit.core.rules import Rules

    if rules is not None:
        rules_given(content, rules)           # checked first, as rules.yaml is: ContentError on a mistake
    n = players or Rules.from_dict(rules or content.rules).players
    names = seat_agents(list(agents) or ["random"], n)
    choosers = [make_agent(name, seed, seat) for seat, name in enumerate(names)]
    return Game.new(content, seed, choosers, players=n, rules=rules, evaluator=evaluator, log=log, verbose=verbose)


def run_game(content, seed: int, agents: list[str], *, players: int | None = None,
             evaluator: str = "compiled", log: list | None = None, rules: dict | None = None) -> GameResult:
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
