"""What lint shows a designer for one card's effect, as the lint tests compare it: imported by them."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from rulekit.language.checker import check_effect
from rulekit.language.parser import Origin, parse_effect_recovering


def seen(src: str, kind: str = "policy", refs: Callable[[str, str], bool] | None = None,
         card_names: Mapping[str, Sequence[str]] | None = None) -> list[tuple[str, int, int, str, str | None]]:
    """(code, line, column, message, hint) of every diagnostic, the parser's and the checker's, of `src` written
    as the effect of a card of this kind in card.yaml; `refs` says which card references exist."""
    parsed = parse_effect_recovering(src, Origin("card.yaml", 1, 1, 0))
    _, found = check_effect(parsed, kind, refs, "card.yaml", card_names=card_names)
    return [(d.code, d.line, d.col, d.message, d.hint) for d in [*parsed.diags, *found]]
