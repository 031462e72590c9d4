"""Starting the daemon: one per socket, safe socket files, readiness."""

from __future__ import annotations

import os
import socket
import stat
from pathlib import Path

import pytest
import trio

from hookd.daemon.app import serve
from hookd.daemon.errors import AlreadyRunning, UserError


async def test_second_daemon_on_the_same_socket_is_refused(daemon, settings) -> None:
    """A second daemon for a live socket fails with a message naming the first one's pid."""
    with pytest.raises(AlreadyRunning, match=f"pid {os.getpid()}"):
        await serve(settings)
    assert os.path.exists(settings.socket_path)  # the live one is untouched


async def test_stale_socket_is_replaced(settings) -> None:
    """A socket file left by a crashed daemon is replaced."""
    stale = socket.socket(socket.AF_UNIX)
    stale.bind(settings.socket_path)
    stale.close()  # the file stays, nobody listens

    async with trio.open_nursery() as nursery:
        await nursery.start(serve, settings)
        stream = await trio.open_unix_socket(settings.socket_path)
        await stream.aclose()
        nursery.cancel_scope.cancel()


async def test_a_socket_a_service_manager_holds_is_not_replaced(settings) -> None:
    """A socket file something listens on, with hookd's lock free (systemd's hookd.socket
    before the first connection, or after 'hookd shutdown'): hookd serve refuses, naming
    the service, and leaves the file to its holder (replacing it would leave the manager
    listening on a file nobody can reach)."""
    held = socket.socket(socket.AF_UNIX)
    held.bind(settings.socket_path)
    held.listen(8)
    try:
        with pytest.raises(UserError, match=r"held by a service manager for hookd"):
            await serve(settings)
        probe = socket.socket(socket.AF_UNIX)
        probe.connect(settings.socket_path)  # still the holder's file, still listening
        probe.close()
    finally:
        held.close()


async def test_socket_and_directory_are_private(daemon, settings) -> None:
    """The socket is 0600 in a directory only we can enter."""
    mode = stat.S_IMODE(os.stat(settings.socket_path).st_mode)

    assert mode == 0o600
    assert stat.S_IMODE(os.stat(os.path.dirname(settings.socket_path)).st_mode) & 0o077 == 0


async def test_refuses_a_non_socket_at_the_socket_path(settings) -> None:
    """A regular file at the socket path is never deleted: we refuse with advice."""
    with open(settings.socket_path, "w") as handle:
        handle.write("precious")

    with pytest.raises(UserError, match="is not a socket"):
        await serve(settings)
    assert Path(settings.socket_path).read_text() == "precious"


async def test_default_directory_open_to_others_is_refused(monkeypatch, tmp_path, settings) -> None:
    """The default runtime directory must be private; a too-open one is refused."""
    runtime = tmp_path / "run"
    (runtime / "hookd").mkdir(parents=True)
    os.chmod(runtime / "hookd", 0o777)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
    from dataclasses import replace

    with pytest.raises(UserError, match="chmod 700"):
        await serve(replace(settings, socket_path=str(runtime / "hookd" / "hookd.sock")))


async def test_ready_is_signalled_to_systemd(settings, monkeypatch, short_dir) -> None:
    """With NOTIFY_SOCKET set, the daemon sends READY=1 once it accepts connections."""
    notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    notify.bind(str(short_dir / "notify"))
    notify.setblocking(False)
    monkeypatch.setenv("NOTIFY_SOCKET", str(short_dir / "notify"))
    try:
        async with trio.open_nursery() as nursery:
            daemon = await nursery.start(serve, settings)

            assert notify.recv(100) == b"READY=1"
            daemon.request_shutdown("test over")
        assert notify.recv(100) == b"STOPPING=1"
    finally:
        notify.close()


async def test_a_notify_socket_that_is_not_there_is_a_warning(settings, monkeypatch,
                                                               short_dir) -> None:  # fmt: skip
    """READY=1 that cannot be sent is a real problem (systemd would time the unit out)."""
    from structlog.testing import capture_logs

    monkeypatch.setenv("NOTIFY_SOCKET", str(short_dir / "nobody"))
    with capture_logs() as logs:
        async with trio.open_nursery() as nursery:
            daemon = await nursery.start(serve, settings)
            daemon.request_shutdown("test over")
    failed = [e for e in logs if e["event"] == "sd_notify_failed"]
    assert [e["state"] for e in failed] == ["READY=1"]
    assert all(e["log_level"] == "warning" for e in failed)
