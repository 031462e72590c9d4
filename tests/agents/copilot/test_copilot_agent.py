"""GitHub Copilot CLI 1.0.102 itself against hookd: each case of ``cases.py`` runs in the
real agent (``copilot -p`` in a loopback-only network namespace, its model scripted by a
fake chat-completions API, in its offline bring-your-own-provider mode), is held to what
Copilot was seen to do (``Does``), and then runs through hookd with the payload the agent
gave its hooks: what the agent did must be what hookd's result says, and each hook must get
the same stdin bytes, arguments, variables and working directory.

The project's hooks run in the agent because the case's ``~/.copilot/config.json`` lists
the project in ``trustedFolders`` (as after a person trusted the folder), unless the case
says otherwise.
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

from agents.copilot.cases import CASES, Case, Hook
from agents.harness.ahead import Ahead, jobs, selected_cases, trio_side
from agents.harness.scripted import TAG
from hookd.daemon.app import serve
from hookd.daemon.settings import Settings
from hookd_testing import RpcClient
from hookd_testing.cases import case_params

HARNESS = Path(__file__).parents[1] / "harness"
ENV_SEEN = ("^(COPILOT_HOOK_DIR|COPILOT_PROJECT_DIR|CLAUDE_PROJECT_DIR|CASE_|GITHUB_TOKEN|"
            "COPILOT_GITHUB_TOKEN|GH_TOKEN|OPENAI_API_KEY|COPILOT_PROVIDER|GIT_CONFIG_)")  # fmt: skip
"""The variables a hook writes down: Copilot's own, the tokens it strips, the case's."""
PASCAL = {"SessionStart": "sessionStart", "SessionEnd": "sessionEnd",
          "UserPromptSubmit": "userPromptSubmitted", "PreToolUse": "preToolUse",
          "PostToolUse": "postToolUse", "PostToolUseFailure": "postToolUseFailure",
          "Stop": "agentStop", "PermissionRequest": "permissionRequest",
          "ErrorOccurred": "errorOccurred", "PreCompact": "preCompact",
          "SubagentStart": "subagentStart", "SubagentStop": "subagentStop",
          "Notification": "notification"}  # fmt: skip
"""The PascalCase keys the cases use, and their agent event."""


def agent_event(key: str) -> str:
    return PASCAL.get(key, key)


# -- the case's files ------------------------------------------------------------------


def _script(hook: Hook) -> str:
    """The hook: it records what it was given (stdin, arguments, the variables of
    ``ENV_SEEN``, its working directory) under a run number taken with an atomic
    ``mkdir``, logs when it starts and ends, then answers as the case says (only on its
    first run unless ``every_run``)."""
    out = f'"$HOOK_OUT/{hook.name}'
    lines = [
        "#!/bin/sh",
        f'n=0; until mkdir {out}.run.$n" 2>/dev/null; do n=$((n+1)); done',
        f'echo "start {hook.name}" >> "$HOOK_OUT/order.log"',
        f'cat > {out}.stdin.$n"',
        f'printf "%s\\n" "$@" > {out}.args.$n"',
        f"env | grep -E '{ENV_SEEN}' | sort > {out}.env.$n\"",
        f'pwd > {out}.cwd.$n"',
    ]
    if not hook.every_run:
        lines.append(
            f'[ "$n" -gt 0 ] && {{ echo "end {hook.name}" >> "$HOOK_OUT/order.log"; exit 0; }}'
        )
    if hook.sleep:
        lines.append(f"sleep {hook.sleep}")
    lines += [
        f'echo "end {hook.name}" >> "$HOOK_OUT/order.log"',
        f"printf '%s' {_sh(hook.stdout)}",
        f"printf '%s' {_sh(hook.stderr)} >&2",
        f': > {out}.done.$n"',
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
    (places["home"] / ".copilot").mkdir()
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


def hook_file(hook: Hook, places: dict[str, Path]) -> Path:
    """Where the hook is declared."""
    return {
        "user": places["home"] / ".copilot" / "hooks" / hook.file,
        "repo": places["ws"] / ".github" / "hooks" / hook.file,
        "user-settings": places["home"] / ".copilot" / "settings.json",
        "claude": places["ws"] / ".claude" / "settings.json",
        "repo-settings": places["ws"] / ".github" / "copilot" / "settings.json",
        "policy": places["system"] / "etc" / "github-copilot" / "policy.d" / hook.file,
    }[hook.where]


def _handler(hook: Hook, places: dict[str, Path]) -> dict[str, Any]:
    handler: dict[str, Any] = {"type": "command", "bash": str(places["hooks"] / f"{hook.name}.sh")}
    handler.update(_fill(hook.fields, places))
    if hook.group is not None:
        return {"matcher": hook.group, "hooks": [handler]}
    return handler


def setup_case(case: Case, root: Path) -> dict[str, Path]:
    """The case's folders and files: each hook's script and its declaration."""
    places = _places(root)
    declared: dict[Path, dict[str, Any]] = {}
    for hook in case.hooks:
        script = places["hooks"] / f"{hook.name}.sh"
        script.write_text(_fill(_script(hook), places))
        script.chmod(0o755)
        path = hook_file(hook, places)
        content = declared.setdefault(path, {"version": 1, "hooks": {}}
                                      if hook.where in ("user", "repo", "policy") else {"hooks": {}})  # fmt: skip
        content["hooks"].setdefault(hook.key or case.event, []).append(_handler(hook, places))
    for where, text in case.files.items():
        path_text, _, key = _fill(where, places).partition("#")
        path = Path(path_text)
        if key:  # a top-level key of a declared hook file
            declared.setdefault(path, {"hooks": {}})[key] = json.loads(text)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(_fill(text, places))
    for path, content in declared.items():
        if path.exists():  # a settings file the case also writes: add the hooks to it
            content = {**json.loads(path.read_text()), **content}
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(content, indent=2))
    if (places["system"] / "etc").exists():
        os.chmod(places["system"] / "etc", 0o755)
    if case.trusted:
        config = {"trustedFolders": [str(places["ws"])]}
        (places["home"] / ".copilot" / "config.json").write_text(json.dumps(config))
    return places


# -- the agent's side ------------------------------------------------------------------


def pkg_cache(copilot: str) -> str:
    """Where the agent unpacks itself (shared by every case: ``COPILOT_PKG_CACHE_HOME``)."""
    return str(Path(copilot).parents[3] / "pkgcache")


def agent_env(case: Case, places: dict[str, Path], copilot: str) -> dict[str, str]:
    """The agent's environment (``copilot-research.md §6``); hookd's fire gets it too."""
    return {
        "PATH": os.environ["PATH"], "HOME": str(places["home"]), "TMPDIR": str(places["tmp"]),
        "SHELL": "/bin/bash", "TERM": "dumb", "LANG": "C.UTF-8",
        "COPILOT_PKG_CACHE_HOME": pkg_cache(copilot), "COPILOT_OFFLINE": "true",
        "COPILOT_PROVIDER_TYPE": "openai", "COPILOT_PROVIDER_API_KEY": "fake",
        "COPILOT_MODEL": "fake-model", "COPILOT_AUTO_UPDATE": "false",
        "HOOK_OUT": str(places["agent"]), **case.env,
    }  # fmt: skip


def _turns(case: Case, places: dict[str, Path]) -> dict[str, Any]:
    from agents.copilot.cases import DONE, bash

    turns = case.turns or (bash(case.tool_command), DONE)
    script = {case.id: _fill(list(turns), places)}
    if case.subagent_turns:
        script[f"{case.id}-sub"] = _fill(list(case.subagent_turns), places)
    filled: dict[str, Any] = json.loads(json.dumps(script).replace("{case}", case.id))
    return filled


async def run_agent(case: Case, places: dict[str, Path], copilot: str,
                    env: dict[str, str] | None = None) -> dict[str, Any]:  # fmt: skip
    """Run the agent on the case in its own loopback-only network namespace; what it did."""
    from agents.harness.netns import netns_argv

    etc = places["system"] / "etc"
    run = {
        "copilot": copilot, "cwd": str(places["ws"]), "prompt": f"do it case:{case.id}",
        "turns": _turns(case, places), "env": {**agent_env(case, places, copilot), **(env or {})},
        "args": list(case.args), "etc": str(etc) if etc.exists() else None, "timeout": 90,
    }  # fmt: skip
    (places["run"] / "run.json").write_text(json.dumps(run))
    driver = [sys.executable, str(HARNESS / "drive_copilot.py"), str(places["run"])]
    if run["etc"]:  # the case's /etc/github-copilot, in a mount namespace of the agent's own
        driver = ["unshare", "-m", "--propagation", "private", *driver]
    driven = await trio.run_process(netns_argv(driver), capture_stdout=True,
                                    capture_stderr=True, check=False)  # fmt: skip
    if driven.returncode != 0:
        pytest.fail("the Copilot driver failed (in the loopback-only namespace): "
                    + driven.stderr.decode(errors="replace")[-3000:], pytrace=False)  # fmt: skip
    return observe(case, places)


def observe(case: Case, places: dict[str, Path]) -> dict[str, Any]:
    """What the agent did: its output and exit code, the model's requests, the markers."""
    requests = []
    log = places["run"] / "requests.jsonl"
    for line in log.read_text().splitlines() if log.exists() else []:
        body = json.loads(line)
        found = TAG.search(json.dumps(body.get("messages", [])))
        if found and found.group(1) == case.id:
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
    """The conversation of the last model request (the whole of it)."""
    return agent["requests"][-1].get("messages", []) if agent["requests"] else []


def tool_results(agent: dict[str, Any]) -> list[str]:
    return [m.get("content", "") for m in _messages(agent) if m.get("role") == "tool"]


DATETIME = re.compile(r"^<current_datetime>[^<]*</current_datetime>\n\n")


def user_messages(agent: dict[str, Any]) -> list[str]:
    """The user messages of the last request, the datetime tag taken off; the case's own
    prompt left out unless a hook changed it."""
    found = []
    for message in _messages(agent):
        content = message.get("content")
        if message.get("role") != "user" or not isinstance(content, str):
            continue
        text = DATETIME.sub("", content)
        if text.startswith("do it case:"):
            continue
        found.append(text)
    return found


def hook_runs(folder: Path) -> dict[str, int]:
    counts: dict[str, int] = {}
    for path in folder.glob("*.stdin.*"):
        name = path.name.partition(".stdin.")[0]
        counts[name] = counts.get(name, 0) + 1
    return counts


def assert_does(case: Case, places: dict[str, Path], agent: dict[str, Any]) -> None:
    """The agent did what ``case.does`` says Copilot 1.0.102 does."""
    does = case.does
    problems: list[str] = []

    def check(what: str, seen: Any, expected: Any) -> None:
        if seen != expected:
            problems.append(f"{what}: Copilot did {seen!r}, the case says {expected!r}")

    check("tool ran", agent["ran"], does.ran)
    check("rewritten ran", agent["rewritten"], does.rewritten)
    check("exit code", agent["observation"]["exit"], does.exit)
    if does.tool is not None:
        results = tool_results(agent)
        check("tool result", results[0] if results else None, _fill(does.tool, places))
    if does.requests is not None:
        check("model requests", len(agent["requests"]), does.requests)
    for text in does.said:
        check(f"stderr says {text!r}", text in agent["stderr"], True)
    for text in does.printed:
        check(f"stdout says {text!r}", text in agent["stdout"], True)
    if does.user:
        check("user messages", user_messages(agent), list(_fill(list(does.user), places)))
    counts = {hook.name: does.runs.get(hook.name, 1) for hook in case.hooks}
    seen = hook_runs(places["agent"])
    check("hook runs", {name: seen.get(name, 0) for name in counts}, counts)
    assert problems == [], "\n".join(problems) + "\nstderr: " + agent["stderr"][-1500:]


# -- hookd's side ----------------------------------------------------------------------


def fired(case: Case, places: dict[str, Path]) -> tuple[str, bytes]:
    """The event hookd is fired with and the payload the agent gave its hooks: the
    camelCase one when a camelCase hook of the event ran, else the PascalCase one."""
    keys = [h.key or case.event for h in case.hooks]
    ordered = sorted(zip(keys, case.hooks, strict=True), key=lambda kh: kh[0] != agent_event(kh[0]))
    for key, hook in ordered:
        if agent_event(key) != agent_event(case.event):
            continue
        path = places["agent"] / f"{hook.name}.stdin.0"
        if path.exists():
            return key, path.read_bytes()
    raise AssertionError("no hook of the case's event ran in the agent: no payload for hookd")


async def fire_hookd(case: Case, places: dict[str, Path], settings: Settings, copilot: str,
                     *, event: str | None = None, payload: bytes | None = None) -> dict[str, Any]:  # fmt: skip
    key, raw = fired(case, places)
    env = {**agent_env(case, places, copilot), "HOOK_OUT": str(places["hookd"])}
    async with trio.open_nursery() as nursery:
        await nursery.start(serve, replace(settings, home=str(places["home"]),
                                           system_root=str(places["system"])))  # fmt: skip
        rpc = await RpcClient.connect(settings.socket_path)
        try:
            result: dict[str, Any] = await rpc.fire(
                "copilot", event or key, [str(places["ws"])], json.loads(payload or raw), env=env
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


def expected_action(event: str, agent: dict[str, Any], case: Case) -> str | None:
    """What Copilot did next, in the fire result's words (None: nothing to compare)."""
    if event in ("preToolUse", "permissionRequest"):
        if agent["ran"] or agent["rewritten"]:
            return "proceed"
        results = tool_results(agent)
        if results and "unable to ask user" in results[0]:
            return "ask"
        return "block"
    if event == "userPromptSubmitted":
        return "stop" if not agent["requests"] else "proceed"
    if event == "agentStop":
        return "block" if case.does.runs.get(case.hooks[0].name, 1) > 1 else "proceed"
    return None


def compare(case: Case, places: dict[str, Path], agent: dict[str, Any],
            hookd: dict[str, Any]) -> list[str]:  # fmt: skip
    """Where hookd's result disagrees with what the agent did (empty: they agree)."""
    problems: list[str] = []

    def check(what: str, agent_did: Any, hookd_says: Any) -> None:
        if agent_did != hookd_says:
            problems.append(f"{what}: the agent {agent_did!r}, hookd {hookd_says!r}")

    event = agent_event(case.event)
    ours = {h.name for h in case.hooks if agent_event(h.key or case.event) == event}
    ran_agent = {n for n in ours if (places["agent"] / f"{n}.stdin.0").exists()}
    ran_hookd = {n for n in ours if (places["hookd"] / f"{n}.stdin.0").exists()}
    if case.differs:
        ran_agent = (ran_agent - set(case.hookd_not)) | set(case.hookd_also)
    check("hooks that ran", sorted(ran_agent), sorted(ran_hookd))
    both = ran_agent & ran_hookd - set(case.hookd_also)
    mine, theirs = _records(places["agent"], both), _records(places["hookd"], both)
    check("what the hooks were given (records)", sorted(mine), sorted(theirs))
    for name in sorted(set(mine) & set(theirs)):
        if mine[name] != theirs[name]:
            problems.append(f"{name}: the agent gave {mine[name]!r}, hookd {theirs[name]!r}")
    order = [line.split()[1] for line in (places["agent"] / "order.log").read_text().splitlines()
             if line.startswith("start ") and line.split()[1] in both]  # fmt: skip
    hookd_order = [h["command"].rsplit("/", 1)[-1].removesuffix(".sh") for h in hookd["hooks"]]
    hookd_order = [n for n in hookd_order if n in both]  # the agent's first firing only
    check("the order the hooks ran in", order[: len(hookd_order)], hookd_order)
    if case.differs:
        return problems
    action = expected_action(event, agent, case)
    if action is not None:
        check("action", action, hookd["action"])
    results = tool_results(agent)
    if event in ("preToolUse", "permissionRequest") and hookd["action"] in ("block", "ask"):
        check(
            "the tool result the model was sent", results[0] if results else None, hookd["reason"]
        )
    if event == "preToolUse":
        check("a rewrite ran", agent["rewritten"], "rewritten" in json.dumps(hookd["updatedInput"]))
        context = [
            m for m in user_messages(agent) if m.startswith("Additional context from preToolUse")
        ]
        check("context", context[0].split("\n", 1)[1] if context else None, hookd["context"])
    if event == "postToolUse" and results:
        base = "tool-said-this\n<shellId: 0 completed with exit code 0>"
        if hookd["updatedInput"] is not None:
            base = hookd["updatedInput"].get("textResultForLlm", base)
        expected = hookd["reason"] if hookd["blocked"] else base + (
            f'\n\nTool "bash" succeeded. Additional guidance from postToolUse hooks:\n{hookd["context"]}'
            if hookd["context"] else "")  # fmt: skip
        check("the tool result the model was sent", results[0], expected)
    if event == "postToolUseFailure":
        context = [
            m for m in user_messages(agent) if "Additional guidance from postToolUseFailure" in m
        ]
        check("context", context[0].split("\n", 1)[1] if context else None, hookd["context"])
    if event == "userPromptSubmitted":
        if hookd["blocked"]:
            check("the user was told", f"! {hookd['reason']}" in agent["stderr"], True)
        elif agent["requests"]:
            first = next((m["content"] for m in agent["requests"][0]["messages"]
                          if m.get("role") == "user"), "")  # fmt: skip
            reminder = re.search(r"\n\n<system_reminder>\n(.*)\n</system_reminder>$", first, re.S)
            check("context", reminder.group(1) if reminder else None, hookd["context"])
            if hookd["updatedInput"] is not None:
                check("the prompt", DATETIME.sub("", first), hookd["updatedInput"])
    if event == "sessionStart" and agent["requests"]:
        texts = [m["content"] for m in agent["requests"][0]["messages"] if m.get("role") == "user"]
        check("context", texts[0] if len(texts) > 1 else None, hookd["context"])
    if event == "agentStop" and hookd["blocked"]:
        check("the agent went on with", hookd["reason"] in user_messages(agent), True)
    for text in (hookd["systemMessage"] or "").splitlines():
        check(f"the user was shown {text!r}", f"! {text}" in agent["stderr"], True)
    return problems


# -- the tests -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def ahead(request: pytest.FixtureRequest, copilot_bin: str, netns: None,
          tmp_path_factory: pytest.TempPathFactory) -> Iterator[Ahead]:  # fmt: skip
    """The selected cases' agent runs, started ahead of their tests (``harness/ahead.py``)."""
    cases = selected_cases(request, "test_copilot_agent_and_hookd_agree")
    base = tmp_path_factory.mktemp("cases")
    runs = Ahead(trio_side(_agent_side, copilot_bin), cases, lambda c: base / c.id, jobs())
    yield runs
    runs.close()


async def _agent_side(copilot: str, case: Case, root: Path) -> dict[str, Any]:
    places = setup_case(case, root)
    return {"places": places, "agent": await run_agent(case, places, copilot)}


@pytest.mark.parametrize("case", case_params(CASES))
async def test_copilot_agent_and_hookd_agree(case: Case, ahead: Ahead, settings: Settings,
                                             copilot_bin: str) -> None:  # fmt: skip
    _root, running = ahead.take(case)
    side = await trio.to_thread.run_sync(running.result)
    places, agent = side["places"], side["agent"]
    assert_does(case, places, agent)
    hookd = await fire_hookd(case, places, settings, copilot_bin)
    problems = compare(case, places, agent, hookd)
    assert problems == [], "\n".join(problems) + "\nhookd: " + json.dumps(hookd)[:3000]
