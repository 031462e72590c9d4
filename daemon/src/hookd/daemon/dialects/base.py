"""The whole contract a dialect fulfils, the defaults it may assign, and shared helpers.

A dialect is a module (pre-commit's ``languages/`` pattern) listed once in
``all_dialects.py``. ``DialectModule`` names every member; nothing outside ``dialects/``
asks a dialect for anything else, and nothing probes for optional members: a dialect
that has no use for one assigns the default from here (``fire_extras = no_extras``), as
pre-commit's languages assign ``lang_base.no_install``. A dialect answers:

* where its hooks live (``sources``), how to read one source (``load``, ``load_event``)
  and what survives a broken edit (``kept_after_error``);
* which loaded hooks match an event (``select``), whether they run in order
  (``sequential``) and what each then hands the next (``chained``);
* how to start a hook: stdin bytes, argv, cwd and environment (``prepare``);
* what a finished hook means (``interpret``), the dialect's last word on the combined
  outcome (``refine``), what the agent then does (``action``), how it reads in the
  agent's own vocabulary (``native``), extra
  result fields (``fire_extras``) and what a background hook tells the agent when it
  finishes (``async_result``);
* how progress names a hook (``hook_label``), which events' progress cannot be
  cancelled (``UNCANCELLABLE_EVENTS``) and whether a fire may name extra hook folders
  (``TAKES_HOOKS_DIRS``, ``HOOKS_DIR_ENV``).

A dialect imports only ``model``, the helpers below it (``jstext``, ``spill``,
``safe_read``, ``racy``, ``urls``) and other dialect modules: never the runner, the fire
pipeline or the server (checked by ``tests/test_layers.py``).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from hookd.protocol import Action

from ..model import (
    Combined,
    CombinePolicy,
    Dialect,
    FireRequest,
    HookReport,
    HookSpec,
    Loaded,
    Prepared,
    ProcessOutcome,
    Source,
    Verdict,
)

HOOKD_ENV_DROP_PREFIXES = ("LISTEN_", "NOTIFY_SOCKET", "WATCHDOG_", "OTEL_")
"""Environment variables a hook must not inherit from the daemon (socket activation,
systemd notification, and the OpenTelemetry exporters Claude Code strips too)."""


class DialectModule(Protocol):
    """What every ``hookd.daemon.dialects`` module provides: all of it, always."""

    DIALECT: Dialect
    """Its agent name on the wire (``Dialect`` values are ``hookd.protocol.AGENTS``)."""
    EVENTS: tuple[str, ...]
    POLICY: CombinePolicy
    UNCANCELLABLE_EVENTS: frozenset[str]
    """Events whose progress says ``cancellable: false`` (the agent never cancels them)."""
    GUARD_EVENTS: frozenset[str]
    """Events whose hooks guard an action (can block it): there a hook hookd could not
    run blocks, unless hookd's ``never_ran`` setting says ``"allow"``."""
    TAKES_HOOKS_DIRS: bool
    """Whether a fire may name extra hook folders (``hooksDirs``) for this dialect."""
    HOOKS_DIR_ENV: str | None
    """A variable in the fire's ``env`` naming one more hook folder, if the agent has one."""

    def canonical_event(self, event: str) -> str | None:
        """The dialect's own spelling of ``event``, or None when it is not an event."""

    def sources(self, home: str, system_root: str, roots: Sequence[str]) -> list[Source]:
        """Every place hooks may be declared, in declaration order."""

    def load(self, source: Source) -> Loaded:
        """Read one source (settings files only; hook directories are read per fire)."""

    def load_event(self, source: Source, event: str) -> tuple[HookSpec, ...] | Loaded:
        """The hooks for one event in a hook directory, cheaply (called on every fire);
        a ``Loaded`` when the folder also holds settings (Claude's managed drop-ins)."""

    def kept_after_error(
        self, hooks: Mapping[str, tuple[HookSpec, ...]]
    ) -> Mapping[str, tuple[HookSpec, ...]]:
        """What of a source's last good hooks stays in force once it stops parsing."""

    def switched_off(self, loaded: Sequence[tuple[Source, Loaded]]) -> list[tuple[HookSpec, str]]:
        """The hooks of ``loaded`` (one workspace's sources) that the agent runs on no
        payload at all, each with why (a plugin installed but not enabled; a switch that
        turns every hook off): marked ``off`` in ``hooks/list``."""

    def sequential(self, request: FireRequest, specs: Sequence[HookSpec]) -> bool:
        """Whether this fire's hooks (``specs``, as ``select`` chose them) run one after
        another instead of concurrently."""

    def chained(self, request: FireRequest, report: HookReport) -> FireRequest | None:
        """Run in order, what the next hook is given after ``report``'s hook finished
        (Gemini CLI hands a hook's rewrite on to the next); ``unchained``: the same;
        None: no later hook runs (Copilot CLI's first deny ends the chain)."""

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

    def refine(
        self, request: FireRequest, combined: Combined, reports: Sequence[HookReport]
    ) -> Combined:
        """The dialect's last word on the combined outcome, for rules that need every
        hook's verdict at once (the Cline SDK drops a context that is all blanks)."""

    def action(self, request: FireRequest, combined: Combined) -> Action:
        """What the agent does next with this outcome, by its rules for the event
        (``hookd.protocol.Action``): the result's ``action`` and ``hookd fire``'s exit
        code, so a caller that reads only them is not misled."""

    def native(self, request: FireRequest, combined: Combined) -> dict[str, Any]:
        """The combined outcome in the agent's own output vocabulary."""

    def fire_extras(self, request: FireRequest, reports: Sequence[HookReport]) -> dict[str, Any]:
        """Result fields only this dialect has (Claude's ``envFile``), by wire name."""

    def async_result(self, report: HookReport, request: FireRequest) -> dict[str, Any]:
        """What a finished background hook tells the agent (its ``asyncResults`` entry)."""

    def hook_label(self, spec: HookSpec) -> str:
        """How progress messages name a hook."""


# Defaults a dialect assigns to the members it has no use for ---------------------------


def none_off(loaded: Sequence[tuple[Source, Loaded]]) -> list[tuple[HookSpec, str]]:
    """``switched_off``: the agent has no switch that turns a declared hook off."""
    return []


def keep_all(hooks: Mapping[str, tuple[HookSpec, ...]]) -> Mapping[str, tuple[HookSpec, ...]]:
    """``kept_after_error``: a broken edit keeps every last good hook in force."""
    return hooks


def keep_none(hooks: Mapping[str, tuple[HookSpec, ...]]) -> Mapping[str, tuple[HookSpec, ...]]:
    """``kept_after_error``: the agent skips a file it cannot read whole, so no hook of
    it runs until it reads again (Codex CLI)."""
    return {}


def concurrent(request: FireRequest, specs: Sequence[HookSpec]) -> bool:
    """``sequential``: every hook of a fire starts at once."""
    return False


def unchained(request: FireRequest, report: HookReport) -> FireRequest:
    """``chained``: a hook's answer never changes what the next hook is given."""
    return request


def unrefined(request: FireRequest, combined: Combined, reports: Sequence[HookReport]) -> Combined:
    """``refine``: the combiner's rules are the whole story."""
    return combined


def plain_action(request: FireRequest, combined: Combined) -> Action:
    """``action`` where a block blocks, ``ask`` asks and ``continue: false`` stops."""
    if not combined.continue_:
        return "stop"
    if combined.blocked:
        return "block"
    return "ask" if combined.decision == "ask" else "proceed"


def cancel_stops(request: FireRequest, combined: Combined) -> Action:
    """``action`` for agents where a cancelling hook ends the task (both Cline runners:
    2.18.0 waits in ``resume_task``, 3.0.65 ends the run; tests/agents/cline*)."""
    if combined.blocked or not combined.continue_:
        return "stop"
    return "ask" if combined.decision == "ask" else "proceed"


def no_extras(request: FireRequest, reports: Sequence[HookReport]) -> dict[str, Any]:
    """``fire_extras``: no result fields of its own."""
    return {}


def no_async_result(report: HookReport, request: FireRequest) -> dict[str, Any]:
    """``async_result``: the dialect has no background hooks, so nothing to tell."""
    return {}


def label_by_command(spec: HookSpec) -> str:
    """``hook_label`` for settings-file dialects: a hook is its command."""
    return spec.command


def label_by_file(spec: HookSpec) -> str:
    """``hook_label`` for file-hook dialects: a hook is its file's name."""
    return os.path.basename(spec.source)


# Helpers the dialects share ------------------------------------------------------------


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
