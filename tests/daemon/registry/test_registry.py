"""The warm registry: read-your-writes at fire time, and the watcher keeping it current."""

from __future__ import annotations

import json
import os
from pathlib import Path

from hookd_testing import claude_settings, command, wait_until, write_executable, write_json


async def test_read_your_writes_for_settings_files(rpc, workspace) -> None:
    """Each fire right after a settings write runs exactly the hooks written (tight loop)."""
    path = workspace / ".claude" / "settings.json"
    for i in range(40):
        out = {
            "hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": str(i)}
        }
        # Same size every time for i < 10 and within one timestamp tick: stat alone
        # could not tell these versions apart.
        write_json(path, claude_settings("UserPromptSubmit", command(f"echo '{json.dumps(out)}'")))

        result = await rpc.fire("claude", "UserPromptSubmit", [str(workspace)], {"prompt": "p"})

        assert result["context"] == str(i)
    path.unlink()
    assert (await rpc.fire("claude", "UserPromptSubmit", [str(workspace)], {}))["hooks"] == []


async def test_read_your_writes_for_cline_hook_files(rpc, workspace) -> None:
    """Creating, chmod -x/+x and deleting a Cline hook is seen by the very next fire."""
    hook = workspace / ".clinerules" / "hooks" / "PreToolUse"

    async def ran() -> bool:
        result = await rpc.fire("cline", "PreToolUse", [str(workspace)], {})
        return bool(result["hooks"])

    for _ in range(10):
        write_executable(hook, "#!/bin/sh\necho '{}'\n")
        assert await ran()
        hook.chmod(0o644)
        assert not await ran()
        hook.chmod(0o755)
        assert await ran()
        hook.unlink()
        assert not await ran()


async def test_read_your_writes_for_cline_sdk_folders(rpc, workspace) -> None:
    """A Cline SDK hook file added or removed is seen by the next fire."""
    folder = workspace / ".cline" / "hooks"
    folder.mkdir(parents=True)
    for i in range(10):
        (folder / f"PreToolUse{'' if i % 2 else '.sh'}").write_text("echo '{}'\n")
        result = await rpc.fire("cline-sdk", "PreToolUse", [str(workspace)], {})
        assert len(result["hooks"]) == 1
        for entry in folder.iterdir():
            entry.unlink()
        assert (await rpc.fire("cline-sdk", "PreToolUse", [str(workspace)], {}))["hooks"] == []


async def test_fires_differing_in_extra_folders_or_roots_each_read_their_own(
    rpc, workspace, tmp_path
) -> None:
    """A fire's sources are kept per (dialect, roots, extra folders): fires that differ in
    one of these each read their own folders, and a hook written into one of them right
    before a fire is seen by that fire."""
    first, second, other = tmp_path / "first", tmp_path / "second", tmp_path / "other-root"
    for folder in (first, second, other / ".cline" / "hooks"):
        folder.mkdir(parents=True)

    async def hooks(roots: list[Path], extra: list[Path] | None = None) -> list[str]:
        named = {"hooksDirs": [str(p) for p in extra]} if extra else {}
        result = await rpc.fire("cline-sdk", "PreToolUse", [str(r) for r in roots], {}, **named)
        return [h["source"] for h in result["hooks"]]

    for _ in range(5):
        (first / "PreToolUse.sh").write_text("echo '{}'\n")
        assert await hooks([workspace], [first]) == [str(first / "PreToolUse.sh")]
        assert await hooks([workspace], [second]) == []
        (second / "PreToolUse.sh").write_text("echo '{}'\n")
        (first / "PreToolUse.sh").unlink()
        assert await hooks([workspace], [second]) == [str(second / "PreToolUse.sh")]
        assert await hooks([workspace], [first]) == []
        assert await hooks([workspace]) == []
        (second / "PreToolUse.sh").unlink()
        hook = other / ".cline" / "hooks" / "PreToolUse.sh"
        hook.write_text("echo '{}'\n")
        assert await hooks([other]) == [str(hook)]
        assert await hooks([workspace]) == []
        hook.unlink()
        assert await hooks([other]) == []


async def test_watcher_updates_listing_without_any_fire(rpc, workspace) -> None:
    """Registered roots are watched: a new settings file shows up in hooks/list by itself."""
    await rpc.call("roots/add", {"roots": [str(workspace)]})
    write_json(workspace / ".claude" / "settings.json", claude_settings("Stop", command("echo hi")))

    async def listed() -> bool:
        status = await rpc.call("status")
        return status["hooks"]["byDialect"].get("claude") == 1 and status["watcher"]["batches"] > 0

    await wait_until(listed)


async def test_watcher_sees_a_hooks_folder_created_later(rpc, workspace) -> None:
    """mkdir -p .clinerules/hooks + a hook file, after registration, is picked up."""
    await rpc.call("roots/add", {"roots": [str(workspace)]})
    write_executable(workspace / ".clinerules" / "hooks" / "TaskStart", "#!/bin/sh\necho '{}'\n")

    async def listed() -> bool:
        hooks = (await rpc.call("hooks/list"))["hooks"]
        return any(h["event"] == "TaskStart" and h["dialect"] == "cline" for h in hooks)

    await wait_until(listed)


async def test_hooks_list_shows_source_layer_and_errors(rpc, workspace, settings) -> None:
    """hooks/list names each hook's dialect, layer and source file, and each broken file."""
    write_json(
        Path(settings.home) / ".claude" / "settings.json", claude_settings("Stop", command("a"))
    )
    broken = workspace / ".augment" / "settings.json"
    broken.parent.mkdir()
    broken.write_text("{oops")

    listing = await rpc.call("hooks/list", {"roots": [str(workspace)]})

    assert {"dialect": "claude", "layer": "user", "event": "Stop",
            "source": str(Path(settings.home) / ".claude" / "settings.json")}.items() <= listing["hooks"][0].items()  # fmt: skip
    assert listing["errors"][0]["source"] == str(broken)
    assert "invalid JSON" in listing["errors"][0]["error"]


async def test_status_reports_hook_counts_and_timings(rpc, workspace) -> None:
    """status shows per-hook runs and timings after fires."""
    write_json(workspace / ".claude" / "settings.json", claude_settings("Stop", command("true")))
    for _ in range(3):
        await rpc.fire("claude", "Stop", [str(workspace)], {})

    status = await rpc.call("status")

    assert status["fires"] == 3
    assert status["hookStats"][0]["runs"] == 3
    assert status["hookStats"][0]["p50Ms"] > 0
    assert status["pid"] == os.getpid()
    assert {"dialect": "claude", "layer": "project",
            "source": str(workspace / ".claude" / "settings.json")}.items() <= status["hookStats"][0].items()  # fmt: skip


async def test_status_tells_dialects_apart_and_counts_a_new_roots_hooks_at_once(
    rpc, workspace
) -> None:
    """One Cline hook file is a Cline hook and a Cline SDK hook: status keeps their figures
    apart, each with its dialect and layer; and a fire that brings a new root in is
    counted at once, without waiting for the watcher."""
    hook = write_executable(
        workspace / ".clinerules" / "hooks" / "PreToolUse", "#!/bin/sh\necho '{}'\n"
    )
    await rpc.fire("cline", "PreToolUse", [str(workspace)], {})
    counted = (await rpc.call("status"))["hooks"]["byDialect"]
    await rpc.fire("cline-sdk", "PreToolUse", [str(workspace)], {})

    stats = (await rpc.call("status"))["hookStats"]

    assert counted.get("cline") == 1
    assert [(h["dialect"], h["layer"], h["source"], h["runs"]) for h in stats] == [
        ("cline", "workspace", str(hook), 1),
        ("cline-sdk", "workspace", str(hook), 1),
    ]
