"""What the server needs of the daemon (``Services``), what the daemon and a method need
of a client's connection (``Client``) and what a method sees of its caller
(``RequestContext``): small Protocols, so the server never imports ``app`` and nothing
here imports ``connection``, which implements ``Client``."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, MutableSet
from typing import Any, Protocol

from ..fire.pipeline import FireServices
from .dispatch import Method, Starter
from .limits import ClientLimits
from .peer import Caller


class Client(Protocol):
    """One client's connection, as the daemon and the methods use it."""

    @property
    def caller(self) -> Caller:
        """Who is on the other end (peer credentials; inside one of our hooks?)."""
        ...

    @property
    def is_open(self) -> bool:
        """Whether a message sent now can still reach the client."""
        ...

    @property
    def unsent_bytes(self) -> int:
        """What is queued for it and not yet written (the cap over all clients)."""
        ...

    def send(self, message: Any) -> None:
        """Queue a message (never waits)."""

    def send_progress(self, method: str, params: dict[str, Any]) -> None:
        """Queue a progress notification (dropped, not queued, when it cannot keep up)."""

    async def ask(self, method: str, params: Mapping[str, Any]) -> Any:
        """Send the client a request and await its answer."""

    def cut_off(self, why: str) -> None:
        """Disconnect a client that does not read."""

    def cancel_all(self) -> None:
        """Daemon shutdown: cancel what it asked for and refuse the rest."""

    async def wait_idle(self, stall_s: float = 0.5) -> None:
        """Return once its answers are written (or it stopped reading)."""

    @property
    def idle_since(self) -> float | None:
        """Since when (``trio.current_time()``) it has had nothing under way: no request
        in flight or arriving, nothing unsent, no question to it open; None while it has."""
        ...

    def shed(self) -> None:
        """Close it to make room for a new connection (only while it is idle)."""


class Services(FireServices, Protocol):
    """The daemon as its connections and methods use it."""

    @property
    def connections(self) -> MutableSet[Client]: ...

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

    def __init__(self, connection: Client, request_id: Any, services: Services) -> None:
        self.connection = connection
        self.request_id = request_id
        self.services = services
