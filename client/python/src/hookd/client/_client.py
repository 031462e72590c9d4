"""The synchronous hookd client: ``fire`` events, follow their progress, ask for status."""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from hookd.protocol import (
    CANCEL_REQUEST,
    HOOK_ASYNC_RESULT,
    HOOK_RUN,
    PROGRESS,
    REQUEST_CANCELLED,
    SERVER_CANCELLED,
    dumps,
    error,
    notification,
    success,
)

from ._connection import Connection
from ._errors import ConnectionLost, HookdClientError, RemoteError, RequestCancelled

if TYPE_CHECKING:
    from concurrent.futures import ThreadPoolExecutor

ProgressCallback = Callable[[dict[str, Any]], None]
"""Called with each ``$/progress`` value (begin, reports, end) of a fire."""
HandlerRunner = Callable[[dict[str, Any]], Any]
"""Runs one ``hook/run`` request (its params) and returns the result: ``{"ok": ...}`` for
a prompt or agent handler, an MCP ``CallToolResult`` for an ``mcp_tool``. An exception is
sent back as an error answer (the hook is then a non-blocking error)."""
AsyncResultCallback = Callable[[dict[str, Any]], None]
"""Called with each ``hook/asyncResult`` (a background hook finished) seen on the way."""
HANDLER_FAILED = -32000
HANDLER_THREADS = 8

_ids = itertools.count(1)


class FireCall:
    """A fire in flight: iterate it for progress values, then read ``result()``.

    ``cancel()`` may be called from another thread; the daemon then kills the hooks'
    process groups and ``result()`` raises ``RequestCancelled``.
    """

    def __init__(
        self,
        connection: Connection,
        request_id: int,
        token: str,
        deadline: float,
        handlers: Mapping[str, HandlerRunner] | None = None,
        on_async_result: AsyncResultCallback | None = None,
    ) -> None:
        self._connection = connection
        self._id = request_id
        self._token = token
        self._deadline = deadline
        self._handlers = dict(handlers or {})
        self._on_async_result = on_async_result
        self._response: dict[str, Any] | None = None
        self._lock = threading.Lock()
        self._pool: ThreadPoolExecutor | None = None
        self._unsent: list[Exception] = []
        """Answers a runner thread could not send: the connection is gone; say so."""

    def __iter__(self) -> Iterator[dict[str, Any]]:
        try:
            while self._response is None:
                if self._unsent:
                    raise ConnectionLost(f"could not answer hookd's hook/run: {self._unsent[0]}")
                message = self._connection.receive(self._deadline)
                method = message.get("method")
                if method == PROGRESS:
                    params = message.get("params") or {}
                    if params.get("token") == self._token:
                        yield params.get("value", {})
                elif method == HOOK_RUN and "id" in message:
                    self._start_handler(message)
                elif method == HOOK_ASYNC_RESULT and self._on_async_result is not None:
                    self._on_async_result(message.get("params") or {})
                elif method is None and message.get("id") == self._id:
                    self._response = message
        finally:
            if self._pool is not None:  # no runner thread outlives the call
                self._pool.shutdown(wait=True)
                self._pool = None

    def _start_handler(self, message: dict[str, Any]) -> None:
        """Run the daemon's ``hook/run`` in a worker thread, so that several handlers of
        one fire run at the same time (as the daemon runs their hooks) and progress keeps
        flowing meanwhile."""
        if self._pool is None:
            # Imported here: the CLI and most fires never need threads.
            from concurrent.futures import ThreadPoolExecutor

            self._pool = ThreadPoolExecutor(HANDLER_THREADS, thread_name_prefix="hookd-hook-run")
        self._pool.submit(self._answer, message)

    def _answer(self, message: dict[str, Any]) -> None:
        """Answer one ``hook/run`` with the runner registered for its type."""
        params = message.get("params") or {}
        runner = self._handlers.get(params.get("type", ""))
        try:
            if runner is None:
                raise LookupError(f"this client has no runner for {params.get('type')} hooks")
            frame = dumps(success(message["id"], runner(params)))  # a bad result fails here
        except Exception as exc:  # noqa: BLE001 (the runner is the caller's code: report it)
            frame = dumps(error(message["id"], HANDLER_FAILED, str(exc) or type(exc).__name__))
        try:
            with self._lock:
                self._connection.send_raw_json(frame)
        except (HookdClientError, OSError) as exc:  # seen by the reading thread, raised there
            self._unsent.append(exc)

    def result(self) -> dict[str, Any]:
        """The fire result; raises RemoteError/RequestCancelled on an error answer."""
        for _ in self:
            pass
        assert self._response is not None
        if "error" in self._response:
            err = self._response["error"]
            kind = (
                RequestCancelled
                if err.get("code") in (REQUEST_CANCELLED, SERVER_CANCELLED)
                else RemoteError
            )
            raise kind(err.get("code", 0), err.get("message", ""), err.get("data"))
        result: dict[str, Any] = self._response["result"]
        return result

    def cancel(self) -> None:
        with self._lock:
            self._connection.send(notification(CANCEL_REQUEST, {"id": self._id}))


class Client:
    """A connection to the hookd daemon. Use as a context manager, or call ``close()``.

    Raises ``DaemonNotRunning`` when nothing listens on the socket and
    ``DaemonUnresponsive`` when the daemon does not answer within ``timeout_s``.
    """

    def __init__(self, socket_path: str | None = None, *, timeout_s: float = 30.0) -> None:
        self._connection = Connection(socket_path, timeout_s=timeout_s)
        self.timeout_s = timeout_s

    @property
    def socket_path(self) -> str:
        return self._connection.socket_path

    def call(self, method: str, params: dict[str, Any] | None = None) -> Any:
        """Send one request and wait for its result."""
        request_id = next(_ids)
        self._connection.send_request(method, params, request_id)
        deadline = time.monotonic() + self.timeout_s
        while True:
            message = self._connection.receive(deadline)
            if message.get("id") != request_id or "method" in message:
                continue
            if "error" in message:
                err = message["error"]
                raise RemoteError(err.get("code", 0), err.get("message", ""), err.get("data"))
            return message["result"]

    def start_fire(
        self,
        agent: str,
        event: str,
        workspace_roots: list[str],
        payload: dict[str, Any] | None = None,
        *,
        timeout_ms: int | None = None,
        slow_threshold_ms: int | None = None,
        env: dict[str, str] | None = None,
        progress: bool = True,
        handlers: Mapping[str, HandlerRunner] | None = None,
        on_async_result: AsyncResultCallback | None = None,
        hooks_dirs: list[str] | None = None,
    ) -> FireCall:
        """Send a fire and return at once; iterate the call for its progress values
        (none when ``progress`` is false: the daemon then sends no notifications).

        ``handlers`` maps Claude handler types (``prompt``, ``agent``, ``mcp_tool``) to
        functions that run them: the daemon asks for them while the fire runs."""
        request_id = next(_ids)
        token = f"hookd-fire-{request_id}"
        params: dict[str, Any] = {
            "agent": agent,
            "event": event,
            "workspaceRoots": workspace_roots,
            "payload": payload or {},
        }
        if progress:
            params["workDoneToken"] = token
        if timeout_ms is not None:
            params["timeoutMs"] = timeout_ms
        if slow_threshold_ms is not None:
            params["slowThresholdMs"] = slow_threshold_ms
        if env is not None:
            params["env"] = env
        if handlers:
            params["clientHandlers"] = sorted(handlers)
        if hooks_dirs:
            params["hooksDirs"] = hooks_dirs
        self._connection.send_request("fire", params, request_id)
        # A fire may legitimately run as long as its hooks' timeouts; wait generously.
        wait_s = max(self.timeout_s, (timeout_ms or 0) / 1000 + 30, 3600)
        return FireCall(
            self._connection,
            request_id,
            token,
            time.monotonic() + wait_s,
            handlers,
            on_async_result,
        )

    def fire(
        self,
        agent: str,
        event: str,
        workspace_roots: list[str],
        payload: dict[str, Any] | None = None,
        *,
        on_progress: ProgressCallback | None = None,
        timeout_ms: int | None = None,
        slow_threshold_ms: int | None = None,
        env: dict[str, str] | None = None,
        handlers: Mapping[str, HandlerRunner] | None = None,
        on_async_result: AsyncResultCallback | None = None,
        hooks_dirs: list[str] | None = None,
    ) -> dict[str, Any]:
        """Fire an event, calling ``on_progress`` for each progress value, and return
        the combined result (progress is only requested when ``on_progress`` is given).
        See ``start_fire`` for ``handlers``."""
        call = self.start_fire(
            agent, event, workspace_roots, payload,
            timeout_ms=timeout_ms, slow_threshold_ms=slow_threshold_ms, env=env,
            progress=on_progress is not None, handlers=handlers,
            on_async_result=on_async_result, hooks_dirs=hooks_dirs,
        )  # fmt: skip
        for value in call:
            if on_progress is not None:
                on_progress(value)
        return call.result()

    def status(self) -> dict[str, Any]:
        result: dict[str, Any] = self.call("status")
        return result

    def hooks_list(self, roots: list[str] | None = None) -> dict[str, Any]:
        result: dict[str, Any] = self.call("hooks/list", {"roots": roots} if roots else None)
        return result

    def hooks_explain(self, params: dict[str, Any]) -> dict[str, Any]:
        """Every hook of one event and whether ``fire`` would run it, and if not why
        (params as ``fire``'s that choose the hooks); nothing is run."""
        result: dict[str, Any] = self.call("hooks/explain", params)
        return result

    def add_roots(self, roots: list[str]) -> dict[str, Any]:
        result: dict[str, Any] = self.call("roots/add", {"roots": roots})
        return result

    def shutdown(self) -> dict[str, Any]:
        result: dict[str, Any] = self.call("shutdown")
        return result

    def close(self) -> None:
        self._connection.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
