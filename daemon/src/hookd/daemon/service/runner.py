"""Who runs the daemon on the service's socket: the manager, the manager's socket (hookd
starts on the first connection), nobody, or a daemon started outside the service (issue
29: after ``hookd shutdown`` or at login a relay's daemon took the socket, and the unit
then fails "already running"). ``hookd service status`` prints it; ``hookd doctor``
judges it; both ask here."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from . import ServiceState

Kind = Literal["service", "socket", "outside", "none"]


@dataclass(frozen=True, slots=True)
class Runner:
    kind: Kind
    """``service``: the manager runs hookd (``pid``); ``socket``: the manager holds the
    socket, the first connection starts hookd; ``outside``: a daemon not the service's
    answers there (``pid``); ``none``: nothing answers."""
    pid: int | None
    said: str
    """The same in one line, for a person."""


def who_runs(found: ServiceState) -> Runner:
    """Who runs hookd on ``found.socket`` (asks the daemon there only when the manager
    runs none and holds no socket)."""
    if found.main_pid is not None:
        return Runner("service", found.main_pid, f"{found.manager} (pid {found.main_pid})")
    if found.listening and found.manager == "systemd":
        said = "systemd (socket listening: the first connection starts hookd)"
        return Runner("socket", None, said)
    outside = daemon_pid(found.socket)
    if outside is not None:
        return Runner("outside", outside, f"outside the service: pid {outside} on {found.socket}")
    return Runner("none", None, f"none (no daemon answers on {found.socket})")


def daemon_pid(path: str) -> int | None:
    """The pid of the daemon answering on ``path``, None when none answers."""
    from hookd.client import Client, HookdClientError

    try:
        with Client(path, timeout_s=5.0) as client:
            pid = client.status().get("pid")
    except HookdClientError:
        return None
    return pid if isinstance(pid, int) else None
