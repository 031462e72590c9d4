"""Cline SDK file hooks: ``.cline/hooks/<Event>.<ext>``, interpreter inferred, no exec bit.

Reference: ``cline-sdk-file-hooks.md``; behaviour notes: ``cline-implementation.md`` (runner
"C"). Event names are matched case-insensitively; several files per event all run, in
the order of their full paths under JavaScript's ``localeCompare`` (what the SDK sorts
with); tool events run one after another and their output controls the tool call;
lifecycle events run concurrently and their output is ignored, as the SDK's
fire-and-forget lifecycle hooks' is. PreCompact files are found but never run ("not
wired for file hooks today").
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from ...jstext import JS_WHITESPACE, js_cut, parse_json, to_json_bytes
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
from ...racy import is_racy
from ...safe_read import read_head
from .. import base, relay_entries
from ..base import first_root, hook_environment, hooks_by_file, timeout_error

DIALECT = Dialect.CLINE_SDK
SDK_EVENT: dict[str, str] = {
    "TaskStart": "agent_start",
    "TaskResume": "agent_resume",
    "TaskCancel": "agent_abort",
    "TaskComplete": "agent_end",
    "TaskError": "agent_error",
    "PreToolUse": "tool_call",
    "PostToolUse": "tool_result",
    "UserPromptSubmit": "prompt_submit",
    "PreCompact": "pre_compact",
    "SessionShutdown": "session_shutdown",
}
EVENTS: tuple[str, ...] = tuple(SDK_EVENT)
_FILE_EVENT = {name.lower(): name for name in EVENTS}
"""Hook file stems (lowercased) → event: only the file names, never ``tool_call.sh``."""
_BY_LOWER = _FILE_EVENT | {v: k for k, v in SDK_EVENT.items()}
"""Fire event names: the file names and the SDK's own hook names, any case."""
NOT_WIRED = frozenset({"PreCompact"})
"""Events whose files the SDK discovers but never runs."""
EXTENSIONS = frozenset(
    {"", ".sh", ".bash", ".zsh", ".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".py", ".ps1"}
)
SEQUENTIAL_EVENTS = frozenset({"PreToolUse", "PostToolUse"})
"""The SDK's blocking events: awaited one by one, and their output is a control."""
TIMEOUT_S = 120.0
CONTEXT_CAP = 50_000
TRUNCATION_MARKER = "\n[hook context truncated: exceeded 50000 characters]"
CONTROL_PREFIX = "HOOK_CONTROL\t"
POLICY = CombinePolicy(
    context_separator="\n", reason_separator="\n", trim=False, context_when_blocked=False
)
UNCANCELLABLE_EVENTS: frozenset[str] = frozenset()
GUARD_EVENTS = SEQUENTIAL_EVENTS
TAKES_HOOKS_DIRS = True
HOOKS_DIR_ENV: str | None = None
"""None: cline 3.0.65's ``--hooks-dir`` only sets ``CLINE_HOOKS_DIR``, which nothing in the
agent reads (its hooks never run). A client may still name extra folders in the fire's
``hooksDirs`` on purpose."""
kept_after_error = base.keep_all
switched_off = base.none_off
fire_extras = base.no_extras
async_result = base.no_async_result
action = base.cancel_stops
hook_label = base.label_by_file

_listing_cache: dict[str, tuple[tuple[int, int, int], dict[str, tuple[str, ...]], int]] = {}


def canonical_event(event: str) -> str | None:
    return _BY_LOWER.get(event.strip().lower())


def sources(home: str, system_root: str, roots: Sequence[str]) -> list[Source]:
    """The SDK's folders in its order (``~/Documents/Cline/Hooks``, ``~/.cline/hooks``,
    then each root's ``.clinerules/hooks`` and ``.cline/hooks``), each followed by the
    hookd-owned folder of the hooks adopted from it (``hookd adopt``: read the same way,
    at the same layer)."""
    places: list[tuple[str, str | None, str]] = [
        ("global", None, os.path.join(home, "Documents", "Cline", "Hooks")),
        ("user", None, os.path.join(home, ".cline", "hooks")),
    ]
    for root in roots:
        places.append(("workspace", root, os.path.join(root, ".clinerules", "hooks")))
        places.append(("workspace", root, os.path.join(root, ".cline", "hooks")))
    return relay_entries.with_adopted(DIALECT, home, places)


def load(source: Source) -> Loaded:
    listing = _listing(source.path)
    return Loaded(hooks={event: _specs(source, event, paths) for event, paths in listing.items()})


def load_event(source: Source, event: str) -> tuple[HookSpec, ...]:
    return _specs(source, event, _listing(source.path).get(event, ()))


def _specs(source: Source, event: str, paths: Sequence[str]) -> tuple[HookSpec, ...]:
    """The hooks of one folder; an adopted one sorts as if still in the agent's folder."""
    if not paths:
        return ()  # most folders, most events
    return tuple(
        HookSpec(
            dialect=DIALECT,
            event=event,
            source=path,
            layer=source.layer,
            command=path,
            argv=None,
            timeout_s=TIMEOUT_S,
            root=source.root,
            options={"adopted_from": source.adopted_from} if source.adopted_from else {},
        )
        for path in paths
    )


def _order_key(spec: HookSpec) -> tuple[list[tuple[int, int | str]], list[int], str]:
    folder = spec.options.get("adopted_from")
    path = os.path.join(folder, os.path.basename(spec.source)) if folder else spec.source
    return locale_compare_key(path)


def _listing(directory: str) -> dict[str, tuple[str, ...]]:
    """Event → hook files of one directory, cached on the directory's stat signature.

    A directory's mtime changes whenever an entry is added, removed or renamed, which is
    all that matters here (no exec bit is needed and files are read at spawn time). A
    directory modified within the last two seconds is re-listed anyway, because two
    changes inside one timestamp tick leave the same mtime (git's "racy" entries).
    """
    try:
        info = os.stat(directory)
    except OSError:
        _listing_cache.pop(directory, None)
        return {}
    signature = (info.st_mtime_ns, info.st_ino, info.st_nlink)
    cached = _listing_cache.get(directory)
    if cached is not None and cached[0] == signature and not is_racy(info.st_mtime_ns, cached[2]):
        return cached[1]
    listed_at = time.time_ns()
    found: dict[str, list[str]] = {}
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return {}
    for entry in entries:
        if not entry.is_file(follow_symlinks=False):
            continue  # symlinks are not hooks in the SDK (Dirent.isFile is false)
        ext = os.path.splitext(entry.name)[1].lower()
        if ext not in EXTENSIONS:
            continue
        # basename(name, ext) with the lowercased extension: an extension written in
        # capitals is not cut off, so ``PRETOOLUSE.SH`` names no event (as in the SDK).
        stem = entry.name[: -len(ext)] if ext and entry.name.endswith(ext) else entry.name
        event = _FILE_EVENT.get(_trim(stem).lower())
        if event is not None:
            found.setdefault(event, []).append(entry.path)
    result = {event: tuple(sorted(paths, key=locale_compare_key)) for event, paths in found.items()}
    _listing_cache[directory] = (signature, result, listed_at)
    return result


def sequential(request: FireRequest, specs: Sequence[HookSpec]) -> bool:
    return request.event in SEQUENTIAL_EVENTS


chained = base.unchained


def select(
    loaded: Sequence[tuple[Source, Loaded]], request: FireRequest
) -> tuple[list[HookSpec], list[str]]:
    """The event's hook files in ``localeCompare`` order of their paths (an adopted file
    in its agent folder's place). A relay fire runs only the folder adopted from the
    relay file's own folder (the agent runs one relay file per folder)."""
    cline_dir = _trim(request.env.get("CLINE_DIR", ""))
    running = [(s, c) for s, c in loaded if _runs_in(s, request, cline_dir)]
    chosen = hooks_by_file(running, request.event)
    warnings: list[str] = []
    if cline_dir and not request.relay:
        chosen, warnings = _in_cline_dir(chosen, cline_dir, request.event)
    chosen = [spec for spec in chosen if not relay_entries.is_relay_file(spec.source)]
    chosen.sort(key=_order_key)
    if request.event in NOT_WIRED and chosen:
        names = ", ".join(spec.source for spec in chosen)
        return [], [
            f"{request.event} file hooks are not run: the Cline SDK does not wire "
            f"{request.event} for file hooks; ignored: {names}"
        ]
    return chosen, warnings


def _in_cline_dir(
    chosen: list[HookSpec], cline_dir: str, event: str
) -> tuple[list[HookSpec], list[str]]:
    """``CLINE_DIR`` in the agent's environment (the fire's ``env``) moves the user folder:
    the SDK reads ``$CLINE_DIR/hooks`` instead of ``~/.cline/hooks`` (each path once)."""
    if not os.path.isabs(cline_dir):
        return chosen, [f"CLINE_DIR {cline_dir!r} is not an absolute path; ~/.cline/hooks is used"]
    folder = os.path.normpath(os.path.join(cline_dir, "hooks"))
    kept = [spec for spec in chosen if spec.layer != "user" or spec.options.get("adopted_from")]
    seen = {spec.source for spec in kept}
    moved = load_event(Source(DIALECT, "user", folder, "hookdir"), event)
    return kept + [spec for spec in moved if spec.source not in seen], []


def _runs_in(source: Source, request: FireRequest, cline_dir: str) -> bool:
    """``relay_entries.runs_in``; with ``CLINE_DIR`` set, a relay file in
    ``$CLINE_DIR/hooks`` stands for the user folder."""
    if relay_entries.runs_in(source, request):
        return True
    moved = os.path.join(cline_dir, "hooks") if os.path.isabs(cline_dir) else None
    return bool(
        moved
        and source.adopted
        and source.layer == "user"
        and request.relay_entry
        and relay_entries.same_place(moved, request.relay_entry)
    )


_PUNCTUATION_ORDER = " _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$"
"""ASCII spaces, punctuation and symbols in ICU root-collation order (checked with node)."""


def locale_compare_key(text: str) -> tuple[list[tuple[int, int | str]], list[int], str]:
    """A sort key that orders like ``a.localeCompare(b)`` in node (ICU, en-US, defaults).

    ICU compares the whole string on letters first, ignoring case (punctuation before
    digits before letters), and only then on case, lowercase first: so
    ``pretooluse.py`` sorts before ``PreToolUse.sh``, where plain ``sorted`` would put
    every capitalised name first. Exact for ASCII; other characters are placed by code
    point after the known punctuation (letters and digits by ``casefold``).
    """
    primary: list[tuple[int, int | str]] = []
    tertiary: list[int] = []
    for char in text:
        if char.isalpha():
            primary.append((3, char.casefold()))
            tertiary.append(1 if char.isupper() else 0)
        elif char.isdigit():
            primary.append((2, char))
            tertiary.append(0)
        else:
            rank = _PUNCTUATION_ORDER.find(char)
            primary.append((1, rank if rank >= 0 else len(_PUNCTUATION_ORDER) + ord(char)))
            tertiary.append(0)
    return primary, tertiary, text


def infer_command(path: str) -> tuple[str, ...]:
    """The SDK's interpreter inference (``inferHookCommand``): the shebang first, then the
    extension; a file with neither runs through ``bash``."""
    shebang = shebang_command(_first_line(path))
    if shebang:
        return (*shebang, path)
    ext = os.path.splitext(path)[1].lower()
    if ext in (".js", ".mjs", ".cjs"):
        return ("node", path)
    if ext in (".ts", ".mts", ".cts"):
        return ("bun", "run", path)
    if ext == ".py":
        return ("python3", path)
    if ext == ".ps1":
        return ("pwsh", "-File", path)
    return ("bash", path)


_BARE_INTERPRETERS = frozenset({"bash", "sh", "zsh", "python", "python3"})


def shebang_command(first_line: str) -> tuple[str, ...]:
    """The interpreter words of a shebang line, as ``normalizeHookInterpreter`` makes them.

    ``env`` is dropped; ``bash``, ``sh``, ``zsh``, ``python`` and ``python3`` become their
    bare names (looked up on ``PATH``); anything else is used verbatim, with its
    arguments. One difference, on purpose: options and ``NAME=value`` words right after
    ``env`` (``env -S node``) are skipped as ``env`` itself would, where the SDK would try
    to spawn ``-S`` and fail.
    """
    line = _trim(first_line)
    if not line.startswith("#!"):
        return ()
    words = line[2:].split()
    while words:
        name = words[0].replace("\\", "/").lower().rsplit("/", 1)[-1]
        if name != "env":
            break
        words = words[1:]
        while words and (words[0].startswith("-") or "=" in words[0]):
            words = words[1:]
    if not words:
        return ()
    name = words[0].replace("\\", "/").lower().rsplit("/", 1)[-1]
    head = name if name in _BARE_INTERPRETERS else words[0]
    return (head, *words[1:])


def _first_line(path: str) -> str:
    head = read_head(path, 4096)
    return head.split(b"\n", 1)[0].decode("utf-8", errors="replace")


def prepare(spec: HookSpec, request: FireRequest, base_env: Mapping[str, str]) -> Launch:
    env = hook_environment(base_env, request.env)
    argv = infer_command(spec.source)
    resolved = shutil.which(argv[0], path=env.get("PATH", os.defpath)) or argv[0]
    return Launch(
        argv=(resolved, *argv[1:]),
        stdin=to_json_bytes(event_payload(request, env)),
        cwd=first_root(request),
        env=env,
    )


BASE_KEYS = (
    "clineVersion", "timestamp", "taskId", "sessionContext", "workspaceRoots",
    "workspaceInfo", "userId", "agent_id", "parent_agent_id",
)  # fmt: skip
"""The payload base in the order the SDK's file-hook runner writes it (``hookName`` and
the event's own fields follow); checked against cline 3.0.65's stdin bytes."""


def event_payload(request: FireRequest, env: Mapping[str, str]) -> dict[str, Any]:
    """The stdin JSON of ``createPayloadBase`` plus the event's fields.

    hookd fills what the SDK takes from its environment and clock (``clineVersion``,
    ``userId``, ``timestamp``), ``workspaceRoots`` and ``hookName``; the agent's own
    fields (``taskId``, ``tool_call``, ``iteration``...) come from the fire's payload and
    win over the defaults, except ``hookName``. The legacy camelCase block the SDK sends
    beside the new one (``preToolUse``, ``postToolUse``, ``taskStart``...) is derived from
    the payload when the agent did not send it.
    """
    hook_name = SDK_EVENT[request.event]
    defaults: dict[str, Any] = {
        "clineVersion": _trim(env.get("CLINE_VERSION", "")),
        "timestamp": iso_timestamp(),
        "workspaceRoots": list(request.roots),
        "userId": _trim(env.get("CLINE_USER_ID", "")) or _trim(env.get("USER", "")) or "unknown",
    }
    payload: dict[str, Any] = {}
    for key in BASE_KEYS:  # the agent's key order, so the stdin bytes are the agent's
        if key in request.payload:
            payload[key] = request.payload[key]
        elif key in defaults:
            payload[key] = defaults[key]
    payload["hookName"] = hook_name
    for key, value in request.payload.items():
        payload.setdefault(key, value)
    for key, block in legacy_blocks(hook_name, request.payload).items():
        payload.setdefault(key, block)
    return payload


def legacy_blocks(hook_name: str, payload: Mapping[str, Any]) -> dict[str, Any]:
    """The camelCase block(s) the SDK adds for file hooks written for the older format."""
    if hook_name == "tool_call":
        call = payload.get("tool_call")
        if not isinstance(call, dict):
            return {}
        return {"preToolUse": _defined(toolName=call.get("name"), parameters=map_params(call))}
    if hook_name == "tool_result":
        record = payload.get("tool_result")
        if not isinstance(record, dict):
            return {}
        output = record.get("output")
        result = output if isinstance(output, str) or "output" not in record else _js(output)
        return {
            "postToolUse": _defined(
                toolName=record.get("name"),
                parameters=map_params(record),
                result=result,
                success=_js_falsy(record.get("error")),
                executionTimeMs=record.get("durationMs"),
            )
        }
    constant: dict[str, dict[str, Any]] = {
        "agent_start": {"taskStart": {"taskMetadata": {}}},
        "agent_resume": {"taskResume": {"taskMetadata": {}, "previousState": {}}},
        "agent_end": {"taskComplete": {"taskMetadata": {}}},
        "agent_abort": {"taskCancel": {"taskMetadata": {}}},
    }
    return constant.get(hook_name, {})


def map_params(block: Mapping[str, Any]) -> dict[str, str]:
    """``mapParams``: the tool input as strings (non-strings JSON-encoded), {} if no object."""
    value = block.get("input")
    if isinstance(value, list):
        value = {str(index): item for index, item in enumerate(value)}
    if not isinstance(value, dict):
        return {}
    return {key: item if isinstance(item, str) else _js(item) for key, item in value.items()}


def _defined(**fields: Any) -> dict[str, Any]:
    """Like ``JSON.stringify``, leave out fields that are undefined (None here)."""
    return {key: value for key, value in fields.items() if value is not None}


def _js_falsy(value: object) -> bool:
    """``!value`` in JavaScript (an empty object or array is truthy there)."""
    if value is None or value is False or value == "":
        return True
    return isinstance(value, int | float) and not isinstance(value, bool) and value == 0


def _js(value: Any) -> str:
    return to_json_bytes(value).decode()


def iso_timestamp() -> str:
    """``new Date().toISOString()``: UTC, always with milliseconds and a ``Z``."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def parse_control(stdout: str) -> tuple[dict[str, Any] | None, str | None]:
    """``HOOK_CONTROL\\t<json>`` lines (the last wins), else the whole trimmed stdout
    (trimmed as JavaScript does, so a BOM or U+2028 around the JSON is dropped too)."""
    text = _trim(stdout)
    if not text:
        return None, None
    lines = [_trim(line) for line in text.split("\n")]
    control = [line for line in lines if line.startswith(CONTROL_PREFIX)]
    candidate = control[-1][len(CONTROL_PREFIX) :] if control else text
    try:
        value = parse_json(candidate)
    except ValueError as exc:
        return None, f"invalid JSON control output: {exc}"
    if not isinstance(value, dict):
        return None, "control output must be a JSON object"
    return value, None


def interpret(spec: HookSpec, request: FireRequest, outcome: ProcessOutcome) -> Verdict:
    failure = timeout_error(outcome)
    if failure:
        return Verdict(error=failure)
    if request.event not in SEQUENTIAL_EVENTS:
        # The SDK runs lifecycle hooks detached with stdout ignored: nothing they print
        # can cancel, add context or rewrite anything.
        return Verdict()
    control, problem = parse_control(outcome.stdout_text)
    if problem:
        return Verdict(error=f"hook skipped: {problem}")
    if control is None:
        return Verdict()
    cancel = control.get("cancel") is True
    # parseHookControl: a string ``context`` (even an empty one) shadows its alias
    # ``contextModification``, and that one shadows a non-blank ``errorMessage``.
    injectable = _string(control.get("context"))
    if injectable is None:
        injectable = _string(control.get("contextModification"))
    message = _text(control.get("errorMessage"))
    pre = request.event == "PreToolUse"  # review and overrideInput are PreToolUse fields
    native: dict[str, Any] = {k: control[k] for k in ("cancel", "review") if k in control}
    fields: dict[str, Any] = {}
    if cancel:
        reason = message if message is not None else injectable
        fields.update(blocks=True, decision="deny", reason=reason or None)
    else:
        # mergeHookControls drops only empty texts; a blank one still joins the merge.
        chosen = injectable if injectable is not None else message
        fields["context"] = _cap(chosen or None)
    if pre and "overrideInput" in control:
        fields.update(has_updated_input=True, updated_input=control["overrideInput"])
    elif not pre:
        native.pop("review", None)
        ignored = [k for k in ("overrideInput", "review") if k in control]
        if ignored:
            fields["error"] = f"{' and '.join(ignored)} only count on PreToolUse; ignored"
    return Verdict(**fields, native=native)


def _trim(text: str) -> str:
    """JavaScript's ``trim()``."""
    return text.strip(JS_WHITESPACE)


def _string(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _text(value: object) -> str | None:
    return value if isinstance(value, str) and _trim(value) else None


def _cap(context: str | None) -> str | None:
    """The SDK's cap: 50,000 JavaScript characters (UTF-16 units), then its marker."""
    if context is None:
        return None
    cut = js_cut(context, CONTEXT_CAP)
    return context if cut is None else cut + TRUNCATION_MARKER


def refine(request: FireRequest, combined: Combined, reports: Sequence[HookReport]) -> Combined:
    """``beforeToolResultFromControl`` appends the merged context only when its trimmed
    text is non-empty: contexts that are all blank are no context."""
    texts = [r.verdict.context for r in reports if r.verdict.context]
    return combined if any(_trim(text) for text in texts) else replace(combined, context=None)


def native(request: FireRequest, combined: Combined) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if combined.blocked:
        out["cancel"] = True
        if combined.reason:
            out["errorMessage"] = combined.reason
    elif combined.context and _trim(combined.context):
        out["context"] = combined.context
    if any(values.get("review") is True for values in combined.natives):
        out["review"] = True  # PreToolUse's pause for review: OR'ed across hooks
    if combined.updated_input_from is not None:
        out["overrideInput"] = combined.updated_input
    return out
