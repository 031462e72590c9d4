"""``hookd service``'s knowledge: which service manager runs hookd here, its files, and
the state of what is installed (``state()``, for ``hookd service status`` and
``hookd doctor``).

The platform's manager is picked once (``MANAGER``); everything else goes through the
``base.Manager`` interface, so the macOS module is exercised on Linux by its files
(``hookd service install --manager launchd --dry-run``).
"""

from __future__ import annotations

import os
import shlex
import sys
from collections.abc import Mapping
from dataclasses import dataclass

from hookd.protocol import default_socket_path

from . import launchd, systemd
from .base import ASK_S, Installation, Manager, ServiceFile, UnitState, this_installation
from .runner import Runner, daemon_pid, who_runs

MANAGERS: dict[str, Manager] = {systemd.NAME: systemd, launchd.NAME: launchd}
MANAGER: Manager | None = next((m for m in MANAGERS.values() if sys.platform == m.PLATFORM),
                               None)  # fmt: skip
"""This platform's service manager (None: hookd has no service integration here)."""

__all__ = ["MANAGER", "MANAGERS", "Installation", "Manager", "Runner", "ServiceFile",
           "ServiceState", "UnitState", "daemon_pid", "installation", "reads", "state",
           "who_runs"]  # fmt: skip


def installation(environ: Mapping[str, str] | None = None, socket: str | None = None
                 ) -> Installation:  # fmt: skip
    """This hookd, as a service would run it (``socket``: the path to pin, default the
    clients' default)."""
    return this_installation(os.environ if environ is None else environ,
                             socket or default_socket_path())  # fmt: skip


@dataclass(frozen=True, slots=True)
class ServiceState:
    """hookd's service as it is now."""

    manager: str
    """``systemd``, ``launchd``, or ``none`` (no service integration on this platform)."""
    installed: bool
    """The service's files are there (what the relays check with a ``stat``)."""
    current: bool
    """Installed, and the files say what ``hookd service install`` would write now (this
    installation's hookd; False after a move or an upgrade that changed them)."""
    files: tuple[str, ...]
    """The service's files (present or not)."""
    stale: tuple[str, ...]
    """Installed, those of ``files`` that are not what install would write now (or are
    missing)."""
    unit: str
    """The manager's word on its units (``unknown: ...`` when it could not be asked)."""
    unit_known: bool
    """The manager was asked and answered (False: not installed, not asked, or no
    manager to ask: ``unit`` says why)."""
    socket: str
    """The socket the service listens on."""
    main_pid: int | None
    """The daemon the manager runs, if it runs one."""
    listening: bool
    """The manager holds the socket or the agent is loaded: a client starts hookd."""


def state(environ: Mapping[str, str] | None = None, *, manager: Manager | None = None,
          ask_manager: bool = True, timeout_s: float = ASK_S) -> ServiceState:  # fmt: skip
    """The service's state (``ask_manager=False``: from the files alone, no
    ``systemctl``/``launchctl`` run; ``timeout_s``: how long the manager may take).
    Never raises; never connects to the daemon."""
    chosen = manager or MANAGER
    if chosen is None:
        return ServiceState("none", False, False, (), (), "no service manager on this "
                            "platform", False, default_socket_path(), None, False)  # fmt: skip
    install = installation(environ)
    wanted = chosen.files(install)
    installed = os.path.exists(chosen.marker(install))
    texts = {f.path: reads(f.path) for f in wanted}
    stale = tuple(f.path for f in wanted if installed and texts[f.path] != f.text)
    current = installed and not stale
    unit = chosen.unit_state(install, timeout_s) if installed and ask_manager else UnitState(
        "not installed" if not installed else "not asked", known=False)  # fmt: skip
    return ServiceState(chosen.NAME, installed, current, tuple(texts), stale, unit.summary,
                        unit.known, chosen.socket_path(install), unit.main_pid,
                        unit.listening)  # fmt: skip


def start_command(found: ServiceState) -> str:
    """The command line that starts the installed service (what a person pastes)."""
    commands = MANAGERS[found.manager].start_commands(installation())
    return " && ".join(shlex.join(command) for command in commands)


def reads(path: str) -> str | None:
    """The file's text, None when it is not there or not text."""
    try:
        with open(path, encoding="utf-8") as file:
            return file.read()
    except (OSError, UnicodeDecodeError):
        return None
