"""The ``fire`` use case: validate, look up hooks, run them, stream progress, combine."""

from __future__ import annotations

import os
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import trio

from hookd.protocol import AGENTS

from .combiner import combine
from .dialects import DIALECTS
from .dialects.settings_json import is_positive_finite
from .model import Dialect, FireRequest, HookReport, HookSpec
from .registry.registry import Registry
from .runner.background import BackgroundHooks, Deliver
from .runner.client_handler import AskClient
from .runner.runner import run_hooks
from .settings import Settings
from .stats import Stats

Notify = Callable[[dict[str, Any]], Awaitable[None]]
"""Sends one progress value (``$/progress`` ``value``) to the caller."""

CLIENT_HANDLER_TYPES = ("prompt", "agent", "mcp_tool")
HOOKS_DIR_DIALECTS = ("cline", "cline-sdk")


class InvalidFire(ValueError):
    """The fire params are wrong; the message says which and how to fix it."""


def parse_fire(params: Mapping[str, Any], settings: Settings) -> FireRequest:
    """Validate ``fire`` params into a request.

    Raises:
        InvalidFire: with a message naming the bad field and what is expected.
    """
    agent = params.get("agent")
    if agent not in AGENTS:
        raise InvalidFire(f'"agent" must be one of {", ".join(AGENTS)}; got {agent!r}')
    module = DIALECTS[agent]
    raw_event = params.get("event")
    event = module.canonical_event(raw_event) if isinstance(raw_event, str) else None
    if event is None:
        raise InvalidFire(
            f"{raw_event!r} is not a {agent} event; known events: {', '.join(module.EVENTS)}"
        )
    roots = params.get("workspaceRoots", [])
    if not isinstance(roots, list) or not all(is_usable_path(r) for r in roots):
        raise InvalidFire('"workspaceRoots" must be a list of absolute paths (no NUL bytes)')
    payload = params.get("payload", {})
    if not isinstance(payload, dict):
        raise InvalidFire('"payload" must be a JSON object (the event as the agent sends it)')
    env = params.get("env", {})
    if not isinstance(env, dict) or not all(_env_entry_ok(k, v) for k, v in env.items()):
        raise InvalidFire('"env" must map variable names (no "=", no NUL) to strings (no NUL)')
    handlers = params.get("clientHandlers") or []
    if not isinstance(handlers, list) or not all(h in CLIENT_HANDLER_TYPES for h in handlers):
        raise InvalidFire(
            f'"clientHandlers" must list handler types the client runs when asked: '
            f"{', '.join(CLIENT_HANDLER_TYPES)}"
        )
    return FireRequest(
        dialect=Dialect(agent),
        event=event,
        roots=tuple(dict.fromkeys(os.path.normpath(r) for r in roots)),  # each root once
        payload=payload,
        env=env,
        timeout_s=_positive_ms(params, "timeoutMs"),
        slow_threshold_s=_positive_ms(params, "slowThresholdMs")
        or settings.slow_threshold_ms / 1000,
        client_handlers=frozenset(handlers),
        state_dir=settings.state_dir,
        extra_hook_dirs=_hooks_dirs(params, agent, env),
    )


def _hooks_dirs(params: Mapping[str, Any], agent: str, env: Mapping[str, str]) -> tuple[str, ...]:
    """Extra hook folders the client names (Cline's ``--hooks-dir``, which the Cline CLI
    passes on as ``CLINE_HOOKS_DIR``): searched first, before the usual folders."""
    dirs = params.get("hooksDirs") or []
    if not isinstance(dirs, list) or not all(is_usable_path(d) for d in dirs):
        raise InvalidFire('"hooksDirs" must be a list of absolute folder paths')
    if dirs and agent not in HOOKS_DIR_DIALECTS:
        raise InvalidFire(
            f'"hooksDirs" applies to file-hook dialects ({", ".join(HOOKS_DIR_DIALECTS)}), '
            f"not {agent}: its hooks live in settings files"
        )
    from_env = env.get("CLINE_HOOKS_DIR") if agent in HOOKS_DIR_DIALECTS else None
    if from_env and is_usable_path(from_env):
        dirs = [*dirs, from_env]
    return tuple(dict.fromkeys(os.path.normpath(d) for d in dirs))


def is_usable_path(value: object) -> bool:
    """An absolute path the OS can take (NUL bytes cannot be passed to any syscall)."""
    return isinstance(value, str) and os.path.isabs(value) and "\0" not in value


def _env_entry_ok(key: object, value: object) -> bool:
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


async def fire(
    request: FireRequest,
    *,
    registry: Registry,
    settings: Settings,
    stats: Stats,
    notify: Notify | None,
    base_env: Mapping[str, str],
    ask_client: AskClient | None = None,
    background: BackgroundHooks | None = None,
    deliver: Deliver | None = None,
) -> dict[str, Any]:
    """Run one fire end to end and return its result object."""
    started = time.perf_counter()
    module = DIALECTS[request.dialect.value]
    switched_off = _switched_off(request, settings)
    specs: list[HookSpec]
    if switched_off:
        specs, warnings = [], [switched_off]
    else:
        specs, warnings = registry.hooks_for(request)
    started_async: list[dict[str, Any]] = []
    summarize = getattr(module, "async_result", None)
    if background is not None and summarize is not None:
        for spec in [s for s in specs if s.options.get("async")]:
            began = background.start(request, spec, summarize, deliver)
            started_async.append(began)
            if "notStarted" in began:
                warnings.append(f"{spec.source}: async hook {spec.command!r} was not started: "
                                f"{began['notStarted']}")  # fmt: skip
    specs = [s for s in specs if not s.options.get("async")]
    entry = stats.begin(request.dialect.value, request.event, request.roots)
    entry.hooks_total = len(specs)
    total = len(specs)
    runs_by_index: dict[int, dict[str, Any]] = {}

    async def progress(kind: str, data: dict[str, Any]) -> None:
        if kind == "hook/started":
            entry.running[data["index"]] = data["source"]
        elif kind == "hook/finished":  # data is the hook's entry in the result's "hooks"
            entry.running.pop(data["index"], None)
            entry.hooks_done += 1
            runs_by_index[data["index"]] = data
            stats.record(data)
        if notify is not None:
            await notify(_report(kind, data, entry.hooks_done, total))

    finished = False
    try:
        if notify is not None:
            await notify(_begin(request, total))
        reports = await run_hooks(
            request,
            specs,
            settings=settings,
            base_env=base_env,
            progress=progress,
            ask_client=ask_client,
        )
        finished = True
        # Taken only now: a fire that is cancelled or fails leaves them for the next one.
        async_results = background.take(request) if background is not None else []
    finally:
        stats.end(entry)
        if notify is not None and not finished:
            # Cancelled (or failed): still close the progress, as LSP clients expect.
            with trio.CancelScope(shield=True), trio.move_on_after(1.0):
                await notify(_end_cancelled(time.perf_counter() - started))
    combined = combine(reports, module.POLICY)
    runs = [runs_by_index[report.index] for report in reports]
    slowest = max(runs, key=lambda r: r["durationMs"], default=None)
    result: dict[str, Any] = {
        "blocked": combined["blocked"],
        "decision": combined["decision"],
        "reason": combined["reason"],
        "context": combined["context"],
        "updatedInput": combined["updatedInput"],
        "updatedInputFrom": combined["updatedInputFrom"],
        "continue": combined["continue"],
        "stopReason": combined["stopReason"],
        "systemMessage": combined["systemMessage"],
        "native": module.native(request, combined),
        "hooks": runs,
        "slowest": _slowest(slowest),
        "durationMs": round((time.perf_counter() - started) * 1000, 3),
        "warnings": warnings + combined["warnings"] + _spill_warnings(reports),
        "asyncStarted": started_async,
        "asyncResults": async_results,
    }
    extras = getattr(module, "fire_extras", None)
    if extras is not None:
        result.update(extras(request, reports))
    if notify is not None:
        await notify(_end(result))
    return result


def _switched_off(request: FireRequest, settings: Settings) -> str | None:
    """Why no hook runs for this fire by hookd's own configuration, or None."""
    if settings.disable_all_hooks:
        return "no hooks ran: disable_all_hooks is set in hookd's configuration"
    if request.dialect.value in settings.disabled_dialects:
        return (
            f"no hooks ran: the {request.dialect.value} dialect is in disabled_dialects in "
            "hookd's configuration"
        )
    return None


def _spill_warnings(reports: list[HookReport]) -> list[str]:
    return [
        f"{r.spec.source}: {spill['field']} was {spill['chars']} characters, over the "
        f"limit; a preview was kept and the full text saved to {spill['path']}"
        for r in reports
        for spill in r.verdict.spilled
    ]


def _slowest(run: dict[str, Any] | None) -> dict[str, Any] | None:
    if run is None:
        return None
    return {k: run[k] for k in ("index", "source", "command", "durationMs")}


def _begin(request: FireRequest, total: int) -> dict[str, Any]:
    return {
        "kind": "begin",
        "title": f"hookd {request.dialect.value} {request.event}",
        "cancellable": request.event
        not in getattr(DIALECTS[request.dialect.value], "UNCANCELLABLE_EVENTS", ()),
        "message": f"{total} hook{'s' if total != 1 else ''} to run",
        "percentage": 0,
        "hookd": {
            "type": "fire/begin",
            "agent": request.dialect.value,
            "event": request.event,
            "hooks": total,
        },
    }


def _hook_name(data: dict[str, Any]) -> str:
    """Settings-file hooks are named by their command, file hooks by their file."""
    if data["dialect"] in ("claude", "augment"):
        return str(data["command"])
    return os.path.basename(str(data["source"]))


def _report(kind: str, data: dict[str, Any], done: int, total: int) -> dict[str, Any]:
    name = _hook_name(data)
    if kind == "hook/started":
        message = f"started {name}"
    elif kind == "hook/slow":
        message = f"{name} is slow: still running after {data['elapsedMs']} ms"
    else:
        outcome = "timed out" if data["timedOut"] else f"exit {data['exitCode']}"
        message = f"finished {name} in {data['durationMs']:.0f} ms ({outcome})"
    return {
        "kind": "report",
        "message": message,
        "percentage": (done * 100 // total) if total else 100,
        "hookd": {"type": kind, **data},
    }


def _end(result: dict[str, Any]) -> dict[str, Any]:
    count = len(result["hooks"])
    slowest = result["slowest"]
    message = f"{count} hook{'s' if count != 1 else ''} in {result['durationMs']:.0f} ms"
    if slowest is not None:
        slowest_name = _hook_name(
            {**slowest, "dialect": result["hooks"][slowest["index"]]["dialect"]}
        )
        message += f"; slowest: {slowest_name} ({slowest['durationMs']:.0f} ms)"
    if result["blocked"]:
        message += "; blocked"
    return {
        "kind": "end",
        "message": message,
        "hookd": {
            "type": "fire/end",
            "durationMs": result["durationMs"],
            "slowest": slowest,
            "blocked": result["blocked"],
        },
    }


def _end_cancelled(elapsed_s: float) -> dict[str, Any]:
    return {
        "kind": "end",
        "message": f"cancelled after {elapsed_s * 1000:.0f} ms",
        "hookd": {
            "type": "fire/end",
            "durationMs": round(elapsed_s * 1000, 3),
            "slowest": None,
            "blocked": False,
            "cancelled": True,
        },
    }
