"""How a dialect joins several hooks' texts (kept apart from ``combiner`` so dialects can
declare it without importing the combiner)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True)
class CombinePolicy:
    context_separator: str = "\n\n"
    reason_separator: str = "\n"
    trim: bool = True
    """Strip each text and drop empty ones before joining."""
    reasons_from: Literal["blocking", "all"] = "blocking"
    """Whose ``reason`` reaches the combined result: blocking hooks only, or every hook."""
    single_verbatim: bool = False
    """With exactly one hook, pass its texts through untouched (Cline's legacy runner)."""
    context_when_blocked: bool = True
    """Keep the hooks' context when the outcome is a block (the Cline SDK injects none)."""
