"""The README's portable guard, as printed there, guards each agent hookd speaks."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from hookd.daemon.all_dialects import PORTABLE
from hookd.daemon.cli.fire_inputs import example

README = Path(__file__).resolve().parents[3] / "README.md"


def readme_guard() -> dict:
    text = README.read_text()
    found = re.search(r"<!-- portable-example -->\n```json\n(.*?)\n```", text, re.S)
    assert found, "the README's portable example is gone"
    return json.loads(found.group(1))


@pytest.mark.skipif(shutil.which("jq") is None, reason="the README's guard uses jq")
@pytest.mark.parametrize("agent", sorted(d.value for d in PORTABLE))
async def test_the_readme_guard_blocks_rm_rf_in_every_agent(
    agent: str, rpc, workspace, isolated_home
) -> None:
    guard = isolated_home / ".config" / "hookd" / "hooks.json"
    guard.parent.mkdir(parents=True)
    guard.write_text(json.dumps(readme_guard()))
    mapping = next(m for d, m in PORTABLE.items() if d.value == agent)
    event = next(own for own, shared in mapping.EVENTS.items() if shared == "PreToolUse")
    payload = example(agent, event, str(workspace))  # a shell tool running "rm -rf build"
    assert "rm -rf build" in json.dumps(payload)
    safe = json.loads(json.dumps(payload).replace("rm -rf build", "ls build"))

    blocked = await rpc.fire(agent, event, [str(workspace)], payload)
    passed = await rpc.fire(agent, event, [str(workspace)], safe)

    assert blocked["blocked"] is True, blocked
    assert f"rm -rf is not allowed ({agent})" in blocked["reason"]  # Copilot words it its way
    assert passed["blocked"] is False
