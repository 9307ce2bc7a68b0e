"""What the core needs from cards and from the compiled program, as Protocols.

The core applies compiled effects to the state; it never imports the stages before it (the language,
the content loader, the interpreter). It reads a card's printed numbers (`Card`), a content's cards by id
or name (`Content`), and each card's behaviour compiled to functions (`CompiledCard`, `Program`).
rulekit.model and rulekit.interpreter provide them; rulekit.engine puts them together.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from rulekit.core.errors import EffectError
    from rulekit.core.game import Game
    from rulekit.core.state import Entry, GameState

# A compiled handler: called with the game's runtime and the Frame of its run (`after` blocks also get
# the numbers they keep). Its result is not read.
Handler = Callable[..., object]
# A modifier's amount or a combo's condition: (runtime, seat, tableau entry) -> a number or a truth.
Expression = Callable[[Any, int, "Entry | None"], Any]


class Card(Protocol):
    """One card as the core reads it: its kind, names and printed numbers."""

    @property
    def kind(self) -> str: ...
    @property
    def id(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def stage(self) -> int | None: ...
    @property
    def price(self) -> tuple[int, ...]: ...
    @property
    def copies(self) -> int: ...
    @property
    def score(self) -> int: ...
    @property
    def duration(self) -> str | int: ...
    @property
    def counters(self) -> tuple[tuple[str, int], ...]: ...
    @property
    def switchable(self) -> bool: ...
    @property
    def file(self) -> str: ...
    @property
    def line(self) -> int: ...
    @property
    def label(self) -> str: ...


class Content(Protocol):
    """Every card of a content and its rules mapping, looked up by id or name."""

    @property
    def cards(self) -> Sequence[Card]: ...
    @property
    def rules(self) -> Mapping[str, Any]: ...

    def lookup(self, ref: str, kind: str | None = None) -> Card | None: ...
    def of_kind(self, kind: str) -> Sequence[Card]: ...


class CompiledCard(Protocol):
    """A card's behaviour as functions: handlers by key, triggers, reactions, modifiers and declarations."""

    @property
    def card(self) -> Card: ...
    @property
    def on(self) -> Mapping[str, Handler]: ...                     # 'play', 'setup', 'resolve', 'income start', …
    @property
    def triggers(self) -> Mapping[str, Sequence[tuple[str, Handler, bool]]]: ...   # word -> [(key, fn, once)]
    @property
    def react(self) -> Mapping[str, Handler]: ...
    @property
    def modifiers(self) -> Sequence[tuple[str, Expression, int | None, Expression | None]]: ...
    # (quantity, fn, floor, while): `while` is the declaration's condition, None when it always holds
    @property
    def starts(self) -> Sequence[tuple[str, Expression]]: ...      # counters' first values: (name, fn)
    @property
    def becomes(self) -> Sequence[tuple[str, Expression, Handler, frozenset[str] | None]]: ...  # (key, cond, fn, reads)
    @property
    def shields(self) -> tuple[tuple[str, frozenset[str], Expression | None], ...]: ...   # (target, sources, while)
    @property
    def seals(self) -> tuple[tuple[str, str, Expression | None], ...]: ...     # (target, direction, while)
    @property
    def skips(self) -> tuple[tuple[str, Expression | None], ...]: ...          # (step, while)
    @property
    def limits(self) -> tuple[tuple[str, str, int, Expression | None], ...]: ...   # (track, floor|ceiling, N, while)
    @property
    def condition(self) -> Expression | None: ...
    @property
    def playable(self) -> bool: ...
    @property
    def later(self) -> Mapping[str, Handler]: ...


class Program(Protocol):
    """Every card of a content compiled, what the core must listen for, and the unlock conditions."""

    @property
    def content(self) -> Content: ...
    @property
    def cards(self) -> Mapping[str, CompiledCard]: ...
    @property
    def reactive(self) -> frozenset[str]: ...
    @property
    def react_moments(self) -> frozenset[str]: ...
    @property
    def hears_cure(self) -> bool: ...
    @property
    def hears_event(self) -> bool: ...
    @property
    def hears_other(self) -> frozenset[str]: ...
    @property
    def hears_play(self) -> bool: ...
    @property
    def hears_becomes(self) -> bool: ...            # some card has `once when becomes COND:`
    @property
    def combos(self) -> tuple[Card, ...]: ...
    @property
    def unlock_reads_only_board(self) -> bool: ...

    def runtime(self, game: Game) -> object:
        """The `rt` the compiled functions are called with, for one game."""
        ...

    def unlock_holds(self, game: Game, name: str, seat: int) -> bool: ...
    def located(self, err: BaseException, card: Card, st: GameState) -> EffectError: ...


__all__ = ["Card", "CompiledCard", "Content", "Expression", "Handler", "Program"]
