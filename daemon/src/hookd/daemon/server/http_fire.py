"""A Claude Code event that came through the http entry, fired as ``hookd-relay claude``
fires it: ``relay: true``, so only the hooks handed to hookd (``hookd adopt``) run.

What the command relay reads from its environment, an http request does not carry: the
project comes from the event itself (``cwd``, walked up to the folder Claude Code keeps
the session's transcript for, since ``cwd`` follows the agent's ``cd``), and the hooks see
the daemon's environment, not the agent's.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from functools import partial
from typing import Any

import trio

from hookd.protocol import FireResult

from ..audit import Peer
from ..fire.params import InvalidFire, is_usable_path, parse_fire
from ..fire.pipeline import fire
from ..model import FireRequest
from .context import Services
from .http_request import Refused

AGENT = "claude"
_PROJECT_FOLDER_MAX = 200
"""Claude Code cuts a project folder name at 200 characters and appends a hash."""


def relay_request(services: Services, event: dict[str, Any], request_id: str) -> FireRequest:
    """The fire ``hookd-relay claude`` would make of ``event``.

    Raises:
        Refused: the event is not one hookd can fire (400, the reason).
    """
    params = {
        "agent": AGENT,
        "event": event["hook_event_name"],
        "workspaceRoots": [project_root(event)],
        "payload": event,
        "env": {},
        "relay": True,
    }
    try:
        return parse_fire(params, services.settings, request_id)
    except InvalidFire as exc:
        raise Refused(400, str(exc)) from None


async def relay_fire(
    services: Services, request: FireRequest, uid: int, request_id: str
) -> FireResult:
    """Run the fire, audited like a fire over the socket."""
    services.add_roots(request.roots)
    record = partial(
        services.audit.fire, peer=Peer(None, uid), request_id=request_id, agent=AGENT,
        event=request.event, roots=request.roots, depth=0,
    )  # fmt: skip
    started = time.perf_counter()
    try:
        result = await fire(request, services)
    except BaseException as exc:
        outcome = "cancelled" if _cancelled(exc) else "failed"
        record(outcome=outcome, duration_ms=round((time.perf_counter() - started) * 1000, 3))
        raise
    record(result=result)
    return result


def project_root(event: Mapping[str, Any]) -> str:
    """The project the session runs in (the command relay's ``CLAUDE_PROJECT_DIR``):
    the folder, ``cwd`` or one above it, whose name as Claude Code stores it is the
    transcript's folder (``~/.claude/projects/<name>/<session>.jsonl``); ``cwd`` itself
    when none is."""
    cwd = event.get("cwd")
    if not is_usable_path(cwd):
        raise Refused(400, "the event has no absolute cwd: is it Claude Code's?")
    folder = cwd = os.path.normpath(str(cwd))
    transcript = event.get("transcript_path")
    if not isinstance(transcript, str):
        return cwd
    stored = os.path.basename(os.path.dirname(transcript))
    while True:
        if _is_stored_as(folder, stored):
            return folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return cwd
        folder = parent


def _is_stored_as(folder: str, stored: str) -> bool:
    return _stored_name(folder) == stored


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


def _cancelled(exc: BaseException) -> bool:
    """Whether the fire ended by cancellation alone (its nurseries group the Cancelled)."""
    if isinstance(exc, BaseExceptionGroup):
        return all(_cancelled(inner) for inner in exc.exceptions)
    return isinstance(exc, trio.Cancelled)
