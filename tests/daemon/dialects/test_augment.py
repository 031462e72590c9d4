"""Augment hooks: ``settings.json`` in four places, scripts run one after another, ms timeouts.

Rules from ``augment-hooks.md``: system, workspace-local, workspace and user settings (run
in that order), regex matchers with the ``mcp:`` prefix, exit code 2 and JSON output,
``AUGMENT_*`` variables, and the opt-in ``metadata`` flags guarding private payload fields.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hookd_testing import Gate, wait_until, write_executable, write_json

PRIVATE = {
    "context": {"userEmail": "user@example.com", "modelName": "Claude Opus 4.5"},
    "mcp_metadata": {"mcpDecision": "yes", "mcpExecutedToolServerName": "my-server"},
    "conversation": {"userPrompt": "Add error handling", "agentTextResponse": "Done."},
}
TOOL = {"conversation_id": "conv-xyz789", "tool_name": "launch-process",
        "tool_input": {"command": "git status"}, "is_mcp_tool": False}  # fmt: skip
ALL_METADATA = {"includeUserContext": True, "includeMCPMetadata": True,
                "includeConversationData": True}  # fmt: skip


def script(path: Path, body: str) -> Path:
    """An executable ``.sh`` hook script (Augment runs it directly; the shebang decides)."""
    return write_executable(path, f"#!/bin/sh\n{body}\n")


def group(*scripts: Path, matcher: str | None = None, **fields: Any) -> dict[str, Any]:
    found: dict[str, Any] = {"hooks": [{"type": "command", "command": str(s)} for s in scripts]}
    if matcher is not None:
        found["matcher"] = matcher
    return {**found, **fields}


def settings_file(path: Path, **events: list[dict[str, Any]]) -> Path:
    return write_json(path, {"hooks": events})


def workspace_settings(root: Path) -> Path:
    return root / ".augment" / "settings.json"


async def fire(rpc, root: Path, event: str = "PreToolUse", payload=None, **extra):
    return await rpc.fire(
        "augment", event, [str(root)], TOOL if payload is None else payload, **extra
    )


def commands(result) -> list[str]:
    return [Path(h["command"]).name for h in result["hooks"]]


async def test_four_locations_run_system_user_local_workspace(rpc, workspace, settings) -> None:
    """auggie 0.36.0: /etc/augment, ~, <ws>/.augment/settings.local.json, then settings.json."""
    log = workspace / "log"
    places = {
        "system": Path(settings.system_root) / "etc" / "augment" / "settings.json",
        "user": Path(settings.home) / ".augment" / "settings.json",
        "workspace-local": workspace / ".augment" / "settings.local.json",
        "workspace": workspace_settings(workspace),
    }
    for name, path in places.items():
        hook = script(workspace / "hooks" / f"{name}.sh", f"cat >/dev/null; echo {name} >> {log}")
        settings_file(path, PreToolUse=[group(hook)])

    result = await fire(rpc, workspace)

    assert sorted(log.read_text().split()) == sorted(places)  # run in parallel
    assert [h["layer"] for h in result["hooks"]] == list(places)
    assert [h["source"] for h in result["hooks"]] == [str(p) for p in places.values()]


async def test_hooks_run_in_parallel_reported_in_definition_order(rpc, workspace) -> None:
    """auggie 0.36.0 runs an event's hooks in parallel: while the first waits on a gate the
    others start and end; the result lists them in definition order."""
    log = workspace / "log"
    gate = Gate(workspace / "gate")
    first = script(workspace / "first.sh",
                   f"echo s1 >> {log}; {gate.wait_command}; echo e1 >> {log}")  # fmt: skip
    second = script(workspace / "second.sh", f"echo s2 >> {log}; echo e2 >> {log}")
    third = script(workspace / "third.sh", f"echo s3 >> {log}; echo e3 >> {log}")
    settings_file(workspace_settings(workspace), PreToolUse=[group(first, second), group(third)])

    fire_id = await rpc.start("fire", {"agent": "augment", "event": "PreToolUse",
                                       "workspaceRoots": [str(workspace)], "payload": TOOL})  # fmt: skip
    await wait_until(lambda: log.exists() and {"s1", "e2", "e3"} <= set(log.read_text().split()))
    before_gate = log.read_text().split()
    await gate.open()
    result = (await rpc.recv_response(fire_id))["result"]

    assert sorted(before_gate) == ["e2", "e3", "s1", "s2", "s3"]  # the first still waits
    assert log.read_text().split()[-1] == "e1"
    assert commands(result) == ["first.sh", "second.sh", "third.sh"]


async def test_matcher_is_an_unanchored_case_sensitive_regex(rpc, workspace) -> None:
    """Matchers are regexes searched in the tool name; no matcher or "" matches every tool."""
    names = ["exact", "either", "partial", "anchored", "upper", "none", "empty"]
    hooks = {name: script(workspace / f"{name}.sh", "exit 0") for name in names}
    settings_file(workspace_settings(workspace), PreToolUse=[
        group(hooks["exact"], matcher="launch-process"),
        group(hooks["either"], matcher="str-replace-editor|launch-process"),
        group(hooks["partial"], matcher="process"),
        group(hooks["anchored"], matcher="^process"),
        group(hooks["upper"], matcher="Launch-Process"),
        group(hooks["none"]),
        group(hooks["empty"], matcher=""),
    ])  # fmt: skip

    launch = await fire(rpc, workspace)
    view = await fire(rpc, workspace, payload={**TOOL, "tool_name": "view"})

    assert commands(launch) == ["exact.sh", "either.sh", "partial.sh", "none.sh", "empty.sh"]
    assert commands(view) == ["none.sh", "empty.sh"]


async def test_mcp_prefix_matches_only_mcp_tools(rpc, workspace) -> None:
    """ "mcp:*" matches every tool with is_mcp_tool true; "mcp:<regex>" also needs the regex."""
    hooks = {name: script(workspace / f"{name}.sh", "exit 0")
             for name in ("all_mcp", "my_server", "any")}  # fmt: skip
    settings_file(workspace_settings(workspace), PreToolUse=[
        group(hooks["all_mcp"], matcher="mcp:*"),
        group(hooks["my_server"], matcher="mcp:.*_my-server$"),
        group(hooks["any"], matcher=".*"),
    ])  # fmt: skip
    mcp_tool = {**TOOL, "tool_name": "search_my-server", "is_mcp_tool": True}

    builtin = await fire(rpc, workspace)
    same_name_not_mcp = await fire(rpc, workspace, payload={**mcp_tool, "is_mcp_tool": False})
    mcp = await fire(rpc, workspace, payload=mcp_tool)
    other_server = await fire(rpc, workspace, payload={**mcp_tool, "tool_name": "search_other"})

    assert commands(builtin) == ["any.sh"]
    assert commands(same_name_not_mcp) == ["any.sh"]
    assert commands(mcp) == ["all_mcp.sh", "my_server.sh", "any.sh"]
    assert commands(other_server) == ["all_mcp.sh", "any.sh"]


async def test_session_events_ignore_matchers(rpc, workspace) -> None:
    """SessionStart, SessionEnd and Stop hooks run whatever matcher their group has (auggie
    drops it, so the groups merge and the same hook runs once)."""
    hook = script(workspace / "session.sh", "exit 0")
    other = script(workspace / "other.sh", "exit 0")
    groups = [group(hook, matcher="launch-process"), group(hook, other, matcher="mcp:*")]
    settings_file(workspace_settings(workspace),
                  SessionStart=groups, SessionEnd=groups, Stop=groups)  # fmt: skip

    results = [await fire(rpc, workspace, event, {"conversation_id": "c"})
               for event in ("SessionStart", "SessionEnd", "Stop")]  # fmt: skip

    assert [commands(r) for r in results] == [["session.sh", "other.sh"]] * 3


async def test_timeout_is_in_milliseconds_and_does_not_block(rpc, workspace) -> None:
    """ "timeout": 300 means 300 ms: the hook is killed, reported timedOut, and nothing blocks."""
    gate = Gate(workspace / "gate")
    slow = script(workspace / "slow.sh", f"echo 'never' >&2; {gate.wait_command}; exit 2")
    after = script(workspace / "after.sh", "exit 0")
    handler = {"type": "command", "command": str(slow), "timeout": 300}
    settings_file(workspace_settings(workspace),
                  PreToolUse=[{"hooks": [handler]}, group(after)])  # fmt: skip

    result = await fire(rpc, workspace)

    assert result["blocked"] is False
    assert result["hooks"][0]["timedOut"] is True
    assert "timed out" in result["hooks"][0]["error"]
    assert result["hooks"][0]["durationMs"] < 30_000
    assert result["hooks"][1]["exitCode"] == 0


async def test_exit_2_on_pre_tool_use_blocks_with_stderr(rpc, workspace) -> None:
    """Exit code 2 on PreToolUse blocks the tool; stderr is the reason shown to the agent."""
    hook = script(workspace / "block.sh",
                  "cat >/dev/null; echo 'ignored stdout'; echo 'Blocked: rm -rf' >&2; exit 2")  # fmt: skip
    settings_file(workspace_settings(workspace), PreToolUse=[group(hook)])

    result = await fire(rpc, workspace)

    assert result["blocked"] is True
    assert result["decision"] == "deny"
    assert result["reason"] == "[hook:PreToolUse]: Blocked: rm -rf"  # auggie's wording
    assert result["native"]["hookSpecificOutput"] == {
        "hookEventName": "PreToolUse", "permissionDecision": "deny",
        "permissionDecisionReason": "[hook:PreToolUse]: Blocked: rm -rf",
    }  # fmt: skip


async def test_exit_2_on_session_start_does_not_block(rpc, workspace) -> None:
    """Exit code 2 on SessionStart is a message shown to the user, never a block."""
    hook = script(workspace / "start.sh", "echo 'fix your config' >&2; exit 2")
    settings_file(workspace_settings(workspace), SessionStart=[group(hook)])

    result = await fire(rpc, workspace, "SessionStart", {"conversation_id": "c"})

    assert result["blocked"] is False
    assert result["systemMessage"] == "[hook:SessionStart]: fix your config"


async def test_other_exit_codes_are_non_blocking_errors(rpc, workspace) -> None:
    """Exit codes other than 0 and 2 are logged errors; execution continues, JSON is ignored."""
    deny = '{"hookSpecificOutput": {"permissionDecision": "deny"}}'
    hook = script(workspace / "fail.sh", f"echo '{deny}'; echo 'boom' >&2; exit 1")
    settings_file(workspace_settings(workspace), PreToolUse=[group(hook)])

    result = await fire(rpc, workspace)

    assert result["blocked"] is False
    assert result["hooks"][0]["exitCode"] == 1
    assert result["hooks"][0]["error"] == "Failed with non-blocking status code 1: boom"
    assert result["systemMessage"] == "Failed with non-blocking status code 1: boom"


async def test_json_permission_decision_deny_blocks(rpc, workspace) -> None:
    """Exit 0 with hookSpecificOutput.permissionDecision "deny" blocks with its reason."""
    out = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                                  "permissionDecisionReason": "Command contains 'rm -rf'"}}  # fmt: skip
    hook = script(workspace / "deny.sh", f"cat >/dev/null\ncat <<'EOF'\n{json.dumps(out)}\nEOF")
    settings_file(workspace_settings(workspace), PreToolUse=[group(hook)])

    result = await fire(rpc, workspace)

    assert result["blocked"] is True
    assert result["reason"] == "Command contains 'rm -rf'"
    assert result["hooks"][0]["blocked"] is True


async def test_shebang_selects_the_interpreter_of_a_sh_script(rpc, workspace) -> None:
    """A `.sh` script is executed directly, so `#!/usr/bin/env python3` runs it with Python."""
    hook = write_executable(
        workspace / "policy.sh",
        "#!/usr/bin/env python3\nimport json, sys\n"
        "event = json.load(sys.stdin)\n"
        "if 'rm -rf' in event['tool_input']['command']:\n"
        "    print('Blocked dangerous command', file=sys.stderr)\n"
        "    sys.exit(2)\n",
    )
    settings_file(workspace_settings(workspace), PreToolUse=[group(hook)])

    safe = await fire(rpc, workspace)
    dangerous = await fire(rpc, workspace, payload={**TOOL, "tool_input": {"command": "rm -rf /"}})

    assert safe["blocked"] is False
    assert dangerous["blocked"] is True
    assert dangerous["reason"] == "[hook:PreToolUse]: Blocked dangerous command"


async def test_session_start_output_reaches_nobody(rpc, workspace) -> None:
    """SessionStart stdout, plain or as additionalContext, is context by the document;
    auggie 0.36.0 drops it (tests/agents/augment::session-start-context-dropped)."""
    out = {"hookSpecificOutput": {"hookEventName": "SessionStart",
                                  "additionalContext": "Current sprint: Sprint 23"}}  # fmt: skip
    plain = script(workspace / "issues.sh", "echo 'Current open issues:'; echo '#12 login bug'")
    as_json = script(workspace / "sprint.sh", f"echo '{json.dumps(out)}'")
    for hook in (plain, as_json):
        settings_file(workspace_settings(workspace), SessionStart=[group(hook)])

        result = await fire(rpc, workspace, "SessionStart", {"conversation_id": "c"})

        assert (result["context"], result["systemMessage"], result["native"]) == (None, None, {})


async def test_post_tool_use_additional_context(rpc, workspace) -> None:
    """PostToolUse hookSpecificOutput.additionalContext reaches the agent; it cannot block."""
    out = {"hookSpecificOutput": {"hookEventName": "PostToolUse",
                                  "additionalContext": "All tests passed successfully!"}}  # fmt: skip
    hook = script(workspace / "post.sh", f"cat >/dev/null; echo '{json.dumps(out)}'")
    settings_file(workspace_settings(workspace), PostToolUse=[group(hook)])

    result = await fire(rpc, workspace, "PostToolUse", {**TOOL, "tool_output": "3 passed"})

    assert result["blocked"] is False
    assert result["context"] == "All tests passed successfully!"


async def test_post_tool_use_cannot_block(rpc, workspace) -> None:
    """PostToolUse decision "block" and exit 2 block nothing; auggie appends its exit-2
    message to the tool result (``context``) and drops a decision's reason."""
    out = {"hookSpecificOutput": {"hookEventName": "PostToolUse", "decision": "block",
                                  "reason": "the edit broke the build"}}  # fmt: skip
    decide = script(workspace / "decide.sh", f"cat >/dev/null; echo '{json.dumps(out)}'")
    exit_2 = script(workspace / "exit2.sh", "cat >/dev/null; echo 'lint: 3 errors' >&2; exit 2")
    settings_file(workspace_settings(workspace), PostToolUse=[group(decide, exit_2)])

    result = await fire(rpc, workspace, "PostToolUse", {**TOOL, "tool_output": "ok"})

    assert result["blocked"] is False
    assert [h["blocked"] for h in result["hooks"]] == [False, False]
    assert result["context"] == "[hook:PostToolUse]: lint: 3 errors"
    assert result["reason"] is None


async def test_updated_input_is_applied(rpc, workspace) -> None:
    """The document says updatedInput is not supported; auggie 0.36.0 applies it
    (tests/agents/augment::pre-updated-input)."""
    out = {"hookSpecificOutput": {"hookEventName": "PreToolUse",
                                  "updatedInput": {"command": "echo safe"}}}  # fmt: skip
    hook = script(workspace / "rewrite.sh", f"cat >/dev/null; echo '{json.dumps(out)}'")
    settings_file(workspace_settings(workspace), PreToolUse=[group(hook)])

    result = await fire(rpc, workspace)

    assert result["updatedInputFrom"] == str(workspace_settings(workspace))
    assert result["updatedInput"] == {"command": "echo safe"}
    assert result["blocked"] is False


async def test_stop_decision_block_is_ignored(rpc, workspace) -> None:
    """The document says a Stop block keeps the agent going; auggie 0.36.0 ignores every
    Stop answer (tests/agents/augment::stop-block-ignored)."""
    out = {"hookSpecificOutput": {"hookEventName": "Stop", "decision": "block",
                                  "reason": "Please run tests before finishing"}}  # fmt: skip
    hook = script(workspace / "stop.sh", f"cat >/dev/null; echo '{json.dumps(out)}'")
    settings_file(workspace_settings(workspace), Stop=[group(hook)])

    result = await fire(rpc, workspace, "Stop", {"conversation_id": "c",
                                                 "agent_stop_cause": "end_turn"})  # fmt: skip

    assert (result["blocked"], result["reason"], result["native"]) == (False, None, {})


async def test_augment_environment_variables(rpc, workspace) -> None:
    """AUGMENT_PROJECT_DIR, _CONVERSATION_ID, _HOOK_EVENT, and _TOOL_NAME on tool events only."""
    out = workspace / "env"
    report = ('printf "%s\\n" "$AUGMENT_PROJECT_DIR" "${AUGMENT_CONVERSATION_ID-unset}" '
              '"$AUGMENT_HOOK_EVENT" "${AUGMENT_TOOL_NAME-unset}" > ' + f"{out}.$AUGMENT_HOOK_EVENT")  # fmt: skip
    hook = script(workspace / "env.sh", f"cat >/dev/null; {report}")
    settings_file(workspace_settings(workspace),
                  PreToolUse=[group(hook)], SessionStart=[group(hook)])  # fmt: skip

    await fire(rpc, workspace)
    await fire(rpc, workspace, "SessionStart", {})

    assert Path(f"{out}.PreToolUse").read_text().split("\n")[:4] == [
        str(workspace), "conv-xyz789", "PreToolUse", "launch-process"]  # fmt: skip
    assert Path(f"{out}.SessionStart").read_text().split("\n")[:4] == [
        str(workspace), "unset", "SessionStart", "unset"]  # fmt: skip


async def test_stdin_has_common_fields(rpc, workspace) -> None:
    """Every event gets hook_event_name, conversation_id and workspace_roots on stdin."""
    out = workspace / "stdin.json"
    hook = script(workspace / "dump.sh", f"cat > {out}")
    settings_file(workspace_settings(workspace), PreToolUse=[group(hook)])

    await fire(rpc, workspace)
    received = json.loads(out.read_text())

    assert received["hook_event_name"] == "PreToolUse"
    assert received["conversation_id"] == "conv-xyz789"
    assert received["workspace_roots"] == [str(workspace)]
    assert received["tool_input"] == {"command": "git status"}
    assert received["is_mcp_tool"] is False


def dump_groups(workspace: Path, event: str, metadata: dict[str, Any]) -> list[dict[str, Any]]:
    """Two groups whose hooks save their stdin: one opted in with ``metadata``, one not."""
    opted = script(workspace / f"opted-{event}.sh", f"cat > {workspace}/opted-{event}.json")
    plain = script(workspace / f"plain-{event}.sh", f"cat > {workspace}/plain-{event}.json")
    return [group(opted, metadata=metadata), group(plain)]


def received(workspace: Path, kind: str, event: str) -> set[str]:
    data = json.loads((workspace / f"{kind}-{event}.json").read_text())
    return set(PRIVATE) & set(data)


async def test_private_fields_reach_the_fire_of_an_opted_in_group_on_allowed_events(
    rpc, workspace
) -> None:
    """context (all events), mcp_metadata (tool events), conversation (Stop) need metadata
    opt-in; auggie 0.36.0 builds one payload per fire, so the plain group's hook gets them
    too (hookd's ``metadataScope: "own"`` keeps a hook to its own group's)."""
    events = ("PreToolUse", "PostToolUse", "Stop", "SessionStart", "SessionEnd")
    settings_file(workspace_settings(workspace),
                  **{e: dump_groups(workspace, e, ALL_METADATA) for e in events})  # fmt: skip

    for event in events:
        await fire(rpc, workspace, event, {**TOOL, **PRIVATE})

    assert received(workspace, "opted", "PreToolUse") == {"context", "mcp_metadata"}
    assert received(workspace, "opted", "PostToolUse") == {"context", "mcp_metadata"}
    assert received(workspace, "opted", "Stop") == {"context", "conversation"}
    assert received(workspace, "opted", "SessionStart") == {"context"}
    assert received(workspace, "opted", "SessionEnd") == {"context"}
    assert all(received(workspace, "plain", e) == received(workspace, "opted", e) for e in events)


async def test_each_metadata_flag_opts_in_only_its_own_field(rpc, workspace) -> None:
    """includeUserContext adds only context; includeConversationData only conversation."""
    settings_file(workspace_settings(workspace),
                  Stop=dump_groups(workspace, "Stop", {"includeUserContext": True}),
                  PreToolUse=dump_groups(workspace, "PreToolUse", {"includeMCPMetadata": True}))  # fmt: skip

    await fire(rpc, workspace, "Stop", {**TOOL, **PRIVATE})
    await fire(rpc, workspace, "PreToolUse", {**TOOL, **PRIVATE})

    assert received(workspace, "opted", "Stop") == {"context"}
    assert received(workspace, "opted", "PreToolUse") == {"mcp_metadata"}


async def test_only_a_literal_true_opts_in(rpc, workspace) -> None:
    """Opt-in is explicit: false, "false", 0 or "yes" never release a private field;
    auggie 0.36.0's schema refuses such a group, so none of the event's hooks in that file
    run at all (and the fire says why)."""
    metadata = {"includeUserContext": "false", "includeMCPMetadata": 1,
                "includeConversationData": "yes"}  # fmt: skip
    settings_file(workspace_settings(workspace),
                  Stop=dump_groups(workspace, "Stop", metadata),
                  PreToolUse=dump_groups(workspace, "PreToolUse", metadata))  # fmt: skip

    stop = await fire(rpc, workspace, "Stop", {**TOOL, **PRIVATE})
    pre = await fire(rpc, workspace, "PreToolUse", {**TOOL, **PRIVATE})

    assert stop["hooks"] == pre["hooks"] == []
    assert any('"metadata" must be an object of true/false flags' in w for w in pre["warnings"])


async def test_script_without_exec_bit_is_reported_not_run(rpc, workspace) -> None:
    """Scripts must be executable: one that is not fails to start and is reported."""
    ran = workspace / "ran"
    hook = script(workspace / "noexec.sh", f"touch {ran}; exit 2")
    hook.chmod(0o644)
    settings_file(workspace_settings(workspace), PreToolUse=[group(hook)])

    result = await fire(rpc, workspace)

    assert result["blocked"] is False
    assert result["hooks"][0]["error"]
    assert not ran.exists()


async def test_failure_policy_agent_lets_a_failing_hook_void_a_deny(rpc, workspace) -> None:
    """auggie 0.36.0: another hook's failing exit code makes the whole fire a non-blocking
    error, so a deny beside it is lost (tests/agents/augment::pre-deny-beside-exit1); that
    is hookd's default (``failurePolicy: "agent"``)."""
    deny = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                                   "permissionDecisionReason": "no"}}  # fmt: skip
    denier = script(workspace / "deny.sh", f"cat >/dev/null; echo '{json.dumps(deny)}'")
    broken = script(workspace / "broken.sh", "cat >/dev/null; echo crash >&2; exit 1")
    settings_file(workspace_settings(workspace), PreToolUse=[group(denier, broken)])

    result = await fire(rpc, workspace)

    assert result["blocked"] is False
    assert result["systemMessage"] == "Failed with non-blocking status code 1: crash"


@pytest.mark.parametrize("answer", ["deny", "nothing"])
async def test_failure_policy_strict_keeps_the_block(rpc, workspace, answer: str) -> None:
    """hookd's stricter setting, per hook: ``failurePolicy: "strict"`` on the failing hook
    keeps the other hook's deny, and a deny the failing hook printed itself still blocks."""
    deny = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                                   "permissionDecisionReason": "no"}}  # fmt: skip
    denier = script(workspace / "deny.sh", f"cat >/dev/null; echo '{json.dumps(deny)}'")
    own = f"echo '{json.dumps(deny)}'; " if answer == "deny" else ""
    broken = script(workspace / "broken.sh", f"cat >/dev/null; {own}echo crash >&2; exit 1")
    handlers = [{"type": "command", "command": str(broken), "failurePolicy": "strict"}]
    if answer == "nothing":
        handlers.insert(0, {"type": "command", "command": str(denier)})
    settings_file(workspace_settings(workspace), PreToolUse=[{"hooks": handlers}])

    result = await fire(rpc, workspace)

    assert result["blocked"] is True
    assert result["reason"] == "no"


async def test_failure_policy_must_be_known(rpc, workspace) -> None:
    """A failurePolicy other than "agent" or "strict" drops the event's hooks of that file
    (as auggie drops an event that fails its schema) and says why."""
    hook = script(workspace / "h.sh", "exit 0")
    handler = {"type": "command", "command": str(hook), "failurePolicy": "lenient"}
    settings_file(workspace_settings(workspace), PreToolUse=[{"hooks": [handler]}])

    result = await fire(rpc, workspace)

    assert result["hooks"] == []
    assert any('"failurePolicy" must be "agent" or "strict"' in w for w in result["warnings"])
