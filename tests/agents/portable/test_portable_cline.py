"""The portable-hooks matrix in Cline's real original runner, 2.18.0 (issue 27, phase B):
the matrix's one portable hooks file, ``hookd relay install --agent cline`` (a relay file
per event in the global ``Cline/Hooks`` folder, nothing else), hookd serving, the agent
driven by its suite's harness (the fake model writes Cline's XML tool calls).

A cancel ends Cline's whole task, so the two guards take one session each: the first
session holds the contexts, the post-edit hook (``write_to_file`` and
``replace_in_file``), the rewrite and the ``rm -rf`` guard (its last tool call); the
second the ``.env`` guard.

The cells: 1 ``rm -rf`` blocked, the reason the cancel's ``errorMessage`` (the fire's,
in hookd's log; Cline streams it to the user as the hook's output) — the model never
sees it: Cline cancels the whole task on a PreToolUse cancel and sends no further
request (no deny-and-go-on); 2 ``.env`` blocked likewise; 3 TaskStart's and
UserPromptSubmit's contexts in the first request; 4 the post-edit hook gets the edited
file's absolute path; 5 cannot: Cline applies no rewrite, the fire warns that
``updatedInput`` is not carried and the command runs as sent."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from agents.cline.test_cline_agent import UNTIL
from agents.harness.cline_cases import run_agent, strings
from agents.harness.relayed import serving
from agents.portable import matrix
from agents.portable.relay_installed import cline_case
from hookd.daemon.settings import Settings

AGENT = "cline"


def _xml(tool: str, **params: str) -> dict[str, str]:
    body = "".join(f"<{k}>{v}</{k}>\n" for k, v in params.items())
    return {"text": f"<{tool}>\n{body}</{tool}>"}


def _run(cline: str, tag: str, turns: list[dict[str, str]]) -> dict[str, Any]:
    return {
        "cline": cline, "version": "core", "tag": f"case:{tag}",
        "argv": ["task", "-y", "--json", f"case:{tag} do the task"],
        "turns": {tag: turns}, "until": UNTIL, "grace": 1.0, "timeout": 60,
    }  # fmt: skip


async def test_the_portable_hooks_in_cline(
    cline_bin: str, netns: None, settings: Settings, tmp_path: Path
) -> None:
    places, portable = await cline_case(AGENT, tmp_path / "case")
    ws, home = places["ws"], places["home"]
    out = ws / "out.txt"
    edit = "------- SEARCH\nfirst\n=======\nsecond\n+++++++ REPLACE"
    session = [
        _xml("write_to_file", path="notes.txt", content="first\n"),
        _xml("replace_in_file", path="notes.txt", diff=edit),
        _xml("execute_command", command=matrix.rewrite_command(out), requires_approval="false"),
        _xml("execute_command", command=matrix.rmrf_command(ws), requires_approval="false"),
        _xml("attempt_completion", result="all done"),
    ]
    guard = [_xml("write_to_file", path=".env", content="SECRET=1\n")]

    async with serving(settings, home) as env:
        first = await run_agent(places, {**_run(cline_bin, "portable", session), "env": env})
        again = {**places, "run": tmp_path / "second-run"}  # its own fake model
        again["run"].mkdir()
        second = await run_agent(again, {**_run(cline_bin, "portable-env", guard), "env": env})

    blocked = [(r["reason"], r["hooks"][0]["source"]) for r in matrix.fire_records(settings)
               if r["agent"] == AGENT and r["event"] == "PreToolUse" and r["blocked"]]  # fmt: skip
    # 1: rm -rf blocked with its reason (Cline's errorMessage); the task ends there
    assert (ws / "victim" / "keep").exists()
    assert blocked[0] == (matrix.RMRF_REASON, str(portable.file))
    assert len(first["requests"]) == 4  # the prompt and three tool results, nothing after
    assert matrix.RMRF_REASON not in "\n".join(strings(first["requests"]))
    # 2: the .env write blocked
    assert not (ws / ".env").exists()
    assert blocked[1:] == [(matrix.ENV_REASON, str(portable.file))]
    assert len(second["requests"]) == 1
    assert [r["tool_input"]["file_path"] for r in portable.runs("env")][-1] == str(ws / ".env")
    # 3: TaskStart's and UserPromptSubmit's contexts reach the model's first request
    opening = "\n".join(strings(first["requests"][:1]))
    assert matrix.SESSION_CONTEXT in opening
    assert matrix.PROMPT_CONTEXT in opening
    # 4: the post-edit hook, after write_to_file and replace_in_file, with the path
    assert (ws / "notes.txt").read_text().strip() == "second"
    assert portable.edited() == [str(ws / "notes.txt")] * 2
    write, replace = portable.runs("post-edit")
    assert (write["hookd_agent_tool"], write["tool_name"]) == ("write_to_file", "Write")
    assert write["tool_input"]["content"].strip() == "first"
    assert (replace["hookd_agent_tool"], replace["tool_name"]) == ("replace_in_file", "Edit")
    assert "SEARCH" in replace["tool_input"]["diff"]
    # 5: cannot: no rewrite in Cline; the fire says so and the command runs as sent
    assert out.read_text().strip() == matrix.ORIGINAL
    assert matrix.REWRITTEN not in out.read_text()
    lost = [w for w in matrix.fire_warnings(settings, AGENT, ["PreToolUse"]) if "updatedInput" in w]
    assert len(lost) == 1, matrix.fire_warnings(settings, AGENT)
    assert "cline does not act on at PreToolUse (PreToolUse): not carried" in lost[0]
    # once per event: one relay file (the global folder's) ran each portable hook
    assert len(portable.runs("session")) == 2  # one task each
    assert len(portable.runs("prompt")) == 2
    assert len(portable.runs("rmrf")) == 2  # the two commands
    assert portable.agents("rmrf") == {AGENT}
