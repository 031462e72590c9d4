"""What the service state (``service_probe.ServiceState``) means for the set-up: a
service that is installed but not running, one that starts a program that is gone, or a
daemon outside the service that answers on the socket (issue 29: after ``hookd
shutdown`` the relay starts one, and the unit then fails "already running")."""

from __future__ import annotations

import os
import shlex

from .findings import Finding
from .service_probe import ServiceState


def check(state: ServiceState, answering_pid: int | None) -> list[Finding]:
    if state.manager is None:
        said = ("no service runs hookd: the relay starts a daemon when an agent fires (a "
                "service keeps one running from login)")  # fmt: skip
        return [Finding("service", "info", said)]
    details = {"manager": state.manager, "files": state.files, "active": state.active,
               "mainPid": state.main_pid, "program": state.program}  # fmt: skip
    start = _start_command(state)
    if state.program and os.path.isabs(state.program) and not os.path.exists(state.program):
        said = (f"the {state.manager} service starts {state.program}, which does not exist: "
                "write its files again for this installation")  # fmt: skip
        return [Finding("service", "problem", said, "hookd service install", details)]
    if state.unknown:
        said = f"hookd's {state.manager} files are installed, but {state.unknown}"
        return [Finding("service", "warning", said, None, details)]
    down = [name for name, active in state.active.items() if active != "active"]
    if (
        state.active.get("hookd.socket") == "active"
        and state.active.get("hookd.service") == "inactive"
    ):
        down.remove("hookd.service")  # socket activation: it starts on the first connection
    if down:
        said = ", ".join(f"{name} is {state.active[name]}" for name in down)
        return [Finding("service", "problem", f"{state.manager}: {said}", start, details)]
    if answering_pid is not None and answering_pid != state.main_pid:
        said = (f"a daemon outside the {state.manager} service (pid {answering_pid}) answers "
                "on the socket: stop it, and the service answers")  # fmt: skip
        return [Finding("service", "problem", said, f"hookd shutdown && {start}", details)]
    pid = f" (pid {state.main_pid})" if state.main_pid else ""
    return [Finding("service", "ok", f"{state.manager} runs hookd{pid}", None, details)]


def _start_command(state: ServiceState) -> str:
    if state.manager == "launchd":
        return f"launchctl load -w {shlex.quote(state.files[0])}"
    return "systemctl --user enable --now hookd.socket hookd.service"
