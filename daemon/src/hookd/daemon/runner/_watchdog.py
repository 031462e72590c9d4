"""hookd's watchdog: kills the daemon's hooks when the daemon is gone, however it went.

Run by ``custody.Custody`` as ``python -I -S _watchdog.py <daemon id> [<hooks' cgroup>]``
with a pipe on stdin. The daemon writes ``+<pgid>`` when a hook starts and ``-<pgid>``
when it ends, ``+t<pid>:<start time>`` when it first sees an escapee that names no hook
and ``-t<pid>`` when that one is gone. At end of file (the daemon stopped, crashed or was
killed with SIGKILL) every process in the hooks' cgroup is killed (``cgroup.kill``),
then every group still listed, every escapee still listed with its tree (when its start
time says it is still the same process), then every process whose environment carries
``HOOKD_HOOK_ID=<daemon id>:...`` (escapees that left their group); last, the emptied
cgroups are removed. Standard library only; no imports from hookd, so it starts fast
and cannot break with the daemon.

The daemon's lines do not wake it: it waits for the pipe's hang-up alone (``poll`` with
no event asked for: a write wakes only readers that asked for input) and empties the
pipe once a second, so a hook costs the daemon one ``write`` and no context switch. The
lines written last before a crash are still in the pipe, read after the hang-up.
"""

import contextlib
import fcntl
import os
import select
import signal
import sys
import time

DRAIN_EVERY_MS = 1000
PIPE_BYTES = 1 << 20
"""Asked for (``F_SETPIPE_SZ``), so a second's lines fit even at thousands of hooks a
second; the default 64 KiB holds about 4,000 hooks' lines."""
F_SETPIPE_SZ = 1031
CGROUP_DRAIN_S = 5.0


def main() -> None:
    instance = sys.argv[1].encode()
    cgroup = sys.argv[2] if len(sys.argv) > 2 else None
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_IGN)  # only the end of the pipe ends it
    with contextlib.suppress(OSError):
        fcntl.fcntl(0, F_SETPIPE_SZ, PIPE_BYTES)
    os.set_blocking(0, False)
    hang_up = select.poll()
    hang_up.register(0, 0)  # POLLHUP and POLLERR are always reported; POLLIN not asked
    groups: set[int] = set()
    escapees: dict[int, int] = {}
    rest = b""
    ended = False
    while not ended:
        hang_up.poll(DRAIN_EVERY_MS)
        data, ended = _read_all(0)  # after a hang-up: what is left, then the end
        lines = (rest + data).split(b"\n")
        rest = lines.pop()
        for line in lines:
            line = line.strip()
            if line[:2] == b"+t":
                told, _sep, since = line[2:].partition(b":")
                escapees[int(told)] = int(since or 0)
            elif line[:2] == b"-t":
                escapees.pop(int(line[2:]), None)
            elif line[:1] == b"+":
                groups.add(int(line[1:]))
            elif line[:1] == b"-":
                groups.discard(int(line[1:]))
    if cgroup is not None:
        _write(cgroup + "/cgroup.kill", b"1")
    marker = b"HOOKD_HOOK_ID=" + instance + b":"
    for _round in range(2):  # a fork racing the first round is caught by the second
        doomed = _doomed(groups, escapees, marker)  # before a kill re-parents any of them
        for group in groups:
            with contextlib.suppress(OSError):
                os.killpg(group, signal.SIGKILL)
        for pid in doomed:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
    if cgroup is not None:
        _remove_cgroups(cgroup)


def _doomed(groups: set[int], escapees: dict[int, int], marker: bytes) -> set[int]:
    """Every process of the hooks, from one look at ``/proc``: the members of their
    process groups and sessions (a hook leads a session of its own), the escapees still
    listed (the same process: its start time says), the processes marked with this
    daemon's id; and every descendant of any of them (a child that left the hook's group
    and session, or cleared its environment, under a hook that is still running)."""
    me = os.getpid()
    kids: dict[int, list[int]] = {}
    roots: set[int] = set()
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == me:
            continue
        pid = int(name)
        fields = _stat_fields(pid)
        if len(fields) <= 19:
            continue  # gone meanwhile
        kids.setdefault(int(fields[1]), []).append(pid)
        if (
            pid in groups
            or int(fields[2]) in groups
            or int(fields[3]) in groups
            or escapees.get(pid) == int(fields[19])
            or _marked(pid, marker)
        ):
            roots.add(pid)
    doomed: set[int] = set()
    todo = list(roots)
    while todo:
        pid = todo.pop()
        if pid not in doomed:
            doomed.add(pid)
            todo += kids.get(pid, [])
    return doomed


def _marked(pid: int, marker: bytes) -> bool:
    try:
        with open(f"/proc/{pid}/environ", "rb") as environ:
            return any(e.startswith(marker) for e in environ.read().split(b"\0"))
    except OSError:
        return False


def _remove_cgroups(root: str) -> None:
    """Remove the hooks' cgroups once the killed processes have left them (boundedly)."""
    deadline = time.monotonic() + CGROUP_DRAIN_S
    while time.monotonic() < deadline:
        try:
            names = [e.name for e in os.scandir(root) if e.is_dir()]
        except OSError:
            return
        for name in names:
            with contextlib.suppress(OSError):
                os.rmdir(os.path.join(root, name))
        with contextlib.suppress(OSError):
            os.rmdir(root)
            return
        _write(root + "/cgroup.kill", b"1")
        time.sleep(0.02)


def _write(path: str, data: bytes) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(path, os.O_WRONLY)
        try:
            os.write(fd, data)
        finally:
            os.close(fd)


def _stat_fields(pid: int) -> list[bytes]:
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            return stat.read().rsplit(b")", 1)[-1].split()
    except OSError:
        return []


def _read_all(fd: int) -> tuple[bytes, bool]:
    """Everything the pipe holds now, and whether its writer is gone (end of file)."""
    chunks: list[bytes] = []
    while True:
        try:
            chunk = os.read(fd, 65536)
        except BlockingIOError:
            return b"".join(chunks), False
        if not chunk:
            return b"".join(chunks), True
        chunks.append(chunk)


if __name__ == "__main__":
    main()
