"""Run a handler on the calling client: the daemon has no model and no MCP connection.

Claude's ``prompt``, ``agent`` and ``mcp_tool`` handlers are sent back to the client that
fired, as a ``hook/run`` request, when its fire offered that handler type in
``clientHandlers``. The request lives in the hook's cancel scope: on timeout or
cancellation the client gets ``$/cancelRequest``. A client that did not offer the type,
answers with an error, or goes away gets the hook reported as not run, with the reason.
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import trio

from hookd.protocol import HOOK_RUN

from ..model import ClientLaunch, ProcessOutcome

AskClient = Callable[[str, Mapping[str, Any]], Awaitable[Any]]
"""``await ask(method, params)``: a server-to-client request; its result, or
``ClientCallFailed``."""


class ClientCallFailed(Exception):
    """The client answered a server request with an error, or cannot answer any more."""


async def run_on_client(
    launch: ClientLaunch,
    ask_client: AskClient | None,
    offered: frozenset[str],
    *,
    timeout_s: float,
) -> ProcessOutcome:
    """Ask the client to run ``launch``; its JSON answer becomes the outcome's stdout."""
    kind = launch.handler_type
    if ask_client is None or kind not in offered:
        return ProcessOutcome(
            None,
            b"",
            b"",
            0.0,
            spawn_error=(
                f"not run: the calling client does not run {kind} hooks (a client that can "
                f'lists "{kind}" in the fire\'s "clientHandlers" and answers {HOOK_RUN} '
                "requests)"
            ),
        )
    started = time.perf_counter()
    params = {**launch.params, "timeoutMs": round(timeout_s * 1000)}
    answer: Any = None
    failure: str | None = None
    with trio.move_on_after(timeout_s) as scope:
        try:
            answer = await ask_client(HOOK_RUN, params)
        except ClientCallFailed as exc:
            failure = f"the client could not run it: {exc}"
    elapsed = round((time.perf_counter() - started) * 1000, 3)
    if scope.cancelled_caught:
        return ProcessOutcome(None, b"", b"", elapsed, timed_out=True)
    if failure is not None:
        return ProcessOutcome(None, b"", b"", elapsed, spawn_error=failure)
    return ProcessOutcome(None, json.dumps(answer).encode(), b"", elapsed)
