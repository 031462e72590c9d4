"""The ``hookd`` command run as a person runs it: a real process against a real socket."""

from __future__ import annotations

import socket
import subprocess
import sys

HOOKD = [sys.executable, "-m", "hookd"]


def cli(
    path: str, *args: str, stdin: str = "", timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*HOOKD, "--socket", path, *args], input=stdin, capture_output=True, text=True,
        timeout=timeout,
    )  # fmt: skip


def connectable(path: str) -> bool:
    probe = socket.socket(socket.AF_UNIX)
    try:
        probe.connect(path)
    except OSError:
        return False
    finally:
        probe.close()
    return True
