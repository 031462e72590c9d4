"""Warm Python hooks through the real daemon: a Claude command hook (``sh -c`` with
``$CLAUDE_PROJECT_DIR``, ``python3`` or ``uv run``) decides the same fresh and warm,
``status`` counts the warm starts and the fallbacks, and ``warm_python = false`` turns
it off."""

from __future__ import annotations

import json
import os
import shutil
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


def _project(
    workspace: Path, command: str = 'python3 "$CLAUDE_PROJECT_DIR"/.claude/guard.py'
) -> None:
    (workspace / ".claude").mkdir()
    (workspace / ".claude" / "guard.py").write_text(HOOK)
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
            await daemon.warm.settled()
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
        "uvEnvironments": [],
    }
    assert all(r["reason"] == "rm -rf build is not allowed" for r in results)


async def test_a_uv_run_hook_runs_warm_and_decides_the_same(
    settings: Settings, workspace: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    uv = shutil.which("uv") or str(Path(sys.executable).with_name("uv"))
    if not os.path.exists(uv):
        pytest.skip("uv is not installed (requirements-dev.txt installs it)")
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "uv").symlink_to(uv)
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}:/usr/bin:/bin")
    monkeypatch.setenv("UV_CACHE_DIR", str(tmp_path / "uv-cache"))
    monkeypatch.setenv("UV_OFFLINE", "1")
    monkeypatch.setenv("UV_PYTHON_DOWNLOADS", "never")
    _project(workspace, 'uv run "$CLAUDE_PROJECT_DIR"/.claude/guard.py')
    guard = workspace / ".claude" / "guard.py"
    guard.write_text("# /// script\n# dependencies = []\n# ///\n" + HOOK)
    results, status = await _fires(settings, workspace, 4)
    warm = status["warmPython"]
    assert warm["hits"] == 3
    assert warm["fallbacks"] == {"warming up": 1}  # uv was asked, then the zygote started
    [known] = warm["uvEnvironments"]
    assert known["script"] == str(guard)
    assert known["python"] == known["environment"] + "/bin/python"
    assert [i["interpreter"] for i in warm["interpreters"]] == [known["python"]]
    for result in results:
        assert result["action"] == "block"
        assert result["reason"] == "rm -rf build is not allowed"
