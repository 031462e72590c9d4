"""``hookd adopt --agent qwen`` on real files through the real ``hookd`` command, and the
relay it installs answering as a Qwen Code hook (issue 26)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import trio

from hookd_testing import write_json
from hookd_testing.relays import ENTRY_RELAY

HOOKD = [sys.executable, "-m", "hookd"]
RELAY = ENTRY_RELAY
GUARD = {"type": "command", "name": "guard", "command": "echo no >&2; exit 2", "timeout": 5}
HTTP = {"type": "http", "url": "http://127.0.0.1:9/x"}
BACKGROUND = {"type": "command", "command": "true", "async": True}
SETTINGS = {"general": {"enableAutoUpdate": False}, "disableAllHooks": False,
            "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [GUARD, HTTP, BACKGROUND]}],
                      "Stop": [{"hooks": [{"type": "command", "command": "true",
                                           "timeout": 1500}]}]}}  # fmt: skip


def hookd(home: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*HOOKD, *args, "--agent", "qwen", "--home", str(home)],
                          capture_output=True, text=True, timeout=60,
                          env={**os.environ, **env})  # fmt: skip


def read(path: Path) -> Any:
    return json.loads(path.read_text())


def test_adopt_moves_the_command_hooks_and_leaves_every_other_setting(tmp_path: Path) -> None:
    """Command hooks move; http and async ones stay with Qwen; the entry's timeout is the
    slowest hook's plus 10 s, in seconds (1500 is Qwen's milliseconds: 1.5 s)."""
    home = tmp_path / "h"
    agent_file = home / ".qwen" / "settings.json"
    write_json(agent_file, SETTINGS)

    done = hookd(home, "adopt", "--scope", "user")

    assert done.returncode == 0, done.stderr
    owned = read(home / ".config" / "hookd" / "qwen" / "settings.json")
    assert owned["hooks"]["PreToolUse"] == [{"matcher": "Bash", "hooks": [GUARD]}]
    agent = read(agent_file)
    assert agent["general"] == SETTINGS["general"]
    assert agent["disableAllHooks"] is False
    assert agent["hooks"]["PreToolUse"][0] == {"matcher": "Bash", "hooks": [HTTP, BACKGROUND]}
    relay = {"type": "command", "name": "hookd", "command": f"{RELAY} qwen", "timeout": 15}
    assert agent["hooks"]["PreToolUse"][1] == {"matcher": "Bash", "hooks": [relay]}
    assert agent["hooks"]["Stop"] == [{"hooks": [{**relay, "timeout": 12}]}]
    assert "stays with the agent: a http hook: Qwen runs it itself" in done.stdout
    assert "stays with the agent: an async hook" in done.stdout

    back = hookd(home, "unadopt", "--scope", "user")
    assert back.returncode == 0, back.stderr
    given_back = read(agent_file)["hooks"]
    assert given_back["PreToolUse"] == [{"matcher": "Bash", "hooks": [HTTP, BACKGROUND, GUARD]}]
    assert given_back["Stop"] == SETTINGS["hooks"]["Stop"]


def test_both_scopes_write_the_same_entry(tmp_path: Path) -> None:
    """Qwen runs one hook of the same name and command once across its files: the
    project's entry is the user's (its timeout covering the user's adopted hooks)."""
    home, project = tmp_path / "h", tmp_path / "p"
    write_json(home / ".qwen" / "settings.json", {"hooks": {"PreToolUse": [{"hooks": [GUARD]}]}})
    write_json(project / ".qwen" / "settings.json",
               {"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "true"}]}]}})  # fmt: skip

    for scope in ("user", "project"):
        done = hookd(home, "adopt", "--scope", scope, "--project", str(project))
        assert done.returncode == 0, done.stderr

    entries = [read(folder / ".qwen" / "settings.json")["hooks"]["PreToolUse"]
               for folder in (home, project)]  # fmt: skip
    assert entries[0] == [{"hooks": [{"type": "command", "name": "hookd",
                                      "command": f"{RELAY} qwen", "timeout": 15}]}]  # fmt: skip
    assert entries[1] == [{"hooks": [{**entries[0][0]["hooks"][0], "timeout": 70}]}]


async def test_the_relay_answers_as_a_qwen_hook(rpc, settings, workspace) -> None:
    """After adopt: the relay entry runs the adopted guard and answers with the merged
    answer Qwen reads (a deny with the guard's stderr as the reason)."""
    home = Path(settings.home)
    write_json(home / ".qwen" / "settings.json", SETTINGS)
    assert hookd(home, "adopt", "--scope", "user").returncode == 0
    event = {"session_id": "s", "transcript_path": "", "cwd": str(workspace),
             "hook_event_name": "PreToolUse", "timestamp": "t", "permission_mode": "yolo",
             "tool_name": "run_shell_command", "tool_input": {"command": "rm -rf /"}}  # fmt: skip
    env = {k: v for k, v in os.environ.items() if not k.startswith("HOOKD_")}

    done = await trio.run_process([RELAY, "qwen"], stdin=json.dumps(event).encode(),
                                  env={**env, "HOOKD_SOCKET": settings.socket_path},
                                  capture_stdout=True, capture_stderr=True, check=False)  # fmt: skip

    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"decision": "block", "reason": "no"}


async def test_no_daemon_answers_by_policy(short_dir: Path, tmp_path: Path) -> None:
    """Letting the action go on: exit 1 with the line (Qwen reads ``Warning: <line>``);
    blocking: a deny that also says ``continue: false``."""
    env = {**os.environ, "HOOKD_SOCKET": str(short_dir / "none.sock"), "HOOKD_NO_SPAWN": "1"}
    event = json.dumps({"hook_event_name": "PreToolUse", "cwd": str(tmp_path)}).encode()
    for policy, code in (("continue", 1), ("block", 0)):
        done = await trio.run_process([RELAY, "qwen"], stdin=event,
                                      env={**env, "HOOKD_RELAY_ON_ERROR": policy},
                                      capture_stdout=True, capture_stderr=True, check=False)  # fmt: skip
        line = done.stderr.decode().strip()
        assert done.returncode == code
        assert line.startswith("hookd-relay: hookd is not running")
        if code == 0:
            assert json.loads(done.stdout) == {"decision": "deny", "reason": line,
                                               "continue": False, "stopReason": line}  # fmt: skip
        else:
            assert done.stdout == b""
