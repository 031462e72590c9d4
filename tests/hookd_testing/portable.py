"""Portable hooks in tests: the user's portable file, and hooks written once in Claude
Code's format, as a user would write them for every agent."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from . import claude_settings, command, write_json

BASH_GUARD = command("echo 'no rm -rf' >&2; exit 2")
"""A shell guard (matcher ``Bash``): Claude's exit 2 with the reason on stderr."""

ENV_GUARD = command(
    'python3 -c "import json,sys; e=json.load(sys.stdin); '
    "p=e['tool_input'].get('file_path') or ''; "
    "sys.exit(0) if not p.endswith('/.env') else (print('no writes to .env', file=sys.stderr), "
    'sys.exit(2))"'
)
"""A guard on writes to ``.env`` (matcher ``Write|Edit``), by ``tool_input.file_path``."""

SAYS_WHAT_IT_GOT = command(
    "python3 -c \"import json,sys; e=json.load(sys.stdin); t=e.get('tool_input') or {}; "
    "print(json.dumps({'hookSpecificOutput': {'hookEventName': e['hook_event_name'], "
    "'additionalContext': json.dumps([e['tool_name'], e['hookd_agent_tool'], "
    "e['hookd_agent_event'], t.get('file_path'), sorted(t)])}}))\""
)
"""A tool hook whose context is what it was given: ``[tool_name, hookd_agent_tool,
hookd_agent_event, tool_input.file_path, the tool_input's keys]``."""


def user_portable(home: Path, settings: dict[str, Any]) -> None:
    """The user's portable hooks (``~/.config/hookd/hooks.json``)."""
    write_json(home / ".config" / "hookd" / "hooks.json", settings)


def answer(out: dict[str, Any]) -> dict[str, Any]:
    """A hook that answers ``out`` (Claude's JSON) on stdout."""
    return command(f"printf '%s\\n' '{json.dumps(out)}'")


def specific(event: str, **fields: Any) -> dict[str, Any]:
    """A hook that answers ``hookSpecificOutput`` with ``fields`` for ``event``."""
    return answer({"hookSpecificOutput": {"hookEventName": event, **fields}})


def got(result: dict[str, Any]) -> list[Any]:
    """What ``SAYS_WHAT_IT_GOT`` was given, from a fire's context."""
    context = result["context"]
    assert isinstance(context, str), result
    value = json.loads(context)
    assert isinstance(value, list)
    return value


def warned(result: dict[str, Any], *words: str) -> bool:
    """Whether one of the fire's warnings names every one of ``words``."""
    return any(all(word in w for word in words) for w in result["warnings"])


async def shell_guard_case(
    rpc: Any, agent: str, workspace: Path, shell: dict[str, Any], other: dict[str, Any]
) -> None:
    """Issue 27's first case in one agent that reads Claude's PreToolUse JSON: the portable
    ``BASH_GUARD`` (matcher ``Bash``) denies the agent's shell tool, its reason in the
    agent's own answer, and does not run on ``other`` (another tool)."""
    user_portable(Path(os.environ["HOME"]), claude_settings("PreToolUse", BASH_GUARD,
                                                            matcher="Bash"))  # fmt: skip

    result = await rpc.fire(agent, "PreToolUse", [str(workspace)], shell)
    passed = await rpc.fire(agent, "PreToolUse", [str(workspace)], other)

    assert result["blocked"] is True, result
    assert result["reason"] == "no rm -rf"
    assert result["native"]["hookSpecificOutput"] == {
        "hookEventName": "PreToolUse", "permissionDecision": "deny",
        "permissionDecisionReason": "no rm -rf",
    }  # fmt: skip
    assert passed["blocked"] is False
    assert passed["hooks"] == []


def tool_call(workspace: Path, tool: str, tool_input: dict[str, Any]) -> dict[str, Any]:
    """A tool event's payload in the envelope Claude's copies share."""
    return {"session_id": "s", "cwd": str(workspace), "tool_name": tool, "tool_input": tool_input}


def echo_input(*keys: str) -> str:
    """A hook answering, as its context, the JSON list of these payload fields
    (``tool_input`` ...), so a test reads what the portable hook was given."""
    picked = ", ".join(f"e[{key!r}]" for key in keys)
    return (
        'python3 -c "import json,sys; e=json.load(sys.stdin); '
        "print(json.dumps({'hookSpecificOutput': {'hookEventName': e['hook_event_name'], "
        f"'additionalContext': json.dumps([{picked}])}}}}))\""
    )


ENV_PATH_GUARD = (
    'python3 -c "import json,sys; e=json.load(sys.stdin); '
    "p=e['tool_input'].get('file_path',''); "
    "sys.exit(0) if not p.endswith('.env') else (print('not '+p, file=sys.stderr), sys.exit(2))\""
)
"""A Write/Edit guard whose reason is the path it refused (``not <file_path>``): shows the
path the agent's relative one became."""
