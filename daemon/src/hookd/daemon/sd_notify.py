"""systemd's notify protocol in a few lines (no libsystemd needed): readiness, stopping,
and the watchdog.

``READY=1`` once the socket accepts (``Type=notify``: ``systemctl start`` returns then,
and ``hookd-relay`` waits for the same message when it starts a daemon itself);
``STOPPING=1`` at shutdown; ``WATCHDOG=1`` every half ``WATCHDOG_USEC`` while the daemon
is healthy (``WatchdogSec=`` in the unit): a daemon whose event loop is stuck, or that
has not been able to accept a connection for that long, stops sending it and systemd
restarts it (``Restart=on-failure`` counts a watchdog timeout).
"""

from __future__ import annotations

import errno
import os
import socket
from collections.abc import Callable, Mapping

import structlog
import trio

log = structlog.get_logger("hookd")

_LISTENER_GONE = frozenset({errno.ENOENT, errno.ECONNREFUSED})
"""The notify socket was removed, or nothing is bound to it any more."""


def notify(state: str, *, after_ready: bool = False) -> None:
    """Send ``state`` to ``$NOTIFY_SOCKET`` (nothing when it is unset).

    ``after_ready``: a message after ``READY=1`` was taken. Whoever listens only for
    readiness (``hookd-relay`` starting a daemon) has closed its socket by then: a socket
    that is gone is no problem to warn of (debug). systemd's socket never goes away, and
    any other failure, or one of ``READY=1`` itself, is still a warning."""
    address = os.environ.get("NOTIFY_SOCKET")
    if not address:
        return
    if address.startswith("@"):
        address = "\0" + address[1:]
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.connect(address)
            sock.sendall(state.encode())
    except OSError as exc:
        if after_ready and exc.errno in _LISTENER_GONE:
            log.debug("sd_notify_listener_gone", state=state, error=str(exc))
            return
        log.warning("sd_notify_failed", state=state, error=str(exc))


def watchdog_interval(environ: Mapping[str, str]) -> float | None:
    """Seconds between two ``WATCHDOG=1`` (half of ``WATCHDOG_USEC``), or None when no
    watchdog is asked of this process (unset, not a positive integer, or a
    ``WATCHDOG_PID`` of another process)."""
    usec = environ.get("WATCHDOG_USEC", "")
    pid = environ.get("WATCHDOG_PID")
    if not usec.isdigit() or int(usec) == 0 or (pid and pid != str(os.getpid())):
        return None
    return int(usec) / 2e6


async def watchdog(interval: float, healthy: Callable[[], bool]) -> None:
    """Send ``WATCHDOG=1`` every ``interval`` seconds while ``healthy()`` says so. Runs as
    a task of the daemon's nursery: that it runs at all proves the event loop turns."""
    while True:
        if healthy():
            notify("WATCHDOG=1", after_ready=True)
        else:
            log.warning("watchdog_withheld", interval_s=interval)
        await trio.sleep(interval)
