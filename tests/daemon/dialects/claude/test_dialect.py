"""Claude Code dialect: settings.json hooks, matchers, exit codes and JSON decisions.

Each test names the rule of ``claude-code-hooks-reference-v2.1.240.md`` it pins.
"""

from __future__ import annotations

import json
from pathlib import Path

from hookd_testing import Gate, RpcClient, claude_settings, command, write_json

BASH = {"tool_name": "Bash", "tool_input": {"command": "npm test"}}


def project(workspace: Path, settings: dict) -> Path:
    return write_json(workspace / ".claude" / "settings.json", settings)


async def fire(rpc: RpcClient, workspace: Path, event: str = "PreToolUse", payload=None, **extra):
    return await rpc.fire(
        "claude", event, [str(workspace)], BASH if payload is None else payload, **extra
    )


async def test_exit_2_blocks_pre_tool_use_with_stderr_as_reason(rpc, workspace) -> None:
    """Exit code 2 blocks the tool call; stderr is the reason Claude sees."""
    project(workspace, claude_settings("PreToolUse", command("echo 'no npm' >&2; exit 2")))

    result = await fire(rpc, workspace)

    assert result["blocked"] is True
    assert result["decision"] == "deny"
    assert result["reason"] == "no npm"
    assert result["native"]["hookSpecificOutput"]["permissionDecision"] == "deny"


async def test_stdin_is_the_event_json_with_hook_event_name(rpc, workspace) -> None:
    """The hook gets the payload plus hook_event_name and cwd; CLAUDE_PROJECT_DIR is set."""
    out = workspace / "stdin.json"
    project(workspace, claude_settings(
        "PreToolUse", command(f'cat > {out}; echo "$CLAUDE_PROJECT_DIR" > {out}.env')))  # fmt: skip

    await fire(rpc, workspace, payload={**BASH, "session_id": "s1"})
    received = json.loads(out.read_text())

    assert received["hook_event_name"] == "PreToolUse"
    assert received["tool_name"] == "Bash"
    assert received["session_id"] == "s1"
    assert received["cwd"] == str(workspace)
    assert Path(f"{out}.env").read_text().strip() == str(workspace)


async def test_user_project_local_and_managed_hooks_all_run(rpc, workspace, settings) -> None:
    """Hooks from every settings level merge; each reports its layer and source file."""
    home, system = Path(settings.home), Path(settings.system_root)
    write_json(home / ".claude" / "settings.json", claude_settings("Stop", command("echo user")))
    project(workspace, claude_settings("Stop", command("echo project")))
    write_json(
        workspace / ".claude" / "settings.local.json",
        claude_settings("Stop", command("echo local")),
    )
    write_json(system / "etc" / "claude-code" / "managed-settings.json",
               claude_settings("Stop", command("echo managed")))  # fmt: skip

    result = await fire(rpc, workspace, "Stop", {})

    assert [h["layer"] for h in result["hooks"]] == ["user", "project", "local", "managed"]
    assert result["hooks"][1]["source"] == str(workspace / ".claude" / "settings.json")


async def test_identical_handlers_in_two_files_run_once(rpc, workspace, settings) -> None:
    """The same handler defined in more than one settings file runs once."""
    marker = workspace / "count"
    handler = command(f"echo x >> {marker}")
    write_json(Path(settings.home) / ".claude" / "settings.json", claude_settings("Stop", handler))
    project(workspace, claude_settings("Stop", handler))

    result = await fire(rpc, workspace, "Stop", {})

    assert len(result["hooks"]) == 1
    assert marker.read_text() == "x\n"


async def test_matchers_exact_list_regex_and_mcp(rpc, workspace) -> None:
    """Exact names and |/, lists match whole names; other matchers are unanchored regexes."""
    groups = [
        {"matcher": "Bash", "hooks": [command("echo exact")]},
        {"matcher": "Edit|Write", "hooks": [command("echo list")]},
        {"matcher": "Edit, Bash", "hooks": [command("echo comma")]},
        {"matcher": "Ba.*", "hooks": [command("echo regex")]},
        {"matcher": "mcp__memory", "hooks": [command("echo bare-mcp")]},
        {"matcher": "*", "hooks": [command("echo star")]},
        {"hooks": [command("echo omitted")]},
    ]
    project(workspace, {"hooks": {"PreToolUse": groups}})

    bash = await fire(rpc, workspace)
    mcp = await fire(rpc, workspace, payload={"tool_name": "mcp__memory__create", "tool_input": {}})

    assert [h["command"] for h in bash["hooks"]] == [
        "echo exact", "echo comma", "echo regex", "echo star", "echo omitted",
    ]  # fmt: skip
    assert [h["command"] for h in mcp["hooks"]] == ["echo star", "echo omitted"]


async def test_matcher_is_ignored_on_events_without_matcher_support(rpc, workspace) -> None:
    """A matcher on an event without matcher support (Stop) is silently ignored."""
    project(workspace, {"hooks": {"Stop": [{"matcher": "Nothing", "hooks": [command("true")]}]}})

    result = await fire(rpc, workspace, "Stop", {})

    assert len(result["hooks"]) == 1


async def test_if_condition_filters_bash_subcommands(rpc, workspace) -> None:
    """`if: Bash(git *)` runs for any git subcommand and never on non-tool events."""
    handler = command("echo ran", **{"if": "Bash(git *)"})
    project(workspace, {"hooks": {"PreToolUse": [{"hooks": [handler]}],
                                  "Stop": [{"hooks": [handler]}]}})  # fmt: skip

    git = await fire(rpc, workspace, payload={"tool_name": "Bash",
                                              "tool_input": {"command": "FOO=1 npm t && git push"}})  # fmt: skip
    npm = await fire(rpc, workspace)
    stop = await fire(rpc, workspace, "Stop", {})

    assert len(git["hooks"]) == 1
    assert npm["hooks"] == []
    assert stop["hooks"] == []


async def test_decision_precedence_deny_defer_ask_allow(rpc, workspace) -> None:
    """When hooks disagree the strongest decision wins: deny > defer > ask > allow."""

    def decide(value: str) -> dict:
        out = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": value,
                                      "permissionDecisionReason": f"because {value}"}}  # fmt: skip
        return command(f"echo '{json.dumps(out)}'")

    project(workspace, claude_settings("PreToolUse", decide("allow"), decide("ask")))
    ask = await fire(rpc, workspace)
    project(
        workspace, claude_settings("PreToolUse", decide("allow"), decide("deny"), decide("ask"))
    )
    deny = await fire(rpc, workspace)

    assert (ask["decision"], ask["blocked"]) == ("ask", False)
    assert (deny["decision"], deny["blocked"]) == ("deny", True)
    assert deny["reason"] == "because deny"


async def test_exit_2_wins_over_json_allow(rpc, workspace) -> None:
    """Exit 2 blocks even when the same hook's JSON says allow."""
    out = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}}
    project(
        workspace,
        claude_settings("PreToolUse", command(f"echo '{json.dumps(out)}'; echo no >&2; exit 2")),
    )

    result = await fire(rpc, workspace)

    assert result["blocked"] is True
    assert result["reason"] == "no"


async def test_other_exit_codes_are_non_blocking_errors(rpc, workspace) -> None:
    """Exit 1 (or 127, a missing script) without JSON proceeds, with the error reported."""
    project(workspace, claude_settings("PreToolUse", command("echo oops >&2; exit 1"),
                                       command("/no/such/script.sh")))  # fmt: skip

    result = await fire(rpc, workspace)

    assert result["blocked"] is False
    assert "oops" in result["hooks"][0]["error"]
    assert result["hooks"][1]["exitCode"] == 127
    assert (
        "No such file" in result["hooks"][1]["error"] or "not found" in result["hooks"][1]["error"]
    )


async def test_json_on_non_zero_exit_is_honoured(rpc, workspace) -> None:
    """With valid JSON, exit codes other than 2 are ignored and the JSON decides."""
    out = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                                  "permissionDecisionReason": "json says no"}}  # fmt: skip
    project(workspace, claude_settings("PreToolUse", command(f"echo '{json.dumps(out)}'; exit 1")))

    result = await fire(rpc, workspace)

    assert result["blocked"] is True
    assert result["reason"] == "json says no"


async def test_one_failing_hook_never_loses_another_hooks_block(rpc, workspace) -> None:
    """A crashing or timed-out hook does not cancel a sibling's block."""
    project(workspace, claude_settings(
        "PreToolUse", command("exit 1"), command("echo blocked >&2; exit 2"),
        command("sleep 30", timeout=0.3)))  # fmt: skip

    result = await fire(rpc, workspace)

    assert result["blocked"] is True
    assert result["reason"] == "blocked"
    assert result["hooks"][2]["timedOut"] is True


async def test_timed_out_hook_renders_no_decision(rpc, workspace) -> None:
    """A timed-out command hook does not block: the call proceeds (Claude fails open)."""
    gate = Gate(workspace / "gate")
    project(workspace, claude_settings("PreToolUse", command(gate.wait_command, timeout=0.2)))

    result = await fire(rpc, workspace)

    assert result["blocked"] is False
    assert result["hooks"][0]["timedOut"] is True
    assert "timed out" in result["hooks"][0]["error"]


async def test_several_updated_inputs_last_in_declaration_order_wins(rpc, workspace) -> None:
    """Rewrites are deterministic (declaration order, not finish order) and reported."""

    def rewrite(value: str, delay: str) -> dict:
        out = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow",
                                      "updatedInput": {"command": value}}}  # fmt: skip
        return command(f"sleep {delay}; echo '{json.dumps(out)}'")

    project(
        workspace, claude_settings("PreToolUse", rewrite("first", "0"), rewrite("second", "0.2"))
    )
    result = await fire(rpc, workspace)
    project(
        workspace, claude_settings("PreToolUse", rewrite("first", "0.2"), rewrite("second", "0"))
    )
    reversed_timing = await fire(rpc, workspace)

    assert result["updatedInput"] == {"command": "second"}
    assert reversed_timing["updatedInput"] == {"command": "second"}
    assert "2 hooks rewrote the tool input" in result["warnings"][0]


async def test_context_joined_in_declaration_order(rpc, workspace) -> None:
    """additionalContext values are all delivered, in declaration order."""

    def context(text: str, delay: str) -> dict:
        out = {"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": text}}
        return command(f"sleep {delay}; echo '{json.dumps(out)}'")

    project(workspace, claude_settings("PostToolUse", context("one", "0.2"), context("two", "0")))

    result = await fire(rpc, workspace, "PostToolUse")

    assert result["context"] == "one\n\ntwo"


async def test_plain_stdout_is_context_for_user_prompt_submit(rpc, workspace) -> None:
    """Plain-text stdout on exit 0 becomes context for UserPromptSubmit, not elsewhere."""
    project(workspace, {"hooks": {"UserPromptSubmit": [{"hooks": [command("echo branch main")]}],
                                  "Stop": [{"hooks": [command("echo ignored")]}]}})  # fmt: skip

    prompt = await fire(rpc, workspace, "UserPromptSubmit", {"prompt": "hi"})
    stop = await fire(rpc, workspace, "Stop", {})

    assert prompt["context"] == "branch main"
    assert stop["context"] is None


async def test_continue_false_and_top_level_block(rpc, workspace) -> None:
    """continue:false stops with stopReason; decision:block blocks Stop with its reason."""
    stop_all = {"continue": False, "stopReason": "build broken"}
    block = {"decision": "block", "reason": "run the tests first"}
    project(workspace, claude_settings("Stop", command(f"echo '{json.dumps(stop_all)}'"),
                                       command(f"echo '{json.dumps(block)}'")))  # fmt: skip

    result = await fire(rpc, workspace, "Stop", {})

    assert result["continue"] is False
    assert result["stopReason"] == "build broken"
    assert result["blocked"] is True
    assert result["native"]["decision"] == "block"


async def test_exec_form_substitutes_placeholders_without_a_shell(rpc, workspace) -> None:
    """With "args" the command runs without a shell and ${CLAUDE_PROJECT_DIR} is substituted."""
    out = workspace / "argv"
    handler = {"type": "command", "command": "/bin/sh",
               "args": ["-c", f'printf "%s|" "$@" > {out}', "x", "${CLAUDE_PROJECT_DIR}/a b", "$HOME"]}  # fmt: skip
    project(workspace, claude_settings("Stop", handler))

    await fire(rpc, workspace, "Stop", {})

    assert out.read_text() == f"{workspace}/a b|$HOME|"


async def test_disable_all_hooks_spares_managed_hooks(rpc, workspace, settings) -> None:
    """disableAllHooks in project settings turns off all but managed hooks."""
    project(
        workspace, {**claude_settings("Stop", command("echo project")), "disableAllHooks": True}
    )
    write_json(Path(settings.system_root) / "etc" / "claude-code" / "managed-settings.json",
               claude_settings("Stop", command("echo managed")))  # fmt: skip

    result = await fire(rpc, workspace, "Stop", {})

    assert [h["layer"] for h in result["hooks"]] == ["managed"]


async def test_broken_settings_keep_last_good_hooks_and_say_so(rpc, workspace) -> None:
    """A syntax error keeps the file's last good hooks and is reported, not swallowed."""
    path = project(workspace, claude_settings("Stop", command("echo good")))
    await fire(rpc, workspace, "Stop", {})
    path.write_text('{"hooks": {"Stop": [ }')

    result = await fire(rpc, workspace, "Stop", {})
    listing = await rpc.call("hooks/list")

    assert [h["command"] for h in result["hooks"]] == ["echo good"]
    assert "invalid JSON at line 1" in result["warnings"][0]
    assert any("invalid JSON" in e["error"] for e in listing["errors"])
