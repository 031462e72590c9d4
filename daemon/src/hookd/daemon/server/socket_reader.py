"""Reading a client's socket with as little as trio puts around a read, and no less.

``SocketStream.receive_some`` costs a try, a wait and a try again per read; a request
that is already waiting needs one ``read``. But trio only switches tasks at a
checkpoint, and a read that finds data needs no wait: a client that keeps its socket
full would keep every other task (other clients, hooks being watched, deadlines,
``message_timeout_s``) waiting for as long as it writes. So a read that follows a read
that did not wait goes through a checkpoint first: a request that arrives alone pays
nothing, a flood yields between every two reads.
"""

from __future__ import annotations

import os

import trio


class SocketReader:
    """Reads of one socket's descriptor, fair to the other tasks."""

    def __init__(self, fd: int, size: int = 65536) -> None:
        self.fd = fd
        self.size = size
        self._no_wait_since_checkpoint = False

    async def read(self) -> bytes:
        """What the peer sent next (empty: it closed its end); waits while there is none."""
        if self._no_wait_since_checkpoint:
            await trio.lowlevel.checkpoint()
        waited = False
        while True:
            try:
                data = os.read(self.fd, self.size)
            except BlockingIOError:
                await trio.lowlevel.wait_readable(self.fd)
                waited = True
                continue
            self._no_wait_since_checkpoint = not waited
            return data
