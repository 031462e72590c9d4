"""For the matrix cells of agents that run the relay entry of every layer (Codex CLI,
Factory Droid): ``hookd relay install`` at a scope, and a project portable file whose one
hook records each shell call, so that a cell can check that the user's portable hooks
still run once per event when the project's relay entries fire beside the user's.
(Added beside ``matrix.py``, which this module does not change.)"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import trio

from agents.portable.matrix import Portable, fire_records, fire_warnings, portable_settings
from hookd.daemon.settings import Settings


async def relay_install(agent: str, home: Path, *scope: str) -> str:
    """``hookd relay install --agent <agent>`` for the case's home (``scope``: more
    arguments, ``--scope project --project <ws>``); what it said."""
    env = {k: v for k, v in os.environ.items() if k != "CODEX_HOME"}
    done = await trio.run_process(
        [sys.executable, "-m", "hookd", "relay", "install", "--agent", agent, "--home",
         str(home), *scope], capture_stdout=True, capture_stderr=True, check=False, env=env,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr.decode()
    return done.stdout.decode()


def write_project_recorder(ws: Path, record: Path) -> Path:
    """``<ws>/.hookd/hooks.json``: a PreToolUse hook on ``Bash`` that answers nothing and
    records each run into ``<record>/env.jsonl`` (the matrix's ``env`` hook, which says
    nothing for a shell call); the file written."""
    record.mkdir(parents=True, exist_ok=True)
    group = dict(portable_settings(record)["hooks"]["PreToolUse"][1], matcher="Bash")
    path = ws / ".hookd" / "hooks.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"hooks": {"PreToolUse": [group]}}, indent=2) + "\n")
    return path


def recorded(record: Path) -> list[dict[str, Any]]:
    """The payloads the project's recorder was given."""
    path = record / "env.jsonl"
    lines = path.read_text().splitlines() if path.exists() else []
    return [json.loads(line) for line in lines if line]


def assert_once_per_event(
    settings: Settings, agent: str, shell: str, portable: Portable, project_runs: Path
) -> None:
    """After the matrix's session (two shell calls, one prompt): each portable hook ran
    once per event, the project's recorder as often, though the agent fired the relay
    entry of both layers for each shell call (in one of the two fires, the user's entry's,
    the three portable hooks of Bash ran; in the other none); no fire warned."""
    assert len(portable.runs("session")) == 1
    assert len(portable.runs("prompt")) == 1
    assert len(portable.runs("rmrf")) == 2  # the rm -rf and the marker command
    assert len(recorded(project_runs)) == 2
    shell_fires = [
        [hook["source"] for hook in record.get("hooks") or ()]
        for record in fire_records(settings)
        if record.get("agent") == agent and record.get("event") == "PreToolUse"
        and record.get("tool") == shell
    ]  # fmt: skip
    assert sorted(len(sources) for sources in shell_fires) == [0, 0, 3, 3], shell_fires
    assert fire_warnings(settings, agent) == []
