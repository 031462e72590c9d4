"""Every document the code, tests and docs cite is in the repository, and every
``name.md §N`` citation of a source points at a section that exists.

The cited sources are copied into ``docs/sources/`` (see its README), so a clean clone
can follow every citation.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SOURCES = REPO / "docs" / "sources"
_NAMED = re.compile(
    r"(?<![\w/.\"'-])((?:[\w.-]+/)*[A-Za-z][\w.-]*\.md)\b(?: §([0-9][0-9A-Za-z.]*))?"
)
_BARE_SOURCE = re.compile(r"(?<![\w/.-])([a-z][a-z0-9-]+) §([0-9][0-9A-Za-z.]*)")


def _tracked_text_files() -> list[Path]:
    listed = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard", "*.py", "*.md", "*.sh", "*.toml"],
        cwd=REPO, capture_output=True, text=True, check=True,
    ).stdout.split()  # fmt: skip
    own = str(Path(__file__).relative_to(REPO))
    return [REPO / p for p in listed if not p.startswith(("docs/sources/", "node_modules"))
            and p != own
            and "/node_modules/" not in p and (REPO / p).is_file()]  # fmt: skip


ALL_FILES = _tracked_text_files()
BASENAMES = {p.name for p in ALL_FILES} | {p.name for p in SOURCES.rglob("*.md")}


def _source(name: str) -> Path | None:
    found = sorted(SOURCES.rglob(f"{name}.md"))
    return found[0] if found else None


def _has_section(document: Path, section: str) -> bool:
    """``§8.13``: a heading numbered 8.13, or item 13 of the numbered list under heading
    8 (the notes number their findings that way)."""
    text = document.read_text()
    number = section.rstrip(".")
    if re.search(rf"^#+ +{re.escape(number)}(?:[.) :]|$)", text, re.M):
        return True
    head, _, item = number.rpartition(".")
    if not head or not item.isdigit():
        return False
    start = re.search(rf"^(#+) +{re.escape(head)}(?:[.) :]|$)", text, re.M)
    if start is None:
        return False
    level = len(start.group(1))
    rest = text[start.end() :]
    end = re.search(rf"^#{{1,{level}}} ", rest, re.M)
    body = rest[: end.start()] if end else rest
    return bool(re.search(rf"^\s*{item}\. ", body, re.M))


def test_every_cited_markdown_file_exists() -> None:
    missing = []
    for path in ALL_FILES:
        for match in _NAMED.finditer(path.read_text(errors="replace")):
            cited = match.group(1)
            if cited.rsplit("/", 1)[-1] not in BASENAMES and not (REPO / cited).exists():
                missing.append(f"{path.relative_to(REPO)} cites {cited}")
    assert not sorted(set(missing))


def test_every_cited_source_section_exists() -> None:
    unresolved = []
    for path in ALL_FILES:
        text = path.read_text(errors="replace")
        cites = [(m.group(1).rsplit("/", 1)[-1][:-3], m.group(2)) for m in _NAMED.finditer(text)]
        cites += [(m.group(1), m.group(2)) for m in _BARE_SOURCE.finditer(text)]
        for name, section in cites:
            document = _source(name)
            if section and document is not None and not _has_section(document, section):
                unresolved.append(f"{path.relative_to(REPO)}: {name} §{section}")
    assert not sorted(set(unresolved))


def test_the_sources_are_the_cited_ones() -> None:
    """The copies the notes lean on most are there (and the checker reads them)."""
    for name in ("cline-implementation", "claude-code-hooks-reference-v2.1.240", "augment-hooks"):
        assert _source(name) is not None, name
    assert _has_section(SOURCES / "notes" / "cline-implementation.md", "8")
    assert _has_section(SOURCES / "notes" / "cline-implementation.md", "9.7")
    assert not _has_section(SOURCES / "notes" / "cline-implementation.md", "99.1")
