"""Codex CLI's hooks (0.171.0): its files, matchers, strict output reading, how several
answers combine and what its review pins. Each rule cites ``codex-research.md`` (the
agent, run); ``tests/agents/codex`` holds the real agent to the same rules."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest

from hookd.daemon.dialects.codex import config, output, review
from hookd.daemon.dialects.codex import dialect as codex
from hookd.daemon.model import Dialect, ProcessOutcome, Source
from hookd.daemon.serdewrite import serde_json_bytes, serde_number
from hookd_testing import write_json

PRE = {"session_id": "s", "turn_id": "t", "transcript_path": None, "cwd": "/w",
       "hook_event_name": "PreToolUse", "model": "m", "permission_mode": "default",
       "tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_use_id": "call_0"}  # fmt: skip


def source(path: Path, layer: str = "user") -> Source:
    return Source(Dialect.CODEX, layer, str(path), "settings")


def handler(command: str = "true", **more: Any) -> dict[str, Any]:
    return {"type": "command", "command": command, **more}


def load(tmp_path: Path, hooks: Any, **top: Any) -> Any:
    path = tmp_path / "hooks.json"
    write_json(path, {"hooks": hooks, **top})
    return config.load_hooks_json(source(path))


# -- files (codex-research.md §1.3, §2.1) -------------------------------------------------


@pytest.mark.parametrize(("content", "says"), [
    ("{not json", "failed to parse hooks config"),
    ({"version": 1, "hooks": {}}, "unknown field `version`, expected `description` or `hooks`"),
    ({"hooks": {"Stop": [{"hooks": [{"type": "http"}]}]}}, "unknown variant `http`"),
    ({"hooks": {"Stop": [{"hooks": [{"command": "x"}]}]}}, "missing field `type`"),
    ({"hooks": {"Stop": [{"hooks": [handler(timeout=1.5)]}]}}, "expected u64"),
    ({"hooks": {"Stop": [{"hooks": [handler(timeout=-1)]}]}}, "expected u64"),
    ({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": 5}]}]}}, "invalid type"),
])  # fmt: skip
def test_what_skips_the_whole_file(tmp_path: Path, content: Any, says: str) -> None:
    """codex-research.md §1.3: the file is skipped whole, with a warning; no hook of it runs
    (not even one another handler declared well)."""
    path = tmp_path / "hooks.json"
    path.write_text(content if isinstance(content, str) else json.dumps(content))

    loaded = config.load_hooks_json(source(path))

    assert loaded.hooks == {}
    assert loaded.unreadable
    assert says in (loaded.error or "")
    assert codex.kept_after_error({"Stop": ()}) == {}


def test_what_is_ignored_in_silence(tmp_path: Path) -> None:
    """codex-research.md §1.3: an unknown event, unknown keys in a group or a handler."""
    loaded = load(tmp_path, {"Notification": [{"hooks": [handler()]}],
                             "Stop": [{"foo": 1, "hooks": [handler("a", onFailure="block")]}]},
                  description="mine")  # fmt: skip

    assert [s.command for s in loaded.hooks["Stop"]] == ["a"]
    assert "Notification" not in loaded.hooks
    assert loaded.error is None


@pytest.mark.parametrize(("hooks", "says"), [
    ({"Stop": [{"hooks": [{"type": "prompt"}]}]}, "prompt hooks are not supported yet"),
    ({"Stop": [{"hooks": [{"type": "agent"}]}]}, "agent hooks are not supported yet"),
    ({"Stop": [{"hooks": [handler("  ")]}]}, "skipping empty hook command in"),
    ({"Stop": [{"hooks": [{"type": "mcp_tool", "server": "", "tool": "t"}]}]},
     "server and tool must not be empty"),
    ({"SessionEnd": [{"hooks": [{"type": "mcp_tool", "server": "s", "tool": "t"}]}]},
     "SessionEnd MCP hooks are not supported"),
    ({"PreToolUse": [{"matcher": "[", "hooks": [handler()]}]}, 'invalid matcher "[" in'),
])  # fmt: skip
def test_what_skips_one_handler_or_group(tmp_path: Path, hooks: Any, says: str) -> None:
    """codex-research.md §1.3: skipped with a warning; the rest of the file loads."""
    hooks = {**hooks, "UserPromptSubmit": [{"hooks": [handler("kept")]}]}

    loaded = load(tmp_path, hooks)

    assert says in (loaded.error or "")
    assert not loaded.unreadable
    assert [s.command for s in loaded.hooks["UserPromptSubmit"]] == ["kept"]
    assert set(loaded.hooks) == {"UserPromptSubmit"}


def test_a_matcher_is_not_even_checked_where_it_is_ignored(tmp_path: Path) -> None:
    """codex-research.md §2.2: on UserPromptSubmit, Stop... a matcher is dropped."""
    loaded = load(tmp_path, {"Stop": [{"matcher": "[", "hooks": [handler()]}]})

    assert loaded.hooks["Stop"][0].matcher is None
    assert loaded.error is None


@pytest.mark.parametrize(("event", "given", "seconds", "warned"), [
    ("PreToolUse", None, 600, False), ("PreToolUse", 0, 1, False), ("Stop", 30, 30, False),
    ("SessionEnd", None, 1, False), ("Interrupt", 2, 2, False), ("SessionEnd", 9, 3, True),
])  # fmt: skip
def test_timeouts_are_whole_seconds(tmp_path, event, given, seconds, warned) -> None:
    """codex-research.md §2.1: 600 s, 0 as 1; SessionEnd and Interrupt 1 s, at most 3 s."""
    extra = {} if given is None else {"timeout": given}

    loaded = load(tmp_path, {event: [{"hooks": [handler(**extra)]}]})

    assert loaded.hooks[event][0].timeout_s == seconds
    assert ("clamping" in (loaded.error or "")) is warned


def test_async_runs_in_the_background_but_not_on_session_end(tmp_path: Path) -> None:
    """codex-research.md §2.1: async is fire-and-forget; SessionEnd runs it in the
    foreground, and says so."""
    loaded = load(tmp_path, {"Stop": [{"hooks": [handler(**{"async": True})]}],
                             "SessionEnd": [{"hooks": [handler(**{"async": True})]}]})  # fmt: skip

    assert loaded.hooks["Stop"][0].background
    assert not loaded.hooks["SessionEnd"][0].background
    assert "running async SessionEnd hook synchronously" in (loaded.error or "")


def test_every_handler_keeps_its_review_key(tmp_path: Path) -> None:
    """codex-research.md §6: ``<file>:<event label>:<group>:<handler>``, skipped handlers
    counted."""
    loaded = load(tmp_path, {"Stop": [{"hooks": [handler("a")]},
                                      {"hooks": [{"type": "prompt"}, handler("b")]}]})  # fmt: skip

    keys = [s.options["key"] for s in loaded.hooks["Stop"]]
    assert keys == [f"{tmp_path}/hooks.json:stop:0:0", f"{tmp_path}/hooks.json:stop:1:1"]


def test_config_toml_hooks_and_the_users_switches(tmp_path: Path) -> None:
    """codex-research.md §2.1, §6: ``[hooks]`` in config.toml; ``[hooks.state]``
    ``enabled = false`` switches a hook off."""
    path = tmp_path / "config.toml"
    path.write_text('model = "x"\n[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\n'
                    'command = "from-toml"\n[hooks.state."k"]\nenabled = false\n')  # fmt: skip

    loaded = config.load_config_toml(source(path))

    assert [s.command for s in loaded.hooks["Stop"]] == ["from-toml"]
    assert loaded.settings["state"] == {"k": {"enabled": False}}


def test_a_config_toml_that_does_not_parse_gives_no_hooks(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("[hooks\n")

    loaded = config.load_config_toml(source(path))

    assert loaded.hooks == {}
    assert "Codex uses its defaults" in (loaded.error or "")


# -- matchers (codex-research.md §2.2) -------------------------------------------------------


@pytest.mark.parametrize(("matcher", "names", "matched"), [
    (None, ("Bash",), True), ("", ("Bash",), True), ("*", ("Bash",), True),
    ("Bash", ("Bash",), True), ("Bash|Edit", ("Bash",), True), ("^Bash$", ("Bash",), True),
    ("^Ba", ("Bash",), True), (".*", ("Bash",), True), ("exec_command|Bash", ("Bash",), True),
    ("bash", ("Bash",), False), ("Ba", ("Bash",), False), ("exec_command", ("Bash",), False),
    ("mcp__.*", ("Bash",), False), ("Edit", ("apply_patch", "Edit", "Write"), True),
    ("MultiEdit", ("apply_patch", "Edit", "Write"), False),
])  # fmt: skip
def test_matchers(matcher: str | None, names: tuple[str, ...], matched: bool) -> None:
    """Letters, digits, ``_`` and ``|`` only: exact names; else an unanchored regex."""
    assert config.matches(matcher, names) is matched


# -- output (codex-research.md §5) --------------------------------------------------------


def ran(stdout: str = "", code: int = 0, stderr: str = "", timed_out: bool = False) -> Any:
    return ProcessOutcome(code, stdout.encode(), stderr.encode(), 5.0, timed_out=timed_out)


def specific(event: str = "PreToolUse", **fields: Any) -> str:
    return json.dumps({"hookSpecificOutput": {"hookEventName": event, **fields}})


@pytest.mark.parametrize(("answer", "blocks", "error"), [
    (ran(code=2, stderr="no rm\n"), True, None),
    (ran(code=2), False, "PreToolUse hook exited with code 2 but did not write a blocking "
                         "reason to stderr"),
    (ran(specific(permissionDecision="deny", permissionDecisionReason="no")), True, None),
    (ran(specific(permissionDecision="deny")), False, "PreToolUse hook returned "
     "permissionDecision:deny without a non-empty permissionDecisionReason"),
    (ran('{"decision": "block", "reason": "old"}'), True, None),
    (ran('{"decision": "block"}'), False,
     "PreToolUse hook returned decision:block without a non-empty reason"),
    (ran('{"decision": "approve"}'), False, "PreToolUse hook returned unsupported decision:approve"),
    (ran('{"reason": "why"}'), False, "PreToolUse hook returned reason without decision"),
    (ran(specific(permissionDecision="ask")), False,
     "PreToolUse hook returned unsupported permissionDecision:ask"),
    (ran(specific(permissionDecision="allow")), False,
     "PreToolUse hook returned unsupported permissionDecision:allow"),
    (ran(specific(updatedInput={"command": "x"})), False,
     "PreToolUse hook returned updatedInput without permissionDecision:allow"),
    (ran(specific(permissionDecisionReason="r")), False,
     "PreToolUse hook returned permissionDecisionReason without permissionDecision"),
    (ran('{"continue": false}'), False, "PreToolUse hook returned unsupported continue:false"),
    (ran('{"stopReason": "s"}'), False, "PreToolUse hook returned unsupported stopReason"),
    (ran('{"suppressOutput": true}'), False, "PreToolUse hook returned unsupported suppressOutput"),
    (ran('{"foo": 1}'), False, "hook returned invalid pre-tool-use JSON output"),
    (ran("{broken"), False, "hook returned invalid pre-tool-use JSON output"),
    (ran(specific("Stop", additionalContext="x")), False, None),  # another event's name: taken
    (ran("plain text"), False, None),
    (ran('{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": '
         '"deny", "permissionDecisionReason": "no"}}', code=1), False, "hook exited with code 1"),
    (ran(timed_out=True), False, "hook timed out after 600s"),
])  # fmt: skip
def test_pre_tool_use_answers(answer: Any, blocks: bool, error: str | None) -> None:
    """codex-research.md §5.1: what blocks, and each answer Codex rejects (a failed hook,
    which never blocks)."""
    verdict = output.interpret("PreToolUse", answer, 600)

    assert verdict.blocks is blocks
    assert verdict.error == error


def test_an_allowed_rewrite_and_contexts() -> None:
    rewrite = output.interpret("PreToolUse", ran(specific(
        permissionDecision="allow", updatedInput={"command": "echo safe"},
        additionalContext="ctx")), 600)  # fmt: skip

    assert rewrite.has_updated_input
    assert rewrite.updated_input == {"command": "echo safe"}
    assert rewrite.context == "ctx"


@pytest.mark.parametrize(("event", "answer", "blocks", "error", "context"), [
    ("PostToolUse", ran(code=2, stderr="bad output"), True, None, None),
    ("PostToolUse", ran(code=2), False,
     "PostToolUse hook exited with code 2 but did not write feedback to stderr", None),
    ("PostToolUse", ran('{"suppressOutput": true}'), False,
     "PostToolUse hook returned unsupported suppressOutput", None),
    ("PostToolUse", ran(specific("PostToolUse", updatedMCPToolOutput="x")), False,
     "PostToolUse hook returned unsupported updatedMCPToolOutput", None),
    ("PostToolUse", ran(specific("PostToolUse", additionalContext="c")), False, None, "c"),
    ("UserPromptSubmit", ran("plain context"), False, None, "plain context"),
    ("UserPromptSubmit", ran('{"reason": "r", "suppressOutput": true}'), False, None, None),
    ("UserPromptSubmit", ran('{"decision": "block", "reason": "no"}'), True, None, None),
    ("SessionStart", ran("plain context"), False, None, "plain context"),
    ("SessionStart", ran(code=2, stderr="x"), False, "hook exited with code 2", None),
    ("SessionStart", ran('{"decision": "block"}'), False,
     "hook returned invalid session start JSON output", None),
    ("Stop", ran("plain"), False, "hook returned invalid stop hook JSON output", None),
    ("Stop", ran(code=2), False,
     "Stop hook exited with code 2 but did not write a continuation prompt to stderr", None),
    ("Stop", ran('{"decision": "block", "reason": "go on"}'), True, None, None),
    ("Interrupt", ran("plain"), False, "Interrupt hook returned non-JSON stdout", None),
    ("Interrupt", ran('{"continue": false}'), False,
     "hook returned invalid interrupt hook JSON output", None),
    ("PreModelRequest", ran(code=2, stderr="said"), False, "said", None),
    ("PreModelRequest", ran('{"decision": "block", "reason": "no"}'), False, None, None),
    ("PermissionRequest", ran(specific("PermissionRequest", decision={"behavior": "deny"})),
     True, None, None),
    ("PermissionRequest", ran(specific("PermissionRequest", decision={
        "behavior": "allow", "updatedPermissions": []})), False,
     "PermissionRequest hook returned unsupported updatedPermissions", None),
    ("PermissionRequest", ran(specific("PermissionRequest", additionalContext="c")), False,
     "hook returned invalid permission-request JSON output", None),
])  # fmt: skip
def test_other_events(event, answer, blocks, error, context) -> None:
    """codex-research.md §5.2-§5.7."""
    verdict = output.interpret(event, answer, 600)

    assert verdict.blocks is blocks
    assert verdict.error == error
    assert verdict.context == context


def test_a_denied_permission_without_message_says_the_default() -> None:
    verdict = output.interpret(
        "PermissionRequest", ran(specific("PermissionRequest", decision={"behavior": "deny"})), 5
    )
    assert verdict.reason == "PermissionRequest hook denied approval"


# -- stdin (codex-research.md §3) ------------------------------------------------------------


@pytest.mark.parametrize(("value", "text"), [
    (1.0, "1.0"), (0.000025, "0.000025"), (1e-7, "1e-7"), (1e16, "1e16"), (1e15, "1000000000000000.0"),
    (1.5e300, "1.5e300"), (-0.0, "-0.0"), (12.34, "12.34"), (2**70, str(2**70)), (-3, "-3"),
])  # fmt: skip
def test_numbers_as_serde_json_writes_them(value: float, text: str) -> None:
    """ryu's layout (serde_json): never ``1`` for ``1.0``, no ``+`` in an exponent."""
    assert serde_number(value) == text


def test_the_payload_is_compact_in_its_own_order_without_a_newline() -> None:
    assert serde_json_bytes({"b": 1, "2": "é", "a": [0.5]}) == '{"b":1,"2":"é","a":[0.5]}'.encode()


# -- review (codex-research.md §6) -----------------------------------------------------------


def test_the_review_hash_is_codexs() -> None:
    """The recipe reproduced from a pin Codex wrote itself (the research's check)."""
    digest = review.trusted_hash("UserPromptSubmit", None, "true # default", 600)

    assert digest.startswith("sha256:e4ce6bc5")


def test_pins_are_added_and_taken_out_leaving_the_rest(tmp_path: Path) -> None:
    original = 'model = "x"\n\n[hooks.state."/o:stop:0:0"]\nenabled = false\n'
    pins = {"/a/hooks.json:pre_tool_use:0:0": "sha256:ab"}

    written, notes = review.with_pins(original, pins, "config.toml", "/a/hooks.json")

    assert notes == []
    assert written.startswith(original)
    assert review.MARKER in written
    assert review.without_pins(written, "/a/hooks.json").rstrip("\n") == original.rstrip("\n")
    again, _ = review.with_pins(written, pins, "config.toml", "/a/hooks.json")
    assert again.count(review.MARKER) == 1


def test_pins_of_another_file_stay() -> None:
    """Adopting a project after the user's scope keeps the user's relay pins."""
    user = {"/h/.codex/hooks.json:pre_tool_use:0:0": "sha256:u"}
    project = {"/p/.codex/hooks.json:pre_tool_use:0:0": "sha256:p"}
    first, _ = review.with_pins("", user, "config.toml", "/h/.codex/hooks.json")

    both, _ = review.with_pins(first, project, "config.toml", "/p/.codex/hooks.json")

    state = tomllib.loads(both)["hooks"]["state"]
    assert set(state) == set(user) | set(project)
    only_user = review.without_pins(both, "/p/.codex/hooks.json")
    assert set(tomllib.loads(only_user)["hooks"]["state"]) == set(user)


def test_a_review_of_the_moved_hook_gives_way_and_comes_back() -> None:
    """Codex's review of the hook that stood where the relay entry now stands: hookd's pin
    takes its place, and taking the pins out writes it back."""
    key = "/a/hooks.json:pre_tool_use:0:0"
    original = f'model = "x"\n\n[hooks.state."{key}"]\ntrusted_hash = "sha256:old"\n'

    written, notes = review.with_pins(original, {key: "sha256:new"}, "config.toml",
                                      "/a/hooks.json")  # fmt: skip

    assert notes == []
    assert tomllib.loads(written)["hooks"]["state"][key] == {"trusted_hash": "sha256:new"}
    back = review.without_pins(written, "/a/hooks.json")
    assert tomllib.loads(back)["hooks"]["state"][key] == {"trusted_hash": "sha256:old"}


def test_other_settings_at_the_key_are_left_and_said() -> None:
    key = "/a/hooks.json:pre_tool_use:0:0"
    original = f'[hooks.state."{key}"]\ntrusted_hash = "sha256:old"\nenabled = false\n'

    written, notes = review.with_pins(original, {key: "sha256:new"}, "config.toml",
                                      "/a/hooks.json")  # fmt: skip

    assert written == original
    assert "holds Codex's settings of another hook" in notes[0]
