"""A small JSON Schema checker for the keywords ``openrpc.json`` uses, so tests can
check real answers against the published schemas without a test-only dependency.

It raises on any keyword it does not know: a schema that grows a new keyword fails
loudly here instead of being checked less than it seems.
"""

from __future__ import annotations

import re
from typing import Any

_ANNOTATIONS = {"title", "description"}
_TYPES: dict[str, Any] = {
    "object": dict,
    "array": list,
    "string": str,
    "boolean": bool,
    "null": type(None),
}


def schema_errors(value: Any, schema: Any, document: dict[str, Any], at: str = "$") -> list[str]:
    """Every way ``value`` breaks ``schema`` (refs resolve inside ``document``)."""
    if schema is True or schema == {}:
        return []
    if schema is False:
        return [f"{at}: no value is allowed here"]
    errors: list[str] = []
    for keyword, rule in schema.items():
        if keyword in _ANNOTATIONS:
            continue
        check = _CHECKS.get(keyword)
        if check is None:
            raise NotImplementedError(f"schema keyword {keyword!r} at {at}")
        errors += check(value, rule, schema, document, at)
    return errors


def _ref(value: Any, rule: str, _s: Any, document: dict[str, Any], at: str) -> list[str]:
    target: Any = document
    for part in rule.removeprefix("#/").split("/"):
        target = target[part]
    return schema_errors(value, target, document, at)


def _type(value: Any, rule: Any, _s: Any, _d: Any, at: str) -> list[str]:
    names = rule if isinstance(rule, list) else [rule]
    for name in names:
        if name == "integer" and isinstance(value, int) and not isinstance(value, bool):
            return []
        if name == "number" and isinstance(value, int | float) and not isinstance(value, bool):
            return []
        is_bool_posing = name != "boolean" and isinstance(value, bool)
        if name in _TYPES and isinstance(value, _TYPES[name]) and not is_bool_posing:
            return []
    return [f"{at}: {value!r} is not of type {rule}"]


def _properties(value: Any, rule: dict[str, Any], _s: Any, d: Any, at: str) -> list[str]:
    if not isinstance(value, dict):
        return []
    return [
        e
        for k, sub in rule.items()
        if k in value
        for e in schema_errors(value[k], sub, d, f"{at}.{k}")
    ]


def _required(value: Any, rule: list[str], _s: Any, _d: Any, at: str) -> list[str]:
    if not isinstance(value, dict):
        return []
    return [f"{at}: missing {k!r}" for k in rule if k not in value]


def _additional(value: Any, rule: Any, schema: dict[str, Any], d: Any, at: str) -> list[str]:
    if not isinstance(value, dict):
        return []
    known = schema.get("properties", {})
    extra = [k for k in value if k not in known]
    if rule is False:
        return [f"{at}: unexpected field {k!r}" for k in extra]
    return [e for k in extra for e in schema_errors(value[k], rule, d, f"{at}.{k}")]


def _items(value: Any, rule: Any, _s: Any, d: Any, at: str) -> list[str]:
    if not isinstance(value, list):
        return []
    return [e for i, item in enumerate(value) for e in schema_errors(item, rule, d, f"{at}[{i}]")]


def _enum(value: Any, rule: list[Any], _s: Any, _d: Any, at: str) -> list[str]:
    return [] if value in rule else [f"{at}: {value!r} is not one of {rule}"]


def _const(value: Any, rule: Any, _s: Any, _d: Any, at: str) -> list[str]:
    return [] if value == rule else [f"{at}: {value!r} is not {rule!r}"]


def _all_of(value: Any, rule: list[Any], _s: Any, d: Any, at: str) -> list[str]:
    return [e for sub in rule for e in schema_errors(value, sub, d, at)]


def _any_of(value: Any, rule: list[Any], _s: Any, d: Any, at: str) -> list[str]:
    results = [schema_errors(value, sub, d, at) for sub in rule]
    if any(not r for r in results):
        return []
    return [f"{at}: matches none of {len(rule)} alternatives: {results}"]


def _one_of(value: Any, rule: list[Any], _s: Any, d: Any, at: str) -> list[str]:
    matching = sum(not schema_errors(value, sub, d, at) for sub in rule)
    return [] if matching == 1 else [f"{at}: matches {matching} of the oneOf alternatives"]


def _minimum(value: Any, rule: float, _s: Any, _d: Any, at: str) -> list[str]:
    ok = not isinstance(value, int | float) or isinstance(value, bool) or value >= rule
    return [] if ok else [f"{at}: {value!r} < {rule}"]


def _maximum(value: Any, rule: float, _s: Any, _d: Any, at: str) -> list[str]:
    ok = not isinstance(value, int | float) or isinstance(value, bool) or value <= rule
    return [] if ok else [f"{at}: {value!r} > {rule}"]


def _pattern(value: Any, rule: str, _s: Any, _d: Any, at: str) -> list[str]:
    ok = not isinstance(value, str) or re.search(rule, value)
    return [] if ok else [f"{at}: {value!r} does not match {rule!r}"]


_CHECKS = {
    "$ref": _ref,
    "type": _type,
    "properties": _properties,
    "required": _required,
    "additionalProperties": _additional,
    "items": _items,
    "enum": _enum,
    "const": _const,
    "allOf": _all_of,
    "anyOf": _any_of,
    "oneOf": _one_of,
    "minimum": _minimum,
    "maximum": _maximum,
    "pattern": _pattern,
}
