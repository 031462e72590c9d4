"""Qwen Code's hooks through a real daemon: which files, in which order (the project's
first), with what stdin and folder; ``disableAllHooks``; duplicates; hooks run in order
handing a rewrite on (qwen-research.md §1, §3, §4)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hookd_testing import write_json

PRE = {"session_id": "s", "transcript_path": "", "cwd": "", "hook_event_name": "PreToolUse",
       "timestamp": "2026-11-27T21:25:27.779Z", "permission_mode": "yolo",
       "tool_name": "run_shell_command", "tool_input": {"command": "ls"}}  # fmt: skip


def settings_file(path: Path, event: str, *commands: str, **more: Any) -> Path:
    group: dict[str, Any] = {"hooks": [{"type": "command", "command": c} for c in commands]}
    top = more.pop("top", {})
    group.update(more)
    write_json(path, {**top, "hooks": {event: [group]}})
    return path


def payload(workspace: Path, **more: Any) -> dict[str, Any]:
    return {**PRE, "cwd": str(workspace), **more}


async def test_the_project_first_then_the_user(rpc, settings, workspace, tmp_path) -> None:
    """qwen-research.md §1.2, §3.1: project, then user; JSON.stringify's bytes, no newline;
    a nameless command in both files runs once (the project's)."""
    home = Path(settings.home)
    settings_file(home / ".qwen" / "settings.json", "PreToolUse", "echo same",
                  f"cat > {tmp_path}/stdin")  # fmt: skip
    settings_file(workspace / ".qwen" / "settings.json", "PreToolUse", "echo project", "echo same")
    sent = payload(workspace, x=0.000025, u="caf\u00e9\u2028")

    result = await rpc.fire("qwen", "PreToolUse", [str(workspace)], sent)

    assert [(h["layer"], h["command"]) for h in result["hooks"]] == [
        ("project", "echo project"), ("project", "echo same"),
        ("user", f"cat > {tmp_path}/stdin")]  # fmt: skip
    written = json.dumps(sent, separators=(",", ":"), ensure_ascii=False)
    assert (tmp_path / "stdin").read_bytes() == written.replace("2.5e-05", "0.000025").encode()


async def test_disable_all_hooks(rpc, settings, workspace) -> None:
    """§8.2: the user's true switches every hook off; the project's false after it wins."""
    home = Path(settings.home) / ".qwen" / "settings.json"
    settings_file(home, "PreToolUse", "echo user", top={"disableAllHooks": True})
    result = await rpc.fire("qwen", "PreToolUse", [str(workspace)], payload(workspace))
    assert result["hooks"] == []

    write_json(workspace / ".qwen" / "settings.json", {"disableAllHooks": False})
    result = await rpc.fire("qwen", "PreToolUse", [str(workspace)], payload(workspace))
    assert [h["command"] for h in result["hooks"]] == ["echo user"]


async def test_in_order_the_next_hook_gets_the_tool_input(
    rpc, settings, workspace, tmp_path
) -> None:
    """§4.4: one sequential group runs every hook in order; the next hook is given the
    first one's tool_input merged in; the tool's input is not changed."""
    first = json.dumps({"hookSpecificOutput": {"tool_input": {"command": "touch x"}}})
    write_json(Path(settings.home) / ".qwen" / "settings.json", {"hooks": {"PreToolUse": [
        {"sequential": True, "hooks": [{"type": "command", "command": f"echo '{first}'"}]},
        {"hooks": [{"type": "command", "command": f"cat > {tmp_path}/second"}]},
    ]}})  # fmt: skip

    result = await rpc.fire("qwen", "PreToolUse", [str(workspace)], payload(workspace))

    second = json.loads((tmp_path / "second").read_text())
    assert second["tool_input"] == {"command": "touch x"}
    assert result["updatedInput"] is None
    assert result["action"] == "proceed"


async def test_a_deny_and_what_the_relay_would_print(rpc, settings, workspace) -> None:
    settings_file(Path(settings.home) / ".qwen" / "settings.json", "PreToolUse",
                  "echo no >&2; exit 2", "echo '{\"systemMessage\": \"hi\"}'")  # fmt: skip

    result = await rpc.fire("qwen", "PreToolUse", [str(workspace)], payload(workspace))

    assert (result["blocked"], result["reason"], result["action"]) == (True, "no", "block")
    assert result["native"] == {"decision": "block", "reason": "no", "systemMessage": "hi"}


async def test_an_async_hook_answers_nobody(rpc, settings, workspace, tmp_path) -> None:
    """§4.5: ``async: true`` starts the hook in the background; its answer (a deny here)
    reaches nobody, as in Qwen (nothing reads its queue)."""
    deny = json.dumps({"decision": "deny", "reason": "late"})
    write_json(Path(settings.home) / ".qwen" / "settings.json", {"hooks": {"PreToolUse": [
        {"hooks": [{"type": "command", "async": True,
                    "command": f"cat > {tmp_path}/seen; echo '{deny}'"}]}]}})  # fmt: skip

    result = await rpc.fire("qwen", "PreToolUse", [str(workspace)], payload(workspace))

    assert (result["blocked"], result["action"]) == (False, "proceed")
