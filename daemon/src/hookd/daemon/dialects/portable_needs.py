"""What an agent's relay must carry for the portable hooks: the agent's own events the
portable files use, each with the agent's names of the tools their matchers name (or
None: every tool, or an event without tools). ``hookd relay install`` writes entries for
them beside the adopted hooks' (``PlanOptions.portable``); ``hookd doctor`` and ``status``
compare the relay entries in place with them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence

from ..model import Loaded, Source
from . import portable
from .claude import dialect as claude
from .portable import PortableModule

Needs = Mapping[str, frozenset[str] | None]
"""The agent's event -> the agent's tool names its entry must match (None: all)."""

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
    needs: dict[str, frozenset[str] | None] = {}
    for source in portable.portable_sources(home, roots):
        if only is not None and source.layer != only:
            continue
        for shared, matchers in _used(load(source)).items():
            for own, maps_to in mapping.EVENTS.items():
                if maps_to == shared:
                    tools = _tools(mapping, matchers) if shared in portable.TOOL_EVENTS else None
                    needs[own] = _union(needs.get(own, frozenset()), tools)
    return needs


def _used(loaded: Loaded) -> dict[str, list[str | None]]:
    """Each shared event of one portable file with its hooks' matchers."""
    return {
        event: [spec.matcher for spec in specs]
        for event, specs in loaded.hooks.items()
        if specs and not all(spec.refused for spec in specs)
    }


def _tools(mapping: PortableModule, matchers: list[str | None]) -> frozenset[str] | None:
    """The agent's tool names for matchers that list shared tools by name (``Bash|Write``);
    None when any matcher matches more than names can say (none, ``*``, a pattern)."""
    named: set[str] = set()
    for matcher in matchers:
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
