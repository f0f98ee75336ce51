"""Get a model for the Llama family: the further choices, and a Qwen2 or Llama through a local stand-in for the Hub.

No real model can be fetched here (no network to the Hub): the tiny Qwen2 is served under Qwen2.5-0.5B's id.
"""

from __future__ import annotations

import json

import pytest

pytest.importorskip("huggingface_hub", reason="downloads need the 'hub' extra")

from attention_explorer.core.pretrained.checkpoint import (
    SUPPORTED_MODEL_TYPES,
    find_cached_checkpoints,
    load_checkpoint,
)
from attention_explorer.core.pretrained.download import (
    FURTHER_MODEL_CHOICES,
    MODEL_CHOICES,
    DownloadError,
    download_model,
    is_model_id,
)
from tests.helpers.hub_server import COMMIT, WEIGHTS, start_hub, stop_hub
from tests.helpers.tiny_llama import tiny_llama_dir, tiny_qwen2_dir

assert tiny_llama_dir and tiny_qwen2_dir  # fixtures: pytest finds them through this import


@pytest.fixture
def home(tmp_path, monkeypatch):
    home = tmp_path / "hf-home"
    monkeypatch.setenv("HF_HOME", str(home))
    for name in ("HF_HUB_CACHE", "HF_HUB_OFFLINE", "HF_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    return home


def _serve(folder, monkeypatch):
    hub, server = start_hub(folder)
    monkeypatch.setenv("HF_ENDPOINT", hub.url)
    return hub, server


def test_the_further_choices_are_supported_families_with_their_sizes():
    assert [(choice.short_name, choice.family) for choice in FURTHER_MODEL_CHOICES] == [
        ("SmolLM2-135M", "llama"), ("Qwen2.5-0.5B", "qwen2"), ("bert-base-chinese", "bert")]
    for choice in FURTHER_MODEL_CHOICES:
        assert choice.family in SUPPORTED_MODEL_TYPES and is_model_id(choice.repo_id)
        assert 100_000_000 < choice.approximate_bytes < 1_500_000_000
    assert set(FURTHER_MODEL_CHOICES) <= set(MODEL_CHOICES)  # offered by Get a model… and `download` alike


def test_a_qwen2_downloads_lands_in_the_cache_and_loads(tiny_qwen2_dir, home, monkeypatch):
    hub, server = _serve(tiny_qwen2_dir, monkeypatch)
    try:
        snapshot = download_model("Qwen/Qwen2.5-0.5B")
    finally:
        stop_hub(hub, server)
    cache = home / "hub"
    assert snapshot == cache / "models--Qwen--Qwen2.5-0.5B" / "snapshots" / COMMIT
    assert [model.name for model in find_cached_checkpoints(cache)] == ["Qwen/Qwen2.5-0.5B"]
    model = load_checkpoint(snapshot)
    try:
        assert (model.name, model.model_type, model.num_kv_heads) == ("Qwen/Qwen2.5-0.5B", "qwen2", 2)
    finally:
        model.tokenizer.close()


def test_a_llama_with_a_scaled_rope_is_refused_before_its_weights_are_fetched(tiny_llama_dir, home, monkeypatch):
    hub, server = _serve(tiny_llama_dir, monkeypatch)
    config = json.loads(hub.files["config.json"])
    hub.files["config.json"] = json.dumps({**config, "rope_scaling": {"rope_type": "llama3"}}).encode()
    try:
        with pytest.raises(DownloadError) as caught:
            download_model("meta-llama/Llama-3.2-1B")
    finally:
        stop_hub(hub, server)
    assert 'RoPE of type "llama3" is not supported' in str(caught.value) and "\n" not in str(caught.value)
    assert not any(WEIGHTS in request for request in hub.requests)
    assert find_cached_checkpoints(home / "hub") == []
