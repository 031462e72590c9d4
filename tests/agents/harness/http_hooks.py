"""A scripted endpoint for Claude Code's ``http`` hooks (standard library only): the same
program answers the agent (inside its network namespace) and hookd (outside it), so the
two are held to the same answers and recorded the same way.

    python http_hooks.py CONFIG_JSON

The config names where to listen (``port`` on 127.0.0.1, or ``fd``: a socket already
listening, handed down), where to record (``out``), and per hook name (the request path
``/<name>``) what to answer: ``status`` (200), ``body`` ("") and ``delay`` (seconds
before the answer, to pass a hook's ``timeout``). Each request is recorded as a command
hook of the suite records itself, under a run number: ``<name>.stdin.<run>`` (the body),
``<name>.env.<run>`` (its ``X-*`` headers, ``name: value`` lines in name order) and
``<name>.args.<run>`` (the method and path); then ``<name>.done.<run>``. With
``NOTIFY_SOCKET`` set it says ``READY=1`` there once it listens.
"""

from __future__ import annotations

import json
import os
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    config: dict[str, Any]
    runs: dict[str, int]
    lock: threading.Lock


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.1"

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length)
        name = self.path.strip("/").split("?")[0] or "root"
        out = self.server.config["out"]
        with self.server.lock:
            run = self.server.runs.get(name, 0)
            self.server.runs[name] = run + 1
        headers = sorted(
            (key.lower(), value) for key, value in self.headers.items()
            if key.lower().startswith("x-")
        )  # fmt: skip
        base = os.path.join(out, name)
        with open(f"{base}.env.{run}", "w") as env:
            env.write("".join(f"{key}: {value}\n" for key, value in headers))
        with open(f"{base}.args.{run}", "w") as args:
            args.write(f"{self.command} {self.path}\n")
        with open(f"{base}.stdin.{run}", "wb") as stdin:
            stdin.write(body)
        answer = self.server.config["answers"].get(name, {})
        time.sleep(answer.get("delay", 0))
        payload = answer.get("body", "").encode()
        try:
            self.send_response(answer.get("status", 200))
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(payload)
        except OSError:
            pass  # the client gave up (its timeout): nothing to answer
        open(f"{base}.done.{run}", "w").close()
        self.close_connection = True

    def log_message(self, format: str, *args: Any) -> None:
        return


def _ready() -> None:
    where = os.environ.get("NOTIFY_SOCKET")
    if not where:
        return
    address = "\0" + where[1:] if where.startswith("@") else where
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as notify:
        notify.sendto(b"READY=1", address)


def main(config_path: str) -> None:
    with open(config_path) as file:
        config = json.load(file)
    if "fd" in config:
        server = _Server(("127.0.0.1", 0), _Handler, bind_and_activate=False)
        server.socket.close()
        server.socket = socket.socket(fileno=config["fd"])
    else:
        server = _Server(("127.0.0.1", config["port"]), _Handler)
    server.config, server.runs, server.lock = config, {}, threading.Lock()
    _ready()
    server.serve_forever()


if __name__ == "__main__":
    main(sys.argv[1])
