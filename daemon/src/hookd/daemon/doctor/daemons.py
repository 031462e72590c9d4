"""Which hookd daemon answers on the socket this shell's clients use, and which others
run for this user on other sockets (issue 29: an agent started with another environment,
an IDE, cron, ssh without ``XDG_RUNTIME_DIR``, starts a second daemon whose hooks, trust
and logs ``hookd status`` never shows).

Linux: the daemons are found in ``/proc`` (this user's ``hookd serve`` processes) and
their sockets by matching their socket inodes against ``/proc/net/unix``'s listeners.
Elsewhere doctor says it cannot look, and how to.
"""

from __future__ import annotations

import os
import shlex
import sys
from dataclasses import dataclass
from importlib.metadata import version
from typing import Any

from hookd.client import Client, DaemonNotRunning, HookdClientError
from hookd.protocol import SOCKET_ENV

from .. import procfs
from .findings import Finding

ANSWER_S = 3.0
"""How long the daemon on the socket may take to answer ``status``."""
OTHER_ANSWER_S = 1.0
"""How long another daemon may take to say its version (it is reported all the same)."""
_ENTRY_MODULES = ("hookd", "hookd.daemon.cli.main")
_WHY_ELSEWHERE = ("HOOKD_SOCKET", "XDG_RUNTIME_DIR", "TMPDIR")


@dataclass(frozen=True, slots=True)
class Answer:
    """The daemon on the socket: its ``status``, or None with the findings saying why."""

    findings: list[Finding]
    status: dict[str, Any] | None


def socket_origin(given: str | None) -> str:
    """Where this shell's socket path comes from, in words."""
    if given:
        return "--socket"
    if os.environ.get(SOCKET_ENV):
        return f"${SOCKET_ENV}"
    if os.path.isabs(os.environ.get("XDG_RUNTIME_DIR", "")):
        return "$XDG_RUNTIME_DIR"
    return "XDG_RUNTIME_DIR unset: the /tmp fallback"


def answering(path: str, origin: str, service: str | None = None) -> Answer:
    """Ask the daemon on ``path`` for its status, within ``ANSWER_S``; ``service``: the
    command that starts the installed service (then never ``hookd serve``, which would
    stand beside it)."""
    try:
        with Client(path, timeout_s=ANSWER_S) as client:
            status: dict[str, Any] = client.status()
    except DaemonNotRunning:
        if service is not None:
            said = (f"no daemon answers on {path} ({origin}); the service is installed: "
                    "start it")  # fmt: skip
            return Answer([Finding("daemon", "warning", said, service)], None)
        said = (f"no daemon answers on {path} ({origin}); the relay starts one when an "
                "agent fires, or start it yourself")  # fmt: skip
        return Answer([Finding("daemon", "warning", said, "hookd serve")], None)
    except HookdClientError as exc:
        said = f"the daemon on {path} ({origin}) does not answer: {exc}"
        return Answer([Finding("daemon", "problem", said, _stop_command(path, None))], None)
    mine = version("hookd")
    found = [Finding("daemon", "ok", f"hookd {status['version']} (pid {status['pid']}) answers "
                     f"on {path} ({origin})", details={"pid": status["pid"], "socket": path,
                     "version": status["version"]})]  # fmt: skip
    if status["version"] != mine:
        found.append(Finding("daemon", "problem", f"the daemon runs hookd {status['version']}, "
                             f"this installation is {mine}: stop it, and the next fire starts "
                             "this one", "hookd shutdown"))  # fmt: skip
    return Answer(found, status)


def others(path: str, answering_pid: int | None, service_pid: int | None = None) -> list[Finding]:
    """This user's other hookd daemons, each with its socket and the command that stops
    it; a note that nothing could be looked at where there is no ``/proc``. The daemon on
    ``service_socket`` is the service's (said by the service's findings), not another."""
    if not os.path.isdir("/proc/self/fd"):
        return [Finding("daemon", "info", f"cannot look for other hookd daemons on "
                        f"{sys.platform} (no /proc); 'ps -axo pid,command | grep \"hookd.*"
                        "serve\"' lists them")]  # fmt: skip
    daemons = [pid for pid in procfs.pids() if _is_my_daemon(pid)]
    listeners = procfs.unix_listeners()
    found = []
    for pid in daemons:
        if pid == answering_pid or procfs.parent_of(pid) in daemons:
            continue  # the one that answers, or a process it forked
        if pid == service_pid or procfs.parent_of(pid) == service_pid:
            continue  # the service's own daemon (said by the service's findings)
        sockets = sorted(listeners[i] for i in procfs.socket_inodes(pid) if i in listeners)
        found.append(_other(pid, sockets, path))
    if not found:
        found.append(Finding("daemon", "ok", "no other hookd daemon runs for this user"))
    return found


def _other(pid: int, sockets: list[str], path: str) -> Finding:
    started = shlex.join(procfs.command_line(pid))
    env = {name: procfs.environment_value(pid, name) for name in _WHY_ELSEWHERE}
    env_said = ", ".join(f"{k}={v}" for k, v in env.items() if v) or "none of " + ", ".join(
        _WHY_ELSEWHERE
    )
    details = {"pid": pid, "sockets": sockets, "commandLine": started,
               "environment": {k: v for k, v in env.items() if v is not None}}  # fmt: skip
    if not sockets:
        said = (f"another hookd daemon (pid {pid}: {started}) runs with no socket this user "
                "can reach: stop it")  # fmt: skip
        return Finding("daemon", "problem", said, f"kill {pid}", details)
    where = sockets[0]
    if os.path.normpath(where) == os.path.normpath(path):
        said = (f"another hookd daemon (pid {pid}) listens on {where}, a socket file that "
                "now names the daemon above: nothing reaches it; stop it")  # fmt: skip
        return Finding("daemon", "problem", said, f"kill {pid}", details)
    found = details["version"] = _version_of(where)
    said = (f"another hookd daemon ({_version_said(found)}pid {pid}) listens on "
            f"{where}: the agents whose environment leads there fire into it (its own: "
            f"{env_said}; started as: {started}), and its hooks, trust and logs are not the "
            "ones 'hookd status' shows; stop it, and start those agents with this shell's "
            f"{_WHY_ELSEWHERE[0]} or {_WHY_ELSEWHERE[1]}")  # fmt: skip
    return Finding("daemon", "problem", said, _stop_command(where, pid), details)


def _version_of(path: str) -> str | None:
    try:
        with Client(path, timeout_s=OTHER_ANSWER_S) as client:
            return str(client.status()["version"])
    except (HookdClientError, OSError, KeyError):
        return None


def _version_said(found: str | None) -> str:
    return f"hookd {found}, " if found else ""


def _stop_command(path: str, pid: int | None) -> str:
    command = shutdown_command(path)
    return command if pid is None else f"{command}  (or: kill {pid})"


def shutdown_command(path: str) -> str:
    """The command that stops the daemon on ``path``."""
    return f"hookd --socket {shlex.quote(path)} shutdown"


def _is_my_daemon(pid: int) -> bool:
    return (
        pid != os.getpid()
        and procfs.owner(pid) == os.getuid()
        and is_serve(procfs.command_line(pid))
    )


def is_serve(argv: list[str]) -> bool:
    """Whether a command line is hookd's ``serve``: ``[python] .../hookd ... serve`` or
    ``python -m hookd ... serve`` (how the relay starts one)."""
    for i, word in enumerate(argv[:2]):
        if os.path.basename(word) == "hookd":
            return "serve" in argv[i + 1 :]
    if "-m" in argv[1:3]:
        at = argv.index("-m")
        module = argv[at + 1] if at + 1 < len(argv) else ""
        return module in _ENTRY_MODULES and "serve" in argv[at + 2 :]
    return False
