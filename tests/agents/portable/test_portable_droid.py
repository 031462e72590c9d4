"""The portable-hooks matrix in the real Factory Droid 0.225.2 (issue 27, phase B): the
shared portable hooks file (``agents.portable.matrix``) in the user's ``~/.config/hookd``,
the relay installed by the real ``hookd relay install --agent droid`` (no hooks adopted:
the entries in ``~/.factory/settings.json`` are there for the portable hooks alone), hookd
serving, and ONE Droid session (the suite's harness: a JSON-RPC session, where
UserPromptSubmit fires, in a loopback-only namespace, the model scripted) that goes
through every case:

1. ``rm -rf`` in the shell (``Execute``, Bash to the hook): denied, the reason in the tool
   result the model is sent;
2. ``Create`` of ``.env`` (Write to the hook): denied;
3. SessionStart and UserPromptSubmit contexts reach the model;
4. ``Edit`` of ``notes.txt`` (Droid's ``old_str``/``new_str``, Claude's ``old_string``/
   ``new_string`` to the hook): PostToolUse gives the hook that file's path;
5. the marker command rewritten (``updatedInput``, which Droid merges into the tool
   input on PreToolUse): the rewritten command ran.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from agents.droid.cases import DONE, Case, Does, execute
from agents.droid.test_droid_agent import run_agent, setup_case, tool_results
from agents.harness.relayed import serving
from agents.portable.layers import assert_once_per_event, relay_install, write_project_recorder
from agents.portable.matrix import (
    ENV_REASON,
    ORIGINAL,
    PROMPT_CONTEXT,
    REWRITTEN,
    RMRF_REASON,
    SESSION_CONTEXT,
    rewrite_command,
    rmrf_command,
    write_portable_hooks,
)
from hookd.daemon.settings import Settings


async def test_the_portable_hooks_in_droid(
    droid_bin: str, netns: None, settings: Settings, tmp_path: Path
) -> None:
    bare = Case("portable-matrix", "the matrix's five cases in one session", (), Does(),
                rpc=True)  # fmt: skip
    places = setup_case(bare, tmp_path / "matrix")
    ws = places["ws"]
    out, notes = ws / "out", ws / "notes.txt"
    notes.write_text("a note\n")
    case = replace(bare, turns=(
        execute(rmrf_command(ws)),
        {"tool": "Create", "args": {"file_path": str(ws / ".env"), "content": "SECRET=1"}},
        {"tool": "Edit", "args": {"file_path": str(notes), "old_str": "a note",
                                  "new_str": "an edited note"}},
        execute(rewrite_command(out)),
        DONE,
    ))  # fmt: skip
    portable = write_portable_hooks(places["home"])
    said = await relay_install("droid", places["home"])
    assert "relaying PostToolUse, PreToolUse, SessionStart, UserPromptSubmit" in said, said
    # the project's relay entries too (a Bash recorder in its portable file): the agent
    # runs both layers' entries, the portable hooks must still run once per event
    project_runs = tmp_path / "project-runs"
    write_project_recorder(ws, project_runs)
    said = await relay_install("droid", places["home"], "--scope", "project", "--project", str(ws))
    assert "relaying PreToolUse" in said, said

    async with serving(settings, places["home"]) as env:
        agent = await run_agent(case, places, droid_bin, env)

    results = tool_results(agent)
    sent = json.dumps(agent["requests"])
    # 1. the shell guard: the folder is still there, the model read the reason
    assert (ws / "victim" / "keep").exists()
    assert RMRF_REASON in results[0], results
    assert portable.agents("rmrf") == {"droid"}
    # 2. the .env guard: no file, the reason in the tool result
    assert not (ws / ".env").exists()
    assert ENV_REASON in results[1], results
    (env_run,) = [r for r in portable.runs("env") if r["hookd_agent_tool"] == "Create"]
    assert (env_run["tool_name"], env_run["tool_input"]["file_path"]) == ("Write", str(ws / ".env"))
    # 3. the session's and the prompt's contexts reach the model
    assert SESSION_CONTEXT in sent
    assert PROMPT_CONTEXT in sent
    # 4. after the edit, the post-edit hook got the edited file's path, in Claude's keys
    assert notes.read_text() == "an edited note\n"
    assert portable.edited() == [str(notes)]
    (edit_run,) = portable.runs("post-edit")
    assert (edit_run["tool_name"], edit_run["hookd_agent_tool"]) == ("Edit", "Edit")
    assert edit_run["tool_input"]["old_string"] == "a note"
    # 5. the rewrite is applied: the command that ran wrote the rewritten marker
    assert out.read_text().strip() == REWRITTEN
    assert ORIGINAL not in out.read_text()
    # each hook ran once per event, though both layers' relay entries fired
    assert_once_per_event(settings, "droid", "Execute", portable, project_runs)
