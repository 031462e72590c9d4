"""Claude Code plugins laid out as Claude Code 2.1.328 writes them (``claude plugin
install`` from a local directory marketplace; the real agent does the same in
tests/agents/claude ``[plugin-*]``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from . import write_json


def install(home: Path, market: Path, name: str, hooks: dict[str, Any], *,
            manifest: dict[str, Any] | None = None, enabled: bool | None = True,
            project: Path | None = None) -> Path:  # fmt: skip
    """A plugin of a directory marketplace, installed for the user (``project``: for that
    project only, as ``claude plugin install --scope project`` records it), and enabled in
    the user's settings (``enabled`` None: not named there)."""
    root = market / "plugins" / name
    write_json(root / "hooks" / "hooks.json", {"hooks": hooks})
    write_json(root / ".claude-plugin" / "plugin.json", {"name": name, **(manifest or {})})
    catalog = market / ".claude-plugin" / "marketplace.json"
    entries = json.loads(catalog.read_text())["plugins"] if catalog.exists() else []
    write_json(catalog, {"name": "local", "plugins": [*entries, {"name": name,
                                                                 "source": f"./plugins/{name}"}]})  # fmt: skip
    plugins = home / ".claude" / "plugins"
    installed = plugins / "installed_plugins.json"
    current = json.loads(installed.read_text())["plugins"] if installed.exists() else {}
    cache = plugins / "cache" / "local" / name / "1.0.0"
    entry: dict[str, Any] = {"scope": "user", "installPath": str(cache), "version": "1.0.0"}
    if project is not None:
        entry.update(scope="project", projectPath=str(project))
    current[f"{name}@local"] = [*current.get(f"{name}@local", []), entry]
    write_json(installed, {"version": 2, "plugins": current})
    write_json(plugins / "known_marketplaces.json", {"local": {
        "source": {"source": "directory", "path": str(market)}, "installLocation": str(market)}})  # fmt: skip
    if enabled is not None:
        user = home / ".claude" / "settings.json"
        settings = json.loads(user.read_text()) if user.exists() else {}
        settings.setdefault("enabledPlugins", {})[f"{name}@local"] = enabled
        write_json(user, settings)
    return root


def pre(handler: dict[str, Any]) -> dict[str, Any]:
    """A plugin's (or settings') hooks: ``handler`` on PreToolUse for Bash."""
    return {"PreToolUse": [{"matcher": "Bash", "hooks": [handler]}]}


async def fire(rpc: Any, workspace: Path) -> dict[str, Any]:
    """Claude Code's PreToolUse of a Bash call in ``workspace``, through ``rpc``."""
    result: dict[str, Any] = await rpc.fire(
        "claude", "PreToolUse", [str(workspace)], {"tool_name": "Bash", "tool_input": {}}
    )
    return result
