"""Where the daemon listens by default; shared by the daemon and every client.

Only ``os`` and ``sys`` here: this module is on the path of every CLI start-up.
"""

from __future__ import annotations

import os
import sys

SOCKET_ENV = "HOOKD_SOCKET"
"""Environment variable that overrides the socket path for both ends."""

SOCKET_NAME = "hookd.sock"


def runtime_dir() -> str:
    """The per-user private directory that holds the socket and the lock file.

    ``$XDG_RUNTIME_DIR/hookd`` when the variable is set (systemd user sessions);
    otherwise ``$TMPDIR/hookd-<uid>`` (``/tmp/hookd-<uid>``), which the daemon creates
    with mode 0700 and refuses to use when another user owns it or it is too open.
    """
    xdg = os.environ.get("XDG_RUNTIME_DIR")
    if xdg and os.path.isabs(xdg):
        return os.path.join(xdg, "hookd")
    uid = os.getuid() if hasattr(os, "getuid") else 0
    tmp = os.environ.get("TMPDIR") or "/tmp"
    return os.path.join(tmp, f"hookd-{uid}")


def default_socket_path() -> str:
    """The socket path a client should connect to (``HOOKD_SOCKET`` wins)."""
    override = os.environ.get(SOCKET_ENV)
    if override:
        return override
    if sys.platform == "win32":
        # A pipe name cannot hold a backslash (DOMAIN\user); the whole name is at most
        # 256 characters. Without USERNAME, fall back to USER before a shared name.
        user = os.environ.get("USERNAME") or os.environ.get("USER") or "user"
        return (r"\\.\pipe\hookd-" + user.replace("\\", "_").replace("/", "_"))[:256]
    return os.path.join(runtime_dir(), SOCKET_NAME)
