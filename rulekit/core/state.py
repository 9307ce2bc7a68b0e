"""Mutable game state: players, their tableaus, and the effect context compiled code runs in."""

from __future__ import annotations

from rulekit import registry


def unique_ids(cards) -> list[str]:
    """Card ids in first-seen order, each once: the options of a question about cards."""
    return list(dict.fromkeys(c.id for c in cards))


class Entry:
    """A policy in a tableau: times executed, executed this round, on/off, spent."""

    __slots__ = ("card", "uses", "last_round", "on", "spent", "played_round", "compiled", "switched_round")

    def __init__(self, card, compiled, round_: int, uses: int = 1):
        self.card = card
        self.compiled = compiled
        self.uses = uses
        self.last_round = round_
        self.on = True
        self.spent = False
        self.played_round = round_
        self.switched_round = 0

    @property
    def active(self) -> bool:
        return self.on and not self.spent


class PlayerState:
    """One seat's tracks, money, hand, tableau, advisor, unlocked stage and whether they are out."""

    __slots__ = ("seat", "medical", "disease", "policy", "score", "economy", "money", "hand",
                 "tableau", "advisor", "advisor_compiled", "unlocked", "out", "out_reason",
                 "once_fired", "combos_fired", "played_ids", "drawn_ids")

    def __init__(self, seat: int, tracks: dict[str, int], money: int):
        self.seat = seat
        for name, value in tracks.items():
            setattr(self, name, value)
        self.money = money
        self.hand: list = []
        self.tableau: list[Entry] = []
        self.advisor = None
        self.advisor_compiled = None
        self.unlocked = 1
        self.out = False
        self.out_reason: str | None = None
        self.once_fired: set = set()
        self.combos_fired: set = set()
        self.played_ids: list[str] = []
        self.drawn_ids: list[str] = []

    @property
    def label(self) -> str:
        return f"P{self.seat + 1}"

    def active_cards(self):
        """(compiled card, tableau entry or None) in handler order: advisor first, then play order."""
        out = []
        if self.advisor_compiled is not None:
            out.append((self.advisor_compiled, None))
        for e in self.tableau:
            if e.on and not e.spent:
                out.append((e.compiled, e))
        return out

    def has_name(self, name: str) -> bool:
        return any(e.card.name == name for e in self.tableau)


def track_bounds(rules: dict) -> dict[str, tuple[int | None, int | None, int]]:
    """(lo, hi, start) of each settable track, rules.yaml overriding the registry defaults."""
    out = {}
    overrides = rules.get("tracks") or {}
    for name, t in registry.SETTABLE.items():
        o = overrides.get(name) or (rules.get("money") if name == "money" else None) or {}
        lo = o.get("min", t.lo) if isinstance(o, dict) else t.lo
        hi = o.get("max", t.hi) if isinstance(o, dict) else t.hi
        start = o.get("start", t.start) if isinstance(o, dict) else t.start
        out[name] = (lo, hi, start)
    return out


class Ctx:
    """Where an effect runs: its card, owner, current subject, `it`, names, and a prevent flag."""

    __slots__ = ("game", "card", "owner", "subject", "entry", "it", "env", "prevented", "from_other", "root")

    def __init__(self, game, card, owner, subject, entry=None, it=None):
        self.game = game
        self.card = card
        self.owner = owner
        self.subject = subject
        self.entry = entry
        self.it = it
        self.env: dict = {}
        self.prevented = False
        # Effects of events and combos count as "other" for shields (rules.md, language.md 'Shield').
        self.from_other = card is not None and card.kind in ("event", "combo")
        self.root = self        # where `prevent` is recorded, also from inside a player block

    def sub(self, subject: int) -> "Ctx":
        """The same effect acting on another player (`each player`, `player with`)."""
        c = Ctx.__new__(Ctx)
        c.game, c.card, c.owner, c.entry, c.it = self.game, self.card, self.owner, self.entry, self.it
        c.env, c.prevented, c.from_other, c.root = self.env, False, self.from_other, self.root
        c.subject = subject
        return c
