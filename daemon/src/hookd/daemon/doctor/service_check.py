"""What hookd's service (``hookd.daemon.service``: its state, who runs the daemon on its
socket) means for the set-up: installed or not; its files this installation's, or stale
(another hookd's, an older one's); the units' state; a daemon outside the service on its
socket (issue 29: a relay's daemon took it, and the unit then fails "already running");
and the relay deferring to the service."""

from __future__ import annotations

import shlex
import sys

from ..service import Runner, ServiceState, start_command
from .daemons import shutdown_command
from .findings import Finding

RelayView = tuple[str, list[str]] | None
"""What ``hookd.relay.installed_service`` sees: the service's socket and the command
that starts it, or None (the relay starts daemons of its own)."""


def check(found: ServiceState, runs: Runner | None, relay: RelayView, path: str,
          origin: str) -> list[Finding]:  # fmt: skip
    """``runs``: who runs hookd on the service's socket (None: not asked, the manager
    could not be); ``path``, ``origin``: this shell's socket and where it comes from."""
    if found.manager == "none":
        said = (f"hookd has no service integration on {sys.platform}: the relay starts a "
                "daemon when an agent fires, or start 'hookd serve' at login yourself")  # fmt: skip
        return [Finding("service", "info", said)]
    if not found.installed:
        said = ("no service runs hookd: the relay starts a daemon when an agent fires ("
                "'hookd service install' keeps one ready from login)")  # fmt: skip
        return [Finding("service", "info", said, None, {"manager": found.manager})]
    return [_files(found), _unit(found, runs), *_relay(found, relay, path, origin)]


def _files(found: ServiceState) -> Finding:
    details = {"manager": found.manager, "files": list(found.files), "stale": list(found.stale)}
    if found.stale:
        said = (f"the {found.manager} service's files are not what 'hookd service install' "
                f"writes for this installation: {', '.join(found.stale)} (another hookd's, "
                "an older one's, or edited by hand)")  # fmt: skip
        return Finding("service", "problem", said, "hookd service install", details)
    said = f"the {found.manager} service's files are this installation's: {', '.join(found.files)}"
    return Finding("service", "ok", said, None, details)


def _unit(found: ServiceState, runs: Runner | None) -> Finding:
    details = {"unit": found.unit, "socket": found.socket, "mainPid": found.main_pid,
               **({"runsHookd": runs.kind, "pid": runs.pid} if runs else {})}  # fmt: skip
    if runs is None:
        said = f"hookd's {found.manager} service is installed, but its state is {found.unit}"
        return Finding("service", "warning", said, None, details)
    start = start_command(found)
    if runs.kind == "outside":
        said = (f"a daemon outside the {found.manager} service (pid {runs.pid}) holds the "
                f"service's socket {found.socket} ({found.unit}): the hooks run in it, not in "
                "the service; stop it, and start the service")  # fmt: skip
        fix = f"{shutdown_command(found.socket)} && {start}"
        return Finding("service", "problem", said, fix, details)
    if runs.kind == "none":
        said = (f"hookd's {found.manager} service is installed but not running "
                f"({found.unit}): nothing answers on {found.socket}")  # fmt: skip
        return Finding("service", "problem", said, start, details)
    said = f"{found.manager} service: {found.unit}; runs hookd: {runs.said}"
    return Finding("service", "ok", said, None, details)


def _relay(found: ServiceState, relay: RelayView, path: str, origin: str) -> list[Finding]:
    if relay is None:
        said = ("hookd-relay does not find the service with this environment (HOME, "
                "XDG_CONFIG_HOME): it starts daemons of its own")  # fmt: skip
        return [Finding("service", "warning", said)]
    socket, command = relay
    said = (f"hookd-relay defers to the service: when no daemon answers on its socket it "
            f"connects to {socket}, or runs '{shlex.join(command)}'; it starts no daemon of "
            "its own")  # fmt: skip
    findings = [Finding("service", "ok", said, None, {"socket": socket, "start": command})]
    if path != found.socket:
        said = (f"this shell's clients use {path} ({origin}), the service listens on "
                f"{found.socket}: a relay with this environment fires into a daemon on "
                f"{path} when one answers there, and defers to the service only when none "
                "does")  # fmt: skip
        fix = "unset HOOKD_SOCKET" if origin == "$HOOKD_SOCKET" else None
        findings.append(Finding("service", "warning", said, fix))
    return findings
