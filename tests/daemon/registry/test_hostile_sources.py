"""Hook sources that try to hurt the daemon (FIFOs, /dev/zero, racy mtimes) and folder changes the registry must notice."""

from __future__ import annotations

import os
from functools import partial

import trio

from hookd.daemon.all_dialects import DIALECTS
from hookd.daemon.racy import is_racy
from hookd.daemon.registry.registry import Registry
from hookd_testing import (
    claude_settings,
    command,
    wait_until,
    write_json,
)


async def test_fifo_settings_file_cannot_wedge_the_daemon(rpc, workspace) -> None:
    """A FIFO where a settings file belongs is refused at once, never opened blocking."""
    (workspace / ".claude").mkdir()
    os.mkfifo(workspace / ".claude" / "settings.json")

    with trio.fail_after(10):
        result = await rpc.fire("claude", "Stop", [str(workspace)], {})

    assert result["hooks"] == []
    assert "not a regular file" in result["warnings"][0]
    assert "pid" in await rpc.call("status")


async def test_settings_symlink_to_dev_zero_is_refused(rpc, workspace) -> None:
    """A symlink to /dev/zero is not read (it would never end)."""
    (workspace / ".claude").mkdir()
    os.symlink("/dev/zero", workspace / ".claude" / "settings.json")

    with trio.fail_after(10):
        result = await rpc.fire("claude", "Stop", [str(workspace)], {})

    assert "not a regular file" in result["warnings"][0]


def test_refresh_ignores_files_no_hook_source_lives_under(tmp_path, settings) -> None:
    """A build writing into a root does not touch the registry; a settings write does."""
    root = tmp_path / "root"
    root.mkdir()
    registry = Registry(settings, DIALECTS)
    registry.add_roots([str(root)])
    registry.rescan()
    settings_file = write_json(
        root / ".claude" / "settings.json", claude_settings("Stop", command("x"))
    )

    assert registry.refresh([str(root / "build" / "a.o"), str(root / "README")]) == 0
    assert registry.refresh([str(settings_file)]) == 2  # Claude's and Copilot's source
    assert registry.refresh([str(root / ".claude")]) >= 1
    assert registry.summary()["hooks"]["total"] == 2  # Copilot CLI reads it too


def test_racy_rule() -> None:
    """Content read a tick after the last write is trusted; read in the same tick, not."""
    second = 1_000_000_000

    assert not is_racy(mtime_ns=100 * second + 5, read_at_ns=100 * second + 50_000_005)
    assert is_racy(mtime_ns=100 * second + 5, read_at_ns=100 * second + 10_000_005)
    assert is_racy(mtime_ns=100 * second, read_at_ns=101 * second + 500_000_000)


async def test_status_follows_files_added_to_a_hook_folder(rpc, workspace) -> None:
    """Adding or removing a file in an existing hook folder updates status via the watcher."""
    folder = workspace / ".cline" / "hooks"
    folder.mkdir(parents=True)
    await rpc.call("roots/add", {"roots": [str(workspace)]})

    async def sdk_hooks(expected: int) -> bool:
        status = await rpc.call("status")
        return status["hooks"]["byDialect"].get("cline-sdk", 0) == expected

    (folder / "PreToolUse.sh").write_text("echo '{}'\n")
    await wait_until(partial(sdk_hooks, 1))
    (folder / "PreToolUse.sh").unlink()
    await wait_until(partial(sdk_hooks, 0))
