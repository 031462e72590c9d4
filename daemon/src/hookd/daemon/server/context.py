"""What the server needs of the daemon (``Services``) and what a method sees of its
caller (``RequestContext``): small Protocols, so the server never imports ``app``."""

from __future__ import annotations

from collections.abc import Iterable, MutableSet
from typing import TYPE_CHECKING, Any, Protocol

from ..fire.pipeline import FireServices
from .dispatch import Method, Starter
from .limits import ClientLimits

if TYPE_CHECKING:
    from .connection import Connection


class Services(FireServices, Protocol):
    """The daemon as its connections and methods use it."""

    @property
    def connections(self) -> MutableSet[Connection]: ...

    @property
    def methods(self) -> dict[str, Method]: ...

    @property
    def starters(self) -> dict[str, Starter]:
        """Methods that may answer at once, tried before ``methods`` for single requests."""
        ...

    @property
    def limits(self) -> ClientLimits:
        """The caps on all clients together, and their counters."""
        ...

    def add_roots(self, roots: Iterable[str]) -> None:
        """Register workspace roots (their hooks are then watched and kept warm)."""

    def remove_roots(self, roots: Iterable[str]) -> None:
        """Forget workspace roots."""

    def request_shutdown(self, reason: str) -> None:
        """Begin an orderly stop: in-flight fires are cancelled and answered."""

    def status(self) -> dict[str, Any]:
        """The ``status`` result."""


class RequestContext:
    """What a method sees of its caller: the connection (to notify and ask), the request
    id and the daemon's services."""

    __slots__ = ("connection", "request_id", "services")

    def __init__(self, connection: Connection, request_id: Any) -> None:
        self.connection = connection
        self.request_id = request_id
        self.services: Services = connection.services
