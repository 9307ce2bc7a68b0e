"""The card model: what a loaded, checked card is, and the registry of all cards by id or name.

A neutral module between the language (which checks a card's effect) and everything that reads cards:
the core reads them through the Protocols of rulekit.core.program, never by importing this module.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:                      # only for types: the model needs nothing of the language at run time
    from rulekit.language import ast
    from rulekit.language.checker import Checked


@dataclass(frozen=True)
class Card:
    """One card of any kind, as written in content (positions kept for messages)."""

    kind: str                       # advisor | policy | event | combo
    id: str
    name: str
    status: str = "designed"        # designed | proposed | tbd
    flavor: str | None = None
    notes: str | None = None
    effect: ast.Program | None = None
    when: ast.Expr | None = None    # combos only
    stage: int | None = None        # policies only
    price: tuple[int, ...] = ()     # policies: one price, or one per execution
    copies: int = 1
    score: int = 0                  # policies: endgame points
    duration: str | int = "lasting"     # lasting | round | a number of rounds
    counters: tuple[tuple[str, int], ...] = ()   # numbers kept on the card while it is in play: (name, start)
    params: tuple[tuple[str, int], ...] = ()     # numbers the card names, read by its effect as constants (`params:`)
    # counters whose first value is worked out when the card enters play (`counters: {NAME: "= EXPR"}`):
    # (name, the expression as the checker passed it); their entry in `counters` holds 0 until then
    starts: tuple[tuple[str, Checked], ...] = field(default=(), compare=False, repr=False)
    # The effect and `when:` as the checker passed them (language.checker.Checked): what the compiler takes.
    checked: Checked | None = field(default=None, compare=False, repr=False)
    switchable: bool = False
    file: str = ""
    line: int = 0
    # The effect and `when:` as written (what a content diff compares line by line); None when absent.
    effect_text: str | None = None
    when_text: str | None = None

    @property
    def label(self) -> str:
        """How messages name the card: 医院扩容 (hospital_expansion)."""
        return f"{self.name} ({self.id})"

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}" if self.file else "<card>"


@dataclass(frozen=True)
class Content:
    """Every card of a content folder, plus its rules, looked up by id or by name.

    `unlock` holds the unlock conditions (stage2, stage3) parsed and checked when the content
    was loaded, so nothing parses text at run time; `unlock_files` says where each was written
    (rules.yaml, or rulekit's default rules), with the positions in the expression's nodes.
    """

    cards: tuple[Card, ...]
    rules: dict[str, Any]
    root: str = ""
    unlock: Mapping[str, Checked] = field(default_factory=dict)     # stage -> its checked condition
    unlock_files: Mapping[str, str] = field(default_factory=dict)
    fingerprint: str = ""       # sha256 of the files exactly as read (logs and batches compare it)
    files: Mapping[str, str] = field(default_factory=dict)     # each file's path inside root -> sha256 of it as read
    _index: dict[str, Card] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        index: dict[str, Card] = {}
        for card in self.cards:
            index.setdefault(card.id, card)
        for card in self.cards:
            index.setdefault(card.name, card)
        object.__setattr__(self, "_index", index)

    def lookup(self, ref: str, kind: str | None = None) -> Card | None:
        card = self._index.get(ref)
        if card is None or (kind is not None and card.kind != kind):
            for c in self.cards:
                if (c.id == ref or c.name == ref) and (kind is None or c.kind == kind):
                    return c
            return None
        return card

    def of_kind(self, kind: str) -> tuple[Card, ...]:
        return tuple(c for c in self.cards if c.kind == kind)
