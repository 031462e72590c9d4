"""Claude Code's non-command handlers: ``http``, and ``prompt``/``agent``/``mcp_tool``.

``http`` is run by the daemon itself (reference "HTTP hook fields"): a POST of the event
JSON, headers with ``$VAR``/``${VAR}`` interpolated only for the names in
``allowedEnvVars`` (narrowed further by any settings-level ``httpHookAllowedEnvVars``).
The other three need a model or an MCP connection, which the agent has and the daemon has
not: they become a ``hook/run`` request to the calling client, with the prompt already
rendered (``$ARGUMENTS``) or the tool input already substituted (``${path}``).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from functools import lru_cache
from typing import Any

from ...jstext import to_json_bytes
from ...model import ClientLaunch, FireRequest, HookSpec, HttpLaunch
from ...urls import UnusableUrl, split_url
from . import credentials

_ENV_REFERENCE = re.compile(r"\$\{([A-Z_][A-Z0-9_]*)\}|\$([A-Z_][A-Z0-9_]*)")
"""Capitals, digits and ``_`` only, as 2.1.328 reads them: ``$lower`` stays as written and
``$Path`` is ``$P`` followed by ``ath``."""
_LINE_BREAKS = re.compile("[\r\n\x00]")
_BODY_FRAMING = frozenset({"content-length", "transfer-encoding"})
"""Headers the agent drops: it frames the request itself."""
_ARGUMENTS = re.compile(r"\\\$|\$ARGUMENTS")
_PATH_REFERENCE = re.compile(r"\$\{([^}]+)\}")


def validate(kind: str, handler: Mapping[str, Any]) -> None:
    """Raise ValueError naming what a handler of ``kind`` lacks."""
    required = {"http": ("url",), "mcp_tool": ("server", "tool"), "prompt": ("prompt",)}
    required["agent"] = ("prompt",)
    for name in required.get(kind, ()):
        if not isinstance(handler.get(name), str) or not handler[name].strip():
            raise ValueError(f'a {kind} handler needs a non-empty "{name}" string')
    if kind == "http":
        try:
            split_url(handler["url"])
        except UnusableUrl as exc:
            raise ValueError(str(exc)) from None
        headers = handler.get("headers", {})
        if not isinstance(headers, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in headers.items()
        ):
            raise ValueError('"headers" must map header names to strings')
        allowed = handler.get("allowedEnvVars", [])
        if not isinstance(allowed, list) or not all(isinstance(a, str) for a in allowed):
            raise ValueError('"allowedEnvVars" must be a list of variable names')
    if kind == "mcp_tool" and not isinstance(handler.get("input", {}), dict):
        raise ValueError('"input" must be an object of tool arguments')


def url_allowed(url: str, allowlist: Collection[str] | None) -> bool:
    """``allowedHttpHookUrls``: when defined, the URL must match one entry, where ``*``
    matches any run of characters and everything else is literal (``[::1]`` included)."""
    if allowlist is None:
        return True
    return any(_url_pattern(pattern).fullmatch(url) for pattern in allowlist)


@lru_cache(maxsize=256)
def _url_pattern(pattern: str) -> re.Pattern[str]:
    return re.compile(".*".join(re.escape(part) for part in pattern.split("*")), re.DOTALL)


def prepare_http(spec: HookSpec, payload: Mapping[str, Any], env: Mapping[str, str]) -> HttpLaunch:
    """The POST of an http hook: header values with their variables interpolated
    (``interpolate_env``) and trimmed, as fetch does (an empty variable must not leave
    "Bearer " with a trailing space, which HTTP forbids); ``Content-Length`` and
    ``Transfer-Encoding`` dropped; refused when its URL is (``refusal``)."""
    handler = spec.options["handler"]
    allowed = set(handler.get("allowedEnvVars") or ())
    policy = spec.options.get("httpEnvAllow")
    if policy is not None:
        allowed &= set(policy)
    managed = frozenset(spec.options.get("managedEnvAllow") or ())
    scrub = credentials.scrubbing(env)
    headers = tuple(
        (name, interpolate_env(value, env, allowed, managed, scrub=scrub).strip())
        for name, value in (handler.get("headers") or {}).items()
        if _header_key(name) not in _BODY_FRAMING
    )
    return HttpLaunch(url=handler["url"], headers=headers, body=to_json_bytes(payload),
                      refusal=spec.options.get("refusal"))  # fmt: skip


def _header_key(name: str) -> str:
    return re.sub("[^a-z0-9]", "-", name.strip().lower())


def interpolate_env(
    text: str,
    env: Mapping[str, str],
    allowed: Collection[str],
    managed_allow: frozenset[str] = frozenset(),
    *,
    scrub: bool = False,
) -> str:
    """``$VAR`` and ``${VAR}`` (``_ENV_REFERENCE``): the value when ``allowedEnvVars``
    allows the name and it is not one the agent withholds from headers
    (``credentials.withheld_from_header``), else empty; line breaks and NULs removed from
    the result, as the agent removes them."""

    def value(match: re.Match[str]) -> str:
        name = match.group(1) or match.group(2)
        if name not in allowed:
            return ""
        found = env.get(name)
        if credentials.withheld_from_header(name, found, managed_allow, scrub):
            return ""
        return found or ""

    return _LINE_BREAKS.sub("", _ENV_REFERENCE.sub(value, text))


def prepare_client(
    spec: HookSpec, request: FireRequest, payload: Mapping[str, Any]
) -> ClientLaunch:
    """The ``hook/run`` params: what to run, for which event, with the input rendered."""
    kind = spec.options["type"]
    handler = spec.options["handler"]
    params: dict[str, Any] = {
        "agent": request.dialect.value,
        "fireId": request.fire_id,
        "type": kind,
        "event": request.event,
        "source": spec.source,
        "layer": spec.layer,
        "sessionId": request.session_id,
        "handler": handler,
        "hookInput": payload,
    }
    if kind == "mcp_tool":
        params.update(
            server=handler["server"],
            tool=handler["tool"],
            input=substitute_paths(handler.get("input") or {}, payload),
        )
    else:
        params.update(
            prompt=render_prompt(handler["prompt"], to_json_bytes(payload).decode()),
            model=handler.get("model"),
        )
    return ClientLaunch(handler_type=kind, params=params)


def render_prompt(prompt: str, arguments: str) -> str:
    """``$ARGUMENTS`` becomes the hook input JSON (appended when absent); ``\\$`` is a
    literal ``$``."""
    seen = False

    def replace(match: re.Match[str]) -> str:
        nonlocal seen
        if match.group(0) == "\\$":
            return "$"
        seen = True
        return arguments

    rendered = _ARGUMENTS.sub(replace, prompt)
    return rendered if seen else f"{rendered}\n\n{arguments}"


def substitute_paths(value: Any, payload: Mapping[str, Any]) -> Any:
    """``${tool_input.file_path}`` in string values, looked up in the hook input."""
    if isinstance(value, str):
        return _PATH_REFERENCE.sub(lambda m: _lookup(payload, m.group(1)), value)
    if isinstance(value, list):
        return [substitute_paths(item, payload) for item in value]
    if isinstance(value, dict):
        return {key: substitute_paths(item, payload) for key, item in value.items()}
    return value


def _lookup(payload: Mapping[str, Any], path: str) -> str:
    current: Any = payload
    for part in path.strip().split("."):
        if isinstance(current, Mapping) and part in current:
            current = current[part]
        elif isinstance(current, list) and part.isdigit() and int(part) < len(current):
            current = current[int(part)]
        else:
            return ""
    return current if isinstance(current, str) else to_json_bytes(current).decode()
