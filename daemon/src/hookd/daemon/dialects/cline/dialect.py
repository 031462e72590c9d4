"""Cline file hooks: one executable per event in ``.clinerules/hooks/`` and the global folder.

References: ``cline-hooks.md``, ``cline-hooks-design.md``; behaviour notes:
``docs/sources/notes/cline-implementation.md`` (runner "A"). Where Cline's code and docs
disagree, hookd follows the docs and never loses a cancel (see docs/compatibility.md):

* valid JSON is honoured on any exit code (docs), not only on exit 0 (code);
* one failing hook never discards another hook's ``cancel``;
* a timeout kills the hook's whole process group, not only its direct child;
* an unexpected error while looking for a hook file (not ENOENT, EACCES or ENOTDIR) is
  reported as a warning and costs only that file, not every hook of the event;
* the 50,000-character context cap never splits a surrogate pair.
"""

from __future__ import annotations

import errno
import json
import os
import shlex
import shutil
import signal
import stat
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from ...jstext import js_cut, to_json_bytes
from ...model import (
    Combined,
    CombinePolicy,
    Dialect,
    FireRequest,
    HookReport,
    HookSpec,
    Launch,
    Loaded,
    ProcessOutcome,
    Source,
    Verdict,
)
from .. import base, relay_entries
from ..base import first_line, first_root, hook_environment, timeout_error
from ..jsonscan import last_json_object

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
EXPECTED_ERRNOS = frozenset({errno.ENOENT, errno.EACCES, errno.ENOTDIR})
"""``isExpectedHookError``: a hook file that is missing or unreachable this way is simply
no hook. Any other error is Cline's "Unexpected error while searching for hook"."""
UNCANCELLABLE_EVENTS = frozenset({"TaskCancel", "TaskComplete"})
GUARD_EVENTS = frozenset(EVENTS) - NOT_CANCELLABLE
"""Cline offers no Abort for these ('This hook is NOT cancellable'): progress says so."""
TAKES_HOOKS_DIRS = True
HOOKS_DIR_ENV: str | None = "CLINE_HOOKS_DIR"
POLICY = CombinePolicy(
    context_separator="\n\n", reason_separator="\n", reasons_from="all", single_verbatim=True
)
kept_after_error = base.keep_all
switched_off = base.none_off
fire_extras = base.no_extras
async_result = base.no_async_result
action = base.cancel_stops
hook_label = base.label_by_file


def canonical_event(event: str) -> str | None:
    return event if event in _EVENT_SET else None


def sources(home: str, system_root: str, roots: Sequence[str]) -> list[Source]:
    """The global folder, then every root's ``.clinerules/hooks`` (``--hooks-dir`` folders
    come first, from the fire), each followed by the hookd-owned folder of the hooks
    adopted from it. Only ``<Documents>/Cline/Hooks`` is global: cline 2.18.0 never reads
    the documented ``~/Documents/Cline/Rules/Hooks``."""
    folders: list[tuple[str, str | None, str]] = [
        ("global", None, os.path.join(documents_folder(home), "Cline", "Hooks"))
    ]
    folders += [("workspace", root, os.path.join(root, ".clinerules", "hooks")) for root in roots]
    return relay_entries.with_adopted(DIALECT, home, folders)


def documents_folder(home: str) -> str:
    """The user's documents folder as Cline asks for it (``getDocumentsPath``): on Linux
    what ``xdg-user-dir DOCUMENTS`` prints when that program is on ``PATH`` (the
    ``XDG_DOCUMENTS_DIR`` of ``user-dirs.dirs``, else ``$HOME`` itself), otherwise
    ``~/Documents``. The program is a small shell script; hookd reads the same file
    instead of running it (``$HOME`` is the daemon's home setting)."""
    fallback = os.path.join(home, "Documents")
    if sys.platform != "linux" or shutil.which("xdg-user-dir") is None:
        return fallback
    own_home = os.path.expanduser("~") == home
    config = (os.environ.get("XDG_CONFIG_HOME") if own_home else None) or os.path.join(
        home, ".config"
    )
    value = ""
    try:
        with open(os.path.join(config, "user-dirs.dirs"), encoding="utf-8") as handle:
            for line in handle:
                name, sep, raw = line.strip().partition("=")
                if sep and name == "XDG_DOCUMENTS_DIR":
                    value = raw.strip().strip('"')
    except (OSError, UnicodeDecodeError):
        value = ""
    value = value.replace("${HOME}", home).replace("$HOME", home).strip()
    return value or home


def load(source: Source) -> Loaded:
    """Every hook in a hook directory (for ``hooks/list``), and unexpected lookup errors."""
    hooks = {}
    errors: list[str] = []
    notes: list[str] = []
    for event in EVENTS:
        found = load_event(source, event)
        if isinstance(found, Loaded):
            errors += [found.error] if found.error else []
            notes += found.notes
        elif found:
            hooks[event] = found
    return Loaded(hooks=hooks, error="; ".join(errors) or None, notes=tuple(notes))


def load_event(source: Source, event: str) -> tuple[HookSpec, ...] | Loaded:
    """The hook for ``event`` in this directory: one ``stat``, no directory scan.

    A hook is the file named exactly like the event, a regular file (symlinks followed)
    with an execute bit. Anything else (missing, directory, not executable, a path
    through a file) is no hook, as in Cline, which says nothing (nor does the fire); a
    regular file without the bit comes back as a note (``Loaded.notes``) that ``hookd
    explain`` and ``hookd validate`` show. Another error
    (a symlink loop, a path too long, an I/O error) is returned as a ``Loaded`` error,
    which ``select`` turns into a warning: Cline propagates those ("unexpected file
    system errors").
    """
    path = os.path.join(source.path, event)
    try:
        info = os.stat(path)
    except OSError as exc:
        if exc.errno in EXPECTED_ERRNOS:
            return ()
        reason = exc.strerror or str(exc)
        return Loaded(
            error=f"unexpected error while looking for hook {event!r} at {path}: {reason}"
        )
    except ValueError:  # a path the OS cannot take
        return ()
    if not stat.S_ISREG(info.st_mode):
        return ()
    if not os.access(path, os.X_OK):
        return Loaded(notes=(f"{path}: not executable, so Cline does not run it (make it "
                             f"executable: chmod +x {shlex.quote(path)})",))  # fmt: skip
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


sequential = base.concurrent  # every directory's hook runs concurrently (Promise.all in Cline)
chained = base.unchained


def select(
    loaded: Sequence[tuple[Source, Loaded]], request: FireRequest
) -> tuple[list[HookSpec], list[str]]:
    """The event's hook files in folder order; unexpected lookup errors as warnings (the
    other folders' hooks still run, where Cline's discovery would return none at all).

    Not de-duplicated: a ``--hooks-dir`` naming the global or a workspace hook folder
    runs that folder's hook twice, as cline 2.18.0 does (tests/agents/cline::
    hooks-dir-is-workspace-folder). Roots and hooks dirs are each listed once already.
    A relay fire runs only the folder adopted from the relay file's own folder (the agent
    runs one relay file per folder: each stands for its folder's hooks)."""
    warnings = [content.error for _source, content in loaded if content.error]
    chosen = [
        spec
        for source, content in loaded
        if relay_entries.runs_in(source, request)
        for spec in content.hooks.get(request.event, ())
        if not relay_entries.is_relay_file(spec.source)  # hookd's own: never run
    ]
    return chosen, warnings


def prepare(spec: HookSpec, request: FireRequest, base_env: Mapping[str, str]) -> Launch:
    payload: dict[str, Any] = {}
    version = request.payload.get("clineVersion")
    if version:  # Cline's proto3 JSON leaves an empty version out; hookd adds none
        payload["clineVersion"] = version
    payload["hookName"] = request.event
    payload["timestamp"] = request.payload.get("timestamp", str(int(time.time() * 1000)))
    for key, value in request.payload.items():
        if key not in payload and key != "clineVersion":
            payload[key] = value
    if request.roots:
        payload["workspaceRoots"] = list(request.roots)
    cwd = spec.root or first_root(request)
    return Launch(
        argv=spec.argv or (spec.command,),
        stdin=to_json_bytes(payload),  # JSON.stringify: compact, non-ASCII as UTF-8
        cwd=cwd,
        env=hook_environment(base_env, request.env),
    )


def interpret(spec: HookSpec, request: FireRequest, outcome: ProcessOutcome) -> Verdict:
    failure = _missing_interpreter(spec, outcome) or timeout_error(outcome)
    if failure:
        return Verdict(error=failure)
    if outcome.exit_code != 0 and request.failure_policy == "agent":
        # cline 2.18.0 rejects a hook that did not exit 0 before reading its output: a
        # valid cancel or context is lost and the action goes on (fail open).
        detail = first_line(outcome.stderr_text)
        dropped = last_json_object(outcome.stdout_text) is not None
        return Verdict(
            error=_exit_text(request.event, outcome.exit_code)
            + (f": {detail}" if detail else "")
            + (
                '; its JSON answer was ignored, as Cline does (cline_failure_policy = "strict" '
                "honours it)"
                if dropped
                else ""
            ),
            native={},
        )
    obj = last_json_object(outcome.stdout_text)
    cut = (
        "stdout passed hookd's output cap and was cut; the JSON answer was looked for in "
        "what was kept"
        if outcome.stdout_truncated
        else None
    )
    if obj is None:
        if outcome.exit_code == 0:
            return Verdict(error=cut, native={})
        detail = first_line(outcome.stderr_text)
        return Verdict(
            error=_exit_text(request.event, outcome.exit_code) + (f": {detail}" if detail else ""),
            native={},
        )
    problem = _invalid(obj)
    if problem:
        return Verdict(error=f"output ignored: {problem}", native={})
    cancel = obj.get("cancel") is True
    context = _cap(obj.get("contextModification") or "")
    message = obj.get("errorMessage") or ""
    warning = cut
    if cancel and request.event in NOT_CANCELLABLE:
        cancel = False
        ignored = f"{request.event} cannot be cancelled; the hook's cancel was ignored"
        warning = f"{ignored}; {cut}" if cut else ignored
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


def _missing_interpreter(spec: HookSpec, outcome: ProcessOutcome) -> str | None:
    """Say which interpreter is missing when the hook could not start because the program
    on its shebang line does not exist ("not found" alone would point at the hook file).
    A carriage return ending that line (a file saved with CRLF endings) is named."""
    if outcome.spawn_errno != errno.ENOENT:
        return None
    try:
        with open(spec.source, "rb") as handle:
            line = handle.readline(256)
    except OSError:
        return None
    if not line.startswith(b"#!"):
        return None
    program = line[2:].lstrip(b" \t").replace(b"\t", b" ").split(b" ", 1)[0].rstrip(b"\n")
    if not program or os.path.exists(program):
        return None
    shown = line[2:].rstrip(b"\r\n").decode("utf-8", "replace")
    crlf = b"\r" in program
    return f"could not start: its interpreter #!{shown} was not found" + (
        " (the line ends in a carriage return: save the file with LF line endings)" if crlf else ""
    )


def _exit_text(event: str, code: int | None) -> str:
    """Cline's "<Hook> hook exited with code N"; a signal is named (Cline says code 1)."""
    if code is not None and code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        return f"{event} hook was killed by {name}"
    return f"{event} hook exited with code {code}"


def _cap(context: str) -> str:
    """Cline's cap: 50,000 JavaScript characters, then the marker (a surrogate pair at the
    cut is dropped whole, where Cline would leave half a character)."""
    cut = js_cut(context, CONTEXT_CAP)
    return context if cut is None else cut + TRUNCATION_MARKER


def refine(request: FireRequest, combined: Combined, reports: Sequence[HookReport]) -> Combined:
    """``cline_failure_policy = "agent"``: Cline awaits an event's hooks with
    ``Promise.all``, so one hook that fails (exits non-zero, is killed, times out, cannot
    start) rejects the whole call and Cline goes on as if no hook had answered: the other
    hooks' cancel and context are lost too (cline 2.18.0, tests/agents/cline::
    one-fails-other-cancels). A hook hookd itself could not run is not such a failure:
    that stays "never ran"."""
    if request.failure_policy != "agent" or not (combined.blocked or combined.context):
        return combined
    failed = [r for r in reports if _failed(r.outcome)]
    if not failed:
        return combined
    names = ", ".join(r.spec.source for r in failed)
    return replace(
        combined,
        blocked=False,
        decision=None,
        reason=None,
        context=None,
        warnings=(
            *combined.warnings,
            f"a hook failed ({names}), so, as in Cline, no hook's answer counts for this "
            'event (cline_failure_policy = "strict" keeps the others\' answers)',
        ),
    )


def _failed(outcome: ProcessOutcome) -> bool:
    if outcome.never_ran or outcome.cancelled:
        return False
    return outcome.timed_out or outcome.spawn_error is not None or outcome.exit_code != 0


def native(request: FireRequest, combined: Combined) -> dict[str, Any]:
    return {
        "cancel": combined.blocked,
        "contextModification": combined.context or "",
        "errorMessage": combined.reason or "",
    }
