"""A local stand-in for the Hugging Face Hub: a thread serving a tiny model under the Hub's URL layout.

The program asks for GET /api/models/{repo}/revision/main?blobs=true (the commit, and each file's size, git blob id
and, for LFS files, SHA-256), then GET /{repo}/resolve/{commit}/{file}. An older huggingface_hub also sent HEAD
first and needed X-Repo-Commit, ETag and Content-Length, which are sent too. Point HF_ENDPOINT at `server.url` and
HF_HOME at a temporary folder; nothing else is faked.

The server can lie in the ways a hostile or broken Hub could (the fields under "lies"); left alone it is honest.
It listens on 127.0.0.1 only, every slow or stalled answer ends when the test sets `closing` or after
`ANSWER_BOUND` seconds, and the server shuts itself down after `LIFETIME` seconds whatever the test does.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

COMMIT = "0123456789abcdef0123456789abcdef01234567"
WEIGHTS = "model.safetensors"
LFS_FILES = frozenset({WEIGHTS})
ANSWER_BOUND = 20.0  # seconds a slow or stalled answer may last at most
LIFETIME = 120.0  # seconds after which the server stops by itself
_RESOLVE = re.compile(r"^/(?P<repo>[^/]+(/[^/]+)?)/resolve/(?P<revision>[^/]+)/(?P<file>[^?]+)$")
_INFO = re.compile(r"^/api/models/(?P<repo>[^/]+(/[^/]+)?)/revision/(?P<revision>[^/?]+)(\?.*)?$")


def git_blob_id(data: bytes) -> str:
    """The git object id of a file's bytes (what the Hub lists as blobId, and sends as ETag, for a non-LFS file)."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


@dataclass
class HubServer:
    """The served files (every repository id gets the same ones), what was asked for, and the ways it lies."""

    files: dict[str, bytes]
    requests: list[str] = field(default_factory=list)
    authorizations: list[tuple[str, str | None]] = field(default_factory=list)  # (path, Authorization header)
    # While cleared, model.safetensors stops after its first half, so a test can cancel a download mid-way.
    weights_gate: threading.Event = field(default_factory=threading.Event)
    weights_started: threading.Event = field(default_factory=threading.Event)
    closing: threading.Event = field(default_factory=threading.Event)  # set: slow and stalled answers end
    url: str = ""
    # ---- lies (left alone: the honest Hub)
    listing_commit: object = COMMIT  # the listing's "sha"
    listing_sizes: dict[str, object] = field(default_factory=dict)  # a file's "size" in the listing
    listing_hashes: dict[str, object] = field(default_factory=dict)  # a file's blobId, or lfs.sha256 for LFS
    no_lfs: bool = False  # the listing gives no "lfs" block (nothing to check the weights against)
    extra_siblings: list[dict] = field(default_factory=list)  # more entries in the listing's file list
    listing_body: bytes | None = None  # the listing's whole answer
    listing_status: int = 200  # the listing's status
    served: dict[str, bytes] = field(default_factory=dict)  # bytes sent instead of what the listing describes
    etag: str | None = None  # ETag (and X-Linked-Etag) sent for every file
    repo_commit: str | None = None  # X-Repo-Commit sent with every file answer, 404s included
    missing_commit: str | None = None  # X-Repo-Commit sent with a 404 only
    missing: set[str] = field(default_factory=set)  # files answered 404 Entry not found
    status: dict[str, int] = field(default_factory=dict)  # files answered with this status (500 …)
    redirect: dict[str, str] = field(default_factory=dict)  # file → Location of a 302
    rate: int | None = None  # bytes per second the weights are sent at
    stall_weights: bool = False  # the weights stop after their first half until the test ends

    def __post_init__(self) -> None:
        self.weights_gate.set()

    def listing(self, repo: str) -> bytes:
        """The JSON the Hub gives for GET /api/models/{repo}/revision/main?blobs=true."""
        if self.listing_body is not None:
            return self.listing_body
        siblings = [{"rfilename": ".gitattributes", "blobId": git_blob_id(b"*.safetensors filter=lfs\n"),
                     "size": 25}]
        for name, data in self.files.items():
            sibling = {"rfilename": name, "size": self.listing_sizes.get(name, len(data))}
            if name in LFS_FILES:
                sibling["blobId"] = git_blob_id(b"version https://git-lfs.github.com/spec/v1\n")  # the pointer's
                if not self.no_lfs:
                    sibling["lfs"] = {"sha256": self.listing_hashes.get(name, hashlib.sha256(data).hexdigest()),
                                      "size": self.listing_sizes.get(name, len(data)), "pointerSize": 134}
            else:
                sibling["blobId"] = self.listing_hashes.get(name, git_blob_id(data))
            siblings.append(sibling)
        siblings.extend(self.extra_siblings)
        return json.dumps({"id": repo, "modelId": repo, "sha": self.listing_commit, "private": False,
                           "siblings": siblings}).encode()

    def file_body(self, name: str) -> bytes:
        return self.served.get(name, self.files.get(name, b""))


def _handler(hub: HubServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args) -> None:  # keep the test output clean
            pass

        def _head(self, status: int, length: int, headers: dict[str, str]) -> None:
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(length))
            self.end_headers()

        def _whole(self, status: int, body: bytes, headers: dict[str, str], with_body: bool) -> None:
            self._head(status, len(body), headers)
            if with_body:
                self.wfile.write(body)

        def _answer(self, with_body: bool) -> None:
            hub.requests.append(f"{self.command} {self.path}")
            hub.authorizations.append((self.path, self.headers.get("Authorization")))
            info, resolve = _INFO.match(self.path), _RESOLVE.match(self.path)
            if info:
                self._whole(hub.listing_status, hub.listing(info["repo"]), {"Content-Type": "application/json"},
                            with_body)
                return
            # Anything else is a file: under resolve/, or wherever a redirect sent the client (its last part).
            name = resolve["file"] if resolve else self.path.rsplit("/", 1)[-1].split("?")[0]
            commit = hub.repo_commit if hub.repo_commit is not None else COMMIT
            if resolve and name in hub.redirect:
                self._whole(302, b"", {"Location": hub.redirect[name], "X-Repo-Commit": commit}, with_body)
                return
            if name in hub.status:
                self._whole(hub.status[name], b'{"error": "Internal Error"}', {"X-Repo-Commit": commit}, with_body)
                return
            if name not in hub.files or name in hub.missing:
                self._whole(404, b'{"error": "Entry not found"}', {
                    "X-Error-Code": "EntryNotFound", "X-Repo-Commit": hub.missing_commit or commit}, with_body)
                return
            data = hub.file_body(name)
            etag = hub.etag if hub.etag is not None else (
                hashlib.sha256(hub.files[name]).hexdigest() if name in LFS_FILES else git_blob_id(hub.files[name]))
            headers = {"X-Repo-Commit": commit, "ETag": f'"{etag}"', "Content-Type": "application/octet-stream"}
            if name in LFS_FILES:
                headers.update({"X-Linked-Etag": f'"{etag}"', "X-Linked-Size": str(len(data))})
            self._head(200, len(data), headers)
            if not with_body:
                return
            if name == WEIGHTS:
                self._send_weights(data)
            else:
                self.wfile.write(data)

        def _send_weights(self, data: bytes) -> None:
            half = len(data) // 2
            if hub.rate:
                step = max(1, hub.rate // 10)
                start = time.monotonic()
                for offset in range(0, len(data), step):
                    if hub.closing.is_set() or time.monotonic() - start > ANSWER_BOUND:
                        return
                    self.wfile.write(data[offset:offset + step])
                    self.wfile.flush()
                    hub.weights_started.set()
                    hub.closing.wait(0.1)
                return
            self.wfile.write(data[:half])
            self.wfile.flush()
            hub.weights_started.set()
            if hub.stall_weights:
                hub.closing.wait(ANSWER_BOUND)
                return
            hub.weights_gate.wait(10)
            self.wfile.write(data[half:])

        def _guarded(self, with_body: bool) -> None:
            try:
                self._answer(with_body)
            except (BrokenPipeError, ConnectionResetError):  # the client went away (a cancel): nothing to do
                pass

        def handle(self) -> None:
            try:
                super().handle()
            except (BrokenPipeError, ConnectionResetError):  # a client that closed at once: no traceback
                pass

        def do_GET(self) -> None:
            self._guarded(True)

        def do_HEAD(self) -> None:
            self._guarded(False)

    return Handler


class _QuietServer(ThreadingHTTPServer):
    """Prints nothing: a traceback of a client that went away would land in the output a test reads (capsys)."""

    daemon_threads = True

    def handle_error(self, request, client_address) -> None:
        pass


def start_hub(folder: Path) -> tuple[HubServer, ThreadingHTTPServer]:
    """Serve the three model files of `folder` on 127.0.0.1 (a free port) from a daemon thread.

    Stop it with `stop_hub`; it also stops by itself after LIFETIME seconds.
    """
    hub = HubServer({name: (folder / name).read_bytes() for name in
                     ("config.json", "tokenizer.json", "model.safetensors")})
    server = _QuietServer(("127.0.0.1", 0), _handler(hub))
    hub.url = f"http://127.0.0.1:{server.server_address[1]}"
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    timer = threading.Timer(LIFETIME, lambda: stop_hub(hub, server))
    timer.daemon = True
    timer.start()
    return hub, server


def stop_hub(hub: HubServer, server: ThreadingHTTPServer) -> None:
    """End every slow answer and stop serving."""
    hub.closing.set()
    hub.weights_gate.set()
    server.shutdown()
    server.server_close()


def closed_port_url() -> str:
    """An address where nothing listens: the Hub is down, or the computer is offline."""
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}"
