"""Method and notification names of the hookd protocol."""

from __future__ import annotations

FIRE = "fire"
RELAY = "relay"
STATUS = "status"
HOOKS_LIST = "hooks/list"
HOOKS_EXPLAIN = "hooks/explain"
ROOTS_ADD = "roots/add"
ROOTS_REMOVE = "roots/remove"
SHUTDOWN = "shutdown"
DISCOVER = "rpc.discover"

CANCEL_REQUEST = "$/cancelRequest"
"""Client notification ``{id}``: cancel an in-flight request (LSP)."""
PROGRESS = "$/progress"
"""Server notification ``{token, value}``: work-done progress of a fire (LSP)."""

REQUEST_METHODS: tuple[str, ...] = (
    FIRE,
    RELAY,
    STATUS,
    HOOKS_LIST,
    HOOKS_EXPLAIN,
    ROOTS_ADD,
    ROOTS_REMOVE,
    SHUTDOWN,
    DISCOVER,
)

HOOK_RUN = "hook/run"
"""Server request to the client that fired: run a handler the daemon cannot run itself
(Claude ``prompt``/``agent``/``mcp_tool``), offered in the fire's ``clientHandlers``."""
HOOK_ASYNC_RESULT = "hook/asyncResult"
"""Server notification: a background (``async``) hook finished; what it tells the agent."""
