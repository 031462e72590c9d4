"""The RPC methods. Each takes the request context first, then its params by name
(jsonrpcserver checks names and arity against these signatures: -32602 on mismatch)."""

from __future__ import annotations

import os
from dataclasses import replace
from typing import Any

from hookd.protocol import HOOK_ASYNC_RESULT, INVALID_PARAMS, PROGRESS, load_openrpc, notification

from ..firing import InvalidFire, fire, is_usable_path, parse_fire
from .dispatch import JsonRpcError, Method, Success


async def fire_method(
    ctx: Any,
    agent: Any = None,
    event: Any = None,
    workspaceRoots: Any = None,
    payload: Any = None,
    timeoutMs: Any = None,
    slowThresholdMs: Any = None,
    workDoneToken: Any = None,
    env: Any = None,
    clientHandlers: Any = None,
    hooksDirs: Any = None,
) -> Any:
    """Run the hooks of one agent event and return their combined result."""
    params = {
        "clientHandlers": clientHandlers,
        "hooksDirs": hooksDirs,
        "agent": agent,
        "event": event,
        "workspaceRoots": workspaceRoots or [],
        "payload": payload if payload is not None else {},
        "timeoutMs": timeoutMs,
        "slowThresholdMs": slowThresholdMs,
        "env": env if env is not None else {},
    }
    daemon = ctx.daemon
    try:
        request = parse_fire(params, daemon.settings)
    except InvalidFire as exc:
        raise JsonRpcError(INVALID_PARAMS, "Invalid params", str(exc)) from None
    request = replace(request, fire_id=ctx.request_id)
    if daemon.registry.add_roots(request.roots):
        daemon.watcher.poke()
    notify = None
    if isinstance(workDoneToken, int | str) and not isinstance(workDoneToken, bool):
        progress_connection = ctx.connection

        async def notify(value: dict[str, Any]) -> None:
            progress_connection.send_progress(PROGRESS, {"token": workDoneToken, "value": value})

    connection = ctx.connection

    def deliver(result: dict[str, Any]) -> None:
        if connection.is_open:
            connection.send(notification(HOOK_ASYNC_RESULT, result))

    result = await fire(
        request,
        registry=daemon.registry,
        settings=daemon.settings,
        stats=daemon.stats,
        notify=notify,
        base_env=daemon.base_env,
        ask_client=connection.ask if request.client_handlers else None,
        background=daemon.background,
        deliver=deliver,
    )
    return Success(result)


async def status_method(ctx: Any) -> Any:
    """Daemon health, the registry summary, fires in flight and per-hook timings."""
    return Success(ctx.daemon.status())


async def hooks_list_method(ctx: Any, roots: Any = None) -> Any:
    """Every registered hook with its dialect, layer and source file, and source errors."""
    daemon = ctx.daemon
    if roots is not None and daemon.registry.add_roots(_checked_roots(roots)):
        daemon.watcher.poke()
    return Success(daemon.registry.listing())


async def roots_add_method(ctx: Any, roots: Any) -> Any:
    """Register workspace roots ahead of any fire, so their hooks are watched and warm."""
    daemon = ctx.daemon
    if daemon.registry.add_roots(_checked_roots(roots)):
        daemon.watcher.poke()
    return Success({"roots": daemon.registry.roots})


async def roots_remove_method(ctx: Any, roots: Any) -> Any:
    """Forget workspace roots (their hooks are no longer listed or watched)."""
    daemon = ctx.daemon
    if daemon.registry.remove_roots(_checked_roots(roots)):
        daemon.watcher.poke()
    return Success({"roots": daemon.registry.roots})


async def shutdown_method(ctx: Any) -> Any:
    """Stop the daemon: in-flight fires are cancelled and answered, hooks are killed."""
    ctx.daemon.request_shutdown("shutdown requested over RPC")
    return Success({"stopping": True, "pid": os.getpid()})


async def discover_method(ctx: Any) -> Any:
    """The OpenRPC document describing this protocol."""
    return Success(load_openrpc())


def _checked_roots(roots: Any) -> list[str]:
    """The roots, normalized; -32602 unless a list of absolute paths."""
    if not isinstance(roots, list) or not all(is_usable_path(r) for r in roots):
        raise JsonRpcError(
            INVALID_PARAMS, "Invalid params", '"roots" must be a list of absolute paths (no NUL)'
        )
    return [os.path.normpath(r) for r in roots]


METHODS: dict[str, Method] = {
    "fire": fire_method,
    "status": status_method,
    "hooks/list": hooks_list_method,
    "roots/add": roots_add_method,
    "roots/remove": roots_remove_method,
    "shutdown": shutdown_method,
    "rpc.discover": discover_method,
}
