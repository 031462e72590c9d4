"""What the portable-hook tests of every agent write: the user's portable file, hooks that
answer a fixed JSON, and the guards the issue's matrix names (``tests/daemon/portable``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hookd_testing import command, write_json

ENV_GUARD = (
    'python3 -c "import json,sys; e=json.load(sys.stdin); '
    "p=e['tool_input'].get('file_path',''); "
    "sys.exit(0) if not p.endswith('.env') else (print('not '+p, file=sys.stderr), sys.exit(2))\""
)
"""A Write/Edit guard: refuses a path ending in ``.env`` (exit 2, the path on stderr)."""


def echo_input(*keys: str) -> str:
    """A hook answering, as its context, the JSON list of these payload fields
    (``tool_input`` ...), so a test reads what the portable hook was given."""
    picked = ", ".join(f"e[{key!r}]" for key in keys)
    return (
        'python3 -c "import json,sys; e=json.load(sys.stdin); '
        "print(json.dumps({'hookSpecificOutput': {'hookEventName': e['hook_event_name'], "
        f"'additionalContext': json.dumps([{picked}])}}}}))\""
    )


def user_portable(home: Path, settings: dict[str, Any]) -> None:
    """``~/.config/hookd/hooks.json``."""
    write_json(home / ".config" / "hookd" / "hooks.json", settings)


def answer(out: dict[str, Any]) -> dict[str, Any]:
    """A command handler that prints ``out``."""
    return command(f"echo '{json.dumps(out)}'")
