"""Card metadata and rules.yaml checked against the JSON Schemas shipped in the package, at YAML positions."""

from __future__ import annotations

import functools
import json
from importlib import resources
from typing import Any

from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError

from rulekit import registry
from rulekit.content.yamlpos import Located, Span
from rulekit.diagnostics import R
from rulekit.language.diagnostics import Diagnostic, nearest

_ARTICLE = {"advisor": "an advisor", "policy": "a policy", "event": "an event", "combo": "a combo",
            "rules": "rules.yaml"}


# A whole number is an int: JSON Schema's "integer" also takes 4.0, which YAML reads as a float.
_WHOLE = Draft202012Validator.TYPE_CHECKER.redefine(
    "integer", lambda _, value: isinstance(value, int) and not isinstance(value, bool))
_Validator = validators.extend(Draft202012Validator, type_checker=_WHOLE)


@functools.cache
def schema(name: str) -> dict[str, Any]:
    """The JSON Schema of a card kind, or of rules.yaml, with every whole number bounded."""
    text = resources.files("rulekit.content").joinpath(f"schemas/{name}.json").read_text(encoding="utf-8")
    return _bounded(json.loads(text))


def _bounded(node: Any) -> Any:
    """Every whole number a schema leaves unbounded gets the number limit (registry LIMITS) as its
    bound, so that no number in content is larger than the game can hold; descriptions state the
    bounds where they say {min}, {max} or {number}."""
    if isinstance(node, list):
        return [_bounded(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: _bounded(value) for key, value in node.items()}
    kind = out.get("type")
    if kind == "integer" or (isinstance(kind, list) and "integer" in kind):
        out.setdefault("minimum", -registry.MAX_NUMBER)
        out.setdefault("maximum", registry.MAX_NUMBER)
    if isinstance(out.get("description"), str):
        out["description"] = (out["description"].replace("{min}", written(out.get("minimum", 0)))
                              .replace("{max}", written(out.get("maximum", 0)))
                              .replace("{number}", written(registry.MAX_NUMBER)))
    return out


def written(n: int) -> str:
    """A number as the docs write it: 1,000,000,000 and −10."""
    return f"{n:,}".replace("-", "−")


@functools.cache
def _validator(name: str) -> Draft202012Validator:
    return _Validator(schema(name))


def fields(name: str) -> tuple[str, ...]:
    return tuple(schema(name)["properties"])


def validate(loc: Located, name: str) -> list[Diagnostic]:
    """Every schema problem of one card (or of rules.yaml), at the offending value's own position."""
    errors = sorted(_validator(name).iter_errors(loc.data),
                    key=lambda e: ([str(p) for p in e.absolute_path], [str(p) for p in e.absolute_schema_path]))
    diags: list[Diagnostic] = []
    seen: set[tuple] = set()
    for err in errors:
        for d in _explain(err, loc, name):
            key = (d.line, d.col, d.message)
            if key not in seen:
                seen.add(key)
                diags.append(d)
    return diags


def _diag(code: R, message: str, loc: Located, span: Span | None, hint: str | None = None) -> Diagnostic:
    if span is None:
        return Diagnostic.of(code, message, loc.file, hint=hint)
    return Diagnostic.of(code, message, loc.file, span.line, span.col, span.end_line, span.end_col, hint)


def _field(path) -> str:
    out = ""
    for p in path:
        out += f"[{p + 1}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out or "this"


def shown(value: Any) -> str:
    """A value as a designer would have written it."""
    if isinstance(value, str):
        text = f"'{value}'"
    elif isinstance(value, bool):
        text = "true" if value else "false"
    elif value is None:
        text = "nothing"
    elif isinstance(value, (int, float)):
        text = str(value)
    else:
        text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 60 else text[:57] + "…"


def _explain(err: ValidationError, loc: Located, name: str) -> list[Diagnostic]:
    path = tuple(err.absolute_path)
    if err.validator == "additionalProperties":
        return _unknown_fields(err, loc, name, path)
    if err.validator == "required":
        return _missing_fields(err, loc, name, path)
    if err.validator == "type" and err.validator_value == "object":
        return [_diag(R.WRONG_VALUE, f"{_field(path)} must be a mapping of keys and values, got {shown(err.instance)}",
                      loc, loc.span(path))]
    description = err.schema.get("description") if isinstance(err.schema, dict) else None
    message = f"{_field(path)} must be {description}, got {shown(err.instance)}" if description else err.message
    return [_diag(R.WRONG_VALUE, message, loc, loc.span(path), _value_hint(err.instance, description or ""))]


def _value_hint(value: Any, description: str) -> str | None:
    if isinstance(value, str) and "," in value and "list" in description:
        return "write a list in square brackets, such as [2, 3, 4]"
    if not isinstance(value, str) and description.endswith("(text)"):
        return "put the value in quotes"
    if isinstance(value, str) and "whole number" in description and value.strip().lstrip("-").isdigit():
        return "write the number without quotes"
    return None


def _unknown_fields(err: ValidationError, loc: Located, name: str, path: tuple) -> list[Diagnostic]:
    sch: Any = err.schema                # jsonschema types these loosely; here they are the object and its schema
    instance: Any = err.instance
    known = list(sch.get("properties", {}))
    out = []
    for key in sorted(k for k in instance if k not in known):
        key = str(key)
        owners = [k for k in ("advisor", "policy", "event", "combo")
                  if k != name and not path and key in schema(k)["properties"]]
        where = _ARTICLE[name] if not path else f"'{_field(path)}'"
        if owners and name != "rules":
            only = " and ".join(f"{o} cards" for o in owners)
            msg, hint = f"{where} has no '{key}' field (only {only} do)", None
        else:
            guess = nearest(key, known)
            msg = f"unknown field '{key}' in {where}" + (f" — did you mean '{guess}'?" if guess else "")
            hint = "fields: " + ", ".join(known)
        out.append(_diag(R.UNKNOWN_FIELD, msg, loc, loc.key_span((*path, key)), hint))
    return out


def _missing_fields(err: ValidationError, loc: Located, name: str, path: tuple) -> list[Diagnostic]:
    span = loc.span(path)
    if span is not None:
        span = Span(span.line, span.col, span.line, span.col + 1)
    out = []
    # A missing field that an unknown field is a misspelling of is reported once, as that misspelling (RK011).
    sch: Any = err.schema
    instance: Any = err.instance
    required: Any = err.validator_value
    known = [k for k in (sch.get("properties", {}) if isinstance(sch, dict) else {})]
    misspelt = {nearest(str(k), known) for k in instance if k not in known}
    for key in required:
        if key in instance or key in misspelt:
            continue
        if key == "effect":
            msg, hint = "this card has no `effect:`", "write its effect, or mark the card `status: tbd`"
        elif key == "price":
            msg, hint = (f"{_ARTICLE[name]} needs a 'price' field: without one it would be free",
                         "write `price: N`, a list such as `price: [2, 3, 4]`, or `price: 0` for a free card")
        else:
            msg, hint = f"{_ARTICLE[name]} needs a '{key}' field", None
        out.append(_diag(R.MISSING_FIELD, msg, loc, span, hint))
    return out
