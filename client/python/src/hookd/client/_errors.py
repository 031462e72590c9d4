"""Errors raised by the hookd client.

HookdClientError
├── DaemonNotRunning     nothing listens on the socket (start it: hookd serve)
├── DaemonUnresponsive   connected, but no answer in time (the daemon is stuck or busy)
├── ConnectionLost       the daemon closed the connection mid-request
└── RemoteError          the daemon answered with a JSON-RPC error
    └── RequestCancelled the request was cancelled (-32800 / -32802)
"""

from __future__ import annotations

from typing import Any


class HookdClientError(Exception):
    """Root of the client's errors."""


class DaemonNotRunning(HookdClientError):
    """No daemon is listening on the socket."""

    def __init__(self, socket_path: str, detail: str) -> None:
        super().__init__(
            f"hookd is not running (no daemon at {socket_path}: {detail}). "
            "Start it with 'hookd serve' (or 'systemctl --user start hookd'), "
            "or point HOOKD_SOCKET at the right socket."
        )
        self.socket_path = socket_path


class DaemonUnresponsive(HookdClientError):
    """The daemon accepted the connection but did not answer in time."""

    def __init__(self, socket_path: str, timeout_s: float) -> None:
        super().__init__(
            f"hookd at {socket_path} did not answer within {timeout_s:g} s; it may be stuck. "
            "Check 'journalctl --user -u hookd' or restart it ('hookd shutdown; hookd serve')."
        )
        self.socket_path = socket_path


class ConnectionLost(HookdClientError):
    """The daemon closed the connection before answering."""


class RemoteError(HookdClientError):
    """The daemon answered with a JSON-RPC error object."""

    def __init__(self, code: int, message: str, data: Any = None) -> None:
        text = f"{message} ({code})"
        if data is not None:
            text += f": {data}"
        super().__init__(text)
        self.code = code
        self.message = message
        self.data = data

    @property
    def explanation(self) -> str:
        """What a person needs to read: the daemon's own words, without the JSON-RPC code
        or a standard name like ``Invalid params`` when ``data`` says more (``str()``
        keeps both, for logs and bug reports)."""
        if self.data is None or self.data == "":
            return self.message
        if isinstance(self.data, str) and _JSONRPC_RESERVED[0] <= self.code <= _JSONRPC_RESERVED[1]:
            return self.data
        return f"{self.message}: {self.data}"


_JSONRPC_RESERVED = (-32768, -32000)
"""JSON-RPC's own codes: their messages (``Invalid params``...) are generic names."""


class RequestCancelled(RemoteError):
    """The request was cancelled by the client (-32800) or by the daemon (-32802)."""
