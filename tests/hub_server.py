"""A local stand-in for the Hugging Face Hub: a thread serving the tiny BERT under the Hub's URL layout.

huggingface_hub 2.4 asks for GET /api/models/{repo}/revision/{rev}?blobs=True (the commit and the file sizes),
then HEAD and GET /{repo}/resolve/{commit}/{file}, and needs X-Repo-Commit, ETag and Content-Length on those.
Point HF_ENDPOINT at `server.url` and HF_HOME at a temporary folder; nothing else is faked.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

COMMIT = "0123456789abcdef0123456789abcdef01234567"
_RESOLVE = re.compile(r"^/(?P<repo>[^/]+/[^/]+)/resolve/(?P<revision>[^/]+)/(?P<file>[^?]+)$")
_INFO = re.compile(r"^/api/models/(?P<repo>[^/]+/[^/]+)/revision/(?P<revision>[^/?]+)(\?.*)?$")


@dataclass
class HubServer:
    """The served files (every repository id gets the same ones), what was asked for, and a gate for cancelling."""

    files: dict[str, bytes]
    requests: list[str] = field(default_factory=list)
    # While cleared, model.safetensors stops after its first half, so a test can cancel a download mid-way.
    weights_gate: threading.Event = field(default_factory=threading.Event)
    weights_started: threading.Event = field(default_factory=threading.Event)
    url: str = ""

    def __post_init__(self) -> None:
        self.weights_gate.set()


def _handler(hub: HubServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args) -> None:  # keep the test output clean
            pass

        def _send(self, status: int, body: bytes, headers: dict[str, str]) -> None:
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()

        def _answer(self, with_body: bool) -> None:
            hub.requests.append(f"{self.command} {self.path}")
            info, resolve = _INFO.match(self.path), _RESOLVE.match(self.path)
            if info:
                body = json.dumps({"id": info["repo"], "sha": COMMIT, "siblings": [
                    {"rfilename": name, "size": len(data)} for name, data in hub.files.items()]}).encode()
                self._send(200, body, {"Content-Type": "application/json"})
                self.wfile.write(body)
                return
            if not resolve or resolve["file"] not in hub.files:
                body = b'{"error": "Entry not found"}'
                self._send(404, body, {"X-Error-Code": "EntryNotFound", "X-Repo-Commit": COMMIT})
                self.wfile.write(body)
                return
            data = hub.files[resolve["file"]]
            self._send(200, data, {"X-Repo-Commit": COMMIT, "ETag": f'"{hashlib.sha256(data).hexdigest()}"',
                                   "Content-Type": "application/octet-stream"})
            if not with_body:
                return
            if resolve["file"] == "model.safetensors":
                half = len(data) // 2
                self.wfile.write(data[:half])
                self.wfile.flush()
                hub.weights_started.set()
                hub.weights_gate.wait(10)
                self.wfile.write(data[half:])
            else:
                self.wfile.write(data)

        def do_GET(self) -> None:
            self._answer(True)

        def do_HEAD(self) -> None:
            self._answer(False)

    return Handler


def start_hub(folder: Path) -> tuple[HubServer, ThreadingHTTPServer]:
    """Serve the three model files of `folder` on 127.0.0.1 (a free port) from a daemon thread."""
    hub = HubServer({name: (folder / name).read_bytes() for name in
                     ("config.json", "tokenizer.json", "model.safetensors")})
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(hub))
    server.daemon_threads = True
    hub.url = f"http://127.0.0.1:{server.server_address[1]}"
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    return hub, server


def closed_port_url() -> str:
    """An address where nothing listens: the Hub is down, or the computer is offline."""
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}"
