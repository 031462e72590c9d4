"""The matrix's relay install for one agent, as a user runs it: the real ``hookd relay
install --agent AGENT`` on the case's home (user scope: the entries the user's portable
hooks file needs), asserted to succeed and to write the relay entries."""

from __future__ import annotations

import sys
from pathlib import Path

import trio


async def relay_install(agent: str, home: Path, ws: Path) -> str:
    """``hookd relay install --agent AGENT`` for ``home`` (run from ``ws``); its output."""
    done = await trio.run_process(
        [sys.executable, "-m", "hookd", "relay", "install", "--agent", agent,
         "--home", str(home), "--project", str(ws)],
        capture_stdout=True, capture_stderr=True, check=False,
    )  # fmt: skip
    said = done.stdout.decode()
    assert done.returncode == 0, done.stderr.decode()
    assert "wrote " in said, said
    return said
