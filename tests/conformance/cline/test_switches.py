"""Turning Cline hooks off: Cline's own switches and hookd's.

``cline-hooks.md`` §Enabling Hooks: the "Enable Hooks" checkbox (the ``hooksEnabled``
setting, default true: ``cline-implementation.md`` §7, §8.8) and the executable bit per
hook. ``hooksEnabled`` lives in VS Code's extension state, which hookd cannot see: an agent
whose hooks are off must not fire. hookd's own switches are ``disabled_dialects`` and
``disable_all_hooks``; the per-hook executable bit is pinned in ``test_discovery``
(``not-executable``, ``disabled-by-chmod``, ``enabled-by-chmod``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import pytest
import trio

from conformance.cline._cline import HOOKS, Has, Places, pre_tool, write
from hookd.daemon.app import serve
from hookd.daemon.settings import Settings
from hookd_testing import RpcClient

MARKS = 'cat >/dev/null\ntouch \'{tmp}/ran\'\necho \'{"cancel": true, "errorMessage": "on"}\'\n'

NOTES7 = "cline-implementation.md §7/§8.8"


@dataclass(frozen=True)
class Switch:
    id: str
    rule: str
    settings: dict[str, Any]
    """hookd settings changed for this case."""
    says: str | None
    """What the fire's warning must name (None: no warning)."""
    on: bool
    """Whether the Cline hook runs."""


SWITCHES = [
    Switch(
        "default-on",
        f"{NOTES7}: hooksEnabled defaults to true (undefined counts as true); with no "
        "hookd configuration Cline hooks run.",
        {},
        None,
        True,
    ),
    Switch(
        "disabled-dialects-cline",
        'hookd\'s disabled_dialects = ["cline"]: nothing runs, the fire answers cancel false '
        "(like Cline's disabled path {wasCancelled: false}, notes §8.15) with a warning "
        "naming the switch, and hooks/list lists no Cline hook.",
        {"disabled_dialects": frozenset({"cline"})},
        "disabled_dialects",
        False,
    ),
    Switch(
        "other-dialects-disabled",
        "Disabling the other dialects, the Cline SDK's included, changes nothing for cline.",
        {"disabled_dialects": frozenset({"cline-sdk", "claude", "augment"})},
        None,
        True,
    ),
    Switch(
        "disable-all-hooks",
        "hookd's disable_all_hooks: nothing runs, a warning names the switch.",
        {"disable_all_hooks": True},
        "disable_all_hooks",
        False,
    ),
]


@pytest.mark.parametrize("case", SWITCHES, ids=lambda case: case.id)
async def test_hookd_switches(settings: Settings, places: Places, case: Switch) -> None:
    """Cline's own switch (hooksEnabled) is invisible to hookd; hookd's switches turn Cline
    hooks off without failing the fire."""
    write(places, f"{HOOKS}/PreToolUse", "#!/bin/sh\n" + MARKS)
    async with trio.open_nursery() as nursery:
        daemon = await nursery.start(serve, replace(settings, **case.settings))
        client = await RpcClient.connect(settings.socket_path)
        result = await client.fire("cline", "PreToolUse", [str(places.ws)], pre_tool())
        listing = await client.call("hooks/list", {"roots": [str(places.ws)]})
        await client.aclose()
        daemon.request_shutdown("test over")

    on = case.on
    assert result["blocked"] is on
    assert result["native"]["cancel"] is on
    assert (places.tmp / "ran").exists() is on
    assert len(result["hooks"]) == (1 if on else 0)
    if "disable_all_hooks" not in case.settings:  # (hooks/list still lists hooks switched off so)
        assert [h["event"] for h in listing["hooks"] if h["dialect"] == "cline"] == (
            ["PreToolUse"] if on else []
        )
    if case.says:
        assert result["warnings"] == [Has(case.says)]
    else:
        assert result["warnings"] == []
