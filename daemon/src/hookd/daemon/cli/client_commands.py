"""The subcommands that talk to a running daemon (``fire``, ``status``, ``hooks``,
``shutdown``). They use only ``hookd.client``: no trio, no daemon code."""

from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
from typing import Any

from hookd.client import Client
from hookd.relay import agent_environment

from ..errors import UserError


def _client(args: argparse.Namespace, timeout_s: float = 30.0) -> Client:
    return Client(args.socket, timeout_s=timeout_s)


def run_fire(args: argparse.Namespace) -> int:
    if args.example:
        return _print_example(args)
    if args.replay is not None:
        from .fire_inputs import replayed

        again = replayed(args)
        agent, event, payload = again.agent, again.event, again.payload
        roots = workspace_roots(args.workspace) or again.roots
    else:
        agent, event = args.agent, args.event
        roots = workspace_roots(args.workspace) or [_current_folder()]
        payload = _read_payload(args)
    show = args.progress == "always" or (args.progress == "auto" and sys.stderr.isatty())
    env = None if args.no_env else agent_environment(os.environ)
    with _client(args) as client:
        result = client.fire(
            agent,
            event,
            roots,
            payload,
            on_progress=_print_progress if show else None,
            timeout_ms=args.timeout_ms,
            slow_threshold_ms=args.slow_threshold_ms,
            env=env,
        )
    json.dump(result, sys.stdout, indent=2)
    sys.stdout.write("\n")
    action = result.get("action", "proceed")
    if not args.quiet:
        for line in trouble(result):
            print(f"hookd: {line}", file=sys.stderr)
    if action != "proceed":
        print(f"hookd: {_ACTION_TEXT[action]}{_why(result)}", file=sys.stderr)
    return FIRE_EXIT_CODES[action]


def _print_example(args: argparse.Namespace) -> int:
    from ..all_dialects import DIALECTS
    from ..model import Dialect
    from .fire_inputs import example

    event = DIALECTS[Dialect(args.agent)].canonical_event(args.event)
    if event is None:
        raise UserError(f"{args.agent} has no event {args.event!r}: 'hookd explain' and the "
                        "agent's documentation list its events")  # fmt: skip
    json.dump(example(args.agent, event, _current_folder()), sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0


def trouble(result: dict[str, Any]) -> list[str]:
    """What went wrong in a fire, a line each: every hook that failed, timed out or was
    not run, and every warning (a file that did not parse, a hook left out)."""
    lines = []
    for hook in result.get("hooks") or ():
        error = hook.get("error")
        if not (error or hook.get("timedOut")):
            continue
        what = "timed out" if hook.get("timedOut") else "failed"
        if error and error.startswith(("not run", "never ran", "could not start")):
            what = "not run"
        said = f"hook {hook.get('index')} ({hook.get('source')}: {hook.get('command')}) {what}"
        if error:
            said += f": {error}"
        tail = (hook.get("stderrTail") or "").strip().splitlines()
        if tail and tail[-1] not in said:
            said += f" (its last line on stderr: {tail[-1]})"
        lines.append(said)
    lines += [f"warning: {warning}" for warning in result.get("warnings") or ()]
    return lines


FIRE_EXIT_CODES = {"proceed": 0, "block": 2, "ask": 4, "stop": 5, "proceed-then-stop": 6}
"""``hookd fire``'s exit code for each ``action`` of the result: a caller that reads only
the exit code knows what the agent does next (1 and 3 are hookd's own errors)."""
_ACTION_TEXT = {
    "block": "the agent blocks the action",
    "ask": "the agent asks the user to confirm the action",
    "stop": "the action does not happen and the agent stops",
    "proceed-then-stop": "the action goes ahead, then the agent stops",
}


def workspace_roots(given: list[str]) -> list[str]:
    """The ``--workspace`` folders, absolute. One that is not an existing folder is an
    error: fired anyway, the hooks of the intended workspace would silently not run."""
    roots = [os.path.abspath(w) for w in given]
    for root in roots:
        if not os.path.isdir(root):
            raise UserError(f"not a directory: {root}: name an existing workspace folder")
    return roots


def _current_folder() -> str:
    try:
        return os.getcwd()
    except FileNotFoundError:
        raise UserError(
            "the current folder no longer exists: name the workspace folder with --workspace"
        ) from None


def _why(result: dict[str, Any]) -> str:
    why = result.get("stopReason") if not result.get("continue", True) else None
    why = why or result.get("reason")
    return f": {why}" if why else ""


def _read_payload(args: argparse.Namespace) -> dict[str, Any]:
    """The event JSON on stdin. An empty stdin is an error, not an empty payload: a hook
    that reads the event would get none, so saying nothing is what --no-payload is for."""
    if args.no_payload or sys.stdin is None or sys.stdin.isatty():
        return {}
    text = sys.stdin.read()
    if not text.strip():
        raise UserError(
            "stdin is empty: pipe the event JSON (echo '{\"tool_name\": ...}' | hookd fire "
            "...), or pass --no-payload to fire with an empty payload"
        )
    try:
        payload = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SystemExit(
            f"hookd: the payload on stdin is not JSON (line {exc.lineno}, column {exc.colno}: "
            f"{exc.msg}); pipe the event object, or pass --no-payload"
        ) from None
    except RecursionError:
        raise SystemExit("hookd: the payload on stdin is nested too deeply to read") from None
    if not isinstance(payload, dict):
        raise SystemExit("hookd: the payload on stdin must be a JSON object")
    return payload


def _print_progress(value: dict[str, Any]) -> None:
    message = value.get("message")
    if message:
        kind = value.get("hookd", {}).get("type", value.get("kind"))
        marker = {"hook/slow": "!", "fire/end": "=", "fire/begin": ">"}.get(kind, " ")
        print(f"hookd {marker} {message}", file=sys.stderr, flush=True)


def run_status(args: argparse.Namespace) -> int:
    with _client(args, timeout_s=5.0) as client:
        status = client.status()
    if args.json:
        json.dump(status, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return 0
    print(render_status(status))
    from .relay_program import describe, relay_path

    print(f"relay      entries written now run {describe(relay_path())}")
    return 0


def render_status(status: dict[str, Any]) -> str:
    lines = [
        f"hookd {status['version']}  pid {status['pid']}  up {status['uptimeS']:.0f} s",
        f"socket     {status['socket']}",
        f"roots      {len(status['roots'])}",
        f"hooks      {status['hooks']['total']}"
        + "".join(f"  {d}: {n}" for d, n in sorted(status["hooks"]["byDialect"].items())),
        f"fires      {status['fires']} total, {len(status['inFlight'])} in flight, "
        f"{status['connections']} connection(s)",
        f"watcher    {status['watcher']['directories']} directories, "
        f"{status['watcher']['batches']} change batches",
    ]
    clients = status.get("clients")
    if clients:
        lines.append(
            f"clients    {status['connections']} of {clients['maxConnections']} connections, "
            f"{clients['refused']} refused, {clients.get('shed', 0)} idle shed, "
            f"{clients['unsentBytes']} bytes unsent, "
            f"{clients['disconnectedNotReading']} cut off (not reading), "
            f"{clients['closedIncomplete']} closed (half-sent); "
            f"{status.get('rootsForgotten', 0)} roots forgotten"
        )
    processes = status.get("processes")
    if processes and "custody" in processes:
        held = processes["cgroup"] or processes["cgroupUnavailable"]
        lines.append(
            f"processes  {processes['running']} running, {processes['detached']} detached, "
            f"{processes['waiting']} waiting (max {processes['max']}); "
            f"{processes['escapeesKilled']} escapees killed, {processes['escapeesHeld']} held; "
            f"custody {processes['custody']}" + (f" ({held})" if held else "")
        )
    for error in status["sourceErrors"]:
        lines.append(f"ERROR      [{error['dialect']}] {error['error']}")
    trust = status.get("trust") or {}
    lines.append(_trust_line(trust))
    if trust.get("storeProblem"):
        lines.append(f"TRUST      {trust['storeProblem']}")
    for waiting in trust.get("waiting", ()):
        lines.append(f"WAITING    {waiting['workspace']}: not run, {waiting['reason']}")
    for refused in trust.get("refused", ()):
        lines.append(f"REFUSED    {refused['reason']}")
    audit = status.get("audit") or {}
    if audit.get("path"):
        dropped = f", {audit['dropped']} dropped ({audit['lastError']})" if audit["dropped"] else ""
        written = f"{audit['written']} records{dropped}"
        lines.append(f"audit      {audit['path']} ({written}; hookd logs)")
    http = status.get("httpEntry")
    lines.append(_http_entry_line(http) if http else "http entry off (http_entry in the config)")
    for missing in (status.get("portable") or {}).get("uncarried", ()):
        lines.append(f"PORTABLE   {missing['agent']}'s relay does not carry {missing['event']} "
                     f"({missing['sharedEvent']}): the portable hooks of it never run there; "
                     f"run '{missing['fix']}'")  # fmt: skip
    for fire in status["inFlight"]:
        lines.append(
            f"in flight  #{fire['id']} {fire['agent']} {fire['event']} "
            f"{fire['hooksDone']}/{fire['hooksTotal']} done, {fire['elapsedMs']:.0f} ms"
        )
    if status["hookStats"]:
        lines.append("")
        lines.append(
            f"{'runs':>6} {'p50 ms':>8} {'p95 ms':>8} {'t/o':>4} {'err':>4} {'not run':>7}  "
            f"{'dialect':<9} {'layer':<9} hook"
        )
        for hook in status["hookStats"]:
            lines.append(
                f"{hook['runs']:>6} {_ms(hook['p50Ms']):>8} {_ms(hook['p95Ms']):>8} "
                f"{hook['timeouts']:>4} {hook['errors']:>4} {hook.get('notRun', 0):>7}  "
                f"{hook['dialect']:<9} {hook['layer']:<9} {hook['source']}"
                + (f"  ({hook['command']})" if hook["command"] != hook["source"] else "")
            )
    return "\n".join(lines)


def _trust_line(trust: dict[str, Any]) -> str:
    """What waits for ``hookd allow`` (each workspace on a WAITING line below)."""
    if trust.get("trustAll"):
        return "trust      trust_all is set: every workspace's hooks run without approval"
    waiting = len(trust.get("waiting", ()))
    what = f"{waiting} workspace(s) wait" if waiting else "no workspace waits"
    store = f"; store {trust['store']}" if trust.get("store") else ""
    return f"trust      {what} for hookd allow{store}"


def _http_entry_line(http: dict[str, Any]) -> str:
    refused = ", ".join(f"{n}x {status}" for status, n in http["refused"].items())
    return (
        f"http entry {http['url']}: {http['served']} served, {http['abandoned']} abandoned"
        + (f", refused {refused}" if refused else "")
        + f"; passcode {http['passcodeFile']}"
    )


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def run_hooks(args: argparse.Namespace) -> int:
    roots = workspace_roots(args.workspace)
    with _client(args, timeout_s=10.0) as client:
        listing = client.hooks_list(roots or None)
    if args.json:
        json.dump(listing, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return 0
    for hook in listing["hooks"]:
        matcher = f" [{hook['matcher']}]" if hook.get("matcher") else ""
        portable = hook.get("portable")
        whose = "portable" if portable else hook["dialect"]
        where = f"{whose:<9} {hook['layer']:<15} {hook['event']:<18}"
        print(f"{where}{matcher} {hook['source']}")
        if hook["command"] != hook["source"]:
            print(f"{'':<44}$ {hook['command']}")
        if hook.get("if"):
            print(f"{'':<44}if {hook['if']}")
        if hook.get("off"):
            print(f"{'':<44}(off: {hook['off']})")
        if hook.get("relay"):
            print(f"{'':<44}(relay entry, not run by hookd){_relay_named(hook)}")
        if portable:
            print(f"{'':<44}runs in: {', '.join(portable['runs']) or 'no agent'}")
            for agent, why in portable["cannot"].items():
                print(f"{'':<44}{agent}: {why}")
    for error in listing["errors"]:
        print(f"ERROR [{error['dialect']}] {error['error']}", file=sys.stderr)
    if not listing["hooks"]:
        print("no hooks registered", file=sys.stderr)
    return 0


def _relay_named(hook: dict[str, Any]) -> str:
    """Which relay program a relay entry runs (native, python, missing), when its
    command names one by path (a Cline relay file: the path on its ``exec`` line)."""
    from .relay_program import relay_kind

    command = hook["command"]
    if hook["command"] == hook["source"]:  # a relay file: the program it execs
        try:
            with open(hook["source"], encoding="utf-8", errors="replace") as file:
                lines = [line.strip() for line in file]
        except OSError:
            return ""
        runs = [line for line in lines if "hookd-relay" in line and not line.startswith("#")]
        command = runs[0].removeprefix("exec ") if runs else ""
    try:
        words = shlex.split(command)
    except ValueError:
        return ""
    program = next((w for w in words if os.path.basename(w) == "hookd-relay"), None)
    return f" runs the {relay_kind(program)} relay" if program else ""


def run_shutdown(args: argparse.Namespace) -> int:
    with _client(args, timeout_s=10.0) as client:
        reply = client.shutdown()
    print(f"hookd (pid {reply['pid']}) is stopping", file=sys.stderr)
    return 0
