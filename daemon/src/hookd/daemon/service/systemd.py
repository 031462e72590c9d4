"""systemd user units: ``hookd.socket`` holds the socket, ``hookd.service`` runs hookd.

The socket unit owns ``%t/hookd/hookd.sock`` (``$XDG_RUNTIME_DIR``, 0600 in a 0700
folder): it listens from login on, so a client that connects while hookd is stopped
(``hookd shutdown``, a crash, before the service ran) starts it instead of failing, and
waits in the backlog while it starts. hookd adopts the socket (``LISTEN_FDS``), says
``READY=1`` once it accepts and ``WATCHDOG=1`` while healthy. ``packaging/systemd`` holds
these units as written for the placeholder ``@HOOKD_BIN@`` (``scripts/regenerate.py``).
"""

from __future__ import annotations

import os

from .base import ASK_S, Command, Installation, ServiceFile, UnitState, ask

NAME = "systemd"
PLATFORM = "linux"
SOCKET_UNIT = "hookd.socket"
SERVICE_UNIT = "hookd.service"
WATCHDOG_S = 30
SYSTEMCTL = ("systemctl", "--user")

SOCKET_TEXT = """\
# hookd's socket, held by the systemd user manager: a connection starts hookd.service
# when it is not running (socket activation), and waits while it starts.
# Written by `hookd service install` (packaging/systemd: the same, for any installation).

[Unit]
Description=hookd socket (JSON-RPC for coding agents' hooks)

[Socket]
# %t is $XDG_RUNTIME_DIR (/run/user/<uid>): where every hookd client looks by default.
ListenStream=%t/hookd/hookd.sock
SocketMode=0600
DirectoryMode=0700
Backlog=512

[Install]
WantedBy=sockets.target
"""

SERVICE_TEXT = """\
# hookd as a systemd *user* service (one daemon per user), started by hookd.socket.
# Written by `hookd service install` with the absolute path of the hookd it ran from;
# packaging/systemd has the same with @HOOKD_BIN@ in its place. See packaging/README.md.

[Unit]
Description=hookd - agent hook daemon (JSON-RPC on a per-user Unix socket)
Requires=hookd.socket
After=hookd.socket

[Service]
# hookd adopts the socket hookd.socket passes (LISTEN_FDS) and sends READY=1 once it
# accepts connections, then WATCHDOG=1 every WatchdogSec/2 while it is healthy (its event
# loop turns and it can accept): a stuck daemon is restarted. The notifications come from
# the main process (NotifyAccess=main): if you wrap hookd in a script, `exec` it.
Type=notify
ExecStart={exec_start} serve
WatchdogSec={watchdog}

# Restart after a crash, a watchdog timeout or a non-zero exit, not after
# `hookd shutdown` or `systemctl --user stop` (both exit 0): the socket stays, and the
# next connection starts hookd again.
Restart=on-failure
RestartSec=1

# KillMode=mixed: on stop, SIGTERM goes to the main process only, so hookd cancels its
# in-flight hooks itself (answering their callers, killing each hook's process group);
# once it has exited (or after TimeoutStopSec) whatever is left in the cgroup gets SIGKILL.
KillMode=mixed
# Delegate=yes: each hook runs in a cgroup of its own (hook_cgroups), killed by
# cgroup.kill: nothing a hook starts can leave it. No controller is enabled.
Delegate=yes
TimeoutStopSec=15

# Open files: a socket per client, a watch per folder, three pipes per running hook.
# hookd raises its soft limit to the hard one; hooks get the soft one (1024) back.
LimitNOFILE=1024:65536

# Log lines reach the journal at once (JSON lines: stderr is not a terminal).
Environment=PYTHONUNBUFFERED=1

# Hooks inherit the user manager's environment, not your login shell's: run
# `systemctl --user import-environment PATH` from your profile, or put KEY=value lines
# in this file and uncomment:
#EnvironmentFile=-%h/.config/hookd/environment

# Hardening, deliberately left off: hookd runs your hooks, and each line below can break
# some of them. Enable only what your hooks tolerate (`systemctl --user edit hookd`):
#NoNewPrivileges=yes
#PrivateTmp=yes
#ProtectSystem=strict
#ProtectHome=read-only

[Install]
WantedBy=default.target
Also=hookd.socket
"""


def exec_word(word: str) -> str:
    """``word`` as one word of ``ExecStart=``: ``%`` and ``$`` doubled (systemd's
    specifiers and variables), quoted when it holds blanks, quotes or backslashes."""
    word = word.replace("%", "%%").replace("$", "$$")
    if any(c in word for c in " \t\"'\\"):
        return '"' + word.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return word


def unit_dir(install: Installation) -> str:
    return os.path.join(install.config_home, "systemd", "user")


def files(install: Installation) -> list[ServiceFile]:
    folder = unit_dir(install)
    exec_start = " ".join(exec_word(word) for word in install.program)
    service = SERVICE_TEXT.format(exec_start=exec_start, watchdog=WATCHDOG_S)
    return [
        ServiceFile(os.path.join(folder, SOCKET_UNIT), SOCKET_TEXT),
        ServiceFile(os.path.join(folder, SERVICE_UNIT), service),
    ]


def marker(install: Installation) -> str:
    return os.path.join(unit_dir(install), SOCKET_UNIT)


def runtime_dir(environ_value: str | None, uid: int) -> str:
    """``%t`` of the user manager: ``$XDG_RUNTIME_DIR``, which pam_systemd sets to
    ``/run/user/<uid>`` (that, when this environment lacks it)."""
    if environ_value and os.path.isabs(environ_value):
        return environ_value
    return f"/run/user/{uid}"


def socket_path(install: Installation) -> str:
    folder = runtime_dir(install.runtime_dir, install.uid)
    return os.path.join(folder, "hookd", "hookd.sock")


def install_commands(install: Installation, state: UnitState) -> list[Command]:
    """Reload the units, start them, and restart a daemon already running under them
    (``enable --now`` leaves a running service as it is: after new unit files or a new
    hookd, the old daemon would go on serving)."""
    return [(*SYSTEMCTL, "daemon-reload"), *start_commands(install),
            (*SYSTEMCTL, "try-restart", SERVICE_UNIT)]  # fmt: skip


def start_commands(install: Installation) -> list[Command]:
    return [(*SYSTEMCTL, "enable", "--now", SOCKET_UNIT, SERVICE_UNIT)]


def uninstall_commands(install: Installation) -> list[Command]:
    return [(*SYSTEMCTL, "disable", "--now", SERVICE_UNIT, SOCKET_UNIT)]


def after_uninstall_commands(install: Installation) -> list[Command]:
    return [(*SYSTEMCTL, "daemon-reload")]


def unit_state(install: Installation, timeout_s: float = ASK_S) -> UnitState:
    properties = "--property=Id,LoadState,ActiveState,SubState,MainPID"
    code, said = ask([*SYSTEMCTL, "show", SOCKET_UNIT, SERVICE_UNIT, properties], timeout_s)
    if code != 0:
        return UnitState(f"unknown: {said.splitlines()[0] if said else f'exit {code}'}",
                         known=False)  # fmt: skip
    units: list[dict[str, str]] = [{}]
    for line in said.splitlines():
        if not line.strip():
            units.append({})
            continue
        key, _, value = line.partition("=")
        units[-1][key] = value
    by_id = {unit.get("Id"): unit for unit in units}
    sock, service = by_id.get(SOCKET_UNIT, {}), by_id.get(SERVICE_UNIT, {})
    pid = int(service.get("MainPID", "0") or 0) or None
    summary = f"socket {_words(sock)}, service {_words(service)}"
    return UnitState(summary, pid, sock.get("ActiveState") == "active")


def _words(unit: dict[str, str]) -> str:
    if unit.get("LoadState") not in (None, "loaded"):
        return unit["LoadState"]
    return f"{unit.get('ActiveState', '?')} ({unit.get('SubState', '?')})"
