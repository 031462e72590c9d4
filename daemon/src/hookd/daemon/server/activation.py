"""Adopting the listening socket a service manager bound for us (systemd socket activation).

systemd (and ``systemd-socket-activate``) passes listening sockets from fd 3 on, naming
their count in ``LISTEN_FDS`` and the process they are for in ``LISTEN_PID``. The socket
unit then owns the socket file: hookd never binds, replaces or removes it, and clients
that connect while hookd starts or restarts wait in its backlog instead of failing.

The lock is kept honest: the adopted socket's ``<path>.lock`` is taken as for a socket
hookd binds itself, so a daemon started outside the service still serving that path (it
bound it before the socket unit replaced it) makes the activated one refuse, naming it.
"""

from __future__ import annotations

import os
import socket
import stat
from collections.abc import MutableMapping

import trio

from ..errors import UserError
from .listener import BoundSocket, take_lock

LISTEN_FDS_START = 3
ACTIVATION_VARIABLES = ("LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES")


def activated_fd(environ: MutableMapping[str, str]) -> int | None:
    """fd 3 when the environment hands this process a socket, else None (a ``LISTEN_PID``
    of another process: the variables were inherited, not meant for us)."""
    count = environ.get("LISTEN_FDS")
    if not count:
        return None
    pid = environ.get("LISTEN_PID")
    if pid and pid != str(os.getpid()):
        return None
    if count != "1":
        raise UserError(
            f"the service manager passed {count} sockets (LISTEN_FDS); hookd listens on one: "
            "give hookd.socket a single ListenStream= line"
        )
    return LISTEN_FDS_START


def adopt(environ: MutableMapping[str, str], backlog: int = 512) -> BoundSocket | None:
    """The activated socket, locked, or None when none was passed. The activation
    variables are removed from ``environ`` so that no hook inherits them."""
    fd = activated_fd(environ)
    for name in ACTIVATION_VARIABLES:
        environ.pop(name, None)
    if fd is None:
        return None
    try:
        sock = socket.socket(fileno=fd)
    except OSError as exc:
        raise UserError(
            f"LISTEN_FDS says fd {fd} is a socket, but it is not ({exc.strerror}); "
            "start hookd through its socket unit or without LISTEN_FDS"
        ) from None
    path = _listening_path(sock)
    sock.set_inheritable(False)
    lock_fd = take_lock(path)
    try:
        info = os.stat(path)
        if not stat.S_ISSOCK(info.st_mode):
            raise UserError(f"{path} is not a socket: check ListenStream= in hookd.socket")
        sock.listen(backlog)  # a larger backlog than the unit's, if it asked for less
        listener = trio.SocketListener(trio.socket.from_stdlib_socket(sock))
    except BaseException:
        os.close(lock_fd)
        raise
    return BoundSocket(path, listener, lock_fd, (info.st_dev, info.st_ino), owned=False)


def _listening_path(sock: socket.socket) -> str:
    """The file system path of the passed socket (a Unix stream socket, listening)."""
    kind_ok = sock.family == socket.AF_UNIX and sock.type == socket.SOCK_STREAM
    listening = kind_ok and sock.getsockopt(socket.SOL_SOCKET, socket.SO_ACCEPTCONN)
    name = sock.getsockname() if kind_ok else None
    if not listening or not isinstance(name, str) or not name.startswith("/"):
        sock.detach()
        raise UserError(
            "the socket the service manager passed (fd 3) is not a listening Unix stream "
            "socket with a path: hookd.socket needs ListenStream=/absolute/path (e.g. "
            "%t/hookd/hookd.sock)"
        )
    return name
