"""What a real-agent suite's hooks write down and how the suites read it: one script per
hook that records what it was given (stdin, arguments, some variables, its working
directory) and then answers as its case says, and the readings of those records on both
sides (the agent's run, hookd's fire)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any


def hook_script(hook: Any, env_seen: str) -> str:
    """The hook: it records what it was given (stdin, arguments, the variables matching
    ``env_seen``, its working directory) under a run number taken with an atomic ``mkdir``
    (copies of one script may run at once), logs when it starts and ends, then answers as
    the case says (only on its first run unless ``every_run``). ``hook`` has ``name``,
    ``exit``, ``stdout``, ``stderr``, ``sleep``, ``every_run`` and ``child``."""
    out = f'"$HOOK_OUT/{hook.name}'
    lines = [
        "#!/bin/sh",
        f'n=0; until mkdir {out}.run.$n" 2>/dev/null; do n=$((n+1)); done',
        f'echo "start {hook.name}" >> "$HOOK_OUT/order.log"',
        f'cat > {out}.stdin.$n"',
        f'printf "%s\\n" "$@" > {out}.args.$n"',
        f"env | grep -E '{env_seen}' | sort > {out}.env.$n\"",
        f'pwd > {out}.cwd.$n"',
    ]
    if hook.child:
        lines.append(f"sh -c {sh_quote(hook.child)} </dev/null >/dev/null 2>&1 &")
        lines.append(f'echo $! > {out}.child.$n"')
    if not hook.every_run:
        lines.append(
            f'[ "$n" -gt 0 ] && {{ echo "end {hook.name}" >> "$HOOK_OUT/order.log"; exit 0; }}'
        )
    if hook.sleep:
        lines.append(f"sleep {hook.sleep}")
    lines += [
        f'echo "end {hook.name}" >> "$HOOK_OUT/order.log"',
        f"printf '%s' {sh_quote(hook.stdout)}",
        f"printf '%s' {sh_quote(hook.stderr)} >&2",
        f': > {out}.done.$n"',
        f"exit {hook.exit}",
    ]
    return "\n".join(lines) + "\n"


def sh_quote(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def alive_children(folder: Path) -> list[str]:
    """The background children hooks left (``<hook>.child.<n>``: their pids) that still
    run: a timeout must have killed the hook's whole process group."""
    alive = []
    for path in folder.glob("*.child.*"):
        stat = Path(f"/proc/{path.read_text().strip()}/stat")
        try:
            state = stat.read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        if state != "Z":
            alive.append(path.name)
    return sorted(alive)


def hook_runs(folder: Path) -> dict[str, int]:
    """How often each hook ran (its ``<hook>.stdin.<n>`` records)."""
    counts: dict[str, int] = {}
    for path in folder.glob("*.stdin.*"):
        name = path.name.partition(".stdin.")[0]
        counts[name] = counts.get(name, 0) + 1
    return counts


def records(folder: Path, hooks: set[str]) -> dict[str, bytes]:
    """Each run 0's records (stdin, args, env, cwd) of ``hooks``, by file name."""
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())
            if path.name.partition(".")[0] in hooks
            and re.search(r"\.(stdin|args|env|cwd)\.0$", path.name)}  # fmt: skip


def same_out(name: str, mine: dict[str, bytes], my_out: Path, theirs: dict[str, bytes],
             their_out: Path) -> tuple[bytes, bytes]:  # fmt: skip
    """A record of both runs, each's own ``HOOK_OUT`` folder written ``OUT`` (the stdin is
    compared as it is: hookd was given the agent's payload)."""
    a, b = mine.get(name, b""), theirs.get(name, b"")
    if ".stdin." in name:
        return a, b
    return a.replace(str(my_out).encode(), b"OUT"), b.replace(str(their_out).encode(), b"OUT")


def most_at_once(log: Path) -> int:
    """The most hooks that were running at the same time (from their start/end lines)."""
    running = most = 0
    for line in log.read_text().splitlines() if log.exists() else []:
        running += 1 if line.startswith("start ") else -1
        most = max(most, running)
    return most


def jsonl(path: Path) -> list[dict[str, Any]]:
    """The JSON lines of a log (a request log, an app-server's messages); none when the
    file is missing, a line that is no JSON passed over."""
    if not path.exists():
        return []
    found = []
    for line in path.read_text(errors="replace").splitlines():
        try:
            found.append(json.loads(line))
        except ValueError:
            continue
    return found


def first_stdin(case: Any, folder: Path) -> bytes | None:
    """The payload one of the case's hooks on its event was given first (a case has
    ``event`` and ``hooks``, each hook ``name`` and ``event``, None for the case's)."""
    for hook in case.hooks:
        if (hook.event or case.event) == case.event:
            path = folder / f"{hook.name}.stdin.0"
            if path.exists():
                return path.read_bytes()
    return None


def ran_on_the_event(case: Any, folder: Path) -> set[str]:
    """The hooks of the case's event that ran (recorded in ``folder``)."""
    return {name for name in hook_runs(folder)
            if any(h.name == name and (h.event or case.event) == case.event
                   for h in case.hooks)}  # fmt: skip
