"""Chance an effect calls for: a die (`roll(N)`), drawn from the game's one generator, and the rerolls a card
allows (`roll(N, rerolls K)`: the subject sees each result and decides whether to roll again).

Every roll is a game-log record `roll` and a public history entry (core/history.py): every seat sees it. A
scenario may state the rolls to come (`rolls:` in the scenario file): `Game.fixed_rolls`, taken in order
before the generator is asked (a copy of the game, as a bot's lookahead makes, draws from its generator).
"""

from __future__ import annotations

from rulekit import registry
from rulekit.core.errors import EffectError
from rulekit.core.handlers import Frame, Handlers
from rulekit.core.questions import Ask

MAX_DIE = registry.MAX_DIE
MAX_REROLLS = registry.MAX_REROLLS
REROLL = (False, True)          # the options of a reroll question: keep this result, or roll again


class Chance(Handlers):
    """Dice: the part of a game's operations that draws numbers for effects."""

    fixed_rolls: list[int]

    def roll(self, f: Frame, seat: int | None, sides: int, rerolls: int = 0) -> int:
        """A die of `sides` sides (1 to sides); with rerolls, `seat` may roll again up to that many times,
        each time seeing the result first. The last result stands."""
        if not 1 <= sides <= MAX_DIE:
            raise EffectError(f"roll({sides}): a die has 1 to {MAX_DIE} sides, and here the number came to {sides}")
        if not 0 <= rerolls <= MAX_REROLLS:
            raise EffectError(f"rerolls {rerolls}: a roll allows 0 to {MAX_REROLLS} rerolls, and here the number "
                              f"came to {rerolls}")
        value = self._die(f, seat, sides)
        left = rerolls if seat is not None else 0
        while left > 0:            # at most MAX_REROLLS questions
            text = f"rolled {value} on a die of {sides}: roll again? ({left} reroll{'s' if left > 1 else ''} left)"
            if not self.effect_ask(seat, Ask.REROLL, REROLL, card=f.card, text=text):  # type: ignore[arg-type]
                break
            left -= 1
            value = self._die(f, seat, sides)
        return value

    def _die(self, f: Frame, seat: int | None, sides: int) -> int:
        fixed = self.fixed_rolls
        if fixed:
            value = fixed.pop(0)
            if not 1 <= value <= sides:
                raise EffectError(f"the scenario's next roll is {value}, but this die ({f.card.name}) has "
                                  f"{sides} sides: a roll of it is 1 to {sides}")
        else:
            value = self.state.rng.randrange(sides) + 1
        self.record("roll", seat=seat, card=f.card.id, sides=sides, value=value)
        return value
