"""The real agents' suites: they fail (never skip) when an agent or the network
namespace cannot be had, with what to do about it."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

AGENTS = Path(__file__).parent
VERSIONS = json.loads((AGENTS / "versions.json").read_text())
AGENTS_DIR = Path(os.environ.get("HOOKD_AGENTS_DIR", Path.home() / ".cache" / "hookd-agents"))


@pytest.fixture(scope="session")
def claude_bin() -> str:
    version = VERSIONS["claude-code"]
    binary = (
        AGENTS_DIR / f"claude-code-{version}/node_modules/@anthropic-ai/claude-code/bin/claude.exe"
    )
    if not binary.is_file() or binary.stat().st_size < 1_000_000:
        pytest.fail(
            f"Claude Code {version} is not installed at {binary}: run tests/agents/install.sh "
            "(it installs the pinned agents from the npm registry)",
            pytrace=False,
        )
    return str(binary)


@pytest.fixture(scope="session")
def netns() -> None:
    from agents.harness.netns import check_netns

    try:
        check_netns()
    except RuntimeError as exc:
        pytest.fail(str(exc), pytrace=False)
