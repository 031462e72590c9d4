"""The table ``hookd-relay`` answers from when it cannot reach hookd, generated from the
agents' packages (``integration.RELAY`` and ``failing_answer``) into the client
distribution's ``hookd/_relay_table.py``: the relay imports nothing of the daemon, and a
native relay can be given the same data.

``python scripts/regenerate.py`` writes it; ``tests/client/test_relay_table.py`` fails
when it is stale, and checks that the relay's answers from it are the agents' own.
"""

from __future__ import annotations

import json
import pprint
from collections.abc import Callable
from typing import Any

from .all_dialects import INTEGRATIONS
from .dialects import integration as contract
from .dialects.integration import RelayAnswer

_MESSAGE = "\x00hookd-relay message\x00"
"""A message no answer contains by itself: where it lands in an answer is a slot."""

HEADER = '''"""What ``hookd-relay`` answers when it cannot reach hookd, per agent: generated
from the agents' packages by ``python scripts/regenerate.py`` (``hookd.daemon.relay_table``);
do not edit. ``args``: how many arguments the agent's entries pass after its name;
``event``: the payload field naming the event; ``runners``: events another agent sends
through the same entry; ``continue`` / ``block``: (stdout, stderr, exit code) by
``HOOKD_RELAY_ON_ERROR``, ``{message}`` standing for the relay's one line and
``{message_json}`` for it as a JSON string."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:  # the relay starts on every event: no typing import at run time
    from typing import Any

'''


def table() -> dict[str, Any]:
    """The relay's facts and failing answers of every agent, and of an agent that reads
    exit codes (for an entry naming no agent hookd knows)."""
    agents = {
        dialect.value: {
            "args": integration.RELAY.entry_args,
            "event": integration.RELAY.event_key,
            "runners": {name: d.value for name, d in integration.RELAY.runners.items()},
            **_answers(integration.failing_answer),
        }
        for dialect, integration in INTEGRATIONS.items()
    }
    exit_codes = {"args": 0, "event": "", "runners": {}, **_answers(contract.exit_code_failing)}
    return {"AGENTS": agents, "EXIT_CODES": exit_codes}


def render() -> str:
    """The text of ``hookd/_relay_table.py``."""
    values = table()
    body = "".join(
        f"\n{name}: dict[str, Any] = {pprint.pformat(value, width=96, sort_dicts=False)}\n"
        for name, value in values.items()
    )
    return f"{HEADER}{body}"


def _answers(failing: Callable[[str, bool], RelayAnswer]) -> dict[str, tuple[str, str, int]]:
    return {
        "continue": _template(failing(_MESSAGE, False)),
        "block": _template(failing(_MESSAGE, True)),
    }


def _template(answer: RelayAnswer) -> tuple[str, str, int]:
    return (_slots(answer.stdout), _slots(answer.stderr), answer.exit_code)


def _slots(text: str) -> str:
    """The answer's text with the message's places marked (as a JSON string, or bare)."""
    marked = text.replace(json.dumps(_MESSAGE), "{message_json}").replace(_MESSAGE, "{message}")
    if "\x00" in marked or "hookd-relay message" in marked:
        raise ValueError(f"the message appears in an answer in a form the table cannot say: "
                         f"{text!r}")  # fmt: skip
    return marked
