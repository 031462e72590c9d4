"""A scripted stand-in for the Gemini API (``generativelanguage``), on 127.0.0.1 (standard
library only), for Gemini CLI (``GOOGLE_GEMINI_BASE_URL``).

One backend serves one agent run (each in its own network namespace), so its turns are
answered in order, whatever the request says: a hook may rewrite the conversation
(``BeforeModel``'s ``llm_request.messages``) and the case's tag with it. Turn N answers the
N-th ``streamGenerateContent`` request: a function call (``{"call": {"name": ..., "args":
{...}}}``), several (``{"calls": [...]}``), a text (``{"text": ...}``) or a text in several
streamed chunks (``{"texts": [...]}``); once the turns are used up it answers ``done.``.
Every request is recorded (``requests.jsonl``: path and body), so the next request shows
what the hooks put before the model.

``streamGenerateContent?alt=sse`` answers ``data: <GenerateContentResponse>`` events. The
utility calls Gemini may make answer too: ``generateContent`` (a next-speaker check:
``user``) and ``countTokens``.
"""

from __future__ import annotations

import json
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from scripted import Script, publish_port

DONE = {"text": "done."}
MODEL = "gemini-2.5-flash"
USAGE = {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15}


def _chunk(parts: list[dict[str, Any]], last: bool = True) -> dict[str, Any]:
    candidate: dict[str, Any] = {"content": {"role": "model", "parts": parts}, "index": 0}
    if last:
        candidate["finishReason"] = "STOP"
    return {"candidates": [candidate], "usageMetadata": USAGE, "modelVersion": MODEL}


def chunks(turn: dict[str, Any]) -> list[dict[str, Any]]:
    """The streamed chunks of one scripted turn."""
    if "call" in turn:
        return [_chunk([{"functionCall": turn["call"]}])]
    if "calls" in turn:
        return [_chunk([{"functionCall": call} for call in turn["calls"]])]
    if "texts" in turn:
        texts = turn["texts"]
        return [_chunk([{"text": t}], i == len(texts) - 1) for i, t in enumerate(texts)]
    return [_chunk([{"text": turn.get("text", "done.")}])]


def new_script(turns: list[dict[str, Any]], log_path: str) -> Script:
    """This backend's script: the run's turns in order, then ``done.``."""
    return Script({"run": turns}, log_path, when_done=DONE)


def serve(port_file: str, script: Script, port: int = 0) -> None:
    """Answer on 127.0.0.1:``port`` (0: any free port) until the process ends."""

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            return

        def do_POST(self) -> None:
            raw = self.rfile.read(int(self.headers.get("content-length", 0)))
            try:
                body = json.loads(raw or b"{}")
            except ValueError:
                body = {}
            if ":streamGenerateContent" in self.path:
                turn = script.answer({"path": self.path, "body": body}, "case:run")
                data = b"".join(b"data: " + json.dumps(c).encode() + b"\r\n\r\n"
                                for c in chunks(turn))  # fmt: skip
                self._send("text/event-stream", data)
            elif ":generateContent" in self.path:
                said = json.dumps({"reasoning": "the model is done", "next_speaker": "user"})
                self._send("application/json", json.dumps(_chunk([{"text": said}])).encode())
            elif ":countTokens" in self.path:
                self._send("application/json", b'{"totalTokens": 10}')
            else:
                self._send("application/json", b"{}")

        def do_GET(self) -> None:
            self._send("application/json", b"{}")

        def _send(self, kind: str, data: bytes) -> None:
            self.send_response(200)
            self.send_header("content-type", kind)
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    server.daemon_threads = True
    publish_port(server.server_address[1], port_file)
    server.serve_forever()
