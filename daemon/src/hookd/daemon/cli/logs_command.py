"""``hookd logs [-f]``: the audit log (``<state_dir>/audit.jsonl`` and its rotated
files), read directly from disk: the daemon need not run, and no trio is loaded. Each fire
is one numbered line (what the call was, what hookd answered and why) and a line per
hook; ``--show N`` prints fire #N in full, each hook's output included; ``--blocked``,
``--agent``, ``--event``, ``--session`` and ``--since`` keep the records asked for."""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import deque
from collections.abc import Callable, Iterable
from datetime import UTC, datetime, timedelta
from typing import Any

from ..audit import audit_path, follow, read_records, read_whole_lines, rotated_files
from ..errors import UserError
from ..settings import load_settings


def run_logs(args: argparse.Namespace) -> int:
    settings = load_settings(args.config)
    path = audit_path(settings.state_dir)
    if not settings.audit_log:
        print("hookd: audit_log is off in hookd's configuration", file=sys.stderr)
    wanted = _filter(args)
    limit = None if args.show is not None or args.lines <= 0 else args.lines
    last: deque[dict[str, Any]] = deque(maxlen=limit)
    for name in rotated_files(path, settings.audit_keep)[:-1]:
        last.extend(r for r in read_records(name) if wanted(r))
    newest, position = read_whole_lines(path)
    last.extend(r for r in newest if wanted(r))
    if args.show is not None:
        return _show_one(last, args.show, args.json, path)
    _show(last, args.json)
    if args.follow:
        try:
            for record in follow(path, position):
                if wanted(record):
                    _show([record], args.json)
        except KeyboardInterrupt:
            return 0
    elif not last:
        print(f"hookd: no audit records in {path}" + (" match" if _filtered(args) else ""),
              file=sys.stderr)  # fmt: skip
    return 0


def _filtered(args: argparse.Namespace) -> bool:
    return bool(args.blocked or args.agent or args.event or args.session or args.since)


def _filter(args: argparse.Namespace) -> Callable[[dict[str, Any]], bool]:
    """The records ``--blocked``, ``--agent``, ``--event``, ``--session``, ``--since`` keep."""
    since = _since(args.since) if args.since else None

    def wanted(record: dict[str, Any]) -> bool:
        if args.blocked and not record.get("blocked"):
            return False
        if args.agent and record.get("agent") != args.agent:
            return False
        if args.event and record.get("event") != args.event:
            return False
        if args.session and record.get("session") != args.session:
            return False
        return since is None or str(record.get("ts", "")) >= since

    return wanted


def _since(text: str) -> str:
    """``--since``: an ISO time (``2026-11-27T18:00``, UTC) or an age (``10m``, ``2h``,
    ``1d``), as the timestamp the records are compared with."""
    age = re.fullmatch(r"(\d+)([smhd])", text.strip())
    if age:
        seconds = int(age.group(1)) * {"s": 1, "m": 60, "h": 3600, "d": 86400}[age.group(2)]
        moment = datetime.now(UTC) - timedelta(seconds=seconds)
    else:
        try:
            moment = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
        except ValueError:
            raise UserError(f"--since {text!r}: give an age (30s, 10m, 2h, 1d) or an ISO time "
                            "(2026-11-27T18:00, UTC unless it says)") from None  # fmt: skip
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _show_one(records: Iterable[dict[str, Any]], seq: int, raw: bool, path: str) -> int:
    """``--show N``: the record numbered N (``#N`` in the listing; -1: the newest fire),
    in full. Numbers restart with the daemon: the newest record with that number."""
    found = None
    for record in records:
        if record.get("seq") == seq or (seq < 0 and record.get("type") == "fire"):
            found = record
    if found is None:
        what = "fire" if seq < 0 else f"record #{seq}"
        raise UserError(f"no {what} in {path} (its numbers restart with the daemon; "
                        "'hookd logs' lists them)")  # fmt: skip
    print(json.dumps(found, indent=2) if raw else render(found, full=True))
    return 0


def _show(records: Iterable[dict[str, Any]], raw: bool) -> None:
    for record in records:
        if raw:
            print(json.dumps(record), flush=True)
        else:
            print(render(record), flush=True)


def render(record: dict[str, Any], full: bool = False) -> str:
    """One record for a person: a summary line (what the call was, what hookd answered
    and why), one line per hook; ``full``: each hook's output and every warning too."""
    peer = record.get("peer") or {}
    who = f"pid {peer.get('pid')} uid {peer.get('uid')}" + (
        " (from a hook)" if peer.get("insideHook") else ""
    )
    head = f"#{record.get('seq', '?')} {record.get('ts', '?')} {record.get('agent')} "
    head += f"{record.get('event')}" + (" (relay)" if record.get("relay") else "")
    if record.get("tool"):
        head += f" {record['tool']}" + (f" {record['command']!r}" if record.get("command") else "")
    if record.get("session"):
        who += f", session {record['session']}"
    if record.get("type") == "async-hook":
        line = f"{head} async hook {record.get('command')!r} {who}: exit {record.get('exitCode')}"
        line += f", {_ms(record.get('durationMs'))}"
        return line + (f"\n    {record['error']}" if record.get("error") else "")
    if record.get("outcome") == "refused":
        return f"{head} {who}: refused: {record.get('reason')}"
    if record.get("outcome") != "answered":
        return f"{head} {who}: {record.get('outcome')} after {_ms(record.get('durationMs'))}"
    verdict = record.get("decision") or ("blocked" if record.get("blocked") else "proceed")
    if record.get("blocked") and verdict != "blocked":
        verdict += " (blocked)"
    hooks = record.get("hooks") or []
    lines = [f"{head} {who}: {verdict}, {len(hooks)} hook(s), {_ms(record.get('durationMs'))}"]
    if record.get("reason"):
        lines.append(f"    reason: {record['reason']}")
    warnings = record.get("warnings") or []
    if full:
        lines += [f"    warning: {w}" for w in warnings]
        if record.get("systemMessage"):
            lines.append(f"    to the user: {record['systemMessage']}")
        if record.get("payload"):
            lines.append(f"    payload: {record['payload']} (hookd fire --replay "
                         f"{record.get('seq')} fires it again)")  # fmt: skip
    elif warnings:
        lines.append(f"    {len(warnings)} warning(s): {warnings[0]}"
                     + (f" (and {len(warnings) - 1} more: --show {record.get('seq')})"
                        if len(warnings) > 1 else ""))  # fmt: skip
    for hook in hooks:
        status = (
            f"not run: {hook['neverRan']}" if hook.get("neverRan")
            else f"exit {hook.get('exitCode')}, {_ms(hook.get('durationMs'))}"
            + (", timed out" if hook.get("timedOut") else "")
            + (f", {hook['decision']}" if hook.get("decision") else "")
            + (f", error: {hook['error']}" if hook.get("error") else "")
        )  # fmt: skip
        lines.append(
            f"    hook {hook.get('index')} [{hook.get('layer')}] {hook.get('command')}: {status}"
        )
        if full:
            for stream in ("stdout", "stderr"):
                tail = hook.get(f"{stream}Tail")
                if tail:
                    lines.append(f"      {stream}:")
                    lines += [f"        {line}" for line in tail.rstrip("\n").splitlines()]
    return "\n".join(lines)


def _ms(value: Any) -> str:
    return f"{value:.1f} ms" if isinstance(value, int | float) else "? ms"
