"""Whether this process runs inside a hook: ``hookd allow`` and ``hookd deny`` refuse to
(a hook must never grant trust, to itself or to another workspace).

Inside a hook means: this process or an ancestor carries a hook's ``HOOKD_HOOK_ID`` in
the environment it started with, or an ancestor is a ``hookd serve`` daemon (whose only
children are hooks; with the child subreaper it also adopts what they orphan, so a hook
that cleared its environment and detached is still found). Linux ``/proc``; elsewhere
only the environment variable is seen.
"""

from __future__ import annotations

import os

from ..procfs import environment_value, parent_of

HOOK_ID_ENV = "HOOKD_HOOK_ID"
"""The same name as ``runner.custody.HOOK_ID_ENV`` (not imported: that module loads trio)."""
MAX_ANCESTRY = 64


def hook_ancestor() -> str | None:
    """How this process is inside a hook (a sentence), or None when it is not."""
    if os.environ.get(HOOK_ID_ENV):
        return f"its environment carries {HOOK_ID_ENV}"
    pid = os.getppid()
    for _step in range(MAX_ANCESTRY):
        if pid <= 1:
            return None
        if environment_value(pid, HOOK_ID_ENV) is not None:
            return f"its ancestor process {pid} runs inside a hook ({HOOK_ID_ENV})"
        if _is_daemon(pid):
            return f"it descends from the hookd daemon (process {pid})"
        parent = parent_of(pid)
        if parent is None or parent == pid:
            return None
        pid = parent
    return None


def _is_daemon(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
            argv = [arg.decode(errors="replace") for arg in cmdline.read().split(b"\0") if arg]
    except OSError:
        return False
    if "serve" not in argv:
        return False
    before = argv[: argv.index("serve")]
    return any(os.path.basename(arg) == "hookd" for arg in before)
