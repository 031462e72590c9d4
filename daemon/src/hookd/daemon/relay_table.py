"""The table ``hookd-relay`` answers from when it cannot reach hookd, generated from the
agents' packages (``integration.RELAY`` and ``failing_answer``) into the client
distribution's ``hookd/_relay_table.py`` (the Python relay imports nothing of the daemon)
and, with the Python relay's words and bounds, into ``native/relay_table.h`` for the
native relay (``render_c``): one table, two relays.

``python scripts/regenerate.py`` writes both; ``tests/client/test_relay_table.py`` fails
when either is stale, and checks that the relay's answers from it are the agents' own.
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


C_HEADER = """/* What the native hookd-relay answers when it cannot reach hookd, per agent, and the
 * words and bounds it shares with the Python relay (hookd/relay.py): generated from the
 * agents' packages and hookd.relay by `python scripts/regenerate.py`
 * (hookd.daemon.relay_table.render_c); do not edit. A template's "{message}" stands for
 * the relay's one line, "{message_json}" for it as a JSON string. */
"""


def render_c() -> str:
    """The text of ``client/python/native/relay_table.h``."""
    from hookd import relay

    values = table()
    names = list(values["AGENTS"])
    lines = [C_HEADER, "#ifndef HOOKD_RELAY_TABLE_H", "#define HOOKD_RELAY_TABLE_H", ""]
    strings = {
        "RELAY_VERSION": relay.VERSION, "ON_ERROR_ENV": relay.ON_ERROR_ENV,
        "NO_SPAWN_ENV": relay.NO_SPAWN_ENV, "WAIT_ENV": relay.WAIT_ENV, "USAGE": relay.USAGE,
        "FIX": relay.FIX, "AGENT_LIST": ", ".join(names),
    }  # fmt: skip
    lines += [f"#define {name} {_c_string(value)}" for name, value in strings.items()]
    numbers = {"WAIT_S": relay.WAIT_S, "WAIT_MAX_S": relay.WAIT_MAX_S,
               "SPAWN_WAIT_S": relay.SPAWN_WAIT_S}  # fmt: skip
    lines += [f"#define {name} {float(value)!r}" for name, value in numbers.items()]
    lines += [f"#define START_ERROR_MAX {relay.START_ERROR_MAX}", ""]
    prefixes = ", ".join(_c_string(p) for p in relay.SERVICE_PREFIXES)
    lines += [f"static const char *const SERVICE_PREFIXES[] = {{{prefixes}, 0}};", ""]
    lines += [
        "struct relay_runner { const char *event; int agent; };",
        "struct relay_answer { const char *out; const char *err; int code; };",
        "struct relay_facts {",
        "    const char *name; int args; const char *event;",
        "    const struct relay_runner *runners; struct relay_answer on_continue, on_block;",
        "};",
        "",
    ]
    for index, (name, facts) in enumerate(values["AGENTS"].items()):
        rows = [f"    {{{_c_string(event)}, {names.index(runner)}}}," for event, runner
                in facts["runners"].items()]  # fmt: skip
        lines += [f"static const struct relay_runner RUNNERS_{index}[] = {{  /* {name} */",
                  *rows, "    {0, -1},", "};"]  # fmt: skip
    lines += ["", "static const struct relay_facts AGENTS[] = {"]
    lines += [_c_facts(name, facts, f"RUNNERS_{index}")
              for index, (name, facts) in enumerate(values["AGENTS"].items())]  # fmt: skip
    lines += ["    {0, 0, 0, 0, {0, 0, 0}, {0, 0, 0}},", "};", ""]
    lines += ["static const struct relay_runner NO_RUNNERS[] = {{0, -1}};"]
    lines += ["static const struct relay_facts EXIT_CODES ="]
    lines += [_c_facts("", values["EXIT_CODES"], "NO_RUNNERS").rstrip(",") + ";", ""]
    lines += ["#endif", ""]
    return "\n".join(lines)


def _c_facts(name: str, facts: dict[str, Any], runners: str) -> str:
    def answer(key: str) -> str:
        out, err, code = facts[key]
        return f"{{{_c_string(out)}, {_c_string(err)}, {code}}}"

    return (f"    {{{_c_string(name)}, {facts['args']}, {_c_string(facts['event'])}, {runners},\n"
            f"     {answer('continue')},\n     {answer('block')}}},")  # fmt: skip


def _c_string(text: str) -> str:
    """A C string literal of ``text``'s UTF-8 bytes: printable ASCII as is (but the quote,
    the backslash and ``?``, which could start a trigraph), every other byte in octal."""
    out = []
    for byte in text.encode("utf-8", "surrogatepass"):
        char = chr(byte)
        if char in '"\\?':
            out.append("\\" + char)
        elif 0x20 <= byte < 0x7F:
            out.append(char)
        else:
            out.append(f"\\{byte:03o}")
    return '"' + "".join(out) + '"'
