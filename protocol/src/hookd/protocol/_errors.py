"""JSON-RPC error codes used by hookd, in one table.

The -32768..-32000 range is JSON-RPC's; -32800/-32802 are LSP's cancellation codes (so
vscode-jsonrpc clients understand them). hookd's own codes live in 1000..1999, away from
vscode-jsonrpc's synthetic -32096..-32099.
"""

from __future__ import annotations

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
REQUEST_CANCELLED = -32800
"""The client cancelled the request (``$/cancelRequest``)."""
SERVER_CANCELLED = -32802
"""The daemon cancelled the request itself (it is shutting down)."""

MESSAGE_TOO_LARGE = 1001
"""A message exceeded the daemon's size limit and was discarded."""
BUSY = 1002
"""Too many requests in flight on one connection."""
NOT_FROM_A_HOOK = 1003
"""A hook (or a process it started) called a method that stops or reconfigures the
daemon for every agent; only a person or an agent may."""
FIRE_TOO_DEEP = 1004
"""A fire made from inside a hook, nested deeper than the daemon's ``max_fire_depth``."""

ERROR_NAMES: dict[int, str] = {
    PARSE_ERROR: "ParseError",
    INVALID_REQUEST: "InvalidRequest",
    METHOD_NOT_FOUND: "MethodNotFound",
    INVALID_PARAMS: "InvalidParams",
    INTERNAL_ERROR: "InternalError",
    REQUEST_CANCELLED: "RequestCancelled",
    SERVER_CANCELLED: "ServerCancelled",
    MESSAGE_TOO_LARGE: "MessageTooLarge",
    BUSY: "Busy",
    NOT_FROM_A_HOOK: "NotFromAHook",
    FIRE_TOO_DEEP: "FireTooDeep",
}
