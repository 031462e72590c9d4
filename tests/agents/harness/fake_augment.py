"""A scripted stand-in for the Augment backend (``tenantURL``), on 127.0.0.1 (standard
library only).

auggie asks ``get-models`` for its feature flags (``enable_hooks: true`` switches its
hooks on), lists remote tools and MCP configs (none), then streams ``chat-stream``: one
JSON object per line, each with ``text``, ``nodes`` (a node of type 5 is a tool call:
``tool_use {tool_use_id, tool_name, input_json}``) and ``stop_reason``. Turn N answers
the N-th ``chat-stream`` request whose body carries a ``case:<id>`` tag (the prompt is in
``nodes`` first, then in ``chat_history``). Every ``chat-stream`` body is recorded
(``requests.jsonl``), so a test sees what the hooks injected (block reasons in the tool
result, contexts). Anything else gets ``{}``.
"""

from __future__ import annotations

import json
import os
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

TAG = re.compile(r"case:([\w.-]+)")
TOOL_USE_NODE = 5
END_TURN, TOOL_USE = 1, 3
MODELS = {
    "default_model": "fake",
    "models": [{"name": "fake", "suggested_prefix_char_count": 0,
                "suggested_suffix_char_count": 0}],
    "feature_flags": {"enable_hooks": True, "enable_plugin_marketplace": True},
}  # fmt: skip


class Script:
    def __init__(self, turns: dict[str, list[dict[str, Any]]], log_path: str) -> None:
        self.turns = turns
        self.served: dict[str, int] = {}
        self.log_path = log_path
        self.lock = threading.Lock()

    def answer(self, body: dict[str, Any]) -> dict[str, Any]:
        text = json.dumps([body.get("nodes"), body.get("chat_history"), body.get("message")])
        match = TAG.search(text)
        with self.lock:
            with open(self.log_path, "a") as log:
                log.write(json.dumps(body) + "\n")
            if match is None or match.group(1) not in self.turns:
                return {"text": "ok"}
            case = match.group(1)
            index = self.served.get(case, 0)
            self.served[case] = index + 1
            turns = self.turns[case]
            return turns[index] if index < len(turns) else {"text": "done"}


def chunks(turn: dict[str, Any], index: int) -> list[dict[str, Any]]:
    """The ``chat-stream`` lines for one scripted turn."""
    if "tool" in turn:
        node = {"id": 1, "type": TOOL_USE_NODE, "content": "",
                "tool_use": {"tool_use_id": f"tool_{index:04d}", "tool_name": turn["tool"],
                             "input_json": json.dumps(turn.get("input", {}))}}  # fmt: skip
        return [{"text": "", "nodes": [node], "stop_reason": TOOL_USE}]
    return [{"text": turn.get("text", "done"), "nodes": [], "stop_reason": END_TURN}]


def serve(port_file: str, script: Script) -> None:
    """Serve until the process ends; the chosen port is written to ``port_file``."""
    counter = [0]

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:
            size = int(self.headers.get("content-length") or 0)
            raw = self.rfile.read(size)
            path = self.path.split("?")[0]
            if path == "/chat-stream":
                try:
                    body = json.loads(raw or b"{}")
                except ValueError:
                    body = {}
                counter[0] += 1
                lines = chunks(script.answer(body), counter[0])
                self._send(b"".join(json.dumps(line).encode() + b"\n" for line in lines))
            elif path == "/get-models":
                self._send(json.dumps(MODELS).encode())
            elif path == "/agents/list-remote-tools":
                self._send(b'{"tools": []}')
            else:
                self._send(b"{}")

        do_GET = do_POST

        def _send(self, data: bytes) -> None:
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    with open(port_file + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    os.replace(port_file + ".tmp", port_file)
    server.serve_forever()
