"""The portable-hooks matrix in the real auggie 0.36.0 (issue 27, phase B): the matrix's
one portable hooks file, ``hookd relay install --agent augment`` (in
``~/.augment/settings.json`` a ``.*`` relay group per tool event and an unmatched one per
other event, nothing else), hookd serving, the agent driven by its suite's harness (the
fake Augment backend scripts the tool calls), in one session: a deny lets auggie go on.

The cells: 1 ``rm -rf`` denied, the reason in the tool result the model is sent; 2 the
``.env`` ``save-file`` denied likewise; 3 cannot: auggie drops SessionStart's context
and never awaits PromptSubmit, the fires warn that the context is not carried; 4 the
post-edit hook gets the edited file's path after ``save-file`` and
``str-replace-editor``; 5 the rewrite is applied (``updatedInput``)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import trio

from agents.augment.test_augment_agent import HARNESS, _tool_results
from agents.harness.netns import netns_argv
from agents.harness.relayed import serving
from agents.portable import matrix
from agents.portable.relay_installed import installed
from hookd.daemon.settings import Settings

AGENT = "augment"
TAG = "case:portable"


def _shell(command: str, ws: Path) -> dict[str, Any]:
    return {"tool": "launch-process",
            "input": {"command": command, "wait": True, "max_wait_seconds": 30, "cwd": str(ws)}}  # fmt: skip


async def _run(auggie: str, places: dict[str, Path], turns: list[dict[str, Any]],
               env: dict[str, str]) -> list[dict[str, Any]]:  # fmt: skip
    """One auggie session (``drive_augment.py`` in the namespace); the tagged requests."""
    run = {"auggie": auggie, "home": str(places["home"]), "project": str(places["ws"]),
           "prompt": f"{TAG} do the task", "turns": {"portable": turns}, "env": env,
           "timeout": 90, "args": []}  # fmt: skip
    (places["run"] / "run.json").write_text(json.dumps(run))
    argv = netns_argv([sys.executable, str(HARNESS / "drive_augment.py"), str(places["run"])])
    driven = await trio.run_process(argv, capture_stdout=True, capture_stderr=True, check=False)
    assert driven.returncode == 0, driven.stderr.decode(errors="replace")[-2000:]
    observation = json.loads((places["run"] / "observation.json").read_text())
    assert observation["exit"] == 0, (places["run"] / "agent.stderr").read_text()[-2000:]
    log = places["run"] / "requests.jsonl"
    requests = [json.loads(line) for line in log.read_text().splitlines()]
    return [r for r in requests if TAG in json.dumps(r)]


async def test_the_portable_hooks_in_auggie(
    auggie_bin: str, netns: None, settings: Settings, tmp_path: Path
) -> None:
    places = {n: tmp_path / "case" / n for n in ("home", "ws", "run")}
    for path in places.values():
        path.mkdir(parents=True)
    ws, home = places["ws"], places["home"]
    portable = await installed(AGENT, home, ws)
    notes, out = ws / "notes.txt", ws / "out.txt"
    edit = {"command": "str_replace", "path": "notes.txt", "str_replace_entries": [
        {"old_str": "first", "new_str": "second", "old_str_start_line_number": 1,
         "old_str_end_line_number": 1}]}  # fmt: skip
    turns = [
        {"tool": "save-file", "input": {"path": "notes.txt", "file_content": "first\n"}},
        {"tool": "str-replace-editor", "input": edit},
        {"tool": "save-file", "input": {"path": ".env", "file_content": "SECRET=1\n"}},
        _shell(matrix.rmrf_command(ws), ws),
        _shell(matrix.rewrite_command(out), ws),
        {"text": "done"},
    ]

    async with serving(settings, home) as env:
        requests = await _run(auggie_bin, places, turns, env)

    results = _tool_results(requests)
    assert len(results) == 5, results
    # 1: rm -rf denied; the model is sent the reason as the tool's result
    assert (ws / "victim" / "keep").exists()
    assert matrix.RMRF_REASON in results[3]
    # 2: the .env save-file denied likewise
    assert not (ws / ".env").exists()
    assert matrix.ENV_REASON in results[2]
    env_run = portable.runs("env")[-1]
    assert (env_run["hookd_agent_tool"], env_run["tool_name"]) == ("save-file", "Write")
    assert env_run["tool_input"]["file_path"] == str(ws / ".env")
    # 3: cannot: SessionStart's context is dropped, PromptSubmit not awaited; the fires say so
    sent = json.dumps(requests)
    assert matrix.PROMPT_CONTEXT not in sent
    assert matrix.SESSION_CONTEXT not in sent
    for event, shared in (("SessionStart", "SessionStart"), ("PromptSubmit", "UserPromptSubmit")):
        lost = matrix.fire_warnings(settings, AGENT, [event])
        assert len(lost) == 1, matrix.fire_warnings(settings, AGENT)
        assert f"answered context, which augment does not act on at {event} ({shared})" in lost[0]
    # 4: the post-edit hook, after save-file and str-replace-editor, with the path
    assert notes.read_text().strip() == "second"
    assert portable.edited() == [str(notes)] * 2
    save, replace = portable.runs("post-edit")
    assert (save["tool_name"], save["tool_input"]["content"]) == ("Write", "first\n")
    assert replace["tool_name"] == "Edit"  # auggie's schema: str_replace_entries, not old_str_1
    assert (replace["tool_input"]["old_string"], replace["tool_input"]["new_string"]) == (
        "first", "second")  # fmt: skip
    # 5: the rewrite applied: the command ran rewritten
    assert out.read_text().strip() == matrix.REWRITTEN
    # once per event: only the .* group (and the unmatched ones) ran the portable hooks
    matrix.assert_once_per_event(portable, AGENT, shell_calls=2)
