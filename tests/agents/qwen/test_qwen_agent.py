"""Qwen Code 0.24.4 itself against hookd: each case of ``cases.py`` runs in the real agent
(headless, ``qwen -p ... --yolo --output-format json``, in a loopback-only network
namespace, the model scripted by a fake chat-completions API), is held to what Qwen was
seen to do (``Does``), and then runs through hookd with the payload the agent gave its
hooks: what the agent did must be what hookd's result says, each hook must get the same
stdin bytes, arguments, variables and working directory, run as often, and hooks that
overlapped in time in the agent overlap under hookd (or ran in the same order).
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
from agents.qwen.cases import CASES, NO_MATCHER, Case, Hook
from hookd.daemon.app import serve
from hookd.daemon.settings import Settings
from hookd_testing import RpcClient
from hookd_testing.cases import case_params

HARNESS = Path(__file__).parents[1] / "harness"
ENV_SEEN = ("^(QWEN_PROJECT_DIR|CLAUDE_PROJECT_DIR|GEMINI_PROJECT_DIR|QWEN_CODE_SESSION_ID|"
            "QWEN_CODE_PROJECT_DIR|QWEN_CODE_AGENT_ID|QWEN_CODE_PROMPT_ID|CASE_)")  # fmt: skip
"""The variables a hook writes down (Qwen's own, the Claude and Gemini ones, the case's)."""
BASE_SETTINGS: dict[str, Any] = {
    "privacy": {"usageStatisticsEnabled": False},
    "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False},
    "telemetry": {"enabled": False},
    "memory": {"enableManagedAutoMemory": False, "enableManagedAutoDream": False},
}
"""The user's settings a headless run needs: no update check, no statistics, no background
memory agent (it would ask the model too)."""


def qwen_env(places: dict[str, Path], out: str) -> dict[str, str]:
    """What the agent's environment holds besides the case's (hookd's fire gets it too)."""
    return {"HOME": str(places["home"]), "TERM": "dumb", "LANG": "C.UTF-8",
            "TMPDIR": str(places["tmp"]), "OPENAI_API_KEY": "fake", "OPENAI_MODEL": "fake",
            "DISABLE_TELEMETRY": "1", "DO_NOT_TRACK": "1",
            "QWEN_USAGE_STATISTICS_ENABLED": "false", "QWEN_DISABLE_AUTO_TITLE": "1",
            "QWEN_CODE_NO_RELAUNCH": "true", "QWEN_CODE_SUPPRESS_YOLO_WARNING": "1",
            "HOOK_OUT": str(places[out])}  # fmt: skip


# -- the case's files ------------------------------------------------------------------


def make_places(root: Path, case: Case) -> dict[str, Path]:
    names = ("home", "ws", "hooks", "agent", "hookd", "run", "tmp", "system")
    places = {n: root / n for n in names}
    for path in places.values():
        path.mkdir(parents=True)
    places["root"] = root
    places["cwd"] = Path(fill(case.cwd, places))
    places["cwd"].mkdir(parents=True, exist_ok=True)
    return places


def fill(value: Any, places: dict[str, Path]) -> Any:
    """``value`` with ``{home}``, ``{ws}``, ``{hooks}``, ``{system}``... filled in."""
    if isinstance(value, str):
        for name in ("home", "ws", "hooks", "agent", "system", "tmp", "cwd"):
            if name in places:
                value = value.replace("{" + name + "}", str(places[name]))
        return value
    if isinstance(value, dict):
        return {fill(k, places): fill(v, places) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [fill(v, places) for v in value]
    return value


def layer_file(layer: str, places: dict[str, Path]) -> Path:
    return {
        "user": places["home"] / ".qwen" / "settings.json",
        "project": places["ws"] / ".qwen" / "settings.json",
        "system": places["system"] / "etc" / "qwen-code" / "settings.json",
        "system-defaults": places["system"] / "etc" / "qwen-code" / "system-defaults.json",
    }[layer]


def declared(case: Case, places: dict[str, Path]) -> dict[str, dict[str, list[dict[str, Any]]]]:
    """Each layer's hooks: event -> groups, one group per hook, in case order; the hooks'
    scripts are written on the way."""
    layers: dict[str, dict[str, list[dict[str, Any]]]] = {}
    for hook in case.hooks:
        script = places["hooks"] / f"{hook.name}.sh"
        script.write_text(fill(hook_script(hook, ENV_SEEN), places))
        script.chmod(0o755)
        handler: dict[str, Any] = {"type": "command",
                                   "command": fill(hook.command.replace("{script}", str(script)),
                                                   places)}  # fmt: skip
        handler.update(fill(hook.fields, places))
        for layer in hook.layers:
            group: dict[str, Any] = {**hook.group, "hooks": [handler]}
            matcher = hook.matcher if hook.matcher is not None else case.matcher
            if matcher is not None and matcher != NO_MATCHER:
                group = {"matcher": matcher, **group}
            layers.setdefault(layer, {}).setdefault(hook.event or case.event, []).append(group)
    return layers


def setup_case(case: Case, root: Path) -> dict[str, Path]:
    """The case's folders and files."""
    places = make_places(root, case)
    layers = declared(case, places)
    for layer in ("user", *case.settings):
        layers.setdefault(layer, {})
    for layer, events in layers.items():
        path = layer_file(layer, places)
        path.parent.mkdir(parents=True, exist_ok=True)
        top = fill(case.settings.get(layer, {}), places)
        base = {**BASE_SETTINGS, **top} if layer == "user" else top
        if case.raw.get(layer) is not None:
            path.write_text(fill(case.raw[layer], places))
            continue
        path.write_text(json.dumps({**base, "hooks": {**top.get("hooks", {}), **events}}))
    for where, text in case.files.items():
        path = Path(fill(where, places))
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(fill(text, places))
    return places


# -- the agent's side ------------------------------------------------------------------


def turns_of(case: Case, places: dict[str, Path]) -> list[dict[str, Any]]:
    turns = case.turns or (
        {"tool": "run_shell_command",
         "args": {"command": case.tool_command, "description": "make the marker"}},
        {"text": "All done."},
    )  # fmt: skip
    filled: list[dict[str, Any]] = fill(list(turns), places)
    return filled


def agent_env(case: Case, places: dict[str, Path], out: str = "agent") -> dict[str, str]:
    env = qwen_env(places, out)
    env.update(fill(case.env, places))
    system = layer_file("system", places)
    if system.parent.exists():  # where hookd reads it: /etc/qwen-code under its system root
        env["QWEN_CODE_SYSTEM_SETTINGS_PATH"] = str(system)
    return env


async def run_agent(
    case: Case, places: dict[str, Path], qwen: str, env: dict[str, str] | None = None
) -> dict[str, Any]:
    """Run the agent on the case in its own loopback-only network namespace; what it did."""
    from agents.harness.netns import netns_argv

    run = {
        "qwen": qwen, "cwd": str(places["cwd"]),
        "prompt": fill(case.prompt, places).replace("{id}", case.id),
        "turns": {case.id: turns_of(case, places)},
        "env": {**agent_env(case, places), **(env or {})}, "timeout": case.timeout,
        "format": case.format,
    }  # fmt: skip
    (places["run"] / "run.json").write_text(json.dumps(run))
    driver = [sys.executable, str(HARNESS / "drive_qwen.py"), str(places["run"])]
    driven = await trio.run_process(netns_argv(driver), capture_stdout=True,
                                    capture_stderr=True, check=False)  # fmt: skip
    if driven.returncode != 0:
        pytest.fail("the Qwen driver failed (in the loopback-only namespace): "
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
        "requests": [r for r in jsonl(places["run"] / "requests.jsonl") if r.get("tools")],
        "stdout": stdout,
        "answer": answer if isinstance(answer, list) else None,
        "stderr": (places["run"] / "agent.stderr").read_text(errors="replace"),
        "observation": json.loads((places["run"] / "observation.json").read_text()),
    }


def text_of(content: Any) -> str:
    """A chat message's content as one text (a string, or its text parts joined)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(p.get("text", "") for p in content if isinstance(p, dict))
    return ""


def tool_results(agent: dict[str, Any]) -> list[str]:
    """Each tool result the model was sent (in the last request: the whole conversation)."""
    if not agent["requests"]:
        return []
    return [text_of(m.get("content")) for m in agent["requests"][-1]["messages"]
            if m.get("role") == "tool"]  # fmt: skip


def user_parts(request: dict[str, Any]) -> list[list[str]]:
    """The text parts of each user message of a request, in order."""
    found = []
    for message in request["messages"]:
        if message.get("role") != "user":
            continue
        content = message.get("content")
        parts = [content] if isinstance(content, str) else [
            p.get("text", "") for p in content or [] if isinstance(p, dict)]  # fmt: skip
        found.append(parts)
    return found


def system_prompt(request: dict[str, Any]) -> str:
    return next((text_of(m.get("content")) for m in request["messages"]
                 if m.get("role") == "system"), "")  # fmt: skip


def result_of(agent: dict[str, Any]) -> dict[str, Any]:
    return next((m for m in agent["answer"] or [] if m.get("type") == "result"), {})


def assert_does(case: Case, places: dict[str, Path], agent: dict[str, Any]) -> None:
    """The agent did what ``case.does`` says Qwen 0.24.4 does."""
    does = case.does
    problems: list[str] = []

    def check(what: str, seen: Any, expected: Any) -> None:
        if seen != expected:
            problems.append(f"{what}: Qwen did {seen!r}, the case says {expected!r}")

    check("exit code", agent["observation"]["exit"], does.exit)
    check("tool ran", agent["ran"], does.ran)
    check("model requests", len(agent["requests"]), does.requests)
    if does.tool_result is not None:
        results = tool_results(agent)
        check("tool result", results[0] if results else None, fill(does.tool_result, places))
    if does.later is not None:
        parts = user_parts(agent["requests"][-1]) if agent["requests"] else []
        check("the last user message", parts[-1] if parts else None, list(does.later))
    for text in fill(list(does.stderr), places):
        check(f"stderr has {text!r}", text in agent["stderr"], True)
    if does.result is not None:
        check("the result", result_of(agent).get("result"), does.result)
    counts = {hook.name: does.counts.get(hook.name, 1) for hook in case.hooks}
    counts.update(does.counts)
    seen_counts = hook_runs(places["agent"])
    check("hook runs", {name: seen_counts.get(name, 0) for name in counts}, counts)
    finished = {path.name.partition(".done.")[0] for path in places["agent"].glob("*.done.0")}
    check("hooks that never finished", sorted(set(seen_counts) - finished), sorted(does.killed))
    assert problems == [], "\n".join(problems)


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
                "qwen", case.event, [str(places["cwd"])], json.loads(raw), env=env
            )
        finally:
            await rpc.call("shutdown")
            await rpc.aclose()
    return result


def fire_runs(case: Case, folder: Path) -> dict[str, int]:
    """How often each hook ran with the payload hookd was fired with (the agent fires some
    events again: UserPromptSubmit on the tool-result turn, Stop after a continuation)."""
    payload = first_stdin(case, folder)
    chained = any(hook.group.get("sequential") for hook in case.hooks)
    counts: dict[str, int] = {}
    for path in folder.glob("*.stdin.*"):
        name = path.name.partition(".stdin.")[0]
        hook = next((h for h in case.hooks if h.name == name), Hook(name))
        first = path.name.endswith(".stdin.0") and (hook.event or case.event) == case.event
        if path.read_bytes() == payload or (chained and first):
            counts[name] = counts.get(name, 0) + 1
    return counts


def hook_name(command: str) -> str:
    found = re.search(r"hooks/([\w-]+)\.sh", command or "")
    return found.group(1) if found else command


def expected_action(case: Case, agent: dict[str, Any]) -> str:
    """What Qwen did next, in the fire result's words (``action``)."""
    if case.does.action is not None:
        return case.does.action
    if case.event == "PreToolUse":
        return "proceed" if agent["ran"] else "block"
    if case.event == "UserPromptSubmit":
        return "stop" if not agent["requests"] else "proceed"
    return "proceed"


def start_order(log: Path, names: set[str]) -> list[str]:
    order: list[str] = []
    for line in log.read_text().splitlines() if log.exists() else []:
        name = line.partition(" ")[2]
        if line.startswith("start ") and name in names and name not in order:
            order.append(name)
    return order


def compare(case: Case, places: dict[str, Path], agent: dict[str, Any],
            hookd: dict[str, Any]) -> list[str]:  # fmt: skip
    """Where hookd's result disagrees with what the agent did (empty: they agree)."""
    problems: list[str] = []

    def check(what: str, agent_did: Any, hookd_says: Any) -> None:
        if agent_did != hookd_says:
            problems.append(f"{what}: the agent {agent_did!r}, hookd {hookd_says!r}")

    names = ran_on_the_event(case, places["agent"])
    check("hooks that ran (how often)", fire_runs(case, places["agent"]),
          fire_runs(case, places["hookd"]))  # fmt: skip
    mine, theirs = records(places["agent"], names), records(places["hookd"], names)
    for name in sorted(set(mine) | set(theirs)):
        a, b = same_out(name, mine, places["agent"], theirs, places["hookd"])
        if a != b:
            problems.append(f"{name}: the agent gave {a!r}, hookd {b!r}")
    killed = {n for n in names if not (places["agent"] / f"{n}.done.0").exists()}
    timed_out = {hook_name(h["command"]) for h in hookd["hooks"] if h["timedOut"]}
    check("hooks killed at their timeout", sorted(killed), sorted(timed_out))
    check("children left running", alive_children(places["hookd"]), [])
    if len(names) > 1 and all(h.sleep for h in case.hooks if h.name in names):
        check("most hooks at once", most_at_once(places["agent"] / "order.log"),
              most_at_once(places["hookd"] / "order.log"))  # fmt: skip
    if len(names) > 1 and any(hook.group.get("sequential") for hook in case.hooks):
        check("hooks in order", start_order(places["agent"] / "order.log", names),
              [hook_name(h["command"]) for h in hookd["hooks"]])  # fmt: skip
    check("action", expected_action(case, agent), hookd["action"])
    problems += compare_effects(case, agent, hookd)
    return problems


def compare_effects(case: Case, agent: dict[str, Any], hookd: dict[str, Any]) -> list[str]:
    """What the model saw, against what hookd's result says it gets."""
    problems: list[str] = []

    def check(what: str, agent_did: Any, hookd_says: Any) -> None:
        if agent_did != hookd_says:
            problems.append(f"{what}: the agent {agent_did!r}, hookd {hookd_says!r}")

    event, action, context = case.event, hookd["action"], hookd["context"]
    requests, results = agent["requests"], tool_results(agent)
    if event == "PreToolUse" and action in ("block", "ask") and results:
        said = hookd["stopReason"] if not hookd["continue"] else hookd["reason"]
        check("the model was sent", results[0], said)
    if event in ("PostToolUse", "PostToolUseFailure", "PostToolBatch") and results:
        if action == "block":
            check("the model was sent", results[0], hookd["stopReason"] or hookd["reason"])
        elif context is not None:
            check("the tool result ends with the context",
                  results[0].endswith("\n\n" + escaped(context)), True)  # fmt: skip
    if event == "UserPromptSubmit" and requests and context is not None:
        tag = (f"<qwen:user-prompt-submit-context>\n{escaped(context)}\n"
               "</qwen:user-prompt-submit-context>")  # fmt: skip
        check("the prompt's context part", user_parts(requests[0])[-1][-1], tag)
    if event == "SessionStart" and requests and context is not None:
        suffix = (f"<qwen:session-start-context hidden=\"true\">\nSessionStart additional "
                  f"context:\n{escaped(context.strip())}\n</qwen:session-start-context>")  # fmt: skip
        check("the system prompt ends with the context",
              system_prompt(requests[0]).endswith(suffix), True)  # fmt: skip
    if event == "Stop" and action == "block" and len(requests) > case.does.requests_before_stop:
        said = hookd["stopReason"] or hookd["reason"]
        check("the model was sent again", user_parts(requests[case.does.requests_before_stop])[-1],
              [said])  # fmt: skip
    return problems


def escaped(text: str) -> str:
    return text.replace("<", "&lt;").replace(">", "&gt;")


# -- the tests -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def ahead(
    request: pytest.FixtureRequest,
    qwen_bin: str,
    netns: None,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[Ahead]:
    """The selected cases' agent runs, started ahead of their tests (``harness/ahead.py``)."""
    cases = selected_cases(request, "test_qwen_agent_and_hookd_agree")
    base = tmp_path_factory.mktemp("cases")
    runs = Ahead(trio_side(_agent_side, qwen_bin), cases, lambda c: base / c.id, jobs())
    yield runs
    runs.close()


async def _agent_side(qwen: str, case: Case, root: Path) -> dict[str, Any]:
    places = setup_case(case, root)
    return {"places": places, "agent": await run_agent(case, places, qwen)}


@pytest.mark.parametrize("case", case_params(CASES))
async def test_qwen_agent_and_hookd_agree(case: Case, ahead: Ahead, settings: Settings) -> None:
    _root, running = ahead.take(case)
    side = await trio.to_thread.run_sync(running.result)
    places, agent = side["places"], side["agent"]
    assert_does(case, places, agent)
    hookd = await fire_hookd(case, places, settings)
    problems = compare(case, places, agent, hookd)
    assert problems == [], "\n".join(problems) + "\nhookd: " + json.dumps(hookd)[:3000]
