"""The files a settings hook's command names: what an approval hashes besides the
settings file, and what must not be writable by others.

A command is split as a shell would split its words (``shlex``); each word that, after
``$CLAUDE_PROJECT_DIR``/``$HOME``/``~`` expansion and relative to the workspace root,
names an existing regular file is a script of the hook (``python3 .claude/hooks/x.py``
names ``x.py``; a first word without a slash, ``python3``, is a program found on
``PATH``, never a file of the workspace). Words inside a nested ``sh -c '...'`` string
are not looked into.
"""

from __future__ import annotations

import functools
import os
import re
import shlex
import stat

from ..model import HookSpec

_VARIABLE = re.compile(r"\$(?:\{(\w+)\}|(\w+))")
MAX_WORDS = 64


@functools.lru_cache(maxsize=4096)
def candidate_paths(
    command: str, argv: tuple[str, ...] | None, root: str | None, home: str
) -> tuple[str, ...]:
    """Absolute paths the command's words could name (existence is checked by callers,
    per fire: a file may appear later)."""
    words: list[str] = list(argv) if argv else []
    if not words:
        try:
            words = shlex.split(command, comments=False, posix=True)
        except ValueError:
            words = []
    if words and "/" not in words[0]:
        words = words[1:]  # a program name: found on PATH, never in the workspace
    if not argv and "/" in command and command not in words:
        words.append(command)  # Augment: a script path with spaces, given unquoted
    found: list[str] = []
    for word in words[:MAX_WORDS]:
        path = expand_word(word, root, home)
        if path is None:
            continue
        if not os.path.isabs(path):
            if root is None:
                continue
            path = os.path.join(root, path)
        path = os.path.normpath(path)
        if path not in found:
            found.append(path)
    return tuple(found)


def expand_word(word: str, root: str | None, home: str) -> str | None:
    """A command word with ``$CLAUDE_PROJECT_DIR``, ``$HOME`` and ``~`` expanded; None
    when another variable is left in it (what it names is known only at run time)."""
    if not word or "\0" in word or len(word) > 4096:
        return None
    values = {"HOME": home, "CLAUDE_PROJECT_DIR": root}

    def substitute(match: re.Match[str]) -> str:
        name = match.group(1) or match.group(2)
        value = values.get(name)
        return value if value is not None else match.group(0)

    word = _VARIABLE.sub(substitute, word)
    if word == "~" or word.startswith("~/"):
        word = home + word[1:]
    return None if "$" in word else word


def named_files(spec: HookSpec, home: str) -> list[tuple[str, os.stat_result]]:
    """The existing regular files ``spec``'s command names, with their ``stat``."""
    files = []
    for path in candidate_paths(spec.command, spec.argv, spec.root, home):
        try:
            info = os.stat(path)
        except (OSError, ValueError):
            continue
        if stat.S_ISREG(info.st_mode):
            files.append((path, info))
    return files
