"""Cline 2.18.0 (the original runner, the extension core) itself against hookd's ``cline``
dialect: each case of ``cases.py`` runs in the real agent (loopback-only network
namespace, the model scripted by a fake chat-completions API answering in Cline's XML
tool format) and then through hookd with the payload the agent gave its hooks; what the
agent did must be what hookd's result says, and each hook must get the same stdin bytes.

After a hook cancels, this agent waits in ``resume_task`` forever and ignores SIGTERM:
the driver ends its process group once the outcome is in its output."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import trio

from agents.cline.cases import CASES, Case
from agents.harness.ahead import Ahead, jobs, selected_cases, trio_side
from agents.harness.cline_cases import (
    Compared,
    fire_hookd,
    make_places,
    payload_of,
    place,
    run_agent,
    stdins,
    strings,
)
from hookd.daemon.settings import Settings
from hookd_testing.cases import case_params

FOLDERS = {
    "workspace": ("ws", ".clinerules/hooks"),
    "global": ("home", "Cline/Hooks"),  # xdg-user-dir DOCUMENTS is $HOME without user-dirs
    "documents": ("home", "Documents/Cline/Hooks"),
    "rules": ("home", "Documents/Cline/Rules/Hooks"),
    "xdgdocs": ("home", "Docs/Cline/Hooks"),
    "hooksdir": ("elsewhere", "hooks"),
}
UNTIL = ['"ask":"resume_task"', '"say":"completion_result"', '"ask":"resume_completed_task"',
         '"type":"error"']  # fmt: skip


def _fill(value: Any, places: dict[str, Path]) -> Any:
    if isinstance(value, list):
        return [_fill(item, places) for item in value]
    if not isinstance(value, str):
        return value
    return value.replace("{hooksdir}", str(places["elsewhere"] / "hooks")).replace(
        "{ws}", str(places["ws"])
    )


def _setup(case: Case, root: Path) -> dict[str, Path]:
    places = make_places(root)
    for hook in case.hooks:
        base, sub = FOLDERS[hook.folder]
        place(hook, places[base] / sub, hook.file or hook.event, places["ws"],
              places["elsewhere"])  # fmt: skip
    for relative, text in case.extra_files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return places


def _run(case: Case, places: dict[str, Path], cline: str) -> dict[str, Any]:
    command = _fill(case.command, places)
    turns = [
        {"text": f"<execute_command>\n<command>{command}</command>\n"
                 "<requires_approval>false</requires_approval>\n</execute_command>"},
        {"text": "<attempt_completion>\n<result>all done</result>\n</attempt_completion>"},
    ]  # fmt: skip
    return {
        "cline": cline, "version": "core", "tag": f"case:{case.id}",
        "argv": ["task", "-y", "--json", *(_fill(a, places) for a in case.args),
                 f"case:{case.id} do the task"],
        "turns": {case.id: turns}, "until": UNTIL, "grace": 1.0, "timeout": 60,
        "global_state": case.global_state,
    }  # fmt: skip


def compare(case: Case, agent: dict[str, Any], hookd: dict[str, Any]) -> list[str]:
    """Where hookd's result disagrees with what the agent did (empty: they agree)."""
    c = Compared()
    requests = agent["requests"]
    first = "\n".join(strings(requests[:1]))
    later = "\n".join(strings(requests[1:]))
    ctx_lines = [line for line in (hookd["context"] or "").splitlines() if line.strip()]
    if case.event == "PreToolUse":
        c.check(agent["ran"] != hookd["blocked"],
                f"tool ran in the agent: {agent['ran']}; hookd blocked: {hookd['blocked']}")  # fmt: skip
    if case.event in ("PreToolUse", "PostToolUse") and not hookd["blocked"]:
        missing = [line for line in ctx_lines if line not in later]
        c.check(not missing, f"hookd's context lines {missing!r} never reached the model")
    if case.event == "PostToolUse":
        went_on = len(requests) > 1
        c.check(went_on != hookd["blocked"],
                f"agent went on after the tool: {went_on}; hookd blocked: {hookd['blocked']}")  # fmt: skip
    if case.event in ("TaskStart", "UserPromptSubmit"):
        reached = bool(requests)
        c.check(reached != hookd["blocked"],
                f"the task reached the model: {reached}; hookd blocked: {hookd['blocked']}")  # fmt: skip
        missing = [line for line in ctx_lines if line not in first]
        c.check(not (reached and missing), f"context lines {missing!r} not in the first request")
    if case.event in ("TaskComplete", "TaskCancel", "Notification"):
        c.check(not hookd["blocked"], f"{case.event} cannot be cancelled; hookd blocked")
    return c.problems


@pytest.fixture(scope="module")
def ahead(
    request: pytest.FixtureRequest,
    cline_bin: str,
    netns: None,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[Ahead]:
    """The selected cases' agent runs, started ahead of their tests (``harness/ahead.py``)."""
    cases = selected_cases(request, "test_cline_agent_and_hookd_agree")
    base = tmp_path_factory.mktemp("cases")
    runs = Ahead(trio_side(_agent_side, cline_bin), cases, lambda c: base / c.id, jobs())
    yield runs
    runs.close()


async def _agent_side(cline: str, case: Case, root: Path) -> dict[str, Any]:
    places = _setup(case, root)
    return {"places": places, "agent": await run_agent(places, _run(case, places, cline))}


@pytest.mark.parametrize("case", case_params(CASES))
async def test_cline_agent_and_hookd_agree(case: Case, ahead: Ahead, settings: Settings) -> None:
    _root, running = ahead.take(case)
    side = await trio.to_thread.run_sync(running.result)
    places, agent = side["places"], side["agent"]
    payload = payload_of(places["agent"], case.hooks, case.event)
    assert payload is not None, (
        f"the agent never ran a {case.event} hook: {agent['stdout'][-3000:]}"
    )
    fire = {k: _fill(v, places) for k, v in case.fire.items()}
    hookd = await fire_hookd("cline", case.event, places, settings, payload, **fire)

    ours = {h.name for h in case.hooks if h.event == case.event}
    agent_in, hookd_in = stdins(places["agent"]), stdins(places["hookd"])
    firsts = {k: v for k, v in agent_in.items()
              if k.endswith(".stdin.0") and k.split(".")[0] in ours}  # fmt: skip
    assert firsts.keys() == {k for k in hookd_in if k.endswith(".stdin.0")}, (
        "the agent and hookd ran different hooks"
    )
    for name, data in firsts.items():
        assert hookd_in[name] == data, f"{name}: hookd's stdin differs from the agent's"
    if case.count_runs:
        agent_runs = sorted(k for k in agent_in if k.split(".")[0] in ours)
        assert agent_runs == sorted(hookd_in), (
            "the agent and hookd ran the hooks a different number of times"
        )
    assert compare(case, agent, hookd) == [], json.dumps(hookd, indent=1)[:3000]
