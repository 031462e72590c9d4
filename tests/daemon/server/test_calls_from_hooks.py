"""Calls made from inside a hook: a nested fire is counted and refused past
``max_fire_depth`` (a hook firing its own event would recurse forever), and a hook may
not stop or reconfigure the daemon every agent shares."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

from hookd_testing import RpcClient, claude_settings, command, write_json

HOOKD = f"{shlex.quote(sys.executable)} -m hookd"


async def test_a_hook_firing_its_own_event_is_refused_past_the_depth_cap(
    rpc: RpcClient, daemon, workspace: Path, tmp_path: Path
) -> None:
    log, errors = tmp_path / "depth.log", tmp_path / "errors.log"
    again = (f"cat >/dev/null; echo ran >> {log}; echo '{{}}' | {HOOKD} --socket {daemon.socket} "
             f"fire --agent claude --workspace {workspace} PreToolUse >/dev/null 2>>{errors}; exit 0")  # fmt: skip
    write_json(workspace / ".claude/settings.json", claude_settings("PreToolUse", command(again)))

    result = await rpc.fire("claude", "PreToolUse", [str(workspace)], {"tool_name": "Bash"})

    assert result["hooks"][0]["exitCode"] == 0
    assert log.read_text().split() == ["ran"] * 4  # depth 0 (the agent's fire) to 3
    assert "nested 4 deep; hookd allows 3 (max_fire_depth)" in errors.read_text()


async def test_a_hook_cannot_shut_the_daemon_down(
    rpc: RpcClient, daemon, workspace: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    stop = (
        f"cat >/dev/null; {HOOKD} --socket {daemon.socket} shutdown > {out} 2>&1; echo $? >> {out}"
    )
    write_json(workspace / ".claude/settings.json", claude_settings("Stop", command(stop)))

    await rpc.fire("claude", "Stop", [str(workspace)], {})

    text = out.read_text()
    assert "shutdown was called from inside a hook" in text
    assert text.split()[-1] == "1"
    assert (await rpc.call("status"))["pid"] > 0  # still serving


async def test_a_hook_that_clears_its_environment_is_still_inside_the_hook(
    rpc: RpcClient, daemon, workspace: Path, tmp_path: Path
) -> None:
    """Ancestry, not the environment, says a process runs inside a hook."""
    out = tmp_path / "out"
    stop = (f"cat >/dev/null; env -i PATH=/usr/bin:/bin {HOOKD} --socket {daemon.socket} "
            f"shutdown > {out} 2>&1")  # fmt: skip
    write_json(workspace / ".claude/settings.json", claude_settings("Stop", command(stop)))

    await rpc.fire("claude", "Stop", [str(workspace)], {})

    assert "shutdown was called from inside a hook" in out.read_text()


async def test_an_agent_may_still_shut_down(rpc: RpcClient) -> None:
    assert (await rpc.call("shutdown"))["stopping"] is True
