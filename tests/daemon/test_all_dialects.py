"""The dialect table is complete and every dialect fulfils the whole contract.

The agent list is written in three places a person may edit (``hookd.protocol.AGENTS``,
the ``Dialect`` enum, ``all_dialects.DIALECTS``) and published in the OpenRPC document;
these tests fail the moment one of them names an agent the others do not. The contract
test reads ``DialectModule`` itself, so a member added to the Protocol is checked in
every dialect without editing this file.
"""

from __future__ import annotations

import inspect
from types import ModuleType
from typing import Any

import pytest

from hookd.daemon.all_dialects import AGENT_PACKAGES, DIALECTS, INTEGRATIONS
from hookd.daemon.cli.main import build_parser
from hookd.daemon.dialects import integration as contract
from hookd.daemon.dialects.base import DialectModule
from hookd.daemon.dialects.integration import IntegrationModule, RelayFacts
from hookd.daemon.dialects.portable import (
    ANSWER_FIELDS,
    SHARED_EVENTS,
    SHARED_TOOLS,
    PortableModule,
)
from hookd.daemon.model import Dialect
from hookd.protocol import AGENTS, load_openrpc


def _protocol_members(protocol: type) -> dict[str, Any]:
    """Every member a module Protocol names: attribute annotations and methods."""
    members: dict[str, Any] = dict(protocol.__annotations__)
    for name, value in vars(protocol).items():
        if not name.startswith("_") and inspect.isfunction(value):
            members[name] = value
    return members


MEMBERS = _protocol_members(DialectModule)
INTEGRATION_MEMBERS = _protocol_members(IntegrationModule)
PORTABLE_MEMBERS = _protocol_members(PortableModule)


def test_the_protocol_names_every_member_callers_use() -> None:
    """The members the registry, runner and fire pipeline call (none probed for)."""
    assert set(MEMBERS) == {
        "DIALECT", "EVENTS", "POLICY", "UNCANCELLABLE_EVENTS", "GUARD_EVENTS", "TAKES_HOOKS_DIRS",
        "HOOKS_DIR_ENV", "canonical_event", "sources", "load", "load_event",
        "kept_after_error", "switched_off", "sequential", "chained", "select", "prepare", "interpret", "refine", "action",
        "native", "fire_extras", "async_result", "hook_label",
    }  # fmt: skip


def test_every_agent_list_names_the_same_agents() -> None:
    openrpc_agents = load_openrpc()["components"]["schemas"]["Agent"]["enum"]
    cli_agents = _cli_choices("fire", "--agent")
    assert list(AGENTS) == openrpc_agents == cli_agents
    assert {d.value for d in Dialect} == set(AGENTS)
    assert set(DIALECTS) == set(Dialect)


@pytest.mark.parametrize("dialect", list(Dialect), ids=lambda d: d.value)
def test_dialect_module_has_every_member(dialect: Dialect) -> None:
    module = DIALECTS[dialect]
    assert isinstance(module, ModuleType)
    missing = [name for name in MEMBERS if not hasattr(module, name)]
    assert not missing, f"{module.__name__} lacks {missing}"
    assert module.DIALECT is dialect


@pytest.mark.parametrize("dialect", list(Dialect), ids=lambda d: d.value)
def test_dialect_functions_take_the_protocols_parameters(dialect: Dialect) -> None:
    """A default assigned from ``base`` (or a dialect's own function) must accept what
    the callers pass, by position and by name."""
    module = DIALECTS[dialect]
    for name, declared in MEMBERS.items():
        if not inspect.isfunction(declared):
            continue
        wanted = list(inspect.signature(declared).parameters)[1:]  # drop self
        given = list(inspect.signature(getattr(module, name)).parameters)
        assert given == wanted, f"{module.__name__}.{name}{given} != Protocol {wanted}"


@pytest.mark.parametrize("dialect", list(Dialect), ids=lambda d: d.value)
def test_dialect_constants_are_consistent(dialect: Dialect) -> None:
    module = DIALECTS[dialect]
    assert module.EVENTS, "a dialect fires at least one event"
    for event in module.EVENTS:
        assert module.canonical_event(event) == event
    assert module.canonical_event("NoSuchEvent") is None
    assert set(module.EVENTS) >= module.UNCANCELLABLE_EVENTS
    assert module.GUARD_EVENTS, "some event guards an action"
    assert set(module.EVENTS) >= module.GUARD_EVENTS
    if module.HOOKS_DIR_ENV is not None:
        assert module.TAKES_HOOKS_DIRS, "a hooks-dir variable implies hooks-dir support"


def test_the_integration_protocol_names_every_member_callers_use() -> None:
    """What the CLI's adopt and relay commands, the relay door and the http entry call."""
    assert set(INTEGRATION_MEMBERS) == {
        "DIALECT", "ADOPT_SCOPES", "RELAY", "HTTP_ENTRY", "plan", "relay_roots",
        "relay_entry", "relay_answer", "failing_answer",
    }  # fmt: skip


@pytest.mark.parametrize("dialect", list(Dialect), ids=lambda d: d.value)
def test_every_agent_is_one_package_with_both_halves(dialect: Dialect) -> None:
    """``dialects/<agent>/dialect.py`` and ``integration.py`` in one package, both naming
    the agent, every member present and taking the Protocol's parameters."""
    package = AGENT_PACKAGES[dialect]
    module, integration = package.dialect, package.integration
    assert isinstance(integration, ModuleType)
    assert module.__name__.rpartition(".")[0] == integration.__name__.rpartition(".")[0]
    assert integration.DIALECT is dialect
    missing = [name for name in INTEGRATION_MEMBERS if not hasattr(integration, name)]
    assert not missing, f"{integration.__name__} lacks {missing}"
    for name, declared in INTEGRATION_MEMBERS.items():
        if inspect.isfunction(declared):
            wanted = list(inspect.signature(declared).parameters)[1:]
            given = list(inspect.signature(getattr(integration, name)).parameters)
            assert given == wanted, f"{integration.__name__}.{name}{given} != {wanted}"


@pytest.mark.parametrize("dialect", list(Dialect), ids=lambda d: d.value)
def test_every_agent_has_relay_facts_and_can_be_adopted_or_says_it_cannot(
    dialect: Dialect,
) -> None:
    integration = INTEGRATIONS[dialect]
    facts = integration.RELAY
    assert isinstance(facts, RelayFacts)
    assert facts.entry_args >= 0
    assert facts.event_key or (  # the event in the payload, or named by the entry
        facts.event_arg is not None and 0 <= facts.event_arg < facts.entry_args
    )
    assert all(
        runner in INTEGRATIONS and runner is not dialect for runner in facts.runners.values()
    )
    if integration.ADOPT_SCOPES:
        assert integration.plan is not contract.cannot_plan
    else:
        assert integration.plan is contract.cannot_plan
    answer = integration.failing_answer("hookd-relay: down", False)
    assert "hookd-relay: down" in answer.stderr, "a failing hook says why, on stderr"


def test_one_agent_has_the_http_entry() -> None:
    """The http entry serves one path, so one agent: a second would need its own path."""
    assert [d for d, i in INTEGRATIONS.items() if i.HTTP_ENTRY is not None] == [Dialect.CLAUDE]


def _cli_choices(command: str, option: str) -> list[str]:
    parser = build_parser()
    for action in parser._subparsers._group_actions:  # type: ignore[union-attr]
        sub = action.choices[command]  # type: ignore[index]
        for sub_action in sub._actions:
            if option in sub_action.option_strings:
                return list(sub_action.choices)
    raise AssertionError(f"hookd {command} has no {option}")


@pytest.mark.parametrize("dialect", list(Dialect), ids=lambda d: d.value)
def test_every_agent_maps_itself_to_the_portable_vocabulary(dialect: Dialect) -> None:
    """``dialects/<agent>/portable.py`` in the agent's package: every member of
    ``PortableModule`` with the Protocol's parameters; its tables name shared events,
    answer fields only of those events, and its own events and tools."""
    package = AGENT_PACKAGES[dialect]
    portable = package.portable
    assert isinstance(portable, ModuleType)
    assert portable.__name__.rpartition(".")[0] == package.dialect.__name__.rpartition(".")[0]
    assert portable.DIALECT is dialect
    missing = [name for name in PORTABLE_MEMBERS if not hasattr(portable, name)]
    assert not missing, f"{portable.__name__} lacks {missing}"
    for name, declared in PORTABLE_MEMBERS.items():
        if inspect.isfunction(declared):
            wanted = list(inspect.signature(declared).parameters)[1:]
            given = list(inspect.signature(getattr(portable, name)).parameters)
            assert given == wanted, f"{portable.__name__}.{name}{given} != {wanted}"
    assert set(portable.EVENTS) <= set(package.dialect.EVENTS)
    assert set(portable.EVENTS.values()) <= set(SHARED_EVENTS)
    assert set(portable.CARRIES) <= set(portable.EVENTS.values())
    assert all(set(fields) <= set(ANSWER_FIELDS) for fields in portable.CARRIES.values())
    assert set(portable.TOOLS.values()) <= set(SHARED_TOOLS), portable.TOOLS
