"""A fire's hooks run concurrently, each under its own timeout."""

from __future__ import annotations

from hookd_testing import claude_settings, command, write_json


async def test_hooks_of_one_fire_run_concurrently(rpc, workspace) -> None:
    """Three hooks that each wait until all three have started: only concurrency passes.

    (The commands differ: identical handlers would be de-duplicated to one run.)
    """
    marks = workspace / "started"
    barrier = (
        f'echo x >> {marks}; while [ "$(wc -l < {marks})" -lt 3 ]; do sleep 0.01; done; echo done'
    )
    write_json(workspace / ".claude" / "settings.json",
               claude_settings("Stop", *[command(f"{barrier} {i}", timeout=20) for i in range(3)]))  # fmt: skip

    result = await rpc.fire("claude", "Stop", [str(workspace)], {})

    assert [h["timedOut"] for h in result["hooks"]] == [False, False, False]
    assert [h["exitCode"] for h in result["hooks"]] == [0, 0, 0]


async def test_each_hook_has_its_own_timeout(rpc, workspace) -> None:
    """A hook's timeout ends only that hook; its siblings finish normally."""
    write_json(workspace / ".claude" / "settings.json",
               claude_settings("Stop", command("sleep 30", timeout=0.3), command("echo fine")))  # fmt: skip

    result = await rpc.fire("claude", "Stop", [str(workspace)], {})

    assert result["hooks"][0]["timedOut"] is True
    assert result["hooks"][1]["timedOut"] is False
    assert result["hooks"][1]["exitCode"] == 0


async def test_fire_timeout_caps_every_hook(rpc, workspace) -> None:
    """timeoutMs on the fire bounds hooks whose own timeout is longer."""
    write_json(
        workspace / ".claude" / "settings.json", claude_settings("Stop", command("sleep 30"))
    )

    result = await rpc.fire("claude", "Stop", [str(workspace)], {}, timeoutMs=300)

    assert result["hooks"][0]["timedOut"] is True
    assert result["durationMs"] < 20_000
