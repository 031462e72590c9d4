"""Cline 3.0.65 (the SDK runner) itself against hookd's ``cline-sdk`` dialect: each case of
``cases.py`` runs in the real agent (loopback-only network namespace, the model scripted
by a fake chat-completions API) and then through hookd with the payload the agent gave
its hooks; what the agent did must be what hookd's result says, each hook must get the
same stdin bytes, and hooks must run in the same order."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import trio

from agents.cline_sdk.cases import CASES, Case
from agents.harness.ahead import Ahead, jobs, selected_cases, trio_side
from agents.harness.cline_cases import (
    Compared,
    fire_hookd,
    make_places,
    order,
    payload_of,
    place,
    run_agent,
    stdins,
    strings,
)
from hookd.daemon.settings import Settings
from hookd_testing.cases import case_params

FOLDERS = {
    "workspace": ("ws", ".cline/hooks"),
    "clinerules": ("ws", ".clinerules/hooks"),
    "user": ("home", ".cline/hooks"),
    "global": ("home", "Documents/Cline/Hooks"),
    "elsewhere": ("elsewhere", "hooks"),
    "clinedir": ("elsewhere", "cfg/hooks"),
    "xdgdocs": ("home", "Docs/Cline/Hooks"),
}


def _fill(text: str, places: dict[str, Path]) -> str:
    return (
        text.replace("{elsewhere_hooks}", str(places["elsewhere"] / "hooks"))
        .replace("{clinedir}", str(places["elsewhere"] / "cfg"))
        .replace("{home}", str(places["home"]))
        .replace("{ws}", str(places["ws"]))
    )


def _setup(case: Case, root: Path) -> dict[str, Path]:
    places = make_places(root)
    for hook in case.hooks:
        base, sub = FOLDERS[hook.folder]
        place(hook, places[base] / sub, hook.file or f"{hook.event}.sh", places["ws"],
              places["elsewhere"])  # fmt: skip
    for relative, text in case.extra_files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return places


def _run(case: Case, places: dict[str, Path], cline: str) -> dict[str, Any]:
    ws = str(places["ws"])
    commands = [command.replace("{ws}", ws) for command in case.commands]
    turns = [{"tool": "run_commands", "args": {"commands": commands}}, {"text": "all done"}]
    return {
        "cline": cline, "version": "sdk", "tag": f"case:{case.id}",
        "argv": ["--json", *(_fill(a, places) for a in case.args), f"case:{case.id} do the task"],
        "turns": {case.id: turns}, "env": {k: _fill(v, places) for k, v in case.env.items()},
        "timeout": 60,
    }  # fmt: skip


def compare(case: Case, agent: dict[str, Any], hookd: dict[str, Any]) -> list[str]:
    """Where hookd's result disagrees with what the agent did (empty: they agree)."""
    c = Compared()
    later = "\n".join(strings(agent["requests"][1:]))
    ctx_lines = [line for line in (hookd["context"] or "").splitlines() if line.strip()]
    if case.event == "PreToolUse":
        agent_ran = agent["ran"] or agent["rewritten"]
        c.check(agent_ran != hookd["blocked"],
                f"tool ran in the agent: {agent_ran}; hookd blocked: {hookd['blocked']}")  # fmt: skip
        c.check((hookd["updatedInput"] is not None) == agent["rewritten"],
                f"rewrite: agent ran the rewritten input: {agent['rewritten']}; hookd "
                f"updatedInput: {hookd['updatedInput']!r}")  # fmt: skip
    if case.event in ("PreToolUse", "PostToolUse"):
        if hookd["blocked"] and hookd["reason"]:
            # A cancel ends the SDK's run (ControlledStopError): the reason goes to its log.
            shown = later + agent["stdout"] + agent["log"]
            c.check(hookd["reason"] in shown,
                    f"hookd's reason {hookd['reason']!r} is not what the agent showed")  # fmt: skip
        missing = [line for line in ctx_lines if line not in later]
        c.check(not missing, f"hookd's context lines {missing!r} never reached the model")
    if case.event in ("PreToolUse", "PostToolUse"):
        went_on = len(agent["requests"]) > 1
        c.check(went_on != hookd["blocked"],
                f"agent went on after the tool: {went_on}; hookd blocked: {hookd['blocked']}")  # fmt: skip
    if case.event not in ("PreToolUse", "PostToolUse"):
        c.check(not hookd["blocked"] and not hookd["context"],
                f"a lifecycle hook's output is ignored by the agent; hookd: blocked "
                f"{hookd['blocked']}, context {hookd['context']!r}")  # fmt: skip
    return c.problems


@pytest.fixture(scope="module")
def ahead(
    request: pytest.FixtureRequest,
    cline_sdk_bin: str,
    netns: None,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[Ahead]:
    """The selected cases' agent runs, started ahead of their tests (``harness/ahead.py``)."""
    cases = selected_cases(request, "test_cline_sdk_agent_and_hookd_agree")
    base = tmp_path_factory.mktemp("cases")
    runs = Ahead(trio_side(_agent_side, cline_sdk_bin), cases, lambda c: base / c.id, jobs())
    yield runs
    runs.close()


async def _agent_side(cline: str, case: Case, root: Path) -> dict[str, Any]:
    places = _setup(case, root)
    return {"places": places, "agent": await run_agent(places, _run(case, places, cline))}


@pytest.mark.parametrize("case", case_params(CASES))
async def test_cline_sdk_agent_and_hookd_agree(
    case: Case, ahead: Ahead, settings: Settings
) -> None:
    _root, running = ahead.take(case)
    side = await trio.to_thread.run_sync(running.result)
    places, agent = side["places"], side["agent"]
    payload = payload_of(places["agent"], case.hooks, case.event)
    assert payload is not None, (
        f"the agent never ran a {case.event} hook: {agent['stdout'][-2000:]}"
    )
    fire_env = {k: _fill(v, places) for k, v in {**case.env, **case.fire_env}.items()}
    hookd = await fire_hookd("cline-sdk", case.event, places, settings, payload, env=fire_env)

    ours = {h.name for h in case.hooks if h.event == case.event}
    agent_in, hookd_in = stdins(places["agent"]), stdins(places["hookd"])
    firsts = {
        k: v for k, v in agent_in.items() if k.endswith(".stdin.0") and k.split(".")[0] in ours
    }
    assert firsts.keys() == {k for k in hookd_in if k.endswith(".stdin.0")}, (
        "the agent and hookd ran different hooks"
    )
    for name, data in firsts.items():
        assert hookd_in[name] == data, f"{name}: hookd's stdin differs from the agent's"
    if case.event in ("PreToolUse", "PostToolUse"):
        agent_order = [n for n in order(places["agent"]) if n in ours][: len(firsts)]
        assert agent_order == order(places["hookd"]), "the hooks ran in another order"
    assert compare(case, agent, hookd) == [], json.dumps(hookd, indent=1)[:3000]
