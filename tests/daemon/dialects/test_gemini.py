"""Gemini CLI's hooks (0.61.0): its files, matchers, how it reads one hook's output, how
several answers combine, what it expands in a command. Each rule cites
``gemini-research.md`` (the agent, read and run); ``tests/agents/gemini`` holds the real
agent to the same rules."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from hookd.daemon.dialects.gemini import config, integration, output
from hookd.daemon.dialects.gemini import dialect as gemini
from hookd.daemon.model import (
    Combined,
    Dialect,
    FireRequest,
    HookReport,
    HookSpec,
    Launch,
    ProcessOutcome,
    Source,
)
from hookd_testing import write_json

BEFORE_TOOL = {"session_id": "s-1", "transcript_path": "", "cwd": "/w",
               "hook_event_name": "BeforeTool", "timestamp": "2026-11-27T18:22:19.484Z",
               "tool_name": "run_shell_command", "tool_input": {"command": "ls"}}  # fmt: skip


def source(path: Path, layer: str = "user") -> Source:
    return Source(Dialect.GEMINI, layer, str(path), "settings")


def load(tmp_path: Path, hooks: Any, **top: Any) -> Any:
    path = tmp_path / "settings.json"
    write_json(path, {"hooks": hooks, **top})
    return config.load_settings(source(path))


def request(event: str = "BeforeTool", payload: dict[str, Any] | None = None,
            **more: Any) -> FireRequest:  # fmt: skip
    return FireRequest(Dialect.GEMINI, event, ("/w",), payload or dict(BEFORE_TOOL), **more)


def ran(stdout: str = "", stderr: str = "", code: int | None = 0, **more: Any) -> ProcessOutcome:
    return ProcessOutcome(code, stdout.encode(), stderr.encode(), 5.0, **more)


def spec(command: str = "true", **options: Any) -> HookSpec:
    return HookSpec(Dialect.GEMINI, "BeforeTool", "/s", "user", command, None, 60.0,
                    options={"env": {}, **options})  # fmt: skip


def answer(event: str, *outcomes: ProcessOutcome) -> Combined:
    """The combined outcome of hooks that finished with ``outcomes``, in this order."""
    req = request(event)
    reports = [HookReport(replace_order(spec(), i), i, o, gemini.interpret(spec(), req, o))
               for i, o in enumerate(outcomes)]  # fmt: skip
    return gemini.refine(req, Combined(), reports)


def replace_order(hook: HookSpec, order: int) -> HookSpec:
    return replace(hook, order=order)


# -- files (gemini-research.md §1.4, §2.1) ---------------------------------------------------


def test_rows_stand_on_their_own(tmp_path: Path) -> None:
    """gemini-research.md §1.4: an unknown (Claude Code) event, a group without hooks, an
    unknown handler type, a command handler without a command: each skipped with Gemini's
    warning, the rest kept; ``hooks.disabled`` is no event."""
    loaded = load(tmp_path, {
        "PreToolUse": [{"hooks": [{"type": "command", "command": "a"}]}],
        "BeforeTool": [{"matcher": "x"}, {"hooks": [{"type": "http", "url": "u"},
                                                     {"type": "command"},
                                                     {"type": "plugin", "command": "p"},
                                                     {"type": "command", "command": "ok",
                                                      "timeout": "500"}]}],
        "disabled": ["x"],
    })  # fmt: skip

    assert [(s.command, s.timeout_s) for s in loaded.hooks["BeforeTool"]] == [
        ("p", 60.0), ("ok", 0.5)]  # fmt: skip
    assert 'Invalid hook event name: "PreToolUse" from project config. Skipping.' in loaded.error
    assert "Discarding invalid hook definition for BeforeTool" in loaded.error
    assert "Invalid hook BeforeTool from project type: http" in loaded.error
    assert "Command hook BeforeTool from project missing command field" in loaded.error
    assert "disabled" not in loaded.error


def test_settings_take_comments_and_a_bad_file_runs_nothing(tmp_path: Path) -> None:
    """gemini-research.md §1.4: JSON with comments is read; a file that is not JSON stops
    Gemini from starting (exit 52), so none of its hooks run."""
    path = tmp_path / "settings.json"
    path.write_text('{ // mine\n "hooks": {"SessionEnd": [{"hooks": [/* x */ {"type": '
                    '"command", "command": "echo //not a comment"}]}]}}')  # fmt: skip
    assert [s.command for s in config.load_settings(source(path)).hooks["SessionEnd"]] == [
        "echo //not a comment"]  # fmt: skip
    path.write_text("{nope")
    broken = config.load_settings(source(path))
    assert broken.unreadable
    assert "exit 52" in (broken.error or "")
    assert gemini.kept_after_error({"SessionEnd": ()}) == {}


# -- matchers (gemini-research.md §2.2) -------------------------------------------------


@pytest.mark.parametrize(("matcher", "runs"), [
    (None, True), ("", True), ("*", True), (" run_shell_command ", True), ("run_shell", True),
    ("shell_command$", True), ("read_file|run_shell_command", True), ("^shell", False),
    ("Bash", False), ("RUN_SHELL_COMMAND", False), ("[", False), ("/run_shell/", False),
])  # fmt: skip
def test_tool_matchers_are_unanchored_regular_expressions(matcher: str | None, runs: bool) -> None:
    assert gemini._matches(matcher, request()) is runs


def test_lifecycle_matchers_are_exact_and_the_others_ignored() -> None:
    start = request("SessionStart", {"source": "startup"})
    assert gemini._matches("startup", start)
    assert not gemini._matches("start.*", start)
    assert gemini._matches("zzz", request("BeforeAgent", {"prompt": "p"}))


# -- expansions (gemini-research.md §2.3) -----------------------------------------------


def test_settings_strings_take_the_agents_variables() -> None:
    env = {"FOO": "clival"}
    assert gemini.expand_env("a \"$FOO\" '${FOO}' ${BAR:-dflt} $NOPE ${FOO:-x}", env) == (
        "a \"clival\" 'clival' dflt $NOPE clival")  # fmt: skip


@pytest.mark.parametrize(("value", "quoted"), [
    ("/w/proj", "/w/proj"), ("/w/my proj", "'/w/my proj'"), ("/w/my proj's", '"/w/my proj\'s"'),
    ("a$b", "a\\$b"), ("C:$x", "C:\\$x"), ("a:b", "a\\:b"), ("", ""),
])  # fmt: skip
def test_run_variables_are_quoted_as_shell_quote_does(value: str, quoted: str) -> None:
    assert gemini.shell_quote(value) == quoted


def test_prepare_puts_the_run_variables_in_and_sets_the_environment(tmp_path: Path) -> None:
    """gemini-research.md §2.3 step 2, §4: the command gets the quoted values (no word
    boundary), the environment the five variables, the handler's env last."""
    payload = {**BEFORE_TOOL, "cwd": str(tmp_path / "my proj"),
               "transcript_path": "/h/.gemini/tmp/proj/chats/session-x.jsonl"}  # fmt: skip
    hook = spec('x $GEMINI_PROJECT_DIR "$GEMINI_CWD" $GEMINI_PROJECT_DIRX $GEMINI_SESSION_ID',
                env={"GEMINI_CWD": "/override"})  # fmt: skip

    launch = gemini.prepare(hook, request(payload=payload), {"PATH": "/bin"})

    assert isinstance(launch, Launch)
    where = f"'{tmp_path}/my proj'"
    assert launch.argv == ("bash", "-c", f'x {where} "{where}" {where}X s-1')
    assert launch.env["GEMINI_PROJECT_DIR"] == launch.env["CLAUDE_PROJECT_DIR"] == payload["cwd"]
    assert launch.env["GEMINI_CWD"] == "/override"
    assert launch.env["GEMINI_SESSION_ID"] == "s-1"
    assert launch.env["GEMINI_PLANS_DIR"] == "/h/.gemini/tmp/proj/s-1/plans"
    assert launch.stdin == json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode()


# -- one hook's output (gemini-research.md §5.1) ----------------------------------------


@pytest.mark.parametrize(("outcome", "blocks", "message", "reason"), [
    (ran(json.dumps({"decision": "deny", "reason": "R"}), code=1), True, None, "R"),
    (ran(json.dumps({"decision": "allow"}), code=2), False, None, None),
    (ran("", json.dumps({"decision": "deny", "reason": "E"})), True, None, "E"),
    (ran("OUT", "ERR", code=2), True, None, "OUT"),
    (ran("", "", code=2), False, None, None),
    (ran("text"), False, "text", None),
    (ran("text", code=1), False, "Warning: text", None),
    (ran("text", code=127), True, None, "text"),
    (ran(json.dumps(json.dumps({"decision": "block"}))), True, None, None),
    (ran("true"), False, None, None),
    (ran('{"decision": "DENY"}'), False, None, None),
    (ran("text", code=None), False, "text", None),
])  # fmt: skip
def test_one_hooks_answer(outcome: ProcessOutcome, blocks: bool, message: str | None,
                          reason: str | None) -> None:  # fmt: skip
    combined = answer("BeforeTool", outcome)
    assert combined.blocked is blocks
    assert combined.system_message == message
    if blocks:
        assert combined.reason == (reason or output.NO_REASON)


def test_a_timed_out_hook_fails_open() -> None:
    verdict = gemini.interpret(spec(), request(), ran(code=None, timed_out=True))
    assert verdict.error == "Hook timed out after 60000ms"
    assert answer("BeforeTool", ran(code=None, timed_out=True)).blocked is False


# -- several answers (gemini-research.md §6) --------------------------------------------


def test_or_events_join_every_reason_and_the_later_rewrite_wins() -> None:
    combined = answer(
        "BeforeTool",
        ran(json.dumps({"decision": "deny", "reason": "RA"})),
        ran(json.dumps({"decision": "allow", "reason": "RB"})),
        ran(json.dumps({"decision": "deny", "reason": "RC"})),
    )
    assert (combined.blocked, combined.reason) == (True, "RA\nRB\nRC")
    rewrite = answer(
        "BeforeTool",
        ran(json.dumps({"hookSpecificOutput": {"tool_input": {"command": "a"}}})),
        ran(json.dumps({"hookSpecificOutput": {"tool_input": {"command": "b"}}})),
    )
    assert rewrite.updated_input == {"command": "b"}


def test_a_deny_beats_an_ask_and_continue_false_stops() -> None:
    asked = answer("BeforeTool", ran('{"decision": "ask"}'), ran('{"decision": "deny"}'))
    assert (asked.decision, asked.reason) == ("deny", output.NO_REASON)
    stopped = answer("BeforeTool", ran(json.dumps({"continue": False, "reason": "R"})))
    assert (stopped.continue_, stopped.stop_reason) == (False, "R")
    assert gemini.action(request(), stopped) == "stop"
    assert gemini.action(request(), answer("BeforeTool", ran('{"decision": "ask"}'))) == "ask"


def test_model_events_replace_field_by_field() -> None:
    """gemini-research.md §6: a later allow replaces an earlier deny on BeforeModel."""
    combined = answer("BeforeModel", ran('{"decision": "deny", "reason": "x"}'),
                      ran('{"decision": "allow"}'))  # fmt: skip
    assert combined.blocked is False


def test_tool_selection_takes_the_most_restrictive_mode_and_the_union() -> None:
    combined = answer(
        "BeforeToolSelection",
        ran(json.dumps({"hookSpecificOutput": {"toolConfig": {
            "mode": "ANY", "allowedFunctionNames": ["read_file"]}}})),
        ran(json.dumps({"hookSpecificOutput": {"toolConfig": {
            "mode": "AUTO", "allowedFunctionNames": ["glob"]}}})),
    )  # fmt: skip
    assert gemini.native(request("BeforeToolSelection"), combined)["hookSpecificOutput"] == {
        "hookEventName": "BeforeToolSelection",
        "toolConfig": {"mode": "ANY", "allowedFunctionNames": ["glob", "read_file"]},
    }


def test_contexts_join_and_a_block_drops_them_on_after_tool() -> None:
    ctx = answer("AfterTool", ran('{"hookSpecificOutput": {"additionalContext": "A"}}'),
                 ran('{"hookSpecificOutput": {"additionalContext": "B"}}'))  # fmt: skip
    assert ctx.context == "A\nB"
    denied = answer("AfterTool", ran(json.dumps({"decision": "deny", "reason": "R",
                                                 "hookSpecificOutput": {"additionalContext": "C"}})))  # fmt: skip
    assert (denied.context, gemini.action(request("AfterTool"), denied)) == (None, "block")


def test_lifecycle_events_take_no_decision() -> None:
    for event in ("SessionStart", "SessionEnd", "PreCompress", "Notification"):
        combined = answer(event, ran('{"decision": "deny", "continue": false}'))
        assert gemini.action(request(event), combined) == "proceed"


def test_in_order_each_rewrite_reaches_the_next_hook() -> None:
    """gemini-research.md §4: merged key by key into the next hook's tool_input; a failed
    hook changes nothing."""
    first = request()
    good = HookReport(
        spec(),
        0,
        ran(),
        gemini.interpret(
            spec(), first, ran('{"hookSpecificOutput": {"tool_input": {"description": "d"}}}')
        ),
    )
    assert gemini.chained(first, good).payload["tool_input"] == {
        "command": "ls",
        "description": "d",
    }
    failed = HookReport(spec(), 0, ran(code=1), good.verdict)
    assert gemini.chained(first, failed) is first


# -- the relay (integration) -------------------------------------------------------------


def test_the_failing_answers() -> None:
    blocking = integration.failing_answer("down", True)
    assert json.loads(blocking.stdout) == {"decision": "deny", "reason": "down",
                                           "continue": False, "stopReason": "down"}  # fmt: skip
    assert integration.failing_answer("down", False).exit_code == 1
