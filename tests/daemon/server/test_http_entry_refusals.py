"""Nothing but the user's own agent drives the http entry (issue 12): every other request
is refused with a status and a sentence, over real TCP, and no hook runs for it."""

from __future__ import annotations

import json
import os
import shutil
import socket
import sys
from pathlib import Path
from typing import Any

import pytest
import trio

from hookd.daemon.errors import UserError
from hookd.daemon.server.http_passcode import load_or_create, passcode_path
from hookd.daemon.settings import Settings
from hookd_testing import claude_settings, command, write_json

from .conftest import HttpEntryHandle, read_reply

EVENT = {"session_id": "s1", "hook_event_name": "PreToolUse", "tool_name": "Bash",
         "tool_input": {"command": "ls"}}  # fmt: skip


@pytest.fixture
def marker(http_entry: HttpEntryHandle, workspace: Path, tmp_path: Path) -> Path:
    """An adopted hook that leaves a file when it runs: no refused request may run it."""
    ran = tmp_path / "ran"
    home = Path(http_entry.daemon.settings.home)
    write_json(home / ".config" / "hookd" / "claude" / "settings.json",
               claude_settings("PreToolUse", command(f"touch {ran}")))  # fmt: skip
    return ran


def event(workspace: Path) -> dict[str, Any]:
    return {**EVENT, "cwd": str(workspace)}


@pytest.mark.parametrize(
    ("changes", "status", "says"),
    [
        ({"drop": ("Authorization",)}, 401, "no passcode"),
        ({"headers": {"Authorization": "Bearer "}}, 401, "no passcode"),
        ({"headers": {"Authorization": "Basic abc"}}, 401, "no passcode"),
        ({"headers": {"Authorization": "Bearer wrong-passcode-of-the-right-length-000000000"}},
         401, "wrong passcode"),
        ({"headers": {"Host": "evil.example:PORT"}}, 403, "is not this daemon's"),
        ({"headers": {"Host": "127.0.0.1:1"}}, 403, "is not this daemon's"),
        ({"drop": ("Host",)}, 400, "malformed"),
        ({"headers": {"Origin": "https://evil.example"}}, 403, "web pages"),
        ({"headers": {"Origin": "null"}}, 403, "web pages"),
        ({"headers": {"Sec-Fetch-Site": "cross-site"}}, 403, "web pages"),
        ({"method": "GET"}, 405, "POST /hookd-relay only"),
        ({"method": "OPTIONS"}, 405, "POST /hookd-relay only"),
        ({"target": "/"}, 404, "nothing else"),
        ({"target": "/hookd-relay?x=1"}, 404, "nothing else"),
        ({"headers": {"Content-Type": "text/plain"}}, 415, "application/json"),
        ({"headers": {"Content-Type": "application/json; charset=latin-1"}}, 415, "application/json"),
        ({"headers": {"Content-Encoding": "gzip"}}, 415, "Content-Encoding"),
        ({"headers": {"Expect": "100-continue"}}, 417, "Expect"),
    ],
)  # fmt: skip
async def test_requests_not_from_the_agent_are_refused(
    http_entry: HttpEntryHandle, workspace: Path, marker: Path,
    changes: dict[str, Any], status: int, says: str,
) -> None:  # fmt: skip
    headers = {k: v.replace("PORT", str(http_entry.port)) for k, v in
               changes.get("headers", {}).items()}  # fmt: skip
    reply = await http_entry.post(event(workspace), **{**changes, "headers": headers})

    assert reply.status == status, reply.body
    assert says in reply.body.decode()
    assert reply.headers["connection"] == "close"
    assert not marker.exists()
    assert http_entry.daemon.status()["httpEntry"]["refused"] == {str(status): 1}


async def test_localhost_is_this_daemon_too(
    http_entry: HttpEntryHandle, workspace: Path, marker: Path
) -> None:
    reply = await http_entry.post(event(workspace),
                                  headers={"Host": f"LocalHost:{http_entry.port}"})  # fmt: skip

    assert reply.status == 200
    assert marker.exists()


@pytest.mark.parametrize(
    ("body", "says"),
    [
        (b"{not json", "not JSON"),
        (b"NaN", "not JSON"),
        (b"[1, 2]", "no hook_event_name"),
        (json.dumps({"cwd": "/tmp"}).encode(), "no hook_event_name"),
        (json.dumps({**EVENT, "hook_event_name": "NoSuchEvent", "cwd": "/tmp"}).encode(),
         "is not an event of claude"),
        (json.dumps(EVENT).encode(), "no absolute cwd"),
    ],
)  # fmt: skip
async def test_a_body_that_is_not_an_event_is_refused(
    http_entry: HttpEntryHandle, marker: Path, body: bytes, says: str
) -> None:
    reply = await http_entry.post(body)

    assert reply.status == 400
    assert says in reply.body.decode()
    assert not marker.exists()


async def test_the_size_and_framing_are_checked_before_the_body_is_read(
    http_entry: HttpEntryHandle, workspace: Path, marker: Path
) -> None:
    """Over ``max_message_bytes`` (64 KiB here): 413 at once, the body never sent;
    chunked or without a length: 411; headers over 16 KiB: 431."""
    big = http_entry.request(b"", headers={"Content-Length": str(10**9)})
    chunked = http_entry.request(b"0\r\n\r\n", headers={"Transfer-Encoding": "chunked"},
                                 drop=("Content-Length",))  # fmt: skip
    unframed = http_entry.request(b"", drop=("Content-Length",))
    huge_headers = http_entry.request(event(workspace), headers={"X-Pad": "x" * 20000})

    assert (await http_entry.exchange(big)).status == 413
    assert (await http_entry.exchange(chunked)).status == 411
    assert (await http_entry.exchange(unframed)).status == 411
    assert (await http_entry.exchange(huge_headers)).status == 431
    assert not marker.exists()


@pytest.mark.parametrize("cut", ["in the headers", "in the body"])
async def test_a_slow_request_is_refused_in_time(
    http_entry: HttpEntryHandle, workspace: Path, marker: Path, cut: str
) -> None:
    """Part of a request, then nothing: answered 408 once ``message_timeout_s`` (1 s
    here) has passed since the connection was accepted; the connection is not kept."""
    raw = http_entry.request(event(workspace))
    part = raw[:20] if cut == "in the headers" else raw[:-5]
    limit = http_entry.daemon.settings.message_timeout_s
    stream = await trio.open_tcp_stream("127.0.0.1", http_entry.port)
    async with stream:
        await stream.send_all(part)
        started = trio.current_time()
        with trio.fail_after(limit + 10):
            reply = await read_reply(stream)

    assert reply.status == 408
    assert trio.current_time() - started < limit + 5
    assert not marker.exists()


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can run a client as another user")
async def test_another_user_is_refused_even_with_the_passcode(
    http_entry: HttpEntryHandle, workspace: Path, marker: Path
) -> None:
    """A client of another uid (nobody), sending a request that is right in every byte,
    passcode included: refused by who owns its socket."""
    client = (
        "import socket, sys\n"
        "c = socket.create_connection(('127.0.0.1', int(sys.argv[1])))\n"
        "c.sendall(sys.stdin.buffer.read())\n"
        "print(c.makefile('rb').readline().decode().strip())\n"
    )
    done = await trio.run_process(
        [shutil.which("setpriv") or "setpriv", "--reuid=65534", "--regid=65534",
         "--clear-groups", sys.executable, "-c", client, str(http_entry.port)],
        stdin=http_entry.request(event(workspace)), capture_stdout=True, capture_stderr=True,
    )  # fmt: skip

    assert done.stdout.decode().strip() == "HTTP/1.1 403 Forbidden", done.stderr
    assert not marker.exists()
    assert http_entry.daemon.status()["httpEntry"]["refused"] == {"403": 1}


async def test_a_taken_port_stops_the_daemon_from_starting(
    settings: Settings, tmp_path: Path
) -> None:
    """Another program holds http_port: the agent's http entries would reach it, so
    ``hookd serve`` refuses to start and says what to do."""
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", 0))
        squatter.listen()
        port = squatter.getsockname()[1]
        config = tmp_path / "hookd.toml"
        config.write_text(f"http_entry = true\nhttp_port = {port}\n"
                          f"state_dir = {json.dumps(str(tmp_path / 'state'))}\n")  # fmt: skip
        done = await trio.run_process(
            [sys.executable, "-m", "hookd", "--socket", settings.socket_path, "serve",
             "--config", str(config)], capture_stdout=True, capture_stderr=True, check=False,
        )  # fmt: skip

    assert done.returncode == 1
    said = done.stderr.decode()
    assert f"http_port {port} on 127.0.0.1 is taken by another program" in said
    assert "run 'hookd relay install --agent claude --http' again" in said
    assert not os.path.exists(settings.socket_path)


def test_the_passcode_file_is_private_and_made_once(tmp_path: Path) -> None:
    state = tmp_path / "state"

    first = load_or_create(str(state))

    assert len(first) >= 40
    assert load_or_create(str(state)) == first
    assert os.stat(passcode_path(str(state))).st_mode & 0o777 == 0o600
    assert [p.name for p in state.iterdir()] == ["http-passcode"]  # no temporary left


@pytest.mark.parametrize(("mode", "text", "says"), [
    (0o644, None, "others may read"),
    (0o600, "short", "holds no usable passcode"),
])  # fmt: skip
def test_a_passcode_file_others_may_read_is_refused(
    tmp_path: Path, mode: int, text: str | None, says: str
) -> None:
    load_or_create(str(tmp_path))
    path = Path(passcode_path(str(tmp_path)))
    if text is not None:
        path.write_text(text)
    path.chmod(mode)

    with pytest.raises(UserError, match=says):
        load_or_create(str(tmp_path))


async def test_a_refused_passcode_file_stops_the_daemon(
    http_settings: Settings, tmp_path: Path
) -> None:
    """The daemon does not serve with a passcode others could have read."""
    from hookd.daemon.app import serve

    load_or_create(http_settings.state_dir)
    os.chmod(passcode_path(http_settings.state_dir), 0o644)

    refused = pytest.RaisesExc(UserError, match="others may read")
    with pytest.RaisesGroup(refused, flatten_subgroups=True):
        async with trio.open_nursery() as nursery:
            await nursery.start(serve, http_settings)


async def test_a_new_passcode_works_without_a_restart(
    http_entry: HttpEntryHandle, workspace: Path, marker: Path
) -> None:
    """The passcode file removed and made again (``relay install --http`` does, when it
    finds none): the new passcode is the one, the old one no longer."""
    state = http_entry.daemon.settings.state_dir
    old = http_entry.passcode
    os.unlink(passcode_path(state))
    new = load_or_create(state)

    refused = await http_entry.post(event(workspace))
    http_entry.passcode = new
    served = await http_entry.post(event(workspace))

    assert new != old
    assert (refused.status, served.status) == (401, 200)
    assert marker.exists()
