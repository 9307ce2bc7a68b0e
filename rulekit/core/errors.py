"""Errors a game can stop with: an effect that failed, or a step the rules forbid."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rulekit.core.program import Card


class EffectError(Exception):
    """An effect failed while a game ran; names the card (or rules.yaml), its file and line, the round and the seed."""

    def __init__(self, message: str, card: Card | None = None, line: int = 0, round: int = 0, seed: int | None = None,
                 where: str | None = None) -> None:
        self.reason = message
        self.card = card
        self.line = line
        self.round = round
        self.seed = seed
        self.where = where          # "file:line: what" when the failure is not in a card (rules.yaml)
        super().__init__(self.describe())

    def describe(self) -> str:
        where = ""
        if self.card is not None:
            where = f"{self.card.label}, {self.card.file}:{self.line or self.card.line}: "
        elif self.where:
            where = f"{self.where}: "
        tail = f" (round {self.round}, seed {self.seed})" if self.seed is not None else f" (round {self.round})"
        return f"{where}{self.reason}{tail}"


class RuleViolation(Exception):
    """A step the rules forbid (an unaffordable play, a second execution in one round)."""
