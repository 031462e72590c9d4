"""The stored examples are the documents' examples, verbatim, and none is left out.

``SOURCES`` says where each stored file comes from (document, first line of the code
block); ``NOT_STORED`` lists the blocks that are not examples of a hook or a settings block,
with the reason. The checks read the reference documents and skip when they are absent
(they live outside the repository).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from conformance.claude.support import DOCS, EXAMPLES, GUIDE, REFERENCE, params

DOC_FILES = {
    "reference": "claude-code-hooks-reference-v2.1.240.md",
    "guide": "claude-code-hooks-guide-v2.1.240.md",
}
SOURCES = [
    ("reference", 78, "reference/block-rm-if.json"),
    ("reference", 100, "reference/block-rm.sh"),
    ("reference", 124, "reference/block-rm-if-windows.json"),
    ("reference", 166, "reference/block-rm.ps1"),
    ("reference", 214, "reference/outputs/PreToolUse-deny-destructive.json"),
    ("reference", 330, "reference/lint-check.json"),
    ("reference", 374, "reference/mcp-matchers.json"),
    ("reference", 471, "reference/exec-form-handler.json"),
    ("reference", 481, "reference/shell-form-handler.json"),
    ("reference", 514, "reference/http-pre-tool-use.json"),
    ("reference", 553, "reference/mcp-tool-security-scan.json"),
    ("reference", 603, "reference/project-script-check-style.json"),
    ("reference", 628, "reference/plugin-hooks.json"),
    ("reference", 664, "reference/skill-secure-operations.md"),
    ("reference", 741, "reference/inputs/PreToolUse.json"),
    ("reference", 791, "reference/block-rm-exit2.sh"),
    ("reference", 911, "reference/outputs/continue-false.json"),
    ("reference", 938, "reference/notification-terminal-sequence.sh"),
    ("reference", 956, "reference/outputs/PostToolUse-additional-context.json"),
    ("reference", 1020, "reference/outputs/top-level-block.json"),
    ("reference", 1031, "reference/outputs/PreToolUse-deny-database.json"),
    ("reference", 1045, "reference/outputs/PermissionRequest-allow-lint.json"),
    ("reference", 1096, "reference/inputs/SessionStart.json"),
    ("reference", 1119, "reference/outputs/SessionStart-context-title.json"),
    ("reference", 1133, "reference/session-start-reload-skills.sh"),
    ("reference", 1150, "reference/session-start-env-file.sh"),
    ("reference", 1164, "reference/session-start-env-diff.sh"),
    ("reference", 1208, "reference/inputs/Setup.json"),
    ("reference", 1228, "reference/outputs/Setup-context.json"),
    ("reference", 1258, "reference/inputs/InstructionsLoaded.json"),
    ("reference", 1290, "reference/inputs/UserPromptSubmit.json"),
    ("reference", 1324, "reference/outputs/UserPromptSubmit-block.json"),
    ("reference", 1348, "reference/inputs/UserPromptExpansion.json"),
    ("reference", 1375, "reference/outputs/UserPromptExpansion-block.json"),
    ("reference", 1416, "reference/inputs/MessageDisplay.json"),
    ("reference", 1446, "reference/message-display-plain.json"),
    ("reference", 1466, "reference/plain-display.sh"),
    ("reference", 1475, "reference/message-display-plain-windows.json"),
    ("reference", 1503, "reference/plain-display.ps1"),
    ("reference", 1735, "reference/outputs/PreToolUse-allow-full.json"),
    ("reference", 1812, "reference/inputs/PermissionRequest.json"),
    ("reference", 1849, "reference/outputs/PermissionRequest-allow-lint.json"),
    ("reference", 1906, "reference/inputs/PostToolUse.json"),
    ("reference", 1946, "reference/outputs/PostToolUse-updated-tool-output.json"),
    ("reference", 1973, "reference/outputs/PostToolUse-classifier-context.json"),
    ("reference", 2012, "reference/inputs/PostToolUseFailure.json"),
    ("reference", 2051, "reference/outputs/PostToolUseFailure-context.json"),
    ("reference", 2068, "reference/inputs/PostToolBatch.json"),
    ("reference", 2106, "reference/outputs/PostToolBatch-context.json"),
    ("reference", 2127, "reference/inputs/PermissionDenied.json"),
    ("reference", 2152, "reference/outputs/PermissionDenied-retry.json"),
    ("reference", 2203, "reference/notification-matchers.json"),
    ("reference", 2234, "reference/inputs/Notification.json"),
    ("reference", 2258, "reference/inputs/SubagentStart.json"),
    ("reference", 2275, "reference/outputs/SubagentStart-context.json"),
    ("reference", 2294, "reference/inputs/SubagentStop.json"),
    ("reference", 2323, "reference/inputs/TaskCreated.json"),
    ("reference", 2355, "reference/task-created-ticket.sh"),
    ("reference", 2378, "reference/inputs/TaskCompleted.json"),
    ("reference", 2410, "reference/task-completed-tests.sh"),
    ("reference", 2467, "reference/inputs/Stop.json"),
    ("reference", 2508, "reference/outputs/Stop-block.json"),
    ("reference", 2517, "reference/outputs/Stop-context.json"),
    ("reference", 2540, "reference/inputs/StopFailure.json"),
    ("reference", 2564, "reference/inputs/TeammateIdle.json"),
    ("reference", 2590, "reference/teammate-idle-artifact.sh"),
    ("reference", 2619, "reference/config-change-audit.json"),
    ("reference", 2641, "reference/inputs/ConfigChange.json"),
    ("reference", 2661, "reference/outputs/ConfigChange-block.json"),
    ("reference", 2684, "reference/inputs/CwdChanged.json"),
    ("reference", 2737, "reference/inputs/DirectoryAdded.json"),
    ("reference", 2764, "reference/file-changed-data-csv.json"),
    ("reference", 2784, "reference/normalize-line-endings.sh"),
    ("reference", 2807, "reference/inputs/FileChanged.json"),
    ("reference", 2842, "reference/worktree-create-svn.json"),
    ("reference", 2865, "reference/inputs/WorktreeCreate.json"),
    ("reference", 2904, "reference/worktree-remove.json"),
    ("reference", 2925, "reference/inputs/WorktreeRemove.json"),
    ("reference", 2958, "reference/inputs/PreCompact.json"),
    ("reference", 2984, "reference/inputs/PostCompact.json"),
    ("reference", 3017, "reference/inputs/SessionEnd.json"),
    ("reference", 3047, "reference/inputs/Elicitation.json"),
    ("reference", 3068, "reference/inputs/Elicitation-url.json"),
    ("reference", 3086, "reference/outputs/Elicitation-accept.json"),
    ("reference", 3117, "reference/inputs/ElicitationResult.json"),
    ("reference", 3136, "reference/outputs/ElicitationResult-decline.json"),
    ("reference", 3210, "reference/prompt-stop.json"),
    ("reference", 3271, "reference/prompt-stop-conditions.json"),
    ("reference", 3323, "reference/agent-stop.json"),
    ("reference", 3351, "reference/async-run-tests.json"),
    ("reference", 3392, "reference/run-tests-async.sh"),
    ("reference", 3419, "reference/async-run-tests-project.json"),
    ("reference", 3478, "reference/powershell-shell.json"),
    ("reference", 3505, "reference/powershell-shell-handler.json"),
    ("guide", 28, "guide/notification-osascript.json"),
    ("guide", 48, "guide/prettier-and-notification.json"),
    ("guide", 99, "guide/notification-osascript.json"),
    ("guide", 129, "guide/notification-notify-send.json"),
    ("guide", 159, "guide/notification-powershell.json"),
    ("guide", 209, "guide/prettier-post-tool-use.json"),
    ("guide", 247, "guide/protect-files.sh"),
    ("guide", 281, "guide/protect-files.json"),
    ("guide", 311, "guide/session-start-compact.json"),
    ("guide", 337, "guide/config-change-audit-log.json"),
    ("guide", 365, "guide/direnv-session-start-cwd-changed.json"),
    ("guide", 396, "guide/direnv-file-changed.json"),
    ("guide", 424, "guide/permission-request-exit-plan-mode.json"),
    ("guide", 452, "guide/outputs/PermissionRequest-set-mode.json"),
    ("guide", 521, "guide/combine-log-and-block.json"),
    ("guide", 559, "guide/inputs/PreToolUse.json"),
    ("guide", 577, "guide/block-drop-table.sh"),
    ("guide", 609, "guide/outputs/PreToolUse-deny-rg.json"),
    ("guide", 631, "guide/outputs/UserPromptSubmit-context.json"),
    ("guide", 648, "guide/prettier-matcher.json"),
    ("guide", 697, "guide/log-bash-commands.json"),
    ("guide", 721, "guide/mcp-github-log.json"),
    ("guide", 743, "guide/session-end-cleanup.json"),
    ("guide", 769, "guide/if-git-policy.json"),
    ("guide", 839, "guide/prompt-stop.json"),
    ("guide", 870, "reference/agent-stop.json"),
    ("guide", 900, "guide/http-post-tool-use.json"),
    ("guide", 988, "guide/stop-hook-active.sh"),
    ("guide", 1005, "guide/profile-banner-stdout.txt"),
]
NOT_STORED = {
    ("reference", 198): "a fragment of a PreToolUse input with '...' (not valid JSON)",
    ("reference", 1547): "a fragment of a Windows Write input with '...' (not valid JSON)",
    ("reference", 1773): "the SDK's result message for a deferred tool call, not hook output",
    ("reference", 3031): "a shell command starting Claude Code with an environment variable",
    ("reference", 3239): "the prompt-hook response schema with 'true | false' (not JSON)",
    ("reference", 3519): "lines of Claude Code's debug log",
    ("guide", 120): "a command to try osascript in a terminal",
    ("guide", 150): "a command to try notify-send in a terminal",
    ("guide", 273): "chmod +x of the protect-files script (the test installs it executable)",
    ("guide", 965): "piping sample JSON into a hook by hand",
    ("guide", 1012): "a shell-profile snippet, not a hook",
}


def blocks(doc: str) -> Iterator[tuple[int, str]]:
    """(first content line, dedented text) of each fenced code block of ``doc``."""
    lines = (DOCS / DOC_FILES[doc]).read_text().split("\n")
    i = 0
    while i < len(lines):
        match = re.match(r"^(\s*)```\w+", lines[i])
        if not match:
            i += 1
            continue
        indent = match.group(1)
        j = i + 1
        while not re.match(r"^\s*```\s*$", lines[j]):
            j += 1
        body = [
            ln[len(indent) :] if ln.startswith(indent) else ln.lstrip() for ln in lines[i + 1 : j]
        ]
        yield i + 2, "\n".join(body) + "\n"
        i = j + 1


@dataclass(frozen=True)
class Stored:
    id: str
    rule: str
    doc: str
    line: int
    path: str


STORED = [
    Stored(f"{doc}:{line}", f"{REFERENCE if doc == 'reference' else GUIDE}: the code block at "
           f"line {line} is stored verbatim as examples/{path}", doc, line, path)
    for doc, line, path in SOURCES
]  # fmt: skip


@pytest.mark.parametrize("case", params(STORED))
def test_example_is_verbatim(case: Stored) -> None:
    found = dict(blocks(case.doc))
    assert (EXAMPLES / case.path).read_text() == found[case.line]


@dataclass(frozen=True)
class Document:
    id: str
    rule: str


DOCUMENTS = [
    Document(doc, f"{REFERENCE if doc == 'reference' else GUIDE}: every code block is a stored "
             "example or listed in NOT_STORED with the reason") for doc in DOC_FILES
]  # fmt: skip


@pytest.mark.parametrize("case", params(DOCUMENTS))
def test_no_example_is_left_out(case: Document) -> None:
    listed = {line for doc, line, _ in SOURCES if doc == case.id}
    listed |= {line for doc, line in NOT_STORED if doc == case.id}
    assert sorted(line for line, _ in blocks(case.id)) == sorted(listed)


def _used(path: str, sources: str) -> bool:
    return path in sources or path.startswith("reference/inputs/")


@dataclass(frozen=True)
class Used:
    id: str
    rule: str


USED = [Used("every-stored-example-runs", "each stored example is named by a test that runs it "
             "(the inputs/ folder is read per event by documented_input)")]  # fmt: skip


@pytest.mark.parametrize("case", params(USED))
def test_every_stored_example_is_used(case: Used) -> None:
    here = Path(__file__).parent
    sources = "\n".join(p.read_text() for p in here.glob("*.py") if p.name != Path(__file__).name)
    stored = sorted(
        str(p.relative_to(EXAMPLES)) for p in EXAMPLES.rglob("*") if p.is_file()
        and p.name != "README.md"
    )  # fmt: skip
    assert [p for p in stored if not _used(p, sources)] == []
    assert sorted({path for _, _, path in SOURCES}) == stored
