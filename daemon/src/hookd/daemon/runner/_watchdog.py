"""hookd's watchdog: kills the daemon's hooks when the daemon is gone, however it went.

Run by ``custody.Custody`` as ``python -I -S _watchdog.py <daemon id>`` with a pipe on
stdin. The daemon writes ``+<pgid>`` when a hook starts and ``-<pgid>`` when it ends.
At end of file (the daemon stopped, crashed or was killed with SIGKILL) every group still
listed is killed, then every process whose environment carries ``HOOKD_HOOK_ID=<daemon
id>:...`` (escapees that left their group). Standard library only; no imports from hookd,
so it starts fast and cannot break with the daemon.

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

DRAIN_EVERY_MS = 1000
PIPE_BYTES = 1 << 20
"""Asked for (``F_SETPIPE_SZ``), so a second's lines fit even at thousands of hooks a
second; the default 64 KiB holds about 4,000 hooks' lines."""
F_SETPIPE_SZ = 1031


def main() -> None:
    instance = sys.argv[1].encode()
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_IGN)  # only the end of the pipe ends it
    with contextlib.suppress(OSError):
        fcntl.fcntl(0, F_SETPIPE_SZ, PIPE_BYTES)
    os.set_blocking(0, False)
    hang_up = select.poll()
    hang_up.register(0, 0)  # POLLHUP and POLLERR are always reported; POLLIN not asked
    groups: set[int] = set()
    rest = b""
    ended = False
    while not ended:
        hang_up.poll(DRAIN_EVERY_MS)
        data, ended = _read_all(0)  # after a hang-up: what is left, then the end
        lines = (rest + data).split(b"\n")
        rest = lines.pop()
        for line in lines:
            line = line.strip()
            if line[:1] == b"+":
                groups.add(int(line[1:]))
            elif line[:1] == b"-":
                groups.discard(int(line[1:]))
    for group in groups:
        with contextlib.suppress(OSError):
            os.killpg(group, signal.SIGKILL)
    marker = b"HOOKD_HOOK_ID=" + instance + b":"
    me = os.getpid()
    for _round in range(2):  # a fork racing the first round is caught by the second
        for name in os.listdir("/proc"):
            if not name.isdigit() or int(name) == me:
                continue
            try:
                with open(f"/proc/{name}/environ", "rb") as environ:
                    marked = any(e.startswith(marker) for e in environ.read().split(b"\0"))
            except OSError:
                continue
            if marked:
                with contextlib.suppress(OSError):
                    os.kill(int(name), signal.SIGKILL)


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
