"""Reading Linux ``/proc`` about other processes: children, state, parent, environment.

Shared by the process custody (escapees) and the server (who is calling). Every
function answers for a process that is gone (or a system without ``/proc``) with an
empty or None value instead of raising: the process may exit at any moment.
"""

from __future__ import annotations

import os


def children(pid: int) -> list[int]:
    """The children of every thread of ``pid``."""
    found: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for task in tasks:
        found += [int(child) for child in _read(f"/proc/{pid}/task/{task}/children").split()]
    return found


def _read(path: str) -> bytes:
    """A small ``/proc`` file whole (empty when it is gone): ``os.read`` until the end,
    three system calls where ``open()`` makes eight."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return b""
    chunks: list[bytes] = []
    try:
        while chunk := os.read(fd, 65536):
            chunks.append(chunk)
    except OSError:
        return b""
    finally:
        os.close(fd)
    return b"".join(chunks)


def _stat_fields(pid: int) -> list[bytes]:
    """The fields of ``/proc/PID/stat`` after the command name (state first)."""
    text = _read(f"/proc/{pid}/stat")
    return text.rsplit(b")", 1)[-1].split() if text else []


def is_zombie(pid: int) -> bool:
    fields = _stat_fields(pid)
    return bool(fields) and fields[0] == b"Z"


def is_stopped(pid: int) -> bool:
    """Whether ``pid`` is stopped (SIGSTOP and its kin, or traced)."""
    fields = _stat_fields(pid)
    return bool(fields) and fields[0] in (b"T", b"t")


PF_EXITING = 0x4
"""The kernel's flag for a task that is exiting (``/proc/PID/stat``'s ``flags``)."""


def is_exiting(pid: int) -> bool:
    """Whether ``pid`` is on its way out: killed or exited, its memory being freed (a
    process that touched gigabytes takes a while), a zombie soon; its environment reads
    as empty meanwhile."""
    fields = _stat_fields(pid)
    return len(fields) > 6 and bool(int(fields[6]) & PF_EXITING)


def start_time(pid: int) -> int | None:
    """When ``pid`` started, in clock ticks since boot: with the pid, it names one process
    (a pid is reused; the pair is not)."""
    fields = _stat_fields(pid)
    return int(fields[19]) if len(fields) > 19 else None


def parent_of(pid: int) -> int | None:
    fields = _stat_fields(pid)
    return int(fields[1]) if len(fields) > 1 else None


def environment_value(pid: int, name: str) -> str | None:
    """The value of ``name`` in the environment ``pid`` started with."""
    prefix = name.encode() + b"="
    for entry in _read(f"/proc/{pid}/environ").split(b"\0"):
        if entry.startswith(prefix):
            return entry[len(prefix) :].decode(errors="replace")
    return None


def pids() -> list[int]:
    """Every process id in ``/proc`` (empty without ``/proc``)."""
    try:
        return [int(name) for name in os.listdir("/proc") if name.isdigit()]
    except OSError:
        return []


def owner(pid: int) -> int | None:
    """The user id that owns ``pid`` (its ``/proc`` folder's), None when it is gone."""
    try:
        return os.stat(f"/proc/{pid}").st_uid
    except OSError:
        return None


def command_line(pid: int) -> list[str]:
    """The arguments ``pid`` was started with (empty for a kernel thread or when gone)."""
    raw = _read(f"/proc/{pid}/cmdline")
    return [part.decode(errors="replace") for part in raw.split(b"\0")[:-1]]


def socket_inodes(pid: int) -> set[int]:
    """The inodes of the sockets ``pid`` holds open (its ``fd`` links ``socket:[N]``);
    empty for another user's process or one that is gone."""
    folder = f"/proc/{pid}/fd"
    found: set[int] = set()
    try:
        names = os.listdir(folder)
    except OSError:
        return found
    for name in names:
        try:
            link = os.readlink(f"{folder}/{name}")
        except OSError:
            continue
        if link.startswith("socket:["):
            found.add(int(link[8:-1]))
    return found


SO_ACCEPTCON = 0x10000
"""``/proc/net/unix``'s flag for a listening socket."""


def unix_listeners() -> dict[int, str]:
    """Listening Unix sockets bound to a path, by inode (``/proc/net/unix``, this
    network namespace's); abstract names (``@...``) left out."""
    found: dict[int, str] = {}
    seen: set[int] = set()
    for line in _read("/proc/net/unix").decode(errors="replace").splitlines()[1:]:
        # Paths are printed raw: a socket named with a newline splits into lines that are
        # not entries (skipped), and could forge one: an inode listed twice is dropped.
        fields = line.split(None, 7)
        if len(fields) != 8 or not fields[0].endswith(":"):
            continue
        try:
            flags, inode = int(fields[3], 16), int(fields[6])
        except ValueError:
            continue
        if inode in seen:
            found.pop(inode, None)
            continue
        seen.add(inode)
        if flags & SO_ACCEPTCON and fields[7][:1] == "/":
            found[inode] = fields[7]
    return found
