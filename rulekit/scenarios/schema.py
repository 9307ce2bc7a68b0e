"""A scenario file checked against scenario.schema.json, each problem at its YAML position, in plain words."""

from __future__ import annotations

import functools
import json
from importlib import resources
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

from rulekit import registry
from rulekit.content.schema import shown
from rulekit.content.yamlpos import Located, Span
from rulekit.diagnostics import R
from rulekit.language.diagnostics import Diagnostic, nearest


@functools.cache
def scenario_schema() -> dict[str, Any]:
    """The JSON Schema of a scenario file, shipped in the package."""
    text = resources.files("rulekit.scenarios").joinpath("scenario.schema.json").read_text(encoding="utf-8")
    schema = json.loads(text)
    top = registry.LIMITS["seed"].value    # the seed's range lives in the registry, like every other limit
    schema["properties"]["seed"].update(minimum=0, maximum=top, description=f"a whole number from 0 to {top:,}")
    die = registry.MAX_DIE                 # a stated roll is a face of a die the language can roll
    schema["properties"]["rolls"]["items"].update(maximum=die, description=f"a whole number from 1 to {die}")
    return schema


@functools.cache
def _validator() -> Draft202012Validator:
    return Draft202012Validator(scenario_schema())


def validate_scenario(loc: Located) -> list[Diagnostic]:
    """Every schema problem of a scenario file, at the offending key's or value's own position."""
    errors = sorted(_validator().iter_errors(loc.data), key=lambda e: [str(p) for p in e.absolute_path])
    out: list[Diagnostic] = []
    seen: set[tuple] = set()
    for err in errors:
        for d in _explain(err, loc):
            key = (d.line, d.col, d.message)
            if key not in seen:
                seen.add(key)
                out.append(d)
    return out


def field_name(path) -> str:
    """steps[2].play.card — lists counted from 1, as a designer counts."""
    out = ""
    for p in path:
        out += f"[{p + 1}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out or "the file"


def diag(code: R, message: str, loc: Located, span: Span | None, hint: str | None = None) -> Diagnostic:
    if span is None:
        return Diagnostic.of(code, message, loc.file, hint=hint)
    return Diagnostic.of(code, message, loc.file, span.line, span.col, span.end_line, span.end_col, hint)


def _explain(err: ValidationError, loc: Located) -> list[Diagnostic]:
    path = tuple(err.absolute_path)
    if err.validator == "additionalProperties":
        return _unknown_keys(err, loc, path)
    if err.validator == "required":
        wanted: Any = err.validator_value
        have: Any = err.instance
        missing = [k for k in wanted if k not in have]
        span = loc.span(path)
        what = "a scenario file needs `scenario:` (its name) first" if "scenario" in missing and not path \
            else f"{field_name(path)} needs " + " and ".join(f"`{k}:`" for k in missing)
        return [diag(R.MISSING_FIELD, what, loc, span and Span(span.line, span.col, span.line, span.col + 1))]
    if err.validator in ("minProperties", "maxProperties") and len(path) == 2 and path[0] == "steps":
        return [diag(R.WRONG_VALUE, f"{field_name(path)} must be one of play, phase, step, event or round, one per list item",
                     loc, loc.span(path), "write each step on its own line starting with '- ', such as `- phase: treatment`")]
    description = _description(err)
    if description:
        message = f"{field_name(path)} must be {description}, got {shown(err.instance)}"
    else:
        message = f"{field_name(path)}: {err.message}"
    return [diag(R.WRONG_VALUE, message, loc, loc.span(path), _value_hint(err.instance, description or ""))]


def _description(err: ValidationError) -> str | None:
    schema = err.schema if isinstance(err.schema, dict) else {}
    if "description" in schema:
        return schema["description"]
    parent = err.parent
    while parent is not None:
        if isinstance(parent.schema, dict) and "description" in parent.schema:
            return parent.schema["description"]
        parent = parent.parent
    return None


def _value_hint(value: Any, description: str) -> str | None:
    if not isinstance(value, str) and description.endswith("(text)"):
        return "put the text in quotes: YAML reads no, yes, on, off and numbers as other values"
    if isinstance(value, str) and value.strip().lstrip("-").isdigit() and "number" in description:
        return "write the number without quotes"
    if isinstance(value, str) and "," in value and "list" in description:
        return "write a list in square brackets, such as [a, b]"
    if isinstance(value, (int, float)) and "comparison" in description:
        return None
    if isinstance(value, str) and "comparison" in description:
        return "a comparison is one of == != >= <= > < followed by a number, in quotes: \">= 3\""
    return None


def _unknown_keys(err: ValidationError, loc: Located, path: tuple) -> list[Diagnostic]:
    schema: Any = err.schema
    known = list(schema.get("properties", {}))
    cells = bool(schema.get("patternProperties"))
    out = []
    instance: Any = err.instance
    for key in sorted(str(k) for k in instance if k not in known):
        span = loc.key_span((*path, key))
        where = "the file" if not path else field_name(path)
        if cells and key.replace(" ", "").startswith("cell"):
            out.append(diag(R.UNKNOWN_FIELD, f"'{key}' is not a cell expectation", loc, span,
                            "write a cell as `cell (r, c)`, row and column from 0 to 9, such as `cell (0, 0)`"))
            continue
        guess = nearest(key, known)
        message = f"unknown key '{key}' in {where}" + (f" — did you mean '{guess}'?" if guess else "")
        hint = "keys: " + ", ".join(known) + (", cell (r, c)" if cells else "")
        out.append(diag(R.UNKNOWN_FIELD, message, loc, span, hint))
    return out
