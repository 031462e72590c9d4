"""The agent versions hookd is tested against, for ``hookd doctor`` to compare the agents
on ``PATH`` with. ``tests/agents/versions.json`` (what ``tests/agents/install.sh``
installs) is the source; ``tests/cli/test_doctor_pins.py`` holds this table equal to it."""

from __future__ import annotations

import platform
import sys
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Pin:
    key: str
    """The agent's name in ``versions.json``."""
    program: str
    """The command on ``PATH`` (both Cline runners are ``cline``)."""
    version: str
    package: str
    """The npm package ``install.sh`` installs it from (``{platform}``: this machine's)."""

    def install_command(self) -> str:
        return f"npm install -g {self.package.format(platform=npm_platform())}@{self.version}"


PINS = (
    Pin("claude-code", "claude", "2.1.328", "@anthropic-ai/claude-code"),
    Pin("cline-sdk", "cline", "3.0.65", "cline"),
    Pin("cline", "cline", "2.18.0", "cline"),
    Pin("auggie", "auggie", "0.36.0", "@augmentcode/auggie"),
    Pin("codex", "codex", "0.171.0", "@openai/codex"),
    Pin("gemini", "gemini", "0.61.0", "@google/gemini-cli"),
    Pin("copilot", "copilot", "1.0.102", "@github/copilot"),
    Pin("droid", "droid", "0.225.2", "@factory/cli-{platform}"),
    Pin("qwen", "qwen", "0.24.4", "@qwen-code/qwen-code"),
)


def npm_platform() -> str:
    """``linux-x64``, ``darwin-arm64``...: the suffix of an agent's platform package."""
    system = "darwin" if sys.platform == "darwin" else "linux"
    arm = platform.machine().lower() in ("aarch64", "arm64")
    return f"{system}-{'arm64' if arm else 'x64'}"
