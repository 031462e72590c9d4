"""Binding the Unix socket safely: private directory, one daemon per socket, 0600 socket.

* The directory that holds the socket is created 0700; the default one (under
  ``$XDG_RUNTIME_DIR`` or ``/tmp/hookd-<uid>``) must be owned by us and closed to others,
  or we refuse to start (an attacker could otherwise pre-create it).
* A ``flock`` on ``<socket>.lock`` is taken *before* the socket is touched: with the lock
  held, an existing socket file is stale by definition and is replaced; without it, a live
  daemon is serving and we refuse with a message naming its pid.
* The socket is bound under ``umask 0o177`` (never visible with looser permissions); on
  exit it is removed only if it is still the inode we bound.
"""

from __future__ import annotations

import fcntl
import os
import socket
import stat
from dataclasses import dataclass

import trio

from hookd.protocol import runtime_dir

from ..errors import AlreadyRunning, UserError


@dataclass
class BoundSocket:
    path: str
    listener: trio.SocketListener
    lock_fd: int
    inode: tuple[int, int]
    owned: bool = True
    """False for a socket a service manager bound (``activation``): its file is the
    socket unit's to keep, so that clients wait in its backlog while hookd restarts."""

    def close(self) -> None:
        """Close the listening socket, remove its file (if ours and still the one we
        bound), release the lock."""
        self.listener.socket.close()
        try:
            if not self.owned:
                return
            info = os.lstat(self.path)
            if (info.st_dev, info.st_ino) == self.inode:
                os.unlink(self.path)
        except FileNotFoundError:
            pass
        finally:
            os.close(self.lock_fd)


def prepare_directory(socket_path: str) -> None:
    folder = os.path.dirname(os.path.abspath(socket_path))
    is_default = os.path.abspath(folder) == os.path.abspath(runtime_dir())
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
    except OSError as exc:
        raise UserError(f"cannot create socket directory {folder}: {exc.strerror}") from exc
    info = os.lstat(folder)
    if stat.S_ISLNK(info.st_mode):
        raise UserError(f"socket directory {folder} is a symlink; remove it and start again")
    if info.st_uid != os.geteuid():
        raise UserError(
            f"socket directory {folder} belongs to uid {info.st_uid}, not you ({os.geteuid()}); "
            "remove it or choose another path with --socket"
        )
    if is_default and info.st_mode & 0o077:
        raise UserError(
            f"socket directory {folder} is open to other users "
            f"(mode {stat.S_IMODE(info.st_mode):o}); run: chmod 700 {folder}"
        )


def take_lock(socket_path: str) -> int:
    lock_path = socket_path + ".lock"
    fd = os.open(lock_path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.pread(fd, 32, 0).decode(errors="replace").strip() or "unknown"
        os.close(fd)
        raise AlreadyRunning(
            f"another hookd (pid {holder}) is already serving {socket_path}; "
            "stop it with 'hookd shutdown' or use another --socket"
        ) from None
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
    return fd


async def bind_unix(socket_path: str, backlog: int = 512) -> BoundSocket:
    """Create, lock and bind the daemon's socket; raises UserError with a remedy."""
    if len(socket_path.encode()) > 107:
        raise UserError(
            f"socket path is {len(socket_path.encode())} bytes; Unix sockets allow at most "
            "107. Choose a shorter --socket path"
        )
    prepare_directory(socket_path)
    lock_fd = take_lock(socket_path)
    try:
        _remove_stale(socket_path)
        sock = trio.socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        old_umask = os.umask(0o177)
        try:
            await sock.bind(socket_path)
        finally:
            os.umask(old_umask)
        sock.listen(backlog)
        info = os.lstat(socket_path)
    except BaseException:
        os.close(lock_fd)
        raise
    return BoundSocket(socket_path, trio.SocketListener(sock), lock_fd, (info.st_dev, info.st_ino))


def _remove_stale(socket_path: str) -> None:
    try:
        info = os.lstat(socket_path)
    except FileNotFoundError:
        return
    if not stat.S_ISSOCK(info.st_mode):
        raise UserError(
            f"{socket_path} exists and is not a socket; move it away or choose another --socket"
        )
    if _listened_on(socket_path):
        # Not stale although the lock was free: a service manager holds it for hookd
        # (systemd's hookd.socket starts hookd on the first connection). Replacing it
        # would leave the manager listening on a file nobody can reach any more.
        raise UserError(
            f"{socket_path} is held by a service manager for hookd (hookd.socket): connect "
            "to it ('hookd status' starts hookd there), or stop the service first "
            "('systemctl --user stop hookd.socket hookd.service'), or use another --socket"
        )
    os.unlink(socket_path)  # we hold the lock and nothing listens: it is stale


def _listened_on(socket_path: str) -> bool:
    """Whether something accepts connections on the socket file (a short connect, closed
    at once: a socket-activation manager starts hookd for it, which is then the one that
    serves; a stale file refuses)."""
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    probe.settimeout(1.0)
    try:
        probe.connect(socket_path)
    except OSError:
        return False
    finally:
        probe.close()
    return True
