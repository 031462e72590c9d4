"""Gemini CLI 0.61.0 itself against hookd: each case of ``cases.py`` runs in the real agent
(headless, ``gemini -p ... --yolo --output-format json``, in a loopback-only network
namespace, the model scripted by a fake Gemini API), is held to what Gemini was seen to do
(``Does``), and then runs through hookd with the payload the agent gave its hooks: what
the agent did must be what hookd's result says, each hook must get the same stdin bytes,
arguments, variables and working directory, run as often, and hooks that overlapped in
time in the agent overlap under hookd.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import trio

from agents.gemini.cases import CASES, NO_MATCHER, Case, Hook
from agents.harness.ahead import Ahead, jobs, selected_cases, trio_side
from agents.harness.recorded import (
    alive_children,
    first_stdin,
    hook_runs,
    hook_script,
    jsonl,
    most_at_once,
    ran_on_the_event,
    records,
    same_out,
)
from hookd.daemon.app import serve
from hookd.daemon.settings import Settings
from hookd_testing import RpcClient
from hookd_testing.cases import case_params

HARNESS = Path(__file__).parents[1] / "harness"
PORT = 18090
"""The fake model's port: free in every case, each agent run has its own network namespace."""
ENV_SEEN = "^(GEMINI_|CLAUDE_|CASE_)"
"""The variables a hook writes down (Gemini's own, the Claude-compatible one, the case's)."""
BASE_SETTINGS: dict[str, Any] = {
    "security": {"auth": {"selectedType": "gemini-api-key"}},
    "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False},
    "privacy": {"usageStatisticsEnabled": False},
}
"""The user's settings a headless run needs: an API key, no update check, no statistics."""
ESCAPES = {"<": "&lt;", ">": "&gt;"}


# -- the case's files ------------------------------------------------------------------


def _places(root: Path, case: Case) -> dict[str, Path]:
    names = ("home", "ws", "hooks", "agent", "hookd", "run", "tmp", "system")
    places = {n: root / n for n in names}
    for path in places.values():
        path.mkdir(parents=True)
    places["root"] = root
    places["harness"] = HARNESS
    places["gemini_home"] = Path(_fill(case.gemini_home, places)) if case.gemini_home else (
        places["home"])  # fmt: skip
    places["cwd"] = Path(_fill(case.cwd, places))
    places["cwd"].mkdir(parents=True, exist_ok=True)
    return places


def _fill(value: Any, places: dict[str, Path]) -> Any:
    """``value`` with ``{home}``, ``{ws}``, ``{hooks}``, ``{system}``... filled in, in every
    string."""
    if isinstance(value, str):
        for name in ("home", "ws", "hooks", "agent", "system", "tmp", "cwd", "harness"):
            if name in places:
                value = value.replace("{" + name + "}", str(places[name]))
        return value
    if isinstance(value, dict):
        return {k: _fill(v, places) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_fill(v, places) for v in value]
    return value


def _layer_file(layer: str, places: dict[str, Path]) -> Path:
    if layer.startswith("ext:"):
        return _extension(layer, places) / "hooks" / "hooks.json"
    etc = places["system"] / "etc" / "gemini-cli"
    return {
        "user": places["gemini_home"] / ".gemini" / "settings.json",
        "project": places["ws"] / ".gemini" / "settings.json",
        "system": etc / "settings.json",
        "system-defaults": etc / "system-defaults.json",
    }[layer]


def _extension(layer: str, places: dict[str, Path]) -> Path:
    """Where the case's extension is made; Gemini copies it into ``~/.gemini/extensions``
    when the driver installs it (``gemini extensions install``)."""
    return places["root"] / "extensions" / layer.partition(":")[2]


def _installs(case: Case, places: dict[str, Path]) -> list[list[str]]:
    """The ``gemini`` commands that install the case's extensions, then its own."""
    names = sorted({layer for hook in case.hooks for layer in hook.layers
                    if layer.startswith("ext:")})  # fmt: skip
    installs = [["extensions", "install", str(_extension(name, places)), "--consent"]
                for name in names]  # fmt: skip
    return installs + [list(command) for command in case.gemini_commands]


def _handler(hook: Hook, places: dict[str, Path], layer: str) -> dict[str, Any]:
    """The hook's handler as ``layer`` declares it: an extension names its own copy of the
    script by ``${extensionPath}`` (the copy Gemini installed)."""
    script = (f"${{extensionPath}}${{/}}hooks${{/}}{hook.name}.sh" if layer.startswith("ext:")
              else f"{places['hooks']}/{hook.name}.sh")  # fmt: skip
    handler: dict[str, Any] = {"type": "command",
                               "command": _fill(hook.command.replace("{script}", script), places)}  # fmt: skip
    handler.update(_fill(hook.fields, places))
    return handler


def _declared(case: Case, places: dict[str, Path]) -> dict[str, dict[str, list[dict[str, Any]]]]:
    """Each layer's hooks: event -> groups, one group per hook, in case order. The hooks'
    scripts are written on the way (an extension's into the extension)."""
    layers: dict[str, dict[str, list[dict[str, Any]]]] = {}
    for hook in case.hooks:
        folders = [places["hooks"]] + [_extension(layer, places) / "hooks"
                                       for layer in hook.layers if layer.startswith("ext:")]  # fmt: skip
        for folder in folders:
            folder.mkdir(parents=True, exist_ok=True)
            script = folder / f"{hook.name}.sh"
            script.write_text(_fill(hook_script(hook, ENV_SEEN), places))
            script.chmod(0o755)
        for layer in hook.layers:
            group: dict[str, Any] = {**hook.group, "hooks": [_handler(hook, places, layer)]}
            matcher = hook.matcher if hook.matcher is not None else case.matcher
            if matcher is not None and matcher != NO_MATCHER:
                group = {"matcher": matcher, **group}
            layers.setdefault(layer, {}).setdefault(hook.event or case.event, []).append(group)
    return layers


def _setup(case: Case, root: Path) -> dict[str, Path]:
    """The case's folders and files."""
    places = _places(root, case)
    layers = _declared(case, places)
    for layer in ("user", *case.settings):
        layers.setdefault(layer, {})
    for layer, events in layers.items():
        path = _layer_file(layer, places)
        path.parent.mkdir(parents=True, exist_ok=True)
        if layer.startswith("ext:"):
            manifest = {"name": layer.partition(":")[2], "version": "1.0.0"}
            (path.parent.parent / "gemini-extension.json").write_text(json.dumps(manifest))
            path.write_text(json.dumps({"hooks": events}))
            continue
        top = _fill(case.settings.get(layer, {}), places)
        base = {**BASE_SETTINGS, **top} if layer == "user" else top
        path.write_text(json.dumps({**base, "hooks": {**top.get("hooks", {}), **events}}))
    for where, text in case.files.items():
        path = Path(_fill(where, places))
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(_fill(text, places))
    return places


# -- the agent's side ------------------------------------------------------------------


def _turns(case: Case, places: dict[str, Path]) -> list[dict[str, Any]]:
    turns = case.turns or (
        {"call": {"name": "run_shell_command",
                  "args": {"command": case.tool_command, "description": "make the marker"}}},
        {"text": "All done."},
    )  # fmt: skip
    filled: list[dict[str, Any]] = _fill(list(turns), places)
    return filled


def agent_env(case: Case, places: dict[str, Path], out: str = "agent") -> dict[str, str]:
    """The agent's environment (hookd's fire is given the same, its hooks writing to
    ``out``)."""
    env = {"HOME": str(places["home"]), "TERM": "dumb", "LANG": "C.UTF-8",
           "TMPDIR": str(places["tmp"]), "GOOGLE_GEMINI_BASE_URL": f"http://127.0.0.1:{PORT}",
           "GEMINI_API_KEY": "fake", "GEMINI_CLI_TRUST_WORKSPACE": "true",
           "GEMINI_CLI_NO_RELAUNCH": "true", "HOOK_OUT": str(places[out]),
           **_fill(case.env, places)}  # fmt: skip
    if case.gemini_home:
        env["GEMINI_CLI_HOME"] = str(places["gemini_home"])
    return env


async def run_agent(
    case: Case, places: dict[str, Path], gemini: str, env: dict[str, str] | None = None
) -> dict[str, Any]:
    """Run the agent on the case in its own loopback-only network namespace; what it did."""
    from agents.harness.netns import netns_argv

    etc = places["system"] / "etc"
    run = {
        "node": "node", "gemini": gemini, "home": str(places["home"]), "cwd": str(places["cwd"]),
        "tmp": str(places["tmp"]), "port": PORT, "prompt": _fill(case.prompt, places),
        "turns": _turns(case, places), "env": {**agent_env(case, places), **(env or {})},
        "etc": str(etc) if etc.exists() else None, "timeout": case.timeout,
        "format": case.format, "before": _installs(case, places),
    }  # fmt: skip
    (places["run"] / "run.json").write_text(json.dumps(run))
    driver = [sys.executable, str(HARNESS / "drive_gemini.py"), str(places["run"])]
    if run["etc"]:  # the case's /etc/gemini-cli, shown in a mount namespace of the agent's own
        driver = ["unshare", "-m", "--propagation", "private", *driver]
    argv = netns_argv(driver)
    driven = await trio.run_process(argv, capture_stdout=True, capture_stderr=True, check=False)
    if driven.returncode != 0:
        pytest.fail("the Gemini driver failed (in the loopback-only namespace): "
                    + driven.stderr.decode(errors="replace")[-3000:], pytrace=False)  # fmt: skip
    return observe(places)


def observe(places: dict[str, Path]) -> dict[str, Any]:
    """What the agent did: its answer, its warnings, the model's requests, the marker files."""
    stdout = (places["run"] / "agent.stdout").read_text(errors="replace")
    try:
        answer = json.loads(stdout) if stdout.strip() else None
    except ValueError:
        answer = None
    return {
        "ran": (places["ws"] / "ran").exists(),
        "rewritten": (places["ws"] / "rewritten").exists(),
        "requests": jsonl(places["run"] / "requests.jsonl"),
        "stdout": stdout,
        "answer": answer if isinstance(answer, dict) else None,
        "stderr": (places["run"] / "agent.stderr").read_text(errors="replace"),
        "observation": json.loads((places["run"] / "observation.json").read_text()),
    }


def function_responses(requests: list[dict[str, Any]]) -> list[Any]:
    """Each tool result the model was sent (in the last request: the whole conversation)."""
    if not requests:
        return []
    return [part["functionResponse"].get("response")
            for content in requests[-1]["body"].get("contents", [])
            for part in content.get("parts", []) if "functionResponse" in part]  # fmt: skip


def user_texts(request: dict[str, Any]) -> list[list[str]]:
    """The text parts of each user content of a request, in order."""
    return [[part["text"] for part in content.get("parts", []) if "text" in part]
            for content in request["body"].get("contents", [])
            if content.get("role") == "user"]  # fmt: skip


def warnings_of(agent: dict[str, Any]) -> list[str]:
    answer = agent["answer"] or {}
    return list(answer.get("warnings", []))


def escaped(text: str) -> str:
    """A context as Gemini puts it in ``<hook_context>``: ``<`` and ``>`` escaped."""
    return text.replace("<", ESCAPES["<"]).replace(">", ESCAPES[">"])


def assert_does(case: Case, places: dict[str, Path], agent: dict[str, Any]) -> None:
    """The agent did what ``case.does`` says Gemini 0.61.0 does."""
    does = case.does
    problems: list[str] = []

    def check(what: str, seen: Any, expected: Any) -> None:
        if seen != expected:
            problems.append(f"{what}: Gemini did {seen!r}, the case says {expected!r}")

    check("exit code", agent["observation"]["exit"], does.exit)
    check("tool ran", agent["ran"], does.ran)
    check("rewritten ran", agent["rewritten"], does.rewritten)
    check("model requests", len(agent["requests"]), does.requests)
    if does.response is not None:
        check("response", (agent["answer"] or {}).get("response"), _fill(does.response, places))
    check("warnings", warnings_of(agent), _fill(list(does.warnings), places))
    if does.output is not None:
        outputs = function_responses(agent["requests"])
        check("tool result", outputs[0] if outputs else None, _fill(does.output, places))
    if does.prompt is not None:
        texts = user_texts(agent["requests"][0]) if agent["requests"] else []
        check(
            "the prompt's parts", texts[-1][1:] if texts else None, _fill(list(does.prompt), places)
        )
    if does.later is not None:
        texts = user_texts(agent["requests"][-1]) if agent["requests"] else []
        check("the last user turn", texts[-1] if texts else None, _fill(list(does.later), places))
    if does.path is not None:
        check("request path", agent["requests"][-1]["path"] if agent["requests"] else None,
              does.path)  # fmt: skip
    if does.tool_config is not None:
        first = agent["requests"][0]["body"] if agent["requests"] else {}
        check("tool config", first.get("toolConfig"), does.tool_config)
    for text in _fill(list(does.stderr), places):
        check(f"stderr has {text!r}", text in agent["stderr"], True)
    for text in does.not_stderr:
        check(f"stderr lacks {text!r}", text in agent["stderr"], False)
    counts = {hook.name: does.counts.get(hook.name, 1) for hook in case.hooks}
    counts.update(does.counts)
    seen_counts = hook_runs(places["agent"])
    check("hook runs", {name: seen_counts.get(name, 0) for name in counts}, counts)
    finished = {path.name.partition(".done.")[0] for path in places["agent"].glob("*.done.0")}
    check("hooks that never finished", sorted(set(seen_counts) - finished), sorted(does.killed))
    left = alive_children(places["agent"])
    _end(places["agent"], left)
    check("children left running", left, sorted(does.left_running))
    assert problems == [], "\n".join(problems)


def _end(folder: Path, children: list[str]) -> None:
    """Kill what the agent's hooks left running (their ``<hook>.child.<n>`` pids)."""
    for name in children:
        with contextlib.suppress(ProcessLookupError, ValueError):
            os.kill(int((folder / name).read_text()), signal.SIGKILL)


# -- hookd's side ----------------------------------------------------------------------


async def fire_hookd(case: Case, places: dict[str, Path], settings: Settings) -> dict[str, Any]:
    raw = first_stdin(case, places["agent"])
    assert raw is not None, "no hook of the case's event ran in the agent: no payload for hookd"
    env = {"PATH": os.environ["PATH"], **agent_env(case, places, "hookd")}
    async with trio.open_nursery() as nursery:
        await nursery.start(serve, replace(settings, home=str(places["home"]),
                                           system_root=str(places["system"])))  # fmt: skip
        rpc = await RpcClient.connect(settings.socket_path)
        try:
            result: dict[str, Any] = await rpc.fire(
                "gemini", case.event, [str(places["cwd"])], json.loads(raw), env=env
            )
        finally:
            await rpc.call("shutdown")
            await rpc.aclose()
    return result


def _fire_runs(case: Case, folder: Path) -> dict[str, int]:
    """How often each hook ran with the payload hookd was fired with (the agent fires most
    events again: another model turn, the tail of a tool call)."""
    payload = first_stdin(case, folder)
    chained = any(hook.group.get("sequential") for hook in case.hooks)
    counts: dict[str, int] = {}
    for path in folder.glob("*.stdin.*"):
        name = path.name.partition(".stdin.")[0]
        first = (
            path.name.endswith(".stdin.0") and (_hook(case, name).event or case.event) == case.event
        )
        if path.read_bytes() == payload or (chained and first):
            counts[name] = counts.get(name, 0) + 1
    return counts


def _hook(case: Case, name: str) -> Hook:
    return next((h for h in case.hooks if h.name == name), Hook(name))


def _hook_name(command: str) -> str:
    found = re.search(r"hooks(?:/|\$\{/\})([\w-]+)\.sh", command or "")
    return found.group(1) if found else command


VALIDATION = "Tool parameter modification by hook failed validation"


def _modified(agent: dict[str, Any]) -> bool:
    """A hook's rewrite reached the tool: it ran, or failed Gemini's validation of it."""
    outputs = function_responses(agent["requests"])
    failed = bool(outputs) and str((outputs[0] or {}).get("error", "")).startswith(VALIDATION)
    return agent["rewritten"] or failed


def expected_action(case: Case, places: dict[str, Path], agent: dict[str, Any]) -> str:
    """What Gemini did next, in the fire result's words (``action``)."""
    event, stderr, warnings = case.event, agent["stderr"], warnings_of(agent)
    stopped = "Agent execution stopped" in stderr or any(
        w.startswith("Agent execution stopped") for w in warnings)  # fmt: skip
    blocked = any(w.startswith("Agent execution blocked") for w in warnings)
    if event == "BeforeTool":
        if stopped:
            return "stop"
        if not agent["stdout"].strip():
            return "ask"  # headless: the confirmation ends the process, nothing printed
        outputs = function_responses(agent["requests"])
        error = str((outputs[0] or {}).get("error", "")) if outputs else ""
        return "block" if error.startswith("Tool execution blocked: ") else "proceed"
    if event == "AfterTool":
        outputs = function_responses(agent["requests"])
        payload = json.loads(first_stdin(case, places["agent"]) or b"{}")
        tool_failed = "error" in payload.get("tool_response", {})
        if stopped:
            return "stop"
        replaced = bool(outputs) and set(outputs[0] or {}) == {"error"} and not tool_failed
        return "block" if replaced else "proceed"
    if event == "BeforeAgent":
        return "stop" if not agent["requests"] else "proceed"
    if event == "AfterAgent":
        return "stop" if stopped else ("block" if blocked else "proceed")
    if event in ("BeforeModel", "AfterModel"):
        return "stop" if stopped else ("block" if blocked else "proceed")
    return "proceed"


def compare(case: Case, places: dict[str, Path], agent: dict[str, Any],
            hookd: dict[str, Any]) -> list[str]:  # fmt: skip
    """Where hookd's result disagrees with what the agent did (empty: they agree)."""
    problems: list[str] = []

    def check(what: str, agent_did: Any, hookd_says: Any) -> None:
        if agent_did != hookd_says:
            problems.append(f"{what}: the agent {agent_did!r}, hookd {hookd_says!r}")

    names = ran_on_the_event(case, places["agent"])
    counts = _fire_runs(case, places["agent"])
    if case.differs:  # hookd runs other hooks than Gemini, by design (the case says which)
        counts = {n: c for n, c in counts.items() if n not in case.hookd_not}
        counts.update(dict.fromkeys(case.hookd_also, 1))
        names = (names - set(case.hookd_not)) | set(case.hookd_also)
    check("hooks that ran (how often)", counts, _fire_runs(case, places["hookd"]))
    if case.differs:
        if case.hookd_blocks:
            check("hookd blocks (never ran)", True, hookd["blocked"])
        names -= set(case.hookd_also)
    mine, theirs = records(places["agent"], names), records(places["hookd"], names)
    for name in sorted(set(mine) | set(theirs)):
        a, b = same_out(name, mine, places["agent"], theirs, places["hookd"])
        if a != b:
            problems.append(f"{name}: the agent gave {a!r}, hookd {b!r}")
    if case.differs:
        return problems
    killed = {n for n in names if not (places["agent"] / f"{n}.done.0").exists()}
    timed_out = {_hook_name(h["command"]) for h in hookd["hooks"] if h["timedOut"]}
    check("hooks killed at their timeout", sorted(killed), sorted(timed_out))
    check("children left running", alive_children(places["hookd"]), [])
    if len(names) > 1 and all(h.sleep for h in case.hooks if h.name in names):
        check("most hooks at once", most_at_once(places["agent"] / "order.log"),
              most_at_once(places["hookd"] / "order.log"))  # fmt: skip
    if any(hook.group.get("sequential") for hook in case.hooks):
        check("hooks in order", _start_order(places["agent"] / "order.log", names),
              [_hook_name(h["command"]) for h in hookd["hooks"]])  # fmt: skip
    check("action", expected_action(case, places, agent), hookd["action"])
    problems += _compare_effects(case, agent, hookd)
    return problems


def _start_order(log: Path, names: set[str]) -> list[str]:
    """The hooks of ``names`` in the order they first started (``order.log``)."""
    order: list[str] = []
    for line in log.read_text().splitlines() if log.exists() else []:
        name = line.partition(" ")[2]
        if line.startswith("start ") and name in names and name not in order:
            order.append(name)
    return order


def _compare_effects(case: Case, agent: dict[str, Any], hookd: dict[str, Any]) -> list[str]:
    """What the model and the user saw, against what hookd's result says they get."""
    problems: list[str] = []

    def check(what: str, agent_did: Any, hookd_says: Any) -> None:
        if agent_did != hookd_says:
            problems.append(f"{what}: the agent {agent_did!r}, hookd {hookd_says!r}")

    event, reason, context = case.event, hookd["reason"], hookd["context"]
    requests, warnings = agent["requests"], warnings_of(agent)
    outputs = function_responses(requests)
    native = hookd["native"]
    specific = native.get("hookSpecificOutput") or {}
    if event == "BeforeTool":
        check("a rewrite reached the tool", _modified(agent), hookd["updatedInput"] is not None)
        if hookd["action"] == "block" and outputs:
            check("the model was sent", outputs[0], {"error": f"Tool execution blocked: {reason}"})
        if hookd["action"] == "stop":
            check("the stop", f"Agent execution stopped by hook: {hookd['stopReason']}"
                  in agent["stderr"], True)  # fmt: skip
    if event == "AfterTool" and outputs:
        if hookd["action"] == "block":
            check("the model was sent", outputs[0], {"error": reason})
        elif context is not None:
            tail = f"\n\n<hook_context>{escaped(context)}</hook_context>"
            check("the tool result ends with the context",
                  str((outputs[0] or {}).get("output", "")).endswith(tail), True)  # fmt: skip
    if event == "BeforeAgent" and requests and context is not None:
        check("the prompt's context part", user_texts(requests[0])[-1][-1],
              f"<hook_context>{escaped(context)}</hook_context>")  # fmt: skip
    if event == "BeforeAgent" and hookd["blocked"]:
        shown = (hookd["systemMessage"] or "").strip() or reason
        check("the warning", warnings, [f"Agent execution blocked: {shown}"])
    if event == "AfterAgent" and hookd["action"] == "block" and len(requests) > 1:
        check("the model was sent again", user_texts(requests[1])[-1], [reason])
    if event == "SessionStart" and requests and context is not None:
        first = user_texts(requests[0])[-1][-1]
        check("the prompt starts with the context",
              first.startswith(f"<hook_context>{escaped(context)}</hook_context>\n\n"), True)  # fmt: skip
    if event == "BeforeToolSelection" and requests and "toolConfig" in specific:
        check("the tool config", requests[0]["body"].get("toolConfig"),
              {"functionCallingConfig": specific["toolConfig"]})  # fmt: skip
    if event in ("BeforeModel", "AfterModel") and hookd["blocked"] and hookd["continue"]:
        check("the warning", [w for w in warnings if w.startswith("Agent execution blocked")],
              [f"Agent execution blocked: {reason}"])  # fmt: skip
    message = hookd["systemMessage"]
    if message and not native.get("suppressOutput"):
        check("the user was shown", f"Hook system message: {message}" in agent["stderr"], True)
    if message is None and case.quiet:
        check("the user was shown nothing", "Hook system message:" in agent["stderr"], False)
    return problems


# -- the tests -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def ahead(
    request: pytest.FixtureRequest,
    gemini_bin: str,
    netns: None,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[Ahead]:
    """The selected cases' agent runs, started ahead of their tests (``harness/ahead.py``)."""
    cases = selected_cases(request, "test_gemini_agent_and_hookd_agree")
    base = tmp_path_factory.mktemp("cases")
    runs = Ahead(trio_side(_agent_side, gemini_bin), cases, lambda c: base / c.id, jobs())
    yield runs
    runs.close()


async def _agent_side(gemini: str, case: Case, root: Path) -> dict[str, Any]:
    places = _setup(case, root)
    return {"places": places, "agent": await run_agent(case, places, gemini)}


@pytest.mark.parametrize("case", case_params(CASES))
async def test_gemini_agent_and_hookd_agree(case: Case, ahead: Ahead, settings: Settings) -> None:
    _root, running = ahead.take(case)
    side = await trio.to_thread.run_sync(running.result)
    places, agent = side["places"], side["agent"]
    assert_does(case, places, agent)
    hookd = await fire_hookd(case, places, settings)
    problems = compare(case, places, agent, hookd)
    assert problems == [], "\n".join(problems) + "\nhookd: " + json.dumps(hookd)[:3000]
