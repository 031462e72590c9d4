"""What every fake model backend shares: scripted turns keyed by a ``case:<id>`` tag, a log
of every request, the chosen port published atomically, and a driver's wait for it
(standard library only: the drivers run inside the network namespace).

A backend finds the tag in whatever part of a request carries the conversation, and
hands that text to ``Script.answer``; turn N answers the N-th tagged request of a case.
"""

from __future__ import annotations

import json
import os
import re
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

TAG = re.compile(r"case:([\w.-]+)")


class Script:
    def __init__(
        self,
        turns: dict[str, list[dict[str, Any]]],
        log_path: str,
        *,
        when_done: dict[str, Any] | None = None,
    ) -> None:
        """``when_done``: the answer once a case's turns are used up (None: its last turn
        again)."""
        self.turns = turns
        self.served: dict[str, int] = {}
        self.log_path = log_path
        self.when_done = when_done
        self.lock = threading.Lock()

    def answer(self, body: dict[str, Any], conversation: str) -> dict[str, Any]:
        """The turn for this request (``conversation``: where the backend's requests
        carry the tag); requests without a known tag (titles, probes) get a short text."""
        match = TAG.search(conversation)
        with self.lock:
            with open(self.log_path, "a") as log:
                log.write(json.dumps(body) + "\n")
            if match is None or match.group(1) not in self.turns:
                return {"text": "ok"}
            case = match.group(1)
            index = self.served.get(case, 0)
            self.served[case] = index + 1
            turns = self.turns[case]
            if index < len(turns):
                return turns[index]
            return turns[-1] if self.when_done is None else self.when_done


def publish_port(port: int, port_file: str) -> None:
    """Write the chosen port where the driver waits for it, whole or not at all."""
    with open(port_file + ".tmp", "w") as out:
        out.write(str(port))
    os.replace(port_file + ".tmp", port_file)


def start_backend(
    serve: Callable[[str, Script], None], script: Script, port_file: str, what: str
) -> str:
    """Run ``serve`` in a daemon thread and return its port once published (10 s)."""
    threading.Thread(target=serve, args=(port_file, script), daemon=True).start()
    deadline = time.monotonic() + 10
    while not os.path.exists(port_file):
        if time.monotonic() > deadline:
            raise SystemExit(f"the {what} did not start")
        time.sleep(0.01)
    return Path(port_file).read_text()
