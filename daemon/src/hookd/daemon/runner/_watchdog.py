"""hookd's watchdog: kills the daemon's hooks when the daemon is gone, however it went.

Run by ``custody.Custody`` as ``python -I -S _watchdog.py <daemon id>`` with a pipe on
stdin. The daemon writes ``+<pgid>`` when a hook starts and ``-<pgid>`` when it ends.
At end of file (the daemon stopped, crashed or was killed with SIGKILL) every group still
listed is killed, then every process whose environment carries ``HOOKD_HOOK_ID=<daemon
id>:...`` (escapees that left their group). Standard library only; no imports from hookd,
so it starts fast and cannot break with the daemon.
"""

import contextlib
import os
import signal
import sys


def main() -> None:
    instance = sys.argv[1].encode()
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_IGN)  # only the end of the pipe ends it
    groups = set()
    for line in sys.stdin.buffer:
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


if __name__ == "__main__":
    main()
