"""Claude Code 2.1.328 itself against hookd: each case of ``cases.py`` runs in the real
agent (in a loopback-only network namespace, the model scripted by a fake Messages API)
and then through hookd with the payload the agent gave its hooks; what the agent did
must be what hookd's result says, and each hook must get the same stdin bytes."""

from __future__ import annotations

import json
import os
import socket
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

import pytest
import trio

from agents.claude.cases import CASES, Case, Hook
from agents.harness.ahead import Ahead, jobs, selected_cases
from hookd.daemon.app import serve
from hookd.daemon.settings import Settings
from hookd_testing import RpcClient
from hookd_testing.cases import case_params

HARNESS = Path(__file__).parents[1] / "harness"


def _script(hook_out_var: str, name: str, hook: Any) -> str:
    """The hook: it records what it was given (stdin, the ``CLAUDE_PLUGIN_*``
    environment, argv) under a run number taken with an atomic ``mkdir`` (copies of one
    script may run at once), then answers as the case says (its ``first_line`` before its
    ``sleep``), and marks that it answered (``<hook>.done.<run>``); later runs answer
    nothing."""
    out = f'"${hook_out_var}/{name}'
    seen = "|".join(("CLAUDE_PLUGIN", *(f"{var}=" for var in hook.env_seen)))
    return (
        "#!/bin/sh\n"
        f'n=0; until mkdir {out}.run.$n" 2>/dev/null; do n=$((n+1)); done\n'
        f'env | grep -E "^({seen})" | sort > {out}.env.$n"\n'
        f'printf "%s\\n" "$@" > {out}.args.$n"\n'
        f'cat > {out}.stdin.$n"\n'
        '[ "$n" -gt 0 ] && exit 0\n'  # only the first run answers: no endless Stop loops
        + (f"printf '%s\\n' {_sh(hook.first_line)}\n" if hook.first_line else "")
        + (f"sleep {hook.sleep}\n" if hook.sleep else "")
        + f"printf '%s' {_sh(hook.stdout)}\n"
        f"printf '%s' {_sh(hook.stderr)} >&2\n"
        f': > {out}.done.$n"\n'
        f"exit {hook.exit}\n"
    )


def _sh(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


class HttpEndpoint:
    """Where a case's http hooks post: a socket listening on the host's loopback for
    hookd's side, whose port the agent's side binds in its own namespace (free there),
    and a bound socket that never listens, whose port refuses connections on both sides.
    Each side runs ``harness/http_hooks.py`` with the hooks' answers."""

    def __init__(self) -> None:
        self.listening = socket.create_server(("127.0.0.1", 0))
        self.refusing = socket.socket()
        self.refusing.bind(("127.0.0.1", 0))

    def url(self, hook: Hook) -> str:
        refused = bool((hook.http or {}).get("refused"))
        port = (self.refusing if refused else self.listening).getsockname()[1]
        return f"http://127.0.0.1:{port}/{hook.name}"

    def config(self, case: Case, out: Path, where: dict[str, int]) -> dict[str, Any]:
        answers = {hook.name: hook.http for hook in case.hooks if hook.http is not None}
        return {"out": str(out), "answers": answers, **where}

    def close(self) -> None:
        self.listening.close()
        self.refusing.close()


def _setup(case: Case, root: Path, endpoint: HttpEndpoint | None = None) -> dict[str, Path]:
    names = ("home", "ws", "hooks", "agent", "hookd", "run", "market")
    places = {n: root / n for n in names}
    for path in places.values():
        path.mkdir(parents=True)
    files: dict[str, list[dict[str, Any]]] = {}
    for hook in case.hooks:
        if hook.http is not None:
            assert endpoint is not None, f"{case.id}: an http hook needs the case's endpoint"
            handler = {"type": "http", "url": endpoint.url(hook), **hook.fields}
            group = _matched(case, hook, {"hooks": [handler]})
            for layer in hook.layers:
                files.setdefault(layer, []).append(group)
            continue
        script = _write_script(places["hooks"] / f"{hook.name}.sh", hook, places)
        for layer in hook.layers:
            files.setdefault(layer, []).append(_group(case, hook, str(script), places))
    _write_marketplace(case, places)
    for where, text in case.files.items():
        path = Path(_fill(where, _places(places)))
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(_fill(text, _places(places)))
    paths = {
        "user": places["home"] / ".claude" / "settings.json",
        "project": places["ws"] / ".claude" / "settings.json",
        "local": places["ws"] / ".claude" / "settings.local.json",
    }
    for layer in dict.fromkeys(("project", *files, *case.layer_settings)):
        path = paths[layer]
        path.parent.mkdir(exist_ok=True)
        extra = case.extra_settings if layer == "project" else case.layer_settings.get(layer, {})
        content: dict[str, Any] = {k: v for k, v in extra.items() if k != "hooks"}
        hooks = extra.get("hooks", {})
        content["hooks"] = {**hooks} if isinstance(hooks, dict) else hooks  # may be broken
        if files.get(layer):
            content["hooks"][case.event] = files[layer]
        path.write_text(json.dumps(content, indent=2))
    return places


def _places(places: dict[str, Path]) -> dict[str, str]:
    """What ``{ws}``, ``{home}`` and ``{hooks}`` (the hook scripts' folder) stand for."""
    return {"{ws}": str(places["ws"]), "{home}": str(places["home"]),
            "{hooks}": str(places["hooks"])}  # fmt: skip


def _write_script(path: Path, hook: Hook, places: dict[str, Path]) -> Path:
    path.write_text(_script("HOOK_OUT", hook.name, hook).replace("{ws}", str(places["ws"])))
    path.chmod(0o755)
    return path


def _group(case: Case, hook: Hook, script: str, places: dict[str, Path]) -> dict[str, Any]:
    """The matcher group that declares ``hook`` (its command names ``script``)."""
    command = hook.command.replace("{script}", script).replace("{ws}", str(places["ws"]))
    return _matched(case, hook, {"hooks": [{"type": "command", "command": command,
                                            **hook.fields}]})  # fmt: skip


def _matched(case: Case, hook: Hook, group: dict[str, Any]) -> dict[str, Any]:
    """The group with the hook's matcher, else the case's (if any)."""
    matcher = hook.matcher if hook.matcher is not None else case.matcher
    return group if matcher is None else {"matcher": matcher, **group}


def _write_marketplace(case: Case, places: dict[str, Path]) -> None:
    """The case's plugins as a local marketplace folder, ``hookd-test``."""
    market = places["market"]
    entries = []
    for plugin in case.plugins:
        folder = market / "plugins" / plugin.name
        (folder / "hooks").mkdir(parents=True)
        (folder / ".claude-plugin").mkdir()
        manifest = {"name": plugin.name, "version": "1.0.0", "description": "a test plugin",
                    **plugin.manifest}  # fmt: skip
        (folder / ".claude-plugin" / "plugin.json").write_text(json.dumps(manifest))
        groups = []
        for hook in plugin.hooks:
            _write_script(folder / "hooks" / f"{hook.name}.sh", hook, places)
            script = f"${{CLAUDE_PLUGIN_ROOT}}/hooks/{hook.name}.sh"
            groups.append(_group(case, hook, script, places))
        (folder / "hooks" / "hooks.json").write_text(json.dumps({"hooks": {case.event: groups}}))
        entries.append({"name": plugin.name, "source": f"./plugins/{plugin.name}",
                        "description": "a test plugin"})  # fmt: skip
    (market / ".claude-plugin").mkdir()
    (market / ".claude-plugin" / "marketplace.json").write_text(
        json.dumps({"name": "hookd-test", "owner": {"name": "hookd"}, "plugins": entries})
    )


async def _install_plugins(case: Case, places: dict[str, Path], claude: str) -> None:
    """``claude plugin install`` (the first with ``--marketplace``, which adds the local
    marketplace as ``claude plugin marketplace add`` does), by the real agent (in the
    loopback-only namespace, with the case's home): the agent writes its own plugin files
    and enables each plugin in the user's settings."""
    from agents.harness.netns import netns_argv

    env = {"PATH": os.environ["PATH"], "HOME": str(places["home"]), "LANG": "C.UTF-8",
           "DISABLE_TELEMETRY": "1", "DISABLE_AUTOUPDATER": "1", "DISABLE_ERROR_REPORTING": "1",
           "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1"}  # fmt: skip
    first, *more = case.plugins  # the first install adds the marketplace too
    commands = [["plugin", "install", first.name, "--marketplace", str(places["market"])]]
    commands += [["plugin", "install", plugin.id] for plugin in more]
    for command in commands:
        done = await trio.run_process(
            netns_argv([claude, *command]), cwd=str(places["ws"]), env=env,
            capture_stdout=True, capture_stderr=True, check=False,
        )  # fmt: skip
        assert done.returncode == 0, (command, done.stdout, done.stderr)


def _turns(case: Case, ws: Path) -> dict[str, Any]:
    turns = case.turns or (
        {"tool": "Bash", "input": {"command": case.tool_command, "description": "mark"}},
        {"text": "done"},
        {"text": "done again"},
    )
    names = {"{ws}": str(ws), "{case}": case.id}
    script = {case.id: _fill(list(turns), names)}
    if case.subagent_turns:
        script[f"{case.id}-sub"] = _fill(list(case.subagent_turns), names)
    return script


def _fill(value: Any, names: dict[str, str]) -> Any:
    """``value`` with each placeholder of ``names`` replaced in every string."""
    if isinstance(value, str):
        for name, text in names.items():
            value = value.replace(name, text)
        return value
    if isinstance(value, dict):
        return {k: _fill(v, names) for k, v in value.items()}
    if isinstance(value, list):
        return [_fill(v, names) for v in value]
    return value


def _stdin_lines(case: Case) -> list[dict[str, Any]]:
    """The case's stream-json input, each user message tagged with the case."""
    lines = []
    for line in case.stdin_lines:
        if line.get("type") == "user":
            message = line["message"]
            line = {
                **line,
                "message": {**message, "content": f"case:{case.id} {message['content']}"},
            }
        lines.append(line)
    return lines


async def _run_agent(
    case: Case,
    places: dict[str, Path],
    claude: str,
    env: dict[str, str] | None = None,
    daemon: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Run the agent on the case (``daemon``: a program started first in the agent's
    network namespace; see ``drive_claude._start_daemon``)."""
    from agents.harness.netns import netns_argv

    run = {
        "claude": claude, "home": str(places["home"]), "project": str(places["ws"]),
        "prompt": f"case:{case.id} do the task", "turns": _turns(case, places["ws"]),
        "env": {"HOOK_OUT": str(places["agent"]), **case.env, **(env or {})}, "timeout": 90,
        "args": list(case.args),
        "stdin_lines": _stdin_lines(case), "daemon": daemon,
    }  # fmt: skip
    (places["run"] / "run.json").write_text(json.dumps(run))
    argv = netns_argv([sys.executable, str(HARNESS / "drive_claude.py"), str(places["run"])])
    await trio.run_process(argv, capture_stdout=True, capture_stderr=True)
    requests = []
    log = places["run"] / "requests.jsonl"
    if log.exists():
        requests = [json.loads(line) for line in log.read_text().splitlines()]
    tagged = [r for r in requests if f"case:{case.id}" in json.dumps(r.get("messages", []))]
    stdout = (places["run"] / "agent.stdout").read_text(errors="replace")
    return {
        "ran": (places["ws"] / "ran").exists(),
        "rewritten": (places["ws"] / "rewritten").exists(),
        "requests": tagged,
        "stdout": stdout,
        "control": _control_responses(stdout),
    }


def _control_responses(stdout: str) -> dict[str, dict[str, Any]]:
    """The agent's answers to control requests, by request id."""
    answers = {}
    for line in stdout.splitlines():
        try:
            message = json.loads(line)
        except ValueError:
            continue
        if isinstance(message, dict) and message.get("type") == "control_response":
            answers[message["response"].get("request_id", "")] = message["response"]
    return answers


def _runs(folder: Path, *, first: bool = False) -> dict[str, list[tuple[bytes, ...]]]:
    """Each hook's runs (only run 0 with ``first``), each as what it was given: the
    files ``<hook>.stdin.<run>``, ``.env.<run>`` and ``.args.<run>``."""
    runs: dict[str, list[tuple[bytes, ...]]] = {}
    for stdin in sorted(folder.glob("*.stdin.*")):
        hook, _, run = stdin.name.partition(".stdin.")
        if first and run != "0":
            continue
        given = (folder / f"{hook}.env.{run}", folder / f"{hook}.args.{run}", stdin)
        runs.setdefault(hook, []).append(tuple(p.read_bytes() for p in given))
    return runs


async def _fire_hookd(case: Case, places: dict[str, Path], settings: Settings) -> dict[str, Any]:
    first = next(
        (p for p in sorted(places["agent"].iterdir()) if p.name.endswith(".stdin.0")), None
    )
    payload = json.loads(first.read_bytes()) if first else _unseen_payload(case)
    async with trio.open_nursery() as nursery:
        await nursery.start(serve, replace(settings, home=str(places["home"])))
        rpc = await RpcClient.connect(settings.socket_path)
        try:
            result: dict[str, Any] = await rpc.fire(
                "claude",
                case.event,
                [str(places["ws"])],
                payload,
                env={"HOOK_OUT": str(places["hookd"]), **case.env},
            )
            # Every background hook's result: each has then written what it was given.
            result["delivered"] = await _async_results(rpc, result)
        finally:
            await rpc.call("shutdown")
            await rpc.aclose()
    return result


async def _async_results(rpc: RpcClient, result: dict[str, Any]) -> list[dict[str, Any]]:
    """The ``hook/asyncResult`` of every hook the fire sent to the background (30 s at
    most: a missing one fails the case)."""
    expected = sum(1 for entry in result["asyncStarted"] if "notStarted" not in entry)
    with trio.fail_after(30):
        while sum(1 for n in rpc.notifications if n["method"] == "hook/asyncResult") < expected:
            message = await rpc.recv()
            if isinstance(message, dict) and "method" in message:
                rpc.notifications.append(message)
    return [n["params"] for n in rpc.notifications if n["method"] == "hook/asyncResult"]


def _unseen_payload(case: Case) -> dict[str, Any]:
    """The payload to fire when no hook of the agent's ran (so none captured one): for a
    tool event the model's tool call, so that a hook hookd wrongly runs shows up."""
    if case.event != "PreToolUse":
        return {}
    return {"tool_name": "Bash", "tool_input": {"command": case.tool_command}}


def _text_after_first(requests: list[dict[str, Any]]) -> str:
    """Every string the model was sent after its first turn, as sent (not JSON-escaped)."""
    return "\n".join(_strings(requests[1:]))


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


RUNS = ("proceed", "proceed-then-stop")
"""Actions under which the guarded action happens."""
STOPS = ("stop", "proceed-then-stop")
"""Actions under which the agent stops."""
TURN_EVENTS = ("PreToolUse", "PostToolUse", "PostToolUseFailure", "PostToolBatch",
               "PermissionRequest")  # fmt: skip
"""Events that fire between the model's tool call and its next request."""


def compare(case: Case, agent: dict[str, Any], hookd: dict[str, Any]) -> list[str]:
    """Where hookd's result disagrees with what the agent did (empty: they agree). The
    result's ``action`` is held to what the agent did: whether the guarded action ran,
    whether the agent went on, and what the model was told."""
    problems: list[str] = []
    action, event = hookd["action"], case.event
    later = _text_after_first(agent["requests"])
    if event in ("PreToolUse", "PermissionRequest"):
        agent_ran = agent["ran"] or agent["rewritten"]
        hookd_runs = action in RUNS
        if event == "PermissionRequest":  # -p refuses what no hook allowed
            hookd_runs = hookd_runs and hookd["decision"] == "allow"
        if agent_ran != hookd_runs:
            problems.append(f"tool ran in the agent: {agent_ran}; hookd's action: {action}")
        new_input = hookd["updatedInput"]
        if event == "PreToolUse" and (new_input is not None) != agent["rewritten"]:
            problems.append(f"rewrite: agent ran the rewritten command: {agent['rewritten']}; "
                            f"hookd updatedInput: {new_input!r}")  # fmt: skip
    if event in TURN_EVENTS and case.turns is None:
        went_on = len(agent["requests"]) > 1
        if went_on == (action in STOPS):
            problems.append(f"the agent went on after the tool: {went_on}; hookd's action: "
                            f"{action}")  # fmt: skip
    told = event in ("PreToolUse", "PostToolUse", "PostToolUseFailure", "Stop")
    if told and action == "block" and hookd["reason"] and hookd["reason"] not in later:
        problems.append(f"hookd's reason {hookd['reason']!r} never reached the model")
    if event == "Stop" and (action == "block") != (len(agent["requests"]) > 2):
        problems.append(f"Stop: agent went on: {len(agent['requests']) > 2}; hookd's action: "
                        f"{action}")  # fmt: skip
    if event == "UserPromptSubmit":
        reached = bool(agent["requests"])
        if reached != (action == "proceed"):
            problems.append(f"prompt reached the model: {reached}; hookd's action: {action}")
    if event == "PreModelSwitch":
        problems += _compare_switch(agent, hookd)
    if hookd["context"]:
        problems += _compare_context(case, agent, hookd["context"])
    problems += _compare_later(case, agent, hookd["delivered"])
    if case.absent:
        if case.absent in "\n".join(_strings(agent["requests"])):
            problems.append(f"{case.absent!r} reached the model: the case is wrong")
        told = [hookd["context"], hookd["reason"], *_later_texts(hookd["delivered"])]
        if case.absent in json.dumps(told):
            problems.append(f"{case.absent!r} is in hookd's result; the agent refused it")
    return problems


def _later_texts(delivered: list[dict[str, Any]]) -> list[str]:
    """The contexts and system messages of hookd's background hooks' results."""
    return [text for note in delivered for text in (note["context"], note["systemMessage"])
            if text]  # fmt: skip


def _compare_later(case: Case, agent: dict[str, Any], delivered: list[dict[str, Any]]) -> list[str]:
    """What background hooks answered reached the model on a later turn: every line of
    hookd's results, and the case's ``later`` text in the agent (and in hookd's results,
    unless ``hookd_stops`` says hookd killed the hook at its timeout first)."""
    seen = "\n".join(_strings(agent["requests"]))
    texts = "\n".join(_later_texts(delivered))
    problems = [f"hookd's background result line {line!r} never reached the model"
                for line in texts.splitlines() if line and line not in seen]  # fmt: skip
    if case.later and case.later not in seen:
        problems.append(f"{case.later!r} never reached the model: the case is wrong")
    if case.later and (case.later in texts) == case.hookd_stops:
        problems.append(f"{case.later!r} in hookd's background results: {case.later in texts}")
    if case.hookd_stops and not (delivered and all(note["timedOut"] for note in delivered)):
        problems.append(f"hookd did not stop the background hook at its timeout: {delivered}")
    return problems


def _compare_context(case: Case, agent: dict[str, Any], context: str) -> list[str]:
    """Every line of hookd's context reached the model: in the first request for the
    events before it (hookd joins the hooks' contexts; the agent shows each as it came)."""
    requests = agent["requests"]
    if case.event in ("SessionStart", "UserPromptSubmit"):
        seen = "\n".join(_strings(requests[:1]))
        if not requests:
            return []  # a blocked prompt: checked above
    elif case.event in ("PreToolUse", "PostToolUse", "PostToolUseFailure"):
        seen = _text_after_first(requests)
    else:
        seen = "\n".join(_strings(requests))
    missing = [line for line in context.splitlines() if line and line not in seen]
    return [f"hookd's context lines {missing!r} never reached the model"] if missing else []


def _compare_switch(agent: dict[str, Any], hookd: dict[str, Any]) -> list[str]:
    """PreModelSwitch: the switch was refused (a control error) exactly when hookd says
    so, with hookd's reason in the agent's error."""
    answer = agent["control"].get("switch-1")
    if answer is None:
        return ["the agent never answered the set_model request"]
    refused = answer.get("subtype") == "error"
    hookd_refuses = hookd["action"] not in RUNS
    problems = []
    if refused != hookd_refuses:
        problems.append(f"switch refused by the agent: {refused} ({answer}); by hookd: "
                        f"{hookd_refuses}")  # fmt: skip
    # The agent's control error shows a line break as U+FFFD.
    reason = (hookd["reason"] or "").replace("\n", "\ufffd")
    if refused and reason and reason not in answer.get("error", ""):
        problems.append(f"hookd's reason {hookd['reason']!r} is not in {answer.get('error')!r}")
    return problems


@pytest.fixture(scope="module")
def ahead(
    request: pytest.FixtureRequest,
    claude_bin: str,
    netns: None,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[Ahead]:
    """The agent runs of the selected cases, started ahead of their tests, ``jobs()`` at a
    time (``harness/ahead.py``): the agent side of the next case runs while hookd's side
    of this one does."""
    cases = selected_cases(request, "test_claude_agent_and_hookd_agree")
    base = tmp_path_factory.mktemp("cases")
    runs = Ahead(partial(_agent_side, claude_bin), cases, lambda case: base / case.id, jobs())
    yield runs
    runs.close()


def _agent_side(claude: str, case: Case, root: Path) -> dict[str, Any]:
    """The case's files, plugins and agent run (in a worker thread: its own trio run)."""

    async def run() -> dict[str, Any]:
        endpoint = HttpEndpoint() if any(h.http is not None for h in case.hooks) else None
        places = _setup(case, root, endpoint)
        if case.plugins:
            await _install_plugins(case, places, claude)
        daemon = None if endpoint is None else _http_daemon(case, places, endpoint)
        agent = await _run_agent(case, places, claude, daemon=daemon)
        return {"places": places, "agent": agent, "endpoint": endpoint}

    return trio.run(run)


def _http_daemon(case: Case, places: dict[str, Path], endpoint: HttpEndpoint) -> dict[str, Any]:
    """The agent's side of the endpoint, started in its namespace on the same port."""
    config = places["run"] / "http-agent.json"
    port = endpoint.listening.getsockname()[1]
    config.write_text(json.dumps(endpoint.config(case, places["agent"], {"port": port})))
    return {"argv": [sys.executable, str(HARNESS / "http_hooks.py"), str(config)],
            "env": {"PATH": os.environ["PATH"]}, "log": str(places["run"] / "http-agent.log")}  # fmt: skip


@asynccontextmanager
async def _hookd_endpoint(
    case: Case, places: dict[str, Path], endpoint: HttpEndpoint | None
) -> AsyncIterator[None]:
    """hookd's side of the endpoint while hookd fires: the same program, answering on the
    socket the case's URLs name."""
    if endpoint is None:
        yield
        return
    fd = endpoint.listening.fileno()
    config = places["run"] / "http-hookd.json"
    config.write_text(json.dumps(endpoint.config(case, places["hookd"], {"fd": fd})))
    try:
        async with trio.open_nursery() as nursery:
            server = await nursery.start(partial(
                trio.run_process, [sys.executable, str(HARNESS / "http_hooks.py"), str(config)],
                pass_fds=(fd,), check=False))  # fmt: skip
            yield
            server.kill()
    finally:
        endpoint.close()


@pytest.mark.parametrize("case", case_params(CASES))
async def test_claude_agent_and_hookd_agree(case: Case, ahead: Ahead, settings: Settings) -> None:
    _root, running = ahead.take(case)
    side = await trio.to_thread.run_sync(running.result)
    places, agent = side["places"], side["agent"]
    if case.trust_on:
        state = places["home"].parent / "hookd-state"
        settings = replace(settings, trust_all=False, state_dir=str(state))
    async with _hookd_endpoint(case, places, side["endpoint"]):
        hookd = await _fire_hookd(case, places, settings)

    # What each hook was given (stdin, the CLAUDE_PLUGIN_* environment, argv), byte for
    # byte: each hook's first run, or (every_run) all its runs, in any order (copies of
    # one script run concurrently).
    # Only the first run unless every_run: the agent may run a hook again later (Stop, a
    # second turn).
    first = not case.every_run
    agent_saw, hookd_saw = _runs(places["agent"], first=first), _runs(places["hookd"], first=first)
    assert agent_saw.keys() == hookd_saw.keys(), "the agent and hookd ran different hooks"
    for hook, runs in agent_saw.items():
        assert sorted(hookd_saw[hook]) == sorted(runs), f"{hook}: what hookd gave it differs"
    every = _runs(places["agent"])
    assert {hook: len(every[hook]) for hook in case.agent_runs} == case.agent_runs
    assert compare(case, agent, hookd) == []
