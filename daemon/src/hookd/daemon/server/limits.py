"""What every connection shares: the caps on clients as a whole, and their counters.

A per-connection cap bounds one client; these bound all of them together, so that many
clients (or one client opening many connections) cannot exhaust the shared daemon:
connections open at once, reply bytes queued for clients that do not read, and how
long a half-sent message may keep its connection.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from ..settings import Settings


@dataclass
class ClientLimits:
    """The caps (from ``Settings``) and what they have done so far, for ``status``."""

    max_connections: int
    max_unsent_total: int
    max_unsent_per_connection: int
    message_timeout_s: float
    unsent_bytes: int = 0
    """Reply bytes queued over every connection (kept by the connections)."""
    refused: int = 0
    """Connections refused at ``max_connections`` (every open one was busy)."""
    shed: int = 0
    """Idle connections closed at ``max_connections`` to make room for a new one."""
    refusing: int = 0
    """Refused connections still being answered."""
    not_reading: int = 0
    """Connections cut off because their unsent replies passed a cap."""
    incomplete: int = 0
    """Connections closed because a message did not arrive whole in time."""
    _last_refusal_log: float = 0.0

    @classmethod
    def from_settings(cls, settings: Settings) -> ClientLimits:
        return cls(
            max_connections=settings.max_connections,
            max_unsent_total=settings.max_unsent_bytes_total,
            max_unsent_per_connection=settings.max_unsent_bytes_per_connection,
            message_timeout_s=settings.message_timeout_s,
        )

    def refusal_worth_logging(self) -> bool:
        """At most one log line per 10 s for refused or shed connections (a flood must not
        turn into a flood of log lines)."""
        now = time.monotonic()
        if now - self._last_refusal_log < 10.0:
            return False
        self._last_refusal_log = now
        return True

    def view(self) -> dict[str, Any]:
        """The ``clients`` part of ``status``."""
        return {
            "maxConnections": self.max_connections,
            "refused": self.refused,
            "shed": self.shed,
            "unsentBytes": self.unsent_bytes,
            "maxUnsentBytes": self.max_unsent_total,
            "disconnectedNotReading": self.not_reading,
            "closedIncomplete": self.incomplete,
            "messageTimeoutS": self.message_timeout_s,
        }
