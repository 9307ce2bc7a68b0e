"""What one seat may see, sealed: a view of the game with no route to its state.

A chooser is handed `game.observation(seat)`. The view offers what docs/rules.md makes public (the
board as it lies, every seat's tracks, money, tableau and hand size, the market, the events drawn,
deck and discard sizes, the public history) and what this seat alone holds (its hand, what it saw
for itself). Everything it returns is an immutable value: tuples, frozen entries, copies.

Sealing: the view keeps the game only in closures made for this game and seat (`_view_class`):
it has no attribute, public or private, that is the game or any part of its state, its seat
cannot be changed, and no seed is handed to it. Python itself still lets code running in the same
process reach any object (frame inspection, `gc`, a closure's cells): a chooser that must not is
run in a worker process (rulekit.agents.worker).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple

from rulekit.core import board as B
from rulekit.core import quantities as Q
from rulekit.core.errors import RuleViolation
from rulekit.core.history import events_known

if TYPE_CHECKING:
    from rulekit.core.game import Game
    from rulekit.core.program import Card
    from rulekit.core.questions import Chooser

# The seat fields docs/rules.md makes public (section 1: tracks and money; the unlocked stage and who is out).
PUBLIC_FIELDS = ("medical", "disease", "policy", "score", "economy", "money", "unlocked", "out")


class EntryView(NamedTuple):
    """A policy in a tableau, as a frozen value (core.state.Entry read, never shared)."""

    card: Any
    uses: int
    last_round: int
    on: bool
    spent: bool
    played_round: int
    switched_round: int
    counters: Mapping[str, int]


_NO_COUNTERS: Mapping[str, int] = MappingProxyType({})
_new_view = tuple.__new__


def entry_view(e: Any) -> EntryView:
    # Read for every entry at every look at a tableau: built as a plain tuple (what NamedTuple's __new__ does,
    # without its argument handling), and one shared empty mapping for the many entries with no counters.
    counters = e.counters
    return _new_view(EntryView, (e.card, e.uses, e.last_round, e.on, e.spent, e.played_round, e.switched_round,
                                 MappingProxyType(dict(counters)) if counters else _NO_COUNTERS))


def advisors_hidden(game: Game) -> bool:
    """True during the advisor draft: no seat sees another's advisor before every advisor is kept (rules.md 2.2)."""
    cur = game.state.cursor
    return cur.phase == "setup" and cur.step in ("deal", "advisor")


class Observation:
    """The interface of a seat's sealed view (see the module's docstring); `game.observation(seat)` makes one.

    Every method below is given its body per game and seat by `_view_class`; this class names them for
    readers, type checkers and isinstance.
    """

    __slots__ = ()
    seat: int
    players: int
    geometry: B.Geometry
    board: tuple[int, ...]
    tags: tuple[tuple[int, str], ...]
    round: int
    phase: str
    step: str
    rules: Any
    hand: tuple
    offers: tuple
    pool: tuple                 # a draft's cards laid out face up, seen by every seat (empty outside a draft)
    events_left: int
    history: tuple
    current_event: Any

    in_order: Callable[[], tuple[int, ...]]
    count: Callable[[int, str], int]
    counts: Callable[[int], tuple[int, int, int, int, int]]
    track: Callable[[int, str], int]
    tracks: Callable[[int], tuple[int, int, int, int, int, int]]
    unlocked: Callable[[int], int]
    out: Callable[[int], bool]
    hand_size: Callable[[int], int]
    tableau: Callable[[int], tuple[EntryView, ...]]
    advisor: Callable[[int], Any]
    card: Callable[[str], Any]
    playable: Callable[[str], bool]
    unseen_events: Callable[[], tuple]
    foreseen: Callable[[], tuple]                          # event ids it knows lie on top of the deck (None: unknown)
    counters: Callable[[int, str], dict[str, int] | None]
    marks: Callable[[int], dict[str, int]]                 # events' marks on a seat (public): event id -> stacks
    deck_size: Callable[[int], int]
    discard_size: Callable[[int], int]
    seen: Callable[[], tuple]                              # the history this seat saw (core/history.py)
    info_key: Callable[[], tuple]                          # equal for two states this seat cannot tell apart
    forecast: Callable[..., Game]                          # (choosers, rng=None)
    quantity: Callable[..., int]                           # (seat, name, base, without=None)
    price: Callable[..., int]                              # (card, k=0)
    strategy_costs: Callable[[], dict[int, int]]


def make_observation(game: Game, seat: int) -> Observation:
    """The sealed view of `game` for `seat` (one class per game and seat; its methods close over both)."""
    return _view_class(game, seat)()


def _view_class(game: Game, me: int) -> type[Observation]:
    program: Any = game.program
    geo, rules = game.geo, game.rules

    def seat_of(seat: int) -> Any:
        if type(seat) is not int or not 0 <= seat < game.players:
            raise RuleViolation(f"there is no seat {seat!r} at a table of {game.players}")
        return game.state.seats[seat]

    def track(self: Any, seat: int, name: str) -> int:
        """A public field of any seat: its tracks, money, unlocked stage, out (docs/rules.md section 1)."""
        if name not in PUBLIC_FIELDS:
            raise RuleViolation(f"'{name}' of a seat is not public (public: {', '.join(PUBLIC_FIELDS)}); "
                                "a seat reads its own hand as obs.hand")
        return getattr(seat_of(seat), name)

    def tracks(self: Any, seat: int) -> tuple[int, int, int, int, int, int]:
        """(medical, disease, policy, score, economy, money) of a seat, in one read."""
        p = seat_of(seat)
        return p.medical, p.disease, p.policy, p.score, p.economy, p.money

    def counts(self: Any, seat: int) -> tuple[int, int, int, int, int]:
        """(healthy, mild, severe, dead, tiles) of a seat's board, in one read."""
        c = seat_of(seat).counts
        return c[B.HEALTHY], c[B.MILD], c[B.SEVERE], c[B.DEAD], c[B.TILE]

    def tableau(self: Any, seat: int) -> tuple[EntryView, ...]:
        """A seat's played policies (public), as frozen entries."""
        return tuple(map(entry_view, seat_of(seat).tableau))

    def advisor(self: Any, seat: int) -> Card | None:
        """A seat's advisor; another seat's stays face down (None) until every advisor is kept."""
        p = seat_of(seat)
        if seat != me and advisors_hidden(game):
            return None
        return p.advisor

    def counters(self: Any, seat: int, card_id: str) -> dict[str, int] | None:
        """The numbers a seat's card keeps (its advisor's, or a policy's in its tableau); None when none is in play
        (or it is another seat's advisor during the draft)."""
        p = seat_of(seat)
        for e in p.tableau:
            if e.card.id == card_id:
                return dict(e.counters)
        if p.advisor is not None and p.advisor.id == card_id and (seat == me or not advisors_hidden(game)):
            return dict(p.advisor_counters)
        return None

    def unseen_events(self: Any) -> tuple:
        """The events not drawn yet, one per copy, in content order: which ones is public (the content's events
        less those drawn); their order in the deck is not."""
        left: dict[str, int] = {}
        for card in game.state.event_deck:
            left[card.id] = left.get(card.id, 0) + 1
        return tuple(card for card in game.content.of_kind("event") for _ in range(left.get(card.id, 0)))

    def foreseen(self: Any) -> tuple:
        """The events this seat knows lie on top of the event deck, top first, as ids (None: a place it does not
        know): what it looked at (`foresee`, `arrange N events`) less what was drawn since; no other seat's."""
        return tuple(events_known(game.state.seen, me))

    def quantity(self: Any, seat: int, name: str, base: int | None = None, without: str | None = None) -> int:
        """A quantity of a seat under its active modifiers (optionally without one card's): its base is the
        formula of rulekit/core/quantities.py over the seat's numbers now, unless given (a card's price).
        Another seat's only once advisors are face up: an advisor's modifiers would give it away."""
        seat_of(seat)
        if seat != me and advisors_hidden(game):
            raise RuleViolation("another seat's quantities are hidden until every advisor is kept")
        if base is None:
            p = game.state.seats[seat]
            base = Q.base(name, game.rules, p.disease, p.economy, p.counts[B.HEALTHY])
        return game.quantity(seat, name, base, without, note=False)

    def forecast(self: Any, choosers: Sequence[Chooser], rng: random.Random | None = None) -> Game:
        """A copy of the game from this decision on, to play apart (a forward model), each seat answered by its
        chooser in `choosers`; the game itself is untouched. The copy is a determinization for this seat
        (Game.determinize): what it cannot see is drawn again from `rng` (by default a generator made from
        what the seat sees, so the same decision gives the same copy). Only at a top-level decision
        (RuleViolation inside a card's effect)."""
        if rng is None:
            rng = random.Random(repr(game.info_key(me)))
        return game.determinize(me, rng, list(choosers))

    ns: dict[str, Any] = {
        "__slots__": (),
        "__doc__": Observation.__doc__,
        "__repr__": lambda self: f"<Observation of P{me + 1}>",
        "seat": property(lambda self: me, doc="The seat this view is of (fixed)."),
        "players": property(lambda self: game.players),
        "geometry": property(lambda self: geo),
        "board": property(lambda self: tuple(game.state.board),
                          doc="Cell states by index (B.TILE for a face-down tile), a copy."),
        "tags": property(lambda self: tuple(sorted(game.state.tags.items())),
                          doc="(cell index, tag) of every cell holding a tag (public), in index order."),
        "round": property(lambda self: game.state.round),
        "phase": property(lambda self: game.state.phase),
        "step": property(lambda self: game.state.cursor.step, doc="The step of the phase the game stands at (public)."),
        "rules": property(lambda self: rules),
        "hand": property(lambda self: tuple(game.state.seats[me].hand), doc="This seat's own hand."),
        "offers": property(lambda self: tuple(game.state.offers)),
        "pool": property(lambda self: tuple(game.state.pool)),
        "events_left": property(lambda self: len(game.state.event_deck)),
        "history": property(lambda self: tuple(game.state.history), doc="The events resolved so far (public)."),
        "current_event": property(lambda self: game.state.current_event,
                                  doc="The event being resolved now (None outside that moment)."),
        "in_order": lambda self: game.in_order(),
        "count": lambda self, seat, name: (seat_of(seat), game.count(seat, name))[1],
        "counts": counts,
        "track": track,
        "tracks": tracks,
        "unlocked": lambda self, seat: seat_of(seat).unlocked,
        "out": lambda self, seat: seat_of(seat).out,
        "hand_size": lambda self, seat: len(seat_of(seat).hand),
        "tableau": tableau,
        "advisor": advisor,
        "card": lambda self, ref: program.card(ref),
        "playable": lambda self, card_id: program.cards[card_id].playable,
        "unseen_events": unseen_events,
        "foreseen": foreseen,
        "counters": counters,
        "marks": lambda self, seat: dict(seat_of(seat).marks),
        "deck_size": lambda self, stage: len(game.state.decks.get(stage, ())),
        "discard_size": lambda self, stage: len(game.state.discards.get(stage, ())),
        "seen": lambda self: game.seen_by(me),
        "info_key": lambda self: game.info_key(me),
        "forecast": forecast,
        "quantity": quantity,
        "price": lambda self, card, k=0: game.price(me, card, k),
        "strategy_costs": lambda self: game.strategy_costs(me),
    }
    return type("Observation", (Observation,), ns)
