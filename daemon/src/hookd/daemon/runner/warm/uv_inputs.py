"""What on disk decides how ``uv run`` runs a script, as one comparable value.

uv decides from the script's inline metadata, its ``<script>.lock``, the configuration
it discovers (``pyproject.toml`` and ``uv.toml`` in the working folder and each folder
above, the user's and the system's ``uv.toml``, ``UV_CONFIG_FILE``), the Python version
files (``.python-version``, ``.python-versions``), a ``.venv`` above the working folder,
and, for a script without inline metadata, the interpreters it could find (the folders
on ``PATH``, uv's managed Pythons). ``inputs`` stats each of those (a missing file is a
value too) and keeps the script's comment lines, which hold its metadata block: any
change, a new file included, gives a different value, and uv is asked again. The
environment uv resolved is watched on its own (``stamps_hold``).
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from ...racy import is_racy
from .shapes import UvCommand

Signature = tuple[int, int, int, int]
ABOVE = ("pyproject.toml", "uv.toml", ".python-version", ".python-versions", ".venv/pyvenv.cfg")
"""Files uv looks for in the working folder (and the script's) and each folder above."""


@dataclass(frozen=True, slots=True)
class Inputs:
    metadata: bytes | None
    """The script's comment lines: its inline metadata block and every line that could
    start one (a change anywhere else in the script does not concern uv)."""
    stats: tuple[tuple[str, Signature | None], ...]

    def recent(self, taken_at_ns: int) -> bool:
        """A file changed so shortly before ``taken_at_ns`` that a second change could
        leave the same stat (git's racily-clean rule): not to be trusted yet."""
        return any(sig is not None and is_racy(sig[2], taken_at_ns) for _p, sig in self.stats)


def signature(path: str) -> Signature | None:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return (info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)


def inputs(command: UvCommand, env: Mapping[str, str]) -> Inputs:
    """Everything on disk uv decides ``command``'s environment from, as it is now."""
    stats = tuple((path, signature(path)) for path in _watched(command, env))
    return Inputs(_comment_lines(command.file), stats)


def stamps_hold(stamps: tuple[tuple[str, Signature | None], ...], seen_at_ns: int) -> bool:
    """The environment's files and folders are as a probe saw them at ``seen_at_ns``
    (and were not changing right then)."""
    for path, sig in stamps:
        if signature(path) != sig or (sig is not None and is_racy(sig[2], seen_at_ns)):
            return False
    return True


def project_above(folder: str) -> str | None:
    """The nearest ``pyproject.toml`` in ``folder`` or above (uv may take it for a
    project to lock and sync before it runs anything)."""
    folder = os.path.abspath(folder)
    while True:
        candidate = os.path.join(folder, "pyproject.toml")
        if os.path.exists(candidate):
            return candidate
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


def _comment_lines(path: str) -> bytes | None:
    try:
        with open(path, "rb") as script:
            lines = script.read().splitlines(keepends=True)
    except OSError:
        return None
    return b"".join(line for line in lines if line.startswith(b"#"))


def _watched(command: UvCommand, env: Mapping[str, str]) -> Iterator[str]:
    yield command.file + ".lock"  # `uv lock --script`
    seen: set[str] = set()
    script_folder = os.path.dirname(command.file)
    for start in (command.cwd, script_folder, os.path.realpath(script_folder)):
        folder = os.path.abspath(start)
        while folder not in seen:
            seen.add(folder)
            for name in ABOVE:
                yield os.path.join(folder, name)
            folder = os.path.dirname(folder)
    home = env.get("HOME", "")
    yield os.path.join(env.get("XDG_CONFIG_HOME") or os.path.join(home, ".config"), "uv/uv.toml")
    for folder in (env.get("XDG_CONFIG_DIRS") or "/etc/xdg").split(":"):
        yield os.path.join(folder, "uv", "uv.toml")
    yield "/etc/uv/uv.toml"
    if env.get("UV_CONFIG_FILE"):
        yield os.path.join(command.cwd, env["UV_CONFIG_FILE"])
    if not command.inline:
        for folder in env.get("PATH", "").split(":"):
            yield os.path.join(command.cwd, folder)
        data = env.get("XDG_DATA_HOME") or os.path.join(home, ".local", "share")
        yield env.get("UV_PYTHON_INSTALL_DIR") or os.path.join(data, "uv", "python")
