"""How a hook file is started: the shebang first, then the extension, never the exec bit.

``cline-implementation.md`` §2C (``inferHookCommand``): a shebang is split on whitespace,
a leading ``env`` dropped, ``bash``/``sh``/``zsh`` (and ``python``/``python3``) reduced to
their bare names; without one, ``.sh .bash .zsh`` and no extension run under ``bash``,
``.js .mjs .cjs`` under ``node``, ``.ts .mts .cts`` under ``bun run``, ``.py`` under
``python3`` and ``.ps1`` under ``pwsh -File``. Every file here is written 0644.

Each run case's hook reports the binary it runs in (``/proc/self/exe``), which is compared
with the interpreter the rule names, looked up on ``PATH`` (Python hooks report
``python3``: only Python can run them, and ``python3`` may be a shim).
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from conformance.cline_sdk._sdk import (
    HOOKS,
    NOTES,
    SPEC,
    Case,
    Fire,
    Has,
    Places,
    control,
    params,
    run,
    write,
)
from hookd.daemon.dialects.cline_sdk import dialect as cline_sdk
from hookd.daemon.model import Dialect, FireRequest, Launch, Source

SH = 'cat >/dev/null\nprintf \'{"context": "%s"}\\n\' "$(readlink -f /proc/$$/exe)"\n'
PY = (
    "import json, sys\nsys.stdin.read()\n"
    'name = f"python{sys.version_info[0]}" + (" -u" if "-u" in sys.orig_argv[1:-1] else "")\n'
    'print(json.dumps({"context": name}))\n'
)
"""Python reports ``python3`` (and `` -u`` when unbuffered), not its binary: ``python3`` may
be a shim (pyenv) that execs another file."""
CJS = (
    'const fs = require("fs");\nfs.readFileSync(0);\n'
    'console.log(JSON.stringify({ context: fs.realpathSync("/proc/self/exe") }));\n'
)
ESM = (
    'import { readFileSync, realpathSync } from "node:fs";\nreadFileSync(0);\n'
    'console.log(JSON.stringify({ context: realpathSync("/proc/self/exe") }));\n'
)
PS1 = (
    "$null = [Console]::In.ReadToEnd()\n"
    "$exe = [System.Diagnostics.Process]::GetCurrentProcess().MainModule.FileName\n"
    "Write-Output ('{\"context\": \"' + $exe + '\"}')\n"
)


@dataclass(frozen=True)
class RunCase:
    id: str
    rule: str
    name: str
    body: str
    interpreter: str
    """The command the rule says runs the file; the hook must report that binary."""
    suffix: str = ""


RUN_CASES = [
    RunCase("no-extension-no-shebang", f"{NOTES} §2C: no shebang and no extension → `bash <f>` "
            "(§8.12 #2 'executes extensionless legacy hook files via bash fallback').",
            "PreToolUse", SH, "bash"),
    RunCase("sh-extension", f"{NOTES} §2C: `.sh` → `bash <f>` (bash, not sh).", "PreToolUse.sh",
            SH, "bash"),
    RunCase("bash-extension", f"{NOTES} §2C: `.bash` → `bash <f>`.", "PreToolUse.bash", SH, "bash"),
    RunCase("zsh-extension-runs-bash", f"{NOTES} §2C: `.zsh` → `bash <f>` (not zsh).",
            "PreToolUse.zsh", SH, "bash"),
    RunCase("js-extension", f"{NOTES} §2C: `.js` → `node <f>`.", "PreToolUse.js", CJS, "node"),
    RunCase("mjs-extension", f"{NOTES} §2C: `.mjs` → `node <f>`.", "PreToolUse.mjs", ESM, "node"),
    RunCase("cjs-extension", f"{NOTES} §2C: `.cjs` → `node <f>`.", "PreToolUse.cjs", CJS, "node"),
    RunCase("py-extension", f"{NOTES} §2C: `.py` → `python3 <f>`.", "PreToolUse.py", PY, "python3"),
    RunCase("ts-extension", f"{NOTES} §2C: `.ts` → `bun run <f>`; {SPEC} §TypeScript Examples: "
            "'TypeScript hook will execute via bun'.", "PreToolUse.ts", ESM, "bun"),
    RunCase("mts-extension", f"{NOTES} §2C: `.mts` → `bun run <f>`.", "PreToolUse.mts", ESM, "bun"),
    RunCase("cts-extension", f"{NOTES} §2C: `.cts` → `bun run <f>`.", "PreToolUse.cts", ESM, "bun"),
    RunCase("ps1-extension", f"{NOTES} §2C: `.ps1` → `pwsh -File <f>` off Windows (§8.12 #18).",
            "PreToolUse.ps1", PS1, "pwsh"),
    RunCase("bash-shebang-beats-py", f"{NOTES} §2C: the shebang is read first: `#!/bin/bash` in "
            "a `.py` file runs bash.", "PreToolUse.py", "#!/bin/bash\n" + SH, "bash"),
    RunCase("sh-shebang-beats-sh-extension", f"{NOTES} §2C: `#!/bin/sh` becomes the bare `sh`, "
            "so a `.sh` file with it runs under sh, not bash.", "PreToolUse.sh",
            "#!/bin/sh\n" + SH, "sh"),
    RunCase("env-python3-shebang-beats-js", f"{NOTES} §2C: `#!/usr/bin/env python3`: env is "
            "dropped, python3 runs even a `.js` file.", "PreToolUse.js",
            "#!/usr/bin/env python3\n" + PY, "python3"),
    RunCase("env-node-shebang-no-extension", f"{NOTES} §2C: `#!/usr/bin/env node` on an "
            "extensionless file runs node (the bash fallback is only for files without one).",
            "PreToolUse", "#!/usr/bin/env node\n" + CJS, "node"),
    RunCase("shebang-arguments-kept", f"{NOTES} §2C: the shebang is split on whitespace and "
            "every word is kept: `#!/usr/bin/env python3 -u` runs `python3 -u <f>`.",
            "PreToolUse.sh", "#!/usr/bin/env python3 -u\n" + PY, "python3", " -u"),
    RunCase("node-shebang-beats-ts", f"{NOTES} §2C: a `.ts` file with `#!/usr/bin/env node` "
            "runs under node, not bun.", "PreToolUse.ts", "#!/usr/bin/env node\n" + CJS, "node"),
    RunCase("shebang-after-whitespace", f"{NOTES} §2C: the first line is trimmed before the "
            "`#!` check, so `  #!/bin/sh` still names sh.", "PreToolUse.py",
            "  #!/bin/sh\n" + SH, "sh"),
    RunCase("shebang-name-compared-lowercased", f"{NOTES} §2C: the interpreter name is "
            "compared lowercased: `#!/bin/BASH` is the bare `bash` (found on PATH).",
            "PreToolUse", "#!/bin/BASH\n" + SH, "bash"),
    RunCase("env-split-string-option", "Deliberate difference: `#!/usr/bin/env -S bash -e` runs "
            "`bash -e <f>` as env would; the SDK keeps `-S` as the command and fails to spawn.",
            "PreToolUse.py", "#!/usr/bin/env -S bash -e\n" + SH, "bash"),
]  # fmt: skip


def run_params() -> list:
    out = []
    for case in RUN_CASES:
        missing = shutil.which(case.interpreter) is None
        marks = [pytest.mark.skip(reason=f"{case.interpreter} not installed")] if missing else []
        out.append(pytest.param(case, id=case.id, marks=marks))
    return out


@pytest.mark.parametrize("case", run_params())
async def test_interpreter_inferred(case: RunCase, rpc, places: Places) -> None:
    hook = write(places, f"{HOOKS}/{case.name}", case.body)

    result = await rpc.fire("cline-sdk", "PreToolUse", [str(places.ws)], {})

    if case.interpreter == "python3":
        expected = "python3" + case.suffix
    else:
        expected = os.path.realpath(shutil.which(case.interpreter) or "") + case.suffix
    assert not os.access(hook, os.X_OK)
    assert result["hooks"][0]["error"] is None
    assert result["context"] == expected


# bun and pwsh: a stub on PATH stands in for them, recording the argv hookd starts ---------

STUB = 'cat >/dev/null\nprintf \'HOOK_CONTROL\\t{"context": "%s %s"}\\n\' "$(basename "$0")" "$*"\n'
WITH_STUBS = {"env": {"PATH": "{tmp}/bin:" + os.environ.get("PATH", os.defpath)}}

STUB_CASES = [
    Case(
        id=f"{ext[1:]}-argv-through-stub",
        rule=f"{NOTES} §2C: a `{ext}` file without shebang is started as `{argv}`; a stub "
        f"`{argv.split()[0]}` on the fire's PATH (the real one is not installed here) records "
        "the argv hookd starts, which is resolved on the hook's own PATH.",
        files=(
            (f"{HOOKS}/PreToolUse{ext}", "this is never read by the stub\n"),
            ("{tmp}/bin/" + argv.split()[0], STUB),
        ),
        fires=(Fire(params=WITH_STUBS),),
        expect={"context": f"{argv} {HOOKS}/PreToolUse{ext}"},
        hooks=({"error": None, "exitCode": 0},),
        mode=0o755,
    )
    for ext, argv in (
        (".ts", "bun run"),
        (".mts", "bun run"),
        (".cts", "bun run"),
        (".ps1", "pwsh -File"),
    )
]


@pytest.mark.parametrize("case", params(STUB_CASES))
async def test_argv_through_stub(case: Case, rpc, places: Places) -> None:
    await run(case, rpc, places)


MISSING_CASES = [
    Case(
        id=f"{name}-without-{interpreter}",
        rule=f"{NOTES} §2C and §5: a hook whose interpreter cannot be spawned is skipped "
        "(logged) and the other hooks still count; hookd reports why in `error`.",
        files=(
            (f"{HOOKS}/{name}", "console.log('{}')\n"),
            (f"{HOOKS}/PreToolUse", control({"cancel": True, "errorMessage": "still blocked"})),
        ),
        expect={"blocked": True, "reason": "still blocked"},
        hooks=({"error": None}, {"error": Has("could not start"), "blocked": False}),
    )
    for name, interpreter in (("PreToolUse.ts", "bun"), ("PreToolUse.ps1", "pwsh"))
    if shutil.which(interpreter) is None
]


@pytest.mark.parametrize("case", params(MISSING_CASES))
async def test_missing_interpreter(case: Case, rpc, places: Places) -> None:
    await run(case, rpc, places)


# argv construction, through the module's own functions ----------------------------------


@dataclass(frozen=True)
class ArgvCase:
    id: str
    rule: str
    name: str
    first_line: str
    argv: tuple[str, ...]
    """Expected ``infer_command`` result; ``{f}`` is the hook's path."""


NO_SHEBANG = [
    ArgvCase(f"ext-{ext[1:] or 'none'}", f"{NOTES} §2C: `{ext or 'no extension'}` without "
             f"shebang → `{' '.join(argv)} <f>`.", f"PreToolUse{ext}", "echo {}", (*argv, "{f}"))
    for ext, argv in (
        ("", ("bash",)), (".sh", ("bash",)), (".bash", ("bash",)), (".zsh", ("bash",)),
        (".js", ("node",)), (".mjs", ("node",)), (".cjs", ("node",)),
        (".ts", ("bun", "run")), (".mts", ("bun", "run")), (".cts", ("bun", "run")),
        (".py", ("python3",)), (".ps1", ("pwsh", "-File")), (".TS", ("bun", "run")),
    )
]  # fmt: skip

WITH_SHEBANG = [
    ArgvCase("env-bash", f"{NOTES} §2C: env dropped, bash bare.", "PreToolUse.py",
             "#!/usr/bin/env bash", ("bash", "{f}")),
    ArgvCase("bash-with-flag", f"{NOTES} §2C: bash bare, its arguments kept.", "PreToolUse",
             "#!/bin/bash -e", ("bash", "-e", "{f}")),
    ArgvCase("zsh-bare", f"{NOTES} §2C: zsh becomes the bare name.", "PreToolUse.sh",
             "#!/usr/local/bin/zsh", ("zsh", "{f}")),
    ArgvCase("python3-bare", f"{NOTES} §2C (normalizeHookInterpreter): python3 becomes the "
             "bare name.", "PreToolUse.py", "#!/usr/bin/python3", ("python3", "{f}")),
    ArgvCase("env-python3-flag", f"{NOTES} §2C: every shebang word is kept.", "PreToolUse.py",
             "#!/usr/bin/env python3 -u", ("python3", "-u", "{f}")),
    ArgvCase("env-bun-no-run", f"{NOTES} §2C: a bun shebang is used as written (`bun <f>`, no "
             "`run`), as {SPEC}'s TypeScript example's `#!/usr/bin/env bun` is.", "PreToolUse.ts",
             "#!/usr/bin/env bun", ("bun", "{f}")),
    ArgvCase("env-pwsh-no-file-flag", f"{NOTES} §2C: a pwsh shebang is used as written.",
             "PreToolUse.ps1", "#!/usr/bin/env pwsh", ("pwsh", "{f}")),
    ArgvCase("absolute-node-verbatim", f"{NOTES} §2C: other interpreters are used verbatim, "
             "path and arguments.", "PreToolUse.js", "#!/opt/node/bin/node --no-warnings",
             ("/opt/node/bin/node", "--no-warnings", "{f}")),
    ArgvCase("crlf-shebang", f"{NOTES} §2C: the first line is split on \\r?\\n and trimmed.",
             "PreToolUse", "#!/bin/sh\r", ("sh", "{f}")),
    ArgvCase("empty-shebang-uses-extension", f"{NOTES} §2C: `#!` with nothing after it is no "
             "shebang; the extension decides.", "PreToolUse.py", "#!", ("python3", "{f}")),
    ArgvCase("env-split-string", "Deliberate difference (env -S): `env`'s own options are "
             "skipped.", "PreToolUse.js", "#!/usr/bin/env -S node --no-warnings",
             ("node", "--no-warnings", "{f}")),
    ArgvCase("env-assignment", "Deliberate difference (env NAME=value): assignments after env "
             "are skipped, as env would.", "PreToolUse.js", "#!/usr/bin/env NODE_ENV=test node",
             ("node", "{f}")),
]  # fmt: skip


@pytest.mark.parametrize("case", NO_SHEBANG + WITH_SHEBANG, ids=lambda case: case.id)
def test_infer_command(case: ArgvCase, tmp_path: Path) -> None:
    hook = tmp_path / case.name
    hook.write_text(case.first_line + "\n" + "true\n")

    argv = cline_sdk.infer_command(str(hook))

    assert argv == tuple(word.replace("{f}", str(hook)) for word in case.argv)


@dataclass(frozen=True)
class LaunchCase:
    id: str
    rule: str
    name: str
    stub: str | None
    """An executable of this name is put in the PATH given to ``prepare``."""
    argv: tuple[str, ...]
    """Expected ``Launch.argv``; ``{f}`` is the hook, ``{bin}`` the PATH folder."""


LAUNCH_CASES = [
    LaunchCase("bun-resolved-on-hook-path", f"{NOTES} §2C: spawn without a shell, the command "
               "looked up on the PATH of the hook's environment.", "PreToolUse.ts", "bun",
               ("{bin}/bun", "run", "{f}")),
    LaunchCase("bun-missing-left-bare", f"{NOTES} §2C: a command not on PATH is spawned as "
               "named (and fails to start).", "PreToolUse.ts", None, ("bun", "run", "{f}")),
    LaunchCase("pwsh-resolved-on-hook-path", f"{NOTES} §2C: `.ps1` → `pwsh -File <f>`.",
               "PreToolUse.ps1", "pwsh", ("{bin}/pwsh", "-File", "{f}")),
    LaunchCase("pwsh-missing-left-bare", f"{NOTES} §2C: `.ps1` → `pwsh -File <f>`.",
               "PreToolUse.ps1", None, ("pwsh", "-File", "{f}")),
]  # fmt: skip


@pytest.mark.parametrize("case", LAUNCH_CASES, ids=lambda case: case.id)
def test_prepare_launch(case: LaunchCase, tmp_path: Path) -> None:
    folder = tmp_path / ".cline" / "hooks"
    folder.mkdir(parents=True)
    (folder / case.name).write_text("whatever\n")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    if case.stub:
        (bin_dir / case.stub).write_text("#!/bin/sh\n")
        (bin_dir / case.stub).chmod(0o755)
    source = Source(Dialect.CLINE_SDK, "workspace", str(folder), "hookdir", str(tmp_path))
    (spec,) = cline_sdk.load_event(source, "PreToolUse")
    request = FireRequest(Dialect.CLINE_SDK, "PreToolUse", (str(tmp_path),), {})

    launch = cline_sdk.prepare(spec, request, {"PATH": str(bin_dir)})

    assert isinstance(launch, Launch)
    expected = [w.replace("{f}", spec.source).replace("{bin}", str(bin_dir)) for w in case.argv]
    assert launch.argv == tuple(expected)
    assert launch.cwd == str(tmp_path)
