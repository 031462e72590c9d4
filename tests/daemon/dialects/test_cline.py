"""Cline file hooks: one executable per event, global and workspace folders.

Rules from ``cline-hooks.md`` and ``cline-implementation.md`` (runner A), with hookd's
deliberate choices where Cline's code and docs disagree (see docs/compatibility.md).
"""

from __future__ import annotations

import json
import os
from dataclasses import replace
from pathlib import Path

import pytest
import trio

from hookd.daemon.app import serve
from hookd.daemon.dialects.cline.dialect import documents_folder
from hookd.daemon.errors import ConfigError
from hookd.daemon.settings import load_settings
from hookd_testing import RpcClient, write_executable

PAYLOAD = {
    "taskId": "t1",
    "preToolUse": {"toolName": "write_to_file", "parameters": {"path": "a.js"}},
}


def hook(folder: Path, body: str, event: str = "PreToolUse") -> Path:
    return write_executable(folder / event, f"#!/bin/sh\n{body}\n")


def workspace_hooks(root: Path) -> Path:
    return root / ".clinerules" / "hooks"


async def fire(rpc, roots, event="PreToolUse", payload=None):
    return await rpc.fire(
        "cline", event, [str(r) for r in roots], PAYLOAD if payload is None else payload
    )


async def test_cancel_blocks_with_error_message_and_context(rpc, workspace) -> None:
    """{"cancel": true} blocks; errorMessage is the reason; contextModification is kept."""
    out = {"cancel": True, "errorMessage": "no .js", "contextModification": "WORKSPACE_RULES: ts"}
    hook(workspace_hooks(workspace), f"cat >/dev/null; echo '{json.dumps(out)}'")

    result = await fire(rpc, [workspace])

    assert result["blocked"] is True
    assert result["action"] == "stop"  # the agent cancels the task (tests/agents/cline)
    assert result["reason"] == "no .js"
    assert result["context"] == "WORKSPACE_RULES: ts"
    assert result["native"] == {"cancel": True, "contextModification": "WORKSPACE_RULES: ts",
                                "errorMessage": "no .js"}  # fmt: skip


async def test_stdin_is_cline_camel_case_schema(rpc, workspace) -> None:
    """The hook receives hookName, an epoch-ms timestamp string, workspaceRoots and the block."""
    out = workspace / "stdin.json"
    hook(workspace_hooks(workspace), f"cat > {out}; pwd > {out}.cwd")

    await fire(rpc, [workspace])
    received = json.loads(out.read_text())

    assert received["hookName"] == "PreToolUse"
    assert received["timestamp"].isdigit()
    assert received["workspaceRoots"] == [str(workspace)]
    assert received["taskId"] == "t1"
    assert received["preToolUse"]["parameters"] == {"path": "a.js"}
    assert Path(f"{out}.cwd").read_text().strip() == str(workspace)


async def test_only_executable_regular_files_named_exactly_are_hooks(rpc, workspace) -> None:
    """Non-executable files, directories, and other names are not hooks."""
    folder = workspace_hooks(workspace)
    hook(folder, "echo '{}'").chmod(0o644)
    (folder / "PreToolUse.sh").write_text("#!/bin/sh\necho '{}'\n")
    (folder / "PostToolUse").mkdir()

    pre = await fire(rpc, [workspace])
    post = await fire(rpc, [workspace], "PostToolUse", {})

    assert pre["hooks"] == []
    assert post["hooks"] == []


async def test_symlink_to_an_executable_is_a_hook(rpc, workspace, tmp_path) -> None:
    """A symlink to an executable file is followed (a dangling one is ignored)."""
    target = hook(tmp_path / "elsewhere", 'echo \'{"contextModification": "linked"}\'')
    folder = workspace_hooks(workspace)
    folder.mkdir(parents=True)
    os.symlink(target, folder / "PreToolUse")
    os.symlink(tmp_path / "missing", folder / "PostToolUse")

    result = await fire(rpc, [workspace])
    dangling = await fire(rpc, [workspace], "PostToolUse", {})

    assert result["context"] == "linked"
    assert dangling["hooks"] == []


async def test_global_and_multi_root_hooks_combine(rpc, workspace, tmp_path, settings) -> None:
    """Global and every root's hooks run; cancel if any; contexts \\n\\n, errors \\n, in order."""
    second = tmp_path / "second"
    current = Path(documents_folder(settings.home)) / "Cline" / "Hooks"
    hook(current, """echo '{"contextModification": "global", "errorMessage": "e1"}'""")
    hook(workspace_hooks(workspace), """echo '{"cancel": false, "contextModification": "ws1"}'""")
    hook(workspace_hooks(second), """echo '{"cancel": true, "errorMessage": "e2"}'""")

    result = await fire(rpc, [workspace, second])

    assert [h["layer"] for h in result["hooks"]] == ["global", "workspace", "workspace"]
    assert result["blocked"] is True
    assert result["context"] == "global\n\nws1"
    assert result["reason"] == "e1\ne2"


async def test_debug_text_before_the_json_is_tolerated(rpc, workspace) -> None:
    """Log lines before the JSON object do not hide it (last balanced {...} block)."""
    hook(
        workspace_hooks(workspace),
        """echo 'checking...'; echo '{"cancel": true,'; echo '"errorMessage": "x"}'""",
    )

    result = await fire(rpc, [workspace])

    assert result["blocked"] is True


async def test_removed_should_continue_is_ignored_and_reported(rpc, workspace) -> None:
    """{"shouldContinue": false} does not block (as in Cline), but hookd says why."""
    hook(workspace_hooks(workspace), """echo '{"shouldContinue": false}'""")

    result = await fire(rpc, [workspace])

    assert result["blocked"] is False
    assert "shouldContinue" in result["hooks"][0]["error"]


async def test_one_hook_failing_loses_another_hooks_cancel_by_default(
    rpc, workspace, settings
) -> None:
    """As Cline's Promise.all: a crashing hook discards a sibling's cancel (fail open)."""
    hook(Path(documents_folder(settings.home)) / "Cline" / "Hooks", "echo boom >&2; exit 1")
    hook(workspace_hooks(workspace), """echo '{"cancel": true, "errorMessage": "stop"}'""")

    result = await fire(rpc, [workspace])

    assert result["blocked"] is False
    assert "exited with code 1: boom" in result["hooks"][0]["error"]
    assert any("no hook's answer counts" in w for w in result["warnings"])


async def test_strict_policy_never_loses_another_hooks_cancel(settings, workspace) -> None:
    """cline_failure_policy = "strict": a crashing hook does not discard a sibling's cancel."""
    hook(Path(documents_folder(settings.home)) / "Cline" / "Hooks", "echo boom >&2; exit 1")
    hook(workspace_hooks(workspace), """echo '{"cancel": true, "errorMessage": "stop"}'""")
    async with trio.open_nursery() as nursery:
        await nursery.start(serve, replace(settings, cline_failure_policy="strict"))
        client = await RpcClient.connect(settings.socket_path)
        result = await fire(client, [workspace])
        await client.call("shutdown")
        await client.aclose()

    assert (result["blocked"], result["reason"]) == (True, "stop")
    assert "exited with code 1: boom" in result["hooks"][0]["error"]


async def test_json_is_ignored_on_non_zero_exit_by_default(rpc, workspace) -> None:
    """cline 2.18.0 fails a hook that does not exit 0 open, its valid cancel included."""
    hook(workspace_hooks(workspace), """echo '{"cancel": true}'; exit 3""")

    result = await fire(rpc, [workspace])

    assert result["blocked"] is False
    assert "exited with code 3" in result["hooks"][0]["error"]
    assert "cline_failure_policy" in result["hooks"][0]["error"]


async def test_strict_failure_policy_honours_json_on_any_exit(settings, workspace) -> None:
    """cline_failure_policy = "strict": valid JSON counts whatever the exit code (what
    Cline's docs say), so a hook that cancels and then fails still cancels."""
    hook(workspace_hooks(workspace), """echo '{"cancel": true, "errorMessage": "no"}'; exit 3""")
    async with trio.open_nursery() as nursery:
        await nursery.start(serve, replace(settings, cline_failure_policy="strict"))
        client = await RpcClient.connect(settings.socket_path)
        result = await fire(client, [workspace])
        await client.call("shutdown")
        await client.aclose()

    assert (result["blocked"], result["reason"]) == (True, "no")


def test_failure_policy_setting_is_checked(tmp_path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('cline_failure_policy = "lenient"\n')

    with pytest.raises(ConfigError, match='"agent" or "strict"'):
        load_settings(str(config))


async def test_context_is_capped_at_50000_characters(rpc, workspace) -> None:
    """contextModification past 50,000 characters is cut, with Cline's marker appended."""
    script = "import json; print(json.dumps({'contextModification': 'x' * 50001}))"
    write_executable(
        workspace_hooks(workspace) / "PreToolUse", f"#!/usr/bin/env python3\n{script}\n"
    )

    result = await fire(rpc, [workspace])

    assert result["context"] == "x" * 50000 + "\n\n[... context truncated due to size limit ...]"


async def test_task_cancel_cannot_be_cancelled(rpc, workspace) -> None:
    """TaskCancel is not cancellable: a cancel is ignored and reported."""
    hook(workspace_hooks(workspace), """echo '{"cancel": true}'""", event="TaskCancel")

    result = await fire(rpc, [workspace], "TaskCancel", {"taskCancel": {"taskMetadata": {}}})

    assert result["blocked"] is False
    assert "cannot be cancelled" in result["hooks"][0]["error"]


async def test_exit_zero_without_json_allows(rpc, workspace) -> None:
    """Exit 0 with no JSON is {"cancel": false}."""
    hook(workspace_hooks(workspace), "echo not json")

    result = await fire(rpc, [workspace])

    assert result["blocked"] is False
    assert result["hooks"][0]["error"] is None
    assert result["native"]["cancel"] is False


async def test_script_without_shebang_runs_as_a_shell_script(rpc, workspace) -> None:
    """Like Cline's shell launch, a hook without a shebang is run by /bin/sh."""
    write_executable(workspace_hooks(workspace) / "PreToolUse", """echo '{"cancel": true}'\n""")

    result = await fire(rpc, [workspace])

    assert result["blocked"] is True
