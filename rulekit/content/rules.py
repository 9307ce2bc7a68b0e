"""The core parameters of the rules: their defaults, content/rules.yaml, and overrides deep-merged."""

from __future__ import annotations

import copy
import functools
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from rulekit import registry
from rulekit.content.schema import validate
from rulekit.content.yamlpos import Located, read_yaml

from rulekit.diagnostics import R
from rulekit.language.checker import Checked, RefExists, check_expression
from rulekit.language.diagnostics import ContentError, Diagnostic
from rulekit.language.parser import Origin, parse_expression

UNLOCK_STAGES = ("stage2", "stage3")
DEFAULT_SOURCE = "rulekit's default rules"

DEFAULT_RULES = registry.DEFAULT_RULES      # one copy, in the registry beside the game's other numbers


def merge_rules(base: Mapping[str, Any], overrides: Mapping[str, Any] | None) -> dict[str, Any]:
    """A new dict: base with overrides deep-merged in (mappings merge, anything else replaces)."""
    out = copy.deepcopy(dict(base))
    for key, value in (overrides or {}).items():
        if isinstance(value, Mapping) and isinstance(out.get(key), Mapping):
            out[key] = merge_rules(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def read_rules(loc: Located | None, card_ref_exists: RefExists | None = None, *,
               card_names: Mapping[str, list[str]] | None = None,
               unreadable: Mapping[str, Sequence[str]] | None = None,
               base: Mapping[str, Any] = DEFAULT_RULES) -> tuple[dict[str, Checked], list[Diagnostic]]:
    """Schema problems of a rules mapping, and the unlock conditions it gives, parsed and checked once.

    Only conditions without errors are returned; those it does not give are the defaults'. `base`
    is what the mapping overrides (a scenario's `rules:` override the content's): a track's start
    must lie between its min and max as they are once merged.
    """
    if loc is None or loc.data is None:
        return {}, []
    if not isinstance(loc.data, dict):
        span = loc.span(())
        return {}, [Diagnostic.of(R.WRONG_VALUE, "rules.yaml must be a mapping of parameters, such as `players: 4`",
                                  loc.file, span.line if span else 0, span.col if span else 0)]
    diags = validate(loc, "rules")
    if not diags:
        diags = track_ranges(loc, base)
    unlock = loc.data.get("unlock")
    conditions: dict[str, Checked] = {}
    if isinstance(unlock, dict):
        for stage in UNLOCK_STAGES:
            if isinstance(unlock.get(stage), str) and unlock[stage].strip():
                expr, found = parse_expression(unlock[stage], loc.origin(("unlock", stage)))
                condition = None
                if expr is not None:
                    condition, more = check_expression(expr, loc.file, card_ref_exists, f"unlock.{stage}",
                                                       kind="rules", card_names=card_names, unreadable=unreadable)
                    found += more
                diags += found
                if condition is not None:
                    conditions[stage] = condition
    return conditions, diags


def track_ranges(loc: Located, base: Mapping[str, Any]) -> list[Diagnostic]:
    """RK010 where a track's (or money's) min is above its max, or its start outside them, as merged
    over `base`; reported at the value the mapping gives (a problem only of `base` is base's own)."""
    merged = merge_rules(base, loc.data)
    out = []
    for name, track in registry.SETTABLE.items():
        path = ("money",) if name == "money" else ("tracks", name)
        given, now = _at(loc.data, path), _at(merged, path)
        if not given:
            continue
        lo, hi, start = now.get("min", track.lo), now.get("max", track.hi), now.get("start", track.start)
        label = ".".join(path)
        if lo is not None and hi is not None and lo > hi:
            key, message = ("min" if "min" in given else "max"), f"{label}.min ({lo}) is above {label}.max ({hi})"
        elif lo is not None and start < lo:
            key, message = ("start" if "start" in given else "min"), f"{label}.start ({start}) is below {label}.min ({lo})"
        elif hi is not None and start > hi:
            key, message = ("start" if "start" in given else "max"), f"{label}.start ({start}) is above {label}.max ({hi})"
        else:
            continue
        span = loc.span((*path, key))
        out.append(Diagnostic.of(R.WRONG_VALUE, message, loc.file, span.line if span else 0, span.col if span else 0,
                                 span.end_line if span else 0, span.end_col if span else 0,
                                 hint="a track starts within its range: change the start, or the range"))
    return out


def _at(data: Mapping[str, Any], path: tuple[str, ...]) -> Mapping[str, Any]:
    value: Any = data
    for key in path:
        value = value.get(key) if isinstance(value, Mapping) else None
    return value if isinstance(value, Mapping) else {}


def check_rules(loc: Located | None, card_ref_exists: RefExists | None = None, *,
                card_names: Mapping[str, list[str]] | None = None,
                unreadable: Mapping[str, Sequence[str]] | None = None) -> list[Diagnostic]:
    """Schema problems of a rules mapping and of its unlock conditions."""
    return read_rules(loc, card_ref_exists, card_names=card_names, unreadable=unreadable)[1]


@functools.cache
def default_unlock() -> dict[str, Checked]:
    """The default unlock conditions, parsed and checked (they are known to be good)."""
    out = {}
    for stage in UNLOCK_STAGES:
        expr, diags = parse_expression(DEFAULT_RULES["unlock"][stage], Origin(DEFAULT_SOURCE))
        assert expr is not None and not diags, diags
        condition, diags = check_expression(expr, DEFAULT_SOURCE, None, f"unlock.{stage}", kind="rules")
        assert condition is not None, diags
        out[stage] = condition
    return out


def rules_located(path: str | Path | None, file: str | None = None) -> tuple[Located | None, list[Diagnostic]]:
    """content/rules.yaml read with positions (a folder means its rules.yaml; missing means none)."""
    if path is None:
        return None, []
    p = Path(path)
    if p.is_dir():
        p = p / "rules.yaml"
        if not p.exists():
            return None, []
    if not p.exists():
        return None, [Diagnostic.of(R.NO_SUCH_PATH, "no such file", str(file or p))]
    return read_yaml(p, file if file is not None else str(p))


def load_rules(path: str | Path | None = None, overrides: Mapping[str, Any] | Located | None = None) -> dict[str, Any]:
    """The rules in force: defaults, then the file, then overrides; ContentError on any error."""
    loc, diags = rules_located(path)
    diags += check_rules(loc)
    over = overrides if isinstance(overrides, Located) else Located.plain(dict(overrides or {}), "<rules overrides>")
    diags += check_rules(over)
    errors = [d for d in diags if d.severity == "error"]
    if errors:
        raise ContentError(errors)
    data = loc.data if loc is not None and isinstance(loc.data, dict) else {}
    return merge_rules(merge_rules(DEFAULT_RULES, data), over.data)
