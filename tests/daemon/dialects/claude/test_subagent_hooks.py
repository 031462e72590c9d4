"""Subagent frontmatter hooks (``.claude/agents/*.md``), as Claude Code 2.1.328 runs them
(pinned by tests/agents/claude cases ``subagent-frontmatter-*``): on the events fired
inside the subagent the fire's ``agent_type`` names, ``Stop`` as ``SubagentStop``, a
project definition over a user one, and only in a project trusted in Claude Code."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hookd_testing import RpcClient, claude_settings, command, write_json

INSIDE = {"agent_id": "a1", "agent_type": "checker", "tool_name": "Bash",
          "tool_input": {"command": "ls"}}  # fmt: skip


def definition(folder: Path, hooks: dict[str, Any], name: str = "checker") -> Path:
    """A subagent definition whose frontmatter declares ``hooks`` (JSON is YAML)."""
    path = folder / ".claude" / "agents" / f"{name}-definition.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"---\nname: {name}\ndescription: d\nhooks: {json.dumps(hooks)}\n---\nBody\n")
    return path


def deny(reason: str, event: str = "PreToolUse") -> dict[str, Any]:
    return {event: [{"matcher": "Bash", "hooks": [command(f"echo {reason} >&2; exit 2")]}]}


def trust(home: Path, project: Path) -> None:
    write_json(
        home / ".claude.json", {"projects": {str(project): {"hasTrustDialogAccepted": True}}}
    )


async def fire(rpc: RpcClient, workspace: Path, payload: dict[str, Any], event: str = "PreToolUse"):
    return await rpc.fire("claude", event, [str(workspace)], payload)


async def test_a_subagents_hooks_run_inside_it_only(rpc, workspace, isolated_home) -> None:
    definition(workspace, deny("subagent-says-no"))
    trust(isolated_home, workspace)

    inside = await fire(rpc, workspace, INSIDE)
    main_thread = await fire(rpc, workspace, {k: INSIDE[k] for k in ("tool_name", "tool_input")})
    other = await fire(rpc, workspace, {**INSIDE, "agent_type": "another"})
    no_id = await fire(rpc, workspace, {k: v for k, v in INSIDE.items() if k != "agent_id"})

    assert (inside["blocked"], inside["reason"]) == (True, "subagent-says-no")
    assert inside["hooks"][0]["layer"] == "agent"
    assert [r["hooks"] for r in (main_thread, other, no_id)] == [[], [], []]


async def test_stop_runs_on_subagent_stop_and_nothing_on_subagent_start(
    rpc, workspace, isolated_home
) -> None:
    hooks = {"Stop": [{"hooks": [command("echo '{\"systemMessage\": \"sub stopped\"}'")]}],
             "SubagentStart": [{"hooks": [command("true")]}]}  # fmt: skip
    definition(workspace, hooks)
    trust(isolated_home, workspace)
    payload = {"agent_id": "a1", "agent_type": "checker"}

    stopped = await fire(rpc, workspace, payload, "SubagentStop")
    main_stop = await fire(rpc, workspace, payload, "Stop")
    started = await fire(rpc, workspace, payload, "SubagentStart")

    assert stopped["systemMessage"] == "sub stopped"
    assert main_stop["hooks"] == started["hooks"] == []


async def test_the_project_definition_wins_and_needs_claude_codes_trust(
    rpc, workspace, isolated_home
) -> None:
    definition(workspace, deny("project-says-no"))
    definition(isolated_home, deny("user-says-no"))

    untrusted = await fire(rpc, workspace, INSIDE)
    trust(isolated_home, workspace)
    trusted = await fire(rpc, workspace, INSIDE)

    assert untrusted["hooks"] == []
    assert any("hasTrustDialogAccepted" in w for w in untrusted["warnings"])
    assert trusted["reason"] == "project-says-no"


async def test_a_users_subagent_needs_no_trust(rpc, workspace, isolated_home) -> None:
    definition(isolated_home, deny("user-says-no"))

    result = await fire(rpc, workspace, INSIDE)

    assert result["reason"] == "user-says-no"


async def test_a_handler_also_in_settings_runs_once_and_edits_are_seen(
    rpc, workspace, isolated_home, tmp_path
) -> None:
    marks = tmp_path / "marks"
    handler = command(f"echo x >> {marks}")
    write_json(workspace / ".claude" / "settings.json", claude_settings("PreToolUse", handler))
    path = definition(workspace, {"PreToolUse": [{"hooks": [handler]}]})
    trust(isolated_home, workspace)

    once = await fire(rpc, workspace, INSIDE)
    path.write_text(path.read_text().replace("checker", "renamed"))
    renamed = await fire(rpc, workspace, INSIDE)

    assert len(once["hooks"]) == 1
    assert marks.read_text() == "x\nx\n"  # the settings copy, each time
    assert len(renamed["hooks"]) == 1


async def test_a_broken_definition_is_reported(rpc, workspace, isolated_home) -> None:
    """A definition neither of the agent's two readings parses is reported as a settings
    file's error is: in every fire's warnings (from inside the subagent or not), in
    ``status`` and in ``hooks/list``."""
    path = workspace / ".claude" / "agents" / "broken.md"
    path.parent.mkdir(parents=True)
    path.write_text("---\nname: checker\nhooks:\n    PreToolUse: []\n  Stop: []\n---\n")
    trust(isolated_home, workspace)

    inside = await fire(rpc, workspace, INSIDE)
    main_thread = await fire(rpc, workspace, {k: INSIDE[k] for k in ("tool_name", "tool_input")})
    status = await rpc.call("status")
    listing = await rpc.call("hooks/list", {})

    for result in (inside, main_thread):
        assert any(f"{path}: the frontmatter is not valid YAML" in w for w in result["warnings"])
    for errors in (status["sourceErrors"], listing["errors"]):
        assert [e["source"] for e in errors] == [str(path.parent)]
        assert "not valid YAML" in errors[0]["error"]


async def test_frontmatter_is_yaml_1_2_and_once_is_not_honoured_there(
    rpc, workspace, isolated_home, tmp_path
) -> None:
    """``timeout: 0o1`` is one second in YAML 1.2 (Bun's reading; PyYAML's 1.1 makes it a
    string), and a frontmatter hook with ``once: true`` runs on every fire from inside
    the subagent: the agent registers subagent hooks without the one-shot removal it
    gives skills' (tests/agents/claude ``subagent-frontmatter-yaml-1-2``,
    ``subagent-frontmatter-once``)."""
    log = tmp_path / "runs"
    path = workspace / ".claude" / "agents" / "c.md"
    path.parent.mkdir(parents=True)
    path.write_text(
        "---\nname: checker\ndescription: d\nhooks:\n  PreToolUse:\n    - matcher: Bash\n"
        "      hooks:\n        - type: command\n          timeout: 0o1\n"
        f"          once: true\n          command: echo run >> {log}\n---\nBody\n"
    )
    trust(isolated_home, workspace)

    first = await fire(rpc, workspace, INSIDE)
    second = await fire(rpc, workspace, INSIDE)

    assert [r["hooks"][0]["timeoutMs"] for r in (first, second)] == [1000, 1000]
    assert log.read_text() == "run\nrun\n"
