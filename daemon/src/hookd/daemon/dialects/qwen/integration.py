"""How Qwen Code reaches hookd: ``hookd adopt --agent qwen`` and its relay entries.

    hookd adopt --agent qwen --scope user      # ~/.qwen/settings.json
    hookd adopt --agent qwen --scope project   # <project>/.qwen/settings.json

Qwen's settings files have Gemini CLI's shape (Qwen forked it), so the plans are Gemini's
(``gemini.integration.settings_plan``) with Qwen's relay argument, handlers and timeout
unit. ``adopt`` moves the command hooks of the scope's ``settings.json`` (its ``hooks``;
every other setting stays) into the hookd-owned file of the same layer
(``dialect.adopted_path``), then writes one relay entry per event in their place:
``<this installation's hookd-relay> qwen``, named ``hookd``, its timeout the longest of
the hooks it may run plus 10 s (seconds; milliseconds from 1000 s on, which is how Qwen
reads such a number). The entries of the user's and a project's file are the same name
and command, which Qwen runs once (it drops duplicates across its files, §1.3): that one
run fires every adopted hook of the event, which hookd merges as Qwen would have. Hooks
Qwen runs that hookd does not (``http``, ``prompt``, ``async`` commands) stay where they
are, and the plan says why; so do the system files' hooks (the administrator's).
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from typing import Any

from ...edits import Plan
from ...model import Dialect
from .. import integration
from ..gemini import integration as gemini_integration
from ..gemini.integration import Shape, settings_plan
from ..integration import AdoptAction, HttpEntry, PlanOptions, RelayFacts
from ..matcher_union import BACKREFERENCE, compiles, distinct
from ..relay_entries import RELAY_COMMAND
from .config import HANDLER_TYPES, SETTINGS_FILE, timeout_s
from .dialect import adopted_path
from .events import MATCHED_FIELD, MS_FROM

DIALECT = Dialect.QWEN
ADOPT_SCOPES: Mapping[str, str] = {
    "user": "~/.qwen/settings.json",
    "project": "<project>/.qwen/settings.json",
}
RELAY = RelayFacts(entry_args=0, event_key="hook_event_name")
"""An entry names nothing: the user's and a project's entries are one hook to Qwen, which
runs it once for every adopted hook of the event."""
HTTP_ENTRY: HttpEntry | None = None
RELAY_ARGUMENT = "qwen"
RELAY_MARGIN_S = 10
"""How much longer the relay entry may run than the slowest hook it relays."""
relay_answer = integration.native_answer
relay_entry = integration.no_entry
failing_answer = gemini_integration.failing_answer
"""Blocking: a deny that also says ``continue: false`` (Qwen reads both as Gemini does; on
Stop it sends the line to the model, up to its cap of 8). Letting the action go on: exit 1
with the line on stderr, which Qwen reads as ``Warning: <line>``."""
relay_roots = gemini_integration.relay_roots
"""The session's folder (the event's ``cwd``): the one folder whose ``.qwen/settings.json``
Qwen reads, with no walk up to a parent or a git root."""


def plan(action: AdoptAction, home: str, scope: str, project: str, options: PlanOptions) -> Plan:
    user_owned = adopted_path(home, None)
    others: tuple[str, ...]
    if scope == "user":
        agent_file = os.path.join(home, ".qwen", SETTINGS_FILE)
        owned_file, others = user_owned, ()
    else:
        agent_file = os.path.join(project, ".qwen", SETTINGS_FILE)
        owned_file, others = adopted_path(home, project), (user_owned,)
    return settings_plan(action, agent_file, owned_file, options, others, QWEN)


def _not_adoptable(handler: Any) -> str | None:
    """Why hookd cannot run this handler for the agent ("" for the relay itself)."""
    if not isinstance(handler, dict):
        return "not a handler object"
    command = handler.get("command")
    if isinstance(command, str) and RELAY_COMMAND.search(command):
        return ""
    kind = handler.get("type")
    if kind not in HANDLER_TYPES or kind == "function":
        return f"a {kind!r} handler is not one Qwen runs from a settings file"
    if kind != "command":
        return f"a {kind} hook: Qwen runs it itself"
    if handler.get("async") is True:
        return "an async hook: its answer never reaches the agent, and the relay waits"
    if not isinstance(command, str) or not command:
        return "no command: Qwen skips it"
    return None


def _relay_timeout(groups: list[dict[str, Any]]) -> int:
    """Seconds, as Qwen reads a timeout (1000 or more: milliseconds)."""
    longest = max((timeout_s(h.get("timeout")) for g in groups for h in g.get("hooks", [])
                   if isinstance(h, dict)), default=timeout_s(None))  # fmt: skip
    seconds = math.ceil(longest) + RELAY_MARGIN_S
    return seconds if seconds < MS_FROM else seconds * 1000


def union_matcher(event: str, matchers: list[Any]) -> str | None:
    """Qwen's union (``dialect._matches``, §2.1): the matchers joined by ``|``, one that
    does not start with ``^`` or ``(`` first, so that Qwen still splits the union into
    alternatives and compares each with the subject and its aliases (``Bash`` for
    ``run_shell_command``, never tested as an expression), and tests the whole as an
    expression that matches where any of them does. With one that does not compile (the
    whole would not either) or a back-reference: no matcher."""
    if event not in MATCHED_FIELD:
        return None
    found = distinct(matchers, ("", "*", ".*"), strip=True)
    if found is None or len(found) == 1:
        return found[0] if found else None
    if any(not compiles(m) or BACKREFERENCE.search(m) for m in found):
        return None
    return "|".join(sorted(found, key=lambda m: m.startswith(("^", "("))))


def _timeout_value(seconds: float) -> float:
    """So many seconds as Qwen reads a ``timeout`` (1000 or more: milliseconds)."""
    return seconds if seconds < MS_FROM else seconds * 1000


QWEN = Shape(RELAY_ARGUMENT, _not_adoptable, _relay_timeout, union_matcher, _timeout_value)
