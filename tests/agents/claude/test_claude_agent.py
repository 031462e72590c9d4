"""Claude Code 2.1.328 itself against hookd: each case of ``cases.py`` runs in the real
agent (in a loopback-only network namespace, the model scripted by a fake Messages API)
and then through hookd with the payload the agent gave its hooks; what the agent did
must be what hookd's result says, and each hook must get the same stdin bytes."""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import trio

from agents.claude.cases import CASES, Case
from hookd.daemon.app import serve
from hookd.daemon.settings import Settings
from hookd_testing import RpcClient
from hookd_testing.cases import case_params

HARNESS = Path(__file__).parents[1] / "harness"


def _script(hook_out_var: str, name: str, hook: Any) -> str:
    return (
        "#!/bin/sh\n"
        f'n=$(ls "${hook_out_var}" 2>/dev/null | grep -c "^{name}\\.stdin\\.")\n'
        f'cat > "${hook_out_var}/{name}.stdin.$n"\n'
        '[ "$n" -gt 0 ] && exit 0\n'  # only the first run answers: no endless Stop loops
        + (f"sleep {hook.sleep}\n" if hook.sleep else "")
        + f"printf '%s' {_sh(hook.stdout)}\n"
        f"printf '%s' {_sh(hook.stderr)} >&2\n"
        f"exit {hook.exit}\n"
    )


def _sh(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def _setup(case: Case, root: Path) -> dict[str, Path]:
    places = {n: root / n for n in ("home", "ws", "hooks", "agent", "hookd", "run")}
    for path in places.values():
        path.mkdir(parents=True)
    files: dict[str, list[dict[str, Any]]] = {}
    for hook in case.hooks:
        script = places["hooks"] / f"{hook.name}.sh"
        script.write_text(_script("HOOK_OUT", hook.name, hook).replace("{ws}", str(places["ws"])))
        script.chmod(0o755)
        group: dict[str, Any] = {
            "hooks": [{"type": "command", "command": str(script), **hook.fields}]
        }
        matcher = hook.matcher if hook.matcher is not None else case.matcher
        if matcher is not None:
            group["matcher"] = matcher
        for layer in hook.layers:
            files.setdefault(layer, []).append(group)
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


def _turns(case: Case, ws: Path) -> dict[str, Any]:
    command = case.tool_command.replace("{ws}", str(ws))
    return {case.id: [{"tool": "Bash", "input": {"command": command, "description": "mark"}},
                      {"text": "done"}, {"text": "done again"}]}  # fmt: skip


async def _run_agent(case: Case, places: dict[str, Path], claude: str) -> dict[str, Any]:
    from agents.harness.netns import netns_argv

    run = {
        "claude": claude, "home": str(places["home"]), "project": str(places["ws"]),
        "prompt": f"case:{case.id} do the task", "turns": _turns(case, places["ws"]),
        "env": {"HOOK_OUT": str(places["agent"])}, "timeout": 90,
    }  # fmt: skip
    (places["run"] / "run.json").write_text(json.dumps(run))
    argv = netns_argv([sys.executable, str(HARNESS / "drive_claude.py"), str(places["run"])])
    await trio.run_process(argv, capture_stdout=True, capture_stderr=True)
    requests = []
    log = places["run"] / "requests.jsonl"
    if log.exists():
        requests = [json.loads(line) for line in log.read_text().splitlines()]
    tagged = [r for r in requests if f"case:{case.id}" in json.dumps(r.get("messages", []))]
    return {
        "ran": (places["ws"] / "ran").exists(),
        "rewritten": (places["ws"] / "rewritten").exists(),
        "requests": tagged,
        "stdout": (places["run"] / "agent.stdout").read_text(errors="replace"),
    }


def _stdins(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if ".stdin." in p.name}


async def _fire_hookd(case: Case, places: dict[str, Path], settings: Settings) -> dict[str, Any]:
    first = next(
        (p for p in sorted(places["agent"].iterdir()) if p.name.endswith(".stdin.0")), None
    )
    payload = json.loads(first.read_bytes()) if first else {}
    async with trio.open_nursery() as nursery:
        await nursery.start(serve, replace(settings, home=str(places["home"])))
        rpc = await RpcClient.connect(settings.socket_path)
        result: dict[str, Any] = await rpc.fire(
            "claude",
            case.event,
            [str(places["ws"])],
            payload,
            env={"HOOK_OUT": str(places["hookd"])},
        )
        await rpc.call("shutdown")
        await rpc.aclose()
    return result


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


def compare(case: Case, agent: dict[str, Any], hookd: dict[str, Any]) -> list[str]:
    """Where hookd's result disagrees with what the agent did (empty: they agree)."""
    problems: list[str] = []
    later = _text_after_first(agent["requests"])
    if case.event == "PreToolUse":
        agent_ran = agent["ran"] or agent["rewritten"]
        hookd_runs = not hookd["blocked"] and hookd["decision"] not in ("deny", "ask")
        if agent_ran != hookd_runs:
            problems.append(f"tool ran in the agent: {agent_ran}; hookd lets it run: {hookd_runs}")
        if hookd["blocked"] and hookd["reason"] and hookd["reason"] not in later:
            problems.append(f"hookd's reason {hookd['reason']!r} is not what the model saw")
        new_input = hookd["updatedInput"]
        if (new_input is not None) != agent["rewritten"]:
            problems.append(f"rewrite: agent ran the rewritten command: {agent['rewritten']}; "
                            f"hookd updatedInput: {new_input!r}")  # fmt: skip
    post_or_stop = case.event in ("PostToolUse", "Stop")
    if post_or_stop and hookd["blocked"] and hookd["reason"] and hookd["reason"] not in later:
        problems.append(f"hookd's reason {hookd['reason']!r} never reached the model")
    if case.event == "Stop" and hookd["blocked"] != (len(agent["requests"]) > 2):
        problems.append(
            f"Stop: agent went on: {len(agent['requests']) > 2}; hookd blocked: {hookd['blocked']}"
        )
    if case.event == "UserPromptSubmit":
        reached = bool(agent["requests"])
        if reached == hookd["blocked"]:
            problems.append(
                f"prompt reached the model: {reached}; hookd blocked: {hookd['blocked']}"
            )
        if (
            hookd["context"]
            and reached
            and hookd["context"] not in "\n".join(_strings(agent["requests"][0]))
        ):
            problems.append(f"hookd's context {hookd['context']!r} is not in the first request")
    if case.event == "SessionStart" and hookd["context"] and agent["requests"]:
        first = "\n".join(_strings(agent["requests"][0]))
        missing = [line for line in hookd["context"].splitlines() if line not in first]
        if missing:
            problems.append(f"SessionStart context lines {missing!r} not in the first request")
    if hookd["context"] and case.event in ("PreToolUse", "PostToolUse", "PostToolUseFailure"):
        # hookd joins the hooks' contexts; the agent shows each as it came: every line
        # of hookd's context must have reached the model.
        missing = [line for line in hookd["context"].splitlines() if line and line not in later]
        if missing:
            problems.append(f"hookd's context lines {missing!r} never reached the model")
    return problems


@pytest.mark.parametrize("case", case_params(CASES))
async def test_claude_agent_and_hookd_agree(
    case: Case, claude_bin: str, netns: None, settings: Settings, tmp_path: Path
) -> None:
    places = _setup(case, tmp_path / "case")
    agent = await _run_agent(case, places, claude_bin)
    hookd = await _fire_hookd(case, places, settings)

    agent_stdin, hookd_stdin = _stdins(places["agent"]), _stdins(places["hookd"])
    first_runs = {k: v for k, v in agent_stdin.items() if k.endswith(".stdin.0")}
    assert first_runs.keys() == {k for k in hookd_stdin if k.endswith(".stdin.0")}, (
        "the agent and hookd ran different hooks"
    )
    for name, data in first_runs.items():
        assert hookd_stdin[name] == data, f"{name}: hookd's stdin differs from the agent's"
    assert compare(case, agent, hookd) == []
