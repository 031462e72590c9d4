"""Claude's http, client-run and async handlers at their edges: URLs, timeouts, caps, state folders."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from hookd.daemon.dialects.claude.handlers import url_allowed
from hookd.daemon.urls import split_url
from hookd_testing import claude_settings, command, wait_until, write_json


def project(workspace: Path, settings: dict) -> Path:
    return write_json(workspace / ".claude" / "settings.json", settings)


BLOCKER = command("echo 'guard says no' >&2; exit 2")


@pytest.mark.parametrize(
    "bad",
    [
        {"url": "http://127.0.0.1:9/h", "headers": {"X-User": "$NAME"}, "allowedEnvVars": ["NAME"]},
        {"url": "http://127.0.0.1:9/caf\u00e9"},
    ],
    ids=["non-ascii-header", "non-ascii-path"],
)
async def test_an_http_hook_that_cannot_be_sent_never_loses_a_sibling_block(
    rpc, workspace, bad
) -> None:
    """A header value or path that is not ASCII: that hook's error, the guard still blocks."""
    project(workspace, claude_settings("PreToolUse", BLOCKER, {"type": "http", **bad}))

    result = await rpc.fire("claude", "PreToolUse", [str(workspace)], {"tool_name": "Bash"},
                            env={"NAME": "Jos\u00e9"})  # fmt: skip

    assert result["blocked"] is True
    assert result["reason"] == "guard says no"
    assert result["hooks"][1]["blocked"] is False


async def test_a_malformed_url_is_a_settings_error_not_a_crash(rpc, workspace) -> None:
    project(workspace, claude_settings("PreToolUse", BLOCKER,
                                       {"type": "http", "url": "http://[::1/x"}))  # fmt: skip

    result = await rpc.fire("claude", "PreToolUse", [str(workspace)], {"tool_name": "Bash"})

    assert result["blocked"] is True
    assert any("not a valid URL" in w for w in result["warnings"])


def test_urls_are_sent_percent_encoded_and_allowlists_are_literal() -> None:
    assert split_url("http://h.example/caf\u00e9 x?q=\u00e9") == (
        "http", "h.example", 80, "/caf%C3%A9%20x?q=%C3%A9")  # fmt: skip
    assert split_url("https://b\u00fccher.example/")[1] == "xn--bcher-kva.example"
    assert url_allowed("http://[::1]:8080/hook", ["http://[::1]:8080/*"])
    assert not url_allowed("http://a.example/x", ["http://a?example/*"])


@pytest.mark.parametrize("timeout", ["1e400", "NaN"])
async def test_non_finite_timeouts_are_settings_errors(rpc, workspace, timeout) -> None:
    path = workspace / ".claude" / "settings.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        '{"hooks": {"PreToolUse": [{"hooks": ['
        '{"type": "command", "command": "echo no >&2; exit 2"},'
        f'{{"type": "command", "command": "true", "timeout": {timeout}}}]}}]}}}}'
    )

    result = await rpc.fire("claude", "PreToolUse", [str(workspace)], {"tool_name": "Bash"})

    assert result["blocked"] is True
    assert any("positive finite number" in w for w in result["warnings"])


async def test_rewake_messages_are_capped_like_every_output(rpc, workspace) -> None:
    project(workspace, claude_settings("PostToolUse", command(
        "python3 -c \"import sys; sys.stderr.write('e' * 30000)\"; exit 2", asyncRewake=True)))  # fmt: skip
    await rpc.fire("claude", "PostToolUse", [str(workspace)], {"session_id": "r"})

    async def finished() -> bool:
        return bool((await rpc.call("status"))["asyncHooks"]["finished"])

    await wait_until(finished)
    later = await rpc.fire("claude", "Stop", [str(workspace)], {"session_id": "r"})

    result = later["asyncResults"][0]
    assert len(result["rewakeMessage"]) < 10_000
    assert Path(result["spilled"][0]["path"]).read_text() == "e" * 30000


async def test_state_folders_are_private_and_env_file_only_when_a_hook_got_it(
    rpc, workspace, settings
) -> None:
    none = await rpc.fire("claude", "SessionStart", [str(workspace)], {"session_id": "q"})
    project(workspace, claude_settings("SessionStart", command("true")))
    some = await rpc.fire("claude", "SessionStart", [str(workspace)], {"session_id": "q"})

    assert none["envFile"] is None
    folder = Path(some["envFile"]).parent
    for level in (folder, folder.parent, folder.parent.parent):
        assert stat.S_IMODE(level.stat().st_mode) == 0o700, level
