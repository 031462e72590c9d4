"""An event that came through the http entry, fired as the agent's command relay fires
it: ``relay: true``, so only the hooks handed to hookd (``hookd adopt``) run.

What the command relay reads from its environment, an http request does not carry: the
agent's package says how a posted event names its project (``HTTP_ENTRY.target``: Claude
Code's ``cwd``, walked up to the folder it keeps the session's transcript for), and the
hooks see the daemon's environment, not the agent's.
"""

from __future__ import annotations

from typing import Any

from hookd.protocol import FireResult

from ..all_dialects import DIALECTS, INTEGRATIONS
from ..audit import Peer
from ..dialects.integration import HttpEntry, RelayRefused
from ..fire.entry import Caller, start
from ..fire.params import InvalidFire, canonical, new_request
from ..model import Dialect, FireRequest
from .context import Services
from .http_request import Refused


def served() -> tuple[Dialect, HttpEntry]:
    """The agent whose http hook entries the http entry serves (one: the path names none)."""
    (only,) = [(d, i.HTTP_ENTRY) for d, i in INTEGRATIONS.items() if i.HTTP_ENTRY is not None]
    return only


def relay_request(services: Services, event: dict[str, Any], request_id: str) -> FireRequest:
    """The fire the agent's command relay would make of ``event``.

    Raises:
        Refused: the event is not one hookd can fire (400, the reason).
    """
    _agent, entry = served()
    try:
        target = entry.target(event)
        module = DIALECTS[target.dialect]
        return new_request(
            module, canonical(module, target.event), target.roots, event, {},
            services.settings, request_id, relay=True, relay_entry=target.entry,
        )  # fmt: skip
    except (RelayRefused, InvalidFire) as exc:
        raise Refused(400, str(exc)) from None


async def relay_fire(
    services: Services, request: FireRequest, uid: int, request_id: str
) -> FireResult:
    """Run the fire, admitted and audited like a fire over the socket."""
    return await start(request, services, Caller(Peer(None, uid), request_id)).result()
