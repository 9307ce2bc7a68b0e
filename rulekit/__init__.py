"""rulekit: rules-as-data toolkit for The Plague Arrives (瘟疫到来)."""

__version__ = "0.1.0"
