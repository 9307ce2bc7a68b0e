"""The default chooser: the predictable answers of docs/scenarios.md, also used for an out player's board."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rulekit.core import board as B
from rulekit.core.questions import Ask, Observation, Question

_NUMBERS = (Ask.AMOUNT, Ask.CHOOSE, Ask.STRATEGY)


class DefaultChooser:
    """Cells in reading order, yes when affordable, the largest number, pass, no offer, bid 0."""

    name = "default"

    def choose(self, obs: Observation, q: Question) -> int:
        return default_index(obs, q)

    def fork(self) -> DefaultChooser:
        """An exact copy (it keeps nothing between questions, so any one answers alike)."""
        return DefaultChooser()


def default_index(obs: Observation, q: Question) -> int:
    kind, opts = q.kind, q.options
    if kind is Ask.ACTION or kind is Ask.BID:
        return 0                                    # pass; a bid of 0
    if kind is Ask.OFFER:
        return len(opts) - 1                        # none
    if kind in _NUMBERS:
        if isinstance(opts, range):
            return len(opts) - 1
        return max(range(len(opts)), key=opts.__getitem__)
    if kind is Ask.TREAT:
        return default_treatment(obs, opts)
    return 0


def default_treatment(obs: Observation, opts: Sequence[Any]) -> int:
    """As many mild as fit, then severe (cells come in reading order), then done."""
    board = obs.board
    for k, o in enumerate(opts):
        if o != "done" and board[o[0] * B.SIZE + o[1]] == B.MILD:
            return k
    for k, o in enumerate(opts):
        if o != "done":
            return k
    return len(opts) - 1
