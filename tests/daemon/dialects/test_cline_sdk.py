"""Cline SDK file hooks (runner "C"): ``<Event>.<ext>`` files, interpreter inferred, no exec bit.

Rules from ``cline-sdk-file-hooks.md`` and ``cline-implementation.md`` §1B, §2C, §3B, §4,
§5 (SDK) and §11: discovery in four folders, files sorted by full path with
``localeCompare``, tool events run one after another, ``HOOK_CONTROL`` lines, the exit
code ignored, and ``mergeHookControls`` for several hooks.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from hookd_testing import Gate, fire_in_flight, wait_until, write_executable

TOOL_CALL = {"id": "call-456", "name": "read_files", "input": {"filePath": "/src/a.ts"}}
PAYLOAD = {"taskId": "conv-123", "iteration": 1, "tool_call": TOOL_CALL}
MARKER = "\n[hook context truncated: exceeded 50000 characters]"


def hooks_dir(root: Path) -> Path:
    return root / ".cline" / "hooks"


def plain(path: Path, text: str) -> Path:
    """A hook file WITHOUT the exec bit: the SDK never needs one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(0o644)
    return path


def emit(folder: Path, name: str, control: object, after: str = "") -> Path:
    """A bash hook (no shebang, no exec bit) that prints ``control`` as its JSON."""
    return plain(folder / name, f"cat >/dev/null\necho '{json.dumps(control)}'\n{after}")


async def fire(rpc, root: Path, event: str = "PreToolUse", payload=None, **extra):
    return await rpc.fire(
        "cline-sdk", event, [str(root)], PAYLOAD if payload is None else payload, **extra
    )


def sources(result) -> list[str]:
    return [h["source"] for h in result["hooks"]]


async def test_discovers_all_four_hook_folders_in_path_order(rpc, workspace, settings) -> None:
    """~/Documents/Cline/Hooks, ~/.cline/hooks, <root>/.clinerules/hooks and <root>/.cline/hooks."""
    home = Path(settings.home)
    folders = [
        home / ".cline" / "hooks",
        home / "Documents" / "Cline" / "Hooks",
        workspace / ".cline" / "hooks",
        workspace / ".clinerules" / "hooks",
    ]
    files = [emit(folder, "PreToolUse.sh", {"context": folder.parent.name}) for folder in folders]
    plain(workspace / ".cline" / "PreToolUse.sh", "echo '{\"cancel\": true}'\n")

    result = await fire(rpc, workspace)

    assert sources(result) == [str(f) for f in files]
    assert result["context"] == ".cline\nCline\n.cline\n.clinerules"
    assert result["blocked"] is False
    assert [h["error"] for h in result["hooks"]] == [None] * 4


async def test_file_and_sdk_event_names_match_case_insensitively(rpc, workspace) -> None:
    """PreToolUse, pretooluse and tool_call all name the same event (and file names match too)."""
    emit(hooks_dir(workspace), "pRETOOLuse.sh", {"context": "ran"})

    results = [await fire(rpc, workspace, event) for event in ("PreToolUse", "pretooluse",
                                                                  "tool_call", "TOOL_CALL")]  # fmt: skip

    assert [r["context"] for r in results] == ["ran"] * 4


async def test_sh_file_without_exec_bit_runs_through_bash(rpc, workspace) -> None:
    """`.sh` needs no exec bit and no shebang: it is run as `bash <file>` (bash, not sh)."""
    hook = plain(hooks_dir(workspace) / "PreToolUse.sh",
                 'cat >/dev/null\n[[ -n "$BASH_VERSION" ]] && echo \'{"context": "bash"}\'\n')  # fmt: skip

    result = await fire(rpc, workspace)

    assert not os.access(hook, os.X_OK)
    assert result["context"] == "bash"
    assert result["hooks"][0]["exitCode"] == 0


async def test_py_file_runs_through_python3(rpc, workspace) -> None:
    """A lowercase `pretooluse.py` without shebang or exec bit is run as `python3 <file>`."""
    plain(
        hooks_dir(workspace) / "pretooluse.py",
        "import json, sys\n"
        "event = json.load(sys.stdin)\n"
        'print(json.dumps({"context": "py:" + event["tool_call"]["name"]}))\n',
    )

    result = await fire(rpc, workspace)

    assert result["context"] == "py:read_files"
    assert result["hooks"][0]["error"] is None


async def test_shebang_wins_over_the_extension(rpc, workspace) -> None:
    """A `.sh` file whose shebang names python3 runs under python3."""
    plain(
        hooks_dir(workspace) / "PreToolUse.sh",
        "#!/usr/bin/env python3\nimport json, sys\n"
        'print(json.dumps({"context": "python via shebang"}))\n',
    )

    result = await fire(rpc, workspace)

    assert result["context"] == "python via shebang"


async def test_unknown_extensions_other_names_and_symlinks_are_ignored(
    rpc, workspace, tmp_path
) -> None:
    """`PreToolUse.example`, `PreToolUse_Block.sh`, directories and symlinks are not hooks."""
    folder = hooks_dir(workspace)
    ran = tmp_path / "ran"
    body = f"#!/bin/sh\ntouch {ran}\necho '{{\"cancel\": true}}'\n"
    write_executable(folder / "PreToolUse.example", body)
    write_executable(folder / "PreToolUse_BlockDestructive.sh", body)
    (folder / "PreToolUse.py").mkdir()
    target = write_executable(tmp_path / "elsewhere" / "PreToolUse.sh", body)
    (folder / "PreToolUse.sh").symlink_to(target)
    (folder / "PreToolUse").symlink_to(tmp_path / "missing")

    result = await fire(rpc, workspace)

    assert result["hooks"] == []
    assert result["blocked"] is False
    assert not ran.exists()


async def test_several_files_for_one_event_run_in_locale_sorted_path_order(rpc, workspace) -> None:
    """All files of an event run, sorted by full path with localeCompare (case folded first)."""
    folder = hooks_dir(workspace)
    emit(folder, "PreToolUse.sh", {"context": "sh"})
    emit(folder, "PreToolUse", {"context": "bare"})
    plain(folder / "pretooluse.py", 'print(\'{"context": "py"}\')\n')
    emit(folder, "PRETOOLUSE.bash", {"context": "BASH"})
    emit(folder, "pretooluse.bash", {"context": "bash"})

    result = await fire(rpc, workspace)

    assert [Path(s).name for s in sources(result)] == [
        "PreToolUse", "pretooluse.bash", "PRETOOLUSE.bash", "pretooluse.py", "PreToolUse.sh",
    ]  # fmt: skip
    assert result["context"] == "bare\nbash\nBASH\npy\nsh"


async def test_tool_event_hooks_run_one_after_another(rpc, workspace) -> None:
    """PreToolUse files run sequentially: the second starts only after the first ended."""
    log = workspace / "log"
    gate = Gate(workspace / "gate")
    folder = hooks_dir(workspace)
    plain(folder / "PreToolUse.bash",
          f"cat >/dev/null; echo s1 >> {log}; {gate.wait_command}; echo e1 >> {log}; echo '{{}}'\n")  # fmt: skip
    plain(folder / "PreToolUse.sh",
          f"cat >/dev/null; echo s2 >> {log}; echo e2 >> {log}; echo '{{}}'\n")  # fmt: skip

    fire_id = await rpc.start("fire", {"agent": "cline-sdk", "event": "PreToolUse",
                                       "workspaceRoots": [str(workspace)], "payload": PAYLOAD})  # fmt: skip
    await wait_until(lambda: log.exists() and log.read_text() == "s1\n")
    in_flight = await fire_in_flight(rpc)
    await gate.open()
    result = (await rpc.recv_response(fire_id))["result"]

    assert len(in_flight["running"]) == 1
    assert log.read_text().split() == ["s1", "e1", "s2", "e2"]
    assert [h["exitCode"] for h in result["hooks"]] == [0, 0]


async def test_lifecycle_event_hooks_run_concurrently(rpc, workspace) -> None:
    """TaskStart files run in parallel (Promise.all): the later one releases the earlier one."""
    gate = Gate(workspace / "gate")
    folder = hooks_dir(workspace)
    plain(folder / "TaskStart.bash", f"cat >/dev/null; {gate.wait_command}\n")
    plain(folder / "TaskStart.sh", f"cat >/dev/null; echo go > {gate.path}\n")

    result = await fire(rpc, workspace, "TaskStart", {"taskId": "conv-123"}, timeoutMs=30_000)

    assert [h["timedOut"] for h in result["hooks"]] == [False, False]
    assert [h["exitCode"] for h in result["hooks"]] == [0, 0]


async def test_stdin_is_the_sdk_event_json(rpc, workspace) -> None:
    """stdin: hookName "tool_call", ISO timestamp, workspaceRoots, the payload passed through."""
    out = workspace / "stdin.json"
    plain(hooks_dir(workspace) / "PreToolUse.sh", f"cat > {out}; pwd > {out}.cwd; echo '{{}}'\n")

    await fire(rpc, workspace, "PreToolUse")
    received = json.loads(out.read_text())

    assert received["hookName"] == "tool_call"
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", received["timestamp"])
    assert received["workspaceRoots"] == [str(workspace)]
    assert received["tool_call"] == TOOL_CALL
    assert received["taskId"] == "conv-123"
    assert received["iteration"] == 1
    assert "model" not in received
    assert Path(f"{out}.cwd").read_text().strip() == str(workspace)


async def test_hook_name_follows_each_file_event(rpc, workspace) -> None:
    """PostToolUse gets hookName "tool_result"; TaskComplete gets "agent_end"."""
    folder = hooks_dir(workspace)
    for name in ("PostToolUse", "TaskComplete"):
        plain(folder / f"{name}.sh", f"cat > {workspace / name}.json\n")

    await fire(rpc, workspace, "tool_result", {"tool_result": {"id": "c", "output": "ok"}})
    await fire(rpc, workspace, "TaskComplete", {})

    assert json.loads((workspace / "PostToolUse.json").read_text())["hookName"] == "tool_result"
    assert json.loads((workspace / "TaskComplete.json").read_text())["hookName"] == "agent_end"


async def test_last_hook_control_line_wins_among_other_output(rpc, workspace) -> None:
    """With HOOK_CONTROL\\t lines, the JSON is the last such line; other lines (and CRLF) are ignored."""
    plain(
        hooks_dir(workspace) / "PreToolUse.sh",
        "cat >/dev/null\n"
        "echo 'checking the tool call...'\n"
        'printf \'HOOK_CONTROL\\t{"context": "first"}\\r\\n\'\n'
        "echo 'more diagnostics {'\n"
        'printf \'HOOK_CONTROL\\t{"context": "second"}\\r\\n\'\n'
        "echo 'done'\n",
    )

    result = await fire(rpc, workspace)

    assert result["context"] == "second"
    assert result["hooks"][0]["error"] is None


async def test_cancel_blocks_with_error_message_as_reason(rpc, workspace) -> None:
    """{"cancel": true, "errorMessage": ...} blocks; the errorMessage is the reason, not context."""
    emit(hooks_dir(workspace), "PreToolUse.sh",
         {"cancel": True, "errorMessage": "Force push is blocked.", "context": "some context"})  # fmt: skip

    result = await fire(rpc, workspace)

    assert result["blocked"] is True
    assert result["action"] == "stop"  # the SDK runner ends the run (tests/agents/cline_sdk)
    assert result["decision"] == "deny"
    assert result["reason"] == "Force push is blocked."
    assert result["context"] is None
    assert result["native"] == {"cancel": True, "errorMessage": "Force push is blocked."}
    assert result["hooks"][0]["blocked"] is True


async def test_cancel_with_blank_error_message_uses_the_context_as_reason(rpc, workspace) -> None:
    """A cancelling hook whose errorMessage is blank gets its context as the reason."""
    emit(hooks_dir(workspace), "PreToolUse.sh",
         {"cancel": True, "errorMessage": "   ", "context": "the real reason"})  # fmt: skip

    result = await fire(rpc, workspace)

    assert result["blocked"] is True
    assert result["reason"] == "the real reason"
    assert result["context"] is None


async def test_cancel_reason_keeps_other_hooks_context_out(rpc, workspace) -> None:
    """One hook's context never becomes another hook's cancel reason; native drops the context."""
    folder = hooks_dir(workspace)
    emit(folder, "PostToolUse", {"cancel": False, "contextModification": "unrelated lint context"})
    emit(folder, "PostToolUse.sh", {"cancel": True, "errorMessage": "post-hook says stop"})

    result = await fire(rpc, workspace, "PostToolUse", {"tool_result": {"id": "c"}})

    assert result["blocked"] is True
    assert result["reason"] == "post-hook says stop"
    assert result["native"] == {"cancel": True, "errorMessage": "post-hook says stop"}


async def test_non_cancelling_error_message_becomes_context(rpc, workspace) -> None:
    """Without cancel, a hook's (non-blank) errorMessage is injected as context."""
    emit(hooks_dir(workspace), "PreToolUse.sh", {"errorMessage": "lint failed in a.ts"})

    result = await fire(rpc, workspace)

    assert result["blocked"] is False
    assert result["context"] == "lint failed in a.ts"
    assert result["native"] == {"context": "lint failed in a.ts"}


async def test_context_wins_over_its_aliases_even_when_empty(rpc, workspace) -> None:
    """context ?? contextModification ?? errorMessage: any string context shadows the others."""
    folder = hooks_dir(workspace)
    emit(folder, "PreToolUse", {"contextModification": "alias", "errorMessage": "err"})
    emit(
        folder, "PreToolUse.bash", {"context": "", "contextModification": "x", "errorMessage": "y"}
    )
    emit(folder, "PreToolUse.sh", {"context": "ctx", "contextModification": "ignored"})

    result = await fire(rpc, workspace)

    assert result["context"] == "alias\nctx"


async def test_override_input_last_by_path_wins(rpc, workspace) -> None:
    """overrideInput from several hooks: the last in sorted path order wins and is named."""
    folder = hooks_dir(workspace)
    emit(folder, "PreToolUse.bash", {"overrideInput": {"filePath": "/first"}})
    last = emit(folder, "PreToolUse.sh", {"overrideInput": {"filePath": "/second"}})

    result = await fire(rpc, workspace)

    assert result["updatedInput"] == {"filePath": "/second"}
    assert result["updatedInputFrom"] == str(last)
    assert result["native"] == {"overrideInput": {"filePath": "/second"}}
    assert any(str(last) in w for w in result["warnings"])


async def test_override_input_null_counts_as_set(rpc, workspace) -> None:
    """overrideInput is checked with hasOwn: an explicit null still overrides."""
    folder = hooks_dir(workspace)
    emit(folder, "PreToolUse.bash", {"overrideInput": {"filePath": "/first"}})
    last = emit(folder, "PreToolUse.sh", {"overrideInput": None})

    result = await fire(rpc, workspace)

    assert result["updatedInputFrom"] == str(last)
    assert result["updatedInput"] is None
    assert result["native"] == {"overrideInput": None}


async def test_exit_code_is_ignored(rpc, workspace) -> None:
    """A non-zero exit with valid JSON is honoured; with empty output it is just no control."""
    folder = hooks_dir(workspace)
    plain(folder / "PreToolUse.bash", "cat >/dev/null; exit 1\n")
    emit(folder, "PreToolUse.sh", {"cancel": True, "errorMessage": "stop"}, after="exit 2\n")

    result = await fire(rpc, workspace)

    assert result["blocked"] is True
    assert result["reason"] == "stop"
    assert [h["exitCode"] for h in result["hooks"]] == [1, 2]
    assert [h["error"] for h in result["hooks"]] == [None, None]


async def test_invalid_json_is_reported_and_other_hooks_still_count(rpc, workspace) -> None:
    """Unparsable output skips that hook (reported with an error); the others still apply."""
    folder = hooks_dir(workspace)
    plain(folder / "PreToolUse.bash", "cat >/dev/null; echo 'not json at all'\n")
    emit(folder, "PreToolUse.sh", {"cancel": True, "errorMessage": "blocked anyway"})

    result = await fire(rpc, workspace)

    assert result["blocked"] is True
    assert result["reason"] == "blocked anyway"
    assert "invalid JSON" in result["hooks"][0]["error"]
    assert result["hooks"][0]["blocked"] is False
    assert result["hooks"][1]["error"] is None


async def test_contexts_join_with_a_newline_untrimmed(rpc, workspace) -> None:
    """Contexts of several hooks join with a single "\\n", each kept as written."""
    folder = hooks_dir(workspace)
    emit(folder, "PreToolUse.bash", {"context": "one "})
    plain(folder / "PreToolUse.py", 'print(\'{"context": "  two"}\')\n')
    emit(folder, "PreToolUse.sh", {})

    result = await fire(rpc, workspace)

    assert result["context"] == "one \n  two"
    assert result["native"] == {"context": "one \n  two"}


async def test_context_over_50000_characters_is_truncated(rpc, workspace) -> None:
    """A context of 50 000 characters is kept; 50 001 is cut to 50 000 plus the marker."""
    folder = hooks_dir(workspace)
    script = 'import json\nprint(json.dumps({{"context": "{ch}" * {n}}}))\n'
    plain(folder / "PreToolUse.py", script.format(ch="x", n=50_000))
    plain(folder / "PostToolUse.py", script.format(ch="y", n=50_001))

    exact = await fire(rpc, workspace)
    over = await fire(rpc, workspace, "PostToolUse", {"tool_result": {"id": "c"}})

    assert exact["context"] == "x" * 50_000
    assert over["context"] == "y" * 50_000 + MARKER
    assert over["native"] == {"context": "y" * 50_000 + MARKER}


async def test_empty_output_means_no_control(rpc, workspace) -> None:
    """Empty stdout (or `{}`) is "do nothing": not blocked, no context, no error."""
    folder = hooks_dir(workspace)
    plain(folder / "PreToolUse.bash", "cat >/dev/null\n")
    emit(folder, "PreToolUse.sh", {})

    result = await fire(rpc, workspace)

    assert result["blocked"] is False
    assert result["context"] is None
    assert result["native"] == {}
    assert [h["error"] for h in result["hooks"]] == [None, None]


async def test_hooks_dirs_named_by_the_client_are_searched_first(rpc, workspace, tmp_path) -> None:
    """Extra folders the client names in the fire ("hooksDirs") run first; CLINE_HOOKS_DIR
    in its env is not read (cline 3.0.65's --hooks-dir sets it and nothing reads it)."""
    extra, from_env = tmp_path / "ci-hooks", tmp_path / "env-hooks"
    emit(extra, "PreToolUse.sh", {"context": "from --hooks-dir"})
    emit(from_env, "PreToolUse.sh", {"context": "from CLINE_HOOKS_DIR"})
    emit(hooks_dir(workspace), "PreToolUse.sh", {"context": "from workspace"})

    result = await fire(rpc, workspace, hooksDirs=[str(extra)],
                        env={"CLINE_HOOKS_DIR": str(from_env)})  # fmt: skip
    plain_fire = await fire(rpc, workspace, env={"CLINE_HOOKS_DIR": str(from_env)})

    assert [h["layer"] for h in result["hooks"]] == ["hooks-dir", "workspace"]
    assert result["context"].index("--hooks-dir") < result["context"].index("workspace")
    assert [h["layer"] for h in plain_fire["hooks"]] == ["workspace"]


async def test_hooks_dirs_are_refused_for_settings_dialects(rpc, workspace, tmp_path) -> None:
    reply = await rpc.recv_response(await rpc.start("fire", {
        "agent": "claude", "event": "Stop", "workspaceRoots": [str(workspace)],
        "hooksDirs": [str(tmp_path)]}))  # fmt: skip

    assert reply["error"]["code"] == -32602
    assert "file-hook dialects" in reply["error"]["data"]


async def test_cline_dir_in_the_env_moves_the_user_folder(
    rpc, workspace, tmp_path, settings
) -> None:
    """CLINE_DIR (the agent's env, passed in the fire's env) makes the SDK read
    $CLINE_DIR/hooks instead of ~/.cline/hooks (tests/agents/cline_sdk::cline-dir-env)."""
    moved = tmp_path / "cline-config"
    emit(moved / "hooks", "PreToolUse.sh", {"context": "from CLINE_DIR"})
    emit(Path(settings.home) / ".cline" / "hooks", "PreToolUse.sh", {"context": "from ~/.cline"})
    emit(hooks_dir(workspace), "PreToolUse.sh", {"context": "from workspace"})

    result = await fire(rpc, workspace, env={"CLINE_DIR": str(moved)})
    plain_fire = await fire(rpc, workspace)

    assert result["context"] == "from CLINE_DIR\nfrom workspace"
    assert plain_fire["context"] == "from ~/.cline\nfrom workspace"
    relative = await fire(rpc, workspace, env={"CLINE_DIR": "relative/dir"})
    assert any("not an absolute path" in w for w in relative["warnings"])
