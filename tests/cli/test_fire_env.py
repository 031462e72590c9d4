"""``hookd fire`` forwards its environment to the hooks, as the relay does (issue 12): a
daemon started by a service manager with a minimal PATH still runs a hook whose program
is found only on the caller's PATH (``uv run ...``, ``npx ...``), in every dialect;
``--no-env`` turns the forwarding off, and hookd's own variables never reach a hook."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from hookd_testing import write_executable, write_json
from hookd_testing.process_daemon import ProcessDaemon, process_daemon

TOOL = "hookd-test-tool"
"""A program on the caller's PATH only: it blocks in the way each dialect reads."""
MINIMAL_PATH = "/usr/bin:/bin"


def _tool(folder: Path) -> None:
    write_executable(
        folder / TOOL,
        """#!/bin/sh
cat > /dev/null
case "$1" in
  exit2) echo "found on the caller's PATH: ${MARK:-no MARK}|${HOOKD_SECRET:-no HOOKD_SECRET}" >&2
         exit 2 ;;
  *) echo '{"cancel": true, "errorMessage": "found on the caller'"'"'s PATH"}' ;;
esac
""",
    )


def _hooks(ws: Path) -> None:
    """One hook per dialect, each naming the tool the way that agent's users do."""
    write_json(ws / ".claude" / "settings.json", {"hooks": {"PreToolUse": [{"hooks": [
        {"type": "command", "command": f"{TOOL} exit2"}]}]}})  # fmt: skip
    write_executable(
        ws / ".clinerules" / "hooks" / "PreToolUse", f"#!/usr/bin/env {TOOL}\n"
    )  # fmt: skip  (cline: run as a file)
    write_executable(ws / ".cline" / "hooks" / "PreToolUse.sh", f"#!/usr/bin/env {TOOL}\n")
    write_json(ws / ".augment" / "settings.json", {"hooks": {"PreToolUse": [{"matcher": ".*",
        "hooks": [{"type": "command", "command": TOOL, "args": ["exit2"]}]}]}})  # fmt: skip


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ProcessDaemon, Path]]:
    """A daemon started the way a service manager starts it: PATH=/usr/bin:/bin."""
    tmp = tmp_path_factory.mktemp("fire-env")
    ws = tmp / "ws"
    _hooks(ws)
    _tool(tmp / "bin")
    env = {"PATH": MINIMAL_PATH, "LANG": "C.UTF-8"}
    with process_daemon(tmp, env=env) as daemon:
        yield daemon, ws


def _fire(daemon: ProcessDaemon, ws: Path, agent: str, *flags: str) -> tuple[int, dict, str]:
    env = {**os.environ, "PATH": f"{ws.parent / 'bin'}:{os.environ['PATH']}", "MARK": "mine",
           "HOOKD_SECRET": "hookd's own", "HOOKD_SOCKET": daemon.socket}  # fmt: skip
    payload = {"tool_name": "Bash", "tool_input": {"command": "ls"}, "hookName": "PreToolUse"}
    event = "tool_call" if agent == "cline-sdk" else "PreToolUse"
    done = subprocess.run(
        [sys.executable, "-m", "hookd", "fire", event, "--agent", agent, "--workspace", str(ws),
         "--progress", "never", *flags],
        input=json.dumps(payload), capture_output=True, text=True, env=env, timeout=60,
    )  # fmt: skip
    return done.returncode, json.loads(done.stdout or "{}"), done.stderr


@pytest.mark.parametrize("agent", ["claude", "cline", "cline-sdk", "augment"])
def test_a_hook_runs_a_program_found_only_on_the_callers_path(served, agent) -> None:
    daemon, ws = served
    code, result, stderr = _fire(daemon, ws, agent)

    assert result.get("blocked") is True, (stderr, result.get("hooks"))
    assert "found on the caller's PATH" in result["reason"]
    assert code in (2, 5)  # block (Cline: a cancel stops the task)


@pytest.mark.parametrize("agent", ["claude", "cline", "cline-sdk", "augment"])
def test_no_env_leaves_the_hook_with_the_daemons_path(served, agent) -> None:
    """With --no-env the hook sees the daemon's minimal PATH: the program is not found,
    and each hook's report names it (a failed hook, which does not block)."""
    daemon, ws = served
    code, result, _stderr = _fire(daemon, ws, agent, "--no-env")

    assert result["blocked"] is False
    assert code == 0
    for hook in result["hooks"]:  # "not found", "No such file", "ENOENT", in each's words
        assert TOOL in hook["error"], hook


def test_the_hook_sees_the_callers_variables_but_not_hookds(served) -> None:
    daemon, ws = served
    _code, result, _stderr = _fire(daemon, ws, "claude")

    assert result["reason"].endswith("mine|no HOOKD_SECRET")
