"""The http form of Claude Code's relay entries (``hookd relay install --agent claude
--http``): the agent POSTs each event to the daemon's http entry, no process per event.

    {"type": "http", "url": "http://127.0.0.1:4665/hookd-relay",
     "headers": {"Authorization": "Bearer ${HOOKD_HTTP_PASSCODE}"},
     "allowedEnvVars": ["HOOKD_HTTP_PASSCODE"], "timeout": 610.0}

The passcode is named, not written: the agent fills the header from its environment, so
a settings file that is shared or committed carries no secret, and the same entry works
for everyone who runs hookd. Some events keep the command relay (``COMMAND_EVENTS``), and
a ``SessionStart`` command entry stays in any case: it starts hookd when none runs, which
an http entry cannot.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from ..server.http_passcode import ENTRY_PATH, PASSCODE_ENV, export_line, load, load_or_create
from ..settings import Settings, config_file_path

COMMAND_EVENTS = frozenset({"SessionStart", "Setup", "CwdChanged", "FileChanged"})
"""Events whose relay entry stays a command: Claude Code runs no http hook on
SessionStart and Setup, and CwdChanged and FileChanged hooks write the agent's
``CLAUDE_ENV_FILE``, which only reaches hookd through the command relay's environment."""
START_EVENT = "SessionStart"
START_TIMEOUT_S = 30.0
"""The SessionStart entry that only starts hookd: its wait for the daemon (10 s), and room."""


def entry(port: int, timeout_s: float, on_error: str) -> dict[str, Any]:
    """One http relay entry."""
    handler: dict[str, Any] = {
        "type": "http",
        "url": f"http://127.0.0.1:{port}{ENTRY_PATH}",
        "headers": {"Authorization": f"Bearer ${{{PASSCODE_ENV}}}"},
        "allowedEnvVars": [PASSCODE_ENV],
        "timeout": timeout_s,
    }
    if on_error == "block":
        handler["onFailure"] = "block"
    return handler


def is_entry(handler: Any) -> bool:
    """An http relay entry (any port): what ``uninstall`` removes and ``adopt`` leaves."""
    if not isinstance(handler, dict) or handler.get("type") != "http":
        return False
    url = str(handler.get("url", ""))
    return url.startswith(("http://127.0.0.1:", "http://localhost:")) and url.endswith(ENTRY_PATH)


def installed(settings: dict[str, Any]) -> tuple[int, str] | None:
    """The port and error policy of the http relay entries in ``settings``, if any."""
    for groups in (settings.get("hooks") or {}).values():
        for group in groups if isinstance(groups, list) else ():
            for handler in group.get("hooks", []) if isinstance(group, dict) else ():
                if is_entry(handler):
                    port = str(handler["url"]).rsplit(":", 1)[1].split("/", 1)[0]
                    on_error = "block" if handler.get("onFailure") == "block" else "continue"
                    return int(port), on_error
    return None


def to_http(
    settings: dict[str, Any],
    port: int,
    on_error: str,
    command_entry: Callable[[float], dict[str, Any]],
    is_command_entry: Callable[[Any], bool],
) -> list[str]:
    """Turn the command relay entries in ``settings`` into http entries where Claude Code
    can run those, and keep a SessionStart command entry (``command_entry(timeout)``);
    returns what it did, in words."""
    hooks = settings.setdefault("hooks", {})
    served, kept = [], []
    for event, groups in hooks.items():
        for group in groups:
            if event in COMMAND_EVENTS:
                kept += [event] if any(is_command_entry(h) for h in group["hooks"]) else []
                continue
            group["hooks"] = [
                entry(port, h.get("timeout", START_TIMEOUT_S), on_error) if is_command_entry(h)
                else h for h in group["hooks"]
            ]  # fmt: skip
            served += [event] if any(is_entry(h) for h in group["hooks"]) else []
    if START_EVENT not in kept:
        hooks.setdefault(START_EVENT, []).append({"hooks": [command_entry(START_TIMEOUT_S)]})
    url = entry(port, 0, on_error)["url"]
    return [
        f"http entries ({url}) on {', '.join(served) or 'no event'}",
        f"command entries on {', '.join(sorted({*kept, START_EVENT}))} (SessionStart starts "
        "hookd when none runs; an http entry cannot)",
    ]


def readiness(settings: Settings, config: str | None, *, dry_run: bool) -> list[str]:
    """What is still needed for the entries to reach hookd, in words: the passcode in the
    agent's environment (made now, unless ``dry_run``), and ``http_entry`` turned on."""
    passcode = load(settings.state_dir) if dry_run else load_or_create(settings.state_dir)
    notes = []
    if passcode is None or os.environ.get(PASSCODE_ENV) != passcode:
        notes.append(f"put the passcode in the agent's environment (your shell profile, before "
                     f"you start claude): {export_line(settings.state_dir)}")  # fmt: skip
    if not settings.http_entry:
        path = config_file_path(config) or os.path.join(
            os.environ.get("XDG_CONFIG_HOME") or os.path.expanduser("~/.config"),
            "hookd", "config.toml",
        )  # fmt: skip
        notes.append(f"turn the http entry on: add 'http_entry = true' to {path}, then restart "
                     "hookd ('hookd shutdown'; the next session starts it)")  # fmt: skip
    return notes
