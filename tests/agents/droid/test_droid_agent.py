"""Factory Droid 0.225.2 itself against hookd: each case of ``cases.py`` runs in the real
agent (``droid exec`` in a loopback-only network namespace, its model a custom one served
by a scripted fake chat-completions API), is held to what Droid was seen to do
(``Does``), and then runs through hookd with the payload the agent gave its hooks: what
the agent did must be what hookd's result says, and each hook must get the same stdin
bytes, arguments, variables and working directory.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import trio

from agents.droid.cases import CASES, DONE, TOOL_OUT, Case, Hook, execute
from agents.harness.ahead import Ahead, jobs, selected_cases, trio_side
from agents.harness.scripted import TAG
from hookd.daemon.app import serve
from hookd.daemon.settings import Settings
from hookd_testing import RpcClient
from hookd_testing.cases import case_params

HARNESS = Path(__file__).parents[1] / "harness"
ENV_SEEN = ("^(FACTORY_PROJECT_DIR|DROID_PROJECT_DIR|CLAUDE_PROJECT_DIR|DROID_PLUGIN_ROOT|"
            "CLAUDE_PLUGIN_ROOT|NODE_USE_SYSTEM_CA|NODE_EXTRA_CA_CERTS|CASE_[A-Z_]*|session_id|"
            "transcript_path|cwd|permission_mode|hook_event_name|tool_name|source|message_id|"
            "stop_hook_active|tool_execution_count|elapsed_time|reason|CLAUDE_ENV_FILE)=")  # fmt: skip
"""The variables a hook writes down: Droid's own, the payload's it exports, the case's."""
FILES = {
    "user": "{home}/.factory/settings.json", "project": "{ws}/.factory/settings.json",
    "user-hooks": "{home}/.factory/hooks.json", "project-hooks": "{ws}/.factory/hooks.json",
    "legacy": "{home}/.factory/hooks/hooks.json", "local": "{ws}/.factory/settings.local.json",
    "org": "{system}/etc/factory/settings.json",
}  # fmt: skip
FLAT = ("user-hooks", "project-hooks", "legacy")


# -- the case's files ------------------------------------------------------------------


def _script(hook: Hook) -> str:
    """The hook: it records what it was given (stdin, arguments, the variables of
    ``ENV_SEEN``, its working directory) under a run number taken with an atomic
    ``mkdir``, then answers as the case says (only on its first run unless
    ``every_run``)."""
    out = f'"$HOOK_OUT/{hook.name}'
    lines = [
        "#!/bin/sh",
        f'n=0; until mkdir {out}.run.$n" 2>/dev/null; do n=$((n+1)); done',
        f'cat > {out}.stdin.$n"',
        f'printf "%s\\n" "$@" > {out}.args.$n"',
        f"env | grep -E '{ENV_SEEN}' | sort > {out}.env.$n\"",
        f'pwd > {out}.cwd.$n"',
    ]
    if not hook.every_run:
        lines.append('[ "$n" -gt 0 ] && exit 0')
    if hook.run:
        lines.append(hook.run)
    lines += [
        f"printf '%s' {_sh(hook.stdout)}",
        f"printf '%s' {_sh(hook.stderr)} >&2",
        *([f"sleep {hook.linger}"] if hook.linger else []),
        f"exit {hook.exit}",
    ]
    return "\n".join(lines) + "\n"


def _sh(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def _places(root: Path) -> dict[str, Path]:
    names = ("home", "ws", "hooks", "agent", "hookd", "run", "tmp", "system")
    places = {n: root / n for n in names}
    for path in places.values():
        path.mkdir(parents=True)
    return places


def _fill(value: Any, places: dict[str, Path]) -> Any:
    if isinstance(value, str):
        for name in ("home", "ws", "hooks", "tmp", "system"):
            value = value.replace("{" + name + "}", str(places[name]))
        return value
    if isinstance(value, dict):
        return {_fill(k, places): _fill(v, places) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_fill(v, places) for v in value]
    return value


def _group(hook: Hook, places: dict[str, Path]) -> dict[str, Any]:
    handler = {"type": "command", "command": str(places["hooks"] / f"{hook.name}.sh"),
               **hook.fields}  # fmt: skip
    group: dict[str, Any] = {"matcher": hook.matcher} if hook.matcher is not None else {}
    return {**group, **hook.group, "hooks": [handler] * hook.copies}


def setup_case(case: Case, root: Path) -> dict[str, Path]:
    """The case's folders and files: each hook's script and its declaration."""
    places = _places(root)
    declared: dict[Path, dict[str, Any]] = {}
    for hook in case.hooks:
        script = places["hooks"] / f"{hook.name}.sh"
        script.write_text(_fill(_script(hook), places))
        script.chmod(0o755)
        path = Path(_fill(FILES[hook.where], places))
        content = declared.setdefault(path, {})
        events = content if hook.where in FLAT else content.setdefault("hooks", {})
        events.setdefault(hook.key or case.event, []).append(_group(hook, places))
    for where, text in case.files.items():
        path_text, _, key = _fill(where, places).partition("#")
        path = Path(path_text)
        if key:  # a top-level key of a declared file, merged
            value = _fill(json.loads(text), places)
            present = declared.setdefault(path, {}).setdefault(key, {})
            present.update(value)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(_fill(text, places))
    for path, content in declared.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(content, indent=2))
    return places


# -- the agent's side ------------------------------------------------------------------


def agent_env(case: Case, places: dict[str, Path]) -> dict[str, str]:
    """The agent's environment (``droid-research.md §8``); hookd's fire gets it too."""
    return {
        "PATH": os.environ["PATH"], "HOME": str(places["home"]), "TMPDIR": str(places["tmp"]),
        "SHELL": "/bin/bash", "TERM": "dumb", "LANG": "C.UTF-8",
        "FACTORY_AIRGAP_ENABLED": "true", "DO_NOT_TRACK": "1", "DISABLE_TELEMETRY": "1",
        "FACTORY_DROID_AUTO_UPDATE_ENABLED": "false", "HOOK_OUT": str(places["agent"]),
        **case.env,
    }  # fmt: skip


async def run_agent(case: Case, places: dict[str, Path], droid: str,
                    env: dict[str, str] | None = None) -> dict[str, Any]:  # fmt: skip
    """Run the agent on the case in its own loopback-only network namespace (``env``:
    more variables, the relay's); what it did."""
    from agents.harness.netns import netns_argv

    etc = places["system"] / "etc"
    turns = case.turns or (execute(), DONE)
    run = {
        "droid": droid, "cwd": str(places["ws"]), "prompt": f"do it case:{case.id}",
        "turns": {case.id: _fill(list(turns), places)}, "env": {**agent_env(case, places), **(env or {})},
        "etc": str(etc) if etc.exists() else None, "timeout": 60, "rpc": case.rpc,
        "compact": case.compact,
    }  # fmt: skip
    (places["run"] / "run.json").write_text(json.dumps(run))
    driver = [sys.executable, str(HARNESS / "drive_droid.py"), str(places["run"])]
    if run["etc"]:  # the case's /etc/factory, in a mount namespace of the agent's own
        os.chmod(etc, 0o755)
        driver = ["unshare", "-m", "--propagation", "private", *driver]
    driven = await trio.run_process(netns_argv(driver), capture_stdout=True,
                                    capture_stderr=True, check=False)  # fmt: skip
    if driven.returncode != 0:
        pytest.fail("the Droid driver failed (in the loopback-only namespace): "
                    + driven.stderr.decode(errors="replace")[-3000:], pytrace=False)  # fmt: skip
    return observe(case, places)


def observe(case: Case, places: dict[str, Path]) -> dict[str, Any]:
    """What the agent did: its output and exit code, the model's requests, the markers."""
    requests = []
    log = places["run"] / "requests.jsonl"
    for line in log.read_text().splitlines() if log.exists() else []:
        body = json.loads(line)
        found = TAG.search(json.dumps(body.get("messages", [])))
        if body.get("tools") and found and found.group(1) == case.id:
            requests.append(body)
    return {
        "ran": (places["ws"] / "ran").exists(),
        "rewritten": (places["ws"] / "rewritten").exists(),
        "requests": requests,
        "stdout": (places["run"] / "agent.stdout").read_text(errors="replace"),
        "stderr": (places["run"] / "agent.stderr").read_text(errors="replace"),
        "observation": json.loads((places["run"] / "observation.json").read_text()),
    }


def _messages(agent: dict[str, Any]) -> list[dict[str, Any]]:
    return agent["requests"][-1].get("messages", []) if agent["requests"] else []


def tool_results(agent: dict[str, Any]) -> list[str]:
    return [m.get("content", "") for m in _messages(agent) if m.get("role") == "tool"]


def user_messages(agent: dict[str, Any], request: int = -1) -> list[str]:
    """The plain user messages of a request (the tool list reminder is no plain text),
    the case's own prompt left out."""
    if not agent["requests"]:
        return []
    found = []
    for message in agent["requests"][request].get("messages", []):
        content = message.get("content")
        if message.get("role") != "user" or not isinstance(content, str):
            continue
        if not content.startswith("do it case:"):
            found.append(content)
    return found


def hook_runs(folder: Path) -> dict[str, int]:
    counts: dict[str, int] = {}
    for path in folder.glob("*.stdin.*"):
        name = path.name.partition(".stdin.")[0]
        counts[name] = counts.get(name, 0) + 1
    return counts


def assert_does(case: Case, places: dict[str, Path], agent: dict[str, Any]) -> None:
    """The agent did what ``case.does`` says Droid 0.225.2 does."""
    does = case.does
    problems: list[str] = []

    def check(what: str, seen: Any, expected: Any) -> None:
        if seen != expected:
            problems.append(f"{what}: Droid did {seen!r}, the case says {expected!r}")

    check("tool ran", agent["ran"], does.ran)
    check("rewritten ran", agent["rewritten"], does.rewritten)
    check("exit code", agent["observation"]["exit"], does.exit)
    if does.tool is not None:
        results = tool_results(agent)
        check("tool result", results[0] if results else None, _fill(does.tool, places))
    if does.requests is not None:
        check("model requests", len(agent["requests"]), does.requests)
    if case.compact:
        check("compacted", compacted(agent), does.compacted)
    for name, wanted in does.variables.items():
        path = places["agent"] / f"{name}.env.0"
        had = dict(line.split("=", 1) for line in path.read_text().splitlines()) if (
            path.exists()) else {}  # fmt: skip
        check(f"{name}'s variables", {k: had.get(k) for k in wanted}, wanted)
    if does.user is not None:
        check("user messages", user_messages(agent), list(does.user))
    counts = {hook.name: does.runs.get(hook.name, 1) for hook in case.hooks}
    seen = hook_runs(places["agent"])
    check("hook runs", {name: seen.get(name, 0) for name in counts}, counts)
    assert problems == [], "\n".join(problems) + "\nstderr: " + agent["stderr"][-1500:]


# -- hookd's side ----------------------------------------------------------------------


def fired(case: Case, places: dict[str, Path]) -> bytes:
    """The payload the agent gave the first hook of the case's event that ran; when none
    ran (every hook off), one written the agent's way (hookd must run none either)."""
    for hook in case.hooks:
        if (hook.key or case.event) != case.event:
            continue
        path = places["agent"] / f"{hook.name}.stdin.0"
        if path.exists():
            return path.read_bytes()
    assert case.event == "PreToolUse", "no hook of the case's event ran in the agent"
    made = {"session_id": "none-ran", "transcript_path": "", "cwd": str(places["ws"]),
            "permission_mode": "auto-high", "hook_event_name": "PreToolUse",
            "tool_name": "Execute", "tool_input": _fill(execute()["args"], places)}  # fmt: skip
    return json.dumps(made, separators=(",", ":")).encode()


async def fire_hookd(case: Case, places: dict[str, Path], settings: Settings) -> dict[str, Any]:
    raw = fired(case, places)
    env = {**agent_env(case, places), "HOOK_OUT": str(places["hookd"])}
    async with trio.open_nursery() as nursery:
        await nursery.start(serve, replace(settings, home=str(places["home"]),
                                           system_root=str(places["system"])))  # fmt: skip
        rpc = await RpcClient.connect(settings.socket_path)
        try:
            result: dict[str, Any] = await rpc.fire(
                "droid", case.event, [str(places["ws"])], json.loads(raw), env=env
            )
        finally:
            await rpc.call("shutdown")
            await rpc.aclose()
    return result


def _records(folder: Path, hooks: set[str]) -> dict[str, bytes]:
    """Each run 0's records (stdin, args, env, cwd) of ``hooks``, by file name, each
    folder's own ``HOOK_OUT`` written ``OUT``."""
    return {path.name: path.read_bytes().replace(str(folder).encode(), b"OUT")
            for path in sorted(folder.iterdir())
            if path.name.partition(".")[0] in hooks
            and re.search(r"\.(stdin|args|env|cwd)\.0$", path.name)}  # fmt: skip


def expected_action(case: Case, agent: dict[str, Any]) -> str:
    """What Droid did next, in the fire result's words."""
    if case.event == "PreToolUse":
        if agent["ran"] or agent["rewritten"]:
            return "proceed"
        return "stop" if len(agent["requests"]) == 1 else "block"
    if case.event == "PostToolUse":
        return "stop" if len(agent["requests"]) == 1 else "proceed"
    if case.event == "UserPromptSubmit":
        return "proceed" if agent["requests"] else "stop"
    if case.event == "PreCompact":
        return "proceed" if compacted(agent) else "block"
    if case.event == "Stop":
        return "block" if hook_runs(Path(agent["out"])).get(case.hooks[0].name, 0) > 1 else (
            "proceed")  # fmt: skip
    return "proceed"


def compare(case: Case, places: dict[str, Path], agent: dict[str, Any],
            hookd: dict[str, Any]) -> list[str]:  # fmt: skip
    """Where hookd's result disagrees with what the agent did (empty: they agree)."""
    problems: list[str] = []

    def check(what: str, agent_did: Any, hookd_says: Any) -> None:
        if agent_did != hookd_says:
            problems.append(f"{what}: the agent {agent_did!r}, hookd {hookd_says!r}")

    ours = {h.name for h in case.hooks if (h.key or case.event) == case.event}
    ran_agent = {n for n in ours if (places["agent"] / f"{n}.stdin.0").exists()}
    ran_hookd = {n for n in ours if (places["hookd"] / f"{n}.stdin.0").exists()}
    if case.differs:
        ran_agent = (ran_agent - set(case.hookd_not)) | set(case.hookd_also)
    check("hooks that ran", sorted(ran_agent), sorted(ran_hookd))
    if case.event != "Stop":  # a Stop hook may run again in the agent (a continuation)
        runs = {k: v for k, v in hook_runs(places["agent"]).items() if k in ours}
        check("how often each ran", runs, {k: v for k, v in hook_runs(places["hookd"]).items()
                                           if k in ours})  # fmt: skip
    both = ran_agent & ran_hookd - set(case.hookd_also)
    mine, theirs = _records(places["agent"], both), _records(places["hookd"], both)
    check("what the hooks were given (records)", sorted(mine), sorted(theirs))
    for name in sorted(set(mine) & set(theirs)):
        if mine[name] != theirs[name]:
            problems.append(f"{name}: the agent gave {mine[name]!r}, hookd {theirs[name]!r}")
    if case.differs:
        return problems
    check("action", expected_action(case, {**agent, "out": places["agent"]}), hookd["action"])
    results = tool_results(agent)
    if case.event == "PreToolUse":
        if hookd["action"] == "block":
            check("the tool result", results[0] if results else None, "Error: " + hookd["reason"])
        elif agent["ran"] and case.turns is None:
            prefix = hookd["context"] + "\n\n" if hookd["context"] else ""
            check("the tool result", results[0] if results else None, prefix + TOOL_OUT)
        check("a rewrite ran", agent["rewritten"], "rewritten" in json.dumps(hookd["updatedInput"]))
        witness = places["agent"] / "w.stdin.0"  # a PostToolUse hook: the input the tool ran with
        if witness.exists() and hookd["updatedInput"] is not None:
            ran_with = json.loads(witness.read_bytes())["tool_input"]
            check("the input the tool ran with", ran_with, hookd["updatedInput"])
    if case.event == "PostToolUse" and hookd["action"] == "proceed":
        said = [hookd["context"]] if hookd["context"] else []
        said += [f"[Hook Feedback] {hookd['reason']}"] if hookd["reason"] else []
        check("what the model was told after the tool", user_messages(agent), said)
    if case.event == "Stop" and hookd["blocked"]:
        check("the agent went on with", user_messages(agent), [hookd["reason"]])
    if case.event == "SessionStart":
        before = user_messages(agent, 0)
        check("context", before[0] if before else None, hookd["context"])
    if case.event == "UserPromptSubmit":
        if hookd["blocked"]:
            check("the prompt failed with", errors(agent), [hookd["reason"]])
        else:
            said = [hookd["context"]] if hookd["context"] else []
            said += [hookd["updatedInput"]["prompt"]] if hookd["updatedInput"] else []
            check("what the model was given", user_messages(agent, 0), said)
    return problems


def compacted(agent: dict[str, Any]) -> bool:
    """The session's compaction removed messages (its answer to ``droid.compact_session``)."""
    for line in agent["stdout"].splitlines():
        try:
            message = json.loads(line)
        except ValueError:
            continue
        if message.get("id") == "3":
            return bool((message.get("result") or {}).get("removedCount"))
    return False


def errors(agent: dict[str, Any]) -> list[str]:
    """The errors a JSON-RPC session reported (a blocked prompt's message)."""
    found = []
    for line in agent["stdout"].splitlines():
        try:
            message = json.loads(line)
        except ValueError:
            continue
        notification = message.get("params", {}).get("notification", {})
        if isinstance(notification, dict) and notification.get("type") == "error":
            found.append(notification.get("message"))
    return found


# -- the tests -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def ahead(request: pytest.FixtureRequest, droid_bin: str, netns: None,
          tmp_path_factory: pytest.TempPathFactory) -> Iterator[Ahead]:  # fmt: skip
    """The selected cases' agent runs, started ahead of their tests (``harness/ahead.py``)."""
    cases = selected_cases(request, "test_droid_agent_and_hookd_agree")
    base = tmp_path_factory.mktemp("cases")
    runs = Ahead(trio_side(_agent_side, droid_bin), cases, lambda c: base / c.id, jobs())
    yield runs
    runs.close()


async def _agent_side(droid: str, case: Case, root: Path) -> dict[str, Any]:
    places = setup_case(case, root)
    return {"places": places, "agent": await run_agent(case, places, droid)}


@pytest.mark.parametrize("case", case_params(CASES))
async def test_droid_agent_and_hookd_agree(case: Case, ahead: Ahead, settings: Settings) -> None:
    _root, running = ahead.take(case)
    side = await trio.to_thread.run_sync(running.result)
    places, agent = side["places"], side["agent"]
    assert_does(case, places, agent)
    hookd = await fire_hookd(case, places, settings)
    problems = compare(case, places, agent, hookd)
    assert problems == [], "\n".join(problems) + "\nhookd: " + json.dumps(hookd)[:3000]
