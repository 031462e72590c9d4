"""Show a case's ``etc`` folder over ``/etc`` (an agent's system files live there), in the
calling process's own mount namespace only (standard library only)."""

from __future__ import annotations

import os
import subprocess


def overlay_etc(etc: str) -> None:
    """Mount ``etc`` over ``/etc``: refused unless the driver was started in a mount
    namespace of its own (``unshare -m``), so the machine's ``/etc`` is never touched."""
    if os.readlink("/proc/self/ns/mnt") == os.readlink(f"/proc/{os.getppid()}/ns/mnt"):
        raise SystemExit("the driver must run in its own mount namespace to show a case's /etc")
    subprocess.run(["mount", "-t", "overlay", "overlay", "-o", f"lowerdir={etc}:/etc", "/etc"],
                   check=True)  # fmt: skip
