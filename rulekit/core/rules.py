"""The rules in force for one game, typed: rules.yaml's numbers and choices read once, defaults in one place."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rulekit import registry


@dataclass(frozen=True)
class Rules:
    """Every `rules.yaml` parameter the core reads (docs/rules.md names each key)."""

    players: int = 4
    infected_per_player: int = 5                # tiles.infected_per_player
    shuffle: str = "global"                     # tiles.shuffle: global | per_player
    hand_limit: int | None = None
    reveal: str = "corner_diagonal"             # setup.reveal
    first_player: str = "rotate"                # rotate | fixed
    mild_cost: int = 2                          # treatment.mild_cost
    severe_cost: int = 3                        # treatment.severe_cost
    discovery: int = 2                          # discovery.per_round
    auction: str = "sealed"                     # exchange.auction
    combos_repeat: str = "once"                 # combos.repeat: once | every_round
    max_rounds: int = 14
    max_actions: int = 50                       # actions.max_per_phase
    out_players_can_win: bool = False
    # (lowest, highest, start) of every track a statement may change, money included.
    bounds: tuple[tuple[str, tuple[int, int, int]], ...] = ()

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Rules:
        """The typed rules of a merged rules mapping (content/rules.yaml over the defaults)."""

        def sub(key: str) -> Mapping[str, Any]:
            v = d.get(key)
            return v if isinstance(v, Mapping) else {}

        return cls(
            players=int(d.get("players", 4)),
            infected_per_player=int(sub("tiles").get("infected_per_player", 5)),
            shuffle=str(sub("tiles").get("shuffle", "global")),
            hand_limit=None if d.get("hand_limit") is None else int(d["hand_limit"]),
            reveal=str(sub("setup").get("reveal", "corner_diagonal")),
            first_player=str(d.get("first_player", "rotate")),
            mild_cost=int(sub("treatment").get("mild_cost", 2)),
            severe_cost=int(sub("treatment").get("severe_cost", 3)),
            discovery=int(sub("discovery").get("per_round", 2)),
            auction=str(sub("exchange").get("auction", "sealed")),
            combos_repeat=str(sub("combos").get("repeat", "once")),
            max_rounds=int(d.get("max_rounds", 14)),
            max_actions=int(sub("actions").get("max_per_phase", 50)),
            out_players_can_win=bool(d.get("out_players_can_win", False)),
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
