"""Cline file hooks: one executable per event in ``.clinerules/hooks/`` and the global folder.

References: ``cline-hooks.md``, ``cline-hooks-design.md``; behaviour notes:
``shared/notes/cline-implementation.md`` (runner "A"). Where Cline's code and docs
disagree, hookd follows the docs and never loses a cancel (see docs/compatibility.md):

* valid JSON is honoured on any exit code (docs), not only on exit 0 (code);
* one failing hook never discards another hook's ``cancel``;
* a timeout kills the hook's whole process group, not only its direct child.
"""

from __future__ import annotations

import json
import os
import stat
import time
from collections.abc import Mapping, Sequence
from typing import Any

from ..combine_policy import CombinePolicy
from ..model import Dialect, FireRequest, HookSpec, ProcessOutcome, Verdict
from .base import (
    Launch,
    Loaded,
    Source,
    first_line,
    first_root,
    hook_environment,
    hooks_by_file,
    timeout_error,
)
from .jsonscan import last_json_object

DIALECT = Dialect.CLINE
EVENTS: tuple[str, ...] = (
    "TaskStart",
    "TaskResume",
    "TaskCancel",
    "TaskComplete",
    "UserPromptSubmit",
    "PreToolUse",
    "PostToolUse",
    "PreCompact",
    "Notification",
)
_EVENT_SET = frozenset(EVENTS)
TIMEOUT_S = 30.0
CONTEXT_CAP = 50_000
TRUNCATION_MARKER = "\n\n[... context truncated due to size limit ...]"
NOT_CANCELLABLE = frozenset({"TaskCancel", "TaskComplete", "Notification"})
POLICY = CombinePolicy(
    context_separator="\n\n", reason_separator="\n", reasons_from="all", single_verbatim=True
)


def canonical_event(event: str) -> str | None:
    return event if event in _EVENT_SET else None


def sources(home: str, system_root: str, roots: Sequence[str]) -> list[Source]:
    documents = os.path.join(home, "Documents", "Cline")
    found = [
        Source(DIALECT, "global", os.path.join(documents, "Rules", "Hooks"), "hookdir"),
        Source(DIALECT, "global", os.path.join(documents, "Hooks"), "hookdir"),
    ]
    found += [
        Source(DIALECT, "workspace", os.path.join(root, ".clinerules", "hooks"), "hookdir", root)
        for root in roots
    ]
    return found


def load(source: Source) -> Loaded:
    """Every hook in a hook directory (for ``hooks/list``)."""
    hooks = {}
    for event in EVENTS:
        spec = load_event(source, event)
        if spec:
            hooks[event] = spec
    return Loaded(hooks=hooks)


def load_event(source: Source, event: str) -> tuple[HookSpec, ...]:
    """The hook for ``event`` in this directory: one ``stat``, no directory scan.

    A hook is the file named exactly like the event, a regular file (symlinks followed)
    with an execute bit. Anything else (missing, directory, not executable) is no hook.
    """
    path = os.path.join(source.path, event)
    try:
        info = os.stat(path)
    except OSError:
        return ()
    if not stat.S_ISREG(info.st_mode) or not os.access(path, os.X_OK):
        return ()
    return (
        HookSpec(
            dialect=DIALECT,
            event=event,
            source=path,
            layer=source.layer,
            command=path,
            argv=(path,),
            timeout_s=TIMEOUT_S,
            root=source.root,
        ),
    )


def sequential(request: FireRequest) -> bool:
    return False  # every directory's hook runs concurrently (Promise.all in Cline)


def select(
    loaded: Sequence[tuple[Source, Loaded]], request: FireRequest
) -> tuple[list[HookSpec], list[str]]:
    return hooks_by_file(loaded, request.event), []


def prepare(spec: HookSpec, request: FireRequest, base_env: Mapping[str, str]) -> Launch:
    payload: dict[str, Any] = {}
    payload["clineVersion"] = request.payload.get("clineVersion", "")
    payload["hookName"] = request.event
    payload["timestamp"] = request.payload.get("timestamp", str(int(time.time() * 1000)))
    for key, value in request.payload.items():
        if key not in payload:
            payload[key] = value
    if request.roots:
        payload["workspaceRoots"] = list(request.roots)
    cwd = spec.root or first_root(request)
    return Launch(
        argv=spec.argv or (spec.command,),
        stdin=json.dumps(payload).encode(),
        cwd=cwd,
        env=hook_environment(base_env, request.env),
    )


def interpret(spec: HookSpec, request: FireRequest, outcome: ProcessOutcome) -> Verdict:
    failure = timeout_error(outcome)
    if failure:
        return Verdict(error=failure)
    obj = last_json_object(outcome.stdout_text)
    if obj is None:
        if outcome.exit_code == 0:
            return Verdict(native={})
        detail = first_line(outcome.stderr_text)
        return Verdict(
            error=f"{request.event} hook exited with code {outcome.exit_code}"
            + (f": {detail}" if detail else ""),
            native={},
        )
    problem = _invalid(obj)
    if problem:
        return Verdict(error=f"output ignored: {problem}", native={})
    cancel = obj.get("cancel") is True
    context = _cap(obj.get("contextModification") or "")
    message = obj.get("errorMessage") or ""
    warning = None
    if cancel and request.event in NOT_CANCELLABLE:
        cancel = False
        warning = f"{request.event} cannot be cancelled; the hook's cancel was ignored"
    return Verdict(
        blocks=cancel,
        decision="deny" if cancel else None,
        reason=message or None,
        context=context or None,
        error=warning,
        native={"cancel": cancel, "contextModification": context, "errorMessage": message},
    )


def _invalid(obj: dict[str, Any]) -> str | None:
    if "shouldContinue" in obj:
        return '"shouldContinue" was removed from Cline hooks; return {"cancel": true} to block'
    if "cancel" in obj and not isinstance(obj["cancel"], bool):
        return f'"cancel" must be true or false, not {json.dumps(obj["cancel"])}'
    for name in ("contextModification", "errorMessage"):
        if name in obj and not isinstance(obj[name], str):
            return f'"{name}" must be a string'
    return None


def _cap(context: str) -> str:
    if len(context) <= CONTEXT_CAP:
        return context
    return context[:CONTEXT_CAP] + TRUNCATION_MARKER


def native(request: FireRequest, combined: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "cancel": combined["blocked"],
        "contextModification": combined["context"] or "",
        "errorMessage": combined["reason"] or "",
    }
