"""Get a model: the real huggingface_hub code path against a local server in the Hub's URL layout."""

from __future__ import annotations

import threading

import pytest

pytest.importorskip("huggingface_hub", reason="downloads need the 'hub' extra")

from attention_explorer.core.pretrained.checkpoint import find_cached_checkpoints, load_checkpoint
from attention_explorer.core.pretrained.download import (
    DownloadCancelled,
    DownloadError,
    ProgressMeter,
    download_model,
    size_text,
)
from tests.hub_server import COMMIT, closed_port_url, start_hub
from tests.tiny_bert import tiny_bert_dir

assert tiny_bert_dir  # a fixture: pytest finds it through this import
REPO = "sentence-transformers/all-MiniLM-L6-v2"


@pytest.fixture
def hub(tiny_bert_dir, tmp_path, monkeypatch):
    """The local Hub, with HF_ENDPOINT pointing at it and an empty cache under HF_HOME."""
    hub, server = start_hub(tiny_bert_dir)
    monkeypatch.setenv("HF_ENDPOINT", hub.url)
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf-home"))
    monkeypatch.delenv("HF_HUB_CACHE", raising=False)
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    yield hub
    hub.weights_gate.set()
    server.shutdown()
    server.server_close()


def test_a_download_lands_in_the_cache_and_is_listed(hub, tmp_path, tiny_bert_dir):
    reports = []
    snapshot = download_model(REPO, reports.append)
    hub_dir = tmp_path / "hf-home" / "hub"
    assert snapshot == hub_dir / "models--sentence-transformers--all-MiniLM-L6-v2" / "snapshots" / COMMIT
    assert [(model.name, model.path) for model in find_cached_checkpoints(hub_dir)] == [(REPO, snapshot)]
    assert (snapshot / "model.safetensors").read_bytes() == (tiny_bert_dir / "model.safetensors").read_bytes()
    assert load_checkpoint(snapshot).config.num_layers == 2
    total = sum(len(data) for data in hub.files.values())
    assert reports[-1].done == reports[-1].total == total
    assert [report.done for report in reports] == sorted(report.done for report in reports)
    asked = [request for request in hub.requests if "agent-harnesses" not in request]  # the hub's own telemetry
    assert asked[0].startswith(f"GET /api/models/{REPO}/revision/main")
    assert f"HEAD /{REPO}/resolve/{COMMIT}/model.safetensors" in hub.requests
    assert f"GET /{REPO}/resolve/{COMMIT}/model.safetensors" in hub.requests
    assert not any("pytorch_model.bin" in request for request in hub.requests)  # only the three files


def test_a_cancelled_download_leaves_no_model_behind(hub, tmp_path):
    hub.weights_gate.clear()
    stop = threading.Event()
    outcome = []

    def run():
        try:
            download_model(REPO, cancelled=stop.is_set)
        except DownloadCancelled as cancelled:
            outcome.append(cancelled)

    worker = threading.Thread(target=run)
    worker.start()
    assert hub.weights_started.wait(10)  # half of model.safetensors is on its way
    stop.set()
    hub.weights_gate.set()
    worker.join(10)
    assert outcome and isinstance(outcome[0], DownloadCancelled)
    hub_dir = tmp_path / "hf-home" / "hub"
    assert find_cached_checkpoints(hub_dir) == []
    assert not (hub_dir / "models--sentence-transformers--all-MiniLM-L6-v2").exists()


def test_no_server_gives_one_line_about_the_network(monkeypatch, tmp_path):
    url = closed_port_url()
    monkeypatch.setenv("HF_ENDPOINT", url)
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf-home"))
    with pytest.raises(DownloadError) as caught:
        download_model(REPO)
    message = str(caught.value)
    assert message.startswith(f"cannot reach {url}: is this computer online? (") and "\n" not in message
    assert not (tmp_path / "hf-home" / "hub").exists() or find_cached_checkpoints(tmp_path / "hf-home" / "hub") == []


def test_sizes_and_time_left():
    assert [size_text(n) for n in (812, 41_300, 90_900_000, 1_200_000_000)] == ["812 B", "41.3 KB", "90.9 MB",
                                                                               "1.2 GB"]
    now = iter([0.0, 2.0, 4.0])
    meter = ProgressMeter(1000, clock=lambda: next(now))
    assert meter.add(250, "a").seconds_left == pytest.approx(6.0)  # 250 B in 2 s: 750 B take 6 s more
    last = meter.add(250, "a")
    assert (last.done, last.total, last.seconds_left) == (500, 1000, pytest.approx(4.0))
