"""GitHub Copilot CLI's hooks through a real daemon: which files, in which order, with what
stdin, shell, folder and variables; the chain and its combination (copilot-research.md
§1.1, §3, §4, §5)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hookd_testing import write_json

PRE = {"sessionId": "s", "timestamp": 1795803746233, "cwd": "", "toolName": "bash",
       "toolArgs": {"command": "ls", "description": "t"}}  # fmt: skip


def hooks(path: Path, **events: list[Any]) -> Path:
    return write_json(path, {"version": 1, "hooks": events})


async def test_the_sources_in_copilots_order(rpc, settings, workspace, tmp_path) -> None:
    """copilot-research.md §1.1: user folder, user settings, repo folder, the repo's
    settings files; in each file camelCase before PascalCase, each its payload form."""
    out = tmp_path / "order"
    home = Path(settings.home) / ".copilot"
    hooks(home / "hooks" / "u.json", PreToolUse=[{"bash": f"cat > {tmp_path}/pascal; echo U-P >> {out}"}],
          preToolUse=[{"bash": f"cat > {tmp_path}/camel; echo U-c >> {out}"}])  # fmt: skip
    write_json(home / "settings.json", {"hooks": {"preToolUse": [{"bash": f"echo S >> {out}"}]}})
    hooks(workspace / ".github" / "hooks" / "r.json", preToolUse=[{"bash": f"echo R >> {out}"}])
    write_json(workspace / ".claude" / "settings.json",
               {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": f"echo C >> {out}"}]}]}})  # fmt: skip
    sent = {**PRE, "cwd": str(workspace)}

    result = await rpc.fire("copilot", "preToolUse", [str(workspace)], sent)

    assert result["action"] == "proceed"
    assert out.read_text().split() == ["U-c", "U-P", "S", "R", "C"]
    assert (tmp_path / "camel").read_bytes() == json.dumps(sent, separators=(",", ":")).encode()
    pascal = json.loads((tmp_path / "pascal").read_bytes())
    assert pascal["tool_name"] == "Bash"
    assert pascal["hook_event_name"] == "PreToolUse"


async def test_a_deny_ends_the_chain_and_a_rewrite_is_handed_on(
    rpc, settings, workspace, tmp_path
) -> None:
    """copilot-research.md §5.3."""
    home = Path(settings.home) / ".copilot"
    rewrite = json.dumps({"modifiedArgs": {"command": "echo safe"}})
    deny = json.dumps({"permissionDecision": "deny", "permissionDecisionReason": "no"})
    hooks(home / "hooks" / "h.json", preToolUse=[
        {"bash": f"echo '{rewrite}'"}, {"bash": f"cat > {tmp_path}/second"},
        {"bash": f"echo '{deny}'"}, {"bash": f"touch {tmp_path}/never"}])  # fmt: skip

    result = await rpc.fire(
        "copilot", "preToolUse", [str(workspace)], {**PRE, "cwd": str(workspace)}
    )

    assert json.loads((tmp_path / "second").read_text())["toolArgs"] == {"command": "echo safe"}
    assert not (tmp_path / "never").exists()
    assert len(result["hooks"]) == 3
    assert result["blocked"]
    assert result["action"] == "block"
    assert result["reason"] == "Denied by preToolUse hook: no"
    assert result["updatedInput"] is None
    assert result["native"] == {"permissionDecision": "deny", "permissionDecisionReason": "no"}


async def test_the_environment_and_folder(rpc, settings, workspace, tmp_path) -> None:
    """copilot-research.md §4.2, §4.3: the project root; COPILOT_HOOK_DIR; no tokens."""
    home = Path(settings.home) / ".copilot"
    (workspace / "sub").mkdir()
    hooks(workspace / ".github" / "hooks" / "d" / "h.json", sessionStart=[
        {"bash": f"pwd > {tmp_path}/cwd; env > {tmp_path}/env", "cwd": "sub"}])  # fmt: skip
    assert home  # the user folder stays empty
    event = {
        "sessionId": "s",
        "timestamp": 1,
        "cwd": str(workspace),
        "source": "new",
        "initialPrompt": "p",
    }

    await rpc.fire(
        "copilot",
        "sessionStart",
        [str(workspace)],
        event,
        env={"GITHUB_TOKEN": "t", "GH_TOKEN": "g"},
    )

    assert (tmp_path / "cwd").read_text().strip() == str(workspace / "sub")
    env = dict(
        line.split("=", 1) for line in (tmp_path / "env").read_text().splitlines() if "=" in line
    )
    assert env["COPILOT_HOOK_DIR"] == str(workspace / ".github" / "hooks" / "d")
    assert env["COPILOT_PROJECT_DIR"] == env["CLAUDE_PROJECT_DIR"] == str(workspace)
    assert "GITHUB_TOKEN" not in env
    assert env["GH_TOKEN"] == "g"


async def test_a_relay_fire_runs_only_the_entrys_own_file(
    rpc, settings, workspace, tmp_path
) -> None:
    """The relay's fire (``relay``) names its entry's file and key: only the hooks adopted
    from that file, of that key."""
    home = Path(settings.home)
    owned = home / ".config" / "hookd" / "copilot" / "hooks"
    hooks(owned / "a.json", preToolUse=[{"bash": f"echo a >> {tmp_path}/ran"}],
          PreToolUse=[{"bash": f"echo A >> {tmp_path}/ran"}])  # fmt: skip
    hooks(owned / "b.json", preToolUse=[{"bash": f"echo b >> {tmp_path}/ran"}])
    agent_file = home / ".copilot" / "hooks" / "a.json"
    event = {**PRE, "cwd": str(workspace)}

    result = await rpc.call("relay", {"agent": "copilot", "args": [str(agent_file), "preToolUse"],
                                      "stdin": json.dumps(event), "cwd": str(workspace), "env": {}})  # fmt: skip

    assert result["exitCode"] == 0
    assert (tmp_path / "ran").read_text().split() == ["a"]


async def test_copilot_home_in_the_agents_environment_moves_the_user_folder(
    rpc, settings, workspace, tmp_path
) -> None:
    """copilot-research.md §1.1: `$COPILOT_HOME` replaces `~/.copilot` entirely (its
    `hooks/` and its `settings.json`), in the user's place in the order."""
    out = tmp_path / "order"
    hooks(
        Path(settings.home) / ".copilot" / "hooks" / "h.json",
        preToolUse=[{"bash": f"echo home >> {out}"}],
    )
    moved = tmp_path / "moved"
    hooks(moved / "hooks" / "h.json", preToolUse=[{"bash": f"echo moved >> {out}"}])
    write_json(
        moved / "settings.json",
        {"hooks": {"preToolUse": [{"bash": f"echo moved-settings >> {out}"}]}},
    )
    hooks(workspace / ".github" / "hooks" / "r.json", preToolUse=[{"bash": f"echo repo >> {out}"}])

    await rpc.fire("copilot", "preToolUse", [str(workspace)], {**PRE, "cwd": str(workspace)},
                   env={"COPILOT_HOME": str(moved)})  # fmt: skip

    assert out.read_text().split() == ["moved", "moved-settings", "repo"]
