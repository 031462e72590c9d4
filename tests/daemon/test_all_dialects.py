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

from hookd.daemon.all_dialects import DIALECTS
from hookd.daemon.cli.main import build_parser
from hookd.daemon.dialects.base import DialectModule
from hookd.daemon.model import Dialect
from hookd.protocol import AGENTS, load_openrpc


def _protocol_members() -> dict[str, Any]:
    """Every member ``DialectModule`` names: attribute annotations and methods."""
    members: dict[str, Any] = dict(DialectModule.__annotations__)
    for name, value in vars(DialectModule).items():
        if not name.startswith("_") and inspect.isfunction(value):
            members[name] = value
    return members


MEMBERS = _protocol_members()


def test_the_protocol_names_every_member_callers_use() -> None:
    """The members the registry, runner and fire pipeline call (none probed for)."""
    assert set(MEMBERS) == {
        "DIALECT", "EVENTS", "POLICY", "UNCANCELLABLE_EVENTS", "GUARD_EVENTS", "TAKES_HOOKS_DIRS",
        "HOOKS_DIR_ENV", "canonical_event", "sources", "load", "load_event",
        "kept_after_error", "sequential", "select", "prepare", "interpret", "refine", "action",
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


def _cli_choices(command: str, option: str) -> list[str]:
    parser = build_parser()
    for action in parser._subparsers._group_actions:  # type: ignore[union-attr]
        sub = action.choices[command]  # type: ignore[index]
        for sub_action in sub._actions:
            if option in sub_action.option_strings:
                return list(sub_action.choices)
    raise AssertionError(f"hookd {command} has no {option}")
