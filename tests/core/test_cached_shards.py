"""Sharded models (model.safetensors.index.json and its shards) in the Hugging Face cache: listed by the page's list,
by Get a model…'s marks and by `attention-explorer models`, only when every shard the index names is there whole."""

from __future__ import annotations

import json
import shutil

import pytest

from attention_explorer.app import main
from attention_explorer.core.pretrained.checkpoint import find_cached_checkpoints, is_complete_snapshot
from attention_explorer.core.pretrained.download import cached_snapshot, size_text
from tests.helpers.tiny_llama import tiny_llama_variants

assert tiny_llama_variants  # a fixture: pytest finds it through this import
REPO = "Qwen/Qwen2.5-1.5B"
COMMIT = "0123456789abcdef0123456789abcdef01234567"


@pytest.fixture
def sharded_snapshot(tmp_path, monkeypatch, tiny_llama_variants):
    """The tiny Qwen2 in three BF16 shards, placed in an empty cache as a download would leave it."""
    home = tmp_path / "hf-home"
    monkeypatch.setenv("HF_HOME", str(home))
    monkeypatch.delenv("HF_HUB_CACHE", raising=False)
    repository = home / "hub" / "models--Qwen--Qwen2.5-1.5B"
    snapshot = repository / "snapshots" / COMMIT
    shutil.copytree(tiny_llama_variants["qwen2-bf16-sharded"], snapshot)
    (repository / "refs").mkdir()
    (repository / "refs" / "main").write_text(COMMIT, encoding="utf-8")
    return home / "hub", snapshot


def test_a_sharded_model_is_listed_everywhere_with_the_size_of_all_its_files(sharded_snapshot, capsys):
    cache, snapshot = sharded_snapshot
    assert not (snapshot / "model.safetensors").exists()
    assert [(model.name, model.path) for model in find_cached_checkpoints(cache)] == [(REPO, snapshot)]
    assert cached_snapshot(REPO, cache) == snapshot  # Get a model… marks it as on this computer
    assert main(["models"]) == 0
    out, err = capsys.readouterr()
    size = sum(path.stat().st_size for path in snapshot.iterdir())  # config, tokenizer, index and three shards
    assert len(list(snapshot.glob("model-*.safetensors"))) == 3
    assert (out, err) == (f"{REPO}\tqwen2\t{size_text(size)}\t{snapshot}\n", "")


@pytest.mark.parametrize("damage", ["missing shard", "cut shard", "index naming a folder", "no index"])
def test_a_sharded_model_with_a_shard_missing_or_cut_is_not_listed(sharded_snapshot, damage):
    cache, snapshot = sharded_snapshot
    shard = snapshot / "model-00002-of-00003.safetensors"
    if damage == "missing shard":
        shard.unlink()
    elif damage == "cut shard":
        shard.write_bytes(shard.read_bytes()[:-1])
    elif damage == "index naming a folder":
        index = snapshot / "model.safetensors.index.json"
        document = json.loads(index.read_text(encoding="utf-8"))
        name = next(iter(document["weight_map"]))
        document["weight_map"][name] = "../model-00002-of-00003.safetensors"
        index.write_text(json.dumps(document), encoding="utf-8")
    else:
        (snapshot / "model.safetensors.index.json").unlink()
    assert not is_complete_snapshot(snapshot, cache)
    assert find_cached_checkpoints(cache) == [] and cached_snapshot(REPO, cache) is None


def test_a_chinese_sentence_opens_bert_base_chinese_then_qwen_then_any_so_named():
    from attention_explorer.core.pretrained.download import chinese_model, reads_chinese

    names = ["HuggingFaceTB/SmolLM2-135M", "Qwen/Qwen2.5-0.5B", "google-bert/bert-base-chinese"]
    assert chinese_model(names) == 2
    assert chinese_model(names[:2]) == 1
    assert chinese_model(["openai-community/gpt2", "someone/tiny-Chinese-bert"]) == 1
    assert chinese_model(["openai-community/gpt2", "sentence-transformers/all-MiniLM-L6-v2"]) == -1
    assert chinese_model([]) == -1
    assert reads_chinese("Qwen/Qwen2.5-1.5B") and not reads_chinese("HuggingFaceTB/SmolLM2-135M")
