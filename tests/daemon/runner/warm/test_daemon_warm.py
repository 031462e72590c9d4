"""Warm Python hooks through the real daemon: a Claude command hook (``sh -c`` with
``$CLAUDE_PROJECT_DIR``) decides the same fresh and warm, ``status`` counts the warm
starts and the fallbacks, and ``warm_python = false`` turns it off."""

from __future__ import annotations

import json
import os
import sys
from dataclasses import replace
from pathlib import Path

import pytest
import trio

from hookd.daemon.app import serve
from hookd.daemon.settings import Settings
from hookd_testing import RpcClient

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux") or not os.path.exists("/usr/bin/python3"),
    reason="warm interpreters need Linux and a system Python",
)

HOOK = """\
import json, sys
event = json.load(sys.stdin)
print(event["tool_input"]["command"] + " is not allowed", file=sys.stderr)
sys.exit(2)
"""


def _project(workspace: Path) -> None:
    (workspace / ".claude").mkdir()
    (workspace / ".claude" / "guard.py").write_text(HOOK)
    command = 'python3 "$CLAUDE_PROJECT_DIR"/.claude/guard.py'
    hooks = {
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": command}]}]
    }
    (workspace / ".claude" / "settings.json").write_text(json.dumps({"hooks": hooks}))


async def _fires(settings: Settings, workspace: Path, count: int) -> tuple[list[dict], dict]:
    results = []
    async with trio.open_nursery() as nursery:
        daemon = await nursery.start(serve, settings)
        client = await RpcClient.connect(settings.socket_path)
        for _ in range(count):
            payload = {"tool_name": "Bash", "tool_input": {"command": "rm -rf build"}}
            results.append(await client.fire("claude", "PreToolUse", [str(workspace)], payload))
            if daemon.custody.warm is not None:
                await daemon.custody.warm.settled()
        status = await client.call("status")
        await client.call("shutdown")
        await client.aclose()
    return results, status


async def test_a_claude_hook_runs_warm_and_decides_the_same(
    settings: Settings, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    _project(workspace)
    results, status = await _fires(settings, workspace, 3)
    warm = status["warmPython"]
    assert warm["enabled"] is True
    assert warm["hits"] == 2
    assert warm["fallbacks"] == {"warming up": 1}
    assert [i["ready"] for i in warm["interpreters"]] == [True]
    assert warm["interpreters"][0]["interpreter"] == "/usr/bin/python3"
    for result in results:
        assert result["action"] == "block"
        assert result["reason"] == "rm -rf build is not allowed"
        assert result["hooks"][0]["exitCode"] == 2


async def test_the_switch_turns_it_off(
    settings: Settings, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    _project(workspace)
    results, status = await _fires(replace(settings, warm_python=False), workspace, 2)
    assert status["warmPython"] == {
        "enabled": False,
        "hits": 0,
        "fallbacks": {},
        "interpreters": [],
    }
    assert all(r["reason"] == "rm -rf build is not allowed" for r in results)
