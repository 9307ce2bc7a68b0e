"""The base value of every quantity a card may modify, before its modifiers (docs/rules.md).

Each formula is written here once, under the name `rulekit/registry.py` gives it (registry.QUANTITIES
says each in words beside the name): the phases, `Observation.quantity` and the agents all call
these functions, so a designer who changes a rule changes it here and nowhere else.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rulekit import registry
from rulekit.core.rules import Rules


def new_mild(disease: int) -> int:
    """Healthy residents infected in the contagion step: floor(disease / 3)."""
    return disease // 3


def new_severe(disease: int) -> int:
    """Mild cases that worsen in the worsening step: floor(disease / 4)."""
    return disease // 4


def new_dead(disease: int) -> int:
    """Severe cases that die in the deaths step: floor(disease / 4)."""
    return disease // 4


def income(economy: int, healthy: int) -> int:
    """Money gained in the income phase: economy + floor(healthy / 2)."""
    return economy + healthy // 2


def discovery(rules: Rules) -> int:
    """Tiles revealed in the discovery step: rules.yaml discovery.per_round."""
    return rules.discovery


def mild_cost(rules: Rules) -> int:
    """Medical spent to treat one mild case: rules.yaml treatment.mild_cost."""
    return rules.mild_cost


def severe_cost(rules: Rules) -> int:
    """Medical spent to treat one severe case: rules.yaml treatment.severe_cost."""
    return rules.severe_cost


def final_penalty() -> int:
    """What a negative policy score loses more at final scoring: nothing, before modifiers."""
    return 0


def bury_cost() -> int:
    """Money paid to bury one dead (an action)."""
    return 1


def relocate_cost() -> int:
    """Money paid to move one resident (an action)."""
    return 1


def price(prices: Sequence[int], k: int = 0) -> int:
    """What playing a card (k = 0) or executing it the k-th time again costs: its k-th price, 0 past the last."""
    return prices[k] if k < len(prices) else 0


# Every quantity but `price` (whose base is a card's), as one call over what a seat's formulas read:
# the rules in force, and the seat's disease, economy and revealed healthy residents.
Formula = Callable[[Rules, int, int, int], int]
BASE: dict[str, Formula] = {
    "new_mild": lambda rules, disease, economy, healthy: new_mild(disease),
    "new_severe": lambda rules, disease, economy, healthy: new_severe(disease),
    "new_dead": lambda rules, disease, economy, healthy: new_dead(disease),
    "discovery": lambda rules, disease, economy, healthy: discovery(rules),
    "income": lambda rules, disease, economy, healthy: income(economy, healthy),
    "mild_cost": lambda rules, disease, economy, healthy: mild_cost(rules),
    "severe_cost": lambda rules, disease, economy, healthy: severe_cost(rules),
    "final_penalty": lambda rules, disease, economy, healthy: final_penalty(),
    "bury_cost": lambda rules, disease, economy, healthy: bury_cost(),
    "relocate_cost": lambda rules, disease, economy, healthy: relocate_cost(),
}
CARD_BASED = frozenset({"price"})       # quantities whose base is a card's, not a seat's
assert set(BASE) | CARD_BASED == set(registry.QUANTITIES), "every registry quantity has one base formula here"


def base(name: str, rules: Rules, disease: int, economy: int, healthy: int) -> int:
    """The base of a seat's quantity `name` (any but `price`) from the numbers its formula reads."""
    formula = BASE.get(name)
    if formula is None:
        raise KeyError(f"{name!r} has no base of a seat's numbers (price: a card's price; else not a quantity)")
    return formula(rules, disease, economy, healthy)
