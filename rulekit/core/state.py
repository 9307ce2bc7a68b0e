"""A game's state as plain data: board, seats, decks, the cursor and the generator — cheap to copy, JSON both ways."""

from __future__ import annotations

import operator
import random
from collections.abc import Iterable
from typing import Any

from rulekit import registry
from rulekit.core import board as B
from rulekit.core import steps
from rulekit.core.program import Card, Content
from rulekit.core.steps import StepData


def unique_ids(cards: Iterable[Card]) -> list[str]:
    """Card ids in first-seen order, each once: the options of a question about cards."""
    return list(dict.fromkeys(map(_ID, cards)))


_ID = operator.attrgetter("id")


class Entry:
    """A policy in a tableau: times executed, executed this round, on/off, spent."""

    __slots__ = ("card", "counters", "last_round", "on", "played_round", "spent", "switched_round", "uses")

    def __init__(self, card: Card, round_: int, uses: int = 1) -> None:
        self.card = card
        self.uses = uses
        self.last_round = round_
        self.on = True
        self.spent = False
        self.played_round = round_
        self.switched_round = 0
        self.counters = dict(card.counters)     # the card's own numbers, kept while it is in play

    def copy(self) -> Entry:
        e = Entry.__new__(Entry)
        e.card, e.uses, e.last_round, e.on = self.card, self.uses, self.last_round, self.on
        e.spent, e.played_round, e.switched_round = self.spent, self.played_round, self.switched_round
        e.counters = dict(self.counters)
        return e


class SeatState:
    """One seat: tracks, money, hand, tableau, advisor, unlocked stage, out, and its board's counts."""

    __slots__ = (
        "advisor",
        "advisor_counters",
        "combos_fired",
        "counts",
        "disease",
        "drawn_ids",
        "economy",
        "hand",
        "marks",
        "medical",
        "money",
        "once_fired",
        "out",
        "out_reason",
        "played_ids",
        "policy",
        "score",
        "seat",
        "tableau",
        "unlocked",
    )

    def __init__(self, seat: int, start: dict[str, int]):
        self.seat = seat
        self.medical = start["medical"]
        self.disease = start["disease"]
        self.policy = start["policy"]
        self.score = start["score"]
        self.economy = start["economy"]
        self.money = start["money"]
        self.hand: list[Card] = []
        self.tableau: list[Entry] = []
        self.advisor: Card | None = None
        self.unlocked = 1
        self.out = False
        self.out_reason: str | None = None
        self.once_fired: set[str] = set()       # `once when` handlers that have run: "card_id/n"
        self.combos_fired: set[str] = set()
        self.played_ids: list[str] = []
        self.drawn_ids: list[str] = []
        self.counts = [0] * B.N_CODES           # cells of this seat's board by state, kept up to date
        self.advisor_counters: dict[str, int] = {}
        self.marks: dict[str, int] = {}         # events' marks on this seat: event id -> stacks, first marked first

    @property
    def label(self) -> str:
        return f"P{self.seat + 1}"

    def copy(self) -> SeatState:
        s = SeatState.__new__(SeatState)
        s.seat, s.medical, s.disease, s.policy = self.seat, self.medical, self.disease, self.policy
        s.score, s.economy, s.money = self.score, self.economy, self.money
        s.hand = list(self.hand)
        s.tableau = [e.copy() for e in self.tableau]
        s.advisor, s.unlocked, s.out, s.out_reason = self.advisor, self.unlocked, self.out, self.out_reason
        s.once_fired = set(self.once_fired)
        s.combos_fired = set(self.combos_fired)
        s.played_ids = list(self.played_ids)
        s.drawn_ids = list(self.drawn_ids)
        s.counts = list(self.counts)
        s.advisor_counters = dict(self.advisor_counters)
        s.marks = dict(self.marks)
        return s


TRACK_FIELDS = tuple(registry.SETTABLE)          # the tracks and money, as the registry names them


class Cursor:
    """Where the game stands: the phase and step the engine runs next, and that step's own record
    (rulekit.core.steps; None before the phase has begun it)."""

    __slots__ = ("data", "phase", "step", "stop")

    def __init__(self, phase: str, step: str, data: StepData | None = None, stop: str = "game") -> None:
        self.phase = phase
        self.step = step
        self.data = data
        self.stop = stop        # game | round | phase | step: where a partial run stops (scenarios)

    def copy(self) -> Cursor:
        data = self.data
        return Cursor(self.phase, self.step, steps.copy(data) if data is not None else None, self.stop)

    def to_json(self) -> dict[str, Any]:
        return {"phase": self.phase, "step": self.step, "data": steps.to_json(self.data), "stop": self.stop}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Cursor:
        return cls(d["phase"], d["step"], steps.from_json(d["data"]), d["stop"])


class GameState:
    """Everything that changes during one game; the rules and the compiled cards live elsewhere."""

    __slots__ = (
        "advisor_deck",
        "board",
        "board_version",
        "combos_log",
        "current_event",
        "cursor",
        "decks",
        "discards",
        "end_reason",
        "event_deck",
        "events_drawn",
        "fronts",
        "history",
        "last_event",
        "offers",
        "out_of_game",
        "over",
        "phase",
        "players",
        "pool",
        "questions",
        "rng",
        "round",
        "round_ended",
        "scheduled",
        "score_history",
        "seats",
        "seed",
        "seen",
        "steps",
        "tags",
    )

    def __init__(self, players: int, seed: int, start: dict[str, int]):
        self.players = players
        self.seed = seed
        self.rng = random.Random(seed)
        geo = B.geometry(players)
        self.board = [B.NOCELL if o < 0 else B.EMPTY for o in geo.owner]
        self.fronts = bytearray(B.SIZE * B.SIZE)     # 1 where a face-down tile has an infected front
        self.tags: dict[int, str] = {}              # cell -> the tag kept on it (registry.CELL_TAGS), public
        self.seats = [SeatState(s, start) for s in range(players)]
        for s in range(players):
            self.seats[s].counts[B.EMPTY] = len(geo.cells_of[s])
        self.decks: dict[int, list[Card]] = {1: [], 2: [], 3: []}
        self.discards: dict[int, list[Card]] = {1: [], 2: [], 3: []}
        self.event_deck: list[Card] = []
        self.history: list[Card] = []
        self.current_event: Card | None = None
        self.last_event: Card | None = None
        self.offers: list[tuple[int, Card]] = []     # the exchange's market: (owner, card) face up
        self.pool: list[Card] = []                   # a draft's cards laid out face up (`draft N from stage K`)
        self.advisor_deck: list[Card] = []
        self.out_of_game: list[Card] = []
        self.round = 1
        self.phase = "setup"
        self.over = False
        self.end_reason: str | None = None
        self.cursor = Cursor("setup", "deal")
        self.events_drawn: list[str] = []
        self.combos_log: list[tuple[int, str]] = []
        self.score_history: list[tuple[int, ...]] = []
        self.steps = 0                # statements effects have run (the game's budget, registry.LIMITS)
        self.questions = 0            # questions effects have asked
        self.board_version = [0] * players   # bumped on every change of a seat's board
        # `after N rounds:` blocks waiting for their round: (round, card id, block, owner, values);
        # values holds the block's subject ("S") and the names it reads, as plain numbers
        self.scheduled: list[tuple[int, str, str, int | None, dict]] = []
        self.round_ended = 0          # the last round whose `on round end` has run (0: none yet)
        self.seen: list[tuple] = []   # the history, public and per seat (core/history.py)

    def clone(self) -> GameState:
        """An exact, independent copy: played on with the same answers, it gives the same game."""
        g = GameState.__new__(GameState)
        g.players, g.seed = self.players, self.seed
        g.rng = random.Random()
        g.rng.setstate(self.rng.getstate())
        g.board = list(self.board)
        g.fronts = bytearray(self.fronts)
        g.tags = dict(self.tags)
        g.seats = [s.copy() for s in self.seats]
        g.decks = {k: list(v) for k, v in self.decks.items()}
        g.discards = {k: list(v) for k, v in self.discards.items()}
        g.event_deck = list(self.event_deck)
        g.history = list(self.history)
        g.current_event, g.last_event = self.current_event, self.last_event
        g.offers = list(self.offers)
        g.pool = list(self.pool)
        g.advisor_deck = list(self.advisor_deck)
        g.out_of_game = list(self.out_of_game)
        g.round, g.phase, g.over, g.end_reason = self.round, self.phase, self.over, self.end_reason
        g.cursor = self.cursor.copy()
        g.events_drawn = list(self.events_drawn)
        g.combos_log = list(self.combos_log)
        g.score_history = list(self.score_history)
        g.steps, g.questions = self.steps, self.questions
        g.board_version = list(self.board_version)
        g.scheduled = list(self.scheduled)
        g.round_ended = self.round_ended
        g.seen = list(self.seen)
        return g

    # ---- JSON ------------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The state as JSON-ready data; cards are written by id (from_json needs the same content)."""
        def ids(cards: Iterable[Card]) -> list[str]:
            return [c.id for c in cards]
        version, internal, gauss = self.rng.getstate()
        return {
            "players": self.players, "seed": self.seed,
            "rng": [version, list(internal), gauss],
            "board": list(self.board), "fronts": list(self.fronts),
            "tags": [[i, m] for i, m in sorted(self.tags.items())],
            "seats": [_seat_json(s) for s in self.seats],
            "decks": {str(k): ids(v) for k, v in self.decks.items()},
            "discards": {str(k): ids(v) for k, v in self.discards.items()},
            "event_deck": ids(self.event_deck), "history": ids(self.history),
            "current_event": self.current_event.id if self.current_event else None,
            "last_event": self.last_event.id if self.last_event else None,
            "offers": [[s, c.id] for s, c in self.offers],
            "pool": ids(self.pool),
            "advisor_deck": ids(self.advisor_deck), "out_of_game": ids(self.out_of_game),
            "round": self.round, "phase": self.phase, "over": self.over, "end_reason": self.end_reason,
            "cursor": self.cursor.to_json(),
            "events_drawn": list(self.events_drawn),
            "combos_log": [list(x) for x in self.combos_log],
            "score_history": [list(x) for x in self.score_history],
            "steps": self.steps, "questions": self.questions, "board_version": list(self.board_version),
            "scheduled": [list(x) for x in self.scheduled], "round_ended": self.round_ended,
            "seen": [_jsonable(e) for e in self.seen],
        }

    @classmethod
    def from_json(cls, d: dict[str, Any], content: Content) -> GameState:
        def card(ref: str | None) -> Card | None:
            return None if ref is None else _card(content, ref)
        def cards(refs: Iterable[str]) -> list[Card]:
            return [_card(content, r) for r in refs]
        g = cls.__new__(cls)
        g.players, g.seed = d["players"], d["seed"]
        g.rng = random.Random()
        version, internal, gauss = d["rng"]
        g.rng.setstate((version, tuple(internal), gauss))
        g.board = list(d["board"])
        g.fronts = bytearray(d["fronts"])
        g.tags = {int(i): str(m) for i, m in d.get("tags", ())}
        g.seats = [_seat_from(s, content) for s in d["seats"]]
        g.decks = {int(k): cards(v) for k, v in d["decks"].items()}
        g.discards = {int(k): cards(v) for k, v in d["discards"].items()}
        g.event_deck, g.history = cards(d["event_deck"]), cards(d["history"])
        g.current_event, g.last_event = card(d["current_event"]), card(d["last_event"])
        g.offers = [(s, _card(content, c)) for s, c in d["offers"]]
        g.pool = cards(d.get("pool", []))
        g.advisor_deck, g.out_of_game = cards(d["advisor_deck"]), cards(d["out_of_game"])
        g.round, g.phase, g.over, g.end_reason = d["round"], d["phase"], d["over"], d["end_reason"]
        g.cursor = Cursor.from_json(d["cursor"])
        g.events_drawn = list(d["events_drawn"])
        g.combos_log = [tuple(x) for x in d["combos_log"]]
        g.score_history = [tuple(x) for x in d["score_history"]]
        g.steps, g.questions = d["steps"], d["questions"]
        g.board_version = list(d["board_version"])
        g.scheduled = [tuple(x) for x in d["scheduled"]]
        g.round_ended = d["round_ended"]
        g.seen = [_tupled(e) for e in d.get("seen", ())]
        return g


def _seat_json(s: SeatState) -> dict:
    return {
        "seat": s.seat, **{t: getattr(s, t) for t in TRACK_FIELDS},
        "hand": [c.id for c in s.hand],
        "tableau": [{"card": e.card.id, "uses": e.uses, "last_round": e.last_round, "on": e.on, "spent": e.spent,
                     "played_round": e.played_round, "switched_round": e.switched_round,
                     "counters": dict(e.counters)} for e in s.tableau],
        "advisor": s.advisor.id if s.advisor else None, "unlocked": s.unlocked, "out": s.out,
        "out_reason": s.out_reason, "once_fired": sorted(s.once_fired), "combos_fired": sorted(s.combos_fired),
        "played_ids": list(s.played_ids), "drawn_ids": list(s.drawn_ids), "counts": list(s.counts),
        "advisor_counters": dict(s.advisor_counters),
        "marks": dict(s.marks),
    }


def _seat_from(d: dict[str, Any], content: Content) -> SeatState:
    s = SeatState.__new__(SeatState)
    s.seat = d["seat"]
    for t in TRACK_FIELDS:
        setattr(s, t, d[t])
    s.hand = [_card(content, r) for r in d["hand"]]
    s.tableau = []
    for e in d["tableau"]:
        entry = Entry(_card(content, e["card"]), e["played_round"], e["uses"])
        entry.last_round, entry.on, entry.spent = e["last_round"], e["on"], e["spent"]
        entry.switched_round = e["switched_round"]
        entry.counters = dict(e["counters"])
        s.tableau.append(entry)
    s.advisor = _card(content, d["advisor"]) if d["advisor"] else None
    s.unlocked, s.out, s.out_reason = d["unlocked"], d["out"], d["out_reason"]
    s.once_fired, s.combos_fired = set(d["once_fired"]), set(d["combos_fired"])
    s.played_ids, s.drawn_ids = list(d["played_ids"]), list(d["drawn_ids"])
    s.counts = list(d["counts"])
    s.advisor_counters = dict(d["advisor_counters"])
    s.marks = dict(d.get("marks", {}))          # a state saved before marks existed has none
    return s


def _jsonable(v: Any) -> Any:
    return [_jsonable(x) for x in v] if isinstance(v, tuple) else v


def _tupled(v: Any) -> Any:
    return tuple(_tupled(x) for x in v) if isinstance(v, list) else v


def _card(content: Content, ref: str) -> Card:
    card = content.lookup(ref)
    if card is None:
        raise ValueError(f"the saved game names a card '{ref}' that this content does not have")
    return card
