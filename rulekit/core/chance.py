"""Chance an effect calls for: a die (`roll(N)`), drawn from the game's one generator, and the rerolls a card
allows (`roll(N, rerolls K)`: the subject sees each result and decides whether to roll again); and the event
deck: looking at the next events (`foresee N events`), putting them back in an order (`arrange N events`),
shuffling past events back in (`reshuffle AMOUNT events`).

What a seat saw of the deck is its own: a `foresaw` history entry (core/history.py) that only it sees, with
the events top first; every seat sees that it looked (`looked`: who, how many, reordered or not). The deck's
top is the end of `GameState.event_deck` (the event phase pops it).

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
MAX_FORESEE = registry.MAX_FORESEE
_NTH = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")
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

    # ---- the event deck ---------------------------------------------------------------------------------------
    def look_at_events(self, f: Frame, seat: int, n: int, reorder: bool) -> int:
        """The seat looks at the next n events (fewer when the deck has fewer); with reorder, it puts them back
        in the order it chooses, one question for each place but the last. How many it looked at."""
        verb = "arrange" if reorder else "foresee"
        if not 0 <= n <= MAX_FORESEE:
            raise EffectError(f"{verb} {n} events: a look at the event deck sees 0 to {MAX_FORESEE} events, and "
                              f"here the number came to {n}")
        st = self.state
        deck = st.event_deck
        k = min(n, len(deck))
        if k == 0:
            return 0
        top = deck[-k:][::-1]                      # top first
        if reorder:
            order = []
            for place in range(k - 1):             # at most MAX_FORESEE - 1 questions
                ids = tuple(dict.fromkeys(c.id for c in top))
                pick = ids[0] if len(ids) == 1 else self.effect_ask(
                    seat, Ask.ORDER, ids, card=f.card, text=f"which event is drawn {_NTH[place]} of these {k}?")
                order.append(top.pop(next(i for i, c in enumerate(top) if c.id == pick)))
            top = order + top
            deck[-k:] = top[::-1]
        st.seen.append((seat, "foresaw", tuple(c.id for c in top)))
        self.record("looked", seat=seat, card=f.card.id, events=k, arranged=reorder)
        return k

    def reshuffle_events(self, f: Frame, n: int | None) -> int:
        """The n most recent past events (None: all) go back into the event deck, which is shuffled (the game's
        generator). How many went back."""
        st = self.state
        if n is not None and n < 0:
            raise EffectError(f"reshuffle {n} events: a count gone negative")
        past = st.history
        k = len(past) if n is None else min(n, len(past))
        if k:
            back = past[len(past) - k:]
            del past[len(past) - k:]
            st.event_deck.extend(back)
        st.rng.shuffle(st.event_deck)
        self.record("reshuffled", card=f.card.id, events=k)
        return k
