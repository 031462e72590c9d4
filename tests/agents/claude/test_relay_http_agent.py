"""Claude Code's http hook entry inside the real agent (issue 12): the relay cases run in
the agent as it is, then again after ``hookd adopt`` and ``hookd relay install --http``,
with ``hookd serve`` serving its http entry in the agent's network namespace (its
loopback is the agent's). The agent must do the same thing both times, every hook must
run exactly as often with the same event, and the events must have come over HTTP."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest
import trio

from agents.claude.cases import CASES, Case, Hook
from agents.claude.test_claude_agent import _run_agent, _setup
from agents.claude.test_relay_agent import RELAYED, _adopt, _given, _observed, _said
from hookd_testing.cases import case_params

AFTER_CD = Case(
    "http-after-cd",
    "the agent moves into a subfolder (the event's cwd follows it); the project's adopted "
    "hook still runs",
    (Hook("a", exit=2, stderr="no touching here", fields={"if": "Bash(touch *)"}),),
    turns=(
        {"tool": "Bash", "input": {"command": "mkdir -p sub && cd sub", "description": "cd"}},
        {"tool": "Bash", "input": {"command": "touch {ws}/ran", "description": "mark"}},
        {"text": "done"},
        {"text": "done again"},
    ),
)


def _hookd(places: dict[str, Path], *argv: str) -> list[str]:
    return [sys.executable, "-m", "hookd", *argv]


def _config(places: dict[str, Path], **more: Any) -> Path:
    """hookd's config for the case: the http entry on, state under the case's folder."""
    keys = {"http_entry": True, "state_dir": str(places["run"] / "state"), "trust_all": True,
            **more}  # fmt: skip
    path = places["run"] / "hookd.toml"
    path.write_text("".join(f"{k} = {json.dumps(v)}\n" for k, v in keys.items()))
    return path


async def _install_http(places: dict[str, Path], config: Path, *extra: str) -> str:
    """``hookd relay install --http`` as a person runs it; returns the passcode it made."""
    done = await trio.run_process(
        _hookd(places, "relay", "install", "--agent", "claude", "--scope", "project",
               "--project", str(places["ws"]), "--home", str(places["home"]), "--http",
               "--config", str(config), *extra),
        capture_stdout=True, capture_stderr=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert b"HOOKD_HTTP_PASSCODE" in done.stdout  # it says how to export the passcode
    return (places["run"] / "state" / "http-passcode").read_text().strip()


def _daemon(places: dict[str, Path], config: Path, socket: Path) -> dict[str, Any]:
    """``hookd serve`` for the agent's namespace (drive_claude starts it there). The hooks
    see its environment, not the agent's: ``HOOK_OUT`` (where the case's hooks write what
    they were given) is set here."""
    env = {"PATH": os.environ["PATH"], "HOME": str(places["home"]), "LANG": "C.UTF-8",
           "HOOK_OUT": str(places["agent"])}  # fmt: skip
    argv = _hookd(places, "--socket", str(socket), "serve", "--config", str(config),
                  "--home", str(places["home"]))  # fmt: skip
    return {"argv": argv, "env": env, "log": str(places["run"] / "hookd.log")}


def _fired_over_http(places: dict[str, Path]) -> list[str]:
    """The events hookd fired for http entry requests, from its audit log."""
    audit = places["run"] / "state" / "audit.jsonl"
    records = (
        [json.loads(line) for line in audit.read_text().splitlines()] if audit.exists() else []
    )
    return [r["event"] for r in records if str(r.get("requestId", "")).startswith("http-")]


@pytest.mark.parametrize("case", case_params([*(c for c in CASES if c.id in RELAYED), AFTER_CD]))
async def test_the_agent_does_the_same_through_the_http_entry(
    case: Case, claude_bin: str, netns: None, short_dir: Path, tmp_path: Path
) -> None:
    plain_places = _setup(case, tmp_path / "plain")
    plain = await _run_agent(case, plain_places, claude_bin)

    places = _setup(case, tmp_path / "relayed")
    await _adopt(places)
    config = _config(places)
    passcode = await _install_http(places, config)
    socket = short_dir / "hookd.sock"
    relayed = await _run_agent(
        case, places, claude_bin,
        env={"HOOKD_HTTP_PASSCODE": passcode, "HOOKD_SOCKET": str(socket), "HOOKD_NO_SPAWN": "1"},
        daemon=_daemon(places, config, socket),
    )  # fmt: skip

    assert _observed(relayed) == _observed(plain)
    # Each hook ran exactly as often as under the agent alone, given the same event.
    assert _given(places, "relayed") == _given(plain_places, "plain")
    plain_text, relayed_text = json.dumps(plain["requests"]), json.dumps(relayed["requests"])
    for text in _said(case):
        assert (text in relayed_text) == (text in plain_text), text
    # The events came over HTTP (SessionStart keeps the command relay: no http hook there),
    # those the adopted hooks are for: the entry keeps their matchers (a Bash call does not
    # reach hookd for a hook on Write).
    ran = bool(_given(plain_places, "plain"))
    assert set(_fired_over_http(places)) == (set() if case.event == "SessionStart" or not ran
                                             else {case.event})  # fmt: skip


@pytest.mark.parametrize(("on_error", "tool_runs"), [("continue", True), ("block", False)])
async def test_an_unreachable_hookd_follows_on_error(
    claude_bin: str, netns: None, short_dir: Path, tmp_path: Path, on_error: str, tool_runs: bool
) -> None:
    """No daemon (and the SessionStart relay may not start one): by default the agent
    reports the http entry as a failed hook and the tool runs; with ``--on-error block``
    (the entry's ``onFailure``) the tool call is blocked, the model told why."""
    case = next(c for c in CASES if c.id == "pre-exit0-allows")
    places = _setup(case, tmp_path / "relayed")
    await _adopt(places)
    passcode = await _install_http(places, _config(places), "--on-error", on_error)

    relayed = await _run_agent(case, places, claude_bin, env={
        "HOOKD_HTTP_PASSCODE": passcode, "HOOKD_SOCKET": str(short_dir / "none.sock"),
        "HOOKD_NO_SPAWN": "1"})  # fmt: skip

    assert relayed["ran"] is tool_runs
    assert ("ECONNREFUSED" in json.dumps(relayed["requests"])) is not tool_runs


async def test_a_wrong_passcode_is_a_failed_hook(
    claude_bin: str, netns: None, short_dir: Path, tmp_path: Path
) -> None:
    """An agent without the passcode is refused (401): no hook runs, and with
    ``onFailure: block`` the agent blocks the tool and tells the model the status."""
    case = next(c for c in CASES if c.id == "pre-exit0-allows")
    places = _setup(case, tmp_path / "relayed")
    await _adopt(places)
    config = _config(places)
    await _install_http(places, config, "--on-error", "block")
    socket = short_dir / "hookd.sock"

    relayed = await _run_agent(
        case, places, claude_bin,
        env={"HOOKD_HTTP_PASSCODE": "not-the-passcode", "HOOKD_SOCKET": str(socket),
             "HOOKD_NO_SPAWN": "1"},
        daemon=_daemon(places, config, socket),
    )  # fmt: skip

    assert relayed["ran"] is False
    assert "HTTP 401" in json.dumps(relayed["requests"])
    assert not list(places["agent"].glob("*.stdin.*"))  # the adopted hook never ran
    assert _fired_over_http(places) == []


async def test_the_session_start_entry_starts_hookd(
    claude_bin: str, netns: None, short_dir: Path, tmp_path: Path
) -> None:
    """From a cold machine: no daemon; the SessionStart command entry ``install --http``
    keeps starts one (with the agent's environment, so it reads the config that turns the
    http entry on), and the PreToolUse http entry reaches it: the hook blocks as it did
    under the agent alone."""
    case = next(c for c in CASES if c.id == "pre-exit2-blocks")
    plain = await _run_agent(case, _setup(case, tmp_path / "plain"), claude_bin)
    places = _setup(case, tmp_path / "relayed")
    await _adopt(places)
    config = _config(places)
    passcode = await _install_http(places, config)
    socket = str(short_dir / "hookd.sock")
    try:
        relayed = await _run_agent(case, places, claude_bin, env={
            "HOOKD_HTTP_PASSCODE": passcode, "HOOKD_SOCKET": socket,
            "HOOKD_CONFIG": str(config)})  # fmt: skip
        assert _observed(relayed) == _observed(plain)
        assert "no rm here" in json.dumps(relayed["requests"])
        assert _fired_over_http(places) == ["PreToolUse"]
    finally:
        env = {"PATH": os.environ["PATH"], "HOME": str(places["home"]), "HOOKD_SOCKET": socket}
        await trio.run_process(_hookd(places, "shutdown"), env=env, capture_stdout=True,
                               capture_stderr=True, check=False)  # fmt: skip
