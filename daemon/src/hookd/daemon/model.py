"""Frozen values shared by every layer: what the registry finds, what a dialect hands the
runner, what a hook's run produced and what it means.

It sits below both ``dialects/`` and ``runner/`` so that neither has to import the other
to know what it builds or runs.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

Decision = Literal["allow", "deny", "ask", "defer"]
DECISION_RANK: dict[str, int] = {"allow": 0, "ask": 1, "defer": 2, "deny": 3}
"""Precedence when hooks disagree: deny > defer > ask > allow (Claude Code's rule)."""


class Dialect(enum.StrEnum):
    """Whose hook configuration and whose semantics."""

    CLAUDE = "claude"
    CLINE = "cline"
    CLINE_SDK = "cline-sdk"
    AUGMENT = "augment"
    CODEX = "codex"
    GEMINI = "gemini"
    COPILOT = "copilot"
    DROID = "droid"
    QWEN = "qwen"


DENIED_PREFIX = "denied: "
"""How ``HookSpec.refused`` starts for a hook of a workspace a person denied (``hookd
deny``): it is not run, and it does not block either (the person decided; an untrusted
workspace, which nobody has looked at, blocks where hooks guard an action)."""


@dataclass(frozen=True, slots=True)
class HookSpec:
    """One runnable hook as found in the registry.

    ``argv`` is None for a shell-form command (``command`` is then run by ``sh -c``).
    ``order`` is the declaration order across all sources of a fire; results are
    combined in this order, never in finish order.
    """

    dialect: Dialect
    event: str
    source: str
    layer: str
    command: str
    argv: tuple[str, ...] | None
    timeout_s: float
    matcher: str | None = None
    condition: str | None = None  # Claude's handler-level `if`
    root: str | None = None  # the workspace root a workspace-level hook belongs to
    options: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)
    """Private to the dialect that made the spec: no other layer reads it."""
    background: bool = False
    """Runs in the background: the fire starts it and does not wait (Claude's ``async``)."""
    may_detach: bool = False
    """May send itself to the background while it runs (Claude's ``{"async": true}`` first
    line): the fire waits for it until it finishes or does that (``Launch.async_reply``)."""
    order: int = 0
    portable: bool = False
    """From a portable hook file: run with the shared (Claude) payload for any agent and
    answered in that agent's terms (``fire/portable_run.py``)."""
    refused: str | None = None
    """Why hookd will not run it (``untrusted: ...``, ``refused: ...`` or ``denied: ...``,
    see ``trust``): the fire reports it as not run, and on an event that guards an action
    it blocks unless ``never_ran`` is ``"allow"`` (or it was denied)."""


@dataclass(frozen=True, slots=True)
class ProcessOutcome:
    """What happened to one hook handler, before any dialect interprets it.

    For a process: its exit code and output. For an HTTP hook: ``http_status`` and the
    response body in ``stdout`` (``exit_code`` None). For a handler the calling client
    ran: its JSON answer in ``stdout``. ``spawn_error`` says why nothing ran or answered.
    """

    exit_code: int | None
    stdout: bytes
    stderr: bytes
    duration_ms: float
    timed_out: bool = False
    cancelled: bool = False
    spawn_error: str | None = None
    spawn_errno: int | None = None
    never_ran: bool = False
    """hookd could not run it because of its own limits (file descriptors, processes or
    memory exhausted, no process slot before its timeout): "never ran", never "allowed"."""
    stdout_truncated: bool = False
    stderr_truncated: bool = False
    stdin_broken: bool = False
    pipes_held_open: bool = False
    http_status: int | None = None

    @property
    def stdout_text(self) -> str:
        return self.stdout.decode("utf-8", errors="replace")

    @property
    def stderr_text(self) -> str:
        return self.stderr.decode("utf-8", errors="replace")


@dataclass(frozen=True, slots=True)
class Verdict:
    """One hook's outcome in dialect-neutral terms (what the combiner merges)."""

    blocks: bool = False
    decision: Decision | None = None
    reason: str | None = None
    context: str | None = None
    has_updated_input: bool = False
    updated_input: Any = None
    continue_: bool = True
    stop_reason: str | None = None
    system_message: str | None = None
    error: str | None = None
    native: dict[str, Any] = field(default_factory=dict)
    """Dialect-specific values passed through to the agent (merged by the dialect)."""
    spilled: tuple[dict[str, Any], ...] = ()
    """Texts over the dialect's cap, written to a file: ``{field, chars, path}`` each."""


@dataclass(frozen=True, slots=True)
class HookReport:
    """A hook together with its process outcome and its verdict."""

    spec: HookSpec
    index: int
    outcome: ProcessOutcome
    verdict: Verdict


@dataclass(frozen=True, slots=True)
class FireRequest:
    """A validated ``fire`` call."""

    dialect: Dialect
    event: str
    """The dialect's canonical event name (e.g. ``PreToolUse``)."""
    roots: tuple[str, ...]
    payload: dict[str, Any]
    env: dict[str, str] = field(default_factory=dict)
    timeout_s: float | None = None
    slow_threshold_s: float = 1.0
    client_handlers: frozenset[str] = frozenset()
    """Handler types the calling client offered to run when asked (``hook/run``)."""
    state_dir: str = ""
    """Where per-session files go (Claude's ``CLAUDE_ENV_FILE``, spilled long outputs)."""
    extra_hook_dirs: tuple[str, ...] = ()
    """Hook folders named by the client for this fire (the Cline SDK's ``--hooks-dir``)."""
    fire_id: int | str | None = None
    """The fire's JSON-RPC id, so a client with several fires open can route the
    ``hook/run`` requests of each."""
    depth: int = 0
    """How deeply this fire is nested in hooks: 0 from an agent, 1 from one of its hooks."""
    relay: bool = False
    """The fire comes from ``hookd-relay`` inside the agent: the hooks the agent runs
    itself are not run again (only those handed to hookd with ``hookd adopt``)."""
    relay_entry: str | None = None
    """Which relay entry fired (``relayEntry``): only the adopted hooks it stands for run
    (a Cline relay file stands for its folder, an Augment relay group for its matcher)."""
    failure_policy: str = "agent"
    """What a failed hook's output counts for, where the dialect has a choice (Cline's
    ``cline_failure_policy``): ``agent`` or ``strict``."""

    @property
    def session_id(self) -> str | None:
        """The agent's session id, from the payload (Claude ``session_id``, Cline
        ``taskId``, Augment ``conversation_id``), when it sent one."""
        for key in ("session_id", "taskId", "conversation_id", "sessionId"):
            value = self.payload.get(key)
            if isinstance(value, str) and value:
                return value
        return None


SourceKind = Literal["settings", "hookdir"]


@dataclass(frozen=True, slots=True)
class Source:
    """One place hooks are declared: a settings file or a hook directory."""

    dialect: Dialect
    layer: str
    path: str
    kind: SourceKind
    root: str | None = None
    adopted: bool = False
    """A hookd-owned file holding hooks handed over from the agent's own (``hookd
    adopt``): read with the same rules and layer, and the only hooks a relay fire runs."""
    adopted_from: str | None = None
    """For an adopted source: the agent's own file or folder its hooks came from (the
    relay entry there stands for them)."""
    portable: bool = False
    """A portable hook file (``~/.config/hookd/hooks.json``, ``<project>/.hookd/hooks.json``):
    Claude's format and vocabulary, run for every agent (``dialects/portable.py``)."""


@dataclass(frozen=True, slots=True)
class Loaded:
    """The hooks one source declares, per event, or the error that stopped reading it."""

    hooks: Mapping[str, tuple[HookSpec, ...]] = field(default_factory=dict)
    error: str | None = None
    settings: Mapping[str, Any] = field(default_factory=dict)
    """Top-level non-hook settings the dialect cares about (e.g. ``disableAllHooks``)."""
    unreadable: bool = False
    """True when the source could not be parsed at all: keep its last good hooks."""
    hookd_limit: bool = False
    """Unread because hookd itself ran out of descriptors or memory: its hooks "never
    ran" (a fire of an event that guards an action blocks), and it is read again next time."""
    notes: tuple[str, ...] = ()
    """What the agent silently ignores in it (an unknown key in a matcher group): not an
    error, its hooks run as the agent runs them, but said by ``hooks/explain``."""


@dataclass(frozen=True, slots=True)
class Launch:
    """How to start one hook process."""

    argv: tuple[str, ...]
    stdin: bytes
    cwd: str | None
    env: Mapping[str, str]
    async_reply: Callable[[bytes], float | None] | None = None
    """Reads the first line of stdout: a number (seconds) when the hook asks to go on in
    the background with that timeout, else None (``HookSpec.may_detach``)."""


@dataclass(frozen=True, slots=True)
class HttpLaunch:
    """An HTTP hook: POST ``body`` (the event JSON) to ``url``."""

    url: str
    headers: tuple[tuple[str, str], ...]
    body: bytes
    refusal: str | None = None
    """Why the dialect will not send it (Claude's ``allowedHttpHookUrls``): nothing is sent
    and the hook fails with this error, as the agent's does."""


@dataclass(frozen=True, slots=True)
class ClientLaunch:
    """A handler the daemon cannot run itself (a model prompt, an agent, an MCP tool):
    the calling client is asked to run it with a ``hook/run`` request of ``params``."""

    handler_type: str
    params: Mapping[str, Any]


Prepared = Launch | HttpLaunch | ClientLaunch


@dataclass(frozen=True, slots=True)
class CombinePolicy:
    """How a dialect joins several hooks' texts: data, not code, decides."""

    context_separator: str = "\n\n"
    reason_separator: str = "\n"
    trim: bool = True
    """Strip each text and drop empty ones before joining."""
    reasons_from: Literal["blocking", "all"] = "blocking"
    """Whose ``reason`` reaches the combined result: blocking hooks only, or every hook."""
    single_verbatim: bool = False
    """With exactly one hook, pass its texts through untouched (Cline's legacy runner)."""
    context_when_blocked: bool = True
    """Keep the hooks' context when the outcome is a block (the Cline SDK injects none)."""


@dataclass(frozen=True, slots=True)
class Combined:
    """A fire's hooks merged into one outcome, before the dialect words it natively.

    Built by ``fire.combine`` from the verdicts in declaration order; read by each
    dialect's ``refine`` and ``native`` and turned into the wire result once, at the end
    of the pipeline.
    """

    blocked: bool = False
    decision: Decision | None = None
    reason: str | None = None
    context: str | None = None
    updated_input: Any = None
    updated_input_from: str | None = None
    """The source of the hook whose ``updatedInput`` won; None when no hook rewrote."""
    continue_: bool = True
    stop_reason: str | None = None
    system_message: str | None = None
    natives: tuple[Mapping[str, Any], ...] = ()
    """Each verdict's dialect-specific values, in declaration order."""
    warnings: tuple[str, ...] = ()
