"""Whether the portable hooks reach each agent: a portable hook runs in an agent only on
the events its relay carries, so an agent whose relay is installed but lacks an event the
portable files use never runs those hooks. Said in ``status`` (and by ``hookd doctor``
through what ``relay install`` would write), with the command that fixes it.
"""

from __future__ import annotations

import shlex
from typing import Any

from .all_dialects import PORTABLE
from .dialects import relay_entries
from .dialects.portable_needs import portable_needs
from .registry.registry import Registry


def uncarried(registry: Registry) -> list[dict[str, Any]]:
    """Per agent whose relay is installed (it has a relay entry), the events the portable
    files use that its relay entries do not carry, each with the fixing command."""
    home = registry.settings.home
    found: dict[tuple[str, str], dict[str, Any]] = {}
    for roots in [[root] for root in registry.roots] or [[]]:
        for dialect, mapping in PORTABLE.items():
            relayed = _relayed(registry, dialect, roots)
            if relayed is None:
                continue  # no relay entry at all: the agent does not reach hookd
            for layer in ("user", "project"):
                needs = portable_needs(mapping, home, roots, registry.current, only=layer)
                for event in sorted(set(needs) - relayed):
                    fix = f"hookd relay install --agent {dialect.value}"
                    if layer == "project":
                        fix += f" --scope project --project {shlex.quote(roots[0])}"
                    found.setdefault((dialect.value, event), {
                        "agent": dialect.value, "event": event,
                        "sharedEvent": mapping.EVENTS[event], "fix": fix,
                    })  # fmt: skip
    return list(found.values())


def _relayed(registry: Registry, dialect: Any, roots: list[str]) -> set[str] | None:
    """The events the agent's relay entries carry for ``roots``; None without any."""
    events: set[str] = set()
    entries = 0
    for source in registry.sources_for(dialect, roots):
        for event, specs in registry.current(source).hooks.items():
            if any(relay_entries.is_relay_spec(spec) for spec in specs):
                events.add(event)
                entries += 1
    return events if entries else None
