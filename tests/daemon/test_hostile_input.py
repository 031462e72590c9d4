"""Input that no parser foresaw (JSON nested past Python's recursion limit) in a settings
file or on a hook's stdout: it is that file's or that hook's problem, reported; another
hook's block still stands and the daemon keeps serving, whether a fire or the watcher
reads it first."""

from __future__ import annotations

from pathlib import Path

import pytest

from hookd_testing import (
    RpcClient,
    claude_settings,
    command,
    wait_until,
    write_executable,
    write_json,
)

DEEP = '{"hooks": ' + "[" * 5000 + "]" * 5000 + "}"
"""Valid JSON (a few KB), nested deeper than Python's parser can go."""


def handler(dialect: str, folder: Path, name: str, body: str) -> dict[str, str]:
    """A hook running ``body``: a command for Claude, a script for Augment (which runs
    nothing but script files)."""
    if dialect == "claude":
        return command(body)
    return command(str(write_executable(folder / f"{name}.sh", f"#!/bin/sh\n{body}\n")))


def system_blocker(root: Path, dialect: str) -> None:
    """A managed/system hook that blocks PreToolUse with exit 2."""
    blocker = handler(dialect, root, "blocker", "echo 'policy says no' >&2; exit 2")
    folder = "claude-code" if dialect == "claude" else "augment"
    name = "managed-settings.json" if dialect == "claude" else "settings.json"
    write_json(root / "etc" / folder / name, claude_settings("PreToolUse", blocker, matcher=".*"))


def project_file(workspace: Path, dialect: str) -> Path:
    folder = ".claude" if dialect == "claude" else ".augment"
    return workspace / folder / "settings.json"


@pytest.mark.parametrize("dialect", ["claude", "augment"])
async def test_a_settings_file_nested_too_deeply_is_that_files_error(
    rpc: RpcClient, workspace: Path, settings, dialect: str
) -> None:
    system_blocker(Path(settings.system_root), dialect)
    path = project_file(workspace, dialect)
    path.parent.mkdir(parents=True)
    path.write_text(DEEP)

    result = await rpc.fire(dialect, "PreToolUse", [str(workspace)], {"tool_name": "Bash"})

    assert result["blocked"] is True
    prefix = "[hook:PreToolUse]: " if dialect == "augment" else ""  # auggie's own wording
    assert result["reason"] == prefix + "policy says no"
    assert any("nested too deeply" in w for w in result["warnings"]), result["warnings"]


async def test_the_watcher_survives_a_file_nested_too_deeply(
    rpc: RpcClient, workspace: Path
) -> None:
    """Written after the root is watched, so the watcher reads it before any fire."""
    await rpc.call("roots/add", {"roots": [str(workspace)]})
    path = project_file(workspace, "claude")
    path.parent.mkdir(parents=True)
    path.write_text(DEEP)

    async def reported() -> bool:
        errors = (await rpc.call("status"))["sourceErrors"]
        return any("nested too deeply" in e["error"] for e in errors)

    await wait_until(reported)
    write_json(path, claude_settings("Stop", command("echo still here")))
    result = await rpc.fire("claude", "Stop", [str(workspace)], {})

    assert [h["command"] for h in result["hooks"]] == ["echo still here"]


@pytest.mark.parametrize("dialect", ["claude", "augment", "cline"])
async def test_a_hook_printing_json_nested_too_deeply_never_loses_a_block(
    rpc: RpcClient, workspace: Path, settings, dialect: str
) -> None:
    printer = f"cat >/dev/null; printf '%s' '{DEEP}'"
    if dialect == "cline":
        hooks = workspace / ".clinerules" / "hooks"
        hooks.mkdir(parents=True)
        (hooks / "PreToolUse").write_text(
            "#!/bin/sh\ncat >/dev/null\n" + printer + "\nprintf '\\n{\"cancel\": true}'\n"
        )
        (hooks / "PreToolUse").chmod(0o755)
    else:
        system_blocker(Path(settings.system_root), dialect)
        deep = handler(dialect, workspace, "deep", printer)
        write_json(project_file(workspace, dialect),
                   claude_settings("PreToolUse", deep, matcher=".*"))  # fmt: skip

    result = await rpc.fire(dialect, "PreToolUse", [str(workspace)], {"tool_name": "Bash"})

    assert result["blocked"] is True
    # every hook ran, in its dialect's order: Claude's managed hook comes last, Augment's
    # system hook first
    expected = {"cline": [0], "claude": [0, 2], "augment": [2, 0]}[dialect]
    assert [h["exitCode"] for h in result["hooks"]] == expected
