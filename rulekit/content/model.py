"""The card model's old place: Card and Content live in rulekit.model (a neutral module the core does not import)."""

from rulekit.model import Card, Content

__all__ = ["Card", "Content"]
