"""``hookd adopt --agent copilot`` on real files through the real ``hookd`` command, and
the relay it installs answering as a Copilot hook."""

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
GUARD = {"type": "command", "bash": "echo '{\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"no\"}'",
         "timeoutSec": 5}  # fmt: skip
WEB = {"type": "http", "url": "https://example.invalid/hook"}
FILE = {"version": 1, "hooks": {"preToolUse": [GUARD, WEB],
                                "SessionStart": [{"matcher": "x", "hooks": [{"type": "command", "bash": "true"}]}]}}  # fmt: skip


def hookd(home: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*HOOKD, *args, "--agent", "copilot", "--home", str(home)],
                          capture_output=True, text=True, timeout=60,
                          env={**os.environ, **env})  # fmt: skip


def read(path: Path) -> Any:
    return json.loads(path.read_text())


def test_adopt_moves_each_files_command_hooks_and_names_the_file_in_its_entries(
    tmp_path: Path,
) -> None:
    home = tmp_path / "h"
    first = write_json(home / ".copilot" / "hooks" / "a.json", FILE)
    second = write_json(
        home / ".copilot" / "hooks" / "sub" / "b.json", {"hooks": {"preToolUse": [GUARD]}}
    )

    done = hookd(home, "adopt", "--scope", "user")

    assert done.returncode == 0, done.stderr
    owned = home / ".config" / "hookd" / "copilot" / "hooks"
    assert read(owned / "a.json") == {"hooks": {"preToolUse": [GUARD], "SessionStart": FILE["hooks"]["SessionStart"]},
                                      "version": 1}  # fmt: skip
    assert read(owned / "sub" / "b.json") == {"hooks": {"preToolUse": [GUARD]}}
    agent = read(first)["hooks"]
    assert agent["preToolUse"] == [WEB, {"type": "command", "bash": f"{RELAY} copilot {first} preToolUse",
                                         "timeoutSec": 15}]  # fmt: skip
    assert agent["SessionStart"] == [{"type": "command", "bash": f"{RELAY} copilot {first} SessionStart",
                                      "timeoutSec": 40}]  # fmt: skip
    assert read(second)["hooks"]["preToolUse"][0]["bash"] == f"{RELAY} copilot {second} preToolUse"
    assert "a 'http' handler" in done.stdout

    again = hookd(home, "adopt", "--scope", "user")
    assert again.returncode == 0, again.stderr
    assert read(first)["hooks"] == agent  # one relay entry per key, still

    back = hookd(home, "unadopt", "--scope", "user")
    assert back.returncode == 0, back.stderr
    assert read(first)["hooks"] == {
        "preToolUse": [WEB, GUARD],
        "SessionStart": FILE["hooks"]["SessionStart"],
    }
    assert not owned.exists() or not any(owned.rglob("*.json"))


def test_install_and_uninstall(tmp_path: Path) -> None:
    home = tmp_path / "h"
    path = write_json(home / ".copilot" / "hooks" / "a.json", {"hooks": {"preToolUse": [GUARD]}})
    assert hookd(home, "relay", "install", "--scope", "user").returncode == 1  # nothing adopted
    assert hookd(home, "adopt", "--scope", "user").returncode == 0
    assert hookd(home, "relay", "uninstall", "--scope", "user").returncode == 0
    assert read(path)["hooks"] == {}
    assert hookd(home, "relay", "install", "--scope", "user").returncode == 0
    assert "hookd-relay copilot" in read(path)["hooks"]["preToolUse"][0]["bash"]


def test_copilot_home_moves_the_user_scope(tmp_path: Path) -> None:
    home, moved = tmp_path / "h", tmp_path / "elsewhere"
    home.mkdir()
    path = write_json(moved / "hooks" / "a.json", {"hooks": {"preToolUse": [GUARD]}})
    done = hookd(home, "adopt", "--scope", "user", COPILOT_HOME=str(moved))
    assert done.returncode == 0, done.stderr
    assert "hookd-relay copilot" in read(path)["hooks"]["preToolUse"][0]["bash"]


async def test_the_relay_answers_as_a_copilot_hook(rpc, settings, workspace) -> None:
    """After adopt: the relay entry runs the hooks adopted from its own file (only they)
    and answers with the JSON Copilot reads; the entry names the event (a camelCase
    payload does not)."""
    home = Path(settings.home)
    path = write_json(home / ".copilot" / "hooks" / "a.json", {"hooks": {"preToolUse": [GUARD]}})
    write_json(
        home / ".copilot" / "hooks" / "b.json",
        {
            "hooks": {
                "preToolUse": [
                    {
                        "bash": 'echo \'{"permissionDecision":"deny","permissionDecisionReason":"other"}\''
                    }
                ]
            }
        },
    )
    assert hookd(home, "adopt", "--scope", "user").returncode == 0
    event = {"sessionId": "s", "timestamp": 1, "cwd": str(workspace), "toolName": "bash",
             "toolArgs": {"command": "rm -rf /"}}  # fmt: skip
    env = {k: v for k, v in os.environ.items() if not k.startswith("HOOKD_")}

    done = await trio.run_process([RELAY, "copilot", str(path), "preToolUse"],
                                  stdin=json.dumps(event).encode(),
                                  env={**env, "HOOKD_SOCKET": settings.socket_path},
                                  capture_stdout=True, capture_stderr=True, check=False)  # fmt: skip

    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {
        "permissionDecision": "deny",
        "permissionDecisionReason": "no",
    }


async def test_no_daemon_answers_by_policy(short_dir: Path, tmp_path: Path) -> None:
    """Letting the action go on: exit 0 and no answer (exit 1 would deny a tool call);
    blocking: exit 2 with a deny in Copilot's words."""
    env = {**os.environ, "HOOKD_SOCKET": str(short_dir / "none.sock"), "HOOKD_NO_SPAWN": "1"}
    event = json.dumps({"sessionId": "s", "cwd": str(tmp_path)}).encode()
    for policy, code in (("continue", 0), ("block", 2)):
        done = await trio.run_process([RELAY, "copilot", "f.json", "preToolUse"], stdin=event,
                                      env={**env, "HOOKD_RELAY_ON_ERROR": policy},
                                      capture_stdout=True, capture_stderr=True, check=False)  # fmt: skip
        line = done.stderr.decode().strip()
        assert done.returncode == code
        assert line.startswith("hookd-relay: hookd is not running")
        if code == 0:
            assert done.stdout == b""
        else:
            assert json.loads(done.stdout)["permissionDecisionReason"] == line
