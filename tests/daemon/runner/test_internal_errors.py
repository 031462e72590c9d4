"""A bug in hookd met while running a hook (in the dialect's prepare or interpret, or
in the runner) makes the hook one that never ran: on a guard event it blocks under the
never_ran rule, never "allowed" by accident. The bug is simulated (a real one cannot be
had on purpose) by a dialect module whose one member raises; the hook itself is real."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from hookd.daemon.all_dialects import DIALECTS
from hookd.daemon.model import Dialect, FireRequest, HookSpec
from hookd.daemon.runner.process import ProcessLimits
from hookd.daemon.runner.runner import run_hook

CLAUDE = DIALECTS[Dialect.CLAUDE]
PAYLOAD = {"tool_name": "Bash", "tool_input": {"command": "ls"}}


class Broken:
    """The Claude module with one member raising, as a bug in it would."""

    def __init__(self, member: str) -> None:
        self.member = member

    def __getattr__(self, name: str) -> Any:
        if name == self.member:

            def bug(*_args: object, **_kwargs: object) -> object:
                raise KeyError("a bug")

            return bug
        return getattr(CLAUDE, name)


@pytest.mark.parametrize("member", ["prepare", "interpret"])
@pytest.mark.parametrize(("policy", "blocks"), [("block", True), ("allow", False)])
async def test_a_bug_in_hookd_is_never_an_allow(
    member: str, policy: str, blocks: bool, tmp_path: Path
) -> None:
    mark = tmp_path / "ran"
    spec = HookSpec(Dialect.CLAUDE, "PreToolUse", str(tmp_path / "settings.json"), "user",
                    f"touch {mark}", None, 30.0, options={"type": "command", "shell": None})  # fmt: skip
    request = FireRequest(Dialect.CLAUDE, "PreToolUse", (str(tmp_path),), PAYLOAD)

    outcome, verdict = await run_hook(Broken(member), spec, request, {},  # type: ignore[arg-type]
                                      ProcessLimits(timeout_s=30), never_ran=policy)  # fmt: skip

    assert outcome.never_ran
    assert "internal error in hookd (KeyError('a bug'))" in (outcome.spawn_error or "")
    assert verdict.error is not None
    assert verdict.error.startswith("never ran: internal error in hookd")
    assert verdict.blocks is blocks
    assert mark.exists() is (member == "interpret")  # prepare's bug: it never started
