"""The RPC methods. Each takes the request context first, then its params by name
(jsonrpcserver checks names and arity against these signatures: -32602 on mismatch)."""

from __future__ import annotations

import os
import time
from dataclasses import replace
from functools import partial
from typing import Any

import trio

from hookd.protocol import (
    DISCOVER,
    FIRE,
    FIRE_TOO_DEEP,
    HOOK_ASYNC_RESULT,
    HOOKS_LIST,
    INVALID_PARAMS,
    NOT_FROM_A_HOOK,
    PROGRESS,
    ROOTS_ADD,
    ROOTS_REMOVE,
    SHUTDOWN,
    STATUS,
    load_openrpc,
    notification,
)

from ..audit import Peer
from ..fire.params import InvalidFire, is_usable_path, parse_fire
from ..fire.pipeline import Fire, FirePorts
from .context import RequestContext
from .dispatch import JsonRpcError, Later, Method, Starter, Success, awaited


def start_fire(
    ctx: RequestContext,
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
    relay: Any = False,
    relayEntry: Any = None,
) -> Any:
    """Run the hooks of one agent event and return their combined result.

    Answered at once when no hook runs in the foreground (no task, no await: the cost of
    the many tool calls no hook matches); otherwise the hooks run when awaited."""
    params = {
        "clientHandlers": clientHandlers,
        "hooksDirs": hooksDirs,
        "relay": relay,
        "relayEntry": relayEntry,
        "agent": agent,
        "event": event,
        "workspaceRoots": workspaceRoots or [],
        "payload": payload if payload is not None else {},
        "timeoutMs": timeoutMs,
        "slowThresholdMs": slowThresholdMs,
        "env": env if env is not None else {},
    }
    services = ctx.services
    try:
        request = parse_fire(params, services.settings, ctx.request_id)
    except InvalidFire as exc:
        raise JsonRpcError(INVALID_PARAMS, "Invalid params", str(exc)) from None
    connection = ctx.connection
    caller = connection.caller
    peer = Peer(caller.pid, caller.uid, caller.inside_hook)
    audit = services.audit
    try:
        if caller.inside_hook:  # else the depth is 0, as parsed
            request = replace(request, depth=_nesting(ctx))
    except JsonRpcError as refused:
        audit.fire(
            peer=peer, request_id=ctx.request_id, agent=request.dialect.value,
            event=request.event, roots=request.roots, depth=-1, outcome="refused",
            reason=str(refused.data),
        )  # fmt: skip
        raise
    services.add_roots(request.roots)
    notify = None
    if isinstance(workDoneToken, int | str) and not isinstance(workDoneToken, bool):

        def notify(value: dict[str, Any]) -> None:
            connection.send_progress(PROGRESS, {"token": workDoneToken, "value": value})

    def deliver(result: dict[str, Any]) -> None:
        audit.async_result(
            peer=peer, agent=request.dialect.value, event=request.event, result=result
        )
        if connection.is_open:
            connection.send(notification(HOOK_ASYNC_RESULT, result))

    ports = FirePorts(
        notify=notify,
        ask_client=connection.ask if request.client_handlers else None,
        deliver=deliver,
    )
    record = partial(
        audit.fire, peer=peer, request_id=ctx.request_id, agent=request.dialect.value,
        event=request.event, roots=request.roots, depth=request.depth,
    )  # fmt: skip
    begun_at = time.perf_counter()
    try:
        started = Fire(request, services, ports)
        result = None if started.specs else started.result_now()
    except BaseException:  # a bug in the lookup or the result: the fire is still recorded
        record(outcome="failed", duration_ms=round((time.perf_counter() - begun_at) * 1000, 3))
        raise
    if result is not None:
        record(result=result)
        return Success(result)

    async def run() -> Any:
        try:
            result = await started.result()
        except BaseException as exc:
            outcome = "cancelled" if _only_cancelled(exc) else "failed"
            elapsed = round((time.perf_counter() - started.started) * 1000, 3)
            record(outcome=outcome, duration_ms=elapsed)
            raise
        record(result=result)
        return Success(result)

    return Later(run)


async def status_method(ctx: RequestContext) -> Any:
    """Daemon health, the registry summary, fires in flight and per-hook timings."""
    return Success(ctx.services.status())


async def hooks_list_method(ctx: RequestContext, roots: Any = None) -> Any:
    """Every registered hook with its dialect, layer and source file, and source errors."""
    if roots is not None:
        ctx.services.add_roots(_checked_roots(roots))
    return Success(ctx.services.registry.listing())


async def roots_add_method(ctx: RequestContext, roots: Any) -> Any:
    """Register workspace roots ahead of any fire, so their hooks are watched and warm."""
    _not_from_a_hook(ctx, "roots/add")
    ctx.services.add_roots(_checked_roots(roots))
    return Success({"roots": ctx.services.registry.roots})


async def roots_remove_method(ctx: RequestContext, roots: Any) -> Any:
    """Forget workspace roots (their hooks are no longer listed or watched)."""
    _not_from_a_hook(ctx, "roots/remove")
    ctx.services.remove_roots(_checked_roots(roots))
    return Success({"roots": ctx.services.registry.roots})


async def shutdown_method(ctx: RequestContext) -> Any:
    """Stop the daemon: in-flight fires are cancelled and answered, hooks are killed."""
    _not_from_a_hook(ctx, "shutdown")
    ctx.services.request_shutdown("shutdown requested over RPC")
    return Success({"stopping": True, "pid": os.getpid()})


async def discover_method(ctx: RequestContext) -> Any:
    """The OpenRPC document describing this protocol."""
    return Success(load_openrpc())


def _only_cancelled(exc: BaseException) -> bool:
    """Whether a fire ended by cancellation alone (possibly grouped by nurseries)."""
    if isinstance(exc, BaseExceptionGroup):
        return all(_only_cancelled(inner) for inner in exc.exceptions)
    return isinstance(exc, trio.Cancelled)


def _nesting(ctx: RequestContext) -> int:
    """How deeply a fire is nested in hooks (0: an agent's); -1004 past the cap."""
    caller = ctx.connection.caller
    if not caller.inside_hook:
        return 0
    services = ctx.services
    custody = services.custody
    parent = custody.depth_of(caller.hook_id) if custody is not None else None
    depth = (parent or 0) + 1
    limit = services.settings.max_fire_depth
    if depth > limit:
        raise JsonRpcError(
            FIRE_TOO_DEEP,
            "Fire too deep",
            f"this fire comes from inside a hook, nested {depth} deep; hookd allows "
            f"{limit} (max_fire_depth). A hook that fires its own event would recurse "
            "forever: fire a different event, or raise max_fire_depth in hookd's config",
        )
    return depth


def _not_from_a_hook(ctx: RequestContext, method: str) -> None:
    if ctx.connection.caller.inside_hook:
        raise JsonRpcError(
            NOT_FROM_A_HOOK,
            "A hook may not call this method",
            f"{method} was called from inside a hook (process {ctx.connection.caller.pid}); "
            "it would stop or reconfigure hookd for every agent. Run it yourself, "
            "outside any hook",
        )


def _checked_roots(roots: Any) -> list[str]:
    """The roots, normalized; -32602 unless a list of absolute paths."""
    if not isinstance(roots, list) or not all(is_usable_path(r) for r in roots):
        raise JsonRpcError(
            INVALID_PARAMS, "Invalid params", '"roots" must be a list of absolute paths (no NUL)'
        )
    return [os.path.normpath(r) for r in roots]


STARTERS: dict[str, Starter] = {FIRE: start_fire}
"""Methods that can answer at once, without a task: the server tries these first."""

METHODS: dict[str, Method] = {
    **{name: awaited(starter) for name, starter in STARTERS.items()},
    STATUS: status_method,
    HOOKS_LIST: hooks_list_method,
    ROOTS_ADD: roots_add_method,
    ROOTS_REMOVE: roots_remove_method,
    SHUTDOWN: shutdown_method,
    DISCOVER: discover_method,
}
