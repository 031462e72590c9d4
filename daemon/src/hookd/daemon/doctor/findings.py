"""What a probe of ``hookd doctor`` found: one line for a person, the command that fixes
it, and details for ``--json``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

Level = Literal["ok", "info", "warning", "problem"]
"""``problem``: something is wrong (doctor exits 1); ``warning``: worth knowing, not
broken (an agent at another version than hookd is tested with); ``info``: a fact."""


@dataclass(frozen=True, slots=True)
class Finding:
    area: str
    """What was probed: ``daemon``, ``relay``, ``service``, ``state``, ``agent``."""
    level: Level
    text: str
    fix: str | None = None
    """The command (or the step) that fixes it; every problem has one."""
    details: dict[str, Any] = field(default_factory=dict)

    def wire(self) -> dict[str, Any]:
        return {"area": self.area, "level": self.level, "text": self.text, "fix": self.fix,
                **({"details": self.details} if self.details else {})}  # fmt: skip


def problems(found: list[Finding]) -> list[Finding]:
    return [f for f in found if f.level == "problem"]
