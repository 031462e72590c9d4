"""Claude Code's handler-level ``if`` filter: one permission rule such as ``Bash(git *)``.

Best effort by design, like Claude Code's: Bash rules are checked against every
subcommand (``&&``, ``||``, ``;``, ``|``, ``$()`` and backticks), leading ``VAR=value``
assignments are stripped, and anything that cannot be parsed fails open (the hook runs).
"""

from __future__ import annotations

import fnmatch
import os
import re
import shlex
from typing import Any

_RULE = re.compile(r"^\s*([A-Za-z0-9_.:\-]+)\s*(?:\((.*)\))?\s*$", re.DOTALL)
_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
_SUBSTITUTION = re.compile(r"\$\(([^()]*)\)|`([^`]*)`")
_SEPARATORS = re.compile(r"&&|\|\||[;|\n&]")
_FILE_KEYS = ("file_path", "path", "notebook_path")


def condition_allows(
    rule: str, tool_name: str | None, tool_input: Any, cwd: str | None = None
) -> bool:
    """Whether a hook with ``if: rule`` runs for this tool call (``cwd``: the session's
    working directory, which path patterns with a ``/`` are relative to)."""
    match = _RULE.match(rule)
    if match is None:
        return True  # unparseable rule: fail open
    rule_tool, pattern = match.group(1), match.group(2)
    if tool_name != rule_tool:
        return False
    if pattern is None or pattern.strip() in ("", "*"):
        return True
    if not isinstance(tool_input, dict):
        return True
    if rule_tool in ("Bash", "PowerShell"):
        command = tool_input.get("command")
        return True if not isinstance(command, str) else _bash_matches(pattern, command)
    for key in _FILE_KEYS:
        value = tool_input.get(key)
        if isinstance(value, str):
            return _path_matches(pattern, value, cwd)
    return True  # a rule kind we do not model: fail open


def _bash_matches(pattern: str, command: str) -> bool:
    has_dynamic = bool(_SUBSTITUTION.search(command)) or "$" in command
    if has_dynamic and len(pattern.split()) > 2:
        return True  # more than a command name: Claude runs the hook anyway
    try:
        subcommands = _subcommands(command)
    except ValueError:
        return True  # unparseable: fail open
    return any(_command_matches(pattern, sub) for sub in subcommands)


def _subcommands(command: str) -> list[list[str]]:
    nested = [m.group(1) or m.group(2) or "" for m in _SUBSTITUTION.finditer(command)]
    flat = _SUBSTITUTION.sub(" ", command)
    result: list[list[str]] = []
    for part in [*_SEPARATORS.split(flat), *nested]:
        words = shlex.split(part, posix=True)
        while words and _ASSIGNMENT.match(words[0]):
            words.pop(0)
        if words:
            result.append(words)
    return result


def _command_matches(pattern: str, words: list[str]) -> bool:
    text = " ".join(words)
    if pattern.endswith(":*"):  # legacy prefix syntax, e.g. Bash(npm run:*)
        prefix = pattern[:-2]
        return text == prefix or text.startswith(prefix + " ")
    if fnmatch.fnmatchcase(text, pattern):
        return True
    return pattern.endswith(" *") and text == pattern[:-2]


def _path_matches(pattern: str, path: str, cwd: str | None) -> bool:
    """Permission-rule paths, gitignore style: a pattern without ``/`` matches the file
    name at any depth; ``//x`` is absolute, ``~/x`` is in the home folder; any other
    pattern with a ``/`` is relative to the working directory ("``Edit(src/**)`` matches
    only the src directory in the working directory"; ``**/src/**`` matches at any depth).
    ``*`` and ``**`` both cross ``/`` here, which is as permissive as the rule allows."""
    if pattern.startswith("//"):
        return fnmatch.fnmatchcase(path, pattern[1:])
    if pattern.startswith("~/"):
        return fnmatch.fnmatchcase(path, os.path.expanduser(pattern))
    pattern = pattern.lstrip("/") if pattern.startswith("/") else pattern
    anywhere = pattern[3:] if pattern.startswith("**/") else None
    if "/" not in (anywhere if anywhere is not None else pattern):
        return fnmatch.fnmatchcase(os.path.basename(path), anywhere or pattern)
    relative = path
    if os.path.isabs(path):
        if not cwd:
            return True  # no working directory to resolve against: fail open
        relative = os.path.relpath(path, cwd)
        if relative.startswith(".." + os.sep) or relative == "..":
            return anywhere is not None and fnmatch.fnmatchcase(path, "*/" + anywhere)
    relative = relative.removeprefix("./")
    if anywhere is not None:
        return fnmatch.fnmatchcase(relative, anywhere) or fnmatch.fnmatchcase(relative, pattern)
    return fnmatch.fnmatchcase(relative, pattern)
