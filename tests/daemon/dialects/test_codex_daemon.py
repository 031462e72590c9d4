"""Codex CLI's hooks through a real daemon: which files, in which order, with what stdin,
shell and folder; how several hooks' answers become one (codex-research.md §1, §4, §5.1)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hookd_testing import write_json

PRE = {"session_id": "s", "turn_id": "t", "transcript_path": None, "cwd": "",
       "hook_event_name": "PreToolUse", "model": "m", "permission_mode": "default",
       "tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_use_id": "call_0"}  # fmt: skip


def hooks_file(folder: Path, event: str, *commands: str, matcher: str | None = None) -> Path:
    group: dict[str, Any] = {"hooks": [{"type": "command", "command": c} for c in commands]}
    if matcher is not None:
        group["matcher"] = matcher
    path = folder / "hooks.json"
    write_json(path, {"hooks": {event: [group]}})
    return path


def payload(workspace: Path, **more: Any) -> dict[str, Any]:
    return {**PRE, "cwd": str(workspace), **more}


async def test_the_layers_in_codexs_order(rpc, settings, workspace, tmp_path) -> None:
    """User hooks.json, then the user's config.toml [hooks], then the project's
    (codex-research.md §1.1); every hook gets the same stdin, compact, no newline."""
    out = tmp_path / "order"
    home = Path(settings.home) / ".codex"
    hooks_file(home, "PreToolUse", f"cat > {tmp_path}/stdin; echo user-json >> {out}")
    (home / "config.toml").write_text('[[hooks.PreToolUse]]\n[[hooks.PreToolUse.hooks]]\n'
                                      f'type = "command"\ncommand = "echo user-toml >> {out}"\n')  # fmt: skip
    hooks_file(workspace / ".codex", "PreToolUse", f"echo project >> {out}")
    sent = payload(workspace, x=0.000025)

    result = await rpc.fire("codex", "PreToolUse", [str(workspace)], sent)

    assert [h["source"] for h in result["hooks"]] == [
        str(home / "hooks.json"),
        str(home / "config.toml"),
        str(workspace / ".codex/hooks.json"),
    ]
    assert sorted(out.read_text().split()) == ["project", "user-json", "user-toml"]
    written = json.dumps(sent, separators=(",", ":")).replace("2.5e-05", "0.000025")
    assert (tmp_path / "stdin").read_bytes() == written.encode()  # serde_json's number


async def test_hooks_run_in_bash_in_the_sessions_folder(rpc, settings, workspace, tmp_path) -> None:
    """codex-research.md §4: ``/bin/bash -c``, whatever SHELL says; cwd is the session's."""
    out = tmp_path / "where"
    hooks_file(Path(settings.home) / ".codex", "Stop",
               f'echo "$BASH_VERSION|$(pwd)" > {out}')  # fmt: skip
    session = workspace / "sub"
    session.mkdir()

    await rpc.fire("codex", "Stop", [str(workspace)], {"cwd": str(session)},
                   env={"SHELL": "/bin/sh", "PATH": "/usr/bin:/bin"})  # fmt: skip

    version, folder = out.read_text().strip().split("|")
    assert version
    assert folder == str(session)


async def test_codex_home_in_the_agents_environment_moves_the_user_folder(
    rpc, settings, workspace, tmp_path
) -> None:
    """``CODEX_HOME`` names the user folder: read instead of ~/.codex."""
    moved = tmp_path / "codex-home"
    hooks_file(moved, "PreToolUse", "echo moved >&2; exit 2")
    hooks_file(Path(settings.home) / ".codex", "PreToolUse", "echo default >&2; exit 2")

    result = await rpc.fire("codex", "PreToolUse", [str(workspace)], payload(workspace),
                            env={"CODEX_HOME": str(moved)})  # fmt: skip

    assert [h["source"] for h in result["hooks"]] == [str(moved / "hooks.json")]
    assert result["reason"] == "moved"
    assert result["hooks"][0]["layer"] == "user"


async def test_the_first_blocking_reason_and_every_context(rpc, settings, workspace) -> None:
    """codex-research.md §5.1: blocked by any; the reason of the first blocker in written
    order (the slower one here); every context, in written order; no rewrite."""
    deny = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "c1",
                                   "permissionDecision": "deny",
                                   "permissionDecisionReason": "first"}}  # fmt: skip
    hooks_file(Path(settings.home) / ".codex", "PreToolUse",
               f"sleep 0.3; echo '{json.dumps(deny)}'", "echo second >&2; exit 2",
               """echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", """
               """"additionalContext": "c3"}}'""")  # fmt: skip

    result = await rpc.fire("codex", "PreToolUse", [str(workspace)], payload(workspace))

    assert result["blocked"] is True
    assert result["action"] == "block"
    assert result["reason"] == "first"
    assert result["context"] == "c1\n\nc3"
    assert result["native"]["hookSpecificOutput"]["permissionDecisionReason"] == "first"


async def test_the_rewrite_of_the_hook_that_finished_last(rpc, settings, workspace) -> None:
    """codex-research.md §5.1: ``updatedInput`` from the hook that finished last."""

    def rewrite(command: str) -> str:
        answer = {"hookSpecificOutput": {"hookEventName": "PreToolUse",
                                         "permissionDecision": "allow",
                                         "updatedInput": {"command": command}}}  # fmt: skip
        return f"echo '{json.dumps(answer)}'"

    hooks_file(Path(settings.home) / ".codex", "PreToolUse",
               f"sleep 0.3; {rewrite('slow')}", rewrite("fast"))  # fmt: skip

    result = await rpc.fire("codex", "PreToolUse", [str(workspace)], payload(workspace))

    assert result["updatedInput"] == {"command": "slow"}
    assert result["blocked"] is False
    assert any("finished last" in w for w in result["warnings"])


async def test_matchers_and_aliases(rpc, settings, workspace) -> None:
    """codex-research.md §2.2: exact names; ``Edit`` also names apply_patch."""
    folder = Path(settings.home) / ".codex"
    write_json(folder / "hooks.json", {"hooks": {"PreToolUse": [
        {"matcher": "Ba", "hooks": [{"type": "command", "command": "echo Ba"}]},
        {"matcher": "Edit", "hooks": [{"type": "command", "command": "echo Edit"}]},
        {"matcher": "^ap", "hooks": [{"type": "command", "command": "echo regex"}]},
    ]}})  # fmt: skip

    result = await rpc.fire("codex", "PreToolUse", [str(workspace)],
                            payload(workspace, tool_name="apply_patch"))  # fmt: skip

    assert [h["command"] for h in result["hooks"]] == ["echo Edit", "echo regex"]


async def test_a_hook_the_user_switched_off_stays_off(rpc, settings, workspace) -> None:
    """codex-research.md §6: ``enabled = false`` in the user's [hooks.state]."""
    folder = Path(settings.home) / ".codex"
    path = hooks_file(folder, "Stop", "echo off", "echo on")
    (folder / "config.toml").write_text(f'[hooks.state."{path}:stop:0:0"]\nenabled = false\n')

    result = await rpc.fire("codex", "Stop", [str(workspace)], {"cwd": str(workspace)})

    assert [h["command"] for h in result["hooks"]] == ["echo on"]


async def test_a_broken_file_runs_none_of_its_hooks(rpc, settings, workspace) -> None:
    """codex-research.md §1.3: a file Codex skips whole; hookd says why."""
    folder = Path(settings.home) / ".codex"
    folder.mkdir(parents=True)
    (folder / "hooks.json").write_text('{"hooks": {"Stop": [{"hooks": [{"type": "http"}]}]}}')

    result = await rpc.fire("codex", "Stop", [str(workspace)], {"cwd": str(workspace)})

    assert result["hooks"] == []
    assert any("unknown variant `http`" in w for w in result["warnings"])


async def test_an_enabled_plugins_hooks_run_last_with_its_folder(
    rpc, settings, workspace, tmp_path
) -> None:
    """codex-research.md §1.1, and the agent (``tests/agents/codex`` ``plugin-hook``): a
    plugin Codex installed runs when the user's config.toml enables it, after every other
    source; ``${PLUGIN_ROOT}`` is replaced and set, with ``PLUGIN_DATA``."""
    codex_home = Path(settings.home) / ".codex"
    root = codex_home / "plugins" / "cache" / "market" / "guard" / "1.0.0"
    out = tmp_path / "plugin.out"
    hooks_file(root / "hooks", "PreToolUse",
               f'echo "${{PLUGIN_ROOT}}|$PLUGIN_DATA|$CLAUDE_PLUGIN_ROOT" > {out}')  # fmt: skip
    hooks_file(codex_home, "PreToolUse", "true")
    (codex_home / "config.toml").write_text('[plugins."guard@market"]\nenabled = true\n')

    result = await rpc.fire("codex", "PreToolUse", [str(workspace)], payload(workspace))

    assert [h["layer"] for h in result["hooks"]] == ["user", "plugin"]
    data = codex_home / "plugins" / "data" / "guard-market"
    assert out.read_text().strip() == f"{root}|{data}|{root}"
    (codex_home / "config.toml").write_text('[plugins."guard@market"]\nenabled = false\n')
    again = await rpc.fire("codex", "PreToolUse", [str(workspace)], payload(workspace))
    assert [h["layer"] for h in again["hooks"]] == ["user"]


async def test_managed_hooks_first_and_managed_only(rpc, settings, workspace) -> None:
    """codex-research.md §1.1, and the agent (``managed-hooks-first``, ``managed-only``)."""
    system = Path(settings.system_root) / "etc" / "codex"
    system.mkdir(parents=True)
    table = '[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\ncommand = "echo {}"\n'
    (system / "requirements.toml").write_text(table.format("managed"))
    (system / "config.toml").write_text(table.format("system"))
    hooks_file(Path(settings.home) / ".codex", "Stop", "echo user")

    result = await rpc.fire("codex", "Stop", [str(workspace)], {"cwd": str(workspace)})
    assert [h["command"] for h in result["hooks"]] == ["echo managed", "echo system", "echo user"]

    (system / "requirements.toml").write_text("allow_managed_hooks_only = true\n"
                                              + table.format("managed"))  # fmt: skip
    only = await rpc.fire("codex", "Stop", [str(workspace)], {"cwd": str(workspace)})
    assert [h["command"] for h in only["hooks"]] == ["echo managed", "echo system"]


async def test_the_plugin_folder_is_no_source_error(rpc, settings, workspace) -> None:
    """The user's Codex folder is read as a folder of plugins: ``status`` counts its hooks
    and says nothing of it (reading the folder as a file would be an error)."""
    hooks_file(Path(settings.home) / ".codex", "Stop", "true")
    await rpc.fire("codex", "Stop", [str(workspace)], {"cwd": str(workspace)})

    status = await rpc.call("status")

    assert status["sourceErrors"] == []
    assert status["hooks"]["byDialect"]["codex"] == 1
