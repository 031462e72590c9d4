"""``hookd doctor`` against the real pinned agents (installed by tests/agents/install.sh):
each agent's ``--version`` read and matched against its pin."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from hookd.daemon.doctor.agent_pins import PINS
from hookd_testing.doctor import doctor, problems

AGENTS_DIR = Path(os.environ.get("HOOKD_AGENTS_DIR", Path.home() / ".cache" / "hookd-agents"))
"""Where ``tests/agents/install.sh`` installs the pinned agents (read before
``isolated_home`` moves HOME)."""
_BINS = {
    "claude-code": "node_modules/.bin", "auggie": "node_modules/.bin",
    "codex": "node_modules/.bin", "gemini": "node_modules/.bin",
    "copilot": "node_modules/.bin", "qwen": "node_modules/.bin",
    "droid": "node_modules/@factory/cli-linux-x64/bin", "cline-sdk": "node_modules/.bin",
    "cline": "node_modules/.bin",
}  # fmt: skip


def _agent_path(keys: list[str]) -> str:
    folders = [AGENTS_DIR / f"{pin.key}-{pin.version}" / _BINS[pin.key]
               for pin in PINS if pin.key in keys]  # fmt: skip
    missing = [str(f) for f in folders if not f.is_dir()]
    if missing:
        pytest.fail(
            f"the pinned agents are not installed ({missing[0]}): run tests/agents/install.sh",
            pytrace=False,
        )
    return os.pathsep.join([*map(str, folders), "/usr/bin", "/bin"])


@pytest.mark.parametrize("cline", ["cline-sdk", "cline"])
def test_the_pinned_agents_on_path_are_found_at_their_versions(cline) -> None:
    """Each real agent's ``--version``, as installed by tests/agents/install.sh; the two
    Cline runners (both ``cline``) one at a time."""
    keys = [pin.key for pin in PINS if pin.program != "cline"] + [cline]

    code, report = doctor(PATH=_agent_path(keys))

    agents = {f["details"]["program"]: f for f in report["findings"]
              if f["area"] == "agent" and f.get("details")}  # fmt: skip
    pinned = {pin.program: pin.version for pin in PINS if pin.key in keys}
    assert {p: f["details"]["version"] for p, f in agents.items()} == pinned
    assert {f["level"] for f in agents.values()} == {"ok"}
    assert code == 0 or problems(report)[0]["area"] != "agent"
