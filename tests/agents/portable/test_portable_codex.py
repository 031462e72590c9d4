"""The portable-hooks matrix in the real Codex CLI 0.171.0 (issue 27, phase B): the shared
portable hooks file (``agents.portable.matrix``) in the user's ``~/.config/hookd``, the
relay installed by the real ``hookd relay install --agent codex`` (no hooks adopted: the
entries are there for the portable hooks alone, pinned as reviewed so Codex runs them),
hookd serving, and ONE Codex session (the suite's harness: ``codex app-server`` in a
loopback-only namespace, the model scripted) that goes through every case:

1. ``rm -rf`` in the shell (``exec_command``, Bash to the hook): denied, the reason in the
   tool output the model is sent;
2. ``apply_patch`` adding ``.env`` (Write to the hook, with its ``file_path``): denied;
3. SessionStart and UserPromptSubmit contexts: developer messages the model is sent;
4. ``apply_patch`` adding ``notes.txt``: PostToolUse gives the hook that file's path;
5. the marker command rewritten (``updatedInput``, which Codex applies on PreToolUse): the
   rewritten command ran.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from agents.codex.cases import Case, Does
from agents.codex.test_codex_agent import _setup, hook_messages, run_agent, tool_outputs
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


def _patch(name: str, text: str) -> dict[str, str]:
    """An ``apply_patch`` call adding ``name`` (relative to the session's folder)."""
    return {"custom": "apply_patch",
            "input": f"*** Begin Patch\n*** Add File: {name}\n+{text}\n*** End Patch\n"}  # fmt: skip


async def test_the_portable_hooks_in_codex(
    codex_bin: str, netns: None, settings: Settings, tmp_path: Path
) -> None:
    bare = Case("portable-matrix", "the matrix's five cases in one session", (), Does())
    places = _setup(bare, tmp_path / "matrix", reviewed=False)
    ws = places["ws"]
    out = ws / "out"
    case = replace(bare, turns=(
        {"tool": "exec_command", "args": {"cmd": rmrf_command(ws)}},
        _patch(".env", "SECRET=1"),
        _patch("notes.txt", "a note"),
        {"tool": "exec_command", "args": {"cmd": rewrite_command(out)}},
        {"text": "done."},
    ))  # fmt: skip
    portable = write_portable_hooks(places["home"])
    said = await relay_install("codex", places["home"])
    assert "relaying PostToolUse, PreToolUse, SessionStart, UserPromptSubmit" in said, said
    # the project's relay entries too (a Bash recorder in its portable file): the agent
    # runs both layers' entries, the portable hooks must still run once per event
    project_runs = tmp_path / "project-runs"
    write_project_recorder(ws, project_runs)
    said = await relay_install("codex", places["home"], "--scope", "project", "--project", str(ws))
    assert "relaying PreToolUse" in said, said

    async with serving(settings, places["home"]) as env:
        agent = await run_agent(case, places, codex_bin, env)

    outputs = tool_outputs(agent["requests"])
    # 1. the shell guard: the folder is still there, the model read the reason
    assert (ws / "victim" / "keep").exists()
    assert RMRF_REASON in outputs[0], outputs
    assert portable.agents("rmrf") == {"codex"}
    # 2. the .env guard: no file, the reason in the patch's output
    assert not (ws / ".env").exists()
    assert ENV_REASON in outputs[1], outputs
    (env_run,) = [r for r in portable.runs("env") if ".env" in str(r["tool_input"])]
    assert (env_run["tool_name"], env_run["hookd_agent_tool"]) == ("Write", "apply_patch")
    assert env_run["tool_input"]["file_path"] == str(ws / ".env")
    # 3. the session's and the prompt's contexts reach the model
    developer = "\n".join(hook_messages(agent["requests"]))
    assert SESSION_CONTEXT in developer, developer
    assert PROMPT_CONTEXT in developer, developer
    # 4. after the edit, the post-edit hook got the edited file's path (once: one entry)
    assert (ws / "notes.txt").read_text() == "a note\n"
    assert portable.edited() == [str(ws / "notes.txt")]
    # 5. the rewrite is applied: the command that ran wrote the rewritten marker
    assert out.read_text().strip() == REWRITTEN
    assert ORIGINAL not in out.read_text()
    # each hook ran once per event, though both layers' relay entries fired
    assert_once_per_event(settings, "codex", "Bash", portable, project_runs)
