"""The portable hooks of the real-agent matrix (``matrix.py`` writes the hooks file that
runs them): one script, the case named by its first argument, standard library only. Each
run appends the Claude-shaped payload it was given to ``<record>/<case>.jsonl`` and
answers in Claude's hook format, as a user's portable hook would (``record``: a hook that
only records, for a second file's hooks)."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

RMRF_REASON = "PORTABLE-GUARD: rm -rf is not allowed here"
ENV_REASON = "PORTABLE-GUARD: .env files are not to be written"
PROMPT_CONTEXT = "PORTABLE-PROMPT-CONTEXT: the team's prompt note"
SESSION_CONTEXT = "PORTABLE-SESSION-CONTEXT: the team's session note"
ORIGINAL = "PORTABLE-ORIGINAL"
REWRITTEN = "PORTABLE-REWRITTEN"


def _pre(**fields: Any) -> dict[str, Any]:
    return {"hookSpecificOutput": {"hookEventName": "PreToolUse", **fields}}


def answer(case: str, event: dict[str, Any]) -> dict[str, Any] | None:
    """What the hook of ``case`` answers to ``event`` (None: nothing to say)."""
    tool_input = event.get("tool_input") or {}
    if case == "rmrf":
        command = str(tool_input.get("command", ""))
        if re.search(r"\brm\s+-[a-zA-Z]*r[a-zA-Z]*f|\brm\s+-[a-zA-Z]*f[a-zA-Z]*r", command):
            return _pre(permissionDecision="deny", permissionDecisionReason=RMRF_REASON)
        return None
    if case == "env":
        name = Path(str(tool_input.get("file_path", ""))).name
        if name == ".env" or name.startswith(".env."):
            return _pre(permissionDecision="deny", permissionDecisionReason=ENV_REASON)
        return None
    if case == "rewrite":
        command = str(tool_input.get("command", ""))
        if ORIGINAL not in command:
            return None
        updated = {**tool_input, "command": command.replace(ORIGINAL, REWRITTEN)}
        return _pre(permissionDecision="allow", updatedInput=updated)
    if case in ("prompt", "session"):
        context = PROMPT_CONTEXT if case == "prompt" else SESSION_CONTEXT
        name = "UserPromptSubmit" if case == "prompt" else "SessionStart"
        return {"hookSpecificOutput": {"hookEventName": name, "additionalContext": context}}
    if case in ("post-edit", "record"):
        return None
    raise SystemExit(f"hooks_script.py: no case {case!r}")


def main() -> int:
    case, record = sys.argv[1], Path(sys.argv[2])
    event = json.load(sys.stdin)
    record.mkdir(parents=True, exist_ok=True)
    with open(record / f"{case}.jsonl", "a", encoding="utf-8") as runs:
        runs.write(json.dumps(event) + "\n")
    said = answer(case, event)
    if said is not None:
        print(json.dumps(said))
    return 0


if __name__ == "__main__":
    sys.exit(main())
