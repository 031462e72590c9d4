"""Claude Code's handler-level ``if`` filter: one permission rule such as ``Bash(git *)``.

Best effort by design, like Claude Code's: Bash rules are checked against every simple
command (``bash_commands``: separators, subshells, groups, ``if``/``while`` bodies,
``$()`` and backticks at any depth, quotes respected), leading ``VAR=value`` assignments
are stripped, and anything that cannot be parsed fails open (the hook runs).
"""

from __future__ import annotations

import fnmatch
import os
import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from .bash_commands import Unparsed, simple_commands

_RULE = re.compile(r"^\s*([A-Za-z0-9_.:\-]+)\s*(?:\((.*)\))?\s*$", re.DOTALL)
_DYNAMIC = re.compile(r"`|\$[^\s\"']|[<>]\(")
"""``$()``, backticks, ``$VAR``, ``<()``: a part of the command known only when it runs."""
_FILE_KEYS = ("file_path", "path", "notebook_path")


def condition_allows(
    rule: str, tool_name: str | None, tool_input: Any, cwd: str | None = None
) -> bool:
    """Whether a hook with ``if: rule`` runs for this tool call (``cwd``: the session's
    working directory, which path patterns with a ``/`` are relative to)."""
    parsed = _parse_rule(rule)
    if parsed is None:
        return True  # unparseable rule: fail open
    rule_tool, pattern = parsed
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


@lru_cache(maxsize=256)
def _parse_rule(rule: str) -> tuple[str, str | None] | None:
    """``Tool(pattern)`` as (tool, pattern); cached: the same few rules on every fire."""
    match = _RULE.match(rule)
    return None if match is None else (match.group(1), match.group(2))


def _bash_matches(pattern: str, command: str) -> bool:
    dynamic, subcommands = _bash_facts(command)
    if dynamic and _names_more_than_the_command(pattern):
        return True  # "patterns that specify more than the command name run the hook anyway"
    if subcommands is None:
        return True  # "fails open ... when the Bash command can't be parsed"
    return any(_command_matches(pattern, sub) for sub in subcommands)


@lru_cache(maxsize=32)
def _bash_facts(command: str) -> tuple[bool, tuple[tuple[str, ...], ...] | None]:
    """Whether ``command`` has parts known only at run time, and its simple commands
    (None: not parsed). Cached: every ``if`` hook of a fire asks about the same command."""
    try:
        subcommands = tuple(tuple(words) for words in simple_commands(command))
    except Unparsed:
        subcommands = None
    return bool(_DYNAMIC.search(command)), subcommands


def _names_more_than_the_command(pattern: str) -> bool:
    """``git push *``, ``git push`` and ``npm run:*`` do; ``rm *`` and ``rm`` do not."""
    core = pattern.strip().removesuffix(":*").removesuffix("*").strip()
    return len(core.split()) > 1


def _command_matches(pattern: str, words: Sequence[str]) -> bool:
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
