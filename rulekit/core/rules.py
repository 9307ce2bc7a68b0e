"""The rules in force for one game, typed: rules.yaml's numbers and choices read once, defaults in one place."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rulekit import registry


_D = registry.DEFAULT_RULES


@dataclass(frozen=True)
class Rules:
    """Every `rules.yaml` parameter the core reads (docs/rules.md names each key), its default the registry's."""

    players: int = _D["players"]
    infected_per_player: int = _D["tiles"]["infected_per_player"]
    shuffle: str = _D["tiles"]["shuffle"]                     # global | per_player
    hand_limit: int | None = _D["hand_limit"]
    reveal: str = _D["setup"]["reveal"]
    first_player: str = _D["first_player"]                   # rotate | fixed
    mild_cost: int = _D["treatment"]["mild_cost"]
    severe_cost: int = _D["treatment"]["severe_cost"]
    discovery: int = _D["discovery"]["per_round"]
    auction: str = _D["exchange"]["auction"]
    combos_repeat: str = _D["combos"]["repeat"]               # once | every_round
    max_rounds: int = _D["max_rounds"]
    max_actions: int = _D["actions"]["max_per_phase"]
    out_players_can_win: bool = _D["out_players_can_win"]
    # (lowest, highest, start) of every track a statement may change, money included.
    bounds: tuple[tuple[str, tuple[int, int, int]], ...] = ()

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Rules:
        """The typed rules of a merged rules mapping (content/rules.yaml over the defaults)."""

        def get(*path: str) -> Any:
            """The value at a key path, the default's where the mapping leaves it out."""
            here: Any = d
            for key in path:
                here = here.get(key) if isinstance(here, Mapping) else None
                if here is None:
                    break
            if here is None:
                here = _D
                for key in path:
                    here = here[key]
            return here

        hand_limit = get("hand_limit")
        return cls(
            players=int(get("players")),
            infected_per_player=int(get("tiles", "infected_per_player")),
            shuffle=str(get("tiles", "shuffle")),
            hand_limit=None if hand_limit is None else int(hand_limit),
            reveal=str(get("setup", "reveal")),
            first_player=str(get("first_player")),
            mild_cost=int(get("treatment", "mild_cost")),
            severe_cost=int(get("treatment", "severe_cost")),
            discovery=int(get("discovery", "per_round")),
            auction=str(get("exchange", "auction")),
            combos_repeat=str(get("combos", "repeat")),
            max_rounds=int(get("max_rounds")),
            max_actions=int(get("actions", "max_per_phase")),
            out_players_can_win=bool(get("out_players_can_win")),
            bounds=track_bounds(d),
        )

    def bound(self, track: str) -> tuple[int, int, int]:
        return _BOUNDS[self.bounds][track]


class _BoundsByTrack(dict[tuple[tuple[str, tuple[int, int, int]], ...], dict[str, tuple[int, int, int]]]):
    """(lowest, highest, start) by track name, made once for each bounds tuple a Rules holds."""

    def __missing__(self, bounds: tuple[tuple[str, tuple[int, int, int]], ...]) -> dict[str, tuple[int, int, int]]:
        by_name = self[bounds] = dict(bounds)
        return by_name


_BOUNDS = _BoundsByTrack()


def track_bounds(d: Mapping[str, Any]) -> tuple[tuple[str, tuple[int, int, int]], ...]:
    """(lowest, highest, start) of each settable track: rules.yaml over the registry's ranges.

    A track's range never exceeds the number limit, so no number content can grow is unbounded.
    """
    given = d.get("tracks")
    tracks: Mapping[str, Any] = given if isinstance(given, Mapping) else {}
    cap = registry.MAX_NUMBER
    out = []
    for name, t in registry.SETTABLE.items():
        o = tracks.get(name) or (d.get("money") if name == "money" else None)
        o = o if isinstance(o, Mapping) else {}
        lo = o.get("min", t.lo)
        hi = o.get("max", t.hi)
        lo = -cap if lo is None else max(-cap, int(lo))
        hi = cap if hi is None else min(cap, int(hi))
        out.append((name, (lo, hi, int(o.get("start", t.start)))))
    return tuple(out)
