"""Portable hooks in GitHub Copilot CLI's fires: its events (both spellings), tools and
tool arguments read as Claude's, the portable answer written as a Copilot hook's flat
JSON and combined by Copilot's rules (copilot-research.md §3, §5); once per agent event
however many relay entries Copilot runs (§1.1), and not again where Copilot runs a Claude
relay entry of the project's ``.claude/settings.json``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from hookd_testing import RpcClient, claude_settings, command, write_json

SHOW = (
    'python3 -c "import json,sys; e=json.load(sys.stdin); '
    "print(json.dumps({'hookSpecificOutput': {'hookEventName': e['hook_event_name'], "
    "'additionalContext': json.dumps([e['tool_input'].get('file_path'), e['tool_name'], "
    "e['hookd_agent_tool'], e['hookd_agent_event']])}}))\""
)
ENV_GUARD = (
    'python3 -c "import json,sys; e=json.load(sys.stdin); '
    "p=e['tool_input'].get('file_path',''); "
    "sys.exit(0) if not p.endswith('.env') else (print('not .env: '+p, file=sys.stderr), "
    'sys.exit(2))"'
)
RM_GUARD = (
    'python3 -c "import json,sys; e=json.load(sys.stdin); '
    "c=e['tool_input'].get('command',''); "
    "sys.exit(0) if 'rm -rf' not in c else (print('no rm -rf', file=sys.stderr), sys.exit(2))\""
)


def portable(home: Path, settings: dict[str, Any]) -> Path:
    return write_json(home / ".config" / "hookd" / "hooks.json", settings)


def answer(out: dict[str, Any]) -> dict[str, Any]:
    return command(f"echo '{json.dumps(out)}'")


def tool(workspace: Path, name: str, args: dict[str, Any], **more: Any) -> dict[str, Any]:
    """A camelCase tool payload as Copilot 1.0.102 writes it (§3.1, §3.2)."""
    return {"sessionId": "s", "timestamp": 1795803746233, "cwd": str(workspace),
            "toolName": name, "toolArgs": args, **more}  # fmt: skip


def rm(workspace: Path) -> dict[str, Any]:
    return tool(workspace, "bash", {"command": "rm -rf /", "description": "t"})


async def test_a_bash_guard_denies_copilots_bash_in_both_spellings(
    rpc, workspace, isolated_home
) -> None:
    portable(isolated_home, claude_settings("PreToolUse", command(
        "echo 'no rm -rf' >&2; exit 2"), matcher="Bash"))  # fmt: skip
    pascal = {"hook_event_name": "PreToolUse", "session_id": "s", "cwd": str(workspace),
              "tool_name": "Bash", "tool_input": {"command": "rm -rf /"}}  # fmt: skip

    camel = await rpc.fire("copilot", "preToolUse", [str(workspace)], rm(workspace))
    upper = await rpc.fire("copilot", "PreToolUse", [str(workspace)], pascal)
    view = await rpc.fire("copilot", "preToolUse", [str(workspace)],
                          tool(workspace, "view", {"path": str(workspace / "a")}))  # fmt: skip

    for result in (camel, upper):
        assert result["blocked"] is True
        assert result["reason"] == "Denied by preToolUse hook: no rm -rf"  # Copilot's words
        assert result["native"] == {"permissionDecision": "deny",
                                    "permissionDecisionReason": "no rm -rf"}  # fmt: skip
    assert view["blocked"] is False
    assert view["hooks"] == []


async def test_a_guard_on_env_files_denies_create_and_edit(rpc, workspace, isolated_home) -> None:
    portable(isolated_home, claude_settings("PreToolUse", command(ENV_GUARD), matcher="Write|Edit"))
    env = str(workspace / ".env")

    create = await rpc.fire("copilot", "preToolUse", [str(workspace)],
                            tool(workspace, "create", {"path": env, "file_text": "K=1"}))  # fmt: skip
    edit = await rpc.fire("copilot", "preToolUse", [str(workspace)], tool(
        workspace, "edit", {"path": env, "old_str": "K=1", "new_str": "K=2"}))  # fmt: skip
    other = await rpc.fire("copilot", "preToolUse", [str(workspace)], tool(
        workspace, "create", {"path": str(workspace / "ok.txt"), "file_text": "x"}))  # fmt: skip

    assert create["blocked"] is True
    assert edit["blocked"] is True
    assert create["native"]["permissionDecisionReason"] == f"not .env: {env}"
    assert other["blocked"] is False
    assert len(other["hooks"]) == 1


async def test_tool_arguments_given_as_json_text_are_read(rpc, workspace, isolated_home) -> None:
    """Copilot's documents give ``toolArgs`` as JSON text (1.0.102 sends an object)."""
    portable(isolated_home, claude_settings("PreToolUse", command(RM_GUARD)))
    sent = tool(workspace, "bash", json.dumps({"command": "rm -rf /", "description": "t"}))

    result = await rpc.fire("copilot", "preToolUse", [str(workspace)], sent)

    assert result["blocked"] is True


async def test_prompt_and_session_start_context_reach_copilot(
    rpc, workspace, isolated_home
) -> None:
    write_json(isolated_home / ".config" / "hookd" / "hooks.json", {"hooks": {
        "UserPromptSubmit": [{"hooks": [answer({"hookSpecificOutput": {
            "hookEventName": "UserPromptSubmit", "additionalContext": "prompt-ctx"}})]}],
        "SessionStart": [{"matcher": "startup", "hooks": [answer({"hookSpecificOutput": {
            "hookEventName": "SessionStart", "additionalContext": "start-ctx"}})]}],
    }})  # fmt: skip
    head = {"sessionId": "s", "timestamp": 1795803746233, "cwd": str(workspace)}

    prompt = await rpc.fire("copilot", "userPromptSubmitted", [str(workspace)],
                            {**head, "prompt": "hi"})  # fmt: skip
    start = await rpc.fire("copilot", "sessionStart", [str(workspace)],
                           {**head, "source": "new", "initialPrompt": "hi"})  # fmt: skip

    assert prompt["context"] == "prompt-ctx"
    assert prompt["native"] == {"additionalContext": "prompt-ctx"}
    assert start["context"] == "start-ctx"  # Copilot's "new" is Claude's "startup"
    assert start["native"] == {"additionalContext": "start-ctx"}


async def test_a_post_edit_hook_gets_the_edited_files_path(rpc, workspace, isolated_home) -> None:
    portable(isolated_home, claude_settings("PostToolUse", command(SHOW), matcher="Edit"))
    edited = str(workspace / "a.py")
    result_of = {"resultType": "success", "textResultForLlm": "edited"}

    camel = await rpc.fire("copilot", "postToolUse", [str(workspace)], tool(
        workspace, "edit", {"path": edited, "old_str": "a", "new_str": "b"}, toolResult=result_of))  # fmt: skip
    upper = await rpc.fire("copilot", "PostToolUse", [str(workspace)], {
        "hook_event_name": "PostToolUse", "session_id": "s", "cwd": str(workspace),
        "tool_name": "Edit", "tool_input": {"path": edited, "old_str": "a", "new_str": "b"},
        "tool_result": {"result_type": "success", "text_result_for_llm": "edited"}})  # fmt: skip

    assert json.loads(camel["context"]) == [edited, "Edit", "edit", "postToolUse"]
    assert json.loads(upper["context"]) == [edited, "Edit", "edit", "PostToolUse"]
    assert camel["native"]["additionalContext"] == camel["context"]


async def test_a_rewrite_reaches_copilot_as_modified_args(rpc, workspace, isolated_home) -> None:
    """§5.3: ``modifiedArgs`` replaces the tool's arguments; a Write rewrite is renamed back
    to ``create``'s own argument names."""
    moved = str(workspace / "b.txt")
    portable(isolated_home, {"hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [answer({"hookSpecificOutput": {
            "hookEventName": "PreToolUse", "updatedInput": {"command": "echo safe"}}})]},
        {"matcher": "Write", "hooks": [answer({"hookSpecificOutput": {
            "hookEventName": "PreToolUse", "permissionDecision": "allow",
            "updatedInput": {"file_path": moved, "content": "y"}}})]},
    ]}})  # fmt: skip

    shell = await rpc.fire("copilot", "preToolUse", [str(workspace)], rm(workspace))
    write = await rpc.fire("copilot", "preToolUse", [str(workspace)], tool(
        workspace, "create", {"path": str(workspace / "a.txt"), "file_text": "x"}))  # fmt: skip

    assert shell["updatedInput"] == {"command": "echo safe"}
    assert shell["native"] == {"modifiedArgs": {"command": "echo safe"}}
    assert write["native"] == {"permissionDecision": "allow",
                               "modifiedArgs": {"path": moved, "file_text": "y"}}  # fmt: skip


async def test_what_copilot_cannot_carry_is_a_warning(rpc, workspace, isolated_home) -> None:
    """permissionRequest takes no rewritten input (§5.4) and no event reads
    ``continue: false`` (§5.1): said, not dropped in silence; a systemMessage is carried
    as the exit-2 warning Copilot shows its user (§5.2, §5.5)."""
    write_json(isolated_home / ".config" / "hookd" / "hooks.json", {"hooks": {
        "PermissionRequest": [{"hooks": [answer({"hookSpecificOutput": {
            "hookEventName": "PermissionRequest", "decision": {
                "behavior": "allow", "updatedInput": {"command": "echo safe"}}}})]}],
        "UserPromptSubmit": [{"hooks": [answer({"continue": False, "systemMessage": "careful"})]}],
    }})  # fmt: skip
    head = {"sessionId": "s", "timestamp": 1795803746233, "cwd": str(workspace)}
    asked = {"hookName": "permissionRequest", **head, "toolName": "bash",
             "toolInput": {"command": "rm -rf /"}, "permissionSuggestions": []}  # fmt: skip

    permission = await rpc.fire("copilot", "permissionRequest", [str(workspace)], asked)
    prompt = await rpc.fire("copilot", "userPromptSubmitted", [str(workspace)],
                            {**head, "prompt": "hi"})  # fmt: skip

    assert permission["native"] == {"behavior": "allow"}
    assert permission["updatedInput"] is None
    assert any("updatedInput" in w and "copilot" in w and "permissionRequest" in w
               for w in permission["warnings"]), permission["warnings"]  # fmt: skip
    assert prompt["action"] == "proceed"
    assert prompt["systemMessage"] == "careful"
    assert any("stop" in w and "copilot" in w and "userPromptSubmitted" in w
               for w in prompt["warnings"]), prompt["warnings"]  # fmt: skip


async def test_portable_and_copilot_hooks_chain_by_copilots_rules(
    rpc, settings, workspace, isolated_home, tmp_path
) -> None:
    """§5.3: Copilot's preToolUse hooks run in order, each seeing the previous one's
    ``modifiedArgs``, and the first deny ends the chain: the portable guard (after the
    agent's own) sees the agent hook's rewrite and denies it; after the agent hook's own
    deny it never runs."""
    ran = tmp_path / "portable-ran"
    portable(isolated_home, claude_settings("PreToolUse", command(f"touch {ran}; {RM_GUARD}")))
    own = Path(settings.home) / ".copilot" / "hooks" / "own.json"
    write_json(own, {"version": 1, "hooks": {"preToolUse": [{"bash": "echo '" + json.dumps(
        {"modifiedArgs": {"command": "rm -rf /tmp/x"}}) + "'"}]}})  # fmt: skip

    rewritten = await rpc.fire("copilot", "preToolUse", [str(workspace)],
                               tool(workspace, "bash", {"command": "ls"}))  # fmt: skip
    assert ran.exists()
    ran.unlink()
    write_json(own, {"version": 1, "hooks": {"preToolUse": [{"bash": "echo '" + json.dumps(
        {"permissionDecision": "deny", "permissionDecisionReason": "copilot-no"}) + "'"}]}})  # fmt: skip
    denied = await rpc.fire("copilot", "preToolUse", [str(workspace)],
                            tool(workspace, "bash", {"command": "ls"}))  # fmt: skip

    assert rewritten["blocked"] is True, json.dumps(rewritten)
    assert rewritten["reason"] == "Denied by preToolUse hook: no rm -rf"
    assert rewritten["updatedInput"] is None  # a later deny drops the rewrite (§5.3)
    assert denied["reason"] == "Denied by preToolUse hook: copilot-no"
    assert not ran.exists()


# -- relay fires: once per agent event --------------------------------------------------


def adopt(agent: str, home: str, project: Path, scope: str) -> None:
    done = subprocess.run([sys.executable, "-m", "hookd", "adopt", "--agent", agent,
                           "--scope", scope, "--home", home, "--project", str(project)],
                          capture_output=True, text=True, timeout=60,
                          env={**os.environ, "HOOKD_RELAY": "python"})  # fmt: skip
    assert done.returncode == 0, done.stderr


def relay_install(home: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "hookd", "relay", "install", "--agent",
                           "copilot", "--home", home], capture_output=True, text=True,
                          timeout=60, env={**os.environ, "HOOKD_RELAY": "python"})  # fmt: skip


def entries(path: Path) -> list[tuple[str, list[str]]]:
    """The ``hookd-relay copilot`` entries of a hook file: (key, their arguments)."""
    found = []
    for key, items in json.loads(path.read_text())["hooks"].items():
        for item in items:
            words = item.get("bash", "").split()
            if len(words) == 4 and words[1] == "copilot":
                found.append((key, words[2:]))
    return found


async def relay(rpc: RpcClient, agent: str, args: list[str], stdin: dict[str, Any],
                workspace: Path, env: dict[str, str]) -> dict[str, Any]:  # fmt: skip
    result: dict[str, Any] = await rpc.call("relay", {
        "agent": agent, "args": args, "stdin": json.dumps(stdin), "cwd": str(workspace),
        "env": env})  # fmt: skip
    return result


async def test_a_portable_hook_runs_once_whatever_the_relay_entries(
    rpc, settings, workspace, isolated_home, tmp_path
) -> None:
    """Copilot runs every entry (§1.1): the user's file (both keys) and the project's. The
    portable hook runs in the first (the user's camelCase one) and in no other; its deny
    reaches the agent from that entry."""
    runs = tmp_path / "runs"
    portable(isolated_home, claude_settings("PreToolUse", command(
        f"echo $(python3 -c 'import json,sys; print(json.load(sys.stdin)[\"hookd_agent_event\"])')"
        f" >> {runs}; echo 'no rm -rf' >&2; exit 2"), matcher="Bash"))  # fmt: skip
    noop = [{"bash": "true"}]
    write_json(isolated_home / ".copilot" / "hooks" / "u.json",
               {"version": 1, "hooks": {"preToolUse": noop, "PreToolUse": noop}})  # fmt: skip
    write_json(workspace / ".github" / "hooks" / "r.json",
               {"version": 1, "hooks": {"preToolUse": noop}})  # fmt: skip
    adopt("copilot", settings.home, workspace, "user")
    adopt("copilot", settings.home, workspace, "project")
    order = [*entries(isolated_home / ".copilot" / "hooks" / "u.json"),
             *entries(workspace / ".github" / "hooks" / "r.json")]  # fmt: skip
    env = {"HOME": settings.home, "COPILOT_PROJECT_DIR": str(workspace), "COPILOT_CLI": "1"}
    camel = rm(workspace)
    pascal = {"hook_event_name": "PreToolUse", "session_id": "s",
              "timestamp": "2026-11-27T18:21:52.564Z", "cwd": str(workspace),
              "tool_name": "Bash", "tool_input": {"command": "rm -rf /", "description": "t"}}  # fmt: skip

    answers = [await relay(rpc, "copilot", args, pascal if key[0].isupper() else camel,
                           workspace, env) for key, args in order]  # fmt: skip

    assert [key for key, _ in order] == ["preToolUse", "PreToolUse", "preToolUse"]
    assert runs.read_text().split() == ["preToolUse"]
    assert json.loads(answers[0]["stdout"]) == {"permissionDecision": "deny",
                                                "permissionDecisionReason": "no rm -rf"}  # fmt: skip
    assert [a["stdout"] for a in answers[1:]] == ["", ""]


async def test_copilot_running_a_claude_relay_entry_runs_no_portable_hook(
    rpc, settings, workspace, isolated_home, tmp_path
) -> None:
    """Copilot also runs a project's ``.claude/settings.json`` and ``settings.local.json``
    (§1.1); ``hookd adopt --agent claude`` puts Claude's relay entries in the second: there the portable hooks do not run
    (Copilot's own fires run them, in its words); in Claude Code's own fire they do."""
    runs = tmp_path / "runs"
    portable(isolated_home, claude_settings("UserPromptSubmit", command(
        f"python3 -c 'import json,sys; print(json.load(sys.stdin)[\"hookd_agent\"])' >> {runs}")))  # fmt: skip
    write_json(workspace / ".claude" / "settings.json",
               claude_settings("UserPromptSubmit", command(f"echo claude-own >> {runs}")))  # fmt: skip
    adopt("claude", settings.home, workspace, "project")
    settings_text = (workspace / ".claude" / "settings.local.json").read_text()
    from_copilot = {  # Copilot's PascalCase payload (§3.2)
        "hook_event_name": "UserPromptSubmit",
        "session_id": "s",
        "timestamp": "2026-11-27T18:21:52.564Z",
        "cwd": str(workspace),
        "prompt": "hi",
    }
    copilot_env = {"HOME": settings.home, "CLAUDE_PROJECT_DIR": str(workspace),
                   "COPILOT_PROJECT_DIR": str(workspace), "COPILOT_CLI": "1"}  # fmt: skip
    from_claude = {"hook_event_name": "UserPromptSubmit", "session_id": "s", "cwd":
                   str(workspace), "transcript_path": str(tmp_path / "t.jsonl"), "prompt": "hi"}  # fmt: skip

    await relay(rpc, "claude", [], from_copilot, workspace, copilot_env)
    in_copilot = runs.read_text().split()
    await relay(rpc, "claude", [], from_claude, workspace,
                {"HOME": settings.home, "CLAUDE_PROJECT_DIR": str(workspace)})  # fmt: skip

    assert "hookd-relay" in settings_text
    assert in_copilot == ["claude-own"]  # Claude's adopted hook, as Copilot would run it
    assert runs.read_text().split() == ["claude-own", "claude-own", "claude"]


async def test_the_first_entry_whose_matcher_matches_runs_the_portable_hooks(
    rpc, settings, workspace, isolated_home, tmp_path
) -> None:
    """Copilot runs only the entries whose matcher matches the tool (§3.4): a ``create``
    call skips the user's ``bash`` entry, so the project's ``create`` entry is the first it
    runs and runs the portable hooks; a ``bash`` call runs them in the user's entry only."""
    runs = tmp_path / "runs"
    noop = [{"bash": "true", "matcher": "bash"}]
    write_json(isolated_home / ".copilot" / "hooks" / "u.json",
               {"version": 1, "hooks": {"preToolUse": noop}})  # fmt: skip
    write_json(workspace / ".github" / "hooks" / "r.json",
               {"version": 1, "hooks": {"preToolUse": [{**noop[0], "matcher": "create"}]}})  # fmt: skip
    adopt("copilot", settings.home, workspace, "user")
    adopt("copilot", settings.home, workspace, "project")
    portable(isolated_home, claude_settings("PreToolUse", command(
        f"python3 -c 'import json,sys; print(json.load(sys.stdin)[\"tool_name\"])' >> {runs}")))  # fmt: skip
    [(_, user_args)] = entries(isolated_home / ".copilot" / "hooks" / "u.json")
    [(_, project_args)] = entries(workspace / ".github" / "hooks" / "r.json")
    env = {"HOME": settings.home, "COPILOT_PROJECT_DIR": str(workspace), "COPILOT_CLI": "1"}
    create = tool(workspace, "create", {"path": str(workspace / "a"), "file_text": "x"})

    await relay(rpc, "copilot", project_args, create, workspace, env)  # user's: no match
    await relay(rpc, "copilot", user_args, rm(workspace), workspace, env)
    await relay(rpc, "copilot", project_args, rm(workspace), workspace, env)  # not run there

    assert runs.read_text().split() == ["Write", "Bash"]


async def test_status_counts_either_key_as_carrying_the_event(
    rpc, settings, workspace, isolated_home
) -> None:
    """A PascalCase relay entry carries the agent event as the camelCase one does: status
    names only the event no entry carries, by its camelCase key, until ``relay install``."""
    write_json(isolated_home / ".copilot" / "hooks" / "u.json", {"version": 1, "hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"bash": "true"}]}]}})  # fmt: skip
    adopt("copilot", settings.home, workspace, "user")
    portable(isolated_home, {"hooks": {
        **claude_settings("PreToolUse", command("true"), matcher="Bash")["hooks"],
        **claude_settings("PostToolUse", command("true"), matcher="Edit")["hooks"]}})  # fmt: skip
    await rpc.call("roots/add", {"roots": [str(workspace)]})

    before = (await rpc.call("status"))["portable"]["uncarried"]
    done = relay_install(settings.home)
    after = (await rpc.call("status"))["portable"]["uncarried"]

    assert [(e["agent"], e["event"]) for e in before] == [("copilot", "postToolUse")]
    assert done.returncode == 0, done.stderr
    assert after == []
