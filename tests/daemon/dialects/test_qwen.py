"""Qwen Code's hooks (0.24.4): its files, matchers, how it reads one hook's output, how
several answers combine, what it expands in a command. Each rule cites
``qwen-research.md`` (the agent, read and run); ``tests/agents/qwen`` holds the real agent
to the same rules."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from hookd.daemon.dialects.qwen import config, integration
from hookd.daemon.dialects.qwen import dialect as qwen
from hookd.daemon.model import (
    Combined,
    Dialect,
    FireRequest,
    HookReport,
    HookSpec,
    Launch,
    Loaded,
    ProcessOutcome,
    Source,
    Verdict,
)
from hookd_testing import write_json

PRE = {"session_id": "s-1", "transcript_path": "/h/.qwen/projects/-w/chats/s-1.jsonl",
       "cwd": "/w", "hook_event_name": "PreToolUse", "timestamp": "2026-11-27T21:25:27.779Z",
       "permission_mode": "yolo", "prompt_id": "s-1########0", "tool_name": "run_shell_command",
       "tool_input": {"command": "ls"}}  # fmt: skip


def source(path: Path, layer: str = "user", root: str | None = None) -> Source:
    return Source(Dialect.QWEN, layer, str(path), "settings", root)


def load(tmp_path: Path, hooks: Any, layer: str = "user", **top: Any) -> Loaded:
    path = tmp_path / f"{layer}.json"
    write_json(path, {"hooks": hooks, **top})
    return config.load_settings(source(path, layer))


def request(event: str = "PreToolUse", payload: dict[str, Any] | None = None,
            **more: Any) -> FireRequest:  # fmt: skip
    sent = payload if payload is not None else {**PRE, "hook_event_name": event}
    return FireRequest(Dialect.QWEN, event, ("/w",), sent, **more)


def ran(stdout: str = "", stderr: str = "", code: int | None = 0, **more: Any) -> ProcessOutcome:
    return ProcessOutcome(code, stdout.encode(), stderr.encode(), 5.0, **more)


def spec(command: str = "true", **options: Any) -> HookSpec:
    return HookSpec(Dialect.QWEN, "PreToolUse", "/s", "user", command, None, 60.0,
                    options={"env": {}, **options})  # fmt: skip


def answer(event: str, *outcomes: ProcessOutcome) -> tuple[Combined, str]:
    """The combined outcome of hooks that finished with ``outcomes``, in this order, and
    the action Qwen takes."""
    req = request(event)
    reports = [HookReport(replace(spec(), order=i), i, o, qwen.interpret(spec(), req, o))
               for i, o in enumerate(outcomes)]  # fmt: skip
    combined = qwen.refine(req, Combined(), reports)
    return combined, qwen.action(req, combined)


# -- files (qwen-research.md §1.4, §2) -------------------------------------------------------


def test_rows_stand_on_their_own(tmp_path: Path) -> None:
    """§1.4: an unknown event is skipped in silence; an event that is no list, a group with
    no hooks, an unknown type, a command without one, a function: skipped and said; http and
    prompt hooks are the agent's; the rest kept, in order."""
    loaded = load(tmp_path, {
        "preToolUse": [{"hooks": [{"type": "command", "command": "a"}]}],
        "Stop": "x",
        "enabled": True,
        "PreToolUse": [{"matcher": "x"}, {"hooks": [
            {"type": "bogus", "command": "b"}, {"type": "command"},
            {"type": "function", "command": "c"}, {"type": "http", "url": "http://127.0.0.1/"},
            {"type": "command", "command": "d", "extra": 1}]}],
    })  # fmt: skip
    assert [s.command for s in loaded.hooks["PreToolUse"]] == ["d"]
    assert set(loaded.hooks) == {"PreToolUse"}
    assert loaded.error is not None
    assert 'event "Stop" from source "user" is not an array' in loaded.error
    assert "preToolUse" not in loaded.error
    assert "Invalid hook PreToolUse from user type: bogus" in loaded.error
    assert "Qwen Code runs it" in loaded.error


def test_broken_files(tmp_path: Path) -> None:
    """§1.4: a project file that is not JSON counts as empty (Qwen sets it aside); a user
    file that is not JSON is fatal; comments are fine."""
    bad = tmp_path / "settings.json"
    bad.write_text("{nope")
    project = config.load_settings(source(bad, "project"))
    user = config.load_settings(source(bad, "user"))
    assert not project.unreadable
    assert not project.hooks
    assert project.error
    assert user.unreadable
    bad.write_text('{// a comment\n"hooks": {"Stop": [{"hooks": [{"type": "command", '
                   '"command": "s"}]}]}}')  # fmt: skip
    assert [s.command for s in config.load_settings(source(bad)).hooks["Stop"]] == ["s"]


@pytest.mark.parametrize(("given", "seconds"), [
    (None, 60.0), (1, 1.0), (0.5, 0.5), (999, 999.0), (1500, 1.5), (0, 60.0), (-3, 60.0),
    ("1", 1.0), ("x", 60.0), (True, 60.0),
])  # fmt: skip
def test_timeouts_are_seconds_then_milliseconds(given: Any, seconds: float) -> None:
    """§4.3: seconds; 1000 or more is milliseconds; zero, negative or junk is 60 s."""
    assert config.timeout_s(given) == seconds


# -- matchers (§2.1) -------------------------------------------------------------------------


@pytest.mark.parametrize("matcher", [
    "Bash", "Shell", "ShellTool", "run_shell_command", "run_shell", "^run_shell_command$",
    "Bash|Edit", "run_.*", "*", "", ".*", " run_shell_command ", "shell", "command",
    "Bash |Edit", "run_shell_command|[",
])  # fmt: skip
def test_shell_matchers_that_match(matcher: str) -> None:
    assert qwen._matches(matcher, request())


@pytest.mark.parametrize("matcher", [
    "bash", "RUN_SHELL_COMMAND", "^(Bash|Edit)$", "(Bash)", "B.*h", "[", "mcp__.*",
    "Write|Edit", "^Bash$", "Ba", "exec", "/run_shell/", "Edit|[",
])  # fmt: skip
def test_shell_matchers_that_do_not(matcher: str) -> None:
    assert not qwen._matches(matcher, request())


def test_matchers_on_other_events() -> None:
    """§2.1: SessionStart's ``source`` by the same rule (a regular expression too); Stop
    ignores matchers."""
    start = request("SessionStart", {"source": "startup"})
    assert qwen._matches("start.*", start)
    assert not qwen._matches("resume", start)
    assert qwen._matches("nothing", request("Stop", {"x": 1}))


# -- selection (§1.2, §1.3, §2, §8) ----------------------------------------------------------


def _loaded(tmp_path: Path, layer: str, hooks: Any, **top: Any) -> tuple[Source, Loaded]:
    path = tmp_path / layer / "settings.json"
    write_json(path, {"hooks": hooks, **top})
    src = source(path, layer, "/w" if layer == "project" else None)
    return src, config.load_settings(src)


def _group(*commands: str, **more: Any) -> list[dict[str, Any]]:
    return [{"hooks": [{"type": "command", "command": c} for c in commands], **more}]


def test_project_first_and_duplicates(tmp_path: Path) -> None:
    """§1.2, §1.3: project, user, system defaults, system; a nameless command twice runs
    once (the project's); the same command under two names runs twice."""
    loaded = [
        _loaded(tmp_path, "project", {"PreToolUse": _group("dup", "prj")}),
        _loaded(tmp_path, "user", {"PreToolUse": [*_group("dup", "usr"), {"hooks": [{"type": "command", "command": "n", "name": "N1"}, {"type": "command", "command": "n", "name": "N2"}]}]}),
        _loaded(tmp_path, "system", {"PreToolUse": _group("sys")}),
    ]  # fmt: skip
    chosen, _ = qwen.select(loaded, request(env={"HOME": "/h"}))
    assert [(s.layer, s.command) for s in chosen] == [
        ("project", "dup"), ("project", "prj"), ("user", "usr"), ("user", "n"), ("user", "n"),
        ("system", "sys")]  # fmt: skip


def test_disable_all_hooks_last_file_wins(tmp_path: Path) -> None:
    """§8.2: user true turns every hook off; a project false after it turns them on."""
    user = _loaded(tmp_path, "user", {"PreToolUse": _group("u")}, disableAllHooks=True)
    assert qwen.select([user], request(env={"HOME": "/h"}))[0] == []
    project = _loaded(tmp_path, "project", {}, disableAllHooks=False)
    assert [s.command for s in qwen.select([project, user], request(env={"HOME": "/h"}))[0]] == [
        "u"]  # fmt: skip


def test_folder_trust(tmp_path: Path) -> None:
    """§8.1: with folder trust on and no rule, project hooks are dropped and user hooks
    run; a TRUST_FOLDER rule brings them back."""
    project = _loaded(tmp_path, "project", {"PreToolUse": _group("p")})
    user = _loaded(tmp_path, "user", {"PreToolUse": _group("u")},
                   security={"folderTrust": {"enabled": True}})  # fmt: skip
    home = tmp_path / "home"
    chosen, warnings = qwen.select([project, user], request(env={"HOME": str(home)}))
    assert [s.command for s in chosen] == ["u"]
    assert warnings
    write_json(home / ".qwen" / "trustedFolders.json", {"/w": "TRUST_FOLDER"})
    chosen, _ = qwen.select([project, user], request(env={"HOME": str(home)}))
    assert [s.command for s in chosen] == ["p", "u"]


def test_env_expansion_at_load(tmp_path: Path) -> None:
    """§2 (EXP x_env): $VAR and ${VAR} of the agent's environment, inside single quotes
    too; an unset one and the session ids stay; no :-default."""
    command = 'printf \'%s|\' "$FOO" \'${FOO}\' "$NOPE" "$SESSION_ID" ${X:-d}'
    loaded = [_loaded(tmp_path, "user", {"Stop": _group(command)})]
    chosen, _ = qwen.select(loaded, request("Stop", {"x": 1}, env={"FOO": "v", "HOME": "/h"}))
    assert chosen[0].command == 'printf \'%s|\' "v" \'v\' "$NOPE" "$SESSION_ID" ${X:-d}'


# -- running (§4) ----------------------------------------------------------------------------


def test_prepare_bash_env_and_stdin() -> None:
    """§3.1, §4.1, §4.2: bash -c in the session's folder, JSON.stringify's bytes, the
    project variables, the hook's env last."""
    hook = spec("echo hi", env={"QWEN_PROJECT_DIR": "/override"})
    launch = qwen.prepare(hook, request(payload={**PRE, "cwd": "/"}), {"PATH": "/bin"})
    assert isinstance(launch, Launch)
    assert launch.argv == ("bash", "-c", "echo hi")
    assert launch.cwd == "/"
    assert launch.stdin == json.dumps({**PRE, "cwd": "/"}, separators=(",", ":")).encode()
    env = launch.env
    assert env["CLAUDE_PROJECT_DIR"] == env["GEMINI_PROJECT_DIR"] == "/"
    assert env["QWEN_PROJECT_DIR"] == "/override"
    assert env["QWEN_CODE_SESSION_ID"] == "s-1"
    assert env["QWEN_CODE_PROJECT_DIR"] == "/h/.qwen/projects/-w"
    assert env["QWEN_CODE_PROMPT_ID"] == "s-1########0"
    assert env["QWEN_CODE_AGENT_ID"] == ""


def test_sequential_is_whole_event_and_chains() -> None:
    """§4.4: one sequential group makes the event sequential; a PreToolUse tool_input and a
    prompt's context reach the next hook."""
    assert qwen.sequential(request(), [spec(), spec(sequential=True)])
    assert not qwen.sequential(request(), [spec(), spec()])
    out = ran(json.dumps({"hookSpecificOutput": {"tool_input": {"command": "touch x"}}}))
    req = request()
    report = HookReport(spec(), 0, out, qwen.interpret(spec(), req, out))
    assert qwen.chained(req, report).payload["tool_input"] == {"command": "touch x"}
    ups = request("UserPromptSubmit", {"prompt": "p"})
    ctx = ran(json.dumps({"hookSpecificOutput": {"additionalContext": "CTX"}}))
    report = HookReport(spec(), 0, ctx, qwen.interpret(spec(), ups, ctx))
    assert qwen.chained(ups, report).payload["prompt"] == "p\n\nCTX"


# -- one hook's answer (§5.1) ----------------------------------------------------------------


def test_exit_two_reads_only_stderr() -> None:
    """§5.1: exit 2 with empty stderr does not block (stdout ignored); stderr JSON is the
    answer (so it may allow); stderr text is a deny."""
    deny = json.dumps({"decision": "deny", "reason": "R"})
    assert answer("PreToolUse", ran(deny, "", 2))[1] == "proceed"
    assert answer("PreToolUse", ran("", '{"decision":"allow"}', 2))[1] == "proceed"
    combined, act = answer("PreToolUse", ran("", "no way", 2))
    assert act == "block"
    assert combined.reason == "no way"


def test_json_counts_on_any_code() -> None:
    """§5.1: JSON on stdout with exit 1 blocks; JSON on stderr with empty stdout too;
    double-encoded JSON too; plain text never blocks; broken JSON is no answer."""
    deny = json.dumps({"decision": "deny", "reason": "R"})
    assert answer("PreToolUse", ran(deny, "", 1))[1] == "block"
    assert answer("PreToolUse", ran("", deny, 0))[1] == "block"
    assert answer("PreToolUse", ran(json.dumps(deny)))[1] == "block"
    assert answer("PreToolUse", ran("deny", "", 3))[1] == "proceed"
    combined, act = answer("PreToolUse", ran('{"decision":"deny"', "", 0))
    assert act == "proceed"
    assert combined.natives == ()


def test_plain_stdout_is_context_on_prompt_events() -> None:
    """§5.1 (Claude's rule, kept): plain stdout on exit 0 is context on SessionStart and
    UserPromptSubmit, a message elsewhere."""
    combined, _ = answer("UserPromptSubmit", ran("CTX\x1b[1m!\n"))
    assert combined.context == "CTX!"
    assert answer("PostToolUse", ran("hello"))[0].system_message == "hello"
    assert answer("PostToolUse", ran("hello", "", 1))[0].system_message == "Warning: hello"


def test_pre_tool_use_reads_permission_decision_first() -> None:
    """§5.2, §6 (EXP merge_hso_vs_block): an hso allow beats another hook's block; an hso
    deny's reason wins; no reason says "No reason provided"; ask refuses headless."""
    block = ran(json.dumps({"decision": "block"}))
    allow = ran(json.dumps({"hookSpecificOutput": {"permissionDecision": "allow"}}))
    assert answer("PreToolUse", block, allow)[1] == "proceed"
    hso = ran(json.dumps({"hookSpecificOutput": {"permissionDecision": "deny",
                                                  "permissionDecisionReason": "RC"}}))  # fmt: skip
    combined, act = answer("PreToolUse", ran('{"decision":"block","reason":"RA"}'), hso)
    assert act == "block"
    assert combined.reason == "RC"
    assert answer("PreToolUse", block)[0].reason == "No reason provided"
    ask = ran(json.dumps({"hookSpecificOutput": {"permissionDecision": "ask"}}))
    assert answer("PreToolUse", ask)[1] == "ask"
    stop = ran(json.dumps({"continue": False, "stopReason": "S"}))
    combined, act = answer("PreToolUse", stop)
    assert act == "block"
    assert combined.stop_reason == "S"


def test_post_tool_use() -> None:
    """§5.3: block is ignored, context goes through, continue:false replaces the result."""
    block = ran(json.dumps({"decision": "block", "reason": "R",
                            "hookSpecificOutput": {"additionalContext": "C"}}))  # fmt: skip
    combined, act = answer("PostToolUse", block)
    assert act == "proceed"
    assert combined.context == "C"
    assert answer("PostToolUse", ran('{"continue":false,"stopReason":"S"}'))[1] == "block"


def test_stop_block_and_continue_false_both_continue() -> None:
    """§5.7: a Stop block or continue:false sends the reason as a new turn."""
    combined, act = answer("Stop", ran('{"continue":false,"stopReason":"RS"}'))
    assert act == "block"
    assert combined.stop_reason == "RS"
    combined, act = answer("Stop", ran('{"decision":"block","reason":"RB"}'))
    assert act == "block"
    assert combined.reason == "RB"


def test_user_prompt_submit_block_ends_the_prompt() -> None:
    assert answer("UserPromptSubmit", ran('{"decision":"block","reason":"R"}'))[1] == "stop"


def test_merge_or_and_native() -> None:
    """§6: reasons and contexts joined with newlines, systemMessage from the later hook; the
    relay prints the merged answer."""
    one = ran(json.dumps({"systemMessage": "A", "hookSpecificOutput": {"additionalContext": "a"}}))
    two = ran(json.dumps({"systemMessage": "B", "hookSpecificOutput": {"additionalContext": "b"}}))
    combined, _ = answer("PostToolUse", one, two)
    assert combined.context == "a\nb"
    assert combined.system_message == "B"
    assert qwen.native(request("PostToolUse"), combined) == {
        "systemMessage": "B", "hookSpecificOutput": {"additionalContext": "a\nb"}}  # fmt: skip


def test_permission_request_deny_beats_allow() -> None:
    allow = ran(json.dumps({"hookSpecificOutput": {"decision": {
        "behavior": "allow", "updatedInput": {"command": "x"}}}}))  # fmt: skip
    deny = ran(json.dumps({"hookSpecificOutput": {"decision": {"behavior": "deny",
                                                               "message": "M"}}}))  # fmt: skip
    combined, act = answer("PermissionRequest", allow, deny)
    assert act == "block"
    assert combined.reason == "M"
    combined, act = answer("PermissionRequest", allow)
    assert act == "proceed"
    assert combined.updated_input == {"command": "x"}


def test_timeout_fails_open() -> None:
    _combined, act = answer("PreToolUse", ran(code=None, timed_out=True))
    assert act == "proceed"


# -- integration -----------------------------------------------------------------------------


def test_relay_timeout_in_qwens_unit() -> None:
    """The relay entry's timeout covers the slowest hook plus 10 s, in seconds, written in
    milliseconds when it would be 1000 s or more (Qwen reads such a number as ms)."""
    assert integration._relay_timeout([{"hooks": [{"timeout": 5}]}]) == 15
    assert integration._relay_timeout([{"hooks": [{"timeout": 1500}]}]) == 12
    assert integration._relay_timeout([{"hooks": [{"timeout": 995}]}]) == 1005000
    assert integration._relay_timeout([]) == 70


def test_a_hook_that_never_ran_blocks_a_permission_request() -> None:
    """hookd's never-ran rule (a guard event): the block reaches PermissionRequest too,
    whose hooks' top-level decision Qwen does not read."""
    req = request("PermissionRequest")
    never = HookReport(spec(), 0, ran(code=None), Verdict(blocks=True, reason="never ran"))
    combined = qwen.refine(req, Combined(), [never])
    assert qwen.action(req, combined) == "block"
    assert combined.reason == "never ran"
