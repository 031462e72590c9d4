"""The files under ``packaging/``: what ``hookd service install`` writes, for an
installation of placeholders (``scripts/regenerate.py`` writes them, and checks in CI that
they say what the code writes: the shipped files and the installed ones cannot drift)."""

from __future__ import annotations

import os

from . import launchd, systemd
from .base import Installation

TEMPLATE = Installation(
    program=("@HOOKD_BIN@",), home="@HOME@", config_home="@CONFIG@", socket="@SOCKET@",
    path="@PATH@", uid=0,
)  # fmt: skip
"""``@HOOKD_BIN@``: the absolute path of ``hookd``; ``@HOME@``: your home folder;
``@SOCKET@``: the socket to pin (launchd); ``@PATH@``: the hooks' ``PATH`` (launchd)."""


def shipped() -> dict[str, str]:
    """Path under the repository -> text."""
    found = {}
    for folder, manager in (("packaging/systemd", systemd), ("packaging/launchd", launchd)):
        for file in manager.files(TEMPLATE):
            found[f"{folder}/{os.path.basename(file.path)}"] = file.text
    return found
