"""Where each phase stands inside its step: one small record per phase, kept in the cursor.

Each holds only numbers, flags and tuples (the actions' `taken` is a list, copied with the record), so a
copy of the record is a copy of the phase's place; `to_json`/`from_json` write it as plain data.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, ClassVar


@dataclass(slots=True)
class Sweep:
    """Seat after seat in `order` (reserve, treatment, the exchange's offers): `k` is the seat's place."""

    KIND: ClassVar[str] = "sweep"
    order: tuple[int, ...] = ()
    k: int = 0



@dataclass(slots=True)
class SetupStep:
    """The advisor draft: the ids dealt to each seat, and the seat choosing next."""

    KIND: ClassVar[str] = "setup"
    dealt: tuple[tuple[str, ...], ...] = ()
    seat: int = 0



@dataclass(slots=True)
class ActionsStep:
    """The action phase: who has passed, actions taken by seat, this sweep of the turn order and its place."""

    KIND: ClassVar[str] = "actions"
    passed: tuple[int, ...] = ()
    taken: list[int] = field(default_factory=list)
    sweep: tuple[int, ...] = ()
    k: int = 0
    acted: bool = False



@dataclass(slots=True)
class TreatmentStep:
    """Treatment: the seat in `order`, its costs (mild, severe), the medical left and the cells treated."""

    KIND: ClassVar[str] = "treatment"
    order: tuple[int, ...] = ()
    k: int = 0
    mild_cost: int = 0
    severe_cost: int = 0
    budget: int = 0
    treated: tuple[int, ...] = ()



@dataclass(slots=True)
class SpreadStep:
    """One spread step over the boards: the order (None until the step starts), the seat's place, and for
    that seat the tiles left to reveal, or X, the cells chosen, the candidates and (contagion) the tiers."""

    KIND: ClassVar[str] = "spread"
    order: tuple[int, ...] | None = None
    k: int = 0
    ready: bool = False
    left: int = 0
    x: int = 0
    chosen: tuple[int, ...] = ()
    cands: tuple[int, ...] = ()
    tiers: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    tier: int = 0



@dataclass(slots=True)
class AuctionStep:
    """The exchange's auction of the first offer: its bidders (None until it starts), the place, the best bid."""

    KIND: ClassVar[str] = "auction"
    bidders: tuple[int, ...] | None = None
    k: int = 0
    best: int | None = None
    best_bid: int = 0



StepData = Sweep | SetupStep | ActionsStep | TreatmentStep | SpreadStep | AuctionStep
KINDS: dict[str, type[StepData]] = {c.KIND: c for c in (Sweep, SetupStep, ActionsStep, TreatmentStep, SpreadStep,
                                                      AuctionStep)}


def copy(data: StepData) -> StepData:
    """A copy of a phase's place, field by field (the one list, the actions' `taken`, copied too), so a field
    added to a record is copied without anyone remembering to."""
    return type(data)(**{f.name: _copied(getattr(data, f.name)) for f in fields(data)})


def _copied(v: Any) -> Any:
    return list(v) if isinstance(v, list) else v


def to_json(data: StepData | None) -> dict[str, Any] | None:
    if data is None:
        return None
    return {"kind": data.KIND, **{f.name: _json(getattr(data, f.name)) for f in fields(data)}}


def from_json(d: dict[str, Any] | None) -> StepData | None:
    if d is None:
        return None
    values = {k: _unjson(v) for k, v in d.items() if k != "kind"}
    return KINDS[d["kind"]](**values)


def _json(v: Any) -> Any:
    if isinstance(v, tuple):
        return {"tuple": [_json(x) for x in v]}
    return v


def _unjson(v: Any) -> Any:
    if isinstance(v, dict) and set(v) == {"tuple"}:
        return tuple(_unjson(x) for x in v["tuple"])
    if isinstance(v, list):
        return [_unjson(x) for x in v]
    return v
