"""The RPC methods. Each takes the request context first, then its params by name
(jsonrpcserver checks names and arity against these signatures: -32602 on mismatch)."""

from __future__ import annotations

import os
from typing import Any

from hookd.protocol import (
    DISCOVER,
    FIRE,
    HOOK_ASYNC_RESULT,
    HOOKS_EXPLAIN,
    HOOKS_LIST,
    INVALID_PARAMS,
    NOT_FROM_A_HOOK,
    PROGRESS,
    RELAY,
    ROOTS_ADD,
    ROOTS_REMOVE,
    SHUTDOWN,
    STATUS,
    load_openrpc,
    notification,
)

from ..audit import Peer
from ..fire.entry import Caller, FireRefused, Started, start
from ..fire.explain import explain
from ..fire.params import InvalidFire, env_entry_ok, is_usable_path, parse_fire
from ..fire.pipeline import FirePorts
from ..fire.relay import Refused as RelayRefused
from ..fire.relay import RelayParams, relay_request
from ..fire.relay import failing as relay_failing
from ..model import FireRequest
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
    try:
        request = parse_fire(params, ctx.services.settings, ctx.request_id)
    except InvalidFire as exc:
        raise JsonRpcError(INVALID_PARAMS, "Invalid params", str(exc)) from None
    peer = _peer(ctx)
    ports = _ports(ctx, request, peer, workDoneToken)
    started = _start(ctx, request, peer, ports)
    if started.now is not None:
        return Success(started.now)

    async def run() -> Any:
        return Success(await started.result())

    return Later(run)


def start_relay(
    ctx: RequestContext,
    agent: Any,
    stdin: Any,
    cwd: Any,
    args: Any = None,
    env: Any = None,
    onError: Any = None,
) -> Any:
    """One run of an agent's relay entry: what the agent must read (``fire.relay``).

    Answered at once when no hook runs in the foreground, as ``fire`` is; an event hookd
    cannot fire is answered as the agent's failing hook, not as an error."""
    params = _relay_params(agent, args, stdin, cwd, env, onError)
    try:
        request, integration = relay_request(params, ctx.services.settings, ctx.request_id)
    except RelayRefused as refused:
        return Success(refused.answer.wire())
    peer = _peer(ctx)
    try:
        started = _start(ctx, request, peer, _ports(ctx, request, peer))
    except JsonRpcError as refused:  # nested too deep
        reason = f"hookd refused the event: {refused.message} ({refused.code}): {refused.data}"
        return Success(relay_failing(integration, params, reason).wire())
    if started.now is not None:
        return Success(integration.relay_answer(request, started.now).wire())

    async def run() -> Any:
        result = await started.result()
        return Success(integration.relay_answer(request, result).wire())

    return Later(run)


def _relay_params(
    agent: Any, args: Any, stdin: Any, cwd: Any, env: Any, on_error: Any
) -> RelayParams:
    """The ``relay`` params typed, or -32602 naming the one of the wrong type (a relay of
    another version, or not hookd's: what an agent sends is answered, not refused)."""
    args = [] if args is None else args
    env = {} if env is None else env
    checks = (
        (isinstance(agent, str), '"agent" must be a string (the entry\'s first argument)'),
        (isinstance(args, list) and all(isinstance(a, str) for a in args),
         '"args" must be a list of strings (the entry\'s other arguments)'),
        (isinstance(stdin, str), '"stdin" must be a string (what the agent wrote)'),
        (is_usable_path(cwd), '"cwd" must be an absolute path (the relay\'s working folder)'),
        (isinstance(env, dict) and all(env_entry_ok(k, v) for k, v in env.items()),
         '"env" must map variable names (no "=", no NUL) to strings (no NUL)'),
        (on_error in (None, "continue", "block"), '"onError" must be "continue" or "block"'),
    )  # fmt: skip
    for fine, says in checks:
        if not fine:
            raise JsonRpcError(INVALID_PARAMS, "Invalid params", says)
    return RelayParams(agent, tuple(args), stdin, os.path.normpath(cwd), env, on_error == "block")


def _ports(ctx: RequestContext, request: FireRequest, peer: Peer, token: Any = None) -> FirePorts:
    """How a fire reaches its connection: progress for a ``workDoneToken``, ``hook/run``
    for the handler types the client offers, and background hooks' results (audited even
    when the connection is gone, as a relay's is once it has answered)."""
    connection = ctx.connection
    audit = ctx.services.audit
    notify = None
    if isinstance(token, int | str) and not isinstance(token, bool):

        def notify(value: dict[str, Any]) -> None:
            connection.send_progress(PROGRESS, {"token": token, "value": value})

    def deliver(result: dict[str, Any]) -> None:
        audit.async_result(
            peer=peer, agent=request.dialect.value, event=request.event, result=result
        )
        if connection.is_open:
            connection.send(notification(HOOK_ASYNC_RESULT, result))

    ask_client = connection.ask if request.client_handlers else None
    return FirePorts(notify=notify, ask_client=ask_client, deliver=deliver)


def _peer(ctx: RequestContext) -> Peer:
    caller = ctx.connection.caller
    return Peer(caller.pid, caller.uid, caller.inside_hook)


def _start(ctx: RequestContext, request: FireRequest, peer: Peer, ports: FirePorts) -> Started:
    """Admit and start a fire of this connection (-1004 when nested too deep)."""
    caller = Caller(peer, ctx.request_id, ctx.connection.caller.hook_id)
    try:
        return start(request, ctx.services, caller, ports)
    except FireRefused as refused:
        raise JsonRpcError(refused.code, refused.message, refused.data) from None


async def status_method(ctx: RequestContext) -> Any:
    """Daemon health, the registry summary, fires in flight and per-hook timings."""
    return Success(ctx.services.status())


async def hooks_list_method(ctx: RequestContext, roots: Any = None) -> Any:
    """Every registered hook with its dialect, layer and source file, and source errors;
    with ``roots``: those roots' (registered first), the user's and the system's only."""
    if roots is None:
        return Success(ctx.services.registry.listing())
    checked = _checked_roots(roots)
    ctx.services.add_roots(checked)
    return Success(ctx.services.registry.listing(checked))


async def hooks_explain_method(
    ctx: RequestContext,
    agent: Any = None,
    event: Any = None,
    workspaceRoots: Any = None,
    payload: Any = None,
    hooksDirs: Any = None,
    relay: Any = False,
    relayEntry: Any = None,
) -> Any:
    """Every hook of one event in those roots, and whether ``fire`` would run it and if
    not why; nothing is run. Params as ``fire``'s (those that choose the hooks)."""
    params = {
        "agent": agent,
        "event": event,
        "workspaceRoots": workspaceRoots or [],
        "payload": payload if payload is not None else {},
        "hooksDirs": hooksDirs,
        "relay": relay,
        "relayEntry": relayEntry,
        "env": {},
    }
    try:
        request = parse_fire(params, ctx.services.settings, ctx.request_id)
    except InvalidFire as exc:
        raise JsonRpcError(INVALID_PARAMS, "Invalid params", str(exc)) from None
    ctx.services.add_roots(request.roots)
    return Success(explain(request, ctx.services))


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


STARTERS: dict[str, Starter] = {FIRE: start_fire, RELAY: start_relay}
"""Methods that can answer at once, without a task: the server tries these first."""

METHODS: dict[str, Method] = {
    **{name: awaited(starter) for name, starter in STARTERS.items()},
    STATUS: status_method,
    HOOKS_LIST: hooks_list_method,
    HOOKS_EXPLAIN: hooks_explain_method,
    ROOTS_ADD: roots_add_method,
    ROOTS_REMOVE: roots_remove_method,
    SHUTDOWN: shutdown_method,
    DISCOVER: discover_method,
}
