"""Shared pieces of the Claude Code conformance suite.

* ``Claude``: one test's world: the workspace (project), the isolated home, the system
  root (managed settings), a ``bin`` folder of recording stubs put first on the hooks'
  ``PATH``, and a ``fire`` that passes that ``PATH`` in the fire's ``env``.
* ``Stub``: an executable standing in for an external tool (``notify-send``, ``npx``,
  ``git``...) that records each call (working directory and argv) and then behaves as
  told (exit code, stdout, stderr, an extra shell snippet).
* ``Probe``: a shell command that saves what a hook receives: stdin, environment, cwd.
* ``params``: turns a table of cases into ``pytest.param`` objects, with the strict xfail
  or skip each case declares.

Reference documents: ``REFERENCE`` is ``claude-code-hooks-reference-v2.1.240.md``,
``GUIDE`` is ``claude-code-hooks-guide-v2.1.240.md`` (the reference wins).
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import socket
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import trio

from hookd_testing import RpcClient, write_executable, write_json
from hookd_testing.cases import case_params

params = case_params
"""Shared by every conformance suite (``hookd_testing.cases``)."""

REFERENCE = "reference v2.1.240"
GUIDE = "guide v2.1.240"
EXIT0 = f"{REFERENCE} 'Exit code 0'"
EXIT2 = f"{REFERENCE} 'Exit code 2'"
OTHER = f"{REFERENCE} 'Other exit codes'"
JSON_OUT = f"{REFERENCE} 'JSON output'"
PRE = f"{REFERENCE} 'PreToolUse decision control'"
"""Reference sections that several modules cite."""
EXAMPLES = Path(__file__).parent / "examples"
DOCS = Path(
    os.environ.get(
        "HOOKD_REFERENCE_DOCS", Path(__file__).resolve().parents[3] / "docs/sources/reference"
    )
)
"""Where the reference documents are (``$HOOKD_REFERENCE_DOCS``, else the copies in
``docs/sources/reference``)."""

EVENTS = (
    "SessionStart", "Setup", "UserPromptSubmit", "UserPromptExpansion", "PreToolUse",
    "PermissionRequest", "PermissionDenied", "PostToolUse", "PostToolUseFailure",
    "PostToolBatch", "Notification", "MessageDisplay", "SubagentStart", "SubagentStop",
    "TaskCreated", "TaskCompleted", "Stop", "StopFailure", "TeammateIdle",
    "InstructionsLoaded", "ConfigChange", "CwdChanged", "DirectoryAdded", "FileChanged",
    "WorktreeCreate", "WorktreeRemove", "PreCompact", "PostCompact", "Elicitation",
    "ElicitationResult", "SessionEnd",
)  # fmt: skip
"""The 31 events of the reference's "Hook lifecycle" table, in its order."""


def example_text(name: str) -> str:
    return (EXAMPLES / name).read_text()


def example_json(name: str) -> Any:
    return json.loads(example_text(name))


def documented_input(event: str, variant: str = "") -> dict[str, Any]:
    """The reference's example stdin for ``event`` (``examples/reference/inputs``)."""
    suffix = f"-{variant}" if variant else ""
    data: dict[str, Any] = example_json(f"reference/inputs/{event}{suffix}.json")
    return data


def managed_settings_path(system_root: Path) -> Path:
    if sys.platform == "darwin":
        return system_root / "Library/Application Support/ClaudeCode/managed-settings.json"
    return system_root / "etc/claude-code/managed-settings.json"


def fill(value: Any, names: Mapping[str, str]) -> Any:
    """Replace ``{ws}``, ``{home}``... in every string of ``value`` (recursively)."""
    if isinstance(value, str):
        for key, text in names.items():
            value = value.replace("{" + key + "}", text)
        return value
    if isinstance(value, list):
        return [fill(v, names) for v in value]
    if isinstance(value, tuple):
        return tuple(fill(v, names) for v in value)
    if isinstance(value, dict):
        return {fill(k, names): fill(v, names) for k, v in value.items()}
    return value


@dataclass(frozen=True)
class Stub:
    """An external tool replaced by a recording executable on ``PATH``."""

    name: str
    exit: int = 0
    stdout: str = ""
    stderr: str = ""
    body: str = ""
    """Extra shell run after recording and before printing (``$@`` is the argv)."""


class Recorder:
    """The calls a stub recorded: ``[cwd, argv...]`` per call."""

    def __init__(self, log: Path) -> None:
        self.log = log

    def calls(self) -> list[list[str]]:
        if not self.log.exists():
            return []
        records = self.log.read_text().split("\x1e")
        return [r.split("\x1f")[1:] for r in records if r]

    def cwds(self) -> list[str]:
        if not self.log.exists():
            return []
        return [r.split("\x1f")[0] for r in self.log.read_text().split("\x1e") if r]


class Probe:
    """``command`` saves the hook's stdin, environment and working directory under
    ``folder``; the accessors read them back."""

    def __init__(self, folder: Path, exit_code: int = 0, stdout: str = "") -> None:
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        printing = f"printf '%s' {shlex.quote(stdout)}; " if stdout else ""
        self.command = (
            f"cat > {shlex.quote(str(folder / 'stdin.json'))}; "
            f"env -0 > {shlex.quote(str(folder / 'env'))}; "
            f"pwd > {shlex.quote(str(folder / 'cwd'))}; {printing}exit {exit_code}"
        )

    @property
    def ran(self) -> bool:
        return (self.folder / "cwd").exists()

    def stdin(self) -> Any:
        return json.loads((self.folder / "stdin.json").read_text())

    def env(self) -> dict[str, str]:
        raw = (self.folder / "env").read_bytes().decode()
        return dict(item.split("=", 1) for item in raw.split("\0") if "=" in item)

    def cwd(self) -> str:
        return (self.folder / "cwd").read_text().strip()


@dataclass
class Claude:
    """One test's Claude Code world, wired to the real daemon over its socket."""

    rpc: RpcClient
    ws: Path
    home: Path
    system: Path
    tmp: Path
    bin: Path = field(init=False)

    def __post_init__(self) -> None:
        self.bin = self.tmp / "stub-bin"
        self.bin.mkdir(exist_ok=True)

    # where things go ------------------------------------------------------------------
    @property
    def names(self) -> dict[str, str]:
        return {
            "ws": str(self.ws),
            "home": str(self.home),
            "tmp": str(self.tmp),
            "bin": str(self.bin),
            "system": str(self.system),
        }

    def settings_path(self, layer: str) -> Path:
        return {
            "user": self.home / ".claude" / "settings.json",
            "project": self.ws / ".claude" / "settings.json",
            "local": self.ws / ".claude" / "settings.local.json",
            "managed": managed_settings_path(self.system),
        }[layer]

    def write_settings(self, data: Any, layer: str = "project") -> Path:
        """Write a settings object (or raw text) at ``layer``; returns its path."""
        path = self.settings_path(layer)
        if isinstance(data, str):
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(data)
            return path
        return write_json(path, data)

    def hooks(
        self,
        event: str,
        *handlers: dict[str, Any],
        matcher: str | None = None,
        layer: str = "project",
        **top: Any,
    ) -> Path:
        """Settings with one matcher group for ``event``."""
        group: dict[str, Any] = {"hooks": list(handlers)}
        if matcher is not None:
            group["matcher"] = matcher
        return self.write_settings({"hooks": {event: [group]}, **top}, layer)

    def install_example_settings(
        self, name: str, layer: str = "project", replace: Iterable[tuple[str, str]] = ()
    ) -> Path:
        """Install a stored settings example, with the documented text replacements."""
        text = example_text(name)
        for old, new in replace:
            assert old in text, f"{old!r} is not in {name}"
            text = text.replace(old, fill(new, self.names))
        json.loads(text)  # still valid JSON
        return self.write_settings(text, layer)

    def install_script(self, name: str, dest: str) -> Path:
        """Copy a stored example script to ``dest`` (``{ws}``-style names), executable."""
        return write_executable(Path(fill(dest, self.names)), example_text(name))

    def file(self, dest: str, text: str, executable: bool = False) -> Path:
        path = Path(fill(dest, self.names))
        if executable:
            return write_executable(path, text)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        return path

    def stub(self, stub: Stub | str) -> Recorder:
        """Put a recording executable named ``stub.name`` first on the hooks' PATH."""
        if isinstance(stub, str):
            stub = Stub(stub)
        log = self.tmp / f"stub-{stub.name}.log"
        out = f"printf '%s' {shlex.quote(stub.stdout)}\n" if stub.stdout else ""
        err = f"printf '%s' {shlex.quote(stub.stderr)} >&2\n" if stub.stderr else ""
        write_executable(
            self.bin / stub.name,
            "#!/bin/sh\n"
            f'{{ printf \'%s\' "$PWD"; for a in "$@"; do printf \'\\037%s\' "$a"; done; '
            f"printf '\\036'; }} >> {shlex.quote(str(log))}\n"
            f"{stub.body}\n{out}{err}exit {stub.exit}\n",
        )
        return Recorder(log)

    def probe(self, name: str = "probe", exit_code: int = 0, stdout: str = "") -> Probe:
        return Probe(self.tmp / f"probe-{name}", exit_code, stdout)

    # firing ---------------------------------------------------------------------------
    def env(self, extra: Mapping[str, str] | None = None) -> dict[str, str]:
        return {"PATH": f"{self.bin}{os.pathsep}{os.environ.get('PATH', '')}", **(extra or {})}

    async def fire(
        self,
        event: str,
        payload: dict[str, Any] | None = None,
        *,
        roots: list[str] | None = None,
        env: Mapping[str, str] | None = None,
        **extra: Any,
    ) -> dict[str, Any]:
        return await self.rpc.fire(
            "claude",
            event,
            [str(self.ws)] if roots is None else roots,
            fill(payload or {}, self.names),
            env=self.env(env),
            **extra,
        )

    async def listing(self) -> list[dict[str, Any]]:
        result = await self.rpc.call("hooks/list", {"roots": [str(self.ws)]})
        return [h for h in result["hooks"] if h["dialect"] == "claude"]


def echo_json(obj: Any) -> str:
    """A shell command printing ``obj`` as JSON on stdout."""
    return f"printf '%s\\n' {shlex.quote(json.dumps(obj))}"


def cat_example(name: str) -> str:
    """A shell command printing a stored example (an output example) on stdout."""
    return f"cat {shlex.quote(str(EXAMPLES / name))}"


def command(text: str, **fields: Any) -> dict[str, Any]:
    return {"type": "command", "command": text, **fields}


def have(tool: str) -> bool:
    return shutil.which(tool) is not None


# --- an HTTP endpoint for http hooks ---------------------------------------------------------


@dataclass
class HttpRequest:
    method: str
    target: str
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


@dataclass
class Reply:
    status: int = 200
    body: bytes = b""
    hang: bool = False
    """Never answer (the hook's timeout has to end it)."""


class HttpEndpoint:
    """A small HTTP/1.1 server in the test's own trio run (h11, as the daemon uses).

    ``replies`` maps a request target (``/hooks/x``) to its ``Reply``; every request is
    recorded in ``requests``.
    """

    def __init__(self) -> None:
        self.requests: list[HttpRequest] = []
        self.replies: dict[str, Reply] = {}
        self.port = 0

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def start(self, nursery: trio.Nursery) -> HttpEndpoint:
        listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
        self.port = listeners[0].socket.getsockname()[1]
        nursery.start_soon(trio.serve_listeners, self._serve, listeners)
        return self

    async def _serve(self, stream: trio.SocketStream) -> None:
        import h11

        connection = h11.Connection(h11.SERVER)
        request: Any = None
        body = bytearray()
        async with stream:
            while True:
                event = connection.next_event()
                if event is h11.NEED_DATA:
                    data = await stream.receive_some(65536)
                    connection.receive_data(data)
                    if not data:
                        return
                    continue
                if isinstance(event, h11.Request):
                    request = event
                elif isinstance(event, h11.Data):
                    body += event.data
                elif isinstance(event, h11.EndOfMessage):
                    break
                else:
                    return
            target = request.target.decode()
            self.requests.append(
                HttpRequest(
                    request.method.decode(),
                    target,
                    {k.decode().lower(): v.decode() for k, v in request.headers},
                    bytes(body),
                )
            )
            reply = self.replies.get(target, Reply())
            if reply.hang:
                await trio.sleep_forever()
            headers = [("Content-Length", str(len(reply.body))), ("Connection", "close")]
            if reply.body.lstrip().startswith(b"{"):
                headers.append(("Content-Type", "application/json"))
            out = connection.send(h11.Response(status_code=reply.status, headers=headers))
            out += connection.send(h11.Data(data=reply.body)) if reply.body else b""
            out += connection.send(h11.EndOfMessage())
            await stream.send_all(out)


def closed_port() -> int:
    """A local TCP port nothing listens on (bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


# --- a client that runs prompt / agent / mcp_tool handlers ------------------------------------


class ClientError(Exception):
    """Answer the daemon's ``hook/run`` request with this JSON-RPC error."""


@dataclass
class ClientRun:
    """A fire made by a client that offers ``offered`` handler types and answers each
    ``hook/run`` request with ``answer(params)``."""

    result: dict[str, Any]
    asked: list[dict[str, Any]]


async def fire_as_client(
    claude: Claude,
    event: str,
    payload: dict[str, Any],
    answer: Any,
    offered: Iterable[str] = ("prompt", "agent", "mcp_tool"),
) -> ClientRun:
    rpc = claude.rpc
    request_id = await rpc.start(
        "fire",
        {
            "agent": "claude",
            "event": event,
            "workspaceRoots": [str(claude.ws)],
            "payload": fill(payload, claude.names),
            "env": claude.env(),
            "clientHandlers": list(offered),
        },
    )
    asked: list[dict[str, Any]] = []
    with trio.fail_after(20):
        while True:
            message = await rpc.recv()
            if "method" in message and "id" in message:
                asked.append(message["params"])
                try:
                    reply = {"result": answer(message["params"])}
                except ClientError as exc:
                    reply = {"error": {"code": -32000, "message": str(exc)}}
                await rpc.send({"jsonrpc": "2.0", "id": message["id"], **reply})
            elif "method" in message:
                rpc.notifications.append(message)
            elif message.get("id") == request_id:
                assert "result" in message, message
                return ClientRun(message["result"], asked)


async def next_notification(rpc: RpcClient, method: str, timeout: float = 10) -> dict[str, Any]:
    """The next notification ``method`` (reading the socket until it comes)."""
    with trio.fail_after(timeout):
        while True:
            for message in rpc.notifications:
                if message.get("method") == method:
                    rpc.notifications.remove(message)
                    return message
            message = await rpc.recv()
            if isinstance(message, dict) and "method" in message:
                rpc.notifications.append(message)
