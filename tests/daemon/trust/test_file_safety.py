"""Files others could write are refused whatever the trust (these tests run with the
fixtures' ``trust_all`` on): group- or world-writable hook and settings files and
scripts, and files another user owns, at every layer, with the reason. A group-writable
file of the owner's private group (``umask 002`` systems) is the owner's alone."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from hookd.daemon.trust.digest import Digests
from hookd_testing import RpcClient, claude_settings, command, write_executable, write_json

TOOL = {"tool_name": "Bash", "tool_input": {"command": "ls"}}


def _only_hook(result: dict) -> dict:
    (hook,) = result["hooks"]
    return hook


async def test_a_world_writable_project_settings_file_is_refused(
    rpc: RpcClient, workspace: Path, tmp_path: Path
) -> None:
    mark = tmp_path / "ran"
    settings_file = write_json(
        workspace / ".claude/settings.json",
        claude_settings("PreToolUse", command(f"cat >/dev/null; echo ran >> {mark}")),
    )
    settings_file.chmod(0o666)

    result = await rpc.fire("claude", "PreToolUse", [str(workspace)], TOOL)

    assert not mark.exists()
    hook = _only_hook(result)
    assert hook["error"].startswith(f"not run: refused: {settings_file} is world-writable")
    assert "chmod go-w" in hook["error"]
    assert result["blocked"] is True
    refused = (await rpc.call("status"))["trust"]["refused"]
    assert [r["path"] for r in refused] == [str(settings_file)]

    settings_file.chmod(0o644)
    await rpc.fire("claude", "PreToolUse", [str(workspace)], TOOL)
    assert mark.exists()
    assert (await rpc.call("status"))["trust"]["refused"] == []


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a file to another group needs root")
async def test_a_group_writable_hook_file_is_refused(
    rpc: RpcClient, workspace: Path, tmp_path: Path
) -> None:
    mark = tmp_path / "ran"
    hook_file = write_executable(
        workspace / ".clinerules/hooks/PreToolUse", f"#!/bin/sh\necho ran >> {mark}\n"
    )
    hook_file.chmod(0o775)
    os.chown(hook_file, 0, 12345)  # a group that is not our own private group

    result = await rpc.fire("cline", "PreToolUse", [str(workspace)], {"preToolUse": {}})

    assert not mark.exists()
    assert "is group-writable (mode 0775)" in _only_hook(result)["error"]


async def test_a_writable_script_named_by_user_settings_is_refused(
    rpc: RpcClient, workspace: Path, tmp_path: Path, isolated_home: Path
) -> None:
    """User-level files are trusted, but not when others could write them: the script a
    user-level command names is checked too."""
    mark = tmp_path / "ran"
    script = write_executable(isolated_home / "bin/guard.sh", f"#!/bin/sh\necho ran >> {mark}\n")
    script.chmod(0o777)
    write_json(
        isolated_home / ".claude/settings.json",
        claude_settings("PreToolUse", command(f"cat >/dev/null; sh {script}")),
    )

    result = await rpc.fire("claude", "PreToolUse", [str(workspace)], TOOL)

    assert not mark.exists()
    assert f"not run: refused: {script} is world-writable" in _only_hook(result)["error"]


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a file to another user needs root")
async def test_a_hook_file_owned_by_another_user_is_refused(
    rpc: RpcClient, workspace: Path, tmp_path: Path
) -> None:
    mark = tmp_path / "ran"
    hook_file = write_executable(workspace / ".cline/hooks/PreToolUse.sh", f"echo ran >> {mark}\n")
    os.chown(hook_file, 12345, 12345)

    result = await rpc.fire("cline-sdk", "PreToolUse", [str(workspace)], TOOL)

    assert not mark.exists()
    assert "is owned by another user (uid 12345)" in _only_hook(result)["error"]


def test_a_file_is_hashed_again_only_after_it_changed(tmp_path: Path) -> None:
    path = tmp_path / "hook.sh"
    path.write_text("one")
    digests = Digests()
    time.sleep(0.05)  # past the racy window (20 ms): an unchanged signature may be trusted

    first = digests.of(str(path))
    assert digests.of(str(path)) == first
    assert digests.computed == 1

    path.write_text("two")
    assert digests.of(str(path)) != first
    assert digests.computed == 2


def test_a_group_writable_file_of_your_private_group_is_yours(tmp_path: Path) -> None:
    import grp
    import pwd

    from hookd.daemon.trust.files import unsafe_reason

    me = pwd.getpwuid(os.geteuid())
    path = tmp_path / "hook.sh"
    path.write_text("true")
    path.chmod(0o664)
    os.chown(path, me.pw_uid, me.pw_gid)
    private = grp.getgrgid(me.pw_gid)
    if private.gr_name != me.pw_name or set(private.gr_mem) - {me.pw_name}:
        pytest.skip("this user has no private group")

    assert unsafe_reason(str(path), os.stat(path)) is None
    path.chmod(0o666)
    assert "world-writable" in (unsafe_reason(str(path), os.stat(path)) or "")


@pytest.mark.parametrize(("policy", "blocks"), [("block", True), ("allow", False)])
async def test_a_refused_hook_is_never_started_and_the_never_ran_rule_decides(
    policy: str, blocks: bool, tmp_path: Path
) -> None:
    from hookd.daemon.all_dialects import DIALECTS
    from hookd.daemon.model import Dialect, FireRequest, HookSpec
    from hookd.daemon.runner.process import ProcessLimits
    from hookd.daemon.runner.runner import run_hook

    mark = tmp_path / "ran"
    spec = HookSpec(Dialect.CLAUDE, "PreToolUse", "/ws/.claude/settings.json", "project",
                    f"touch {mark}", None, 30.0, options={"type": "command", "shell": None},
                    refused="untrusted: the workspace /ws has not been allowed")  # fmt: skip
    request = FireRequest(Dialect.CLAUDE, "PreToolUse", ("/ws",), TOOL)
    module = DIALECTS[Dialect.CLAUDE]

    outcome, verdict = await run_hook(module, spec, request, {}, ProcessLimits(timeout_s=30),
                                      never_ran=policy)  # fmt: skip

    assert not mark.exists()
    assert outcome.exit_code is None
    assert verdict.error == "not run: untrusted: the workspace /ws has not been allowed"
    assert verdict.blocks is blocks
    if blocks:
        assert 'never_ran setting is "block"' in (verdict.reason or "")
