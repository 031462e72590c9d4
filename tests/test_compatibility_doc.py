"""docs/compatibility.md against the tests it cites: every cited test must exist.

The page's promise is "every row points at the test that pins it"; this keeps the
pointers honest when tests are renamed or removed. Citations in a table's last column
take three forms: ``tests/path.py::test_name``, ``module::test_name`` or
``module::case-id`` (a module of the section's conformance folder, else found under
``tests/``), and ``::case-id`` (the module cited before it in the same cell). They are
checked against what pytest actually collects, so generated case ids count; ``*`` is a
wildcard and ``[params]`` after a test name are ignored.
"""

from __future__ import annotations

import fnmatch
import re
import subprocess
import sys
from functools import cache
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DOC = REPO / "docs" / "compatibility.md"
SECTION_FOLDERS = {
    "Claude Code": "claude",
    "Cline SDK": "cline_sdk",
    "Cline": "cline",
    "Augment": "augment",
    "Codex CLI": "codex",
    "Gemini CLI": "gemini",
    "GitHub Copilot CLI": "copilot",
    "Qwen Code": "qwen",
}
_CITATION = re.compile(r"(?:((?:[\w.]+/)*test_\w+)(?:\.py)?)?::([\w\-.*]+)")


def _sections() -> list[tuple[str, list[str]]]:
    sections: list[tuple[str, list[str]]] = []
    for line in DOC.read_text().splitlines():
        if line.startswith("## "):
            sections.append((line[3:], []))
        elif sections and line.startswith("|"):
            sections[-1][1].append(line)
    return sections


def _folder(section: str) -> str | None:
    for prefix, folder in SECTION_FOLDERS.items():
        if section.startswith(prefix):
            return folder
    return None


def _module_key(written: str, folder: str | None) -> str:
    """The node-id file path a citation means (tests/... relative to the repo)."""
    if written.startswith("tests/"):
        return written if written.endswith(".py") else written + ".py"
    name = written.rsplit("/", 1)[-1]
    candidates = []
    if folder and "/" not in written:
        candidates.append(f"tests/conformance/{folder}/{name}.py")
    candidates += [str(p.relative_to(REPO)) for p in sorted((REPO / "tests").rglob(f"{name}.py"))]
    suffix = written if written.endswith(".py") else written + ".py"
    for candidate in candidates:
        if candidate.endswith(suffix) and (REPO / candidate).is_file():
            return candidate
    return f"<no test module {written}>"


def _citations() -> list[tuple[str, str, str]]:
    """(section, node-id file path, cited test name or case id)."""
    found = []
    for section, rows in _sections():
        folder = _folder(section)
        for row in rows:
            cells = [c.strip() for c in row.strip("|").split("|")]
            if len(cells) < 3:
                continue
            module = f"<{section}: a '::' citation with no module before it>"
            for match in _CITATION.finditer(cells[-1]):
                written, name = match.groups()
                if written:
                    module = _module_key(written, folder)
                found.append((section, module, name))
    return found


@cache
def _collected() -> dict[str, list[tuple[str, str]]]:
    """Every collected test per file: (function name, parameter id or "")."""
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
         "tests/conformance", "tests/daemon", "tests/cli", "tests/client", "tests/agents"],
        cwd=REPO, capture_output=True, text=True, check=False,
    )  # fmt: skip
    nodes: dict[str, list[tuple[str, str]]] = {}
    for line in run.stdout.splitlines():
        if "::" not in line:
            continue
        path, _, test = line.partition("::")
        function, _, param = test.partition("[")
        nodes.setdefault(path, []).append((function, param.rstrip("]")))
    assert nodes, run.stdout + run.stderr
    return nodes


def test_the_page_cites_tests_in_every_dialect_section() -> None:
    cited_sections = {section for section, *_ in _citations()}
    for prefix in SECTION_FOLDERS:
        assert any(s.startswith(prefix) for s in cited_sections), prefix


def test_every_cited_test_exists() -> None:
    """All citations checked at once, so one run lists every stale pointer."""
    citations = _citations()
    stale = [f"{section}: {problem}" for section, module, name in citations
             if (problem := _missing(module, name))]  # fmt: skip
    assert len(citations) > 500  # the page cites tests row by row
    assert not stale, "\n".join(stale)


def _missing(module: str, name: str) -> str | None:
    nodes = _collected().get(module)
    if not nodes:
        return f"{module} holds no collected test"
    name = name.split("[", 1)[0]
    if name.startswith("test_"):
        found = any(fnmatch.fnmatchcase(f, name) for f, _ in nodes)
        return None if found else f"{module}::{name} does not exist"
    found = any(
        fnmatch.fnmatchcase(p, name) or fnmatch.fnmatchcase(p, f"*{name}") or name in p
        for _, p in nodes
    )
    return None if found else f"no case {name!r} in {module}"


def test_every_gemini_case_is_a_row() -> None:
    """Issue 24: each real-agent case of Gemini CLI is a row of its section."""
    from agents.gemini.cases import CASES

    rows = {row.split("|")[1].strip().strip("`") for section, rows in _sections()
            if section.startswith("Gemini CLI") for row in rows}  # fmt: skip
    assert sorted(c.id for c in CASES if c.id not in rows) == []


def test_every_copilot_case_is_a_row() -> None:
    """Each real-agent case of Copilot CLI is a row of its section (issue 25)."""
    from agents.copilot.cases import CASES

    cited = {name for section, module, name in _citations()
             if section.startswith("GitHub Copilot CLI") and module.endswith("test_copilot_agent.py")}  # fmt: skip
    assert [case.id for case in CASES if case.id not in cited] == []


def test_every_qwen_case_is_a_row() -> None:
    """Each real-agent case of Qwen Code is a row of its section (issue 26)."""
    from agents.qwen.cases import CASES

    cited = {name for section, module, name in _citations()
             if section.startswith("Qwen Code") and module.endswith("test_qwen_agent.py")}  # fmt: skip
    assert [case.id for case in CASES if case.id not in cited] == []
