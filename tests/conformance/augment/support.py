"""Shared pieces of the Augment conformance suite.

* ``Augment``: one test's world: the workspace, the isolated home, the system root (for
  ``/etc/augment/settings.json``), a ``bin`` folder of recording stubs put first on the
  hooks' ``PATH`` (passed in the fire's ``env``), and helpers to write settings files in
  each of the four layers and to fire events.
* ``hook``/``group``: an executable ``.sh`` script and a matcher group around scripts.
* ``params``: turns a table of cases into ``pytest.param`` objects with the strict xfail
  or skip each case declares.

``REFERENCE`` is ``augment-hooks.md``. The daemon of every test in this folder starts
with ``LEAKED`` in its own environment (see ``conftest.py``): no hook may ever see it.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hookd_testing import RpcClient, write_executable, write_json
from hookd_testing.cases import case_params

params = case_params
"""Shared by every conformance suite (``hookd_testing.cases``)."""

REFERENCE = "augment-hooks.md"
EXAMPLES = Path(__file__).parent / "examples"
DOCS = Path(__file__).resolve().parents[3] / "docs/sources/reference"
"""Where the reference documents live on the machines this suite was written on (the
verbatim checks skip when they are absent)."""

EVENTS = ("PreToolUse", "PostToolUse", "Stop", "SessionStart", "SessionEnd")
"""The five documented hook events (``Notification`` appears only as a possible
``hook_event_name`` value)."""
TOOL_EVENTS = ("PreToolUse", "PostToolUse")
LAYERS = ("system", "workspace-local", "workspace", "user")
"""Highest precedence first, as the settings table lists them."""

LEAKED = {
    "AUGMENT_PROJECT_DIR": "/leaked/project",
    "AUGMENT_CONVERSATION_ID": "leaked-conversation",
    "AUGMENT_HOOK_EVENT": "LeakedEvent",
    "AUGMENT_TOOL_NAME": "leaked-tool",
    "AUGMENT_API_TOKEN": "leaked-secret",
}
"""``AUGMENT_*`` variables in the daemon's own environment: they must never reach a hook."""

CONVERSATION = "conv-xyz789"
TOOL = {
    "conversation_id": CONVERSATION,
    "tool_name": "launch-process",
    "tool_input": {"command": "git status"},
    "is_mcp_tool": False,
}
MCP_TOOL = {
    "conversation_id": CONVERSATION,
    "tool_name": "search_my-server",
    "tool_input": {"query": "latest documentation"},
    "is_mcp_tool": True,
}


def base_payload(event: str) -> dict[str, Any]:
    """A minimal event as Augment sends it (common fields plus the event's own)."""
    if event in TOOL_EVENTS:
        extra = {"tool_output": "ok"} if event == "PostToolUse" else {}
        return {**TOOL, **extra}
    if event == "Stop":
        return {"conversation_id": CONVERSATION, "agent_stop_cause": "end_turn"}
    return {"conversation_id": CONVERSATION}


def hook(path: Path, body: str, shebang: str = "#!/bin/sh") -> Path:
    """An executable script (Augment runs a ``.sh`` directly; the shebang decides)."""
    return write_executable(path, f"{shebang}\n{body}\n")


def group(*scripts: Path | str, matcher: str | None = None, **fields: Any) -> dict[str, Any]:
    found: dict[str, Any] = {"hooks": [{"type": "command", "command": str(s)} for s in scripts]}
    if matcher is not None:
        found["matcher"] = matcher
    return {**found, **fields}


def example(name: str) -> Path:
    path = EXAMPLES / name
    assert path.is_file(), f"missing example {name}"
    return path


def example_json(name: str) -> Any:
    return json.loads(example(name).read_text())


@dataclass
class Augment:
    rpc: RpcClient
    ws: Path
    home: Path
    system: Path
    tmp: Path

    @property
    def bin(self) -> Path:
        path = self.tmp / "bin"
        path.mkdir(exist_ok=True)
        return path

    @property
    def hooks(self) -> Path:
        path = self.tmp / "hooks"
        path.mkdir(exist_ok=True)
        return path

    def settings_path(self, layer: str, root: Path | None = None) -> Path:
        """Where ``layer``'s settings file lives (``system`` under the test system root)."""
        root = root or self.ws
        return {
            "system": self.system / "etc" / "augment" / "settings.json",
            "workspace-local": root / ".augment" / "settings.local.json",
            "workspace": root / ".augment" / "settings.json",
            "user": self.home / ".augment" / "settings.json",
        }[layer]

    def write(self, layer: str, root: Path | None = None, **events: Any) -> Path:
        """A settings file in ``layer`` holding ``{"hooks": events}``."""
        return write_json(self.settings_path(layer, root), {"hooks": events})

    def script(self, name: str, body: str, shebang: str = "#!/bin/sh") -> Path:
        return hook(self.hooks / name, body, shebang)

    def install(self, name: str, dest: Path | None = None) -> Path:
        """Copy an example hook (verbatim, executable) to ``dest`` or the hooks folder."""
        target = dest or self.hooks / Path(name).name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(example(name), target)
        target.chmod(0o755)
        return target

    def stub(self, name: str, body: str) -> Path:
        """An executable on the hooks' ``PATH`` standing in for an external command."""
        return hook(self.bin / name, body)

    @property
    def env(self) -> dict[str, str]:
        return {"PATH": f"{self.bin}{os.pathsep}{os.environ.get('PATH', '')}"}

    async def fire(
        self,
        event: str,
        payload: Mapping[str, Any] | None = None,
        roots: list[str] | None = None,
        env: Mapping[str, str] | None = None,
        **extra: Any,
    ) -> dict[str, Any]:
        return await self.rpc.fire(
            "augment",
            event,
            [str(self.ws)] if roots is None else roots,
            dict(base_payload(event) if payload is None else payload),
            env={**self.env, **(env or {})},
            **extra,
        )


def commands(result: Mapping[str, Any]) -> list[str]:
    """The file names of the hooks a fire ran, in order."""
    return [Path(h["command"]).name for h in result["hooks"]]
