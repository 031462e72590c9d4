"""Reading GitHub Copilot CLI's hook files and settings (1.0.102; ``copilot-research.md
§1``, ``§2``).

A hook file (``~/.copilot/hooks/``, ``<root>/.github/hooks/``, a policy file) is strict on
its structure (bad JSON, a ``version`` other than 1, ``hooks`` not an object, an event
that is not a list: the whole file is skipped) and lenient per handler (a bad handler is
skipped, with the agent's words, and the rest loads). A settings file's ``hooks`` are
strict: one bad handler drops every hook of the file. Unknown event keys and unknown
fields are ignored; Claude-style groups (``{"matcher", "hooks": [...]}``) are flattened
one level deep.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from ...jstext import parse_json
from ...model import HookSpec, Loaded, Source
from ...safe_read import read_head
from .events import AGENT_EVENT, DEFAULT_TIMEOUT_S, PASCAL

MAX_FILE = 16 * 1024 * 1024
SKIPPED = " — hook will be skipped"


class FileError(ValueError):
    """The whole file is skipped."""


class ItemError(ValueError):
    """This handler is skipped (in a settings file: every hook of the file)."""


def read_json(path: str) -> Any:
    """The file's JSON value; ``FileError`` with the agent's words when it is not JSON."""
    data = read_head(path, MAX_FILE)
    text = data.decode("utf-8", "replace").lstrip("\ufeff")
    if not text.strip():
        raise FileError("Invalid JSON: EOF while parsing a value at line 1 column 0")
    try:
        return parse_json(text)
    except ValueError as exc:
        raise FileError(f"Invalid JSON: {exc}") from None


def hook_file(source: Source, path: str, label: str, hook_dir: str | None,
              index: int, extra: Mapping[str, Any] | None = None) -> Loaded:  # fmt: skip
    """One hook file of a folder or the policy folder (``hook_dir``: ``COPILOT_HOOK_DIR``)."""
    try:
        value = read_json(path)
        hooks, warnings = _events(value, source, path, label, hook_dir, index, extra, strict=False)
    except FileError as exc:
        return Loaded(error=f"Invalid hook configuration in {path}: {exc}")
    except OSError as exc:
        return Loaded(error=f"{path}: {exc.strerror or exc}", unreadable=True)
    return Loaded(hooks=hooks, error="; ".join(warnings) or None)


def settings_file(source: Source, label: str) -> Loaded:
    """A settings file's ``hooks`` (and its ``disableAllHooks``); one bad handler drops
    them all (the agent's ``Settings config error``)."""
    path = source.path
    if not os.path.exists(path):
        return Loaded()
    try:
        value = read_json(path)
    except FileError as exc:
        return Loaded(error=f"{path}: {exc}")
    except OSError as exc:
        return Loaded(error=f"{path}: {exc.strerror or exc}", unreadable=True)
    if not isinstance(value, dict):
        return Loaded(error=f"{path}: Settings config error: expected an object")
    switch = value.get("disableAllHooks")
    settings = {"disableAllHooks": switch is True}
    raw = value.get("hooks")
    if raw is None:
        return Loaded(settings=settings)
    try:
        hooks, _ = _events({"hooks": {k: v for k, v in raw.items() if k != "version"}}
                           if isinstance(raw, dict) else {"hooks": raw},
                           source, path, label, None, 0, None, strict=True)  # fmt: skip
    except (FileError, ItemError) as exc:
        why = f"{path} could not be loaded: Settings config error: {exc}"
        return Loaded(settings=settings, error=why)
    if switch is True and source.layer == "user":
        hooks = {}  # the user's settings switch only their own inline hooks off (§1.3)
    return Loaded(hooks=hooks, settings=settings)


def _events(value: Any, source: Source, path: str, label: str, hook_dir: str | None,
            index: int, extra: Mapping[str, Any] | None,
            strict: bool) -> tuple[dict[str, tuple[HookSpec, ...]], list[str]]:  # fmt: skip
    if not isinstance(value, dict):
        raise FileError("expected an object")
    if "version" in value and (type(value["version"]) is not int or value["version"] != 1):
        raise FileError("version: Invalid hook config version")
    if "disableAllHooks" in value and not isinstance(value["disableAllHooks"], bool):
        raise FileError("disableAllHooks: disableAllHooks must be a boolean")
    hooks = value.get("hooks")
    if not isinstance(hooks, dict):
        raise FileError("hooks: hooks must be an object")
    for key, handlers in hooks.items():
        if key in AGENT_EVENT and not isinstance(handlers, list):
            raise FileError(f"hooks.{key}: hook event value must be an array")
    if value.get("disableAllHooks") is True and not strict:
        return {}, []  # a hook file's switch: this file only (§1.3)
    found: dict[str, tuple[HookSpec, ...]] = {}
    warnings: list[str] = []
    for key, handlers in hooks.items():
        if key not in AGENT_EVENT:
            continue  # unknown keys (AgentStop, UserPromptTransformed...) are ignored
        specs: list[HookSpec] = []
        for position, item in enumerate(handlers):
            where = f"hooks.{key}[{position}]"
            for handler, matcher in _flattened(item, where):
                try:
                    specs.append(_spec(handler, matcher, key, source, path, label, hook_dir,
                                       index, extra, where))  # fmt: skip
                except ItemError as exc:
                    if strict:
                        raise
                    warnings.append(f"{path}: {exc}{SKIPPED}")
        if specs:
            found[key] = tuple(specs)
    return found, warnings


def _flattened(item: Any, where: str) -> list[tuple[Any, Any]]:
    """A handler, or a Claude-style group's handlers with the group's matcher."""
    if isinstance(item, dict) and isinstance(item.get("hooks"), list):
        inner = item["hooks"]
        if any(isinstance(h, dict) and "hooks" in h for h in inner):
            raise FileError(f"{where}: Nested hooks deeper than one level are not supported.")
        return [(handler, item.get("matcher")) for handler in inner]
    return [(item, item.get("matcher") if isinstance(item, dict) else None)]


def _spec(handler: Any, matcher: Any, key: str, source: Source, path: str, label: str,
          hook_dir: str | None, index: int, extra: Mapping[str, Any] | None,
          where: str) -> HookSpec:  # fmt: skip
    if not isinstance(handler, dict):
        raise ItemError(f"{where}: Expected object")
    kind = handler.get("type", "command")
    if kind not in ("command", "http", "prompt"):
        raise ItemError(f"{where}.type: Invalid hook type")
    options: dict[str, Any] = {"form": "pascal" if key in PASCAL else "camel", "label": label,
                               "kind": kind, "file_index": index, **(extra or {})}  # fmt: skip
    if hook_dir is not None:
        options["hook_dir"] = hook_dir
    if kind == "command":
        command, argv = _command(handler, where)
        options["argv"] = argv
    elif kind == "http":
        url = handler.get("url")
        if not isinstance(url, str) or not url:
            raise ItemError(f"{where}.url: url is required")
        command = url
        options["headers"] = (
            handler.get("headers") if isinstance(handler.get("headers"), dict) else {}
        )
    else:
        command = str(handler.get("prompt", ""))
    if matcher is not None:
        _check_matcher(matcher, key, where)
    timeout = handler.get("timeoutSec", handler.get("timeout"))
    if timeout is not None:
        field = "timeoutSec" if "timeoutSec" in handler else "timeout"
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)):
            raise ItemError(f"{where}.{field}: {field} must be a number")
        if timeout <= 0:
            raise ItemError(f"{where}.{field}: {field} must be positive")
    env = handler.get("env")
    if env is not None:
        if not isinstance(env, dict):
            raise ItemError(f"{where}.env: env must be an object")
        for name, value in env.items():
            if not isinstance(value, str):
                raise ItemError(f'{where}.env["{name}"]: env values must be strings')
        options["env"] = dict(env)
    cwd = handler.get("cwd")
    if isinstance(cwd, str) and cwd:
        options["cwd"] = cwd
    return HookSpec(
        dialect=source.dialect, event=key, source=path, layer=source.layer, command=command,
        argv=None, timeout_s=float(timeout) if timeout is not None else DEFAULT_TIMEOUT_S,
        matcher=matcher if isinstance(matcher, str) else None, root=source.root,
        options=options,
    )  # fmt: skip


def _command(handler: Mapping[str, Any], where: str) -> tuple[str, tuple[str, ...]]:
    """What runs: ``bash`` (else ``command``) by ``/bin/bash --norc --noprofile -c``, a
    ``powershell``-only handler by ``pwsh``, or ``exec`` with ``args`` and no shell."""
    shell = next((handler[k] for k in ("bash", "command") if isinstance(handler.get(k), str)), None)
    program = handler.get("exec")
    if (program is not None) == (shell is not None or isinstance(handler.get("powershell"), str)):
        raise ItemError(f"{where}: Specify either 'exec' (native executable) or "
                        "'bash'/'powershell'/'command' (shell), but not both")  # fmt: skip
    if isinstance(program, str) and program:
        args = handler.get("args")
        argv = (program, *(str(a) for a in (args if isinstance(args, list) else [])))
        return " ".join(argv), argv
    if shell is not None:
        return shell, ("/bin/bash", "--norc", "--noprofile", "-c", shell)
    script = str(handler["powershell"])
    return script, ("pwsh", "-NoProfile", "-Command", script)


def _check_matcher(matcher: Any, key: str, where: str) -> None:
    if not isinstance(matcher, str):
        raise ItemError(f"{where}.matcher: matcher must be a string")
    if matcher == "":
        raise ItemError(f"{where}.matcher: matcher cannot be empty")
    if key in PASCAL and matcher == "*":
        return
    if anchored(matcher) is None:
        raise ItemError(f"Invalid matcher regex in {key} hook: '{matcher}'")


@lru_cache(maxsize=1024)
def anchored(matcher: str) -> re.Pattern[str] | None:
    """The camelCase rule: the whole name against ``^(?:matcher)$`` (``*`` is invalid)."""
    try:
        return re.compile(f"^(?:{matcher})$")
    except re.error:
        return None


def folder_files(folder: str) -> list[str]:
    """A hook folder's files in the agent's order: walked recursively, shallower files
    first, each depth's relative paths in descending byte order; only names ending in
    ``.json``, no dotfiles (``copilot-research.md §1.1``)."""
    found: list[tuple[int, bytes, str]] = []
    for top, folders, files in os.walk(folder):
        folders[:] = [f for f in folders if not f.startswith(".")]
        for name in files:
            if name.endswith(".json") and not name.startswith("."):
                full = os.path.join(top, name)
                relative = os.path.relpath(full, folder)
                found.append((relative.count(os.sep), relative.encode(), full))
    found.sort(key=lambda item: (item[0], _descending(item[1])))
    return [full for _depth, _rel, full in found]


def _descending(data: bytes) -> tuple[int, ...]:
    return (*tuple(255 - b for b in data), 256)


def policy_files(folder: str) -> list[str]:
    """The policy folder's ``*.json`` files, flat, in ascending byte order of the name."""
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    chosen = [n for n in names if n.endswith(".json") and not n.startswith(".")
              and os.path.isfile(os.path.join(folder, n))]  # fmt: skip
    return [os.path.join(folder, n) for n in sorted(chosen, key=str.encode)]
