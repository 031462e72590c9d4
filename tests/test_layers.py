"""Import-layer contracts, read from the source (no import needed, so nothing hides
behind a lazy import): the layers of ``docs/design.md`` and no import cycles.

Imports under ``if TYPE_CHECKING:`` are left out: they never run, and a Protocol may
name the class that implements it that way.
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


def _imports(name: str, path: Path) -> set[str]:
    """Every module ``name`` imports at run time (absolute names)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in _runtime_nodes(ast.parse(path.read_text(), str(path))):
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
    pytest.param((f"{D}.server",), (f"{D}.app", f"{D}.cli"), id="server-below-app"),
    pytest.param(
        (f"{D}.model", f"{D}.urls", f"{D}.jstext", f"{D}.jswrite", f"{D}.errors", f"{D}.procfs",
         f"{D}.audit"),
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


def test_no_import_cycles() -> None:
    """Tarjan's strongly connected components over hookd's own modules; a package
    importing its own submodules (``__init__`` re-exports) is not a loop."""
    edges = {
        n: {t for t in ts if t in MODULES and not _under(t, n) and not _under(n, t)}
        for n, ts in GRAPH.items()
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
    assert not cycles


def test_the_graph_is_read() -> None:
    """The contracts above check something: known edges are found."""
    assert f"{D}.model" in GRAPH[f"{D}.dialects.base"]
    assert f"{D}.all_dialects" in GRAPH[f"{D}.fire.pipeline"]
    assert f"{D}.dialects.claude.dialect" in GRAPH[f"{D}.all_dialects"]
    assert f"{D}.server.connection" not in GRAPH[f"{D}.server.context"]  # TYPE_CHECKING only
