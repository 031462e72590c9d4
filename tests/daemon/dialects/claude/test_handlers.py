"""Claude Code's http, prompt/agent/mcp_tool and async handlers, CLAUDE_ENV_FILE, output caps.

Reference: ``claude-code-hooks-reference-v2.1.240.md`` ("HTTP hook fields", "HTTP response
handling", "MCP tool hook fields", "Prompt-based hooks", "Agent-based hooks", "Run hooks
in the background", "Persist environment variables", "JSON output" caps).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import trio

from hookd_testing import Gate, RpcClient, claude_settings, command, wait_until, write_json
from hookd_testing.http_server import http_server


def project(workspace: Path, settings: dict[str, Any]) -> Path:
    return write_json(workspace / ".claude" / "settings.json", settings)


async def fire(rpc: RpcClient, workspace: Path, event: str, payload=None, **extra):
    return await rpc.fire("claude", event, [str(workspace)], payload or {}, **extra)


def http(url: str, **fields: Any) -> dict[str, Any]:
    return {"type": "http", "url": url, **fields}


# http ----------------------------------------------------------------------------------
async def test_http_hook_posts_the_event_and_interpolates_only_allowed_variables(
    rpc, workspace
) -> None:
    """POST of the event JSON as application/json; $VAR/${VAR} in headers resolve only for
    names in allowedEnvVars, others become empty."""
    async with http_server() as server:
        project(workspace, claude_settings("PreToolUse", http(
            server.url("/hooks/pre"), allowedEnvVars=["MY_TOKEN"],
            headers={"Authorization": "Bearer $MY_TOKEN", "X-Other": "[${SECRET}]"})))  # fmt: skip
        payload = {"session_id": "s1", "tool_name": "Bash", "tool_input": {"command": "ls"}}

        result = await fire(rpc, workspace, "PreToolUse", payload,
                            env={"MY_TOKEN": "t0k", "SECRET": "leak"})  # fmt: skip

    sent = server.requests[0]
    assert (sent.method, sent.target) == ("POST", "/hooks/pre")
    assert sent.headers["content-type"] == "application/json"
    assert sent.headers["authorization"] == "Bearer t0k"
    assert sent.headers["x-other"] == "[]"
    assert sent.json()["tool_input"] == {"command": "ls"}
    assert sent.json()["hook_event_name"] == "PreToolUse"
    assert result["blocked"] is False
    assert result["hooks"][0]["error"] is None


async def test_http_2xx_json_is_parsed_like_command_output(rpc, workspace) -> None:
    """2xx with a JSON object body: the same JSON output schema as command hooks."""
    body = {"hookSpecificOutput": {"hookEventName": "PreToolUse",
            "permissionDecision": "deny", "permissionDecisionReason": "no writes"}}  # fmt: skip
    async with http_server(lambda r: (200, json.dumps(body).encode())) as server:
        project(workspace, claude_settings("PreToolUse", http(server.url())))
        result = await fire(rpc, workspace, "PreToolUse", {"tool_name": "Bash"})

    assert result["blocked"] is True
    assert result["reason"] == "no writes"
    assert result["native"]["hookSpecificOutput"]["permissionDecision"] == "deny"


async def test_http_failures_are_non_blocking_errors(rpc, workspace) -> None:
    """Non-2xx, a 2xx plain-text body and a refused connection never block; each says why,
    in Claude Code 2.1.328's words."""
    answers = iter([(500, b"boom"), (200, b"plain text"), (204, b"")])
    async with http_server(lambda r: next(answers)) as server:
        project(workspace, claude_settings("UserPromptSubmit", http(server.url())))
        statuses = [await fire(rpc, workspace, "UserPromptSubmit", {"prompt": "x"})
                    for _ in range(3)]  # fmt: skip
    project(workspace, claude_settings("UserPromptSubmit", http(server.url())))  # now closed
    refused = await fire(rpc, workspace, "UserPromptSubmit", {"prompt": "x"})

    errors = [r["hooks"][0]["error"] for r in [*statuses, refused]]
    assert errors[0] == f"HTTP hook: HTTP 500 from {server.url()}"
    assert errors[1] == (
        "HTTP hook: HTTP hook must return JSON, but got non-JSON response body: plain text"
    )
    assert errors[2] is None
    assert errors[3] == f"HTTP hook: connect ECONNREFUSED 127.0.0.1:{server.port}"
    assert not any(r["blocked"] for r in [*statuses, refused])
    assert statuses[1]["context"] is None  # "doesn't add the text to Claude's context"


BLOCK = 'failed; blocking because onFailure is "block"'
WRONG_TYPE = {"hookSpecificOutput": {"hookEventName": "PreToolUse",
              "permissionDecision": "deny", "permissionDecisionReason": 5}}  # fmt: skip
OTHER_EVENT = {"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "x"}}


async def test_http_on_failure_block_blocks_on_every_failure_the_agent_counts(
    rpc, workspace
) -> None:
    """onFailure: "block" on an http hook: a status other than 2xx, a body that is not a
    JSON object, JSON that does not parse, fails the schema or names another event, a
    refused connection and a timeout each block the tool, with the agent's reason; an
    empty 2xx and a usable answer do not (tests/agents/claude ``pre-http-on-failure-*``)."""
    answers = iter([(503, b"down"), (200, b"plain"), (200, b"{not json"),
                    (200, json.dumps(WRONG_TYPE).encode()),
                    (200, json.dumps(OTHER_EVENT).encode()), (200, b""), (200, b"{}"),
                    (200, b"")])  # fmt: skip
    async with http_server(lambda r: next(answers)) as server:
        url = server.url("/h")
        project(workspace, claude_settings("PreToolUse", http(url, onFailure="block")))
        results = [await fire(rpc, workspace, "PreToolUse", {"tool_name": "Bash"})
                   for _ in range(7)]  # fmt: skip
        server.hold = trio.Event()
        project(workspace, claude_settings("PreToolUse", http(url, onFailure="block",
                                                              timeout=0.2)))  # fmt: skip
        late = await fire(rpc, workspace, "PreToolUse", {"tool_name": "Bash"})
        server.hold.set()
    refused = await fire(rpc, workspace, "PreToolUse", {"tool_name": "Bash"})  # closed now

    reasons = [r["reason"] for r in [*results, late, refused]]
    assert reasons == [
        f"{BLOCK}\nHTTP 503 from {url}",
        f"{BLOCK}\nHTTP hook must return JSON, but got non-JSON response body: plain",
        reasons[2],
        f"{BLOCK}\nHook JSON output validation failed \u2014 "
        "hookSpecificOutput.permissionDecisionReason: expected string, received number",
        f"{BLOCK}\nFailed to run: Hook returned incorrect event name: expected 'PreToolUse' "
        "but got 'PostToolUse'",
        None,
        None,
        'timed out; blocking because onFailure is "block"',
        f"{BLOCK}\nconnect ECONNREFUSED 127.0.0.1:{server.port}",
    ]
    assert reasons[2].startswith(f"{BLOCK}\nHTTP hook must return valid JSON, but parsing failed")
    blocked = [r["blocked"] for r in [*results, late, refused]]
    assert blocked == [True, True, True, True, True, False, False, True, True]
    assert results[0]["hooks"][0]["error"] == reasons[0]


async def test_a_refused_url_is_a_failed_hook_that_on_failure_block_turns_into_a_block(
    rpc, workspace, isolated_home
) -> None:
    """An http hook whose URL allowedHttpHookUrls refuses is sent nothing and fails, as the
    agent's does: a non-blocking error, or with onFailure: "block" a block."""
    async with http_server() as server:
        write_json(isolated_home / ".claude" / "settings.json",
                   {"allowedHttpHookUrls": ["https://hooks.example.com/*"]})  # fmt: skip
        project(workspace, claude_settings("PreToolUse", http(server.url("/x"))))
        plain = await fire(rpc, workspace, "PreToolUse", {"tool_name": "Bash"})
        project(workspace, claude_settings("PreToolUse", http(server.url("/x"),
                                                              onFailure="block")))  # fmt: skip
        blocked = await fire(rpc, workspace, "PreToolUse", {"tool_name": "Bash"})

    refusal = (f"HTTP hook blocked: {server.url('/x')} does not match any pattern in "
               "allowedHttpHookUrls")  # fmt: skip
    assert server.requests == []
    assert plain["blocked"] is False
    assert plain["hooks"][0]["error"] == f"HTTP hook: {refusal}"
    assert blocked["blocked"] is True
    assert blocked["reason"] == f"{BLOCK}\n{refusal}"


async def test_http_timeout_cancels_and_renders_no_decision(rpc, workspace) -> None:
    async with http_server(lambda r: (200, b'{"decision": "block", "reason": "late"}')) as server:
        server.hold = trio.Event()
        project(workspace, claude_settings("Stop", http(server.url(), timeout=0.2)))
        result = await fire(rpc, workspace, "Stop", {})
        server.hold.set()

    assert result["hooks"][0]["timedOut"] is True
    assert result["blocked"] is False


async def test_http_allowlists_from_settings(rpc, workspace, isolated_home) -> None:
    """allowedHttpHookUrls (merged over layers) gates the URL; httpHookAllowedEnvVars
    narrows a handler's allowedEnvVars."""
    async with http_server() as server:
        write_json(isolated_home / ".claude" / "settings.json", {
            "allowedHttpHookUrls": [f"http://127.0.0.1:{server.port}/ok*"],
            "httpHookAllowedEnvVars": ["A"]})  # fmt: skip
        project(workspace, claude_settings("Stop",
            http(server.url("/ok/1"), headers={"X": "$A-$B"}, allowedEnvVars=["A", "B"]),
            http(server.url("/other"))))  # fmt: skip
        result = await fire(rpc, workspace, "Stop", {}, env={"A": "a", "B": "b"})

    assert [r.target for r in server.requests] == ["/ok/1"]
    assert server.requests[0].headers["x"] == "a-"
    assert any("allowedHttpHookUrls" in w for w in result["warnings"])


async def test_http_is_not_run_where_claude_does_not_support_it(rpc, workspace) -> None:
    """SessionStart and Setup support command and mcp_tool only."""
    async with http_server() as server:
        project(workspace, claude_settings("SessionStart", http(server.url())))
        result = await fire(rpc, workspace, "SessionStart", {"source": "startup"})

    assert server.requests == []
    assert "does not run http hooks on SessionStart" in result["warnings"][0]


async def test_http_worktree_create_reads_worktree_path(rpc, workspace) -> None:
    body = {"hookSpecificOutput": {"hookEventName": "WorktreeCreate", "worktreePath": "/wt/a"}}
    async with http_server(lambda r: (200, json.dumps(body).encode())) as server:
        project(workspace, claude_settings("WorktreeCreate", http(server.url())))
        ok = await fire(rpc, workspace, "WorktreeCreate", {"name": "a"})
    project(workspace, claude_settings("WorktreeCreate", http(server.url())))
    failed = await fire(rpc, workspace, "WorktreeCreate", {"name": "a"})

    assert ok["native"]["hookSpecificOutput"]["worktreePath"] == "/wt/a"
    assert ok["blocked"] is False
    assert failed["blocked"] is True  # "Hook failure or missing path fails creation"


# handlers the client runs ---------------------------------------------------------------
async def fire_answering(
    rpc: RpcClient,
    params: dict[str, Any],
    answer: Callable[[dict[str, Any]], dict[str, Any] | None],
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Fire, answering each hook/run request with ``answer(params)`` (a JSON-RPC reply
    body: {"result": ...} or {"error": ...}; None = never answer). Returns the fire result
    and every message the daemon sent besides it."""
    fire_id = await rpc.start("fire", params)
    seen: list[dict[str, Any]] = []
    while True:
        message = await rpc.recv()
        if message.get("id") == fire_id and "method" not in message:
            assert "result" in message, message
            return message["result"], seen
        seen.append(message)
        if message.get("method") == "hook/run":
            reply = answer(message["params"])
            if reply is not None:
                await rpc.send({"jsonrpc": "2.0", "id": message["id"], **reply})


def fire_params(workspace: Path, event: str, payload: dict[str, Any], **extra: Any):
    return {"agent": "claude", "event": event, "workspaceRoots": [str(workspace)],
            "payload": payload, **extra}  # fmt: skip


async def test_prompt_hook_is_run_by_the_client_and_its_ok_false_blocks_stop(
    rpc, workspace
) -> None:
    """hookd sends hook/run with the prompt rendered ($ARGUMENTS = the hook input); an
    {ok: false, reason} answer on Stop keeps Claude working with the reason."""
    project(workspace, claude_settings("Stop", {"type": "prompt",
            "prompt": "Evaluate: $ARGUMENTS. Costs \\$1.", "model": "fast"}))  # fmt: skip
    payload = {"session_id": "s1", "stop_hook_active": False}

    result, seen = await fire_answering(
        rpc, fire_params(workspace, "Stop", payload, clientHandlers=["prompt"]),
        lambda p: {"result": {"ok": False, "reason": "tests still fail"}})  # fmt: skip

    run = next(m["params"] for m in seen if m.get("method") == "hook/run")
    assert run["type"] == "prompt"
    assert run["event"] == "Stop"
    assert run["prompt"].startswith("Evaluate: {")
    assert run["prompt"].endswith(". Costs $1.")
    assert json.loads(run["prompt"][len("Evaluate: ") : -len(". Costs $1.")])["session_id"] == "s1"
    assert run["timeoutMs"] == 30000  # the prompt default
    assert result["blocked"] is True
    assert result["native"] == {"decision": "block", "reason": "tests still fail"}


async def test_prompt_impossible_lets_stop_happen_and_ok_true_allows(rpc, workspace) -> None:
    project(workspace, claude_settings("Stop", {"type": "prompt", "prompt": "p"}))
    answers = iter([{"ok": False, "reason": "never", "impossible": True}, {"ok": True}])
    for _ in range(2):
        result, _seen = await fire_answering(
            rpc, fire_params(workspace, "Stop", {}, clientHandlers=["prompt"]),
            lambda p: {"result": next(answers)})  # fmt: skip
        assert result["blocked"] is False


async def test_agent_hook_on_pre_tool_use_denies_and_continues(rpc, workspace) -> None:
    """Agent hooks act as continueOnBlock: true: a deny fed back to Claude, turn goes on."""
    project(workspace, claude_settings("PreToolUse", {"type": "agent", "prompt": "verify"}))

    result, _seen = await fire_answering(
        rpc, fire_params(workspace, "PreToolUse", {"tool_name": "Bash"}, clientHandlers=["agent"]),
        lambda p: {"result": {"ok": False, "reason": "unsafe"}})  # fmt: skip

    assert (result["blocked"], result["reason"], result["continue"]) == (True, "unsafe", True)


async def test_prompt_on_pre_tool_use_ends_the_turn_unless_continue_on_block(
    rpc, workspace
) -> None:
    for continue_on_block, keeps_going in ((False, False), (True, True)):
        project(workspace, claude_settings("PreToolUse", {"type": "prompt", "prompt": "p",
                "continueOnBlock": continue_on_block}))  # fmt: skip
        result, _seen = await fire_answering(
            rpc, fire_params(workspace, "PreToolUse", {}, clientHandlers=["prompt"]),
            lambda p: {"result": {"ok": False, "reason": "no"}})  # fmt: skip
        assert result["blocked"] is True
        assert result["continue"] is keeps_going


async def test_mcp_tool_text_is_read_like_stdout(rpc, workspace) -> None:
    """The tool's text content follows the exit-0 parsing rule; ${path} is substituted."""
    project(workspace, claude_settings("PostToolUse", {"type": "mcp_tool", "server": "my_server",
            "tool": "security_scan", "input": {"file_path": "${tool_input.file_path}"}}))  # fmt: skip
    verdict = {"decision": "block", "reason": "secret in file"}
    payload = {"tool_name": "Write", "tool_input": {"file_path": "/p/a.ts"}}

    result, seen = await fire_answering(
        rpc, fire_params(workspace, "PostToolUse", payload, clientHandlers=["mcp_tool"]),
        lambda p: {"result": {"content": [{"type": "text", "text": json.dumps(verdict)}]}})  # fmt: skip

    run = next(m["params"] for m in seen if m.get("method") == "hook/run")
    assert (run["server"], run["tool"], run["input"]) == (
        "my_server", "security_scan", {"file_path": "/p/a.ts"})  # fmt: skip
    assert result["blocked"] is True
    assert result["reason"] == "secret in file"


async def test_mcp_tool_errors_and_refusals_are_non_blocking(rpc, workspace) -> None:
    """isError: true, a JSON-RPC error (server not connected) are non-blocking errors."""
    project(
        workspace, claude_settings("PreToolUse", {"type": "mcp_tool", "server": "s", "tool": "t"})
    )
    answers = iter([
        {"result": {"content": [{"type": "text", "text": "denied"}], "isError": True}},
        {"error": {"code": -32000, "message": "MCP server s is not connected"}},
    ])  # fmt: skip
    results = [
        (await fire_answering(rpc, fire_params(workspace, "PreToolUse", {},
                              clientHandlers=["mcp_tool"]), lambda p: next(answers)))[0]
        for _ in range(2)
    ]  # fmt: skip

    assert "the tool reported an error: denied" in results[0]["hooks"][0]["error"]
    assert "MCP server s is not connected" in results[1]["hooks"][0]["error"]
    assert not any(r["blocked"] for r in results)


async def test_a_client_that_does_not_run_a_handler_type_is_told_so(rpc, workspace) -> None:
    """No clientHandlers: the hook is not run, and its entry says what the client must do."""
    project(workspace, claude_settings("Stop", {"type": "prompt", "prompt": "p"}))

    result = await fire(rpc, workspace, "Stop", {})

    assert result["blocked"] is False
    assert "clientHandlers" in result["hooks"][0]["error"]


async def test_client_handler_timeout_cancels_the_client_request(rpc, workspace) -> None:
    """The hook's timeout bounds the client's work; the client gets $/cancelRequest."""
    project(workspace, claude_settings("Stop", {"type": "agent", "prompt": "p", "timeout": 0.2}))

    result, seen = await fire_answering(
        rpc, fire_params(workspace, "Stop", {}, clientHandlers=["agent"]), lambda p: None
    )

    run_id = next(m["id"] for m in seen if m.get("method") == "hook/run")
    assert result["hooks"][0]["timedOut"] is True
    assert {"method": "$/cancelRequest", "params": {"id": run_id}}.items() <= {
        **next(m for m in seen if m.get("method") == "$/cancelRequest")}.items()  # fmt: skip


async def test_prompt_hooks_are_not_run_on_events_without_support(rpc, workspace) -> None:
    project(workspace, claude_settings("Notification", {"type": "prompt", "prompt": "p"}))

    result = await fire(rpc, workspace, "Notification", {}, clientHandlers=["prompt"])

    assert result["hooks"] == []
    assert "does not run prompt hooks on Notification" in result["warnings"][0]


# async ---------------------------------------------------------------------------------
async def test_async_hook_runs_in_the_background_and_reports_later(
    rpc, workspace, tmp_path
) -> None:
    """The fire does not wait; the hook's additionalContext arrives as a hook/asyncResult
    notification and again in asyncResults of the session's next fire."""
    gate = Gate(tmp_path / "gate")
    out = {"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "tests pass"},
           "decision": "block", "reason": "ignored for async"}  # fmt: skip
    project(workspace, claude_settings("PostToolUse", command(
        f"{gate.wait_command}; echo '{json.dumps(out)}'", **{"async": True})))  # fmt: skip
    payload = {"session_id": "s1", "tool_name": "Write"}

    first = await fire(rpc, workspace, "PostToolUse", payload)
    await gate.open()
    with trio.fail_after(10):
        while not any(n["method"] == "hook/asyncResult" for n in rpc.notifications):
            rpc.notifications.append(await rpc.recv())
    second = await fire(rpc, workspace, "PostToolUse", payload)
    third = await fire(rpc, workspace, "PostToolUse", payload)

    assert first["hooks"] == []
    assert first["blocked"] is False
    assert len(first["asyncStarted"]) == 1
    note = next(n["params"] for n in rpc.notifications if n["method"] == "hook/asyncResult")
    assert note["context"] == "tests pass"
    assert note["id"] == first["asyncStarted"][0]["id"]
    assert [r["id"] for r in second["asyncResults"]] == [note["id"]]
    assert third["asyncResults"] == [] or third["asyncResults"][0]["id"] != note["id"]


async def test_async_rewake_exit_two_wakes_with_stderr(rpc, workspace) -> None:
    project(workspace, claude_settings("PostToolUse", command(
        "echo 'build broke' >&2; exit 2", asyncRewake=True)))  # fmt: skip

    await fire(rpc, workspace, "PostToolUse", {"session_id": "s2"})

    async def arrived() -> bool:
        status = await rpc.call("status")
        return status["asyncHooks"]["finished"] >= 1

    await wait_until(arrived)
    later = await fire(rpc, workspace, "Stop", {"session_id": "s2"})
    assert later["asyncResults"][0]["rewake"] is True
    assert later["asyncResults"][0]["rewakeMessage"] == "build broke"


async def test_once_is_ignored_in_settings_files(rpc, workspace, tmp_path) -> None:
    """Claude: "only honored for hooks declared in skill frontmatter; ignored in settings files"."""
    log = tmp_path / "log"
    project(workspace, claude_settings("Stop", command(f"echo x >> {log}", once=True)))

    for _ in range(2):
        await fire(rpc, workspace, "Stop", {"session_id": "s"})

    assert log.read_text() == "x\nx\n"


# CLAUDE_ENV_FILE -----------------------------------------------------------------------
async def test_env_file_is_given_to_session_start_and_reported(rpc, workspace) -> None:
    """SessionStart/Setup/CwdChanged/FileChanged get CLAUDE_ENV_FILE; the result names it."""
    project(workspace, {"hooks": {
        "SessionStart": [{"hooks": [command('echo "export NODE_ENV=production" >> "$CLAUDE_ENV_FILE"')]}],
        "PreToolUse": [{"hooks": [command('echo "${CLAUDE_ENV_FILE:-none}" >&2; exit 2')]}]}})  # fmt: skip

    started = await fire(rpc, workspace, "SessionStart", {"session_id": "abc", "source": "startup"})
    tool = await fire(rpc, workspace, "PreToolUse", {"session_id": "abc"})

    assert Path(started["envFile"]).read_text() == "export NODE_ENV=production\n"
    assert "abc" in started["envFile"]
    assert tool["reason"] == "none"  # other events don't have it
    assert "envFile" not in tool


async def test_env_file_named_by_the_client_is_used(rpc, workspace, tmp_path) -> None:
    mine = tmp_path / "my-env.sh"
    project(
        workspace, claude_settings("CwdChanged", command('echo "export A=1" >> "$CLAUDE_ENV_FILE"'))
    )

    result = await fire(rpc, workspace, "CwdChanged", {}, env={"CLAUDE_ENV_FILE": str(mine)})

    assert result["envFile"] == str(mine)
    assert mine.read_text() == "export A=1\n"


# output caps ---------------------------------------------------------------------------
async def test_long_output_is_saved_to_a_file_with_a_preview_never_cut_silently(
    rpc, workspace
) -> None:
    """additionalContext/systemMessage/plain stdout over 10,000 characters: the full text
    goes to a file, a preview and the path replace it, and the result says so."""
    project(workspace, claude_settings("SessionStart", command(
        "python3 -c \"print('x' * 25000)\"")))  # fmt: skip

    result = await fire(rpc, workspace, "SessionStart", {"session_id": "big", "source": "startup"})

    spill = result["hooks"][0]["spilled"][0]
    assert spill["field"] == "additionalContext"
    assert spill["chars"] == 25000
    assert Path(spill["path"]).read_text() == "x" * 25000
    assert len(result["context"]) < 10_000
    assert spill["path"] in result["context"]
    assert "25000 characters" in result["warnings"][0]


async def test_output_at_the_cap_is_kept_whole(rpc, workspace) -> None:
    project(workspace, claude_settings("UserPromptSubmit", command(
        "python3 -c \"print('y' * 10000)\"")))  # fmt: skip

    result = await fire(rpc, workspace, "UserPromptSubmit", {"prompt": "p"})

    assert result["context"] == "y" * 10000
    assert result["hooks"][0]["spilled"] == []


# managed settings ----------------------------------------------------------------------
async def test_managed_dropins_run_and_allow_managed_hooks_only(
    rpc, workspace, settings, tmp_path
) -> None:
    """managed-settings.d/*.json add managed hooks; allowManagedHooksOnly (managed only)
    holds back user/project/local hooks, and the fire says how many."""
    dropins = Path(settings.system_root) / "etc" / "claude-code" / "managed-settings.d"
    log = tmp_path / "log"
    write_json(dropins / "10-audit.json", claude_settings("Stop", command(f"echo audit >> {log}")))
    write_json(dropins / "20-policy.json", {"allowManagedHooksOnly": True})
    project(workspace, claude_settings("Stop", command(f"echo project >> {log}")))

    result = await fire(rpc, workspace, "Stop", {})

    assert log.read_text() == "audit\n"
    assert [h["layer"] for h in result["hooks"]] == ["managed"]
    assert "allowManagedHooksOnly" in result["warnings"][-1]


async def test_session_end_hooks_share_a_short_budget(rpc, workspace, tmp_path) -> None:
    """SessionEnd: 1.5 s shared budget, raised to the longest explicit timeout (max 60)."""
    gate = Gate(tmp_path / "gate")
    project(workspace, claude_settings("SessionEnd", command(gate.wait_command)))
    listed_default = await fire(rpc, workspace, "SessionEnd", {"reason": "other"})
    project(workspace, claude_settings("SessionEnd", command("true"), command("true # 2", timeout=5),
                                       command("true # 3", timeout=900)))  # fmt: skip
    raised = await fire(rpc, workspace, "SessionEnd", {"reason": "other"})

    assert listed_default["hooks"][0]["timedOut"] is True
    assert 1400 <= listed_default["hooks"][0]["durationMs"] < 10_000
    # the budget rises to 60 s (the 900 s hook, capped); a shorter own timeout still holds
    assert [h["timeoutMs"] for h in raised["hooks"]] == [60_000, 5_000, 60_000]
    assert listed_default["hooks"][0]["timeoutMs"] == 1500


async def test_header_variables_are_capitals_digits_and_underscores_only(rpc, workspace) -> None:
    """2.1.328 reads ``$NAME``/``${NAME}`` of capitals, digits and ``_``: ``$lower`` and
    ``${lower}`` stay as written, ``$Path`` is ``$P`` then ``ath``; line breaks a value
    brings are removed; a Content-Length of the handler's is dropped (tests/agents/claude
    ``pre-http-headers-interpolation``)."""
    async with http_server() as server:
        project(workspace, claude_settings("PreToolUse", http(server.url(), headers={
            "X-Lower": "a$lower_var b${lower_var}c", "X-Mixed": "[$Mixed]",
            "X-Upper": "$MY_PLAIN/${MY_PLAIN}x$MY_PLAINx", "X-Multi": "<$MULTI>",
            "Content-Length": "5"},
            allowedEnvVars=["lower_var", "Mixed", "MY_PLAIN", "MULTI"])))  # fmt: skip
        await fire(rpc, workspace, "PreToolUse", {"tool_name": "Bash"}, env={
            "lower_var": "x", "Mixed": "m", "M": "no", "MY_PLAIN": "p", "MULTI": "a\r\nbc"})  # fmt: skip

    headers = server.requests[0].headers
    assert headers["x-lower"] == "a$lower_var b${lower_var}c"
    assert headers["x-mixed"] == "[ixed]"
    assert headers["x-upper"] == "p/pxpx"
    assert headers["x-multi"] == "<abc>"
    assert headers["content-length"] == str(len(server.requests[0].body))


CREDENTIALS = {
    "ANTHROPIC_API_KEY": "k", "CLAUDE_CODE_OAUTH_TOKEN": "o", "MCP_CLIENT_SECRET": "s",
    "NPM_TOKEN": "n", "CARGO_REGISTRIES_X_TOKEN": "c", "INPUT_NPM_TOKEN": "i",
    "GITHUB_TOKEN": "g", "HF_TOKEN": "h", "MY_SECRET": "m", "MY_PLAIN": "p",
}  # fmt: skip


async def test_the_agents_credentials_never_reach_a_header(rpc, workspace, settings) -> None:
    """allowedEnvVars names them all: the agent's own credentials stay empty whatever
    the settings say; what it keeps from every remote sink (ANTHROPIC_API_KEY, NPM_TOKEN,
    ...) unless a managed settings file lists it in httpHookAllowedEnvVars; other names
    pass, credential-like or not, until CLAUDE_CODE_SUBPROCESS_ENV_SCRUB is on
    (tests/agents/claude ``pre-http-headers-credentials``)."""
    managed = Path(settings.system_root) / "etc" / "claude-code" / "managed-settings.json"
    sent = []
    async with http_server() as server:
        project(workspace, claude_settings("PreToolUse", http(
            server.url(), allowedEnvVars=list(CREDENTIALS),
            headers={f"X-{name}": f"${{{name}}}" for name in CREDENTIALS})))  # fmt: skip
        for managed_list, scrub in (([], "0"), (list(CREDENTIALS), "0"), ([], "1")):
            write_json(managed, {"httpHookAllowedEnvVars": managed_list} if managed_list else {})
            env = {**CREDENTIALS, "CLAUDE_CODE_SUBPROCESS_ENV_SCRUB": scrub}
            await fire(rpc, workspace, "PreToolUse", {"tool_name": "Bash"}, env=env)
            headers = server.requests[-1].headers
            sent.append({name for name in CREDENTIALS if headers[f"x-{name.lower()}"]})

    plain, lifted, scrubbed = sent
    assert plain == {"GITHUB_TOKEN", "HF_TOKEN", "MY_SECRET", "MY_PLAIN"}
    assert lifted == set(CREDENTIALS) - {"CLAUDE_CODE_OAUTH_TOKEN", "MCP_CLIENT_SECRET"}
    assert scrubbed == {"GITHUB_TOKEN", "MY_PLAIN"}


async def test_a_command_hooks_environment_is_the_agents_less_its_own_credentials(
    rpc, workspace, tmp_path
) -> None:
    """The fire's env (the agent's environment) reaches a command hook without the
    agent's own credentials and telemetry settings; other credentials pass until
    CLAUDE_CODE_SUBPROCESS_ENV_SCRUB is on, which takes every credential-like name; what
    the agent sets for its hooks itself stays (tests/agents/claude
    ``pre-env-own-credentials``)."""
    out = tmp_path / "env"
    project(workspace, claude_settings("Stop", command(f"env > {out}")))
    agent = {**CREDENTIALS, "OTEL_EXPORTER_OTLP_HEADERS": "x", "CLAUDE_CODE_SLACK_TAG_TOKEN": "t",
             "CLAUDE_CODE_MESSAGING_TOKEN": "given", "CLAUDE_CODE_SESSION_NAME": "n"}  # fmt: skip
    names = []
    for scrub in ({}, {"CLAUDE_CODE_SUBPROCESS_ENV_SCRUB": "1"}):
        await fire(rpc, workspace, "Stop", {}, env={**agent, **scrub})
        seen = dict(line.split("=", 1) for line in out.read_text().splitlines() if "=" in line)
        names.append({name for name in agent if name in seen})

    plain, scrubbed = names
    assert plain == set(CREDENTIALS) - {"CLAUDE_CODE_OAUTH_TOKEN"} | {"CLAUDE_CODE_MESSAGING_TOKEN"}
    assert scrubbed == {"GITHUB_TOKEN", "MY_PLAIN", "CLAUDE_CODE_MESSAGING_TOKEN"}
