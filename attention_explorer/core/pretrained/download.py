"""Get a model from the Hugging Face Hub into the Hugging Face cache, only when the user asks for it.

Needs the optional package huggingface_hub (pip install "attention-explorer[hub]"), for its HTTP client (httpx2)
and the token of a logged-in user; both are imported only when a download starts. Nothing the server sends ever
names a path on this computer:

1. GET {endpoint}/api/models/{repo}/revision/main?blobs=true gives the commit (40 hexadecimal digits) and, for each
   of the three files the program reads (config.json, tokenizer.json, model.safetensors), its size and its hash:
   the LFS SHA-256 for the weights, the git blob id for the others. Other files in the listing are never fetched;
   a listing that does not say all this is refused.
2. Each file goes into a private temporary folder in the cache, streamed by a helper thread: every piece is
   counted and hashed as it arrives, the transfer ends as soon as it passes the listed size, and a cancel takes
   effect within POLL_SECONDS however slow or stalled the server is. config.json is checked to be a supported
   family before the weights are asked for.
3. Only when all three match the listing are they moved into the cache's layout: blobs/<hash>,
   snapshots/<commit>/<file> → ../../blobs/<hash>, refs/main. Every folder written into is checked to lie inside
   the cache (links followed). A failed or cancelled download removes its temporary folder: nothing is listed.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import queue
import re
import shutil
import socket
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from http import HTTPStatus
from pathlib import Path
from typing import Any

from attention_explorer.core.messages import Phrase, TemplateError
from attention_explorer.core.pretrained.checkpoint import config_from_dict, hub_cache_dir, is_complete_snapshot
from attention_explorer.core.pretrained.config_fields import CheckpointError, _config_document
from attention_explorer.version import __version__

HUB_PACKAGE = "huggingface_hub"
HUB_INSTALL_HINT = 'pip install "attention-explorer[hub]"'
DEFAULT_ENDPOINT = "https://huggingface.co"
# The small files first: config.json is checked before anything else is fetched, and the weights, by far the
# largest, come last, so a cancel mostly lands in them.
DOWNLOAD_ORDER = ("config.json", "tokenizer.json", "model.safetensors")
WEIGHTS = "model.safetensors"
POLL_SECONDS = 0.1  # the longest a cancel waits to be seen, whatever the network does
STALL_SECONDS = 30.0  # a server that sends nothing for this long has stalled: the download ends with a message
CONNECT_SECONDS = 15.0
MAX_REDIRECTS = 5
LISTING_LIMIT = 16 * 1024 * 1024  # bytes of JSON a listing may have (bert-base-uncased's is about 6 KB)
LARGEST_FILE = 1 << 40  # 1 TiB: a listed size beyond it is a lie
PROGRESS_SECONDS = 0.1  # progress is reported at most this often (and once at the end)
TEMPORARY_PREFIX = ".attention-explorer-download-"
STALE_SECONDS = 6 * 3600  # a temporary folder untouched this long was left by a program that died: removed
_COMMIT_ID = re.compile(r"[0-9a-f]{40}")
_SHA256 = re.compile(r"[0-9a-f]{64}")
_GIT_BLOB_ID = _COMMIT_ID
_ID_PART = r"[A-Za-z0-9_](?:[A-Za-z0-9_.-]{0,94}[A-Za-z0-9_])?"
_MODEL_ID = re.compile(f"(?:{_ID_PART}/)?{_ID_PART}")
_REDIRECTS = frozenset({301, 302, 303, 307, 308})


@dataclass(frozen=True)
class HubModel:
    """A model the Get a model… dialog offers: its Hub id, its family, and roughly how much it downloads."""

    repo_id: str
    family: str  # config.json's model_type: one of checkpoint.SUPPORTED_MODEL_TYPES
    approximate_bytes: int

    @property
    def short_name(self) -> str:
        """The name after the organisation ("all-MiniLM-L6-v2")."""
        return self.repo_id.rsplit("/", 1)[-1]


# Models of the newer families (and a BERT that reads Chinese), each ~ the bytes of its three files as the Hub lists
# them: SmolLM2-135M 269 MB of bf16 weights + 2.1 MB tokenizer.json; Qwen2.5-0.5B 988 MB of bf16 weights + 7.0 MB
# tokenizer.json (sizes read from copies of the repository, matching 494 M parameters × 2 bytes); bert-base-chinese
# 412 MB + 269 KB.
FURTHER_MODEL_CHOICES = (
    HubModel("HuggingFaceTB/SmolLM2-135M", "llama", 271_000_000),
    HubModel("Qwen/Qwen2.5-0.5B", "qwen2", 995_000_000),
    HubModel("google-bert/bert-base-chinese", "bert", 412_000_000),
)
# Models that read Chinese, the one a sentence in Chinese opens first: a BERT with every common character in its
# vocabulary, then Qwen2.5 (byte-level BPE trained on Chinese too). Beyond these, a cached model whose name says
# "chinese" or "qwen" counts as one (chinese_model).
READS_CHINESE = ("google-bert/bert-base-chinese", "bert-base-chinese", "Qwen/Qwen2.5-0.5B")
MODEL_CHOICES = (
    HubModel("sentence-transformers/all-MiniLM-L6-v2", "bert", 91_000_000),
    HubModel("google-bert/bert-base-uncased", "bert", 441_000_000),
    HubModel("openai-community/gpt2", "gpt2", 550_000_000),
    HubModel("distilbert/distilgpt2", "gpt2", 355_000_000),
    *FURTHER_MODEL_CHOICES,
)


class DownloadError(TemplateError):
    """A download that could not be done; the message is one line saying why."""


class DownloadCancelled(Exception):
    """The user cancelled the download."""


@dataclass(frozen=True)
class Progress:
    """How far a download is: bytes done of the total, and the estimated seconds left (None while unknown)."""

    done: int
    total: int
    seconds_left: float | None
    file: str


def hub_available() -> bool:
    """True when huggingface_hub is installed, with the HTTP client it brings (httpx2, from version 2.4 on)."""
    try:
        return all(importlib.util.find_spec(name) is not None for name in (HUB_PACKAGE, "httpx2"))
    except (ImportError, ValueError):
        return False


def hub_endpoint() -> str:
    """The Hub to download from: $HF_ENDPOINT (a mirror, or a test server), else huggingface.co."""
    return (os.environ.get("HF_ENDPOINT") or DEFAULT_ENDPOINT).rstrip("/")


def size_text(size: int, digits: int = 1) -> str:
    """A byte count as people read it: 812 B, 41.3 KB, 90.9 MB, 1.2 GB (decimal units, as the Hub shows them)."""
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("KB", 1e3)):
        if size >= scale:
            return f"{size / scale:.{digits}f} {unit}"
    return f"{size} B"


class ProgressMeter:
    """Turns bytes received into a Progress with a time-left estimate from the average rate so far."""

    def __init__(self, total: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.total = total
        self.done = 0
        self._skipped = 0  # bytes already on this computer: done, but not part of the rate
        self._clock = clock
        self._start = clock()

    def add(self, received: int, file: str) -> Progress:
        """Count `received` more bytes of `file`."""
        self.done += received
        elapsed = self._clock() - self._start
        fetched = self.done - self._skipped
        seconds_left = None
        if fetched > 0 and elapsed > 0 and self.total >= self.done:
            seconds_left = (self.total - self.done) * elapsed / fetched
        return Progress(self.done, max(self.total, self.done), seconds_left, file)

    def skip(self, size: int, file: str) -> Progress:
        """Count a file already in the cache (checked against the listing) as done without fetching it."""
        self._skipped += size
        return self.add(size, file)


def reads_chinese(name: str) -> bool:
    """True for a model known (or named) to read Chinese: READS_CHINESE, or a name with "chinese" or "qwen"."""
    return name in READS_CHINESE or any(word in name.lower() for word in ("chinese", "qwen"))


def chinese_model(names: list[str]) -> int:
    """The index of the model a Chinese sentence opens among these names (READS_CHINESE's order first, then the
    first other that reads_chinese), or -1 when none reads Chinese."""
    for known in READS_CHINESE:
        if known in names:
            return names.index(known)
    return next((index for index, name in enumerate(names) if reads_chinese(name)), -1)


def is_model_id(repo_id: str) -> bool:
    """A Hub model id: NAME or ORGANISATION/NAME of letters, digits, "-", "_" and "." (no "--" or "..")."""
    return bool(_MODEL_ID.fullmatch(repo_id)) and "--" not in repo_id and ".." not in repo_id


def repository_folder(cache: Path, repo_id: str) -> Path:
    """The cache's folder for a model repository (models--org--name)."""
    return cache / ("models--" + repo_id.replace("/", "--"))


def cached_snapshot(repo_id: str, cache: Path | None = None) -> Path | None:
    """A complete snapshot of `repo_id` already in the cache (refs/main's first), or None; reads the disk only.

    Complete as checkpoint.is_complete_snapshot says: the three files inside the cache, the weights whole.
    """
    cache = Path(cache) if cache is not None else hub_cache_dir()
    repository = repository_folder(cache, repo_id)
    try:
        main = (repository / "refs" / "main").read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        main = ""
    try:
        found = sorted((repository / "snapshots").iterdir(), key=lambda folder: (folder.name != main, folder.name))
    except OSError:
        return None
    return next((folder for folder in found if is_complete_snapshot(folder, cache)), None)


# ---------------------------------------------------------------- messages


def _one_line(error: BaseException) -> str:
    text = " ".join(str(error).split()) or type(error).__name__
    return text if len(text) <= 200 else text[:199] + "…"


def _shown(value: Any) -> str:
    """A value the server sent, for a message: JSON with every non-ASCII character escaped, at most 60 characters
    (a newline, an escape sequence or a right-to-left override cannot reach the user's screen as itself)."""
    try:
        text = json.dumps(value, ensure_ascii=True)
    except (TypeError, ValueError):
        text = json.dumps(repr(value), ensure_ascii=True)
    return text if len(text) <= 60 else text[:59] + "…"


def _status_text(status: int) -> str:
    try:
        return f"{status} ({HTTPStatus(status).phrase})"
    except ValueError:
        return str(status)


def _origin(url: str) -> str:
    scheme, _, rest = url.partition("://")
    return f"{scheme}://{rest.split('/', 1)[0]}"


# ---------------------------------------------------------------- the listing


@dataclass(frozen=True)
class ListedFile:
    """One of the three files as the listing describes it: its size, and the hash it must have."""

    name: str
    size: int
    digest: str  # hexadecimal: SHA-256 for an LFS file, the git blob id (SHA-1 of "blob N\\0" + bytes) otherwise
    algorithm: str  # "sha256" or "git-sha1"

    def hasher(self):
        """A hash object that gives `digest` for the right bytes."""
        if self.algorithm == "sha256":
            return hashlib.sha256()
        hasher = hashlib.sha1()
        hasher.update(b"blob %d\0" % self.size)
        return hasher

    @property
    def algorithm_name(self) -> str:
        return Phrase("SHA-256") if self.algorithm == "sha256" else Phrase("git blob id")


def _listed_size(repo_id: str, name: str, value: Any) -> int:
    if type(value) is not int or not 0 <= value <= LARGEST_FILE:
        raise DownloadError("{0}: the listing gives {1} the size {2}, not a whole number of bytes from 0 to {3}",
                            repo_id, name, _shown(value), LARGEST_FILE)
    return value


def _listed_file(repo_id: str, name: str, entry: dict) -> ListedFile:
    """Size and hash of one file, every field checked; a file that cannot be verified is refused."""
    size = _listed_size(repo_id, name, entry.get("size"))
    lfs = entry.get("lfs")
    if lfs is not None:
        if not isinstance(lfs, dict):
            raise DownloadError("{0}: the listing gives no SHA-256 for {1}, so it cannot be verified", repo_id, name)
        digest = lfs.get("sha256")
        if not isinstance(digest, str) or not _SHA256.fullmatch(digest):
            raise DownloadError("{0}: the listing gives {1} the hash {2}, which is not a {3}", repo_id, name,
                                _shown(digest), Phrase("SHA-256 (64 hexadecimal digits)"))
        lfs_size = _listed_size(repo_id, name, lfs.get("size", size))
        if lfs_size != size:
            raise DownloadError("{0}: the listing gives {1} two sizes, {2} and {3}", repo_id, name, size, lfs_size)
        return ListedFile(name, size, digest, "sha256")
    if name == WEIGHTS:  # the Hub keeps weights in LFS: without its SHA-256 they cannot be checked
        raise DownloadError("{0}: the listing gives no SHA-256 for {1}, so it cannot be verified", repo_id, name)
    digest = entry.get("blobId")
    if not isinstance(digest, str) or not _GIT_BLOB_ID.fullmatch(digest):
        raise DownloadError("{0}: the listing gives {1} the hash {2}, which is not a {3}", repo_id, name,
                            _shown(digest), Phrase("git blob id (40 hexadecimal digits)"))
    return ListedFile(name, size, digest, "git-sha1")


def read_listing(repo_id: str, body: bytes) -> tuple[str, dict[str, ListedFile]]:
    """The commit and the three files of a listing (GET /api/models/{repo}/revision/main?blobs=true)."""
    try:
        document = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise DownloadError("{0}: the Hub's listing is not usable ({1})", repo_id, Phrase("not valid JSON")) from None
    if not isinstance(document, dict):
        raise DownloadError("{0}: the Hub's listing is not usable ({1})", repo_id, Phrase("not a JSON object"))
    commit = document.get("sha")
    if not isinstance(commit, str) or not _COMMIT_ID.fullmatch(commit):
        raise DownloadError("{0}: the Hub's listing gives {1} as the commit, which is not a commit id (40 "
                            "hexadecimal digits)", repo_id, _shown(commit))
    siblings = document.get("siblings")
    if not isinstance(siblings, list):
        raise DownloadError("{0}: the Hub's listing is not usable ({1})", repo_id, Phrase("it has no list of files"))
    entries = {}
    for entry in siblings:
        if isinstance(entry, dict) and entry.get("rfilename") in DOWNLOAD_ORDER:
            entries.setdefault(entry["rfilename"], entry)  # only the three names, exactly; nothing else is fetched
    missing = [name for name in DOWNLOAD_ORDER if name not in entries]
    if missing:
        raise DownloadError("{0}: the model has no {1}, which this program needs", repo_id, ", ".join(missing))
    return commit, {name: _listed_file(repo_id, name, entries[name]) for name in DOWNLOAD_ORDER}


# ---------------------------------------------------------------- one GET, in a helper thread


class _RefusedRedirect(Exception):
    def __init__(self, location: str) -> None:
        super().__init__(location)
        self.location = location


class _TooManyRedirects(Exception):
    pass


def _redirect_target(current: str, location: str) -> str:
    """Where a redirect leads: only http or https, and never from https down to http."""
    import httpx2

    try:
        target = httpx2.URL(current).join(location)
    except (httpx2.InvalidURL, ValueError, TypeError):
        raise _RefusedRedirect(location) from None
    if target.scheme not in ("http", "https") or not target.host or (
            current.startswith("https:") and target.scheme != "https"):
        raise _RefusedRedirect(location)
    return str(target)


class _Transfer:
    """One GET in a daemon thread that hands its answer over piece by piece; the caller waits at most POLL_SECONDS
    at a time, so a cancel is seen at once whatever the server does (sends 1 KB/s, or nothing at all)."""

    def __init__(self, url: str, headers: dict[str, str]) -> None:
        self.url = url  # where the request goes now: a redirect changes it
        self._headers = headers
        self._queue: queue.Queue = queue.Queue(maxsize=64)
        self._stop = threading.Event()
        self._socket: socket.socket | None = None
        self._thread = threading.Thread(target=self._run, name="attention-explorer download", daemon=True)
        self._thread.start()

    def _offer(self, item: tuple) -> bool:
        while not self._stop.is_set():
            try:
                self._queue.put(item, timeout=POLL_SECONDS)
                return True
            except queue.Full:
                continue
        return False

    def _run(self) -> None:
        try:
            self._fetch()
        except BaseException as error:  # handed to the caller, who says what it was
            self._offer(("error", error))

    def _fetch(self) -> None:
        import httpx2

        url, headers = self.url, dict(self._headers)
        timeout = httpx2.Timeout(STALL_SECONDS, connect=CONNECT_SECONDS)
        with httpx2.Client(timeout=timeout, follow_redirects=False, trust_env=True) as client:
            for _hop in range(MAX_REDIRECTS + 1):
                if self._stop.is_set():
                    return
                with client.stream("GET", url, headers=headers) as response:
                    if response.status_code in _REDIRECTS and "location" in response.headers:
                        target = _redirect_target(url, response.headers["location"])
                        if _origin(target) != _origin(url):  # a CDN elsewhere gets no token
                            headers.pop("Authorization", None)
                        url = self.url = target
                        continue
                    stream = response.extensions.get("network_stream")
                    self._socket = stream.get_extra_info("socket") if stream is not None else None
                    if self._stop.is_set():
                        return
                    if not self._offer(("head", response.status_code, response.headers.get("content-length"))):
                        return
                    if response.status_code != 200:
                        return
                    for piece in response.iter_raw():
                        if not self._offer(("data", piece)):
                            return
                    self._offer(("end",))
                    return
            raise _TooManyRedirects

    def events(self, cancelled: Callable[[], bool]) -> Iterator[tuple]:
        """The answer: ("head", status, content-length), ("data", bytes)…, ("end",), or ("error", exception)."""
        while True:
            if cancelled():
                raise DownloadCancelled
            try:
                item = self._queue.get(timeout=POLL_SECONDS)
            except queue.Empty:
                if not self._thread.is_alive() and self._queue.empty():  # it ended without a word (never expected)
                    item = ("error", RuntimeError("the transfer ended without an answer"))
                else:
                    continue
            yield item
            if item[0] in ("end", "error"):
                return

    def close(self) -> None:
        """Stop the helper: it ends at its next step, or at once if it is waiting for bytes (its socket is shut)."""
        self._stop.set()
        sock = self._socket
        if sock is not None and self._thread.is_alive():
            try:
                socket.socket.shutdown(sock, socket.SHUT_RDWR)  # wakes a read blocked on a stalled server
            except OSError:
                pass


def _transfer_error(repo_id: str, label: str, url: str, error: BaseException) -> DownloadError:
    """A helper thread's exception as the one line the user reads."""
    import httpx2

    if isinstance(error, DownloadError):
        return error
    if isinstance(error, (httpx2.ConnectError, httpx2.ConnectTimeout, httpx2.ProxyError)):
        return DownloadError("cannot reach {0}: is this computer online? ({1})", _origin(url), _one_line(error))
    if isinstance(error, httpx2.TimeoutException):
        return DownloadError("{0}: {1}: the Hub sent nothing for {2:g} s", repo_id, label, STALL_SECONDS)
    if isinstance(error, _RefusedRedirect):
        return DownloadError("{0}: {1}: the Hub redirected to {2}, which is refused (only http and https, never "
                             "from https to http)", repo_id, label, _shown(error.location))
    if isinstance(error, _TooManyRedirects):
        return DownloadError("{0}: {1}: more than {2} redirects", repo_id, label, MAX_REDIRECTS)
    return DownloadError("{0}: the download stopped ({1})", repo_id, f"{label}: {_one_line(error)}")


def _request_headers() -> dict[str, str]:
    """What every request says: who asks, no compression (the bytes are hashed as they come), and the token of a
    logged-in user (needed for gated models; never sent to another host a redirect leads to)."""
    headers = {"User-Agent": f"attention-explorer/{__version__}", "Accept-Encoding": "identity"}
    if os.environ.get("HF_HUB_DISABLE_IMPLICIT_TOKEN", "").upper() not in ("1", "ON", "YES", "TRUE"):
        try:
            from huggingface_hub import get_token

            token = get_token()
        except Exception:  # an unreadable token file: go without one
            token = None
        if token:
            headers["Authorization"] = f"Bearer {token}"
    return headers


def _offline() -> bool:
    return any(os.environ.get(name, "").upper() in ("1", "ON", "YES", "TRUE")
               for name in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE"))


def _fetch_listing(repo_id: str, endpoint: str, headers: dict[str, str], cancelled: Callable[[], bool]) -> bytes:
    url = f"{endpoint}/api/models/{repo_id}/revision/main?blobs=true"
    label = Phrase("the listing")
    transfer = _Transfer(url, headers)
    body = bytearray()
    try:
        for event in transfer.events(cancelled):
            if event[0] == "head":
                status = event[1]
                if status == 404:
                    raise DownloadError("{0}: no such model on {1}", repo_id, endpoint)
                if status in (401, 403):
                    raise DownloadError("{0}: no such model on {1}, or it needs a login (a gated or private model)",
                                        repo_id, endpoint)
                if status != 200:
                    raise DownloadError("{0}: the Hub answered {1}", repo_id, _status_text(status))
            elif event[0] == "data":
                body += event[1]
                if len(body) > LISTING_LIMIT:
                    raise DownloadError("{0}: the Hub's listing is not usable ({1})", repo_id,
                                        Phrase("it is larger than 16 MB"))
            elif event[0] == "error":
                raise _transfer_error(repo_id, label, transfer.url, event[1])
    finally:
        transfer.close()
    return bytes(body)


class _Reporter:
    """Passes progress on at most every PROGRESS_SECONDS (a Qt signal per 16 KB would flood the window)."""

    def __init__(self, meter: ProgressMeter, on_progress: Callable[[Progress], None]) -> None:
        self.meter = meter
        self._on_progress = on_progress
        self._last = 0.0

    def add(self, received: int, file: str, force: bool = False) -> None:
        progress = self.meter.add(received, file)
        now = time.monotonic()
        if force or now - self._last >= PROGRESS_SECONDS:
            self._last = now
            self._on_progress(progress)

    def skip(self, size: int, file: str) -> None:
        self._last = time.monotonic()
        self._on_progress(self.meter.skip(size, file))


def _fetch_file(repo_id: str, url: str, headers: dict[str, str], listed: ListedFile, target: Path,
                reporter: _Reporter, cancelled: Callable[[], bool]) -> None:
    """One file into `target`, refused (and the caller removes it) unless its size and hash match the listing."""
    name = listed.name
    hasher = listed.hasher()
    received = 0
    transfer = _Transfer(url, headers)
    try:
        with open(target, "xb") as out:
            for event in transfer.events(cancelled):
                if event[0] == "head":
                    status, length = event[1], event[2]
                    if status != 200:
                        raise DownloadError("{0}: {1}: the Hub answered {2}", repo_id, name, _status_text(status))
                    if length is not None and length.strip().isdigit() and int(length) != listed.size:
                        raise DownloadError("{0}: {1}: the Hub sends {2} bytes, the listing says {3}", repo_id, name,
                                            int(length), listed.size)
                elif event[0] == "data":
                    piece = event[1]
                    received += len(piece)
                    if received > listed.size:
                        raise DownloadError("{0}: {1}: the Hub sent more than the listing's {2} bytes", repo_id, name,
                                            listed.size)
                    hasher.update(piece)
                    out.write(piece)
                    reporter.add(len(piece), name)
                elif event[0] == "error":
                    raise _transfer_error(repo_id, name, transfer.url, event[1])
    finally:
        transfer.close()
    if received != listed.size:
        raise DownloadError("{0}: {1}: the Hub sent {2} bytes, the listing says {3}", repo_id, name, received,
                            listed.size)
    if hasher.hexdigest() != listed.digest:
        raise DownloadError("{0}: {1} does not match the listing's {2}: these are not the bytes the Hub lists, and "
                            "nothing was kept", repo_id, name, listed.algorithm_name)
    reporter.add(0, name, force=True)


def _matches(path: Path, listed: ListedFile, cancelled: Callable[[], bool]) -> bool:
    """True when the file at `path` (a blob already in the cache) has the listed size and hash."""
    try:
        if path.is_symlink() or not path.is_file() or path.stat().st_size != listed.size:
            return False
        hasher = listed.hasher()
        with open(path, "rb") as file:
            while piece := file.read(1 << 20):
                if cancelled():
                    raise DownloadCancelled
                hasher.update(piece)
    except OSError:
        return False
    return hasher.hexdigest() == listed.digest


def _check_family(repo_id: str, config: Path) -> None:
    """config.json must describe a model this program reads (a supported family, sizes in range), or the weights
    are not worth fetching: its CheckpointError, as a DownloadError with the same words."""
    try:
        config_from_dict(_config_document(config), f"{repo_id}: config.json")
    except CheckpointError as error:
        raise DownloadError(error.template, *error.values) from None


# ---------------------------------------------------------------- the cache


def _inside(path: Path, root: Path) -> bool:
    """True when `path`, every link on the way followed, is `root` or lies under it (`root` already resolved)."""
    return Path(os.path.realpath(path)).is_relative_to(root)


def _check_inside(repo_id: str, path: Path, root: Path) -> None:
    if not _inside(path, root):
        raise DownloadError("{0}: {1} is in the cache but leads outside it; nothing was written", repo_id, path)


def _remove_stale_temporaries(cache: Path) -> None:
    """Temporary folders of downloads whose program died (nothing in them has changed for STALE_SECONDS)."""
    limit = time.time() - STALE_SECONDS
    try:
        entries = [entry for entry in os.scandir(cache) if entry.name.startswith(TEMPORARY_PREFIX)]
    except OSError:
        return
    for entry in entries:
        try:
            if not entry.is_dir(follow_symlinks=False):
                continue
            times = [entry.stat(follow_symlinks=False).st_mtime]
            times += [item.stat(follow_symlinks=False).st_mtime for item in os.scandir(entry.path)]
        except OSError:
            continue
        if max(times) < limit:
            shutil.rmtree(entry.path, ignore_errors=True)


def _replace_entry(entry: Path, make: Callable[[Path], None]) -> None:
    """Make `entry` anew beside it and rename it into place: a link or file already there is replaced, never
    written through."""
    temporary = entry.with_name(f".{entry.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    if os.path.lexists(temporary):
        os.unlink(temporary)
    make(temporary)
    os.replace(temporary, entry)


def _link(entry: Path, blob: Path) -> None:
    def make(temporary: Path) -> None:
        try:
            os.symlink(f"../../blobs/{blob.name}", temporary)
        except OSError:  # no symbolic links here (Windows without developer mode): a copy, as huggingface_hub does
            shutil.copyfile(blob, temporary)

    _replace_entry(entry, make)


def _place(repo_id: str, cache: Path, root: Path, commit: str, files: dict[str, ListedFile],
           staged: dict[str, Path]) -> Path:
    """Move verified files into the cache's layout; returns the snapshot folder."""
    repository = repository_folder(cache, repo_id)
    blobs, snapshots, refs = repository / "blobs", repository / "snapshots", repository / "refs"
    snapshot = snapshots / commit
    new_repository, new_snapshot = not os.path.lexists(repository), not os.path.lexists(snapshot)
    try:
        for folder in (repository, blobs, snapshots, snapshot, refs):
            _check_inside(repo_id, folder, root)
            folder.mkdir(exist_ok=True)
        for name, path in staged.items():
            os.replace(path, blobs / files[name].digest)
        for name in DOWNLOAD_ORDER:  # the weights last: until they are there, the snapshot is not complete
            _link(snapshot / name, blobs / files[name].digest)
        _replace_entry(refs / "main", lambda temporary: temporary.write_text(commit, encoding="ascii"))
    except OSError as error:
        if new_repository:
            shutil.rmtree(repository, ignore_errors=True)
        elif new_snapshot:
            shutil.rmtree(snapshot, ignore_errors=True)
        raise DownloadError("{0}: cannot write into the cache {1} ({2})", repo_id, cache,
                            error.strerror or _one_line(error)) from None
    return snapshot


def download_model(repo_id: str, on_progress: Callable[[Progress], None] = lambda _progress: None,
                   cancelled: Callable[[], bool] = lambda: False, cache: Path | None = None) -> Path:
    """Fetch a model's three files into the Hugging Face cache; returns the snapshot folder the page lists.

    Runs in the caller's thread (the window calls it from a worker). DownloadCancelled within POLL_SECONDS of
    `cancelled()` turning true, DownloadError with a one-line message for anything else; either way nothing
    half-done stays, and nothing is ever written outside the cache. Files already in the cache with the listed
    hash are not fetched again.
    """
    if not hub_available():
        raise DownloadError("downloading needs the optional package huggingface_hub: {0}", HUB_INSTALL_HINT)
    if not isinstance(repo_id, str) or not is_model_id(repo_id):
        raise DownloadError("{0} is not a Hub model id (expected NAME or ORGANISATION/NAME: letters, digits, "
                            "'-', '_' and '.')", _shown(repo_id))
    endpoint = hub_endpoint()
    if not re.fullmatch(r"https?://[^/\s?#]+(/[^\s?#]*)?", endpoint):
        raise DownloadError("HF_ENDPOINT {0} is not an http or https address", _shown(endpoint))
    if _offline():
        raise DownloadError("downloading is switched off on this computer (HF_HUB_OFFLINE is set)")
    cache = Path(cache) if cache is not None else hub_cache_dir()
    headers = _request_headers()
    commit, files = read_listing(repo_id, _fetch_listing(repo_id, endpoint, headers, cancelled))
    try:
        cache.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise DownloadError("{0}: cannot write into the cache {1} ({2})", repo_id, cache,
                            error.strerror or _one_line(error)) from None
    root = Path(os.path.realpath(cache))
    repository = repository_folder(cache, repo_id)
    for folder in (repository, repository / "blobs", repository / "snapshots" / commit):
        _check_inside(repo_id, folder, root)
    _remove_stale_temporaries(cache)
    reporter = _Reporter(ProgressMeter(sum(listed.size for listed in files.values())), on_progress)
    reporter.add(0, DOWNLOAD_ORDER[0], force=True)
    have = {name for name, listed in files.items()
            if _matches(repository / "blobs" / listed.digest, listed, cancelled)}
    needed = sum(files[name].size for name in DOWNLOAD_ORDER if name not in have)
    try:
        free = shutil.disk_usage(cache).free
    except OSError:
        free = None
    if free is not None and needed > free:
        raise DownloadError("{0}: not enough free space in {1}: the model needs {2}, and {3} are free", repo_id,
                            cache, size_text(needed), size_text(free))
    staging = Path(tempfile.mkdtemp(prefix=TEMPORARY_PREFIX, dir=cache))
    try:
        staged = {}
        for name in DOWNLOAD_ORDER:
            listed = files[name]
            if name in have:
                reporter.skip(listed.size, name)
            else:
                if cancelled():
                    raise DownloadCancelled
                staged[name] = staging / name
                _fetch_file(repo_id, f"{endpoint}/{repo_id}/resolve/{commit}/{name}", headers, listed,
                            staged[name], reporter, cancelled)
            if name == "config.json":
                _check_family(repo_id, staged.get(name, repository / "blobs" / listed.digest))
        snapshot = _place(repo_id, cache, root, commit, files, staged)
    except OSError as error:
        raise DownloadError("{0}: cannot write into the cache {1} ({2})", repo_id, cache,
                            error.strerror or _one_line(error)) from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    reporter.add(0, WEIGHTS, force=True)
    return snapshot
