"""A small trio adapter around jsonrpcserver (5.0.9, pinned: it reuses internals).

jsonrpcserver's own ``async_dispatch`` runs batches through ``asyncio.gather`` and, under
trio, answers every request with a silent -32000 (see ``library-checks.md`` §1). So we
keep from it what works anywhere: the method table, method lookup, argument checking by
signature, the ``Success``/``Error`` result values and ``JsonRpcError``. Arguments that
fit are recognised by the names each method takes (computed once); the rest go through
jsonrpcserver's own checks, so every error answer is its own. Framing, batches
(each element validated and answered on its own, as the spec asks), notifications and
cancellation are ours, in ``connection.py``.
"""

from __future__ import annotations

import inspect
import warnings
from collections.abc import Awaitable, Callable
from functools import cache, partial, wraps
from typing import Any

import structlog

from hookd.protocol import INTERNAL_ERROR, INVALID_PARAMS, RequestId, error, success

with warnings.catch_warnings():
    # jsonrpcserver 5.0.9 uses importlib.resources APIs deprecated in 3.11.
    warnings.simplefilter("ignore", DeprecationWarning)
    from jsonrpcserver import Error, Success
    from jsonrpcserver.dispatcher import create_request, get_method, validate_args, validate_result
    from jsonrpcserver.exceptions import JsonRpcError
    from jsonrpcserver.sentinels import NODATA
    from oslash.either import Left

__all__ = [
    "NOT_STARTED",
    "Error",
    "JsonRpcError",
    "Later",
    "Method",
    "NotStarted",
    "Starter",
    "Success",
    "awaited",
    "dispatch_request",
    "finish_request",
    "start_request",
]

log = structlog.get_logger("hookd.rpc")

Method = Callable[..., Awaitable[Any]]


class Later:
    """What a starter returns when its answer needs awaiting (a fire with hooks to run):
    ``finish`` gives the ``Success``/``Error`` then, in the request's own task."""

    __slots__ = ("finish",)

    def __init__(self, finish: Callable[[], Awaitable[Any]]) -> None:
        self.finish = finish


Starter = Callable[..., Any]
"""A method split in two: called synchronously with the context and the params, it
returns its ``Success``/``Error`` at once, or a ``Later`` (its signature is checked as a
method's is)."""


class NotStarted:
    """``start_request``: no starter takes this request; dispatch it as usual."""


NOT_STARTED = NotStarted()


def awaited(starter: Starter) -> Method:
    """The starter as an ordinary method (batches, and the server's usual path); its
    signature is the starter's, so parameters are checked the same way."""

    @wraps(starter)
    async def method(context: Any, **params: Any) -> Any:
        begun = starter(context, **params)
        return await begun.finish() if isinstance(begun, Later) else begun

    return method


def start_request(
    starters: dict[str, Starter], context: Any, message: dict[str, Any]
) -> dict[str, Any] | Later | NotStarted | None:
    """Answer an already-validated single request at once when a starter takes it: its
    response (None for a notification), a ``Later`` to await in a task (then
    ``finish_request``), or ``NOT_STARTED`` (no starter, or params that do not bind:
    ``dispatch_request`` gives jsonrpcserver's own answer)."""
    params = message.get("params", {})
    starter = starters.get(message["method"])
    if starter is None or not isinstance(params, dict) or not _fits(starter, params):
        return NOT_STARTED
    try:
        result = starter(context, **params)
        if isinstance(result, Later):
            return result
        validate_result(result)
    except JsonRpcError as exc:
        result = Error(exc.code, exc.message, exc.data)
    except Exception as exc:  # a bug in a method: answer, log, keep serving
        log.exception("method_failed", method=message["method"])
        result = _internal_error(exc)
    return _response(message, result)


async def finish_request(message: dict[str, Any], later: Later) -> dict[str, Any] | None:
    """The response of a request ``start_request`` left to await."""
    return _response(message, await _settled(later.finish, message["method"]))


async def dispatch_request(
    methods: dict[str, Method], context: Any, message: dict[str, Any]
) -> dict[str, Any] | None:
    """Run one already-validated request; the response dict, or None for a notification."""
    request_id: RequestId | None = message.get("id")
    is_notification = "id" not in message
    params = message.get("params", {})
    if isinstance(params, list):
        response = error(
            request_id,
            INVALID_PARAMS,
            "Invalid params",
            'hookd takes parameters by name: send "params" as a JSON object',
        )
        return None if is_notification else response
    function = methods.get(message["method"])
    if function is not None and _fits(function, params):
        result = await _call(function, context, params, message["method"])
    else:  # jsonrpcserver's own checks: its -32601 / -32602 answers, word for word
        request = create_request(message)
        method = get_method(methods, request.method).bind(partial(validate_args, request, context))
        if isinstance(method, Left):
            result = method
        else:
            result = await _call(method._value, context, params, message["method"])
    return _response(message, result)


def _response(message: dict[str, Any], result: Any) -> dict[str, Any] | None:
    """The JSON-RPC response for a method's ``Success``/``Error`` (None: a notification)."""
    if "id" not in message:
        return None
    request_id: RequestId | None = message["id"]
    if isinstance(result, Left):
        err = result._error
        data = None if err.data is NODATA else err.data
        return error(request_id, err.code, err.message, data)
    return success(request_id, result._value.result)


@cache
def _parameters(function: Method) -> tuple[frozenset[str], frozenset[str]]:
    """The names ``function`` takes after its context, and those it requires."""
    names = list(inspect.signature(function).parameters.values())[1:]
    if any(p.kind not in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) for p in names):
        return frozenset(), frozenset({"*"})  # never fits: validate_args decides
    return (
        frozenset(p.name for p in names),
        frozenset(p.name for p in names if p.default is p.empty),
    )


def _fits(function: Method, params: dict[str, Any]) -> bool:
    """Whether ``params`` bind to ``function`` by name (what ``validate_args`` checks
    with ``inspect.signature(...).bind`` on every call, at ~100 Python calls a time)."""
    accepted, required = _parameters(function)
    keys = params.keys()
    return keys <= accepted and required <= keys


async def _call(function: Method, context: Any, params: dict[str, Any], name: str) -> Any:
    return await _settled(partial(function, context, **params), name)


async def _settled(run: Callable[[], Awaitable[Any]], name: str) -> Any:
    """What ``run`` returns, or the ``Error`` it raised (a bug: -32603, logged)."""
    try:
        result = await run()
        validate_result(result)
    except JsonRpcError as exc:
        return Error(exc.code, exc.message, exc.data)
    except Exception as exc:  # a bug in a method: answer, log, keep serving
        log.exception("method_failed", method=name)
        return _internal_error(exc)
    return result


def _internal_error(exc: Exception) -> Any:
    return Error(INTERNAL_ERROR, "Internal error", f"{type(exc).__name__}: {exc}")
