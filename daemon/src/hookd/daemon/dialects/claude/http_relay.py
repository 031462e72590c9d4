"""Claude Code's http relay entries (``hookd relay install --agent claude --http``): the
agent POSTs each event to the daemon's http entry, no process per event.

    {"type": "http", "url": "http://127.0.0.1:4665/hookd-relay",
     "headers": {"Authorization": "Bearer ${HOOKD_HTTP_PASSCODE}"},
     "allowedEnvVars": ["HOOKD_HTTP_PASSCODE"], "timeout": 610.0}

The passcode is named, not written: the agent fills the header from its environment, so
a settings file that is shared or committed carries no secret, and the same entry works
for everyone who runs hookd. Some events keep the command relay (``COMMAND_EVENTS``), and
a ``SessionStart`` command entry stays in any case: it starts hookd when none runs, which
an http entry cannot.

A posted event names no project, and carries no environment: ``target`` finds the project
the way the command relay's ``CLAUDE_PROJECT_DIR`` names it (``project_root``), and the
hooks see the daemon's environment.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import Any

from ...model import Dialect
from ..integration import RelayRefused, RelayTarget
from ..relay_entries import HTTP_ENTRY_PATH, HTTP_PASSCODE_ENV

COMMAND_EVENTS = frozenset({"SessionStart", "Setup", "CwdChanged", "FileChanged"})
"""Events whose relay entry stays a command: Claude Code runs no http hook on
SessionStart and Setup, and CwdChanged and FileChanged hooks write the agent's
``CLAUDE_ENV_FILE``, which only reaches hookd through the command relay's environment."""
START_EVENT = "SessionStart"
START_TIMEOUT_S = 30.0
"""The SessionStart entry that only starts hookd: its wait for the daemon (10 s), and room."""
_PROJECT_FOLDER_MAX = 200
"""Claude Code cuts a project folder name at 200 characters and appends a hash."""


def entry(port: int, timeout_s: float, on_error: str) -> dict[str, Any]:
    """One http relay entry."""
    handler: dict[str, Any] = {
        "type": "http",
        "url": f"http://127.0.0.1:{port}{HTTP_ENTRY_PATH}",
        "headers": {"Authorization": f"Bearer ${{{HTTP_PASSCODE_ENV}}}"},
        "allowedEnvVars": [HTTP_PASSCODE_ENV],
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
    local = url.startswith(("http://127.0.0.1:", "http://localhost:"))
    return local and url.endswith(HTTP_ENTRY_PATH)


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


def target(event: Mapping[str, Any]) -> RelayTarget:
    """The fire ``hookd-relay claude`` would make of a posted ``event``."""
    name = event.get("hook_event_name")
    if not isinstance(name, str):
        raise RelayRefused('the body has no "hook_event_name": is it an event of Claude Code?')
    return RelayTarget(Dialect.CLAUDE, name, (project_root(event),))


def project_root(event: Mapping[str, Any]) -> str:
    """The project the session runs in (the command relay's ``CLAUDE_PROJECT_DIR``):
    the folder, ``cwd`` or one above it, whose name as Claude Code stores it is the
    transcript's folder (``~/.claude/projects/<name>/<session>.jsonl``); ``cwd`` itself
    when none is."""
    cwd = event.get("cwd")
    if not isinstance(cwd, str) or not os.path.isabs(cwd) or "\0" in cwd:
        raise RelayRefused("the event has no absolute cwd: is it Claude Code's?")
    folder = cwd = os.path.normpath(cwd)
    transcript = event.get("transcript_path")
    if not isinstance(transcript, str):
        return cwd
    stored = os.path.basename(os.path.dirname(transcript))
    while True:
        if _stored_name(folder) == stored:
            return folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return cwd
        folder = parent


def _stored_name(folder: str) -> str:
    """Claude Code's name for a project folder: every UTF-16 unit that is not an ASCII
    letter or digit becomes ``-``; past 200 characters, the name is cut and ``-`` and a
    hash of the path follow (Java's ``hashCode`` in 32 bits, absolute, in base 36)."""
    raw = folder.encode("utf-16-le", "surrogatepass")
    units = [int.from_bytes(raw[i : i + 2], "little") for i in range(0, len(raw), 2)]
    name = "".join(chr(u) if u < 128 and chr(u).isalnum() else "-" for u in units)
    if len(name) <= _PROJECT_FOLDER_MAX:
        return name
    code = 0
    for unit in units:
        code = (code * 31 + unit) & 0xFFFFFFFF
    code = abs(code - (1 << 32) if code >= 1 << 31 else code)
    digits = ""
    while True:
        code, digit = divmod(code, 36)
        digits = "0123456789abcdefghijklmnopqrstuvwxyz"[digit] + digits
        if not code:
            return f"{name[:_PROJECT_FOLDER_MAX]}-{digits}"
