"""``hookd validate``: what is wrong in the hook configuration of some places, read with
each agent's own reader as the daemon reads it, without running anything.

Three kinds of findings: what the reader refused (a file that does not parse, an
unknown event, a handler it cannot load: ``Loaded.error``), what the agent silently
ignores (``Loaded.notes``: an unknown key in a matcher group, a Cline hook file without
its execute bit), and what only shows when the hook runs (a script that is missing or
not executable, a program not on ``PATH``, a timeout an hour or longer: a value in the
wrong unit). The dialects are handed in, as to the registry.
"""

from __future__ import annotations

import os
import shlex
import shutil
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .dialects import relay_entries
from .dialects.base import DialectModule
from .model import Dialect, HookSpec, Loaded, Source
from .trust.scripts import expand_word

LONG_TIMEOUT_S = 3600.0
"""A timeout this long is more likely a value in the wrong unit (milliseconds where the
agent reads seconds) than a wish to wait an hour."""
SHELL_WORDS = frozenset({
    "!", ".", ":", "[", "[[", "alias", "case", "cd", "command", "echo", "eval", "exec",
    "exit", "export", "false", "for", "if", "printf", "read", "return", "set", "shift",
    "source", "test", "true", "type", "ulimit", "umask", "unset", "until", "wait", "while",
    "{", "(",
})  # fmt: skip
"""Shell keywords and builtins: a command's first word that no ``PATH`` needs to hold."""


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem in one file, and the agents that read the file (Copilot CLI reads
    Claude Code's settings too: one problem, said once)."""

    dialects: tuple[str, ...]
    source: str
    problem: str

    def as_json(self) -> dict[str, Any]:
        return {"dialects": list(self.dialects), "source": self.source, "problem": self.problem}


@dataclass(frozen=True, slots=True)
class Checked:
    files: int
    hooks: int
    findings: tuple[Finding, ...]


def validate(
    dialects: Mapping[Dialect, DialectModule],
    home: str,
    system_root: str,
    roots: Iterable[str],
    path_env: str | None,
) -> Checked:
    """Every dialect's sources for ``roots`` (and the user's and system's), checked."""
    findings: dict[tuple[str, str], list[str]] = {}
    """(source, problem) -> the dialects that found it."""
    files: set[str] = set()
    hooks = 0
    seen: set[tuple[Dialect, str]] = set()
    for dialect, module in dialects.items():
        for source in module.sources(home, system_root, list(roots)):
            if (dialect, source.path) in seen or not os.path.lexists(source.path):
                continue
            seen.add((dialect, source.path))
            loaded = module.load(source)
            files.add(source.path)
            found = _reader_findings(source, loaded)
            for specs in loaded.hooks.values():
                for spec in specs:
                    if relay_entries.is_relay_spec(spec):
                        continue
                    hooks += 1
                    found += [(spec.source, p) for p in _hook_problems(spec, home, path_env)]
            for key in found:
                by = findings.setdefault(key, [])
                by += [] if dialect.value in by else [dialect.value]
    listed = tuple(Finding(tuple(by), source, problem)
                   for (source, problem), by in findings.items())  # fmt: skip
    return Checked(len(files), hooks, listed)


def _reader_findings(source: Source, loaded: Loaded) -> list[tuple[str, str]]:
    """(file, problem) of what the reader refused and what the agent ignores."""
    found = []
    if loaded.error:
        error = loaded.error.removeprefix(f"{source.path}: ")
        found += [(source.path, part) for part in error.split("; ") if part]
    for note in loaded.notes:
        path, _sep, said = note.partition(": ")
        found.append((path, said) if said else (source.path, note))
    return found


def _hook_problems(spec: HookSpec, home: str, path_env: str | None) -> list[str]:
    problems = []
    if spec.timeout_s >= LONG_TIMEOUT_S:
        problems.append(
            f"{spec.event}: {spec.command!r}: a timeout of {spec.timeout_s:g} s as the agent "
            "reads it (an hour or more): a value in the wrong unit?"
        )
    program = _program(spec, home, path_env)
    if program:
        problems.append(f"{spec.event}: {spec.command!r}: {program}")
    return problems


def _program(spec: HookSpec, home: str, path_env: str | None) -> str | None:
    """What is wrong with the program a hook starts (its first word), or None."""
    if spec.options.get("type", "command") != "command":
        return None  # http, prompt, agent handlers start no program
    words = list(spec.argv) if spec.argv else _words(spec.command)
    if not words:
        return None
    first = words[0]
    if "/" not in first:
        if first in SHELL_WORDS or "=" in first or "$" in first:
            return None
        if shutil.which(first, path=path_env) is None:
            return f"{first!r} is not on PATH ({'not found' if path_env else 'PATH is empty'})"
        return _script_of(first, words[1:], spec.root, home)
    path = _resolve(first, spec.root, home)
    if path is None:
        return None
    if not os.path.exists(path):
        return f"{path} does not exist"
    if os.path.isdir(path):
        return f"{path} is a folder, not a program"
    if not os.access(path, os.X_OK):
        return f"{path} is not executable (chmod +x {shlex.quote(path)})"
    return None


INTERPRETERS = frozenset({"bash", "bun", "deno", "node", "perl", "python", "python3", "ruby",
                          "sh", "uv", "zsh"})  # fmt: skip


def _script_of(program: str, rest: list[str], root: str | None, home: str) -> str | None:
    """An interpreter's script argument (``python3 .claude/hooks/x.py``) that is missing."""
    if program not in INTERPRETERS or not rest or rest[0].startswith("-"):
        return None
    if "/" not in rest[0] and "." not in rest[0]:
        return None  # a subcommand (``uv run``), not a file
    path = _resolve(rest[0], root, home)
    if path is None or os.path.exists(path):
        return None
    return f"{path} does not exist (the script {program} is given)"


def _words(command: str) -> list[str]:
    try:
        return shlex.split(command, comments=True, posix=True)
    except ValueError:
        return []


def _resolve(word: str, root: str | None, home: str) -> str | None:
    path = expand_word(word, root, home)
    if path is None:
        return None
    if not os.path.isabs(path):
        if root is None:
            return None  # a user-level hook's relative path: relative to the agent's cwd
        path = os.path.join(root, path)
    return os.path.normpath(path)


__all__ = ["Checked", "Finding", "validate"]
