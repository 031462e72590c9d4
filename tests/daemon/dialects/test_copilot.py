"""GitHub Copilot CLI's hooks (1.0.102): its files and their order, both payload forms,
matchers, its chain and how several answers combine, each rule citing
``copilot-research.md`` (the agent, run); ``tests/agents/copilot`` holds the real agent to
the same rules."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hookd.daemon.dialects.copilot import config, output, payload
from hookd.daemon.dialects.copilot import dialect as copilot
from hookd.daemon.model import (
    Dialect,
    FireRequest,
    HookReport,
    HookSpec,
    Launch,
    ProcessOutcome,
    Source,
)
from hookd_testing import write_json

PRE = {"sessionId": "s", "timestamp": 1795803746233, "cwd": "/w", "toolName": "bash",
       "toolArgs": {"command": "ls", "description": "t"}}  # fmt: skip


def folder(tmp_path: Path, layer: str = "user") -> Source:
    return Source(Dialect.COPILOT, layer, str(tmp_path / "hooks"), "hookdir")


def hook_file(tmp_path: Path, name: str, hooks: Any, **top: Any) -> Path:
    return write_json(tmp_path / "hooks" / name, {"version": 1, "hooks": hooks, **top})


def request(event: str = "preToolUse", body: dict[str, Any] | None = None,
            relay: bool = False) -> FireRequest:  # fmt: skip
    return FireRequest(Dialect.COPILOT, event, ("/w",), dict(body or PRE), relay=relay)


def spec(event: str = "preToolUse", command: str = "x", **options: Any) -> HookSpec:
    return HookSpec(Dialect.COPILOT, event, "/f.json", "user", command, None, 30.0,
                    options={"form": "camel", "label": "/f.json", "kind": "command", **options})  # fmt: skip


def report(event: str, stdout: str = "", code: int = 0, index: int = 0, **more: Any) -> HookReport:
    s = spec(event, **more)
    outcome = ProcessOutcome(code, stdout.encode(), b"", 1.0)
    return HookReport(s, index, outcome, output.interpret(s, outcome))


# -- files (copilot-research.md §1.1, §1.4) ---------------------------------------------


def test_a_folder_is_read_recursively_shallower_first_in_descending_order(tmp_path: Path) -> None:
    """copilot-research.md §1.1: é, c, aa, a, "a b", B, then b/y, b/x, then d/e/z."""
    for name in (
        "a.json",
        "aa.json",
        "a b.json",
        "B.json",
        "c.json",
        "é.json",
        "b/x.json",
        "b/y.json",
        "d/e/z.json",
        ".hidden.json",
        "up.JSON",
        "z.json.bak",
    ):
        hook_file(tmp_path, name, {"preToolUse": [{"bash": name}]})

    found = [Path(p).relative_to(tmp_path / "hooks").as_posix()
             for p in config.folder_files(str(tmp_path / "hooks"))]  # fmt: skip

    assert found == ["é.json", "c.json", "aa.json", "a.json", "a b.json", "B.json", "b/y.json",
                     "b/x.json", "d/e/z.json"]  # fmt: skip


def test_policy_files_are_flat_and_ascending(tmp_path: Path) -> None:
    """copilot-research.md §1.1: ascending byte order, not recursive."""
    for name in ("b.json", "a.json", "_u.json", "A.json", "sub/x.json"):
        write_json(tmp_path / name, {"hooks": {}})
    names = [Path(p).name for p in config.policy_files(str(tmp_path))]
    assert names == ["A.json", "_u.json", "a.json", "b.json"]


@pytest.mark.parametrize(("content", "says"), [
    ("{", "Invalid JSON"),
    ("", "EOF while parsing"),
    ({"version": 2, "hooks": {}}, "version: Invalid hook config version"),
    ({"version": "1", "hooks": {}}, "version: Invalid hook config version"),
    ({"hooks": []}, "hooks: hooks must be an object"),
    ({"version": 1}, "hooks: hooks must be an object"),
    ({"hooks": {"preToolUse": {}}}, "hooks.preToolUse: hook event value must be an array"),
    ({"disableAllHooks": "yes", "hooks": {}}, "disableAllHooks must be a boolean"),
    ({"hooks": {"preToolUse": [{"hooks": [{"hooks": []}]}]}}, "Nested hooks deeper"),
])  # fmt: skip
def test_what_skips_the_whole_file(tmp_path: Path, content: Any, says: str) -> None:
    """copilot-research.md §1.4: the whole file is skipped, with the agent's words."""
    path = tmp_path / "hooks" / "h.json"
    path.parent.mkdir()
    path.write_text(content if isinstance(content, str) else json.dumps(content))

    loaded = copilot.load_folder(folder(tmp_path))

    assert loaded.hooks == {}
    assert loaded.error is not None
    assert says in loaded.error


@pytest.mark.parametrize(("item", "says"), [
    (None, "Expected object"),
    ({"type": "script", "bash": "x"}, ".type: Invalid hook type"),
    ({"type": "command"}, "Specify either 'exec'"),
    ({"exec": "x", "bash": "y"}, "Specify either 'exec'"),
    ({"bash": "x", "matcher": ""}, "matcher cannot be empty"),
    ({"bash": "x", "matcher": "*"}, "Invalid matcher regex in preToolUse hook: '*'"),
    ({"bash": "x", "timeoutSec": 0}, "timeoutSec must be positive"),
    ({"bash": "x", "timeoutSec": "1"}, "timeoutSec must be a number"),
    ({"bash": "x", "env": {"N": 1}}, 'env["N"]: env values must be strings'),
])  # fmt: skip
def test_a_bad_handler_is_skipped_and_the_rest_loads(tmp_path: Path, item: Any, says: str) -> None:
    """copilot-research.md §1.4: per handler, `— hook will be skipped`."""
    hook_file(tmp_path, "h.json", {"preToolUse": [item, {"bash": "good"}], "fooBar": [1]})

    loaded = copilot.load_folder(folder(tmp_path))

    assert [s.command for s in loaded.hooks["preToolUse"]] == ["good"]
    assert loaded.error is not None
    assert says in loaded.error
    assert "hook will be skipped" in loaded.error


def test_a_settings_file_drops_every_hook_for_one_bad_handler(tmp_path: Path) -> None:
    """copilot-research.md §1.4: settings are strict."""
    path = write_json(tmp_path / "settings.json", {"hooks": {
        "preToolUse": [{"bash": "good"}], "sessionStart": [{"type": "nope", "bash": "x"}]}})  # fmt: skip
    loaded = copilot.load(Source(Dialect.COPILOT, "project", str(path), "settings", "/w"))
    assert loaded.hooks == {}
    assert loaded.error is not None
    assert "Settings config error" in loaded.error


def test_handlers_formats(tmp_path: Path) -> None:
    """copilot-research.md §2, §4.1: bash wins over command; exec with args; a Claude
    group's matcher; timeoutSec (or timeout) in seconds, 30 by default."""
    hook_file(tmp_path, "h.json", {"preToolUse": [
        {"bash": "b", "command": "c", "timeout": 2.5},
        {"exec": "echo", "args": ["x", "y"]},
        {"matcher": "bash", "hooks": [{"type": "command", "command": "grouped"}]},
    ]})  # fmt: skip
    specs = copilot.load_folder(folder(tmp_path)).hooks["preToolUse"]
    assert [s.options["argv"] for s in specs] == [
        ("/bin/bash", "--norc", "--noprofile", "-c", "b"), ("echo", "x", "y"),
        ("/bin/bash", "--norc", "--noprofile", "-c", "grouped"),
    ]  # fmt: skip
    assert [s.timeout_s for s in specs] == [2.5, 30.0, 30.0]
    assert specs[2].matcher == "bash"


# -- payload forms (copilot-research.md §3.2) ---------------------------------------------


def test_the_pascal_form_of_pre_tool_use() -> None:
    """copilot-research.md §3.1: snake_case keys in the agent's order, ISO time, Bash."""
    made = payload.pascal("preToolUse", PRE)
    assert json.dumps(made) == json.dumps({
        "hook_event_name": "PreToolUse", "session_id": "s",
        "timestamp": "2026-11-27T18:22:26.233Z", "cwd": "/w", "tool_name": "Bash",
        "tool_input": {"command": "ls", "description": "t"}})  # fmt: skip


def test_the_pascal_forms_that_are_not_snake_case() -> None:
    """copilot-research.md §3.2: PermissionRequest as it is; SubagentStart a hybrid."""
    perm = {"hookName": "permissionRequest", "sessionId": "s", "toolName": "bash"}
    assert payload.pascal("permissionRequest", perm) == perm
    start = {"sessionId": "s", "timestamp": 1, "cwd": "/w", "transcriptPath": "t",
             "agentName": "explore", "agentId": "a", "agentType": "x", "parentAgentId": "p"}  # fmt: skip
    assert list(payload.pascal("subagentStart", start)) == [
        "sessionId", "timestamp", "cwd", "transcriptPath", "agentName", "agent_id",
        "agent_type", "parent_agent_id"]  # fmt: skip


def test_a_pascal_handler_of_a_camel_fire_gets_its_form() -> None:
    launch = copilot.prepare(spec("PreToolUse", "cat"), request(), {"PATH": "/bin"})
    assert isinstance(launch, Launch)
    assert json.loads(launch.stdin)["tool_name"] == "Bash"
    assert not launch.stdin.endswith(b"\n")


def test_the_environment(tmp_path: Path) -> None:
    """copilot-research.md §4.3: tokens out, project variables not movable by env."""
    s = spec(env={"COPILOT_PROJECT_DIR": "/x", "CASE": "${HOME}"}, hook_dir="/h")
    base = {"PATH": "/bin", "GITHUB_TOKEN": "t", "GH_TOKEN": "g", "COPILOT_PROVIDER_API_KEY": "k"}
    launch = copilot.prepare(s, request(), base)
    assert isinstance(launch, Launch)
    env = launch.env
    assert "GITHUB_TOKEN" not in env
    assert "COPILOT_PROVIDER_API_KEY" not in env
    assert env["GH_TOKEN"] == "g"
    assert env["CASE"] == "${HOME}"
    assert env["COPILOT_PROJECT_DIR"] == env["CLAUDE_PROJECT_DIR"] == "/w"
    assert env["COPILOT_HOOK_DIR"] == "/h"
    assert launch.cwd == "/w"


# -- matchers (copilot-research.md §3.4) --------------------------------------------------


@pytest.mark.parametrize(("matcher", "camel", "pascal"), [
    ("bash", True, True), ("Bash", False, True), ("Bash|x", False, True),
    ("bash|edit", True, True), ("b.*", True, False), ("(bash)", True, False),
    ("^bash$", True, False), (".*", True, True), ("ba", False, False), ("BASH", False, False),
])  # fmt: skip
def test_matchers(matcher: str, camel: bool, pascal: bool) -> None:
    camel_spec = HookSpec(Dialect.COPILOT, "preToolUse", "/f", "user", "x", None, 30, matcher)
    pascal_spec = HookSpec(Dialect.COPILOT, "PreToolUse", "/f", "user", "x", None, 30, matcher)
    assert copilot.matches(camel_spec, request()) is camel
    assert copilot.matches(pascal_spec, request()) is pascal


# -- answers, the chain, combination (copilot-research.md §5) ------------------------------


def test_a_deny_ends_the_chain_and_the_first_reason_wins() -> None:
    deny = report(
        "preToolUse", json.dumps({"permissionDecision": "deny", "permissionDecisionReason": "R"})
    )
    assert copilot.chained(request(), deny) is None
    found = output.combine("preToolUse", [deny])
    assert found.blocked
    assert found.reason == "Denied by preToolUse hook: R"


def test_modified_args_are_handed_on() -> None:
    rewrite = report("preToolUse", json.dumps({"modifiedArgs": {"command": "echo"}}))
    after = copilot.chained(request(), rewrite)
    assert after is not None
    assert after.payload["toolArgs"] == {"command": "echo"}
    pascal_after = copilot.chained(
        request("PreToolUse", payload.pascal("preToolUse", PRE)), rewrite
    )
    assert pascal_after is not None
    assert pascal_after.payload["tool_input"] == {"command": "echo"}


@pytest.mark.parametrize(("code", "stdout", "reason"), [
    (2, "", "Denied by preToolUse hook: hook exited with code 2"),
    (2, '{"permissionDecision":"allow","permissionDecisionReason":"x"}', "Denied by preToolUse hook: x"),
    (1, "", 'Denied by preToolUse hook from "/f.json" (hook errored)'),
    (0, '{"permissionDecision":"deny"}', "Denied by preToolUse hook: No reason provided"),
    (0, '{"type":"progress"}\n{"permissionDecision":"deny","permissionDecisionReason":5}',
     "Denied by preToolUse hook: 5"),
])  # fmt: skip
def test_pre_tool_use_denies(code: int, stdout: str, reason: str) -> None:
    """copilot-research.md §5.2, §5.3."""
    found = output.combine("preToolUse", [report("preToolUse", stdout, code)])
    assert found.blocked
    assert found.reason == reason


@pytest.mark.parametrize("stdout", ["deny", "[]", "null", '{"a":1}{"b":2}', 'x{"permissionDecision":"deny"}',
                                    '{"decision":"block","reason":"r"}', '{"permissionDecision":"DENY"}'])  # fmt: skip
def test_what_is_no_answer(stdout: str) -> None:
    """copilot-research.md §5.1: the tool runs."""
    found = output.combine("preToolUse", [report("preToolUse", stdout)])
    assert not found.blocked
    assert found.decision is None


def test_permission_answers_merge_the_later_winning() -> None:
    """copilot-research.md §5.4: deny then allow is allow; exit 2 then allow, allowed."""
    deny = report("permissionRequest", '{"behavior":"deny","message":"m"}')
    allow = report("permissionRequest", '{"behavior":"allow"}', index=1)
    assert output.combine("permissionRequest", [deny, allow]).decision == "allow"
    assert (
        output.combine("permissionRequest", [report("permissionRequest", "", 2), allow]).decision
        == "allow"
    )
    failed = output.combine("permissionRequest", [report("permissionRequest", "", 1)])
    assert failed.blocked
    assert failed.reason == (
        "Permission denied by a PermissionRequest hook: Permission request hook failed"
    )


def test_prompt_answers() -> None:
    """copilot-research.md §5.4: the last context wins; a block needs a reason."""
    first = report("userPromptSubmitted", '{"additionalContext":"a"}')
    second = report("userPromptSubmitted", '{"additionalContext":"b"}', index=1)
    assert output.combine("userPromptSubmitted", [first, second]).contexts == ["b"]
    assert not output.combine(
        "userPromptSubmitted", [report("userPromptSubmitted", '{"decision":"block"}')]
    ).blocked
    blocked = output.combine(
        "userPromptSubmitted", [report("userPromptSubmitted", '{"decision":"block","reason":""}')]
    )
    assert blocked.blocked
    assert blocked.stop


def test_a_failing_policy_hook_blocks_the_prompt() -> None:
    """copilot-research.md §5.2."""
    s = HookSpec(Dialect.COPILOT, "userPromptSubmitted", "/etc/p.json", "policy", "x", None, 30,
                 options={"label": "/etc/p.json", "kind": "command", "form": "camel"})  # fmt: skip
    outcome = ProcessOutcome(1, b"", b"", 1.0)
    found = output.combine(
        "userPromptSubmitted", [HookReport(s, 0, outcome, output.interpret(s, outcome))]
    )
    assert found.blocked
    assert found.reason == "Policy hook failed"


def test_a_timed_out_hook_is_as_if_it_had_not_run() -> None:
    s = spec()
    outcome = ProcessOutcome(None, b'{"permissionDecision":"deny"}', b"", 1000.0, timed_out=True)
    verdict = output.interpret(s, outcome)
    assert verdict.error is not None
    assert verdict.error.startswith("HookTimeoutError: Hook command timed out after 30 seconds")
    assert not output.combine("preToolUse", [HookReport(s, 0, outcome, verdict)]).blocked


def test_native_is_one_hooks_answer() -> None:
    reports = [report("preToolUse", '{"additionalContext":"a"}'),
               report("preToolUse", '{"additionalContext":"b","permissionDecision":"deny"}', index=1)]  # fmt: skip
    from hookd.daemon.fire.combine import combine

    combined = copilot.refine(request(), combine(reports, copilot.POLICY), reports)
    assert copilot.native(request(), combined) == {
        "additionalContext": "a\n\nb", "permissionDecision": "deny",
        "permissionDecisionReason": "No reason provided"}  # fmt: skip
    assert copilot.action(request(), combined) == "block"


def test_an_http_hook_of_an_authorization_event_must_be_https(tmp_path: Path) -> None:
    """copilot-research.md §1.4: skipped at load unless https, or allowed by a variable."""
    hook_file(tmp_path, "h.json", {"preToolUse": [{"type": "http", "url": "http://127.0.0.1:9/h"}],
                                   "postToolUse": [{"type": "http", "url": "http://127.0.0.1:9/h"}]})  # fmt: skip
    source = folder(tmp_path)
    loaded = [(source, copilot.load_folder(source))]

    chosen, warnings = copilot.select(loaded, request())
    assert chosen == []
    assert "must use https://" in warnings[0]
    allowed = FireRequest(Dialect.COPILOT, "preToolUse", ("/w",), PRE,
                          env={"COPILOT_HOOK_ALLOW_LOCALHOST": "1"})  # fmt: skip
    assert len(copilot.select(loaded, allowed)[0]) == 1
    assert len(copilot.select(loaded, request("postToolUse"))[0]) == 1
