"""auggie 0.36.0 itself against hookd: each case of ``cases.py`` runs in the real agent
(in a loopback-only network namespace, the backend scripted by a fake Augment API that
switches hooks on) and then through hookd with the payload the agent gave its hooks;
what the agent did must be what hookd's result says, each hook must get the same stdin
bytes, and hooks that overlapped in time in the agent overlap under hookd."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import trio

from agents.augment.cases import CASES, Case, Hook
from agents.harness.ahead import Ahead, jobs, selected_cases, trio_side
from hookd.daemon.app import serve
from hookd.daemon.settings import Settings
from hookd_testing import RpcClient
from hookd_testing.cases import case_params

HARNESS = Path(__file__).parents[1] / "harness"
CONFIG_WARNING = "Some plugin hooks use unsupported configuration."
VISIBLE_ENV = "^(AUGMENT_(PROJECT_DIR|HOOK_EVENT|TOOL_NAME|CONVERSATION_ID)|[A-Z]+_PLUGIN_ROOT)="
"""The variables auggie sets for a hook: each hook writes them down, hookd must match."""
SETTINGS_FILES = {
    "user": ("home", ".augment/settings.json"),
    "plugin": ("plugin", "p/hooks/hooks.json"),
    "local": ("ws", ".augment/settings.local.json"),
    "workspace": ("ws", ".augment/settings.json"),
}


def _script(hook: Hook) -> str:
    """A hook that keeps its stdin, arguments and the variables auggie sets (under its
    name, and its first argument when it has one), logs when it starts and ends, then
    answers."""
    return (
        "#!/bin/sh\n"
        + ("trap '' TERM\n" if hook.ignore_term else "")
        + f"tag={hook.name}$(printf '%s' \"${{1:+-$1}}\" | tr -c 'A-Za-z0-9-' _)\n"
        'n=$(ls "$HOOK_OUT" 2>/dev/null | grep -c "^$tag\\.stdin\\.")\n'
        'cat > "$HOOK_OUT/$tag.stdin.$n"\n'
        'echo "$@" > "$HOOK_OUT/$tag.args.$n"\n'
        f"env | grep -E '{VISIBLE_ENV}' | sort > \"$HOOK_OUT/$tag.env.$n\"\n"
        'echo "start $tag" >> "$HOOK_OUT/order.log"\n'
        + (f"sleep {hook.sleep}\n" if hook.sleep else "")
        + 'echo "end $tag" >> "$HOOK_OUT/order.log"\n'
        f"printf '%s' {_sh(hook.stdout)}\n"
        f"printf '%s' {_sh(hook.stderr)} >&2\n"
        f"exit {hook.exit}\n"
    )


def _sh(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def _setup(case: Case, root: Path) -> dict[str, Path]:
    places = {n: root / n for n in ("home", "ws", "hooks", "agent", "hookd", "run", "plugin")}
    for path in places.values():
        path.mkdir(parents=True)
    files: dict[str, dict[str, list[dict[str, Any]]]] = {}
    for hook in case.hooks:
        script = places["hooks"] / hook.folder / f"{hook.name}.sh"
        script.parent.mkdir(exist_ok=True)
        script.write_text(_script(hook).replace("{ws}", str(places["ws"])))
        script.chmod(0o644 if hook.not_executable else 0o755)
        if hook.symlink:
            link = places["hooks"] / f"link-to-{hook.name}.sh"
            link.symlink_to(script)
            script = link
        handler = {"type": "command", "command": str(script), **hook.fields}
        handler["command"] = str(handler["command"]).replace("{script}", str(script))
        group: dict[str, Any] = {"hooks": [handler], **hook.group}
        matcher = hook.matcher if hook.matcher is not None else case.matcher
        event = hook.event or case.event
        if matcher is not None and event in ("PreToolUse", "PostToolUse"):
            group["matcher"] = matcher
        for layer in hook.layers:
            files.setdefault(layer, {}).setdefault(event, []).append(group)
    contents: dict[str, Any] = {layer: {"hooks": hooks} for layer, hooks in files.items()}
    for layer, extra in case.files.items():
        if isinstance(extra, str):
            contents[layer] = extra
        else:
            merged = contents.setdefault(layer, {"hooks": {}})
            merged["hooks"] = {**merged["hooks"], **extra.get("hooks", {})}
    if "plugin" in contents:  # a local marketplace (--plugin-dir) with one plugin, p
        market = places["plugin"] / ".augment-plugin"
        market.mkdir()
        (market / "marketplace.json").write_text(
            json.dumps({"name": "m", "plugins": [{"name": "p", "source": "./p"}]})
        )
        (places["plugin"] / "p" / ".augment-plugin").mkdir(parents=True)
        (places["plugin"] / "p" / ".augment-plugin" / "plugin.json").write_text('{"name": "p"}')
    for layer, content in contents.items():
        base, relative = SETTINGS_FILES[layer]
        path = places[base] / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        text = content if isinstance(content, str) else json.dumps(content, indent=2)
        path.write_text(text.replace("{hooks}", str(places["hooks"])))
    return places


def _turns(case: Case, ws: Path) -> dict[str, Any]:
    command = case.tool_command.replace("{ws}", str(ws))
    tool_input: dict[str, Any] = {"command": command, "wait": True, "max_wait_seconds": 30,
                                  "cwd": str(ws)}  # fmt: skip
    return {case.id: [{"tool": case.tool, "input": tool_input},
                      {"text": "done"}, {"text": "done again"}]}  # fmt: skip


async def _run_agent(
    case: Case, places: dict[str, Path], auggie: str, env: dict[str, str] | None = None
) -> dict[str, Any]:
    from agents.harness.netns import netns_argv

    args = [f"--plugin-dir={places['plugin']}"] if "plugin" in _layers(case) else []
    run = {
        "auggie": auggie, "home": str(places["home"]), "project": str(places["ws"]),
        "prompt": f"case:{case.id} do the task", "turns": _turns(case, places["ws"]),
        "env": {"HOOK_OUT": str(places["agent"]), **(env or {})}, "timeout": 90, "args": args,
    }  # fmt: skip
    (places["run"] / "run.json").write_text(json.dumps(run))
    argv = netns_argv([sys.executable, str(HARNESS / "drive_augment.py"), str(places["run"])])
    driven = await trio.run_process(argv, capture_stdout=True, capture_stderr=True, check=False)
    if driven.returncode != 0:
        pytest.fail(
            "the auggie driver failed (in the loopback-only namespace): "
            + driven.stderr.decode(errors="replace")[-2000:],
            pytrace=False,
        )
    requests = []
    log = places["run"] / "requests.jsonl"
    if log.exists():
        requests = [json.loads(line) for line in log.read_text().splitlines()]
    tagged = [r for r in requests if f"case:{case.id}" in json.dumps(r)]
    stdout = (places["run"] / "agent.stdout").read_text(errors="replace")
    observation = json.loads((places["run"] / "observation.json").read_text())
    if observation["exit"] != 0:
        pytest.fail(
            f"auggie exited with {observation['exit']}: "
            + (places["run"] / "agent.stderr").read_text(errors="replace")[-2000:],
            pytrace=False,
        )
    return {
        "ran": (places["ws"] / "ran").exists(),
        "rewritten": (places["ws"] / "rewritten").exists(),
        "requests": tagged,
        "stdout": stdout,
        "user": _user_lines(stdout),
    }


def _layers(case: Case) -> set[str]:
    return {layer for hook in case.hooks for layer in hook.layers}


def _user_lines(stdout: str) -> str:
    """What auggie printed for the user: its stdout without the JSON result line."""
    lines = [line for line in stdout.splitlines() if not line.startswith('{"type":"result"')]
    return "\n".join(lines).strip()


def _runs(folder: Path, kind: str) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if f".{kind}." in p.name}


async def _fire_hookd(case: Case, places: dict[str, Path], settings: Settings) -> dict[str, Any]:
    first = next(iter(_runs(places["agent"], "stdin").values()), None)
    payload = json.loads(first) if first else {}
    env = {"HOOK_OUT": str(places["hookd"]), "HOME": str(places["home"])}
    extra = {"hooksDirs": [str(places["plugin"] / "p")]} if "plugin" in _layers(case) else {}
    async with trio.open_nursery() as nursery:
        await nursery.start(serve, replace(settings, home=str(places["home"])))
        rpc = await RpcClient.connect(settings.socket_path)
        result: dict[str, Any] = await rpc.fire(
            "augment", case.event, [str(places["ws"])], payload, env=env, **extra
        )
        await rpc.call("shutdown")
        await rpc.aclose()
    return result


def _tool_results(requests: list[dict[str, Any]]) -> list[str]:
    """The tool results the model was sent, as sent."""
    return [
        node["tool_result_node"]["content"]
        for request in requests
        for node in request.get("nodes") or []
        if node.get("tool_result_node")
    ]


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def _most_at_once(log: Path) -> int:
    """The most hooks that were running at the same time (from their start/end lines)."""
    running = most = 0
    for line in log.read_text().splitlines() if log.exists() else []:
        running += 1 if line.startswith("start ") else -1
        most = max(most, running)
    return most


def compare(case: Case, agent: dict[str, Any], hookd: dict[str, Any]) -> list[str]:
    """Where hookd's result disagrees with what the agent did (empty: they agree)."""
    problems: list[str] = []
    results = _tool_results(agent["requests"])
    tool_result = results[0] if results else ""
    agent_ran = agent["ran"] or agent["rewritten"]
    hookd_runs = not hookd["blocked"]
    if agent_ran != hookd_runs:
        problems.append(f"tool ran in the agent: {agent_ran}; hookd lets it run: {hookd_runs}")
    if hookd["blocked"]:
        reason, tool = hookd["reason"], case.tool
        expected = (f"{reason}\n\nPreToolUse:{tool} hook returned blocking error" if reason
                    else f"Tool execution blocked by hook: {tool}")  # fmt: skip
        if tool_result != expected:
            problems.append(f"the model saw {tool_result!r}; hookd's reason gives {expected!r}")
    new_input = hookd["updatedInput"]
    if (new_input is not None) != agent["rewritten"]:
        problems.append(f"rewrite: agent ran the rewritten command: {agent['rewritten']}; "
                        f"hookd updatedInput: {new_input!r}")  # fmt: skip
    context = hookd["context"]
    appended = tool_result.partition("\n\n[Hook Context]\n")[2] or None
    if case.event == "PostToolUse" and appended != context:
        problems.append(f"the tool result carried {appended!r}; hookd's context is {context!r}")
    if case.event != "PostToolUse" and context is not None:
        problems.append(f"hookd gives context {context!r}; auggie uses none on {case.event}")
    later = "\n".join(_strings(agent["requests"][1:]))
    if "[Hook Context]" in later and case.event != "PostToolUse":
        problems.append("a hook's context reached the model after the first turn")
    first = "\n".join(_strings(agent["requests"][:1]))
    for hook in case.hooks:
        if case.event == "SessionStart" and hook.stdout and hook.stdout in first:
            problems.append(f"{hook.name}'s stdout reached the model's first request")
    if len(agent["requests"]) != 2:
        problems.append(f"the agent sent {len(agent['requests'])} requests, not 2 (no block "
                        "makes auggie go on or stop early)")  # fmt: skip
    user = (hookd["systemMessage"] or "").strip()
    shown = agent["user"]
    if CONFIG_WARNING in shown:  # auggie's notice that it skipped part of a settings file
        shown = "\n".join(line for line in shown.splitlines() if line != CONFIG_WARNING)
        if not hookd["warnings"]:
            problems.append("auggie warned about the settings; hookd's fire has no warning")
    if shown != user:
        problems.append(f"the user saw {shown!r}; hookd's systemMessage is {user!r}")
    return problems


@pytest.fixture(scope="module")
def ahead(
    request: pytest.FixtureRequest,
    auggie_bin: str,
    netns: None,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[Ahead]:
    """The selected cases' agent runs, started ahead of their tests (``harness/ahead.py``)."""
    cases = selected_cases(request, "test_augment_agent_and_hookd_agree")
    base = tmp_path_factory.mktemp("cases")
    runs = Ahead(trio_side(_agent_side, auggie_bin), cases, lambda c: base / c.id, jobs())
    yield runs
    runs.close()


async def _agent_side(auggie: str, case: Case, root: Path) -> dict[str, Any]:
    places = _setup(case, root)
    return {"places": places, "agent": await _run_agent(case, places, auggie)}


@pytest.mark.parametrize("case", case_params(CASES))
async def test_augment_agent_and_hookd_agree(case: Case, ahead: Ahead, settings: Settings) -> None:
    _root, running = ahead.take(case)
    side = await trio.to_thread.run_sync(running.result)
    places, agent = side["places"], side["agent"]
    agent_stdin = _runs(places["agent"], "stdin")
    if case.never_fires:
        assert agent_stdin == {}, f"auggie ran hooks: {sorted(agent_stdin)}"
        assert agent["ran"], "the tool did not run"
        return
    assert agent_stdin, "auggie ran no hook, so there is no payload to give hookd"
    hookd = await _fire_hookd(case, places, settings)

    hookd_stdin = _runs(places["hookd"], "stdin")
    assert sorted(agent_stdin) == sorted(hookd_stdin), "the agent and hookd ran different hooks"
    for name, data in agent_stdin.items():
        assert hookd_stdin[name] == data, f"{name}: hookd's stdin differs from the agent's"
    assert _runs(places["hookd"], "args") == _runs(places["agent"], "args"), "arguments differ"
    assert _runs(places["hookd"], "env") == _runs(places["agent"], "env"), "variables differ"
    if all(hook.sleep and "timeout" not in hook.fields for hook in case.hooks):
        # only hooks that all take a while overlap (or not) for sure
        assert _most_at_once(places["hookd"] / "order.log") == _most_at_once(
            places["agent"] / "order.log"
        ), "hooks overlapped in time differently"
    assert compare(case, agent, hookd) == []
