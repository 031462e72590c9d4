"""Run a command in a fresh network namespace whose only interface is loopback.

``unshare -n`` as root (CI), else ``unshare -rn`` (unprivileged user namespaces). The
command starts after ``lo`` is up; nothing inside can reach any address but 127.0.0.1.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Sequence

UP_THEN_EXEC = 'ip link set lo up && ip -o addr show lo | grep -q "127.0.0.1" && exec "$@"'


def netns_argv(argv: Sequence[str]) -> list[str]:
    """``argv`` wrapped to run in a loopback-only network namespace."""
    missing = [tool for tool in ("unshare", "ip") if shutil.which(tool) is None]
    if missing:
        raise RuntimeError(
            f"{', '.join(missing)} not found: the agent tests need util-linux's unshare and "
            "iproute2's ip to isolate the agent in a loopback-only network namespace"
        )
    flags = "-n" if os.geteuid() == 0 else "-rn"
    return ["unshare", flags, "sh", "-c", UP_THEN_EXEC, "sh", *argv]


def check_netns() -> None:
    """Fail with what is missing when a loopback-only namespace cannot be had."""
    done = subprocess.run(netns_argv(["true"]), capture_output=True, text=True, timeout=30)
    if done.returncode != 0:
        raise RuntimeError(
            "cannot create a loopback-only network namespace (unshare -n / -rn failed: "
            f"{done.stderr.strip() or done.returncode}); run the agent tests as root or "
            "where unprivileged user namespaces are allowed"
        )
