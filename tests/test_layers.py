"""Import-layer contracts, read from the source (no import needed, so nothing hides
behind a lazy import): the layers of ``docs/design.md`` and no import cycles.

Imports under ``if TYPE_CHECKING:`` are left out of the layers: they never run, and a
Protocol may name the class that implements it that way. The runner has no import cycle
even counting them (``test_no_import_cycles_in_the_runner_even_for_types``).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SOURCE_ROOTS = [REPO / "protocol/src", REPO / "client/python/src", REPO / "daemon/src"]
D = "hookd.daemon"


def _modules() -> dict[str, Path]:
    found = {}
    for root in SOURCE_ROOTS:
        for path in root.rglob("*.py"):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


MODULES = _modules()


def _runtime_nodes(node: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    if isinstance(node, ast.Import | ast.ImportFrom):
        yield node
        return
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
            for orelse in child.orelse:
                yield from _runtime_nodes(orelse)
            continue
        yield from _runtime_nodes(child)


def _all_nodes(node: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import, ``if TYPE_CHECKING:`` ones included."""
    for found in ast.walk(node):
        if isinstance(found, ast.Import | ast.ImportFrom):
            yield found


def _imports(name: str, path: Path, *, types_too: bool = False) -> set[str]:
    """Every module ``name`` imports at run time (absolute names); ``types_too``: and
    under ``if TYPE_CHECKING:``."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    tree = ast.parse(path.read_text(), str(path))
    for node in _all_nodes(tree) if types_too else _runtime_nodes(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
            continue
        base = node.module or ""
        if node.level:
            anchor = package.split(".")
            anchor = anchor[: len(anchor) - (node.level - 1)]
            base = ".".join([*anchor, *([base] if base else [])])
        found.add(base)
        found.update(
            f"{base}.{alias.name}" for alias in node.names if f"{base}.{alias.name}" in MODULES
        )
    return found


GRAPH = {name: _imports(name, path) for name, path in MODULES.items()}


def _under(name: str, *packages: str) -> bool:
    return any(name == p or name.startswith(p + ".") for p in packages)


def _violations(importers: tuple[str, ...], forbidden: tuple[str, ...]) -> list[str]:
    return [
        f"{name} imports {target}"
        for name, targets in sorted(GRAPH.items())
        if _under(name, *importers)
        for target in sorted(targets)
        if _under(target, *forbidden)
    ]


CONTRACTS = [
    pytest.param(
        ("hookd.protocol", "hookd.client"), (D, "trio", "structlog", "watchfiles"),
        id="protocol-and-client-stay-light",
    ),
    pytest.param(("hookd.protocol",), ("hookd.client",), id="protocol-below-client"),
    pytest.param(
        (f"{D}.dialects",),
        (f"{D}.runner", f"{D}.server", f"{D}.fire", f"{D}.registry", f"{D}.app",
         f"{D}.all_dialects", f"{D}.cli", "trio"),
        id="dialects-are-pure-rules",
    ),
    pytest.param(
        (f"{D}.runner",),
        (f"{D}.all_dialects", f"{D}.fire", f"{D}.server", f"{D}.registry", f"{D}.app",
         f"{D}.cli"),
        id="runner-gets-its-dialect-handed-down",
    ),
    pytest.param(
        (f"{D}.registry",),
        (f"{D}.all_dialects", f"{D}.fire", f"{D}.server", f"{D}.runner", f"{D}.app",
         f"{D}.cli"),
        id="registry-gets-its-dialects-handed-down",
    ),
    pytest.param(
        (f"{D}.trust",),
        (f"{D}.all_dialects", f"{D}.fire", f"{D}.server", f"{D}.runner", f"{D}.registry",
         f"{D}.app", f"{D}.cli", "trio"),
        id="trust-gets-its-dialects-handed-down",
    ),
    pytest.param(
        (f"{D}.fire",), (f"{D}.server", f"{D}.app", f"{D}.cli"), id="fire-below-server"
    ),
    pytest.param(
        (f"{D}.validate",),
        (f"{D}.all_dialects", f"{D}.fire", f"{D}.server", f"{D}.runner", f"{D}.registry",
         f"{D}.app", f"{D}.cli", "trio"),
        id="validate-gets-its-dialects-handed-down",
    ),
    pytest.param((f"{D}.server",), (f"{D}.app", f"{D}.cli"), id="server-below-app"),
    pytest.param(
        (f"{D}.model", f"{D}.urls", f"{D}.jstext", f"{D}.jswrite", f"{D}.serdewrite",
         f"{D}.errors", f"{D}.procfs", f"{D}.audit", f"{D}.edits"),
        (f"{D}.dialects", f"{D}.runner", f"{D}.fire", f"{D}.registry", f"{D}.server",
         f"{D}.app", f"{D}.all_dialects", "trio"),
        id="shared-values-at-the-bottom",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("importers", "forbidden"), CONTRACTS)
def test_layer_contract(importers: tuple[str, ...], forbidden: tuple[str, ...]) -> None:
    assert not _violations(importers, forbidden)


def test_nothing_but_the_cli_imports_app() -> None:
    importers = sorted(n for n, t in GRAPH.items() if f"{D}.app" in t)
    assert all(_under(n, f"{D}.cli") for n in importers), importers


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components over hookd's own modules in ``graph``; a
    package importing its own submodules (``__init__`` re-exports) is not a loop."""
    edges = {
        n: {t for t in ts if t in graph and not _under(t, n) and not _under(n, t)}
        for n, ts in graph.items()
    }
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in edges[node]:
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return cycles


def test_no_import_cycles() -> None:
    assert not _cycles(GRAPH)


AGENT_PACKAGES = sorted(
    name
    for name, path in MODULES.items()
    if path.name == "__init__.py" and name.startswith(f"{D}.dialects.") and name.count(".") == 3
)
"""The agents' packages (``dialects/<agent>/``)."""


def test_nothing_outside_the_agents_names_one() -> None:
    """Only the agent table (and the agents' own packages, which share rules by import)
    imports an agent's package: the CLI, the server, the fire path, the registry and the
    runner get what they need from the table or handed down, so adding an agent touches
    none of them (issue 22)."""
    allowed = (f"{D}.dialects", f"{D}.all_dialects")
    importers = sorted(
        f"{name} imports {target}"
        for name, targets in GRAPH.items()
        if not _under(name, *allowed)
        for target in targets
        if _under(target, *AGENT_PACKAGES)
    )
    assert AGENT_PACKAGES, "the agents' packages are found"
    assert not importers


RELAY_STDLIB = {"contextlib", "errno", "fcntl", "json", "os", "re", "select", "socket",
                "struct", "subprocess", "sys", "time", "__future__", "collections.abc",
                "typing"}  # fmt: skip


def test_the_relay_is_a_pipe_of_the_standard_library() -> None:
    """``hookd-relay`` starts on every event: it imports nothing of hookd but its generated
    table (not the daemon, not even the protocol package), only these standard modules."""
    imported = GRAPH["hookd.relay"] | GRAPH["hookd._relay_table"]
    ours = {name for name in imported if name.startswith("hookd")}
    assert ours <= {"hookd", "hookd._relay_table"}
    assert imported - ours <= RELAY_STDLIB, imported - ours - RELAY_STDLIB


def test_no_import_cycles_even_for_the_type_checker() -> None:
    """No circle of imports, not even under ``if TYPE_CHECKING:``: a type two modules need
    lives in the lower one, or is a Protocol it owns (``server/context.Client`` for the
    connection, ``launch.Launcher`` for the warm pool in front of one)."""
    assert not _cycles({n: _imports(n, p, types_too=True) for n, p in MODULES.items()})


def test_the_graph_is_read() -> None:
    """The contracts above check something: known edges are found."""
    assert f"{D}.model" in GRAPH[f"{D}.dialects.base"]
    assert f"{D}.all_dialects" in GRAPH[f"{D}.fire.pipeline"]
    assert f"{D}.dialects.claude.dialect" in GRAPH[f"{D}.all_dialects"]
    assert f"{D}.server.context" in GRAPH[f"{D}.server.connection"]
    assert f"{D}.dialects.claude" in AGENT_PACKAGES


def test_a_type_only_circle_is_seen(tmp_path: Path) -> None:
    """The type-aware cycle check reads ``if TYPE_CHECKING:`` imports (the runtime graph
    does not), and finds the circle such an import closes."""
    module = tmp_path / "custody.py"
    module.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                      "    from .warm.pool import WarmPool\n")  # fmt: skip
    pool = f"{D}.runner.warm.pool"
    assert pool not in _imports(f"{D}.runner.custody", module)
    assert pool in _imports(f"{D}.runner.custody", module, types_too=True)
    graph = {f"{D}.runner.custody": {pool}, pool: {f"{D}.runner.custody"}}
    assert _cycles(graph) == [sorted(graph)]
