"""Cline SDK file hooks: ``.cline/hooks/<Event>.<ext>``, interpreter inferred, no exec bit.

Reference: ``cline-sdk-file-hooks.md``; behaviour notes: ``cline-implementation.md`` (runner
"C"). Event names are matched case-insensitively; several files per event all run, in
the order of their full paths under JavaScript's ``localeCompare`` (what the SDK sorts
with); tool events run one after another, lifecycle events concurrently.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from ..combine_policy import CombinePolicy
from ..model import Dialect, FireRequest, HookSpec, ProcessOutcome, Verdict
from ..racy import is_racy
from ..safe_read import read_head
from .base import (
    Launch,
    Loaded,
    Source,
    first_root,
    hook_environment,
    hooks_by_file,
    timeout_error,
)

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
_BY_LOWER = {name.lower(): name for name in EVENTS} | {v: k for k, v in SDK_EVENT.items()}
EXTENSIONS = frozenset(
    {"", ".sh", ".bash", ".zsh", ".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".py", ".ps1"}
)
SEQUENTIAL_EVENTS = frozenset({"PreToolUse", "PostToolUse"})
TIMEOUT_S = 120.0
CONTEXT_CAP = 50_000
TRUNCATION_MARKER = "\n[hook context truncated: exceeded 50000 characters]"
CONTROL_PREFIX = "HOOK_CONTROL\t"
POLICY = CombinePolicy(context_separator="\n", reason_separator="\n", trim=False)

_listing_cache: dict[str, tuple[tuple[int, int, int], dict[str, tuple[str, ...]], int]] = {}


def canonical_event(event: str) -> str | None:
    return _BY_LOWER.get(event.strip().lower())


def sources(home: str, system_root: str, roots: Sequence[str]) -> list[Source]:
    cline_dir = os.path.join(home, ".cline")
    found = [
        Source(DIALECT, "global", os.path.join(home, "Documents", "Cline", "Hooks"), "hookdir"),
        Source(DIALECT, "user", os.path.join(cline_dir, "hooks"), "hookdir"),
    ]
    for root in roots:
        found.append(
            Source(
                DIALECT, "workspace", os.path.join(root, ".clinerules", "hooks"), "hookdir", root
            )
        )
        found.append(
            Source(DIALECT, "workspace", os.path.join(root, ".cline", "hooks"), "hookdir", root)
        )
    return found


def load(source: Source) -> Loaded:
    listing = _listing(source.path)
    return Loaded(hooks={event: _specs(source, event, paths) for event, paths in listing.items()})


def load_event(source: Source, event: str) -> tuple[HookSpec, ...]:
    return _specs(source, event, _listing(source.path).get(event, ()))


def _specs(source: Source, event: str, paths: Sequence[str]) -> tuple[HookSpec, ...]:
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
        )
        for path in paths
    )


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
        stem, ext = os.path.splitext(entry.name)
        if ext.lower() not in EXTENSIONS:
            continue
        event = _BY_LOWER.get(stem.strip().lower())
        if event in SDK_EVENT:
            found.setdefault(event, []).append(entry.path)
    result = {event: tuple(sorted(paths, key=locale_compare_key)) for event, paths in found.items()}
    _listing_cache[directory] = (signature, result, listed_at)
    return result


def sequential(request: FireRequest) -> bool:
    return request.event in SEQUENTIAL_EVENTS


def select(
    loaded: Sequence[tuple[Source, Loaded]], request: FireRequest
) -> tuple[list[HookSpec], list[str]]:
    chosen = hooks_by_file(loaded, request.event)
    chosen.sort(key=lambda spec: locale_compare_key(spec.source))
    return chosen, []


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
    """The SDK's interpreter inference: the shebang first, then the extension."""
    shebang = _shebang(path)
    if shebang:
        words = shebang.split()
        if words and os.path.basename(words[0]) == "env":
            words = [w for w in words[1:] if not w.startswith("-")]
        if words:
            name = os.path.basename(words[0])
            head = name if name in ("bash", "sh", "zsh") else words[0]
            return (head, *words[1:], path)
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


def _shebang(path: str) -> str | None:
    head = read_head(path, 256)
    if not head.startswith(b"#!"):
        return None
    return head[2:].split(b"\n", 1)[0].decode("utf-8", errors="replace").strip()


def prepare(spec: HookSpec, request: FireRequest, base_env: Mapping[str, str]) -> Launch:
    payload: dict[str, Any] = {
        "clineVersion": os.environ.get("CLINE_VERSION", ""),
        "hookName": SDK_EVENT[request.event],
        "timestamp": iso_timestamp(),
        "workspaceRoots": list(request.roots),
    }
    payload.update(request.payload)
    payload["hookName"] = SDK_EVENT[request.event]
    argv = infer_command(spec.source)
    resolved = shutil.which(argv[0]) or argv[0]
    return Launch(
        argv=(resolved, *argv[1:]),
        stdin=json.dumps(payload).encode(),
        cwd=first_root(request),
        env=hook_environment(base_env, request.env),
    )


def iso_timestamp() -> str:
    """``new Date().toISOString()``: UTC, always with milliseconds and a ``Z``."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def parse_control(stdout: str) -> tuple[dict[str, Any] | None, str | None]:
    """``HOOK_CONTROL\\t<json>`` lines (the last wins), else the whole trimmed stdout."""
    text = stdout.strip()
    if not text:
        return None, None
    lines = [line.strip() for line in text.split("\n") if line.strip()]
    control = [line for line in lines if line.startswith(CONTROL_PREFIX)]
    candidate = control[-1][len(CONTROL_PREFIX) :] if control else text
    try:
        value = json.loads(candidate)
    except json.JSONDecodeError as exc:
        return None, f"invalid JSON control output ({exc.msg} at line {exc.lineno})"
    if not isinstance(value, dict):
        return None, "control output must be a JSON object"
    return value, None


def interpret(spec: HookSpec, request: FireRequest, outcome: ProcessOutcome) -> Verdict:
    failure = timeout_error(outcome)
    if failure:
        return Verdict(error=failure)
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
    native: dict[str, Any] = {k: control[k] for k in ("cancel", "review") if k in control}
    fields: dict[str, Any] = {"review": control.get("review") is True}
    if cancel:
        reason = message if message is not None else injectable
        fields.update(blocks=True, decision="deny", reason=_blank_to_none(reason))
    else:
        chosen = injectable if injectable is not None else message
        fields["context"] = _cap(_blank_to_none(chosen))
    if "overrideInput" in control:
        fields.update(has_updated_input=True, updated_input=control["overrideInput"])
    return Verdict(**fields, native=native)


def _string(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _text(value: object) -> str | None:
    return value if isinstance(value, str) and value.strip() else None


def _blank_to_none(value: str | None) -> str | None:
    """The SDK injects context and reports a reason only when its trimmed text is non-empty."""
    return value if value is not None and value.strip() else None


def _cap(context: str | None) -> str | None:
    if context is None or len(context) <= CONTEXT_CAP:
        return context
    return context[:CONTEXT_CAP] + TRUNCATION_MARKER


def native(request: FireRequest, combined: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if combined["blocked"]:
        out["cancel"] = True
        if combined["reason"]:
            out["errorMessage"] = combined["reason"]
    elif combined["context"]:
        out["context"] = combined["context"]
    if combined.get("review"):
        out["review"] = True
    if combined["updatedInputFrom"] is not None:
        out["overrideInput"] = combined["updatedInput"]
    return out
