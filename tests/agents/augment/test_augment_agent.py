"""auggie 0.36.0 itself against hookd: each case of ``cases.py`` runs in the real agent
(in a loopback-only network namespace, the backend scripted by a fake Augment API that
switches hooks on) and then through hookd with the payload the agent gave its hooks;
what the agent did must be what hookd's result says, each hook must get the same stdin
bytes, and hooks that overlapped in time in the agent overlap under hookd."""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import trio

from agents.augment.cases import CASES, Case, Hook
from hookd.daemon.app import serve
from hookd.daemon.settings import Settings
from hookd_testing import RpcClient
from hookd_testing.cases import case_params

HARNESS = Path(__file__).parents[1] / "harness"
SETTINGS_FILES = {
    "user": ("home", ".augment/settings.json"),
    "local": ("ws", ".augment/settings.local.json"),
    "workspace": ("ws", ".augment/settings.json"),
}


def _script(hook: Hook) -> str:
    """A hook that keeps its stdin, logs when it starts and ends, then answers (only its
    first run answers: no endless Stop loops)."""
    name = hook.name
    return (
        "#!/bin/sh\n"
        f'n=$(ls "$HOOK_OUT" 2>/dev/null | grep -c "^{name}\\.stdin\\.")\n'
        f'cat > "$HOOK_OUT/{name}.stdin.$n"\n'
        f'echo "$@" > "$HOOK_OUT/{name}.args.$n"\n'
        f'echo "start {name}" >> "$HOOK_OUT/order.log"\n'
        '[ "$n" -gt 0 ] && exit 0\n'
        + (f"sleep {hook.sleep}\n" if hook.sleep else "")
        + f'echo "end {name}" >> "$HOOK_OUT/order.log"\n'
        f"printf '%s' {_sh(hook.stdout)}\n"
        f"printf '%s' {_sh(hook.stderr)} >&2\n"
        f"exit {hook.exit}\n"
    )


def _sh(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def _setup(case: Case, root: Path) -> dict[str, Path]:
    places = {n: root / n for n in ("home", "ws", "hooks", "agent", "hookd", "run")}
    for path in places.values():
        path.mkdir(parents=True)
    files: dict[str, dict[str, list[dict[str, Any]]]] = {}
    for hook in case.hooks:
        script = places["hooks"] / f"{hook.name}.sh"
        script.write_text(_script(hook).replace("{ws}", str(places["ws"])))
        script.chmod(0o755)
        handler = {"type": "command", "command": str(script), **hook.fields}
        handler["command"] = str(handler["command"]).replace("{script}", str(script))
        group: dict[str, Any] = {"hooks": [handler]}
        matcher = hook.matcher if hook.matcher is not None else case.matcher
        event = hook.event or case.event
        if matcher is not None and event in ("PreToolUse", "PostToolUse"):
            group["matcher"] = matcher
        for layer in hook.layers:
            files.setdefault(layer, {}).setdefault(event, []).append(group)
    contents: dict[str, Any] = {layer: {"hooks": hooks} for layer, hooks in files.items()}
    contents.update(case.files)
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


async def _run_agent(case: Case, places: dict[str, Path], auggie: str) -> dict[str, Any]:
    from agents.harness.netns import netns_argv

    run = {
        "auggie": auggie, "home": str(places["home"]), "project": str(places["ws"]),
        "prompt": f"case:{case.id} do the task", "turns": _turns(case, places["ws"]),
        "env": {"HOOK_OUT": str(places["agent"])}, "timeout": 90,
    }  # fmt: skip
    (places["run"] / "run.json").write_text(json.dumps(run))
    argv = netns_argv([sys.executable, str(HARNESS / "drive_augment.py"), str(places["run"])])
    await trio.run_process(argv, capture_stdout=True, capture_stderr=True)
    requests = []
    log = places["run"] / "requests.jsonl"
    if log.exists():
        requests = [json.loads(line) for line in log.read_text().splitlines()]
    tagged = [r for r in requests if f"case:{case.id}" in json.dumps(r)]
    return {
        "ran": (places["ws"] / "ran").exists(),
        "rewritten": (places["ws"] / "rewritten").exists(),
        "requests": tagged,
        "stdout": (places["run"] / "agent.stdout").read_text(errors="replace"),
    }


def _stdins(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if ".stdin." in p.name}


async def _fire_hookd(
    case: Case, event: str, places: dict[str, Path], settings: Settings
) -> dict[str, Any]:
    first = _first_payload(places["agent"], case, event)
    payload = json.loads(first) if first else {}
    async with trio.open_nursery() as nursery:
        await nursery.start(serve, replace(settings, home=str(places["home"])))
        rpc = await RpcClient.connect(settings.socket_path)
        result: dict[str, Any] = await rpc.fire(
            "augment", event, [str(places["ws"])], payload, env={"HOOK_OUT": str(places["hookd"])}
        )
        await rpc.call("shutdown")
        await rpc.aclose()
    return result


def _first_payload(folder: Path, case: Case, event: str) -> bytes | None:
    """The first payload the agent gave a hook of ``event``."""
    for hook in case.hooks:
        path = folder / f"{hook.name}.stdin.0"
        if (hook.event or case.event) == event and path.exists():
            return path.read_bytes()
    return None


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def _tool_results(requests: list[dict[str, Any]]) -> list[str]:
    """The tool results the model was sent, as sent."""
    return [
        node["tool_result_node"]["content"]
        for request in requests
        for node in request.get("nodes") or []
        if node.get("tool_result_node")
    ]


def compare(case: Case, agent: dict[str, Any], hookd: dict[str, Any]) -> list[str]:
    """Where hookd's result disagrees with what the agent did (empty: they agree)."""
    problems: list[str] = []
    results = "\n".join(_tool_results(agent["requests"]))
    if case.event == "PreToolUse":
        agent_ran = agent["ran"] or agent["rewritten"]
        hookd_runs = not hookd["blocked"]
        if agent_ran != hookd_runs:
            problems.append(f"tool ran in the agent: {agent_ran}; hookd lets it run: {hookd_runs}")
        if hookd["blocked"] and (hookd["reason"] or "") not in results:
            problems.append(f"hookd's reason {hookd['reason']!r} is not what the model saw: "
                            f"{results!r}")  # fmt: skip
        new_input = hookd["updatedInput"]
        if (new_input is not None) != agent["rewritten"]:
            problems.append(f"rewrite: agent ran the rewritten command: {agent['rewritten']}; "
                            f"hookd updatedInput: {new_input!r}")  # fmt: skip
    return problems


@pytest.mark.parametrize("case", case_params(CASES))
async def test_augment_agent_and_hookd_agree(
    case: Case, auggie_bin: str, netns: None, settings: Settings, tmp_path: Path
) -> None:
    places = _setup(case, tmp_path / "case")
    agent = await _run_agent(case, places, auggie_bin)
    hookd = await _fire_hookd(case, case.event, places, settings)

    agent_stdin, hookd_stdin = _stdins(places["agent"]), _stdins(places["hookd"])
    first_runs = {k: v for k, v in agent_stdin.items() if k.endswith(".stdin.0")}
    assert first_runs.keys() == {k for k in hookd_stdin if k.endswith(".stdin.0")}, (
        "the agent and hookd ran different hooks"
    )
    for name, data in first_runs.items():
        assert hookd_stdin[name] == data, f"{name}: hookd's stdin differs from the agent's"
    assert compare(case, agent, hookd) == []
