"""What ``hookd relay install --http`` still needs once the entries are written: the
passcode in the agent's environment and the daemon's http entry turned on (the entries'
form is the agent's, ``dialects/claude/http_relay.py``)."""

from __future__ import annotations

import os

from ..server.http_passcode import PASSCODE_ENV, export_line, load, load_or_create
from ..settings import Settings, config_file_path


def readiness(settings: Settings, config: str | None, *, dry_run: bool) -> list[str]:
    """What is still needed for the entries to reach hookd, in words: the passcode in the
    agent's environment (made now, unless ``dry_run``), and ``http_entry`` turned on."""
    passcode = load(settings.state_dir) if dry_run else load_or_create(settings.state_dir)
    notes = []
    if passcode is None or os.environ.get(PASSCODE_ENV) != passcode:
        notes.append(f"put the passcode in the agent's environment (your shell profile, before "
                     f"you start claude): {export_line(settings.state_dir)}")  # fmt: skip
    if not settings.http_entry:
        path = config_file_path(config) or os.path.join(
            os.environ.get("XDG_CONFIG_HOME") or os.path.expanduser("~/.config"),
            "hookd", "config.toml",
        )  # fmt: skip
        notes.append(f"turn the http entry on: add 'http_entry = true' to {path}, then restart "
                     "hookd ('hookd shutdown'; the next session starts it)")  # fmt: skip
    return notes
