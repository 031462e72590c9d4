"""The contract every dialect module fulfils, and the shared pieces they reuse.

A dialect is a module (pre-commit's ``languages/`` pattern), registered by name in
``dialects/__init__.py``. It answers four questions:

* where its hooks live (``sources``) and how to read one source (``load``);
* which loaded hooks match an event (``select``);
* how to start a hook: stdin bytes, argv, cwd and environment (``prepare``);
* what a finished hook means (``interpret``) and how the combined outcome reads in the
  agent's own vocabulary (``native``).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from ..combine_policy import CombinePolicy
from ..model import Dialect, FireRequest, HookSpec, ProcessOutcome, Verdict

SourceKind = Literal["settings", "hookdir"]

HOOKD_ENV_DROP_PREFIXES = ("LISTEN_", "NOTIFY_SOCKET", "WATCHDOG_", "OTEL_")
"""Environment variables a hook must not inherit from the daemon (socket activation,
systemd notification, and the OpenTelemetry exporters Claude Code strips too)."""


@dataclass(frozen=True, slots=True)
class Source:
    """One place hooks are declared: a settings file or a hook directory."""

    dialect: Dialect
    layer: str
    path: str
    kind: SourceKind
    root: str | None = None


@dataclass(frozen=True, slots=True)
class Loaded:
    """The hooks one source declares, per event, or the error that stopped reading it."""

    hooks: Mapping[str, tuple[HookSpec, ...]] = field(default_factory=dict)
    error: str | None = None
    settings: Mapping[str, Any] = field(default_factory=dict)
    """Top-level non-hook settings the dialect cares about (e.g. ``disableAllHooks``)."""
    unreadable: bool = False
    """True when the source could not be parsed at all: keep its last good hooks."""


@dataclass(frozen=True, slots=True)
class Launch:
    """How to start one hook process."""

    argv: tuple[str, ...]
    stdin: bytes
    cwd: str | None
    env: Mapping[str, str]


@dataclass(frozen=True, slots=True)
class HttpLaunch:
    """An HTTP hook: POST ``body`` (the event JSON) to ``url``."""

    url: str
    headers: tuple[tuple[str, str], ...]
    body: bytes


@dataclass(frozen=True, slots=True)
class ClientLaunch:
    """A handler the daemon cannot run itself (a model prompt, an agent, an MCP tool):
    the calling client is asked to run it with a ``hook/run`` request of ``params``."""

    handler_type: str
    params: Mapping[str, Any]


Prepared = Launch | HttpLaunch | ClientLaunch


class DialectModule(Protocol):
    """What ``hookd.daemon.dialects.<name>`` modules provide."""

    DIALECT: Dialect
    EVENTS: tuple[str, ...]
    POLICY: CombinePolicy

    def canonical_event(self, event: str) -> str | None:
        """The dialect's own spelling of ``event``, or None when it is not an event."""

    def sources(self, home: str, system_root: str, roots: Sequence[str]) -> list[Source]:
        """Every place hooks may be declared, in declaration order."""

    def load(self, source: Source) -> Loaded:
        """Read one source (settings files only; hook directories are read per fire)."""

    def load_event(self, source: Source, event: str) -> tuple[HookSpec, ...] | Loaded:
        """The hooks for one event in a hook directory, cheaply (called on every fire);
        a ``Loaded`` when the folder also holds settings (Claude's managed drop-ins)."""

    def sequential(self, request: FireRequest) -> bool:
        """Whether this fire's hooks run one after another instead of concurrently."""

    def select(
        self, loaded: Sequence[tuple[Source, Loaded]], request: FireRequest
    ) -> tuple[list[HookSpec], list[str]]:
        """The hooks that apply to this fire, in declaration order, and warnings.

        ``loaded`` holds every source of the fire with its current content. Matchers,
        conditions, switches such as ``disableAllHooks`` and de-duplication happen here.
        """

    def prepare(
        self, spec: HookSpec, request: FireRequest, base_env: Mapping[str, str]
    ) -> Prepared:
        """How to run one hook: a process (stdin, argv, cwd, environment), an HTTP
        request, or a request to the calling client."""

    def interpret(self, spec: HookSpec, request: FireRequest, outcome: ProcessOutcome) -> Verdict:
        """What the finished hook means under this dialect's rules."""

    def native(self, request: FireRequest, combined: Mapping[str, Any]) -> dict[str, Any]:
        """The combined outcome in the agent's own output vocabulary."""


def hook_environment(base: Mapping[str, str], extra: Mapping[str, str]) -> dict[str, str]:
    """The daemon's environment minus what hooks must not inherit, plus ``extra``."""
    env = {k: v for k, v in base.items() if not k.startswith(HOOKD_ENV_DROP_PREFIXES)}
    env.update(extra)
    return env


def hooks_by_file(loaded: Sequence[tuple[Source, Loaded]], event: str) -> list[HookSpec]:
    """The file hooks for ``event`` in source order, each file once (a folder listed twice,
    e.g. through two roots, does not run its hooks twice)."""
    chosen: list[HookSpec] = []
    seen: set[str] = set()
    for _source, content in loaded:
        for spec in content.hooks.get(event, ()):
            if spec.source not in seen:
                seen.add(spec.source)
                chosen.append(spec)
    return chosen


def first_root(request: FireRequest) -> str:
    return request.roots[0] if request.roots else os.getcwd()


def timeout_error(outcome: ProcessOutcome) -> str | None:
    """The error text for outcomes that never produced a usable answer."""
    if outcome.spawn_error:
        return f"could not start: {outcome.spawn_error}"
    if outcome.timed_out:
        return f"timed out after {outcome.duration_ms / 1000:.1f} s; its process group was killed"
    return None


def first_line(text: str) -> str:
    stripped = text.strip()
    return stripped.splitlines()[0] if stripped else ""
