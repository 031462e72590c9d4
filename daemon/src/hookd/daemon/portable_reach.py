"""Whether the portable hooks reach each agent: a portable hook runs in an agent only on
the events its relay carries, so an agent whose relay is installed but lacks an event the
portable files use never runs those hooks. Said in ``status`` (and by ``hookd doctor``
through what ``relay install`` would write), with the command that fixes it.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Mapping, Sequence
from typing import Any

from .all_dialects import PORTABLE
from .dialects import relay_entries
from .dialects.portable import PortableModule, portable_sources, spelled
from .dialects.portable_needs import portable_needs
from .model import Dialect, FireRequest
from .registry.registry import Registry


def uncarried(registry: Registry) -> list[dict[str, Any]]:
    """Per agent whose relay is installed (it has a relay entry), the events the portable
    files use that its relay entries do not carry, each with the fixing command."""
    found: dict[tuple[str, str], dict[str, Any]] = {}
    for roots in [[root] for root in registry.roots] or [[]]:
        home = registry.settings.home
        if not any(os.path.exists(s.path) for s in portable_sources(home, roots)):
            continue  # no portable file: nothing to reach (and status reads no file)
        for dialect in PORTABLE:
            for entry in uncarried_for(registry, dialect, roots):
                found.setdefault((dialect.value, entry["event"]), entry)
    return list(found.values())


def uncarried_for(
    registry: Registry, dialect: Dialect, roots: Sequence[str]
) -> list[dict[str, Any]]:
    """``uncarried`` for one agent and one fire's roots (a relay fire's warnings)."""
    mapping = PORTABLE.get(dialect)
    if mapping is None:
        return []
    relayed = _relayed(registry, dialect, roots)
    if relayed is None:
        return []  # no relay entry at all: the agent does not reach hookd
    found: list[dict[str, Any]] = []
    home = registry.settings.home
    for layer in ("user", "project"):
        needs = portable_needs(mapping, home, roots, registry.current, only=layer)
        carried = {spelled(mapping, event) for event in relayed}
        for event in sorted({spelled(mapping, event) for event in needs} - carried):
            fix = f"hookd relay install --agent {dialect.value}"
            if layer == "project":
                fix += f" --scope project --project {shlex.quote(roots[0])}"
            found.append({"agent": dialect.value, "event": event,
                          "sharedEvent": mapping.EVENTS[event], "fix": fix})  # fmt: skip
    return found


def warning(entry: Mapping[str, Any]) -> str:
    """One ``uncarried`` entry as a sentence (a fire's warning, ``hookd status``'s line)."""
    return (f"{entry['agent']}'s relay does not carry {entry['event']} "
            f"({entry['sharedEvent']}): the portable hooks of it never run there; run "
            f"'{entry['fix']}'")  # fmt: skip


def _relayed(registry: Registry, dialect: Dialect, roots: Sequence[str]) -> set[str] | None:
    """The events the agent's relay entries carry for ``roots`` (a relay file of a hook
    folder counts only where the agent runs the portable hooks from it: Cline's global
    folder); None without any relay entry."""
    mapping = PORTABLE[dialect]
    events: set[str] = set()
    entries = 0
    for source in registry.sources_for(dialect, roots):
        for event, specs in registry.current(source).hooks.items():
            relays = [spec for spec in specs if relay_entries.is_relay_spec(spec)]
            entries += len(relays)
            if any(_carries(mapping, dialect, event, spec.source) for spec in relays):
                events.add(event)
    return events if entries else None


def _carries(mapping: PortableModule, dialect: Dialect, event: str, source: str) -> bool:
    """Whether a relay entry runs the portable hooks: a relay file (its fire names it as
    its entry) as the agent's ``runs_portable`` says; a settings entry, yes."""
    if not relay_entries.is_relay_file(source):
        return True
    fire = FireRequest(dialect, event, (), {}, relay=True, relay_entry=source)
    return mapping.runs_portable(fire)
