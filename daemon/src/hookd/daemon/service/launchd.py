"""A launchd per-user agent (macOS): ``~/Library/LaunchAgents/dev.hookd.plist``.

launchd has no socket activation hookd could use with a path of its choosing, so the
agent runs hookd at login (``RunAtLoad``) with its socket pinned: ``--socket`` and
``HOOKD_SOCKET`` name the path the installing shell's clients use, so the agent's own
``TMPDIR`` (which may differ from the shell's) cannot move it. ``packaging/launchd``
holds this plist as written for placeholders (``scripts/regenerate.py``).
"""

from __future__ import annotations

import os
import plistlib
from typing import Any

from .base import ASK_S, Command, Installation, ServiceFile, UnitState, ask

NAME = "launchd"
PLATFORM = "darwin"
LABEL = "dev.hookd"


def plist_path(install: Installation) -> str:
    return os.path.join(install.home, "Library", "LaunchAgents", f"{LABEL}.plist")


def log_path(install: Installation) -> str:
    return os.path.join(install.home, "Library", "Logs", "hookd.log")


def agent(install: Installation) -> dict[str, Any]:
    """The plist's content."""
    return {
        "Label": LABEL,
        "ProgramArguments": [*install.program, "--socket", install.socket, "serve"],
        "RunAtLoad": True,
        # restart after a crash or a non-zero exit; `hookd shutdown` (exit 0) leaves it
        # stopped until the next kickstart or login
        "KeepAlive": {"SuccessfulExit": False},
        "ProcessType": "Interactive",  # agents wait for hook answers: no throttling
        "ExitTimeOut": 15,  # SIGTERM, then SIGKILL after this long
        "SoftResourceLimits": {"NumberOfFiles": 1024},
        "HardResourceLimits": {"NumberOfFiles": 65536},
        "EnvironmentVariables": {
            "PATH": install.path,
            "PYTHONUNBUFFERED": "1",
            "HOOKD_SOCKET": install.socket,
        },
        "StandardErrorPath": log_path(install),
        "StandardOutPath": log_path(install),
    }


def files(install: Installation) -> list[ServiceFile]:
    text = plistlib.dumps(agent(install), sort_keys=False).decode()
    return [ServiceFile(plist_path(install), text)]


def marker(install: Installation) -> str:
    return plist_path(install)


def socket_path(install: Installation) -> str:
    return install.socket


def _domain(install: Installation) -> str:
    return f"gui/{install.uid}"


def install_commands(install: Installation, state: UnitState) -> list[Command]:
    loaded = state.listening  # bootstrap refuses a loaded agent: unload it first
    reload = [("launchctl", "bootout", f"{_domain(install)}/{LABEL}")] if loaded else []
    return [*reload, ("launchctl", "bootstrap", _domain(install), plist_path(install))]


def start_commands(install: Installation) -> list[Command]:
    return [("launchctl", "kickstart", f"{_domain(install)}/{LABEL}")]


def uninstall_commands(install: Installation) -> list[Command]:
    return [("launchctl", "bootout", f"{_domain(install)}/{LABEL}")]


def after_uninstall_commands(install: Installation) -> list[Command]:
    return []


def unit_state(install: Installation, timeout_s: float = ASK_S) -> UnitState:
    code, said = ask(["launchctl", "print", f"{_domain(install)}/{LABEL}"], timeout_s)
    if code == 127:
        return UnitState(f"unknown: {said}", known=False)
    if code != 0:
        return UnitState("not loaded")
    fields: dict[str, str] = {}
    for line in said.splitlines():
        key, sep, value = line.strip().partition(" = ")
        if sep:
            fields.setdefault(key, value)
    pid = int(fields["pid"]) if fields.get("pid", "").isdigit() else None
    return UnitState(f"loaded, {fields.get('state', '?')}", pid, listening=True)
