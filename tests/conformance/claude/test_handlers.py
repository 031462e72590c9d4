"""Handler types beyond a synchronous command, and the per-session features:

* ``http`` hooks against a real local endpoint ("HTTP hook fields", "HTTP response
  handling", the settings allowlists);
* ``prompt``, ``agent`` and ``mcp_tool`` hooks, which the calling client runs when the
  daemon asks (``hook/run``), with the per-event meaning of ``ok: false``;
* ``async`` / ``asyncRewake`` background hooks;
* ``CLAUDE_ENV_FILE``;
* the 10,000-character cap on hook output strings.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import trio

from conformance.claude.support import (
    REFERENCE,
    Claude,
    ClientError,
    HttpEndpoint,
    Reply,
    closed_port,
    command,
    documented_input,
    echo_json,
    fire_as_client,
    next_notification,
    params,
)

HTTP = f"{REFERENCE} 'HTTP response handling'"
HTTP_FIELDS = f"{REFERENCE} 'HTTP hook fields'"
PROMPT = f"{REFERENCE} 'Prompt-based hooks'"
SCHEMA = f"{REFERENCE} 'Response schema'"

DENY = json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse",
                                          "permissionDecision": "deny",
                                          "permissionDecisionReason": "from the service"}}).encode()  # fmt: skip


@dataclass(frozen=True)
class Http:
    id: str
    rule: str
    handler: dict[str, Any]
    reply: Reply = field(default_factory=Reply)
    event: str = "PreToolUse"
    top: dict[str, Any] = field(default_factory=dict)
    env: dict[str, str] = field(default_factory=dict)
    expect: dict[str, Any] = field(default_factory=dict)
    ran: int = 1
    error: str | None = None
    """A regular expression the hook's error matches; None: no error."""
    warns: str | None = None
    check: Callable[[dict[str, Any], HttpEndpoint], None] | None = None
    xfail: str | None = None


def http(path: str = "/hook", **fields: Any) -> dict[str, Any]:
    return {"type": "http", "url": "{url}" + path, **fields}


def _request_is_event_json(result: dict[str, Any], endpoint: HttpEndpoint) -> None:
    (request,) = endpoint.requests
    assert request.method == "POST"
    assert request.headers["content-type"] == "application/json"
    body = request.json()
    assert body["hook_event_name"] == "PreToolUse"
    assert body["tool_input"] == documented_input("PreToolUse")["tool_input"]


def _headers(**expected: str) -> Callable[[dict[str, Any], HttpEndpoint], None]:
    def check(result: dict[str, Any], endpoint: HttpEndpoint) -> None:
        (request,) = endpoint.requests
        for name, value in expected.items():
            assert request.headers.get(name.lower()) == value, name

    return check


def _no_request(result: dict[str, Any], endpoint: HttpEndpoint) -> None:
    assert endpoint.requests == []


HTTPS = [
    Http("json-decision", f"{HTTP}: '2xx with a JSON object body: parsed using the same JSON "
         "output schema as command hooks'; the body sent is the event's JSON input",
         http(), Reply(200, DENY),
         expect={"blocked": True, "decision": "deny", "reason": "from the service"},
         check=_request_is_event_json),
    Http("empty-body", f"{HTTP}: '2xx with an empty body: success, equivalent to exit code 0 "
         "with no output'", http(), Reply(204), expect={"blocked": False, "decision": None}),
    Http("plain-text-body", f"{HTTP}: '2xx with any other body, such as plain text: "
         "non-blocking error ... Claude Code doesn't add the text to Claude's context'",
         http(), Reply(200, b"hello"), event="UserPromptSubmit", expect={"context": None},
         error="."),
    Http("schema-invalid-body", f"{HTTP}: 'A body that fails schema validation is a "
         "non-blocking error'", http(), Reply(200, b'{"continue": "no", "decision": "block"}'),
         event="Stop", expect={"blocked": False, "continue": True}, error="continue"),
    Http("non-2xx", f"{HTTP}: 'Non-2xx status: non-blocking error, execution continues'; "
         "'HTTP hooks can't signal a blocking error through status codes alone'",
         http(), Reply(403, b"forbidden"), expect={"blocked": False}, error="403"),
    Http("connection-failure", f"{HTTP}: 'Connection failure: non-blocking error'",
         {"type": "http", "url": f"http://127.0.0.1:{closed_port()}/x"},
         expect={"blocked": False}, error="."),
    Http("timeout", f"{HTTP}: 'Timeout: the hook is canceled and renders no decision'",
         http(timeout=0.3), Reply(hang=True), expect={"blocked": False, "decision": None},
         error="timed out"),
    Http("header-interpolation", f"{HTTP_FIELDS}: header values interpolate $VAR and ${{VAR}}; "
         "'References to unlisted variables are replaced with empty strings'",
         http(headers={"Authorization": "Bearer $MY_TOKEN", "X-Other": "[${OTHER_TOKEN}]"},
              allowedEnvVars=["MY_TOKEN"]),
         env={"MY_TOKEN": "s3cret", "OTHER_TOKEN": "leak"},
         check=_headers(Authorization="Bearer s3cret", **{"X-Other": "[]"})),
    Http("settings-env-allowlist", f"{REFERENCE} 'Hook locations': 'httpHookAllowedEnvVars: when "
         "defined, Claude Code interpolates only the environment variables on that list into "
         "hook headers'",
         http(headers={"Authorization": "Bearer $MY_TOKEN"}, allowedEnvVars=["MY_TOKEN"]),
         top={"httpHookAllowedEnvVars": ["SOMETHING_ELSE"]}, env={"MY_TOKEN": "s3cret"},
         check=_headers(Authorization="Bearer")),
    Http("url-allowlist-blocks", f"{REFERENCE} 'Hook locations': 'allowedHttpHookUrls: when "
         "defined at any settings level, Claude Code runs an HTTP hook handler only if its URL "
         "matches the merged allowlist'; a refused handler is sent nothing and fails, a "
         "non-blocking error (Claude Code 2.1.328: 'HTTP hook blocked: <url> does not match "
         "any pattern in allowedHttpHookUrls')", http(), top={"allowedHttpHookUrls": [
             "https://hooks.example.com/*"]}, error="does not match any pattern in "
         "allowedHttpHookUrls", warns="allowedHttpHookUrls", check=_no_request),
    Http("url-allowlist-allows", f"{REFERENCE} 'Hook locations': allowedHttpHookUrls",
         http(), Reply(200, DENY), top={"allowedHttpHookUrls": ["http://127.0.0.1:*"]},
         expect={"blocked": True}),
    Http("not-on-session-start", f"{PROMPT}: 'SessionStart and Setup ... don't support http, "
         "prompt, or agent hooks'", http(), event="SessionStart", ran=0, warns="http",
         check=_no_request),
    Http("worktree-path", f"{REFERENCE} 'WorktreeCreate output': 'HTTP hooks ... return "
         "hookSpecificOutput.worktreePath in the response body'", http(),
         Reply(200, json.dumps({"hookSpecificOutput": {"hookEventName": "WorktreeCreate",
                                                       "worktreePath": "/w/wt"}}).encode()),
         event="WorktreeCreate", expect={"blocked": False, "native": {"hookSpecificOutput": {
             "hookEventName": "WorktreeCreate", "worktreePath": "/w/wt"}}}),
    Http("worktree-failure", f"{HTTP}: 'an event with its own failure contract ... such as "
         "WorktreeCreate, applies that contract to a failed HTTP hook too'", http(),
         Reply(500), event="WorktreeCreate", expect={"blocked": True}),
]  # fmt: skip


@pytest.mark.parametrize("case", params(HTTPS))
async def test_http_hooks(claude: Claude, case: Http) -> None:
    async with trio.open_nursery() as nursery:
        endpoint = await HttpEndpoint().start(nursery)
        endpoint.replies["/hook"] = case.reply
        handler = json.loads(json.dumps(case.handler).replace("{url}", endpoint.base))
        claude.hooks(case.event, handler, **case.top)

        result = await claude.fire(case.event, documented_input(case.event), env=case.env)

        nursery.cancel_scope.cancel()
    assert len(result["hooks"]) == case.ran
    for key, value in case.expect.items():
        assert result[key] == value, key
    if case.ran:
        error = result["hooks"][0]["error"]
        if case.error is None:
            assert error is None
        else:
            assert re.search(case.error, error or ""), error
    if case.warns is not None:
        assert any(case.warns in w for w in result["warnings"]), result["warnings"]
    if case.check is not None:
        case.check(result, endpoint)


# --- prompt, agent and mcp_tool: run by the client ------------------------------------------


@dataclass(frozen=True)
class ClientCase:
    id: str
    rule: str
    event: str
    handler: dict[str, Any]
    answer: Callable[[dict[str, Any]], Any]
    expect: dict[str, Any] = field(default_factory=dict)
    ran: int = 1
    asked: int = 1
    offered: tuple[str, ...] = ("prompt", "agent", "mcp_tool")
    error: str | None = None
    warns: str | None = None
    check: Callable[[Claude, Any], None] | None = None
    xfail: str | None = None


def answer(value: Any) -> Callable[[dict[str, Any]], Any]:
    return lambda params: value


def refuse(params: dict[str, Any]) -> Any:
    raise ClientError("no model available")


def mcp_text(text: str, is_error: bool = False) -> dict[str, Any]:
    return {"content": [{"type": "text", "text": text}], "isError": is_error}


def prompt(text: str = "Check: $ARGUMENTS", **fields: Any) -> dict[str, Any]:
    return {"type": "prompt", "prompt": text, **fields}


def agent(text: str = "Verify: $ARGUMENTS", **fields: Any) -> dict[str, Any]:
    return {"type": "agent", "prompt": text, **fields}


NO = {"ok": False, "reason": "tests are failing"}


def _prompt_rendered(claude: Claude, run: Any) -> None:
    (asked,) = run.asked
    assert asked["type"] == "prompt"
    assert "$ARGUMENTS" not in asked["prompt"]
    assert json.dumps(documented_input("Stop")["last_assistant_message"]) in asked["prompt"]
    assert asked["prompt"].startswith("Check: ")


def _prompt_appended(claude: Claude, run: Any) -> None:
    (asked,) = run.asked
    assert asked["prompt"].startswith("Is $1.00 fine?")
    assert '"hook_event_name":"Stop"' in asked["prompt"]


def _mcp_substituted(claude: Claude, run: Any) -> None:
    (asked,) = run.asked
    assert asked["type"] == "mcp_tool"
    assert (asked["server"], asked["tool"]) == ("my_server", "security_scan")
    assert asked["input"] == {"file_path": "/path/to/file.txt"}


def _model_passed(claude: Claude, run: Any) -> None:
    assert run.asked[0]["model"] == "claude-haiku-4-5"


SCAN_OK = json.dumps({"hookSpecificOutput": {"hookEventName": "PostToolUse",
                                             "additionalContext": "scan clean"}})  # fmt: skip

CLIENTS = [
    ClientCase("prompt-stop-continue", f"{SCHEMA}: Stop: 'the reason is fed back to Claude as "
               "its next instruction and the turn continues'", "Stop", prompt(), answer(NO),
               {"blocked": True, "reason": "tests are failing"}, check=_prompt_rendered),
    ClientCase("prompt-stop-ok", f"{SCHEMA}: ok true to allow", "Stop", prompt(),
               answer({"ok": True}), {"blocked": False, "reason": None}),
    ClientCase("prompt-stop-impossible", f"{SCHEMA}: Stop with impossible true: 'Claude Code "
               "allows the stop and the turn ends'", "Stop", prompt(),
               answer({**NO, "impossible": True}), {"blocked": False}),
    ClientCase("prompt-arguments-appended", f"{PROMPT} (Prompt hook configuration): 'If "
               "$ARGUMENTS is not present, input JSON is appended to the prompt'; "
               "'\\$1.00 renders as $1.00'", "Stop", prompt("Is \\$1.00 fine?"),
               answer({"ok": True}), check=_prompt_appended),
    ClientCase("prompt-model", f"{REFERENCE} 'Prompt and agent hook fields': model", "Stop",
               prompt(model="claude-haiku-4-5"), answer({"ok": True}), check=_model_passed),
    ClientCase("prompt-pre-tool-use-ends-turn", f"{SCHEMA}: PreToolUse: 'the tool call is "
               "denied; by default the turn ends'", "PreToolUse", prompt(), answer(NO),
               {"blocked": True, "decision": "deny", "continue": False}),
    ClientCase("prompt-pre-tool-use-continue-on-block", f"{SCHEMA}: PreToolUse with "
               "continueOnBlock true: 'return the reason to Claude as the tool error ... "
               "equivalent to a command hook's permissionDecision: \"deny\"'", "PreToolUse",
               prompt(continueOnBlock=True), answer(NO),
               {"blocked": True, "decision": "deny", "continue": True,
                "reason": "tests are failing"}),
    ClientCase("prompt-post-tool-use-ends-turn", f"{SCHEMA}: PostToolUse: 'by default the turn "
               "ends and the reason appears in the chat as a warning line'", "PostToolUse",
               prompt(), answer(NO), {"continue": False, "stopReason": "tests are failing"}),
    ClientCase("prompt-post-tool-use-failure", f"{SCHEMA}: PostToolUseFailure: 'the reason is "
               "returned to Claude as a tool error and the turn continues, regardless of "
               "continueOnBlock'", "PostToolUseFailure", prompt(), answer(NO),
               {"continue": True, "reason": "tests are failing"}),
    ClientCase("prompt-permission-request-no-effect", f"{SCHEMA}: PermissionRequest: 'ok: false "
               "has no effect'", "PermissionRequest", prompt(), answer(NO),
               {"blocked": False, "decision": None}),
    ClientCase("prompt-not-on-notification", f"{PROMPT}: Notification supports command, http "
               "and mcp_tool hooks 'but not prompt or agent'", "Notification", prompt(),
               answer({"ok": True}), ran=0, asked=0, warns="prompt"),
    ClientCase("prompt-not-on-session-start", f"{PROMPT}: 'SessionStart and Setup support "
               "command and mcp_tool hooks. They don't support http, prompt, or agent hooks'",
               "SessionStart", prompt(), answer({"ok": True}), ran=0, asked=0, warns="prompt"),
    ClientCase("agent-stop", f"{REFERENCE} 'How agent hooks work': ok false is handled like a "
               "prompt hook with continueOnBlock true", "Stop", agent(), answer(NO),
               {"blocked": True, "reason": "tests are failing"}),
    ClientCase("agent-pre-tool-use-continues", f"{REFERENCE} 'Agent-based hooks' (guide too): "
               "'on PreToolUse and PostToolUse the turn continues'", "PreToolUse", agent(),
               answer(NO), {"blocked": True, "continue": True}),
    ClientCase("agent-ignores-impossible", f"{REFERENCE} 'Agent hook configuration': agent hooks "
               "'don't support the prompt-hook impossible field'", "Stop", agent(),
               answer({**NO, "impossible": True}), {"blocked": True}),
    ClientCase("client-does-not-run-prompts", "hookd protocol: a client that does not list a "
               "handler type in clientHandlers is never asked; the hook is reported as not run "
               "(non-blocking)", "Stop", prompt(), answer(NO), {"blocked": False}, asked=0,
               offered=(), error="not run"),
    ClientCase("client-error-is-non-blocking", "hookd protocol: a client that answers hook/run "
               "with an error gives a non-blocking error", "Stop", prompt(), refuse,
               {"blocked": False}, error="no model available"),
    ClientCase("mcp-tool-context", f"{REFERENCE} 'MCP tool hook fields': input strings support "
               "${path} substitution from the hook's JSON input, and the tool's text content is "
               "read like command-hook stdout", "PostToolUse",
               {"type": "mcp_tool", "server": "my_server", "tool": "security_scan",
                "input": {"file_path": "${tool_input.file_path}"}},
               answer(mcp_text(SCAN_OK)), {"context": "scan clean"}, check=_mcp_substituted),
    ClientCase("mcp-tool-is-error", f"{REFERENCE} 'MCP tool hook fields': 'If the named server is "
               "not connected, or the tool returns isError: true, the hook produces a "
               "non-blocking error'", "PostToolUse",
               {"type": "mcp_tool", "server": "my_server", "tool": "security_scan"},
               answer(mcp_text("boom", is_error=True)), {"blocked": False}, error="boom"),
    ClientCase("mcp-tool-on-session-start", f"{PROMPT}: 'SessionStart and Setup support command "
               "and mcp_tool hooks' (plain text is context there, as for stdout)", "SessionStart",
               {"type": "mcp_tool", "server": "my_server", "tool": "context"},
               answer(mcp_text("branch main")), {"context": "branch main"}),
]  # fmt: skip


@pytest.mark.parametrize("case", params(CLIENTS))
async def test_client_run_handlers(claude: Claude, case: ClientCase) -> None:
    claude.hooks(case.event, case.handler)

    run = await fire_as_client(
        claude, case.event, documented_input(case.event), case.answer, case.offered
    )

    result = run.result
    assert len(result["hooks"]) == case.ran
    assert len(run.asked) == case.asked
    for key, value in case.expect.items():
        assert result[key] == value, key
    if case.ran:
        error = result["hooks"][0]["error"]
        assert (error is None) if case.error is None else bool(re.search(case.error, error or ""))
    if case.warns is not None:
        assert any(case.warns in w for w in result["warnings"]), result["warnings"]
    if case.check is not None:
        case.check(claude, run)


# --- async and asyncRewake ------------------------------------------------------------------------

ASYNC = f"{REFERENCE} 'Run hooks in the background'"


@dataclass(frozen=True)
class Async:
    id: str
    rule: str
    handler: Callable[[Path], dict[str, Any]]
    expect: dict[str, Any]
    """Fields of the hook/asyncResult notification's params."""
    xfail: str | None = None


def waits_then(go: Path, then: str, **fields: Any) -> dict[str, Any]:
    """A hook that waits until the test creates ``go`` (after the fire returned)."""
    return command(f"while [ ! -e {go} ]; do sleep 0.01; done; {then}", **fields)


ASYNCS = [
    Async("context-next-turn", f"{ASYNC}: 'After the background process exits, Claude Code "
          "delivers the additionalContext and systemMessage fields'; decision fields 'have no "
          "effect'",
          lambda go: waits_then(go, echo_json({"decision": "block", "reason": "late", "systemMessage": "tests ran", "hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "Tests passed"}}), **{"async": True}),
          {"context": "Tests passed", "systemMessage": "tests ran"}),
    Async("wrong-type-field-dropped", f"{ASYNC}: Claude Code validates an async hook's JSON "
          "'and drops any field whose value has the wrong type, such as a systemMessage that "
          "isn't a string, instead of delivering it' (the other fields are delivered)",
          lambda go: waits_then(go, echo_json({"systemMessage": 42, "hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "still delivered"}}), **{"async": True}),
          {"context": "still delivered", "systemMessage": None}),
    Async("rewake-stderr", f"{REFERENCE} 'Command hook fields': asyncRewake 'wakes Claude on exit "
          "code 2 ... The hook's stderr, or stdout if stderr is empty, is shown to Claude'",
          lambda go: waits_then(go, "echo out; echo 'build broke' >&2; exit 2", asyncRewake=True),
          {"rewake": True, "rewakeMessage": "build broke"}),
    Async("rewake-stdout", f"{REFERENCE} 'Command hook fields': asyncRewake: '... or stdout if "
          "stderr is empty'", lambda go: waits_then(go, "echo 'from stdout'; exit 2",
                                                    asyncRewake=True),
          {"rewake": True, "rewakeMessage": "from stdout"}),
    Async("rewake-only-on-exit-2", f"{REFERENCE} 'Command hook fields': asyncRewake wakes Claude "
          "on exit code 2 (only)", lambda go: waits_then(go, "echo fine >&2; exit 0",
                                                         asyncRewake=True),
          {"rewake": False}),
]  # fmt: skip


@pytest.mark.parametrize("case", params(ASYNCS))
async def test_async_hooks(claude: Claude, case: Async) -> None:
    go = claude.tmp / "go"
    claude.hooks("PostToolUse", case.handler(go))
    payload = documented_input("PostToolUse")

    with trio.fail_after(10):  # the fire must not wait for the hook: it waits for `go`
        result = await claude.fire("PostToolUse", payload)
    go.touch()
    message = await next_notification(claude.rpc, "hook/asyncResult")

    assert result["hooks"] == []
    assert (result["blocked"], result["context"]) == (False, None)
    assert len(result["asyncStarted"]) == 1
    for key, value in case.expect.items():
        assert message["params"][key] == value, key


# --- CLAUDE_ENV_FILE --------------------------------------------------------------------------------

ENV_EVENTS = ("SessionStart", "Setup", "CwdChanged", "FileChanged")


@dataclass(frozen=True)
class EnvFile:
    id: str
    rule: str
    event: str
    has_file: bool
    xfail: str | None = None


ENV_FILES = [
    EnvFile(event, f"{REFERENCE} 'Persist environment variables' (note): 'CLAUDE_ENV_FILE is "
            "available for SessionStart, Setup, CwdChanged, and FileChanged hooks. Other hook "
            f"types don't have access to this variable' ({event})", event, event in ENV_EVENTS)
    for event in (*ENV_EVENTS, "PreToolUse", "Stop", "SessionEnd")
]  # fmt: skip


@pytest.mark.parametrize("case", params(ENV_FILES))
async def test_claude_env_file(claude: Claude, case: EnvFile) -> None:
    seen = claude.tmp / "seen"
    first = command(
        f'echo "[$CLAUDE_ENV_FILE]" >> {seen}; '
        '[ -z "$CLAUDE_ENV_FILE" ] || echo "export A=1" >> "$CLAUDE_ENV_FILE"'
    )
    second = command('[ -z "$CLAUDE_ENV_FILE" ] || echo "export B=2" >> "$CLAUDE_ENV_FILE"')
    claude.hooks(case.event, first, second)  # fmt: skip

    result = await claude.fire(case.event, documented_input(case.event))

    if case.has_file:
        path = seen.read_text().strip()[1:-1]
        assert result["envFile"] == path
        assert sorted(Path(path).read_text().splitlines()) == ["export A=1", "export B=2"]
    else:
        assert seen.read_text() == "[]\n"
        assert "envFile" not in result


ENV_SESSION = [
    EnvFile("same-session-same-file", f"{REFERENCE} 'CwdChanged': variables written to that file "
            "'persist into subsequent Bash commands for the session, just as in SessionStart "
            "hooks' (one file per session)", "CwdChanged", True),
]  # fmt: skip


@pytest.mark.parametrize("case", params(ENV_SESSION))
async def test_claude_env_file_is_per_session(claude: Claude, case: EnvFile) -> None:
    claude.write_settings({"hooks": {
        "SessionStart": [{"hooks": [command('echo "export A=1" >> "$CLAUDE_ENV_FILE"')]}],
        case.event: [{"hooks": [command('echo "export B=2" >> "$CLAUDE_ENV_FILE"')]}]}})  # fmt: skip

    start = await claude.fire("SessionStart", {"session_id": "s1", "source": "startup"})
    later = await claude.fire(case.event, {"session_id": "s1", "old_cwd": "/a", "new_cwd": "/b"})
    other = await claude.fire(case.event, {"session_id": "s2", "old_cwd": "/a", "new_cwd": "/b"})

    assert start["envFile"] == later["envFile"] != other["envFile"]
    assert Path(later["envFile"]).read_text() == "export A=1\nexport B=2\n"
    assert Path(other["envFile"]).read_text() == "export B=2\n"


# --- the 10,000-character cap ---------------------------------------------------------------------------

CAP = f"{REFERENCE} 'JSON output': 'Hook output strings, including additionalContext, "
CAP += "systemMessage, and plain stdout, are capped at 10,000 characters. Output that exceeds "
CAP += "this limit is saved to a file and replaced with a preview and file path'"


def long_text(chars: int) -> str:
    return f"head -c {chars} /dev/zero | tr '\\0' 'a'"


@dataclass(frozen=True)
class Cap:
    id: str
    rule: str
    event: str
    command: str
    field: str
    chars: int
    xfail: str | None = None


def json_around(prefix: str, chars: int, suffix: str) -> str:
    return f"printf '%s' '{prefix}'; {long_text(chars)}; printf '%s' '{suffix}'"


CAPS = [
    Cap("additional-context", CAP, "PostToolUse", json_around(
        '{"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "', 12_000,
        '"}}'), "context", 12_000),
    Cap("system-message", CAP, "Stop", json_around('{"systemMessage": "', 12_000, '"}'),
        "systemMessage", 12_000),
    Cap("plain-stdout", CAP, "UserPromptSubmit", long_text(12_000), "context", 12_000),
    Cap("at-the-limit", CAP + " (10,000 characters exactly stay as they are)", "UserPromptSubmit",
        long_text(10_000), "context", 10_000),
]  # fmt: skip


@pytest.mark.parametrize("case", params(CAPS))
async def test_output_cap(claude: Claude, case: Cap) -> None:
    claude.hooks(case.event, command(case.command))

    result = await claude.fire(case.event, documented_input(case.event))

    text = result[case.field]
    if case.chars <= 10_000:
        assert text == "a" * case.chars
        return
    assert len(text) < 10_000
    paths = [Path(p) for p in re.findall(r"(/[^\s\]]+)", text) if Path(p).is_file()]
    assert [p.read_text() for p in paths] == ["a" * case.chars]
    assert any(str(paths[0]) in w for w in result["warnings"])
