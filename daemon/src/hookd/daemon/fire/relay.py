"""The relay's door: one run of a relay entry inside an agent, as ``hookd-relay`` sends it
(the entry's arguments, the agent's stdin, working folder and environment), turned into
a fire, and the fire's outcome turned into what the agent reads from one of its hooks.

Everything agent-specific comes from the agent's package (``integration``): its relay
facts (how many arguments an entry passes, which payload field names the event, which
events another runner sends through the same entry), its roots and entry rules, its
answer. ``hookd-relay`` itself is a pipe; it only answers on its own when it cannot
reach hookd (from a table generated from the same facts, ``hookd/_relay_table.py``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from hookd.relay import failure_message, too_many_arguments, unknown_agent

from ..all_dialects import DIALECTS, INTEGRATIONS
from ..dialects import integration as contract
from ..dialects.integration import IntegrationModule, RelayAnswer, RelayCall
from ..model import Dialect, FireRequest
from ..settings import Settings
from .params import InvalidFire, canonical, is_usable_path, new_request


@dataclass(frozen=True, slots=True)
class RelayParams:
    """The ``relay`` method's params, typed at the edge."""

    agent: str
    args: tuple[str, ...]
    stdin: str
    cwd: str
    env: dict[str, str]
    block: bool
    """``HOOKD_RELAY_ON_ERROR=block`` in the agent's environment: a failure blocks."""


class Refused(Exception):
    """The relayed event cannot be fired: ``answer`` is the agent's failing hook."""

    def __init__(self, answer: RelayAnswer) -> None:
        super().__init__(answer.stderr)
        self.answer = answer


def relay_request(
    params: RelayParams, settings: Settings, fire_id: Any
) -> tuple[FireRequest, IntegrationModule]:
    """The fire of one relay entry's run, and the integration that answers it.

    Raises:
        Refused: an entry with wrong arguments, stdin that is not the agent's event, an
            event hookd cannot fire: its ``answer`` is what the agent reads.
    """
    integration = _integration(params.agent)
    if integration is None:
        known = [d.value for d in INTEGRATIONS]
        raise _refused(None, params, unknown_agent(params.agent, known))
    facts = integration.RELAY
    if len(params.args) > facts.entry_args:
        raise _refused(integration, params, too_many_arguments(params.agent, params.args))
    if facts.event_arg is not None:
        payload = _event(params, None, integration)
        event = params.args[facts.event_arg] if len(params.args) > facts.event_arg else ""
    else:
        payload = _event(params, facts.event_key, integration)
        event = payload[facts.event_key]
    runner = INTEGRATIONS[facts.runners.get(event, integration.DIALECT)]
    call = RelayCall(params.agent, params.args, payload, params.env, params.cwd)
    try:
        roots = runner.relay_roots(call)
        if not all(is_usable_path(root) for root in roots):
            raise InvalidFire(f"the event's workspace roots {list(roots)!r} are not absolute "
                              "paths")  # fmt: skip
        module = DIALECTS[runner.DIALECT]
        request = new_request(
            module, canonical(module, event), roots, payload, params.env, settings, fire_id,
            relay=True, relay_entry=runner.relay_entry(call),
        )  # fmt: skip
    except InvalidFire as exc:
        raise _refused(runner, params, f"hookd refused the event: Invalid params (-32602): "
                       f"{exc}") from None  # fmt: skip
    return request, runner


def failing(integration: IntegrationModule | None, params: RelayParams, reason: str) -> RelayAnswer:
    """The agent's failing (or, by policy, blocking) hook, saying ``reason``; an unknown
    agent answers as an agent that reads exit codes (1 fails, 2 blocks)."""
    message = failure_message(reason, params.block)
    answer = integration.failing_answer if integration else contract.exit_code_failing
    return answer(message, params.block)


def _refused(integration: IntegrationModule | None, params: RelayParams, reason: str) -> Refused:
    return Refused(failing(integration, params, reason))


def _integration(agent: str) -> IntegrationModule | None:
    try:
        return INTEGRATIONS[Dialect(agent)]
    except ValueError:
        return None


def _event(params: RelayParams, key: str | None, integration: IntegrationModule) -> dict[str, Any]:
    """The agent's event from stdin, naming itself in ``key`` (None: the entry names it)."""
    try:
        payload = json.loads(params.stdin)
    except ValueError as exc:
        raise _refused(integration, params, f"the event on stdin is not JSON ({exc})") from None
    if key is None and isinstance(payload, dict):
        return payload
    if not isinstance(payload, dict) or not isinstance(payload.get(key or ""), str):
        raise _refused(integration, params, f"the event on stdin has no {key}: is this run by "
                       "the agent?")  # fmt: skip
    return payload
