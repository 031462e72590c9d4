"""Reading Linux ``/proc`` about other processes: children, state, parent, environment.

Shared by the process custody (escapees) and the server (who is calling). Every
function answers for a process that is gone (or a system without ``/proc``) with an
empty or None value instead of raising: the process may exit at any moment.
"""

from __future__ import annotations

import os


def children(pid: int) -> list[int]:
    """The children of every thread of ``pid``."""
    found: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/children", "rb") as listing:
                found += [int(child) for child in listing.read().split()]
        except OSError:
            continue
    return found


def _stat_fields(pid: int) -> list[bytes]:
    """The fields of ``/proc/PID/stat`` after the command name (state first)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            return stat.read().rsplit(b")", 1)[-1].split()
    except OSError:
        return []


def is_zombie(pid: int) -> bool:
    fields = _stat_fields(pid)
    return bool(fields) and fields[0] == b"Z"


def parent_of(pid: int) -> int | None:
    fields = _stat_fields(pid)
    return int(fields[1]) if len(fields) > 1 else None


def environment_value(pid: int, name: str) -> str | None:
    """The value of ``name`` in the environment ``pid`` started with."""
    prefix = name.encode() + b"="
    try:
        with open(f"/proc/{pid}/environ", "rb") as environ:
            entries = environ.read().split(b"\0")
    except OSError:
        return None
    for entry in entries:
        if entry.startswith(prefix):
            return entry[len(prefix) :].decode(errors="replace")
    return None
