"""The agents on ``PATH`` and their versions against the ones hookd is tested with
(``agent_pins``). Each agent's ``--version`` runs at once with the others (``start``), in
a network namespace of its own where Linux lets this user make one (``unshare -rn``: an
agent that checks for updates finds no network), and is killed, its process group whole,
at the deadline (``collect``)."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass

from .agent_pins import PINS, Pin
from .findings import Finding

_NO_NETWORK = ["unshare", "--user", "--net", "--map-root-user"]
_QUIET = {"NO_UPDATE_NOTIFIER": "1", "DISABLE_AUTOUPDATER": "1"}
_VERSION = re.compile(r"\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?")


@dataclass
class Running:
    program: str
    path: str | None
    process: subprocess.Popen[str] | None = None
    error: str | None = None


@dataclass(frozen=True, slots=True)
class Started:
    running: list[Running]
    isolated: bool
    """Whether the agents ran without network (a namespace of their own)."""


def start() -> Started:
    """Every pinned program found on ``PATH`` runs ``--version`` now."""
    prefix = _NO_NETWORK if _can_isolate() else []
    running = []
    for program in dict.fromkeys(pin.program for pin in PINS):
        path = shutil.which(program)
        one = Running(program, path)
        if path is not None:
            try:
                one.process = subprocess.Popen(
                    [*prefix, path, "--version"], stdin=subprocess.DEVNULL,
                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, errors="replace",
                    env={**os.environ, **_QUIET}, start_new_session=True,
                )  # fmt: skip
            except OSError as exc:
                one.error = f"cannot run it: {exc.strerror}"
        running.append(one)
    return Started(running, bool(prefix))


def collect(started: Started, began: float, timeout_s: float) -> list[Finding]:
    """What each agent said within ``timeout_s`` of ``began`` (a monotonic time); those
    still running then are killed."""
    found = []
    for one in started.running:
        found.append(_finding(one, _answer(one, began, timeout_s), started.isolated))
    return found


def _answer(one: Running, began: float, timeout_s: float) -> str | None:
    """The version ``one`` printed, or None with ``one.error`` saying why not."""
    if one.process is None:
        return None
    try:
        out, err = one.process.communicate(timeout=max(0.0, began + timeout_s - time.monotonic()))
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(one.process.pid, signal.SIGKILL)
        one.process.communicate()
        one.error = f"did not print its version within {timeout_s:g} s (killed)"
        return None
    found = _VERSION.search(out) or _VERSION.search(err)
    if found is None:
        last = (err or out).strip().splitlines()[-1:] or ["no output"]
        one.error = f"'--version' printed no version (exit {one.process.returncode}: {last[0]})"
        return None
    return found.group(0)


def _finding(one: Running, version: str | None, isolated: bool) -> Finding:
    pins = [pin for pin in PINS if pin.program == one.program]
    details = {"program": one.program, "path": one.path, "version": version,
               "pinned": {pin.key: pin.version for pin in pins},
               "withoutNetwork": isolated}  # fmt: skip
    if one.path is None:
        return Finding("agent", "info", f"{one.program}: not on PATH", None, details)
    if version is None:
        return Finding("agent", "warning", f"{one.program} ({one.path}) {one.error}",
                       pins[0].install_command(), details)  # fmt: skip
    same = next((pin for pin in pins if pin.version == version), None)
    if same is not None:
        return Finding("agent", "ok", f"{one.program} {version} ({one.path}): the version hookd "
                       f"is tested with ({same.key})", None, details)  # fmt: skip
    pin = _nearest(pins, version)
    said = (f"{one.program} {version} ({one.path}): hookd is tested with {pin.key} "
            f"{pin.version}; hooks may behave otherwise under this version")  # fmt: skip
    return Finding("agent", "warning", said, pin.install_command(), details)


def _nearest(pins: list[Pin], version: str) -> Pin:
    """The pin of the same major version (Cline's two runners), else the first."""
    major = version.split(".")[0]
    return next((pin for pin in pins if pin.version.split(".")[0] == major), pins[0])


def _can_isolate() -> bool:
    """Whether ``unshare -rn`` works here (Linux, user namespaces allowed)."""
    if not sys.platform.startswith("linux") or shutil.which("unshare") is None:
        return False
    try:
        done = subprocess.run([*_NO_NETWORK, "true"], capture_output=True, timeout=2.0,
                              stdin=subprocess.DEVNULL, check=False)  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0
