"""How the Cline SDK runner (cline 3.0.65) reaches hookd: its hook folders are adopted as
Cline's original runner's are (``folder_adoption``; ``CLINE_DIR`` moves its user folder,
for the agent and for adopt), and a relay file in a folder both runners read serves both
(the runner is told by the event's name: ``RELAY.runners``)."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping

from ...edits import Plan
from ...model import Dialect
from .. import folder_adoption, integration
from ..cline import dialect as cline_dialect
from ..cline import integration as cline
from ..integration import AdoptAction, HttpEntry, PlanOptions, RelayAnswer, RelayFacts
from . import dialect

DIALECT = Dialect.CLINE_SDK
ADOPT_SCOPES: Mapping[str, str] = folder_adoption.SCOPES
HTTP_ENTRY: HttpEntry | None = None

RELAY = RelayFacts(
    entry_args=cline.RELAY.entry_args,
    event_key=cline.RELAY.event_key,
    runners=dict.fromkeys(cline_dialect.EVENTS, Dialect.CLINE),
)
"""The same relay files as Cline's original runner: its events' own names
(``PreToolUse``) come from that runner."""

relay_roots = cline.relay_roots
relay_entry = cline.relay_entry
relay_answer = integration.native_answer


def plan(action: AdoptAction, home: str, scope: str, project: str, options: PlanOptions) -> Plan:
    return folder_adoption.plan(action, dialect, home, scope, project, options, _user_folder)


def _user_folder(environ: Mapping[str, str]) -> str | None:
    """``$CLINE_DIR/hooks`` when ``CLINE_DIR`` is an absolute path (the SDK reads it
    instead of ``~/.cline/hooks``)."""
    cline_dir = environ.get("CLINE_DIR", "").strip()
    return os.path.join(cline_dir, "hooks") if os.path.isabs(cline_dir) else None


def failing_answer(message: str, block: bool) -> RelayAnswer:
    """The SDK reads a hook's stdout whatever its exit code: only a ``cancel`` blocks. It
    shows a hook's exit code and stderr nowhere (not to the model, not in its output or
    log), so a failing hook's line would be lost: letting the action go on, the relay
    answers the line as a context too (on a tool event the model is sent it)."""
    if not block:
        return RelayAnswer(json.dumps({"context": message}), message + "\n", 1)
    return RelayAnswer(json.dumps({"cancel": True, "errorMessage": message}), message + "\n", 0)
