"""Get a model from the Hugging Face Hub into the Hugging Face cache, only when the user asks for it.

Uses `huggingface_hub` (pip install "attention-explorer[hub]"), imported only when a download starts. Only the
three files the page reads are fetched (config.json, tokenizer.json, model.safetensors), into the same cache the
page lists models from. A cancelled or failed download leaves no snapshot that the page would list.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from attention_explorer.core.messages import TemplateError
from attention_explorer.core.pretrained.checkpoint import hub_cache_dir

HUB_PACKAGE = "huggingface_hub"
HUB_INSTALL_HINT = 'pip install "attention-explorer[hub]"'
DEFAULT_ENDPOINT = "https://huggingface.co"
# The small files first: the weights, by far the largest, come last, so a cancel mostly lands in them.
DOWNLOAD_ORDER = ("config.json", "tokenizer.json", "model.safetensors")


@dataclass(frozen=True)
class HubModel:
    """A model the Get a model… dialog offers: its Hub id, its family, and roughly how much it downloads."""

    repo_id: str
    family: str  # "bert" or "gpt2"
    approximate_bytes: int

    @property
    def short_name(self) -> str:
        """The name after the organisation ("all-MiniLM-L6-v2")."""
        return self.repo_id.rsplit("/", 1)[-1]


MODEL_CHOICES = (
    HubModel("sentence-transformers/all-MiniLM-L6-v2", "bert", 91_000_000),
    HubModel("google-bert/bert-base-uncased", "bert", 441_000_000),
    HubModel("openai-community/gpt2", "gpt2", 550_000_000),
    HubModel("distilbert/distilgpt2", "gpt2", 355_000_000),
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
    """True when huggingface_hub is installed."""
    return importlib.util.find_spec(HUB_PACKAGE) is not None


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
        self._clock = clock
        self._start = clock()

    def add(self, received: int, file: str) -> Progress:
        """Count `received` more bytes of `file`."""
        self.done += received
        elapsed = self._clock() - self._start
        seconds_left = None
        if self.done > 0 and elapsed > 0 and self.total >= self.done:
            seconds_left = (self.total - self.done) * elapsed / self.done
        return Progress(self.done, max(self.total, self.done), seconds_left, file)


def _one_line(error: BaseException) -> str:
    text = " ".join(str(error).split())
    return text if len(text) <= 200 else text[:199] + "…"


def _repository_folder(cache: Path, repo_id: str) -> Path:
    """The cache's folder for a model repository (models--org--name)."""
    return cache / ("models--" + repo_id.replace("/", "--"))


def cached_snapshot(repo_id: str, cache: Path | None = None) -> Path | None:
    """A snapshot of `repo_id` already in the cache with all three files, or None (reads the disk only)."""
    snapshots = _repository_folder(Path(cache) if cache is not None else hub_cache_dir(), repo_id) / "snapshots"
    try:
        found = sorted(snapshots.iterdir())
    except OSError:
        return None
    return next((folder for folder in found if all((folder / name).is_file() for name in DOWNLOAD_ORDER)), None)


def _progress_bar_class(meter: ProgressMeter, file: str, on_progress: Callable[[Progress], None],
                        cancelled: Callable[[], bool]) -> type:
    """A stand-in for tqdm that huggingface_hub updates as bytes arrive; raising in `update` stops the transfer."""

    class Bar:
        def __init__(self, *args, initial: int = 0, **kwargs) -> None:
            if initial:  # a resumed .incomplete file: those bytes are already here
                on_progress(meter.add(int(initial), file))

        def __enter__(self) -> Bar:
            return self

        def __exit__(self, *exc_info) -> None:
            pass

        def update(self, received: int | float | None = 1) -> None:
            if cancelled():
                raise DownloadCancelled
            on_progress(meter.add(int(received or 0), file))

        def close(self) -> None:
            pass

    return Bar


def _listing(repo_id: str, endpoint: str):
    """The repository's commit and file sizes, from GET /api/models/{repo}/revision/main?blobs=True."""
    import httpx2
    from huggingface_hub import HfApi
    from huggingface_hub.errors import HfHubHTTPError, OfflineModeIsEnabled, RepositoryNotFoundError

    try:
        return HfApi(endpoint=endpoint).model_info(repo_id, revision="main", files_metadata=True)
    except (httpx2.ConnectError, httpx2.TimeoutException, OfflineModeIsEnabled) as error:
        raise DownloadError("cannot reach {0}: is this computer online? ({1})", endpoint, _one_line(error)) from None
    except RepositoryNotFoundError:
        raise DownloadError("{0}: no such model on {1}", repo_id, endpoint) from None
    except HfHubHTTPError as error:
        raise DownloadError("{0}: the Hub answered {1}", repo_id, _one_line(error)) from None
    except httpx2.HTTPError as error:
        raise DownloadError("cannot reach {0}: is this computer online? ({1})", endpoint, _one_line(error)) from None


def download_model(repo_id: str, on_progress: Callable[[Progress], None] = lambda _progress: None,
                   cancelled: Callable[[], bool] = lambda: False, cache: Path | None = None) -> Path:
    """Fetch a model's three files into the Hugging Face cache; returns the snapshot folder the page lists.

    Runs in the caller's thread (the window calls it from a worker). DownloadCancelled when `cancelled()` turns
    true, DownloadError with a one-line message for anything else; either way nothing half-done stays listed.
    """
    if not hub_available():
        raise DownloadError("downloading needs the optional package huggingface_hub: {0}", HUB_INSTALL_HINT)
    # Only the files asked for: no usage report in the user agent, and no fetch of the Hub's agent registry.
    os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")
    import httpx2
    from huggingface_hub import hf_hub_download
    from huggingface_hub.errors import HfHubHTTPError

    cache = Path(cache) if cache is not None else hub_cache_dir()
    endpoint = hub_endpoint()
    info = _listing(repo_id, endpoint)
    sizes = {sibling.rfilename: sibling.size or 0 for sibling in info.siblings or ()}
    missing = [name for name in DOWNLOAD_ORDER if name not in sizes]
    if missing:
        raise DownloadError("{0}: the model has no {1}, which this program needs", repo_id, ", ".join(missing))
    repository = _repository_folder(cache, repo_id)
    snapshot = repository / "snapshots" / str(info.sha)
    existed = repository.exists(), snapshot.exists()
    meter = ProgressMeter(sum(sizes[name] for name in DOWNLOAD_ORDER))
    on_progress(meter.add(0, DOWNLOAD_ORDER[0]))
    try:
        for name in DOWNLOAD_ORDER:
            if cancelled():
                raise DownloadCancelled
            hf_hub_download(repo_id, name, revision=info.sha, cache_dir=str(cache), endpoint=endpoint,
                            tqdm_class=_progress_bar_class(meter, name, on_progress, cancelled))
    except DownloadCancelled:
        _remove_partial(repository, snapshot, existed)
        raise
    except (httpx2.HTTPError, HfHubHTTPError, OSError) as error:
        _remove_partial(repository, snapshot, existed)
        raise DownloadError("{0}: the download stopped ({1})", repo_id, _one_line(error)) from None
    return snapshot


def _remove_partial(repository: Path, snapshot: Path, existed: tuple[bool, bool]) -> None:
    """Take away what an unfinished download made: the whole repository folder if it is new, else the new
    snapshot and the .incomplete blobs (a snapshot without model.safetensors is never listed, but takes room)."""
    repository_existed, snapshot_existed = existed
    if not repository_existed:
        shutil.rmtree(repository, ignore_errors=True)
        return
    if not snapshot_existed:
        shutil.rmtree(snapshot, ignore_errors=True)
    for partial in (repository / "blobs").glob("*.incomplete"):
        partial.unlink(missing_ok=True)
