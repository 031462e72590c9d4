"""Whether a service manager runs hookd for this user: systemd user units or a launchd
agent. One function, ``service_state``, so that ``hookd.daemon.service``'s own status
can take its place when that package lands (doctor reads only ``ServiceState``).

systemd: the unit files ``$XDG_CONFIG_HOME/systemd/user/hookd.socket`` and
``hookd.service``, and ``systemctl --user is-active`` when ``systemctl`` and a user
manager exist; launchd (macOS): ``~/Library/LaunchAgents/dev.hookd.plist`` and
``launchctl list dev.hookd``. Every command runs with a deadline.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass, field

ASK_S = 5.0
"""How long the service manager may take to answer."""
UNITS = ("hookd.socket", "hookd.service")
LAUNCHD_LABEL = "dev.hookd"


@dataclass(frozen=True, slots=True)
class ServiceState:
    manager: str | None
    """``systemd``, ``launchd``, or None: no service is installed."""
    files: list[str] = field(default_factory=list)
    """The unit or plist files found."""
    active: dict[str, str] = field(default_factory=dict)
    """Each unit's state as the manager says it (``active``, ``inactive``, ``failed``)."""
    main_pid: int | None = None
    """The pid the manager runs hookd as, when it runs."""
    program: str | None = None
    """The program the service starts (``ExecStart``'s first word)."""
    unknown: str | None = None
    """Why the manager could not be asked (no user manager, no ``systemctl``)."""


def service_state() -> ServiceState:
    """What runs hookd as a service here, as far as can be seen within ``ASK_S``."""
    if sys.platform == "darwin":
        return _launchd()
    return _systemd()


def unit_folder() -> str:
    base = os.environ.get("XDG_CONFIG_HOME", "")
    if not os.path.isabs(base):
        base = os.path.join(os.path.expanduser("~"), ".config")
    return os.path.join(base, "systemd", "user")


def _systemd() -> ServiceState:
    files = [os.path.join(unit_folder(), unit) for unit in UNITS]
    files = [path for path in files if os.path.isfile(path)]
    if not files:
        return ServiceState(None)
    program = _exec_start(os.path.join(unit_folder(), "hookd.service"))
    if shutil.which("systemctl") is None:
        return ServiceState("systemd", files, program=program, unknown="no systemctl on PATH")
    runtime = os.environ.get("XDG_RUNTIME_DIR", "")
    if not os.path.exists(os.path.join(runtime, "systemd", "private")) or not runtime:
        return ServiceState("systemd", files, program=program,
                            unknown="no systemd user manager runs for this session")  # fmt: skip
    said = _ask(["systemctl", "--user", "is-active", *UNITS])
    if said is None:
        late = f"systemctl --user did not answer within {ASK_S:g} s"
        return ServiceState("systemd", files, program=program, unknown=late)
    states = dict(zip(UNITS, said.stdout.split(), strict=False))
    shown = _ask(["systemctl", "--user", "show", "-p", "MainPID", "--value", "hookd.service"])
    main = shown.stdout.strip() if shown else ""
    pid = int(main) if main.isdigit() and int(main) > 0 else None
    return ServiceState("systemd", files, states, pid, program)


def _exec_start(unit: str) -> str | None:
    try:
        with open(unit, encoding="utf-8", errors="replace") as file:
            lines = file.read(65536).splitlines()
    except OSError:
        return None
    for line in lines:
        key, _, value = line.partition("=")
        if key.strip() == "ExecStart" and value.strip():
            try:
                words = shlex.split(value.strip().lstrip("-@:+!"))
            except ValueError:
                return None
            home = os.path.expanduser("~")
            return words[0].replace("%h", home) if words else None
    return None


def _launchd() -> ServiceState:
    plist = os.path.join(
        os.path.expanduser("~"), "Library", "LaunchAgents", f"{LAUNCHD_LABEL}.plist"
    )
    if not os.path.isfile(plist):
        return ServiceState(None)
    said = _ask(["launchctl", "list", LAUNCHD_LABEL])
    if said is None:
        return ServiceState("launchd", [plist], unknown=f"launchctl did not answer within "
                            f"{ASK_S:g} s")  # fmt: skip
    if said.returncode != 0:
        return ServiceState("launchd", [plist], {LAUNCHD_LABEL: "not loaded"})
    pid = next((int(line.split("=")[1].strip(" ;")) for line in said.stdout.splitlines()
                if '"PID" =' in line), None)  # fmt: skip
    return ServiceState("launchd", [plist], {LAUNCHD_LABEL: "active"}, pid)


def _ask(argv: list[str]) -> subprocess.CompletedProcess[str] | None:
    """The command's answer, None when it cannot run or does not finish in time (a
    non-zero exit is an answer: ``is-active`` exits 3 for an inactive unit)."""
    try:
        return subprocess.run(argv, capture_output=True, text=True, timeout=ASK_S,
                              stdin=subprocess.DEVNULL, check=False)  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return None
