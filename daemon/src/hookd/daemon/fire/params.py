"""``fire`` params validated into a ``FireRequest``: every error names the field and
what to send instead (the server answers it as -32602)."""

from __future__ import annotations

import difflib
import os
from collections.abc import Mapping, Sequence
from typing import Any

from hookd.protocol import AGENTS

from ..all_dialects import DIALECTS
from ..dialects.base import DialectModule
from ..jstext import is_positive_finite
from ..model import FireRequest
from ..settings import Settings

CLIENT_HANDLER_TYPES = ("prompt", "agent", "mcp_tool")


class InvalidFire(ValueError):
    """The fire params are wrong; the message says which and how to fix it."""


def parse_fire(
    params: Mapping[str, Any], settings: Settings, fire_id: int | str | None = None
) -> FireRequest:
    """Validate the socket's ``fire`` params into a request (``fire_id``: the request's
    JSON-RPC id): the one place wire names become the typed ``FireRequest``.

    Raises:
        InvalidFire: with a message naming the bad field and what is expected.
    """
    agent = params.get("agent")
    if agent not in AGENTS:
        raise InvalidFire(f'"agent" must be one of {", ".join(AGENTS)}; got {agent!r}')
    module = DIALECTS[agent]  # Dialect is a StrEnum: its value finds it
    event = canonical(module, params.get("event"))
    roots = params.get("workspaceRoots", [])
    if not isinstance(roots, list) or not all(is_usable_path(r) for r in roots):
        raise InvalidFire('"workspaceRoots" must be a list of absolute paths (no NUL bytes)')
    payload = params.get("payload", {})
    if not isinstance(payload, dict):
        raise InvalidFire('"payload" must be a JSON object (the event as the agent sends it)')
    env = params.get("env", {})
    if not isinstance(env, dict) or not all(env_entry_ok(k, v) for k, v in env.items()):
        raise InvalidFire('"env" must map variable names (no "=", no NUL) to strings (no NUL)')
    handlers = params.get("clientHandlers") or []
    if not isinstance(handlers, list) or not all(h in CLIENT_HANDLER_TYPES for h in handlers):
        raise InvalidFire(
            f'"clientHandlers" must list handler types the client runs when asked: '
            f"{', '.join(CLIENT_HANDLER_TYPES)}"
        )
    relay = params.get("relay", False)
    if not isinstance(relay, bool):
        raise InvalidFire('"relay" must be true or false (true: the fire comes from hookd-relay)')
    relay_entry = params.get("relayEntry")
    if relay_entry is not None and not (isinstance(relay_entry, str) and relay):
        raise InvalidFire('"relayEntry" must be a string, sent with "relay": true (hookd-relay '
                          "names the relay entry that fired)")  # fmt: skip
    timeout_s = _positive_ms(params, "timeoutMs")
    slow_threshold_s = _positive_ms(params, "slowThresholdMs")
    dirs = params.get("hooksDirs") or []
    if not isinstance(dirs, list) or not all(is_usable_path(d) for d in dirs):
        raise InvalidFire('"hooksDirs" must be a list of absolute folder paths')
    return new_request(
        module, event, roots, payload, env, settings, fire_id,
        timeout_s=timeout_s, slow_threshold_s=slow_threshold_s,
        client_handlers=frozenset(handlers), hooks_dirs=dirs, relay=relay,
        relay_entry=relay_entry,
    )  # fmt: skip


def canonical(module: DialectModule, raw_event: object) -> str:
    """The dialect's own spelling of the event, or ``InvalidFire`` naming its events."""
    event = module.canonical_event(raw_event) if isinstance(raw_event, str) else None
    if event is None:
        agent = module.DIALECT.value
        guess = did_you_mean(raw_event, module.EVENTS) if isinstance(raw_event, str) else None
        hint = f" (did you mean {guess}?)" if guess else ""
        raise InvalidFire(
            f"{raw_event!r} is not an event of {agent}{hint}; its events: "
            f"{', '.join(module.EVENTS)}"
        )
    return event


def did_you_mean(given: str, known: Sequence[str]) -> str | None:
    """The known name ``given`` most likely meant: the same but for letter case, else the
    closest spelling (``PreToolUSe`` -> ``PreToolUse``), else None."""
    folded = {name.casefold(): name for name in known}
    if given.casefold() in folded:
        return folded[given.casefold()]
    close = difflib.get_close_matches(given.casefold(), list(folded), n=1, cutoff=0.75)
    return folded[close[0]] if close else None


def new_request(
    module: DialectModule,
    event: str,
    roots: Sequence[str],
    payload: dict[str, Any],
    env: dict[str, str],
    settings: Settings,
    fire_id: int | str | None,
    *,
    timeout_s: float | None = None,
    slow_threshold_s: float | None = None,
    client_handlers: frozenset[str] = frozenset(),
    hooks_dirs: Sequence[str] = (),
    relay: bool = False,
    relay_entry: str | None = None,
) -> FireRequest:
    """The request every door makes (the socket's ``fire``, the relay's, the http entry's)
    of values already typed: ``event`` canonical, ``roots`` and ``hooks_dirs`` absolute.
    Raises ``InvalidFire`` for hook folders the dialect does not take."""
    return FireRequest(
        dialect=module.DIALECT,
        event=event,
        roots=tuple(dict.fromkeys(os.path.normpath(r) for r in roots)),  # each root once
        payload=payload,
        env=env,
        timeout_s=timeout_s,
        slow_threshold_s=slow_threshold_s or settings.slow_threshold_ms / 1000,
        client_handlers=client_handlers,
        state_dir=settings.state_dir,
        failure_policy=settings.cline_failure_policy,
        extra_hook_dirs=_hooks_dirs(hooks_dirs, module, env),
        fire_id=fire_id,
        relay=relay,
        relay_entry=relay_entry,
    )


def _hooks_dirs(
    dirs: Sequence[str], module: DialectModule, env: Mapping[str, str]
) -> tuple[str, ...]:
    """Extra hook folders the client names (Cline's ``--hooks-dir``, which the Cline CLI
    passes on as ``CLINE_HOOKS_DIR``): searched first, before the usual folders."""
    if dirs and not module.TAKES_HOOKS_DIRS:
        takers = [d.value for d, m in DIALECTS.items() if m.TAKES_HOOKS_DIRS]
        raise InvalidFire(
            f'"hooksDirs" applies to file-hook dialects ({", ".join(takers)}), '
            f"not {module.DIALECT.value}: its hooks live in settings files"
        )
    from_env = env.get(module.HOOKS_DIR_ENV) if module.HOOKS_DIR_ENV else None
    if from_env and is_usable_path(from_env):
        dirs = [*dirs, from_env]
    return tuple(dict.fromkeys(os.path.normpath(d) for d in dirs))


def is_usable_path(value: object) -> bool:
    """An absolute path the OS can take (NUL bytes cannot be passed to any syscall)."""
    return isinstance(value, str) and os.path.isabs(value) and "\0" not in value


def env_entry_ok(key: object, value: object) -> bool:
    return (
        isinstance(key, str)
        and bool(key)
        and "=" not in key
        and "\0" not in key
        and isinstance(value, str)
        and "\0" not in value
    )


def _positive_ms(params: Mapping[str, Any], name: str) -> float | None:
    value = params.get(name)
    if value is None:
        return None
    if not is_positive_finite(value):
        raise InvalidFire(f'"{name}" must be a positive, finite number of milliseconds')
    return float(value) / 1000
