"""How Cline's original runner (cline 2.18.0) reaches hookd: ``hookd adopt`` moves the files
of its hook folders to hookd and puts one relay file per event in their place
(``folder_adoption``, shared with the Cline SDK, which reads the same project folder).

Both runners read ``<root>/.clinerules/hooks``, so both may run a relay file there; the
entry names ``cline`` whichever of them adopted it, and ``relay_target`` tells them apart
by the event's ``hookName`` (``RELAY.runners``: the SDK's hook names, ``tool_call``, ...).
A relay file passes its own path (``"$0"``): it stands for its folder's adopted hooks.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping

from hookd.protocol import FireResult

from ...edits import Plan
from ...model import Dialect, FireRequest
from .. import folder_adoption
from ..cline_sdk.dialect import SDK_EVENT
from ..integration import (
    AdoptAction,
    HttpEntry,
    PlanOptions,
    RelayAnswer,
    RelayCall,
    RelayFacts,
    listed_roots,
)
from . import dialect

DIALECT = Dialect.CLINE
ADOPT_SCOPES: Mapping[str, str] = folder_adoption.SCOPES
RELAY = RelayFacts(
    entry_args=1,
    event_key="hookName",
    runners=dict.fromkeys(SDK_EVENT.values(), Dialect.CLINE_SDK),
)
"""A relay file passes its own path; the SDK's hook names (``tool_call``, ...) come from
the other runner (the original runner sends the event's own name, ``PreToolUse``)."""
HTTP_ENTRY: HttpEntry | None = None


def plan(action: AdoptAction, home: str, scope: str, project: str, options: PlanOptions) -> Plan:
    return folder_adoption.plan(action, dialect, home, scope, project, options, _no_move)


def _no_move(environ: Mapping[str, str]) -> None:
    """The original runner's global folder does not move with the environment."""
    return None


def relay_roots(call: RelayCall) -> tuple[str, ...]:
    """The roots the event lists (``workspaceRoots``)."""
    return listed_roots(call, "workspaceRoots")


def relay_entry(call: RelayCall) -> str | None:
    """A relay file (``hookd-relay cline "$0"``, or ``cline-sdk "$0"``) stands for its
    folder's adopted hooks."""
    if not call.args:
        return None
    return os.path.dirname(os.path.normpath(os.path.join(call.cwd, call.args[0])))


def relay_answer(request: FireRequest, result: FireResult) -> RelayAnswer:
    """The combined answer as JSON, unless a relayed hook failed as cline counts it and
    none of them answered: cline 2.18.0 then drops every hook's answer for the event
    (``Promise.all``), the agent's own hooks' too, so the relay fails as well."""
    native = result["native"]
    answered = native.get("cancel") or native.get("contextModification")
    failure = _failed(result)
    if failure and not answered:
        return RelayAnswer("", f"hookd-relay: {failure}\n", 1)
    return RelayAnswer(json.dumps(native), "", 0)


def _failed(result: FireResult) -> str | None:
    """A relayed hook that failed as Cline counts it (exit code not 0, killed, timed
    out, could not start)."""
    for hook in result["hooks"]:
        error = hook["error"] or ""
        code = hook["exitCode"]
        if hook["timedOut"] or (code not in (0, None)) or error.startswith("could not"):
            return error or f"{hook['source']} exited with code {code}"
    return None


def failing_answer(message: str, block: bool) -> RelayAnswer:
    """A failing Cline hook (exit 1) lets the action go on; only a ``cancel`` blocks."""
    if not block:
        return RelayAnswer("", message + "\n", 1)
    answer = {"cancel": True, "contextModification": "", "errorMessage": message}
    return RelayAnswer(json.dumps(answer), message + "\n", 0)
