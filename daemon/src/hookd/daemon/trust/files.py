"""Who may change a hook file or a settings file: only you and root.

A file that another user owns, or that its group or everyone may write, is a way for
someone else to run code as you: hookd refuses its hooks (also under ``trust_all``).
One exception: a group-writable file whose group is the owner's private group (named
like the owner, no other members: what ``umask 002`` systems create) is only the owner's.
"""

from __future__ import annotations

import functools
import grp
import os
import pwd
import shlex
import stat

GROUP_OR_WORLD_WRITABLE = stat.S_IWGRP | stat.S_IWOTH


def unsafe_reason(path: str, info: os.stat_result) -> str | None:
    """Why others could change ``path`` (the file ``info`` describes), or None."""
    owner = info.st_uid
    if owner not in (os.geteuid(), 0):
        return (
            f"{path} is owned by another user (uid {owner}); hookd runs only hooks from "
            "files you or root own"
        )
    if info.st_mode & GROUP_OR_WORLD_WRITABLE and not (
        info.st_mode & stat.S_IWOTH == 0 and _private_group(info.st_gid, owner)
    ):
        who = "world" if info.st_mode & stat.S_IWOTH else "group"
        return (
            f"{path} is {who}-writable (mode {stat.S_IMODE(info.st_mode):04o}), so others "
            f"could change what it runs; fix it with: chmod go-w {shlex.quote(path)}"
        )
    return None


def unsafe_path(path: str) -> str | None:
    """``unsafe_reason`` for a path (None when it does not exist)."""
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return None
    return unsafe_reason(path, info)


@functools.lru_cache(maxsize=64)
def _private_group(gid: int, uid: int) -> bool:
    """Whether ``gid`` is ``uid``'s own group: its primary group, named like it, with no
    other members (the user-private-group convention)."""
    try:
        user = pwd.getpwuid(uid)
        group = grp.getgrgid(gid)
    except KeyError:
        return False
    return (
        user.pw_gid == gid
        and group.gr_name == user.pw_name
        and not (set(group.gr_mem) - {user.pw_name})
    )


def is_system_program(path: str, info: os.stat_result, root: str | None) -> bool:
    """A root-owned file outside the workspace that no one else may write
    (``/usr/bin/python3``): not the workspace's to approve, so not recorded or checked."""
    inside = root is not None and (path == root or path.startswith(root.rstrip(os.sep) + os.sep))
    return not inside and info.st_uid == 0 and not info.st_mode & GROUP_OR_WORLD_WRITABLE
