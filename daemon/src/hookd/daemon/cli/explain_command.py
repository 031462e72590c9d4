"""``hookd explain``: which hooks a fire would run and why each other one would not.

The payload comes on stdin as for ``hookd fire`` (its matchers and ``if`` conditions are
compared with it); nothing is run. Uses only ``hookd.client``, as the other client
commands do.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from hookd.client import Client

from .client_commands import _current_folder, _read_payload, workspace_roots


def run_explain(args: argparse.Namespace) -> int:
    roots = workspace_roots(args.workspace) or [_current_folder()]
    payload = _read_payload(args)
    params = {"agent": args.agent, "event": args.event, "workspaceRoots": roots,
              "payload": payload, "relay": args.relay}  # fmt: skip
    with Client(args.socket, timeout_s=30.0) as client:
        explained = client.hooks_explain(params)
    if args.json:
        json.dump(explained, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(text(explained))
    return 0


def text(explained: dict[str, Any]) -> str:
    """The explanation for a person: a headline, a line per hook, then the problems."""
    agent, event = explained["agent"], explained["event"]
    mine = [h for h in explained["hooks"] if h["dialect"] == agent]
    others = [h for h in explained["hooks"] if h["dialect"] != agent]
    running = sum(1 for h in mine if h["runs"])
    where = ", ".join(explained["roots"]) or "no workspace"
    lines = [f"{event} for {agent} in {where}: {running} of {len(mine)} hook(s) would run"]
    lines += [_hook_line(h) for h in mine]
    if others:
        lines.append("other agents' hooks for this event (not run by this fire):")
        lines += [_hook_line(h) for h in others]
    lines += [f"error: [{e['dialect']}] {e['source']}: {e['error']}" for e in explained["errors"]]
    lines += [f"warning: {w}" for w in explained["warnings"]]
    if not explained["hooks"] and not explained["errors"]:
        lines.append(f"no hook is declared for {event} in these places: 'hookd hooks "
                     "--workspace DIR' lists every hook and where it comes from")  # fmt: skip
    return "\n".join(lines) + "\n"


def _hook_line(hook: dict[str, Any]) -> str:
    state = "runs   " if hook["runs"] else "not run"
    filters = "".join(f" ({key} {hook[key]})" for key in ("matcher", "if") if hook[key])
    whose = "portable" if hook.get("portable") else hook["dialect"]
    where = f"[{whose}] {hook['layer']} {hook['source']}"
    line = f"  {state} {where}: {hook['command']}{filters}"
    return line if hook["runs"] else f"{line}\n           why: {hook['why']}"
