"""What an agent's relay must carry for the portable hooks: the agent's own events the
portable files use, each with the agent's names of the tools their matchers name (or
None: every tool, or an event without tools) and the longest timeout among their hooks.
``hookd relay install`` writes entries for them beside the adopted hooks'
(``PlanOptions.portable``); ``status`` and ``hookd doctor`` compare the relay entries in
place with them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from ..model import HookSpec, Loaded, Source
from . import portable
from .claude import dialect as claude
from .portable import PortableModule


@dataclass(frozen=True, slots=True)
class PortableNeed:
    """One agent event the portable hooks use."""

    tools: frozenset[str] | None
    """The agent's tool names the relay entry must match (None: every tool, or an event
    without tools)."""
    timeout_s: float
    """The longest timeout of the portable hooks of it (the relay entry's must cover it)."""


Needs = Mapping[str, PortableNeed]
"""The agent's event -> what its relay entry must carry for the portable hooks."""

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.-]*$")


def portable_needs(
    mapping: PortableModule,
    home: str,
    roots: Sequence[str],
    load: Callable[[Source], Loaded] = claude.load,
    only: str | None = None,
) -> Needs:
    """The agent's events (and tools) the portable files of ``roots`` use: the user's
    file, and the first root's when there is one (``only``: ``user`` or ``project``, that
    file alone). ``load`` reads a file (the registry's cached reading, in the daemon)."""
    needs: dict[str, PortableNeed] = {}
    for source in portable.portable_sources(home, roots):
        if only is not None and source.layer != only:
            continue
        for shared, specs in _used(load(source)).items():
            tools = _tools(mapping, specs) if shared in portable.TOOL_EVENTS else None
            timeout = max(spec.timeout_s for spec in specs)
            for own, maps_to in mapping.EVENTS.items():
                if maps_to == shared:
                    had = needs.get(own)
                    needs[own] = (
                        PortableNeed(tools, timeout)
                        if had is None
                        else PortableNeed(_union(had.tools, tools), max(had.timeout_s, timeout))
                    )
    return needs


def _used(loaded: Loaded) -> dict[str, list[HookSpec]]:
    """Each shared event of one portable file with its hooks."""
    return {event: list(specs) for event, specs in loaded.hooks.items() if specs}


def _tools(mapping: PortableModule, specs: list[HookSpec]) -> frozenset[str] | None:
    """The agent's tool names for matchers that list shared tools by name (``Bash|Write``);
    None when any matcher matches more than names can say (none, ``*``, a pattern)."""
    named: set[str] = set()
    for spec in specs:
        matcher = spec.matcher
        if not matcher or matcher == "*":
            return None
        parts = [part.strip() for part in matcher.split("|")]
        if not all(_NAME.match(part) for part in parts):
            return None
        for part in parts:
            own = [name for name, shared in mapping.TOOLS.items() if shared == part]
            named.update(own or [part])  # an MCP or agent-only tool keeps its name
    return frozenset(named)


def _union(have: frozenset[str] | None, more: frozenset[str] | None) -> frozenset[str] | None:
    return None if have is None or more is None else have | more


def scope_needs(mapping: PortableModule | None, scope: str, home: str, project: str) -> Needs:
    """What the relay entries of ``scope`` must carry for the portable hooks: the user's
    file's events at user scope, the project's file's at a project's scopes (what ``relay
    install`` and ``adopt`` write, and what ``hookd doctor`` expects to find)."""
    if mapping is None:
        return {}
    if scope == "user":
        return portable_needs(mapping, home, [], only="user")
    return portable_needs(mapping, home, [project], only="project")
