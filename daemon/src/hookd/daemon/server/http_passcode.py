"""The http entry's passcode, made once and kept in ``<state_dir>/http-passcode`` (0600),
and where the entry is served (``ENTRY_PATH``, a relay fact: ``dialects.relay_entries``).

Claude Code sends it in each http hook request as ``Authorization: Bearer
${HOOKD_HTTP_PASSCODE}``, a header the agent fills from its own environment (the entry's
``allowedEnvVars``). So the passcode lives in this file and in the agent's environment,
never in a settings file, which people share, commit and which the agent rewrites with
its own permissions. The daemon and ``hookd relay install --http`` both read it; whichever
comes first makes it (the file appears whole, or not at all). Standard library only: the
CLI reads it too, and must not import trio.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import stat

from ..dialects.relay_entries import HTTP_ENTRY_PATH as ENTRY_PATH
from ..dialects.relay_entries import HTTP_PASSCODE_ENV as PASSCODE_ENV
from ..errors import UserError

__all__ = ["ENTRY_PATH", "PASSCODE_ENV", "export_line", "load", "load_or_create", "passcode_path"]

_FILE_NAME = "http-passcode"
_WELL_FORMED = re.compile(r"[A-Za-z0-9_-]{32,256}")


def passcode_path(state_dir: str) -> str:
    return os.path.join(state_dir, _FILE_NAME)


def export_line(state_dir: str) -> str:
    """The shell line that puts the passcode in the agent's environment."""
    return f'export {PASSCODE_ENV}="$(cat {passcode_path(state_dir)})"'


def load(state_dir: str) -> str | None:
    """The passcode, or None when none was made yet (``UserError`` as below)."""
    try:
        return _read(passcode_path(state_dir))
    except FileNotFoundError:
        return None


def load_or_create(state_dir: str) -> str:
    """The passcode, made (32 random bytes, URL-safe) when there is none yet.

    Raises:
        UserError: the file is not ours, others may read it, or it holds no passcode.
    """
    path = passcode_path(state_dir)
    known = load(state_dir)
    if known is not None:
        return known
    try:
        os.makedirs(state_dir, mode=0o700, exist_ok=True)
        _create(path)
    except OSError as exc:
        raise UserError(f"cannot write the http entry's passcode to {path}: {exc.strerror}; "
                        "check that hookd's state_dir is yours and writable") from None  # fmt: skip
    return _read(path)


def _read(path: str) -> str:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK)
    except FileNotFoundError:
        raise
    except OSError as exc:
        raise UserError(f"cannot read the http entry's passcode {path}: {exc.strerror}; "
                        "remove it and a new one is made") from None  # fmt: skip
    with os.fdopen(fd, "rb") as file:
        info = os.fstat(file.fileno())
        if not stat.S_ISREG(info.st_mode) or info.st_uid != os.geteuid():
            raise UserError(f"{path} is not a file of yours; remove it and a new passcode is made")
        if info.st_mode & 0o077:
            raise UserError(f"others may read the http entry's passcode {path} (mode "
                            f"{stat.S_IMODE(info.st_mode):o}): remove it (a new one is made; "
                            "export it to the agent again) or run: chmod 600 " + path)  # fmt: skip
        text = file.read(512).decode("ascii", "replace").strip()
    if not _WELL_FORMED.fullmatch(text):
        raise UserError(f"{path} holds no usable passcode (32 to 256 of A-Z a-z 0-9 _ -); "
                        "remove it and a new one is made")  # fmt: skip
    return text


def _create(path: str) -> None:
    """Write a new passcode beside ``path`` and link it into place: the file is complete
    when it appears, and a passcode made at the same moment by another process wins."""
    partial = f"{path}.{os.getpid()}.{secrets.token_hex(4)}.tmp"
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
    try:
        with os.fdopen(fd, "w") as file:
            file.write(secrets.token_urlsafe(32) + "\n")
            file.flush()
            os.fsync(file.fileno())
        with contextlib.suppress(FileExistsError):
            os.link(partial, path)
    finally:
        os.unlink(partial)
