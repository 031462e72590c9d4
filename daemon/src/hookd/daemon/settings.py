"""hookd's own configuration: defaults, the optional TOML file, and overrides.

Looked up in this order, later wins: built-in defaults, the config file
(``--config``, else ``$HOOKD_CONFIG``, else ``$XDG_CONFIG_HOME/hookd/config.toml`` when it
exists), then command-line options.
"""

from __future__ import annotations

import difflib
import os
import tomllib
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from hookd.protocol import DEFAULT_MAX_MESSAGE_BYTES, default_socket_path

from .errors import ConfigError

CONFIG_ENV = "HOOKD_CONFIG"


@dataclass(frozen=True)
class Settings:
    """Everything the daemon needs to know that is not in a hook's own configuration."""

    socket_path: str = field(default_factory=default_socket_path)
    home: str = field(default_factory=lambda: os.path.expanduser("~"))
    system_root: str = "/"
    """Prefix for system-level locations (``/etc/augment``, Claude's managed settings).
    Tests point it at a temporary directory."""
    slow_threshold_ms: int = 1000
    output_cap_bytes: int = 1024 * 1024
    """Per stream and per hook; the rest is discarded and the hook report says so."""
    json_output_cap_bytes: int = 16 * 1024 * 1024
    """A stdout that starts with ``{`` is read whole up to this size, so a large JSON
    answer keeps its decision; past it the hook "never ran" (it blocks where hooks guard
    an action, see ``never_ran``)."""
    max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES
    """Largest request (64 MiB: a Write of a large file, a large tool response fit);
    past it the request is discarded and answered 1001 with its id, at once."""
    max_in_flight_per_connection: int = 64
    max_connections: int = 512
    """Client connections open at once, idle ones included; past it a new connection
    is answered with error 1002 ("Too many connections") and closed."""
    max_unsent_bytes_per_connection: int = 64 * 1024 * 1024
    """Replies queued for one client that does not read them; past it that client is
    disconnected (its work cancelled)."""
    max_unsent_bytes_total: int = 256 * 1024 * 1024
    """Replies queued for all clients together; past it the client with the most
    unsent bytes is disconnected, so clients that stop reading cannot grow the daemon
    without bound."""
    message_timeout_s: float = 30.0
    """Once a message has started, the rest of it must arrive within this time, or the
    connection is answered and closed (half-sent messages do not hold connections
    forever). Idle connections between messages have no timeout."""
    forget_roots_after_s: float = 3600.0
    """A workspace root that no fire (nor ``roots/add``, ``hooks/list``) has named for
    this long is forgotten: its folders are no longer watched. Its next fire adds it
    back, and fires check their own sources at fire time, so they stay correct.
    0 never forgets."""
    max_roots: int = 512
    """Workspace roots kept at once; past it the ones named least recently are forgotten
    (down to 90% of it), so the watcher's work is bounded however many roots are named."""
    term_grace_s: float = 0.5
    """Between SIGTERM and SIGKILL of a timed-out or cancelled hook's process group."""
    drain_grace_s: float = 0.1
    """How long to wait for pipe EOF after a hook's main process exited."""
    watch_debounce_ms: int = 50
    watch_step_ms: int = 10
    disabled_dialects: frozenset[str] = frozenset()
    """Dialects whose hooks never run (their fires answer with no hooks and a warning)."""
    disable_all_hooks: bool = False
    """The global switch: no hook of any dialect runs (fires still answer, with a warning)."""
    state_dir: str = field(default_factory=lambda: default_state_dir())
    """Per-session files: Claude's ``CLAUDE_ENV_FILE`` and outputs over a dialect's cap."""
    max_hook_processes: int = 64
    """Hook processes running at once, over every fire and client; the rest wait in a
    fair queue, the wait counted against their own timeouts."""
    never_ran: str = "block"
    """A hook hookd could not run because of its own limits: ``"block"`` (the default)
    blocks the events whose hooks guard an action, ``"allow"`` lets them proceed. Either
    way the result says the hook never ran and why."""
    leftover_processes: str = "timeout"
    """What a hook leaves running when it exits (``cmd &``, escapees): ``"timeout"``
    (the default) lets it live until the hook's own timeout, counted from the hook's
    start, then kills it; ``"kill"`` kills it as soon as the hook exits."""
    cline_failure_policy: str = "agent"
    """Cline (``cline`` dialect) hooks that exit non-zero or are killed: ``"agent"`` (the
    default, what cline 2.18.0 does) ignores their output, even a valid ``cancel``, and the
    action goes on; ``"strict"`` (hookd's safer rule, what Cline's docs say) honours valid
    JSON on any exit code, so a hook that blocks and then fails still blocks."""
    watchdog: bool = True
    """A watchdog process kills every hook if the daemon dies, even by SIGKILL."""
    subreaper: bool = True
    """Adopt the processes a hook's tree orphans (Linux child subreaper), so escapees that
    left the hook's process group (``setsid``, double forks) are found and killed. Only
    for a process that is the daemon alone (``hookd serve``)."""
    hook_cgroups: bool = True
    """Put each hook in a cgroup of its own and kill by cgroup, where the daemon can make
    them (a cgroup v2 subtree delegated to it, or writable as root): nothing a hook
    starts can leave it. Where it cannot, or with this off, the subreaper custody alone."""
    raise_fd_limit: bool = True
    """Raise the soft open-files limit to the hard limit at start (hooks keep the
    inherited one)."""
    max_fire_depth: int = 3
    """A fire made from inside a hook is nested one deeper than the fire that ran the
    hook; past this depth it is refused (a hook firing its own event would recurse)."""
    trust_all: bool = False
    """Run the hooks of every workspace without ``hookd allow`` (for CI and containers,
    where the workspace is the point). Files others could write are refused all the same."""
    audit_log: bool = True
    """Append one JSON line per fire and background hook result to
    ``<state_dir>/audit.jsonl`` (``hookd logs`` reads it)."""
    audit_max_bytes: int = 16 * 1024 * 1024
    """Past this size the audit file is rotated (``audit.jsonl.1`` is the newest old one)."""
    audit_keep: int = 3
    """Rotated audit files kept."""
    audit_payload_max_bytes: int = 64 * 1024
    """A fire's event (its payload, credentials scrubbed) is kept in its audit record when
    its JSON is at most this long, so ``hookd fire --replay N`` can fire it again; 0:
    never kept."""
    warm_python: bool = True
    """Run Python hooks (``python3 x.py``, Python shebang scripts, ``uv run x.py``) in a
    child forked from a warm interpreter of the same Python, options and start-up
    environment, where that is exactly what a fresh run would be; otherwise, and when
    false, they start fresh. ``status`` counts warm starts and why others were not."""
    warm_python_exclude: tuple[str, ...] = ()
    """Glob patterns of hook scripts (absolute paths) that always start fresh."""
    warm_idle_s: float = 300.0
    """A warm interpreter no hook used for this long exits."""
    warm_max_rss_mib: int = 256
    """A warm interpreter whose resident memory passes this is replaced."""
    warm_max_interpreters: int = 8
    """Warm interpreters at once; past it the least recently used idle one goes."""
    http_entry: bool = False
    """Serve Claude Code's ``http`` hook entry on ``127.0.0.1:http_port`` (``hookd relay
    install --agent claude --http`` writes the entries). Off by default: a TCP port can be
    reached by every local user and every web page, a Unix socket in a private folder
    cannot; each request must carry the passcode (``<state_dir>/http-passcode``)."""
    http_port: int = 4665
    """The http entry's port on 127.0.0.1 ("HOOK" on a phone keypad). The entries name it
    in their URL: after changing it, run ``hookd relay install --agent claude --http``
    again."""
    log_level: str = "info"
    log_json: bool | None = None
    """None: JSON lines unless stderr is a terminal."""

    def with_overrides(self, **overrides: Any) -> Settings:
        """A copy with the non-None overrides applied."""
        return replace(self, **{k: v for k, v in overrides.items() if v is not None})


def default_state_dir() -> str:
    """``$XDG_STATE_HOME/hookd``, else ``~/.local/state/hookd``."""
    base = os.environ.get("XDG_STATE_HOME", "")
    if not os.path.isabs(base):  # the XDG spec: relative values are invalid, ignore them
        base = os.path.join(os.path.expanduser("~"), ".local", "state")
    return os.path.join(base, "hookd")


def config_file_path(explicit: str | None) -> Path | None:
    """The config file to read, or None when there is none to read."""
    if explicit:
        return Path(explicit)
    env = os.environ.get(CONFIG_ENV)
    if env:
        return Path(env)
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    candidate = Path(base) / "hookd" / "config.toml"
    return candidate if candidate.is_file() else None


def load_settings(config_path: str | None = None, **overrides: Any) -> Settings:
    """Defaults, then the config file, then ``overrides`` (None values ignored).

    Raises:
        ConfigError: the file is unreadable, not TOML, or names unknown keys.
    """
    settings = Settings()
    path = config_file_path(config_path)
    if path is not None:
        settings = replace(settings, **_read_config(path))
    return settings.with_overrides(**overrides)


def _did_you_mean(unknown: list[str]) -> str:
    """`` (did you mean slow_threshold_ms?)`` for the keys that look like a known one."""
    known = [f.name for f in fields(Settings)]
    close = [m for key in unknown for m in difflib.get_close_matches(key, known, n=1)]
    return f" (did you mean {', '.join(dict.fromkeys(close))}?)" if close else ""


def _read_config(path: Path) -> dict[str, Any]:
    try:
        data = tomllib.loads(path.read_text("utf-8"))
    except OSError as exc:
        raise ConfigError(f"cannot read hookd config {path}: {exc.strerror}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"hookd config {path} is not valid TOML: {exc}") from exc
    known = {f.name: f for f in fields(Settings)}
    unknown = sorted(set(data) - set(known))
    if unknown:
        raise ConfigError(
            f"hookd config {path}: unknown key(s) {', '.join(unknown)}{_did_you_mean(unknown)}; "
            f"known keys: {', '.join(sorted(known))}"
        )
    if "disabled_dialects" in data:
        data["disabled_dialects"] = frozenset(data["disabled_dialects"])
    if isinstance(data.get("warm_python_exclude"), list):
        data["warm_python_exclude"] = tuple(data["warm_python_exclude"])
    if isinstance(data.get("state_dir"), str):
        data["state_dir"] = os.path.expanduser(data["state_dir"])
        if not os.path.isabs(data["state_dir"]):
            raise ConfigError(
                f"hookd config {path}: state_dir must be an absolute path (or start with ~/), "
                f"not {data['state_dir']!r}"
            )
    if data.get("never_ran", "block") not in ("block", "allow"):
        raise ConfigError(
            f'hookd config {path}: never_ran must be "block" or "allow", not {data["never_ran"]!r}'
        )
    if data.get("cline_failure_policy", "agent") not in ("agent", "strict"):
        raise ConfigError(
            f'hookd config {path}: cline_failure_policy must be "agent" or "strict", '
            f"not {data['cline_failure_policy']!r}"
        )
    if data.get("leftover_processes", "timeout") not in ("timeout", "kill"):
        raise ConfigError(
            f'hookd config {path}: leftover_processes must be "timeout" or "kill", '
            f"not {data['leftover_processes']!r}"
        )
    if isinstance(data.get("max_hook_processes"), int) and data["max_hook_processes"] < 1:
        raise ConfigError(f"hookd config {path}: max_hook_processes must be at least 1")
    for name in ("max_connections", "max_unsent_bytes_per_connection",
                 "max_unsent_bytes_total", "max_roots", "max_message_bytes",
                 "warm_max_rss_mib", "warm_max_interpreters"):  # fmt: skip
        if isinstance(data.get(name), int) and data[name] < 1:
            raise ConfigError(f"hookd config {path}: {name} must be at least 1")
    if isinstance(data.get("http_port"), int) and not 1 <= data["http_port"] <= 65535:
        raise ConfigError(f"hookd config {path}: http_port must be a TCP port, 1 to 65535")
    for name in ("message_timeout_s", "forget_roots_after_s", "warm_idle_s"):
        if isinstance(data.get(name), int | float) and data[name] < 0:
            raise ConfigError(f"hookd config {path}: {name} must not be negative")
    for name, value in data.items():
        expected = type(getattr(Settings(), name))
        if expected is float and isinstance(value, int):
            continue
        if value is not None and expected is not type(None) and not isinstance(value, expected):
            raise ConfigError(
                f"hookd config {path}: {name} must be {expected.__name__}, "
                f"not {type(value).__name__}"
            )
    return data
