"""A scripted stand-in for the Anthropic Messages API, on 127.0.0.1 (standard library only).

Each case's turns are keyed by a ``case:<id>`` tag the prompt carries. Turn N answers the
N-th request of that case whose messages carry the tag: a ``tool_use`` (name, input) or
a final text. Every request body is recorded (``requests.jsonl``), so a test sees exactly
what the hooks injected (block reasons in tool results, contexts as reminders). Requests
without a tag (titles, quota probes) get a short text. Streaming (SSE) and not.

    python fake_anthropic.py PORT_FILE SCRIPT_JSON LOG_JSONL
"""

from __future__ import annotations

import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from scripted import Script, publish_port


def _content(turn: dict[str, Any], index: int) -> list[dict[str, Any]]:
    if "tool" in turn:
        return [{"type": "tool_use", "id": f"toolu_{index:04d}", "name": turn["tool"],
                 "input": turn.get("input", {})}]  # fmt: skip
    return [{"type": "text", "text": turn.get("text", "done")}]


def _message(turn: dict[str, Any], model: str, index: int) -> dict[str, Any]:
    return {
        "id": f"msg_{index:04d}", "type": "message", "role": "assistant", "model": model,
        "content": _content(turn, index),
        "stop_reason": "tool_use" if "tool" in turn else "end_turn", "stop_sequence": None,
        "usage": {"input_tokens": 10, "output_tokens": 5, "cache_creation_input_tokens": 0,
                  "cache_read_input_tokens": 0},
    }  # fmt: skip


def _sse(message: dict[str, Any]) -> bytes:
    events: list[tuple[str, dict[str, Any]]] = []
    start = {**message, "content": [], "stop_reason": None}
    events.append(("message_start", {"type": "message_start", "message": start}))
    for i, block in enumerate(message["content"]):
        if block["type"] == "tool_use":
            events.append(("content_block_start", {"type": "content_block_start", "index": i,
                           "content_block": {**block, "input": {}}}))  # fmt: skip
            delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
        else:
            events.append(("content_block_start", {"type": "content_block_start", "index": i,
                           "content_block": {"type": "text", "text": ""}}))  # fmt: skip
            delta = {"type": "text_delta", "text": block["text"]}
        events.append(
            ("content_block_delta", {"type": "content_block_delta", "index": i, "delta": delta})
        )
        events.append(("content_block_stop", {"type": "content_block_stop", "index": i}))
    events.append(("message_delta", {"type": "message_delta",
                   "delta": {"stop_reason": message["stop_reason"], "stop_sequence": None},
                   "usage": {"output_tokens": 5}}))  # fmt: skip
    events.append(("message_stop", {"type": "message_stop"}))
    return b"".join(
        f"event: {name}\ndata: {json.dumps(data)}\n\n".encode() for name, data in events
    )


def new_script(turns: dict[str, list[dict[str, Any]]], log_path: str) -> Script:
    """This backend's script: once a case's turns are used up it answers "done"."""
    return Script(turns, log_path, when_done={"text": "done"})


def serve(port_file: str, script: Script) -> None:
    counter = iter(range(1, 1_000_000))

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            return

        def do_POST(self) -> None:
            length = int(self.headers.get("content-length", 0))
            raw = self.rfile.read(length)
            if not self.path.startswith("/v1/messages") or self.path.startswith(
                "/v1/messages/count_tokens"
            ):
                self._json(200, {"input_tokens": 10})
                return
            body = json.loads(raw or b"{}")
            message = _message(
                script.answer(body, json.dumps(body.get("messages", []))),
                body.get("model", "claude"),
                next(counter),
            )
            if body.get("stream"):
                data = _sse(message)
                self.send_response(200)
                self.send_header("content-type", "text/event-stream")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            else:
                self._json(200, message)

        def do_GET(self) -> None:
            self._json(200, {"data": [], "has_more": False})

        def do_HEAD(self) -> None:
            self.send_response(200)
            self.send_header("content-length", "0")
            self.end_headers()

        def _json(self, status: int, obj: Any) -> None:
            data = json.dumps(obj).encode()
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    publish_port(server.server_address[1], port_file)
    server.serve_forever()


if __name__ == "__main__":
    port_file, script_path, log_path = sys.argv[1:4]
    with open(script_path) as f:
        turns = json.load(f)
    serve(port_file, new_script(turns, log_path))
