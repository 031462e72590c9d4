"""``hookd``: start the daemon, fire events, and look inside it.

Only ``serve`` imports trio; every other subcommand talks to the running daemon through
``hookd.client`` (standard library only), so ``hookd status`` starts in tens of ms.

Exit codes: 0 success (for ``fire``: proceed), 1 an error the user can fix (the message
says how; a usage error too, never argparse's 2, which ``fire`` gives to "block"), 3 an
unexpected error (a bug: please report it), 130 interrupted, 141 the reader of stdout went
away (``hookd status | head``, as a shell reports SIGPIPE); ``fire`` also exits 2 (block),
4 (ask), 5 (stop) or 6 (proceed, then stop) by the result's ``action``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from hookd.protocol import AGENTS

from . import doctor_command, service_command
from .agent_choices import ADOPT_SCOPES, SCOPES_HELP

EXIT_OK, EXIT_ERROR, EXIT_BLOCKED, EXIT_BUG, EXIT_INTERRUPTED = 0, 1, 2, 3, 130
EXIT_BROKEN_PIPE = 141


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error exits 1 (an error you can fix), not 2: for ``hookd
    fire`` 2 means "block", and a caller reading the code must not take a typo for it.
    The subcommands' parsers are of this class too (``add_subparsers`` copies it)."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(EXIT_ERROR, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="hookd",
        description="One hook engine for every coding agent: a daemon that keeps a warm "
        "registry of Claude Code, Codex CLI, Gemini CLI, GitHub Copilot CLI, Factory Droid, "
        "Cline, Cline SDK and Augment hooks and runs them on request, concurrently, with the "
        "semantics of the agent that defined them.",
        epilog="Socket: --socket, else $HOOKD_SOCKET, else $XDG_RUNTIME_DIR/hookd/hookd.sock "
        "(or /tmp/hookd-<uid>/hookd.sock).",
    )
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    parser.add_argument("--socket", metavar="PATH", help="the daemon's Unix socket")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    serve = commands.add_parser(
        "serve",
        help="run the daemon in the foreground",
        description="Run the daemon in the foreground until SIGTERM/SIGINT or 'hookd "
        "shutdown'. Logs go to stderr: JSON lines when stderr is not a terminal.",
    )
    serve.add_argument("--config", metavar="FILE", help="hookd config file (TOML)")
    serve.add_argument("--home", metavar="DIR", help="home directory for user-level hooks")
    serve.add_argument(
        "--system-root",
        metavar="DIR",
        help="prefix for system-level locations such as /etc (for testing)",
    )
    serve.add_argument(
        "--slow-threshold-ms",
        type=int,
        metavar="MS",
        help="report a hook as slow after this long (default 1000)",
    )
    serve.add_argument("--log-level", choices=("debug", "info", "warning", "error"))
    serve.add_argument(
        "--trust-all",
        action="store_true",
        default=None,
        help="run every workspace's hooks without 'hookd allow' (CI, containers)",
    )
    serve.add_argument(
        "--log-format",
        choices=("json", "console"),
        help="default: json unless stderr is a terminal",
    )

    fire = commands.add_parser(
        "fire",
        help="fire an event and print the combined result",
        description="Fire EVENT for AGENT: the payload JSON (the event's fields as the agent "
        "sends them) is read from stdin (empty: an error; --no-payload: none); the hooks see "
        "this command's environment (--no-env: the daemon's). Prints the result JSON on "
        "stdout, live progress on stderr when it is a terminal. Exits by what the agent does "
        "next (the result's action): 0 proceed, 2 block, 4 ask, 5 stop, 6 proceed then stop; "
        "1 on error. Any action but proceed is also said in one line on stderr, and so is "
        "each hook that failed, timed out or did not run, and each warning (--quiet: not).",
    )
    fire.add_argument("event", nargs="?", help="the agent's own event name, e.g. PreToolUse")
    fire.add_argument("--agent", choices=AGENTS, help="the agent whose hooks and rules apply")
    fire.add_argument(
        "--replay", type=_record_number, metavar="N",
        help="fire #N of the audit log again ('hookd logs' numbers them; 'last': the newest "
        "fire): its agent, event, "
        "workspace and payload as kept there (EVENT and --workspace override them)",
    )  # fmt: skip
    fire.add_argument(
        "--example", action="store_true",
        help="print a realistic payload of EVENT for AGENT to start from (fires nothing)",
    )  # fmt: skip
    fire.add_argument("--config", metavar="FILE", help="hookd config file (TOML), for --replay")
    fire.set_defaults(check=_fire_arguments(fire))
    fire.add_argument(
        "--workspace",
        action="append",
        default=[],
        metavar="DIR",
        help="a workspace root, an existing folder (repeatable); defaults to the current directory",
    )
    fire.add_argument("--timeout-ms", type=int, metavar="MS", help="cap for the whole fire")
    fire.add_argument("--slow-threshold-ms", type=int, metavar="MS")
    fire.add_argument(
        "--progress",
        choices=("auto", "always", "never"),
        default="auto",
        help="show progress on stderr (auto: when stderr is a terminal)",
    )
    fire.add_argument(
        "--no-payload", action="store_true", help="do not read stdin; send an empty payload"
    )
    fire.add_argument(
        "--quiet", action="store_true",
        help="say nothing on stderr of hooks that failed, timed out or did not run, nor of "
        "the fire's warnings (the result JSON has them all)",
    )  # fmt: skip
    fire.add_argument(
        "--no-env",
        action="store_true",
        help="do not forward this environment to the hooks (by default they see it, as they "
        "would under the agent: PATH, HOME, the agent's variables; less hookd's own HOOKD_* "
        "and the service manager's); with --no-env they see the daemon's",
    )

    explain = commands.add_parser(
        "explain",
        help="say which hooks a fire would run, and why each other one would not",
        description="Explain what 'hookd fire EVENT --agent AGENT' would run, without running "
        "anything: every hook declared for EVENT in the workspace (and user and system "
        "places), each with whether it would run and if not why (its matcher, with a 'did "
        "you mean' when only the letter case differs from the tool; its 'if'; untrusted or "
        "changed since 'hookd allow'; a duplicate of one that runs; hookd's own relay "
        "entry; the agent's own rules), other agents' hooks for an event of the same name, "
        "the files that could not be read, and the fire's warnings. The payload JSON is "
        "read from stdin as for 'hookd fire' (matchers are compared with it; --no-payload: "
        "none). Exits 0 once explained, 1 on error.",
    )
    explain.add_argument("event", help="the agent's own event name, e.g. PreToolUse")
    explain.add_argument("--agent", required=True, choices=AGENTS)
    explain.add_argument(
        "--workspace",
        action="append",
        default=[],
        metavar="DIR",
        help="a workspace root, an existing folder (repeatable); defaults to the current directory",
    )
    explain.add_argument(
        "--no-payload", action="store_true", help="do not read stdin; explain an empty payload"
    )
    explain.add_argument("--json", action="store_true", help="print the raw explanation JSON")
    explain.add_argument(
        "--relay", action="store_true",
        help="explain the fire the relay makes inside the agent: only the hooks handed to "
        "hookd with 'hookd adopt' run there (the agent runs its own)",
    )  # fmt: skip

    status = commands.add_parser(
        "status",
        help="show the daemon's registry, fires and timings",
        description="Show the running daemon: its roots, the hooks per dialect and the files "
        "it could not read, fires in flight, trust (what waits for 'hookd allow'), the audit "
        "log and the http entry, and per hook its runs with p50/p95 durations and the fires "
        "in which it did not start (untrusted, denied, never ran).",
    )
    status.add_argument("--json", action="store_true", help="print the raw status JSON")

    hooks = commands.add_parser(
        "hooks",
        help="list every registered hook and source error",
        description="List every hook the daemon knows (dialect, layer, event, matcher, source "
        "file, command, if), for all its roots, or with --workspace for those folders only "
        "(and the user's and system's hooks); the files it could not read are listed on "
        "stderr.",
    )
    hooks.add_argument("--json", action="store_true", help="print the raw JSON")
    hooks.add_argument(
        "--workspace",
        action="append",
        default=[],
        metavar="DIR",
        help="list this workspace's hooks (registered first; an existing folder; repeatable)",
    )

    commands.add_parser(
        "shutdown",
        help="stop the daemon (in-flight fires are cancelled)",
        description="Stop the running daemon: fires in flight are cancelled and answered, "
        "their hooks' process trees killed. Refused from inside a hook.",
    )

    logs = commands.add_parser(
        "logs",
        help="show the audit log (every fire and hook run)",
        description="Print the last records of hookd's audit log (<state_dir>/audit.jsonl and "
        "its rotated files), read from disk: the daemon need not run.",
    )
    logs.add_argument("-f", "--follow", action="store_true", help="keep printing new records")
    logs.add_argument(
        "-n", "--lines", type=_record_count, default=20, metavar="N",
        help="records to show (0: all)",
    )  # fmt: skip
    logs.add_argument("--json", action="store_true", help="print the records as JSON lines")
    logs.add_argument("--show", type=_record_number, metavar="N",
                      help="print fire #N (the number 'hookd logs' shows; 'last': the "
                      "newest) in full: each hook's output, warnings, payload")  # fmt: skip
    logs.add_argument("--blocked", action="store_true", help="only fires hookd blocked")
    logs.add_argument("--agent", choices=AGENTS, help="only this agent's fires")
    logs.add_argument("--event", metavar="EVENT", help="only this event's fires")
    logs.add_argument("--session", metavar="ID", help="only this session's fires")
    logs.add_argument("--since", metavar="WHEN",
                      help="only records since then: an age (30s, 10m, 2h, 1d) or an ISO "
                      "time (UTC unless it says)")  # fmt: skip
    logs.add_argument("--config", metavar="FILE", help="hookd config file (TOML)")

    for name, summary in (
        ("allow", "trust the hooks a workspace configures, as they are now"),
        ("deny", "stop trusting a workspace: its hooks do not run"),
    ):
        trust = commands.add_parser(
            name,
            help=summary,
            description=f"{summary[0].upper()}{summary[1:]}. Writes the trust store under "
            "hookd's state_dir (the daemon need not run); refused from inside a hook.",
        )
        trust.add_argument("dir", nargs="?", metavar="DIR", help="default: the current folder")
        trust.add_argument("--config", metavar="FILE", help="hookd config file (TOML)")
    trace = commands.add_parser(
        "trace",
        help="draw one fire of the audit log as a timeline (HTML or SVG)",
        description="Draw fire N of the audit log ('hookd logs' numbers them; default: the "
        "newest) as a timeline: each hook a bar from when the fire began it, its queue wait "
        "(waiting for a process slot, being prepared) apart from its run, failed, blocked, "
        "timed-out, slow and not-run hooks marked, the verdict on top. Writes a small "
        "self-contained HTML page (--svg: an SVG image) to hookd-trace-N.html in the "
        "current folder, or to -o FILE ('-': stdout). Reads the log from disk: the daemon "
        "need not run.",
    )
    trace.add_argument("number", nargs="?", type=_record_number, default=LAST, metavar="N",
                       help="the fire's number, or 'last' (the default)")  # fmt: skip
    trace.add_argument("-o", "--output", metavar="FILE", help="where to write it ('-': stdout)")
    trace.add_argument("--svg", action="store_true", help="an SVG image instead of a page")
    trace.add_argument("--config", metavar="FILE", help="hookd config file (TOML)")

    validate = commands.add_parser(
        "validate",
        help="check the hook configuration of workspaces and the user's, for every agent",
        description="Read every agent's hook configuration in the DIR workspaces (default: the "
        "current folder) and the user's and system's, with each agent's own reader, and list "
        "what is wrong: files that do not parse (line and column; a trailing comma named as "
        "one), unknown events and keys (with 'did you mean'), handlers the agent cannot load, "
        "invalid regular expressions, what the agent silently ignores, scripts that are "
        "missing or not executable, programs not on PATH, timeouts of an hour or more (a "
        "value in the wrong unit?). Runs nothing and needs no daemon. Exits 1 when anything "
        "is wrong, else 0: usable in CI and pre-commit (--json for tools).",
    )
    validate.add_argument("dirs", nargs="*", metavar="DIR", help="default: the current folder")
    validate.add_argument("--json", action="store_true", help="print the findings as JSON")
    validate.add_argument("--config", metavar="FILE", help="hookd config file (TOML)")
    _add_relay_commands(commands)
    service_command.add_parser(commands)
    completion = commands.add_parser(
        "completion",
        help="print a shell completion script (bash, zsh, fish)",
        description="Print the completion script for SHELL, made from this command line "
        "itself. bash: hookd completion bash > ~/.local/share/bash-completion/completions/"
        "hookd; zsh: hookd completion zsh > ~/.zfunc/_hookd (or source it from .zshrc); "
        "fish: hookd completion fish > ~/.config/fish/completions/hookd.fish.",
    )
    completion.add_argument("shell", choices=("bash", "zsh", "fish"))
    doctor_command.add_parser(commands)
    return parser


LAST = -1
"""``--show last`` / ``--replay last``: the newest fire of the audit log."""


def _fire_arguments(fire: argparse.ArgumentParser) -> Any:
    """``fire``'s usage rule argparse cannot say: EVENT and --agent, unless --replay."""

    def check(args: argparse.Namespace) -> None:
        if args.replay is not None:
            return
        missing = [name for name, value in (("event", args.event), ("--agent", args.agent))
                   if not value]  # fmt: skip
        if missing:
            fire.error(f"the following arguments are required: {', '.join(missing)} "
                       "(or --replay N)")  # fmt: skip

    return check


def _record_number(text: str) -> int:
    """A fire's number in ``hookd logs`` (``#N``), or ``last`` for the newest."""
    if text == "last":
        return LAST
    number = _record_count(text)
    if number == 0:
        raise argparse.ArgumentTypeError("fires are numbered from 1 ('last': the newest)")
    return number


def _record_count(text: str) -> int:
    """``logs -n``: a count of records, 0 for all; a negative one is refused, not read
    as "all"."""
    try:
        count = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid int value: {text!r}") from None
    if count < 0:
        raise argparse.ArgumentTypeError(
            f"{count} is negative: give a number of records, 0 for all"
        )
    return count


_RELAY_HELP = (
    "'hookd adopt' moves an agent's hooks (the command hooks of a settings file, or the "
    "files of a Cline hook folder) into a hookd-owned file or folder and puts 'hookd-relay' "
    "in their place, so the agent's hooks run through hookd, each exactly once; 'hookd "
    "unadopt' gives them back. 'hookd relay install' writes the relay entries again for "
    "what is adopted, 'uninstall' removes them. Every edit is atomic, keeps a backup "
    "(<file>.hookd.orig: as before hookd first changed it; <file>.hookd.bak: the last "
    "version; a moved hook file keeps its mode in hookd's folder) and is "
    f"idempotent; --dry-run shows the diff. {SCOPES_HELP}"
)


def _add_relay_commands(commands: Any) -> None:
    for name, summary in (
        ("adopt", "hand an agent's hooks to hookd (the relay runs them inside the agent)"),
        ("unadopt", "give the adopted hooks back to the agent's settings file"),
    ):
        described = f"{summary[0].upper()}{summary[1:]}. {_RELAY_HELP}"
        _relay_arguments(commands.add_parser(name, help=summary, description=described))
    relay = commands.add_parser(
        "relay",
        help="put hookd-relay into an agent's settings for the adopted hooks' events",
        description=_RELAY_HELP,
    )
    actions = relay.add_subparsers(dest="relay_action", metavar="ACTION", required=True)
    for name, summary in (
        ("install", "write the relay entries for what is adopted"),
        ("uninstall", "remove the relay entries"),
    ):
        described = f"{summary[0].upper()}{summary[1:]}. {_RELAY_HELP}"
        action = actions.add_parser(name, help=summary, description=described)
        _relay_arguments(action)
        if name == "install":
            _http_arguments(action)


def _http_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--http", action="store_true",
        help="Claude Code http hook entries instead of commands: no process per event; "
        "the daemon serves them with http_entry = true, the agent sends the passcode from "
        "$HOOKD_HTTP_PASSCODE (README: \"Claude Code's http entry\")",
    )  # fmt: skip
    parser.add_argument(
        "--on-error", choices=("continue", "block"), default="continue",
        help="with --http: when hookd cannot be reached or refuses, the action goes on "
        "(continue, as for a failing hook) or is blocked (block: onFailure in the entry)",
    )  # fmt: skip
    parser.add_argument(
        "--config", metavar="FILE", help="hookd config file (TOML): its http_port is the URL's"
    )


def _relay_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--agent", required=True, choices=AGENTS, help="whose hooks")
    parser.add_argument("--scope", default="user", choices=ADOPT_SCOPES,
                        help="which of the agent's settings files or hook folders (default: "
                        "user)")  # fmt: skip
    parser.add_argument("--project", metavar="DIR", help="the project (default: current folder)")
    parser.add_argument("--home", metavar="DIR", help="the home folder (default: $HOME)")
    parser.add_argument("--dry-run", action="store_true", help="show the diff, write nothing")
    parser.add_argument("--gitignore", action="store_true", help="with a project's scope: add "
                        "the lines for this machine's files to <project>/.gitignore")  # fmt: skip


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "check", None) is not None:
        args.check(args)
    if args.version:
        from importlib.metadata import version

        print(f"hookd {version('hookd')}")
        return EXIT_OK
    if args.command is None:
        parser.print_help()
        return EXIT_ERROR
    try:
        return _run(args)
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        return _reader_went_away()
    except Exception as exc:  # noqa: BLE001 - the user-facing error boundary
        return _report(exc, raw=bool(getattr(args, "json", False)))


def _run(args: argparse.Namespace) -> int:
    if args.command == "serve":
        from .serve import run_serve

        return run_serve(args)
    if args.command == "logs":
        from .logs_command import run_logs

        return run_logs(args)
    if args.command in ("adopt", "unadopt", "relay"):
        from . import relay_commands

        return relay_commands.run(args)
    if args.command == "service":
        return service_command.run(args)
    if args.command == "completion":
        from .completion import script

        sys.stdout.write(script(args.shell, build_parser()))
        return EXIT_OK
    if args.command == "doctor":
        return doctor_command.run_doctor(args)
    if args.command == "trace":
        from .trace_command import run_trace

        return run_trace(args)
    if args.command == "validate":
        from .validate_command import run_validate

        return run_validate(args)
    if args.command == "explain":
        from .explain_command import run_explain

        return run_explain(args)
    if args.command in ("allow", "deny"):
        from . import trust_commands

        return {"allow": trust_commands.run_allow, "deny": trust_commands.run_deny}[args.command](
            args
        )
    from . import client_commands

    handler = {
        "fire": client_commands.run_fire,
        "status": client_commands.run_status,
        "hooks": client_commands.run_hooks,
        "shutdown": client_commands.run_shutdown,
    }[args.command]
    return handler(args)


def _reader_went_away() -> int:
    """Whoever read stdout stopped (``hookd logs | head``): not a bug, nothing to say.
    stdout now points at /dev/null, so the interpreter's last flush cannot fail again."""
    import os

    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
    return EXIT_BROKEN_PIPE


def _report(exc: Exception, raw: bool = False) -> int:
    """An error a person can fix: one line saying it (a daemon's refusal in its own words;
    with ``--json`` as the client has it, JSON-RPC code included). Anything else: a bug."""
    from hookd.client import HookdClientError, RemoteError

    if isinstance(exc, RemoteError) and not raw:
        print(f"hookd: {exc.explanation}", file=sys.stderr)
        return EXIT_ERROR

    user_errors: tuple[type[BaseException], ...] = (HookdClientError,)
    if "hookd.daemon.errors" in sys.modules:
        from ..errors import UserError

        user_errors += (UserError,)
    if isinstance(exc, user_errors):
        print(f"hookd: {exc}", file=sys.stderr)
        return EXIT_ERROR
    import traceback

    traceback.print_exc()
    print(
        "hookd: an unexpected error occurred (a bug). Please report it with the traceback above.",
        file=sys.stderr,
    )
    return EXIT_BUG


if __name__ == "__main__":
    raise SystemExit(main())
