"""What every service manager module offers (``systemd``, ``launchd``), and the facts of
this installation they write into their files.

A manager is a module fulfilling ``Manager`` (trio's way with its I/O back ends, and
pre-commit's with its languages): the platform's is picked once (``MANAGERS`` and
``manager_for`` in ``__init__``), and ``hookd service`` never asks which one it holds.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

Command = tuple[str, ...]


ASK_S = 30.0
"""How long ``systemctl``/``launchctl`` may take to answer (doctor asks for less)."""


@dataclass(frozen=True, slots=True)
class Installation:
    """Where this hookd is and what its service needs to know."""

    program: tuple[str, ...]
    """The absolute command line that runs this hookd (``bin/hookd``, or
    ``python -m hookd``), without ``serve``."""
    home: str
    config_home: str
    """``$XDG_CONFIG_HOME``, else ``~/.config``."""
    socket: str
    """The socket clients look at (``hookd.protocol.default_socket_path`` here)."""
    path: str
    """The ``PATH`` the hooks need (launchd's own is only the system's)."""
    uid: int
    runtime_dir: str | None = None
    """``$XDG_RUNTIME_DIR`` (systemd's ``%t``), when the environment has it."""


@dataclass(frozen=True, slots=True)
class ServiceFile:
    """A file the service consists of, with the exact text to write."""

    path: str
    text: str


@dataclass(frozen=True, slots=True)
class UnitState:
    """What the manager says of hookd's units."""

    summary: str
    """One line, in the manager's words ("socket active (listening), service inactive
    (dead)"; "not loaded"; "unknown: <why>")."""
    main_pid: int | None = None
    """The pid of the daemon the manager runs, when it runs one."""
    listening: bool = False
    """The manager holds the socket (a connection starts hookd)."""
    known: bool = True
    """False when the manager could not be asked (no user manager, no ``launchctl``)."""


class Manager(Protocol):
    """A service manager hookd can install itself with (module members)."""

    NAME: str
    PLATFORM: str
    """``sys.platform`` where this manager runs."""

    def files(self, install: Installation) -> list[ServiceFile]:
        """The service's files with this installation's paths."""

    def marker(self, install: Installation) -> str:
        """The one file whose presence means "installed": the relays ``stat`` it."""

    def socket_path(self, install: Installation) -> str:
        """The socket the service listens on."""

    def install_commands(self, install: Installation, state: UnitState) -> list[Command]:
        """Commands that load and start the written files."""

    def start_commands(self, install: Installation) -> list[Command]:
        """Commands that start an installed service whose files did not change."""

    def uninstall_commands(self, install: Installation) -> list[Command]:
        """Commands that stop and unload the service (before its files are removed)."""

    def after_uninstall_commands(self, install: Installation) -> list[Command]:
        """Commands that make the manager forget the removed files."""

    def unit_state(self, install: Installation, timeout_s: float = ASK_S) -> UnitState:
        """Ask the manager (never raises: an unknown state says why)."""


def this_installation(environ: Mapping[str, str], socket: str) -> Installation:
    """This hookd: the ``hookd`` script beside the running Python (a virtualenv's or
    pipx's ``bin``), else that Python with ``-m hookd``; both absolute, so the service
    runs exactly this installation whatever its ``PATH``."""
    home = environ.get("HOME") or os.path.expanduser("~")
    folder = os.path.dirname(os.path.abspath(sys.executable))
    script = os.path.join(folder, "hookd")
    program: tuple[str, ...] = (script,)
    if not (os.path.isfile(script) and os.access(script, os.X_OK)):
        program = (os.path.abspath(sys.executable), "-m", "hookd")
    config_home = environ.get("XDG_CONFIG_HOME", "")
    if not os.path.isabs(config_home):
        config_home = os.path.join(home, ".config")
    path = environ.get("PATH") or "/usr/bin:/bin:/usr/sbin:/sbin"
    runtime = environ.get("XDG_RUNTIME_DIR")
    return Installation(program, home, config_home, socket, path, os.getuid(), runtime)


def ask(command: Sequence[str], timeout_s: float = ASK_S) -> tuple[int, str]:
    """Run a manager's query: its exit code and output (stdout, then stderr); 127 with
    the reason when it cannot run at all."""
    try:
        done = subprocess.run(list(command), capture_output=True, text=True,
                              timeout=timeout_s, check=False)  # fmt: skip
    except FileNotFoundError:
        return 127, f"{command[0]} not found"
    except (OSError, subprocess.TimeoutExpired) as exc:
        return 127, f"{command[0]}: {exc}"
    return done.returncode, (done.stdout + done.stderr).strip()
