"""A scripted stand-in for an OpenAI-compatible chat-completions API, on 127.0.0.1
(standard library only), for both Cline runners.

Each case's turns are keyed by a ``case:<id>`` tag the prompt carries. Turn N answers the
N-th request of that case: native tool calls (``{"tool": name, "args": {...}}``, what the
SDK runner asks for) or plain text (``{"text": ...}``; Cline's original runner reads its
XML tool format from the text). Every request body is recorded (``requests.jsonl``), so a
test sees what the hooks injected. Requests without a tag get a short text. Streaming
(SSE) and not; ``GET /models`` lists one model.
"""

from __future__ import annotations

import json
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from scripted import Script, publish_port


def _calls(turn: dict[str, Any], serial: int) -> list[dict[str, Any]]:
    """The turn's tool call, or its ``tools`` (``[[name, args], ...]``: one batch)."""
    asked = turn.get("tools") or [[turn["tool"], turn.get("args", {})]]
    return [{"index": i, "id": f"call_{serial:04d}_{i}", "type": "function",
             "function": {"name": name, "arguments": json.dumps(args)}}
            for i, (name, args) in enumerate(asked)]  # fmt: skip


def _calling(turn: dict[str, Any]) -> bool:
    return "tool" in turn or "tools" in turn


def _usage(turn: dict[str, Any] | None = None) -> dict[str, int]:
    """Token counts; a turn's ``prompt_tokens`` says how full the context is (to make an
    agent compact it)."""
    prompt = (turn or {}).get("prompt_tokens", 10)
    return {"prompt_tokens": prompt, "completion_tokens": 5, "total_tokens": prompt + 5}


def _completion(turn: dict[str, Any], serial: int) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": turn.get("text")}
    if "tool" in turn or "tools" in turn:
        message["tool_calls"] = [
            {k: v for k, v in call.items() if k != "index"} for call in _calls(turn, serial)
        ]
    return {
        "id": f"chatcmpl-{serial}", "object": "chat.completion", "created": 1, "model": "fake",
        "choices": [{"index": 0, "message": message,
                     "finish_reason": "tool_calls" if _calling(turn) else "stop"}],
        "usage": _usage(),
    }  # fmt: skip


def _sse(turn: dict[str, Any], serial: int) -> bytes:
    head = {"id": f"chatcmpl-{serial}", "object": "chat.completion.chunk", "created": 1,
            "model": "fake"}  # fmt: skip
    delta: dict[str, Any] = {"role": "assistant"}
    if _calling(turn):
        delta["tool_calls"] = _calls(turn, serial)
    else:
        delta["content"] = turn.get("text", "done")
    chunks = [
        {**head, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]},
        {**head, "choices": [{"index": 0, "delta": {},
                              "finish_reason": "tool_calls" if _calling(turn) else "stop"}],
         "usage": _usage(turn)},
    ]  # fmt: skip
    return b"".join(b"data: " + json.dumps(c).encode() + b"\n\n" for c in chunks) + (
        b"data: [DONE]\n\n"
    )


def new_script(turns: dict[str, list[dict[str, Any]]], log_path: str) -> Script:
    """This backend's script: once a case's turns are used up it answers its last turn again."""
    return Script(turns, log_path)


def serve(port_file: str, script: Script) -> None:
    counter = iter(range(1, 1_000_000))

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            return

        def do_POST(self) -> None:
            raw = self.rfile.read(int(self.headers.get("content-length", 0)))
            if not self.path.endswith("/chat/completions"):
                self._send(404, "application/json", b'{"error": {"message": "not here"}}')
                return
            body = json.loads(raw or b"{}")
            turn, serial = script.answer(body, json.dumps(body.get("messages", []))), next(counter)
            if "status" in turn:  # a failing model (its error's status and message)
                error = {"error": {"message": turn.get("message", "boom"), "type": "server_error"}}
                self._send(turn["status"], "application/json", json.dumps(error).encode())
                return
            if body.get("stream"):
                self._send(200, "text/event-stream", _sse(turn, serial))
            else:
                self._send(200, "application/json", json.dumps(_completion(turn, serial)).encode())

        def do_GET(self) -> None:
            models = {"object": "list", "data": [{"id": "fake", "object": "model"}]}
            self._send(200, "application/json", json.dumps(models).encode())

        def _send(self, status: int, kind: str, data: bytes) -> None:
            self.send_response(status)
            self.send_header("content-type", kind)
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    publish_port(server.server_address[1], port_file)
    server.serve_forever()
