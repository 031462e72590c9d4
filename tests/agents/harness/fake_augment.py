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
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from scripted import Script, publish_port

TOOL_USE_NODE = 5
END_TURN, TOOL_USE = 1, 3
MODELS = {
    "default_model": "fake",
    "models": [{"name": "fake", "suggested_prefix_char_count": 0,
                "suggested_suffix_char_count": 0}],
    "feature_flags": {"enable_hooks": True, "enable_plugin_marketplace": True},
}  # fmt: skip


def chunks(turn: dict[str, Any], index: int) -> list[dict[str, Any]]:
    """The ``chat-stream`` lines for one scripted turn."""
    if "tool" in turn:
        node = {"id": 1, "type": TOOL_USE_NODE, "content": "",
                "tool_use": {"tool_use_id": f"tool_{index:04d}", "tool_name": turn["tool"],
                             "input_json": json.dumps(turn.get("input", {}))}}  # fmt: skip
        return [{"text": "", "nodes": [node], "stop_reason": TOOL_USE}]
    return [{"text": turn.get("text", "done"), "nodes": [], "stop_reason": END_TURN}]


def new_script(turns: dict[str, list[dict[str, Any]]], log_path: str) -> Script:
    """This backend's script: once a case's turns are used up it answers "done"."""
    return Script(turns, log_path, when_done={"text": "done"})


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
                lines = chunks(
                    script.answer(
                        body,
                        json.dumps(
                            [body.get("nodes"), body.get("chat_history"), body.get("message")]
                        ),
                    ),
                    counter[0],
                )
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
    publish_port(server.server_address[1], port_file)
    server.serve_forever()
