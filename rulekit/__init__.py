"""rulekit: rules-as-data toolkit for The Plague Arrives (瘟疫到来).

The public Python API (docs/api.md): `load_content`, `run_game`, `new_game`, and the game's
forward model (`Game`, `GameState`, `Question`, `Observation`, `Table`). Imported on first use, so
`import rulekit` stays quick.
"""

__version__ = "0.1.0"

# Before any other rulekit module loads: use the optional compiled build only if it was built from these sources.
from rulekit import build_info as _build_info

_build_info.guard()

_API = {
    "load_content": "rulekit.content.loader",
    "run_game": "rulekit.engine",
    "new_game": "rulekit.engine",
    "make_game": "rulekit.engine",
    "Game": "rulekit.core.game",
    "GameState": "rulekit.core.state",
    "GameResult": "rulekit.core.result",
    "Ask": "rulekit.core.questions",
    "Question": "rulekit.core.questions",
    "Observation": "rulekit.core.questions",
    "Cell": "rulekit.core.questions",
    "Action": "rulekit.core.questions",
    "RuleViolation": "rulekit.core.errors",
    "make_agent": "rulekit.agents",
    "Table": "rulekit.core.table",
    "TableSeat": "rulekit.core.table",
    "EffectError": "rulekit.core.errors",
    "ContentError": "rulekit.language.diagnostics",
    "card_values": "rulekit.playtest.value",
    "give_value": "rulekit.playtest.value",
}
__all__ = ["__version__", *_API]


def __getattr__(name: str):
    if name in _API:
        import importlib

        return getattr(importlib.import_module(_API[name]), name)
    raise AttributeError(f"module 'rulekit' has no attribute {name!r}")
