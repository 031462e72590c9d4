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


def _installed(key: str, relative: str, min_size: int = 0) -> str:
    """The pinned agent's executable, or a failure that says how to install it."""
    version = VERSIONS[key]
    binary = AGENTS_DIR / f"{key}-{version}" / relative
    if not binary.is_file() or binary.stat().st_size < min_size:
        pytest.fail(
            f"{key} {version} is not installed at {binary}: run tests/agents/install.sh "
            "(it installs the pinned agents from the npm registry)",
            pytrace=False,
        )
    return str(binary)


@pytest.fixture(scope="session")
def claude_bin() -> str:
    """Claude Code's native binary (the postinstall copies it; a placeholder is refused)."""
    return _installed(
        "claude-code", "node_modules/@anthropic-ai/claude-code/bin/claude.exe", 1_000_000
    )


@pytest.fixture(scope="session")
def cline_sdk_bin() -> str:
    """Cline 3.x: the SDK runner."""
    return _installed("cline-sdk", "node_modules/.bin/cline")


@pytest.fixture(scope="session")
def cline_bin() -> str:
    """Cline 2.x: the original runner (the VS Code extension core)."""
    return _installed("cline", "node_modules/.bin/cline")


@pytest.fixture(scope="session")
def auggie_bin() -> str:
    """Augment's CLI agent."""
    return _installed("auggie", "node_modules/.bin/auggie")


@pytest.fixture(scope="session")
def codex_bin() -> str:
    """Codex CLI's native binary, from its platform package (what the npm launcher
    ``bin/codex.js`` executes; run directly, the hooks see no launcher variables)."""
    target = "aarch64-unknown-linux-musl" if os.uname().machine in ("aarch64", "arm64") else (
        "x86_64-unknown-linux-musl")  # fmt: skip
    platform = "linux-arm64" if target.startswith("aarch64") else "linux-x64"
    return _installed(
        "codex", f"node_modules/@openai/codex-{platform}/vendor/{target}/bin/codex", 1_000_000
    )


@pytest.fixture(scope="session")
def gemini_bin() -> str:
    """Gemini CLI's bundle (``bundle/gemini.js``, what the npm package's ``gemini`` runs
    with Node; run directly so that no launcher sits between the agent and its hooks)."""
    return _installed("gemini", "node_modules/@google/gemini-cli/bundle/gemini.js")


@pytest.fixture(scope="session")
def copilot_bin() -> str:
    """GitHub Copilot CLI's platform binary (a Node single-executable application; the npm
    launcher only spawns it). Its first run unpacks it into ``pkgcache`` beside it
    (``COPILOT_PKG_CACHE_HOME``), shared by every case: done here, once."""
    import subprocess

    platform = "linux-arm64" if os.uname().machine in ("aarch64", "arm64") else "linux-x64"
    binary = _installed("copilot", f"node_modules/@github/copilot-{platform}/copilot", 1_000_000)
    cache = str(Path(binary).parents[3] / "pkgcache")
    subprocess.run([binary, "--version"], env={"PATH": "/usr/bin:/bin", "HOME": "/nonexistent",
                   "COPILOT_PKG_CACHE_HOME": cache}, capture_output=True, check=False, timeout=120)  # fmt: skip
    return binary


@pytest.fixture(scope="session")
def droid_bin() -> str:
    """Factory Droid's binary, from its platform package (Bun-compiled, standalone)."""
    platform = "linux-arm64" if os.uname().machine in ("aarch64", "arm64") else "linux-x64"
    return _installed("droid", f"node_modules/@factory/cli-{platform}/bin/droid", 1_000_000)


@pytest.fixture(scope="session")
def qwen_bin() -> str:
    """Qwen Code's bundle (``cli.js``, what the npm package's launcher relaunches with Node;
    run directly, with ``QWEN_CODE_NO_RELAUNCH``, so that one process runs the hooks)."""
    return _installed("qwen", "node_modules/@qwen-code/qwen-code/cli.js")


@pytest.fixture(scope="session")
def netns() -> None:
    from agents.harness.netns import check_netns

    try:
        check_netns()
    except RuntimeError as exc:
        pytest.fail(str(exc), pytrace=False)
