"""Where ``hookd fire`` gets its event when not from stdin: ``--replay N`` (a fire of the
audit log, its payload as kept there) and ``--example`` (a realistic payload to start
from, printed, not fired).

Reads the audit log from disk as ``hookd logs`` does (standard library only, no trio).
"""

from __future__ import annotations

import argparse
import json
import os
from dataclasses import dataclass
from typing import Any

from ..audit import audit_path, read_records, rotated_files
from ..errors import UserError
from ..settings import load_settings


@dataclass(frozen=True, slots=True)
class Replayed:
    agent: str
    event: str
    roots: list[str]
    payload: dict[str, Any]


def logged_fire(config: str | None, number: int) -> dict[str, Any]:
    """Fire ``number`` of the audit log (the newest record with that number, since the
    numbers restart with the daemon; -1: the newest fire)."""
    settings = load_settings(config)
    path = audit_path(settings.state_dir)
    found: dict[str, Any] | None = None
    for name in [*rotated_files(path, settings.audit_keep)[:-1], path]:
        if os.path.exists(name):
            for record in read_records(name):
                if record.get("type") == "fire" and number in (record.get("seq"), -1):
                    found = record
    if found is None:
        what = "fire" if number < 0 else f"fire #{number}"
        raise UserError(f"no {what} in {path}: 'hookd logs' lists the fires with their "
                        "numbers")  # fmt: skip
    return found


def replayed(args: argparse.Namespace) -> Replayed:
    """Fire ``args.replay`` of the audit log again, as it was kept there."""
    found = logged_fire(args.config, args.replay)
    args.replay = found.get("seq")
    text = found.get("payload")
    if not isinstance(text, str):
        size = found.get("payloadBytes")
        why = (f"its payload ({size} bytes) is over audit_payload_max_bytes" if size
               else "its payload was not kept (audit_payload_max_bytes is 0, or the record "
               "is from an older hookd)")  # fmt: skip
        raise UserError(f"cannot replay fire #{args.replay}: {why}; pipe the event to "
                        "'hookd fire' instead")  # fmt: skip
    if args.agent and args.agent != found.get("agent"):
        raise UserError(f"fire #{args.replay} was {found.get('agent')}'s, not {args.agent}'s: "
                        "leave --agent out to replay it as it was")  # fmt: skip
    payload = json.loads(text)
    roots = [str(r) for r in found.get("roots") or []]
    return Replayed(str(found["agent"]), args.event or str(found["event"]), roots, payload)


_TOOL = {
    "claude": ("tool_name", "Bash", "tool_input", {"command": "rm -rf build"}),
    "codex": ("tool_name", "Bash", "tool_input", {"command": "rm -rf build"}),
    "gemini": ("tool_name", "run_shell_command", "tool_input", {"command": "rm -rf build"}),
    "augment": ("tool_name", "launch-process", "tool_input", {"command": "rm -rf build"}),
    "copilot": ("toolName", "bash", "toolArgs", json.dumps({"command": "rm -rf build"})),
    "qwen": ("tool_name", "run_shell_command", "tool_input", {"command": "rm -rf build"}),
    "droid": (
        "tool_name",
        "Execute",
        "tool_input",
        {"command": "rm -rf build", "riskLevel": "high", "riskLevelReason": "deletes"},
    ),
}
"""Each agent's names for the tool of a tool event, and a shell command as its input."""


def example(agent: str, event: str, cwd: str) -> dict[str, Any]:
    """A realistic payload of ``event`` for ``agent``: the fields the agent sends, a shell
    command for tool events, made-up ids."""
    tool = "tool" in event.lower()
    if agent in ("cline", "cline-sdk"):
        key = event[0].lower() + event[1:]
        body: dict[str, Any] = {"toolName": "execute_command",
                                "parameters": {"command": "rm -rf build"}}  # fmt: skip
        body = body if tool else {}
        common = {
            "clineVersion": "3.0.65",
            "hookName": event,
            "timestamp": "1764201600000",
            "taskId": "example-task",
            "workspaceRoots": [cwd],
            "userId": "example-user",
        }
        if agent == "cline-sdk" and tool:  # the SDK's tool_call / tool_result, its shell tool
            name = "tool_call" if event == "PreToolUse" else "tool_result"
            call = {"id": "example-call", "name": "run_commands",
                    "input": {"commands": ["rm -rf build"]}}  # fmt: skip
            return {**common, "hookName": name, "iteration": 1, name: call}
        return {**common, key: body}
    payload: dict[str, Any]
    if agent == "copilot" and event[0].isupper():
        agent = "claude"  # Copilot CLI sends its PascalCase events Claude Code's payload
    if agent == "copilot":
        payload = {"timestamp": 1764201600000, "cwd": cwd}
    elif agent == "augment":
        payload = {"hook_event_name": event, "conversation_id": "example-conversation",
                   "workspace_roots": [cwd]}  # fmt: skip
    else:
        payload = {"session_id": "example-session", "transcript_path":
                   os.path.join(cwd, "example-transcript.jsonl"), "cwd": cwd,
                   "hook_event_name": event}  # fmt: skip
    if tool and agent in _TOOL:
        name_key, name, input_key, value = _TOOL[agent]
        payload[name_key] = name
        payload[input_key] = value
    lowered = event.lower()
    if "prompt" in lowered:
        payload["prompt"] = "remove the build folder"
    if lowered in ("stop", "subagentstop", "agentstop"):
        payload["stop_hook_active"] = False
    if lowered == "sessionstart":
        payload["source"] = "startup"
    return payload
