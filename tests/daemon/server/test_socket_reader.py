"""SocketReader: a read that finds data waiting must still let other tasks run."""

from __future__ import annotations

import socket

import trio

from hookd.daemon.server.socket_reader import SocketReader


def _filled_pair() -> tuple[socket.socket, socket.socket]:
    ours, theirs = socket.socketpair()
    ours.setblocking(False)
    theirs.setblocking(False)
    try:
        while True:
            theirs.send(b"x" * 65536)
    except BlockingIOError:
        pass  # the socket is full: every read finds data at once
    return ours, theirs


async def test_a_client_that_keeps_the_socket_full_lets_other_tasks_run() -> None:
    ours, theirs = _filled_pair()
    reader = SocketReader(ours.fileno(), size=4096)
    ran = trio.Event()

    async def other_task() -> None:
        ran.set()

    with ours, theirs:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(other_task)
            for _ in range(3):
                assert await reader.read()
            assert ran.is_set(), "three reads of waiting data never let another task run"


async def test_a_read_after_a_wait_needs_no_checkpoint_and_eof_is_empty() -> None:
    ours, theirs = socket.socketpair()
    ours.setblocking(False)
    reader = SocketReader(ours.fileno())
    with ours, theirs:
        async with trio.open_nursery() as nursery:

            async def send_later() -> None:
                await trio.lowlevel.checkpoint()
                theirs.sendall(b"request\n")

            nursery.start_soon(send_later)
            assert await reader.read() == b"request\n"  # waited for it
        theirs.shutdown(socket.SHUT_WR)
        assert await reader.read() == b""
