"""Helpers for tests of hookd under a service manager: a daemon held by the real
``systemd-socket-activate``, and the ``systemctl`` stand-in (``user_manager.py``)."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

ACTIVATE = shutil.which("systemd-socket-activate")
needs_activate = pytest.mark.skipif(ACTIVATE is None,
                                    reason="systemd-socket-activate is not installed")  # fmt: skip
HOOKD = [sys.executable, "-m", "hookd"]


@contextmanager
def activated(
    path: str, env: dict[str, str], *serve_args: str
) -> Iterator[subprocess.Popen[bytes]]:
    """``systemd-socket-activate`` holding ``path``; on the first connection it becomes
    ``hookd serve`` (it execs it: the daemon's pid is the activator's) with the socket
    as fd 3. Stopped (and its socket removed) at the end."""
    assert ACTIVATE is not None
    forwarded = [arg for name in env for arg in ("-E", name)]
    child = subprocess.Popen([ACTIVATE, "-l", path, *forwarded, *HOOKD, "serve", *serve_args],
                             env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE)  # fmt: skip
    try:
        assert child.stderr is not None
        said = child.stderr.readline()  # "Listening on PATH as 3."
        assert b"Listening on" in said, said
        yield child
    finally:
        if child.poll() is None:
            child.send_signal(signal.SIGTERM)
            child.wait(timeout=60)
        if child.stderr is not None:
            child.stderr.close()
        Path(path).unlink(missing_ok=True)


def fake_systemctl(folder: Path) -> Path:
    """A ``systemctl`` in ``folder/bin`` that is ``user_manager.py`` (calls logged in
    ``folder/manager``); put ``folder/bin`` first on PATH, ``HOOKD_TEST_MANAGER`` set to
    the returned folder."""
    state = folder / "manager"
    state.mkdir(parents=True)
    program = folder / "bin" / "systemctl"
    program.parent.mkdir(parents=True, exist_ok=True)
    script = Path(__file__).with_name("user_manager.py")
    program.write_text(f'#!/bin/sh\nexec {sys.executable} {script} "$@"\n')
    program.chmod(0o755)
    return state


def stop_manager(state: Path) -> None:
    """Stop whatever the stand-in started."""
    try:
        pid = int((state / "pid").read_text())
    except (OSError, ValueError):
        return
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        return
