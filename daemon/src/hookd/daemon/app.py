"""The daemon: ``serve()`` owns the root nursery, the socket, the watcher and shutdown.

Readiness is signalled, never polled for: ``task_status.started(socket_path)`` once the
socket accepts connections (tests ``await nursery.start(serve, ...)``), and ``READY=1``
to systemd when ``NOTIFY_SOCKET`` is set. A socket passed by socket activation
(``LISTEN_FDS``: ``hookd.socket``) is adopted instead of bound (``server.activation``),
and ``WATCHDOG_USEC`` starts the watchdog task (``sd_notify``).

Shutdown (SIGTERM, SIGINT or the ``shutdown`` method): stop accepting, cancel every
in-flight request (each is answered -32802 and its hooks' process groups are killed),
give the answers a moment to leave, stop the watcher, remove the socket, release the lock.
"""

from __future__ import annotations

import contextlib
import dataclasses
import errno
import os
import resource
import signal
import time
from collections.abc import Iterable
from functools import partial
from importlib.metadata import PackageNotFoundError, version
from typing import Any

import structlog
import trio

from hookd.protocol import (
    BUSY,
    HEAD_SCAN_BYTES,
    Framing,
    FramingError,
    MessageDecoder,
    dumps,
    echoable_id,
    encode,
    error,
    loads_message,
)

from .all_dialects import DIALECTS, PORTABLE
from .audit import AuditLog, audit_path
from .errors import UserError
from .logconfig import configure_logging
from .portable_reach import uncarried
from .registry.registry import Registry
from .registry.watcher import Watcher
from .runner.background import BackgroundHooks
from .runner.custody import Custody
from .runner.warm.launcher import warm_first
from .runner.warm.pool import WarmPool
from .sd_notify import notify, watchdog, watchdog_interval
from .server.activation import adopt
from .server.connection import Connection
from .server.context import Client
from .server.http_entry import HttpEntry
from .server.http_passcode import PASSCODE_ENV, load_or_create, passcode_path
from .server.limits import ClientLimits
from .server.listener import BoundSocket, bind_unix
from .server.methods import METHODS, STARTERS
from .server.peer import caller_of
from .settings import Settings
from .stats import Stats
from .trust.gate import TrustGate
from .trust.store import TrustStore, store_path

log = structlog.get_logger("hookd")
_ACCEPT_RESOURCE_ERRORS = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM})
SHUTDOWN_GRACE_S = 5.0


def hookd_version() -> str:
    try:
        return version("hookd")
    except PackageNotFoundError:
        return "0+unknown"


class Daemon:
    """State shared by every connection and method (the server sees it as its
    ``Services`` Protocol, the fire pipeline as ``FireServices``)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.trust = TrustGate(
            TrustStore(store_path(settings.state_dir)),
            DIALECTS,
            home=settings.home,
            trust_all=settings.trust_all,
        )
        self.registry = Registry(settings, DIALECTS, self.trust, PORTABLE)
        self.audit = AuditLog(
            audit_path(settings.state_dir) if settings.audit_log else None,
            settings.audit_max_bytes,
            settings.audit_keep,
        )
        self.watcher = Watcher(
            self.registry, debounce_ms=settings.watch_debounce_ms, step_ms=settings.watch_step_ms
        )
        self.stats = Stats()
        self.methods = METHODS
        self.starters = STARTERS
        self.connections: set[Client] = set()
        self.limits = ClientLimits.from_settings(settings)
        self.base_env = {**os.environ, "HOOKD_SOCKET": settings.socket_path}
        self.base_env.pop(PASSCODE_ENV, None)  # the http entry's passcode is not the hooks'
        self.http_entry: HttpEntry | None = None
        """Claude Code's http hook entry, when ``http_entry`` is on."""
        self.custody = Custody(
            settings.max_hook_processes,
            leftovers=settings.leftover_processes,
            cgroups=settings.hook_cgroups,
        )
        self.warm = WarmPool(settings, self.custody)
        self.custody.launcher = warm_first(self.warm, self.custody.launcher)
        self.background = BackgroundHooks(settings, self.base_env, self.custody)
        self.shutdown_requested = trio.Event()
        self.stopped = trio.Event()
        self.shutdown_reason = ""
        self.accept_failing_since: float | None = None
        """When accepting connections began failing for want of descriptors or memory
        (None: it works); the watchdog stops vouching for a daemon stuck so."""
        self.version = hookd_version()
        """Read once: ``status`` must answer without opening a file (descriptors may be
        exhausted exactly when someone needs to look)."""

    def add_roots(self, roots: Iterable[str]) -> None:
        if self.registry.add_roots(roots):
            self.watcher.poke()

    def remove_roots(self, roots: Iterable[str]) -> None:
        if self.registry.remove_roots(roots):
            self.watcher.poke()

    async def forget_idle_roots(self) -> None:
        """Forget, now and then, the roots no fire has named for ``forget_roots_after_s``
        (bounded watcher work: the watch list does not grow with every root ever named)."""
        idle_s = self.settings.forget_roots_after_s
        if idle_s <= 0:
            return
        while True:
            await trio.sleep(min(max(idle_s / 4, 0.05), 60.0))
            if self.registry.forget_idle_roots(idle_s):
                self.watcher.poke()

    def request_shutdown(self, reason: str) -> None:
        if not self.shutdown_requested.is_set():
            self.shutdown_reason = reason
            self.shutdown_requested.set()

    def status(self) -> dict[str, Any]:
        summary = self.registry.summary()
        return {
            "pid": os.getpid(),
            "version": self.version,
            "socket": self.settings.socket_path,
            "uptimeS": round(time.time() - self.stats.started, 1),
            "roots": summary["roots"],
            "hooks": summary["hooks"],
            "sourceErrors": summary["errors"],
            "fires": self.stats.fires,
            "inFlight": [entry.view() for entry in self.stats.in_flight.values()],
            "connections": len(self.connections),
            "clients": self.limits.view(),
            "rootsForgotten": self.registry.roots_forgotten,
            "watcher": self.watcher.view(),
            "hookStats": self.stats.hook_views(),
            "processes": self.custody.view(),
            "warmPython": self.warm.view(),
            "trust": self.trust.view(),
            "audit": self.audit.view(),
            "httpEntry": self.http_entry.view() if self.http_entry is not None else None,
            "portable": {"uncarried": uncarried(self.registry)},
            "asyncHooks": {
                "running": self.background.running,
                "finished": self.background.finished,
                "dropped": self.background.dropped,
            },
        }


def raise_fd_limit() -> tuple[int, int] | None:
    """Raise the soft open-files limit to the hard one (a shared daemon holds a socket per
    client, a watch per folder and three pipes per running hook; systemd's default soft
    limit is 1024). Returns the inherited limits, for hooks, when it raised them."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = hard if hard != resource.RLIM_INFINITY else 1 << 20
    if soft == resource.RLIM_INFINITY or soft >= target:
        return None
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    except (OSError, ValueError) as exc:
        log.warning("fd_limit_not_raised", soft=soft, hard=hard, error=str(exc))
        return None
    log.info("fd_limit_raised", soft=target, inherited=soft)
    return (soft, hard)


async def serve(
    settings: Settings, *, task_status: trio.TaskStatus[Daemon] = trio.TASK_STATUS_IGNORED
) -> None:
    """Run the daemon until shutdown is requested (or the caller cancels).

    ``task_status.started`` hands over the ``Daemon`` once the socket accepts.
    """
    bound = adopt(os.environ) or await bind_unix(settings.socket_path)
    if bound.path != settings.socket_path:  # the socket unit's path wins: it owns the file
        log.info("socket_activation", socket=bound.path, instead_of=settings.socket_path)
        settings = dataclasses.replace(settings, socket_path=bound.path)
    interval = watchdog_interval(os.environ)
    for name in ("WATCHDOG_USEC", "WATCHDOG_PID"):
        os.environ.pop(name, None)  # the watchdog is this process's, not its hooks'
    daemon = Daemon(settings)
    if settings.raise_fd_limit:
        daemon.custody.hook_nofile = raise_fd_limit()
    log.info("starting", socket=settings.socket_path, pid=os.getpid(), version=hookd_version(),
             activated=not bound.owned, watchdog_s=interval)  # fmt: skip
    try:
        async with trio.open_nursery() as nursery:
            await nursery.start(
                partial(
                    daemon.custody.run, watchdog=settings.watchdog, subreaper=settings.subreaper
                )
            )
            await nursery.start(daemon.watcher.run)
            await nursery.start(daemon.background.run)
            await nursery.start(daemon.warm.run)
            nursery.start_soon(daemon.forget_idle_roots)
            connections = await nursery.start(_accept, bound, daemon)
            if settings.http_entry:
                daemon.http_entry = HttpEntry(
                    daemon, load_or_create(settings.state_dir), passcode_path(settings.state_dir)
                )
                await nursery.start(daemon.http_entry.run)
            task_status.started(daemon)
            notify("READY=1")
            if interval is not None:
                nursery.start_soon(watchdog, interval, partial(_healthy, daemon, interval))
            log.info("ready", socket=settings.socket_path, pid=os.getpid())
            await daemon.shutdown_requested.wait()
            log.info("stopping", reason=daemon.shutdown_reason)
            notify("STOPPING=1", after_ready=True)
            await _stop(daemon, bound, connections)
            daemon.watcher.stop()
            nursery.cancel_scope.cancel()
    finally:
        daemon.watcher.stop()
        daemon.audit.close()
        bound.close()
        daemon.stopped.set()
        log.info("stopped")


async def _accept(
    bound: BoundSocket, daemon: Daemon, *, task_status: trio.TaskStatus[trio.Nursery]
) -> None:
    my_uid = os.geteuid()
    async with trio.open_nursery() as connections:
        task_status.started(connections)
        while True:
            try:
                stream = await bound.listener.accept()
                daemon.accept_failing_since = None
            except trio.ClosedResourceError:
                return  # shutting down: the listener was closed
            except OSError as exc:
                if exc.errno not in _ACCEPT_RESOURCE_ERRORS:
                    raise
                if daemon.accept_failing_since is None:
                    daemon.accept_failing_since = trio.current_time()
                # Out of file descriptors or memory: refuse for a moment, never die.
                log.warning(
                    "accept_failed", error=exc.strerror, connections=len(daemon.connections)
                )
                await trio.sleep(0.1)
                continue
            if len(daemon.connections) >= daemon.limits.max_connections and not _shed_one(daemon):
                connections.start_soon(_refuse_connection, stream, daemon.limits)
                continue
            caller = caller_of(stream, daemon.custody)
            if caller.uid is not None and caller.uid not in (my_uid, 0):
                log.warning("peer_refused", uid=caller.uid)
                await stream.aclose()
                continue
            connection = Connection(stream, daemon, caller)
            daemon.connections.add(connection)  # counted now, before its task starts
            connections.start_soon(connection.serve)


def _healthy(daemon: Daemon, interval: float) -> bool:
    """What ``WATCHDOG=1`` vouches for: the event loop turns (the watchdog task runs), no
    shutdown is under way, and connections have been accepted in the last interval."""
    if daemon.shutdown_requested.is_set():
        return False
    since = daemon.accept_failing_since
    return since is None or trio.current_time() - since < interval


def _shed_one(daemon: Daemon) -> bool:
    """At ``max_connections``, close the connection idle the longest (nothing in flight,
    arriving or unsent) to make room for a new one: a client that leaks connections
    (an editor extension, a stuck script) must not lock out the agents' relays, to which
    an unreachable daemon means "let the action go on". False when every one is busy."""
    idle = [(since, c) for c in daemon.connections if (since := c.idle_since) is not None]
    if not idle:
        return False
    _since, oldest = min(idle, key=lambda pair: pair[0])
    oldest.shed()
    limits = daemon.limits
    limits.shed += 1
    if limits.refusal_worth_logging():
        log.warning("connection_shed", max_connections=limits.max_connections,
                    shed_so_far=limits.shed, refused_so_far=limits.refused)  # fmt: skip
    return True


REFUSE_READ_S = 1.0
MAX_REFUSING = 64
"""Refusals waiting for their client's first message at once; past that, more are
answered at once and closed (a flood of connections must not hold descriptors)."""


async def _refuse_connection(stream: trio.SocketStream, limits: ClientLimits) -> None:
    """Past ``max_connections`` with every connection busy: answer the client's first
    request (its id, its framing) with a Busy error, then close; a client that sends
    nothing within a second gets the error with id null (NDJSON). The rest of what it
    sends is read before the close, so the close is no reset that could destroy the
    answer before the client reads it."""
    limits.refused += 1
    if limits.refusal_worth_logging():
        log.warning("connection_refused", max_connections=limits.max_connections,
                    refused_so_far=limits.refused)  # fmt: skip
    data = (f"hookd serves at most {limits.max_connections} connections at once "
            "(max_connections in hookd's config) and every one is busy; retry, close "
            "idle ones or raise it")  # fmt: skip
    limits.refusing += 1
    answered = False
    try:
        waited = limits.refusing <= MAX_REFUSING
        with trio.move_on_after(REFUSE_READ_S if waited else 0.0):
            with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
                framing, request_ids = await _first_request(stream)
                answered = True
                await stream.send_all(_refusals(request_ids, data, framing))
                await stream.send_eof()
                while await stream.receive_some(65536):
                    pass  # until the client closes: no reset under the answer
        if not answered:
            with trio.move_on_after(REFUSE_READ_S if waited else 0.1):
                with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
                    await stream.send_all(_refusals([None], data, Framing.NDJSON))
                    await stream.send_eof()
                    while await stream.receive_some(65536):
                        pass
    finally:
        limits.refusing -= 1
        with trio.CancelScope(shield=True):
            await stream.aclose()


async def _first_request(stream: trio.SocketStream) -> tuple[Framing, list[Any]]:
    """The framing and the id(s) of the first message a refused client sends (None for a
    message that gives none), read no further than its head."""
    decoder = MessageDecoder(HEAD_SCAN_BYTES)
    while True:
        chunk = await stream.receive_some(65536)
        if not chunk:
            return decoder.framing or Framing.NDJSON, [None]
        try:
            for body in decoder.feed(chunk):
                return decoder.framing or Framing.NDJSON, _ids_of(body)
        except FramingError as exc:
            return decoder.framing or Framing.NDJSON, [exc.request_id]


def _ids_of(body: bytes) -> list[Any]:
    try:
        message = loads_message(body)
    except (ValueError, RecursionError):
        return [None]
    if isinstance(message, list):
        return [echoable_id(item) for item in message if isinstance(item, dict) and "id" in item]
    return [echoable_id(message)]


def _refusals(request_ids: list[Any], data: str, framing: Framing) -> bytes:
    replies = [error(rid, BUSY, "Too many connections", data) for rid in request_ids]
    if not replies:
        return b""  # notifications only: nothing to answer
    return encode(dumps(replies if len(replies) > 1 else replies[0]), framing)


async def _stop(daemon: Daemon, bound: BoundSocket, connections: trio.Nursery) -> None:
    await bound.listener.aclose()  # no new connections
    for connection in list(daemon.connections):
        connection.cancel_all()
    with trio.move_on_after(SHUTDOWN_GRACE_S):
        async with trio.open_nursery() as waiting:
            if daemon.http_entry is not None:
                waiting.start_soon(daemon.http_entry.stop, SHUTDOWN_GRACE_S)
            for connection in list(daemon.connections):
                waiting.start_soon(connection.wait_idle)  # answers written, or client stuck
    connections.cancel_scope.cancel()


async def serve_until_signalled(settings: Settings) -> None:
    """``serve`` with SIGTERM/SIGINT turned into a clean shutdown.

    The handlers are installed before the socket is bound, so a signal sent as soon as
    the daemon accepts (a service manager, a test) is never fatal.
    """
    with trio.open_signal_receiver(signal.SIGTERM, signal.SIGINT) as received:
        async with trio.open_nursery() as nursery:
            daemon: Daemon = await nursery.start(serve, settings)

            async def forward() -> None:
                async for signum in received:
                    daemon.request_shutdown(f"signal {signal.Signals(signum).name}")

            nursery.start_soon(forward)
            await daemon.stopped.wait()
            nursery.cancel_scope.cancel()


def run(settings: Settings) -> None:
    """Blocking entry point for ``hookd serve``."""
    configure_logging(settings.log_level, settings.log_json)
    try:
        trio.run(serve_until_signalled, settings)
    except BaseExceptionGroup as group:
        # Nurseries wrap errors in groups; a user error (socket taken, bad directory)
        # must still reach the CLI as itself, with its advice, not as a crash.
        leaves = _leaves(group)
        if leaves and all(isinstance(leaf, UserError) for leaf in leaves):
            raise leaves[0] from None
        raise


def _leaves(group: BaseExceptionGroup[BaseException]) -> list[BaseException]:
    found: list[BaseException] = []
    for exc in group.exceptions:
        found.extend(_leaves(exc) if isinstance(exc, BaseExceptionGroup) else [exc])
    return found
