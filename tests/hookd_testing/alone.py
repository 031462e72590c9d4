"""Running a shell script with a ``hookd serve`` of its own, alone in a pid namespace
where the system lets a user make one: ``hookd doctor`` there sees no other test's daemon
(they run as the same user, beside it). Where no namespace can be made, the script runs
as it is and the caller must allow for other daemons."""

from __future__ import annotations

import functools
import shlex
import shutil
import subprocess
from pathlib import Path

from .cli import HOOKD

NAMESPACE = ["unshare", "--user", "--map-root-user", "--pid", "--fork", "--mount-proc"]


@functools.cache
def namespace() -> tuple[str, ...]:
    """The ``unshare`` prefix, or () where this system allows none."""
    if shutil.which("unshare") is None:
        return ()
    done = subprocess.run([*NAMESPACE, "true"], capture_output=True, timeout=30, check=False)
    return tuple(NAMESPACE) if done.returncode == 0 else ()


def with_daemon(script: str, home: Path, log: Path) -> str:
    """``script`` after a ``hookd serve`` on the default socket that answers ``status``
    (within 60 s), exiting as ``script`` does; the daemon is shut down after (and ends
    with the namespace in any case)."""
    hookd = shlex.join(HOOKD)
    return f"""
        {hookd} serve --home {shlex.quote(str(home))} --log-format json 2>{shlex.quote(str(log))} &
        for _ in $(seq 600); do {hookd} status >/dev/null 2>&1 && break; sleep 0.1; done
        {script}
        status=$?
        {hookd} shutdown >/dev/null 2>&1
        wait
        exit $status
    """
