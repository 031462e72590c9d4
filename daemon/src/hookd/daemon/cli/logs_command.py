"""``hookd logs [-f]``: the audit log (``<state_dir>/audit.jsonl`` and its rotated
files), read directly from disk: the daemon need not run, and no trio is loaded."""

from __future__ import annotations

import argparse
import json
import sys
from collections import deque
from collections.abc import Iterable
from typing import Any

from ..audit import audit_path, follow, read_records, read_whole_lines, rotated_files
from ..settings import load_settings


def run_logs(args: argparse.Namespace) -> int:
    settings = load_settings(args.config)
    path = audit_path(settings.state_dir)
    if not settings.audit_log:
        print("hookd: audit_log is off in hookd's configuration", file=sys.stderr)
    last: deque[dict[str, Any]] = deque(maxlen=args.lines if args.lines > 0 else None)
    for name in rotated_files(path, settings.audit_keep)[:-1]:
        last.extend(read_records(name))
    newest, position = read_whole_lines(path)
    last.extend(newest)
    _show(last, args.json)
    if args.follow:
        try:
            for record in follow(path, position):
                _show([record], args.json)
        except KeyboardInterrupt:
            return 0
    elif not last:
        print(f"hookd: no audit records in {path}", file=sys.stderr)
    return 0


def _show(records: Iterable[dict[str, Any]], raw: bool) -> None:
    for record in records:
        if raw:
            print(json.dumps(record), flush=True)
        else:
            print(render(record), flush=True)


def render(record: dict[str, Any]) -> str:
    """One record for a person: a summary line, then one line per hook."""
    peer = record.get("peer") or {}
    who = f"pid {peer.get('pid')} uid {peer.get('uid')}" + (
        " (from a hook)" if peer.get("insideHook") else ""
    )
    head = f"{record.get('ts', '?')} {record.get('agent')} {record.get('event')}"
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
    for hook in hooks:
        status = (
            f"not run: {hook['neverRan']}" if hook.get("neverRan")
            else f"exit {hook.get('exitCode')}, {_ms(hook.get('durationMs'))}"
            + (", timed out" if hook.get("timedOut") else "")
            + (f", {hook['decision']}" if hook.get("decision") else "")
            + (f", error: {hook['error']}" if hook.get("error") else "")
        )  # fmt: skip
        lines.append(
            f"    #{hook.get('index')} [{hook.get('layer')}] {hook.get('command')}: {status}"
        )
    return "\n".join(lines)


def _ms(value: Any) -> str:
    return f"{value:.1f} ms" if isinstance(value, int | float) else "? ms"
