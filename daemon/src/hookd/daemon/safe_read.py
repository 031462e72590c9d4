"""Reading files that other people control, without ever blocking or ballooning.

A settings file can be a FIFO (``open`` would block the daemon forever), a symlink to
``/dev/zero`` (``read`` would never end) or simply huge. Everything the registry reads
goes through here: non-blocking open, regular files only, a size cap.
"""

from __future__ import annotations

import errno
import os
import stat

MAX_SETTINGS_BYTES = 1024 * 1024


class UnreadableFile(Exception):
    """The file is not a readable regular file of acceptable size; ``str()`` says why."""


class HookdLimitReached(UnreadableFile):
    """The file could not be opened because hookd itself ran out of file descriptors or
    memory: not the file's fault, and not "no hooks" (its hooks "never ran")."""


HOOKD_LIMIT_ERRNOS = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOMEM})


def read_regular_file(path: str, limit: int = MAX_SETTINGS_BYTES) -> bytes:
    """The file's bytes. Raises FileNotFoundError when missing, UnreadableFile otherwise."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOCTTY)
    except FileNotFoundError:
        raise
    except OSError as exc:
        if exc.errno in HOOKD_LIMIT_ERRNOS:
            raise HookdLimitReached(f"hookd could not open {path}: {exc.strerror}") from exc
        raise UnreadableFile(f"cannot read {path}: {exc.strerror}") from exc
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise UnreadableFile(f"{path} is not a regular file; hooks are read from files only")
        if info.st_size > limit:
            raise UnreadableFile(f"{path} is {info.st_size} bytes; the limit is {limit}")
        chunks: list[bytes] = []
        size = 0
        while chunk := os.read(fd, 65536):
            size += len(chunk)
            if size > limit:
                raise UnreadableFile(f"{path} grew past the limit of {limit} bytes while read")
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_head(path: str, size: int) -> bytes:
    """Up to ``size`` bytes from the start of a regular file; b"" when that is impossible."""
    try:
        return _head(path, size)
    except OSError:
        return b""


def _head(path: str, size: int) -> bytes:
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOCTTY)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return b""
        return os.read(fd, size)
    finally:
        os.close(fd)
