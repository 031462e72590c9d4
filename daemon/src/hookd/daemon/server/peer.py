"""Who is on the other end of a connection: its pid and uid (``SO_PEERCRED``) and
whether it runs inside one of this daemon's hooks.

A process is inside a hook when it carries a hook's ``HOOKD_HOOK_ID`` or descends from a
running hook; when the daemon is alone in its process (a subreaper: ``hookd serve``),
descending from the daemon at all is enough (hooks are its only children, and it adopts
what they orphan). The ancestry holds even for a hook that clears its environment; the
hook id, when present, says which hook, and so how deeply the fire it makes is nested.
Linux ``/proc``; elsewhere a caller is never known to be inside a hook.
"""

from __future__ import annotations

import os
import socket
import struct
from dataclasses import dataclass

import trio

from ..procfs import environment_value, parent_of
from ..runner.custody import HOOK_ID_ENV, Custody

MAX_ANCESTRY = 64


@dataclass(frozen=True, slots=True)
class Caller:
    pid: int | None
    uid: int | None
    inside_hook: bool = False
    hook_id: str | None = None
    """The ``HOOKD_HOOK_ID`` of the hook it runs under, when its environment still says."""


def caller_of(stream: trio.SocketStream, custody: Custody) -> Caller:
    """The peer of ``stream``, as far as ``custody`` (the daemon's hooks) tells."""
    hook_prefix = custody.hook_prefix
    try:
        creds = stream.socket.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, 12)
    except (OSError, AttributeError):
        return Caller(None, None)
    pid, uid, _gid = struct.unpack("3i", creds)
    if pid <= 0:
        return Caller(None, int(uid))
    hook_id = environment_value(pid, HOOK_ID_ENV)
    if hook_id is not None and not hook_id.startswith(hook_prefix):
        hook_id = None  # another daemon's hook: not ours to count
    hook_id = custody.resolve(pid, hook_id)  # a warm hook's environ is its zygote's
    inside = hook_id is not None or _descends_from_hooks(pid, custody)
    return Caller(int(pid), int(uid), inside, hook_id)


def _descends_from_hooks(pid: int, custody: Custody) -> bool:
    me = os.getpid()
    leaders = custody.leaders()
    for _step in range(MAX_ANCESTRY):
        if pid in leaders:
            return True
        parent = parent_of(pid)
        if parent is None:
            return False
        if parent == me:
            return custody.subreaper  # alone in its process: every child is a hook's
        if parent <= 1:
            return False
        pid = parent
    return False
