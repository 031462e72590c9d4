"""Which ``hookd-relay`` the relay entries name: this installation's, by its absolute path.

An agent runs its hooks with its own ``PATH``, which often lacks hookd's virtualenv (an
agent started from a desktop launcher, a service, another shell). A bare ``hookd-relay``
then fails to start (``sh: hookd-relay: not found``, exit 127), which Claude Code and
auggie read as a failing hook: the adopted hooks would never run and the action would go
on, silently. So ``adopt`` and ``relay install`` write the path of the relay installed
beside the Python running hookd, and say so when that path may not reach the agent.
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
import sysconfig
import tempfile

from ..dialects.relay_entries import RELAY_PROGRAM

_TEMPORARY = ("/tmp", "/var/tmp", "/dev/shm")


def relay_path() -> str:
    """The absolute path of this installation's ``hookd-relay``: in the scripts folder of
    the Python running hookd (a virtualenv's ``bin``, or the user scheme's ``~/.local/bin``),
    else the one on ``PATH``; the bare name when there is none (``warnings`` says so)."""
    folders = [os.path.dirname(sys.executable), sysconfig.get_path("scripts")]
    user_scheme = f"{os.name}_user"
    if user_scheme in sysconfig.get_scheme_names():
        folders.append(sysconfig.get_path("scripts", user_scheme))
    for folder in folders:
        candidate = os.path.join(folder, RELAY_PROGRAM)
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return os.path.abspath(candidate)
    found = shutil.which(RELAY_PROGRAM)
    return os.path.abspath(found) if found else RELAY_PROGRAM


def shell_word(path: str) -> str:
    """``path`` as one word of a ``sh`` command line (quoted only when it needs it)."""
    return shlex.quote(path)


def warnings(path: str) -> list[str]:
    """What may keep the agent from running the relay at ``path``, in words."""
    if not os.path.isabs(path):
        return [f"no {RELAY_PROGRAM} found beside this hookd ({sys.executable}) nor on "
                f"PATH: the entries name a bare '{RELAY_PROGRAM}', which the agent must find "
                "on its own PATH; reinstall hookd's client package, then run 'hookd relay "
                "install'"]  # fmt: skip
    said = []
    if shell_word(path) != path:
        said.append(f"the relay's path {path!r} has spaces or shell characters: the entries "
                    "quote it, but an entry edited by hand must keep the quotes; a path "
                    "without them is safer (reinstall hookd there, then 'hookd relay "
                    "install')")  # fmt: skip
    temporary = {os.path.realpath(p) for p in (tempfile.gettempdir(), *_TEMPORARY)}
    real = os.path.realpath(path)
    if any(real.startswith(folder + os.sep) for folder in temporary):
        said.append(f"the relay {path} lives in a temporary folder, which may be cleaned up or "
                    "hidden from a sandboxed agent (a private /tmp): install hookd elsewhere, "
                    "then run 'hookd relay install'")  # fmt: skip
    return said
