"""``hookd doctor``: check the set-up, say what is wrong and the command that fixes it.

    hookd doctor            # a line per finding; exit 1 when something is wrong
    hookd doctor --json     # the same for tools

The probes live in ``hookd.daemon.doctor`` (one module each); this module parses the
command line, runs them (the agents' ``--version`` meanwhile, all at once) and prints.
Every probe has a deadline, so doctor answers within seconds whatever hangs.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import Any

DESCRIPTION = (
    "Check the set-up: which daemon answers on this shell's socket (version, pid) and "
    "whether other hookd daemons run for this user on other sockets; whether each agent's "
    "relay entries name this installation's hookd-relay and carry the events and matchers "
    "of the hooks handed to hookd (user scope, and the project scopes of --workspace); the "
    "service (systemd user units, launchd agent); whether the trust store and the audit "
    "log can be written; the agents on PATH and their versions against the ones hookd is "
    "tested with. Each problem comes with the command that fixes it. Exits 1 when "
    "something is wrong, else 0."
)


VERSION_TIMEOUT_S = 20.0
"""How long the agents' ``--version`` may take together, by default: a Node agent takes
about 2 s alone, and the eight at once about 9 s on two busy cores."""


def add_parser(commands: Any) -> None:
    doctor = commands.add_parser("doctor", help="check the set-up and say how to fix it",
                                 description=DESCRIPTION)  # fmt: skip
    doctor.add_argument("--json", action="store_true", help="print the findings as JSON")
    doctor.add_argument("--workspace", action="append", default=[], metavar="DIR",
                        help="a project whose relay entries to check too (repeatable; "
                        "default: the current folder)")  # fmt: skip
    doctor.add_argument("--home", metavar="DIR", help="the home folder (default: $HOME)")
    doctor.add_argument("--config", metavar="FILE", help="hookd config file (TOML)")
    doctor.add_argument("--version-timeout", type=_seconds, default=VERSION_TIMEOUT_S,
                        metavar="S", help="how long the agents' '--version' may take, all "
                        f"together (default {VERSION_TIMEOUT_S:g}; those still running then "
                        "are killed)")  # fmt: skip


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value <= 600:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds above 0 and "
                                         "at most 600")  # fmt: skip
    return value


def run_doctor(args: argparse.Namespace) -> int:
    from ..doctor import agent_versions
    from ..doctor.findings import problems

    began = time.monotonic()
    agents = agent_versions.start()
    found = _probes(args)
    found += agent_versions.collect(agents, began, args.version_timeout)
    if not agents.isolated:
        found.append(_network_note())
    elapsed_ms = (time.monotonic() - began) * 1000
    if args.json:
        json.dump({"ok": not problems(found), "elapsedMs": round(elapsed_ms),
                   "findings": [f.wire() for f in found]}, sys.stdout, indent=2)  # fmt: skip
        sys.stdout.write("\n")
    else:
        _print(found)
    return 1 if problems(found) else 0


def _probes(args: argparse.Namespace) -> list[Any]:
    from hookd.protocol import default_socket_path
    from hookd.relay import installed_service

    from .. import service
    from ..doctor import daemons, relays, service_check, state_files
    from ..doctor.findings import Finding
    from ..errors import ConfigError
    from ..settings import Settings, config_file_path, load_settings
    from .client_commands import _current_folder, workspace_roots

    found: list[Finding] = []
    path = args.socket or default_socket_path()
    settings: Settings | None = None
    try:
        settings = load_settings(args.config)
    except ConfigError as exc:
        edit = f"$EDITOR {config_file_path(args.config)}"
        found.append(Finding("config", "problem", str(exc), edit))
    if settings is not None and not args.socket and settings.socket_path != path:
        found.append(Finding("config", "problem", f"hookd serve listens on {settings.socket_path} "
                             f"(socket_path in {config_file_path(args.config)}), but clients and "
                             f"agents connect to {path}: remove socket_path, or give them "
                             f"HOOKD_SOCKET={settings.socket_path}",
                             f"$EDITOR {config_file_path(args.config)}"))  # fmt: skip
    origin = daemons.socket_origin(args.socket)
    files = service.state(ask_manager=False)  # installed? (the files alone)
    start = service.start_command(files) if files.installed else None
    answer = daemons.answering(path, origin, start)
    pid = answer.status["pid"] if answer.status else None
    found += answer.findings
    served = service.state(timeout_s=ASK_MANAGER_S)  # after: the answer may have started it
    found += daemons.others(path, pid, served.main_pid if served.installed else None)
    runs = service.who_runs(served) if served.installed and served.unit_known else None
    found += service_check.check(served, runs, installed_service(os.environ), path, origin)
    found += state_files.check(answer.status, settings.state_dir if settings else None)
    home = os.path.abspath(args.home or os.path.expanduser("~"))
    projects = workspace_roots(args.workspace) or [_current_folder()]
    found += relays.check(home, projects, settings, os.environ)
    return found


ASK_MANAGER_S = 5.0
"""How long doctor lets ``systemctl``/``launchctl`` take (it answers within seconds)."""


def _network_note() -> Any:
    from ..doctor.findings import Finding

    return Finding("agent", "info", "the agents' '--version' ran with the network reachable: "
                   "this system lets no user make a network namespace (unshare -rn)")  # fmt: skip


_MARK = {"ok": "ok", "info": "-", "warning": "warning", "problem": "PROBLEM"}


def _print(found: list[Any]) -> None:
    for finding in found:
        print(f"{_MARK[finding.level]:<8} {finding.area:<8} {finding.text}")
        if finding.fix:
            print(f"{'':<8} {'fix:':<8} {finding.fix}")
    wrong = sum(f.level == "problem" for f in found)
    warned = sum(f.level == "warning" for f in found)
    if wrong:
        print(f"hookd doctor: {wrong} problem(s), {warned} warning(s): run each 'fix:' command")
    else:
        print(f"hookd doctor: no problems found ({warned} warning(s))")
