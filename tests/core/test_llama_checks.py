"""A Llama or Qwen2 folder that cannot be used is one clear line: config.json, the headers, the shards, memory.

Every refusal happens before any tensor is read (checkpoint.read_tensors is never called).
"""

from __future__ import annotations

import json
import math
import shutil

import numpy as np
import pytest

from attention_explorer.core.pretrained import checkpoint, weights_size
from attention_explorer.core.pretrained.checkpoint import CheckpointError, load_checkpoint, read_config, tensor_shapes
from tests.helpers.safetensors_layout import layout, write
from tests.helpers.tiny_llama import (
    config_document,
    random_tensors,
    tiny_llama_dir,
    tiny_llama_variants,
    tiny_qwen2_dir,
)

assert tiny_llama_dir and tiny_qwen2_dir and tiny_llama_variants  # fixtures: pytest finds them through this import


@pytest.fixture
def nothing_read(monkeypatch):
    read = []
    monkeypatch.setattr(checkpoint, "read_tensors", lambda *args: read.append(args))
    yield read
    assert read == []


def _copy(tmp_path, folder, name="broken"):
    target = tmp_path / name
    shutil.copytree(folder, target)
    return target


def _with_config(tmp_path, folder, drop=(), **changes):
    target = _copy(tmp_path, folder)
    document = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    document = {key: value for key, value in {**document, **changes}.items() if key not in drop}
    (target / "config.json").write_text(json.dumps(document), encoding="utf-8")
    return target


@pytest.mark.parametrize(("changes", "message"), [
    ({"rope_scaling": {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                       "original_max_position_embeddings": 8192}},
     r'rope_scaling: "factor" is not supported \(only rope_type, rope_theta\)'),
    ({"rope_scaling": {"rope_type": "llama3"}}, r'rope_scaling: RoPE of type "llama3" is not supported \(only the '
                                                r'original RoPE, "default", without scaling\)'),
    ({"rope_scaling": {"type": "linear"}}, 'RoPE of type "linear" is not supported'),
    ({"rope_parameters": {"rope_type": "yarn", "rope_theta": 10000.0}}, 'rope_parameters: RoPE of type "yarn"'),
    ({"rope_scaling": {"type": "dynamic"}, "rope_parameters": {"rope_type": "default"}}, 'of type "dynamic"'),
    ({"rope_scaling": [1, 2]}, "rope_scaling: expected an object or null, got a list"),
    ({"partial_rotary_factor": 0.5}, r"partial_rotary_factor 0.5 is not supported \(RoPE on every dimension only\)"),
    ({"rope_interleaved": True}, "rope_interleaved true is not supported"),
    ({"hidden_act": "gelu"}, r"hidden_act 'gelu' is not supported \(supported: silu, swish\)"),
    ({"num_key_value_heads": 3}, "num_attention_heads 4 is not a multiple of num_key_value_heads 3"),
    ({"head_dim": 15}, "head_dim 15 is odd; RoPE turns pairs of numbers and needs an even head size"),
    ({"head_dim": None, "num_attention_heads": 5}, "hidden_size 64 is not a multiple of num_attention_heads 5"),
    ({"rope_theta": "10000"}, "rope_theta: expected a number, got a string"),
    ({"rope_theta": 0.5}, r"rope_theta: 0.5 is out of range \(above 1, at most 1e\+12\)"),
    ({"rope_theta": 10**400}, r"rope_theta: 100… \(401 digits\) is out of range"),
    ({"tie_word_embeddings": "yes"}, "tie_word_embeddings: expected true or false, got a string"),
    ({"rms_norm_eps": 2}, "rms_norm_eps: 2 is out of range"),
    ({"num_hidden_layers": 3}, r"tensor model\.layers\.2\.input_layernorm\.weight is missing"),
    ({"intermediate_size": 100}, r"tensor model\.layers\.0\.mlp\.gate_proj\.weight: expected shape \(100, 64\), got "
                                 r"\(112, 64\) \(does config.json belong to these weights\?\)"),
    ({"num_key_value_heads": 4}, r"k_proj\.weight: expected shape \(64, 64\), got \(32, 64\)"),
    ({"attention_bias": True}, r"tensor model\.layers\.0\.self_attn\.q_proj\.bias is missing"),
    ({"mlp_bias": True}, r"tensor model\.layers\.0\.mlp\.gate_proj\.bias is missing"),
])
def test_unusable_llama_configs_are_one_clear_message(tmp_path, tiny_llama_dir, nothing_read, changes, message):
    folder = _with_config(tmp_path, tiny_llama_dir, **changes)
    with pytest.raises(CheckpointError, match=message) as caught:
        load_checkpoint(folder)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(("changes", "message"), [
    ({"use_sliding_window": True}, r"use_sliding_window true is not supported \(only full causal attention\)"),
    ({"layer_types": ["full_attention", "sliding_attention"]},
     r'layer type "sliding_attention" is not supported \(only "full_attention"\)'),
    ({"tie_word_embeddings": False}, "tensor lm_head.weight is missing"),
    ({"num_attention_heads": None}, "num_attention_heads: expected a whole number, got null"),
])
def test_unusable_qwen2_configs_are_one_clear_message(tmp_path, tiny_qwen2_dir, nothing_read, changes, message):
    with pytest.raises(CheckpointError, match=message):
        load_checkpoint(_with_config(tmp_path, tiny_qwen2_dir, **changes))


def test_a_missing_size_is_named_and_defaults_are_transformers(tmp_path, tiny_llama_dir):
    with pytest.raises(CheckpointError, match=r"config.json: intermediate_size is missing"):
        load_checkpoint(_with_config(tmp_path, tiny_llama_dir, drop=("intermediate_size",)))
    document = config_document("qwen2", 300, tied=True)
    for key in ("num_key_value_heads", "max_position_embeddings", "rope_theta", "rope_scaling", "rms_norm_eps"):
        del document[key]
    config = checkpoint.config_from_dict(document)
    assert (config.num_kv_heads, config.max_position_embeddings, config.rope_theta, config.rms_norm_eps) == (
        4, 32768, 10000.0, 1e-6)
    assert checkpoint.config_from_dict({**document, "model_type": "llama"}).max_position_embeddings == 2048


def test_a_tensor_of_another_kind_is_refused_by_its_dtype(tmp_path, tiny_llama_dir, nothing_read):
    folder = _copy(tmp_path, tiny_llama_dir)
    tensors = random_tensors("llama", json.loads((folder / "config.json").read_text())["vocab_size"], tied=False)
    name = "model.layers.1.mlp.up_proj.weight"
    declared = {key: ("F32", value.shape) for key, value in tensors.items()}
    declared[name] = ("I32", tensors[name].shape)
    write(folder / "model.safetensors", layout(declared))
    with pytest.raises(CheckpointError, match=f"tensor {name} holds I32; only F64, F32, F16 and BF16 tensors can be "
                                              "read"):
        load_checkpoint(folder)


def test_fp16_weights_are_widened_to_float32(tmp_path, tiny_llama_dir):
    from safetensors.numpy import save_file

    folder = _copy(tmp_path, tiny_llama_dir)
    tensors = random_tensors("llama", json.loads((folder / "config.json").read_text())["vocab_size"], tied=False)
    save_file({name: value.astype(np.float16) for name, value in tensors.items()}, str(folder / "model.safetensors"))
    model = load_checkpoint(folder)
    try:
        query = model.weights.blocks[0].query_weight
        assert query.dtype == np.float32
        np.testing.assert_array_equal(query, tensors["model.layers.0.self_attn.q_proj.weight"].astype(np.float16))
    finally:
        model.tokenizer.close()


def _sharded(tmp_path, tiny_llama_variants):
    folder = _copy(tmp_path, tiny_llama_variants["llama-sharded"])
    index = json.loads((folder / "model.safetensors.index.json").read_text(encoding="utf-8"))
    return folder, index


def _write_index(folder, index):
    (folder / "model.safetensors.index.json").write_text(json.dumps(index), encoding="utf-8")


@pytest.mark.parametrize("shard", ["../model-00001-of-00002.safetensors", "/etc/passwd", "sub/model.safetensors",
                                   "..", ".", "C:\\model.safetensors", "a\nb.safetensors", "", 7, None,
                                   ".hidden.safetensors", "x..safetensors"])
def test_an_index_naming_anything_but_a_plain_file_in_the_folder_is_refused(tmp_path, tiny_llama_variants,
                                                                            nothing_read, shard):
    folder, index = _sharded(tmp_path, tiny_llama_variants)
    index["weight_map"]["model.norm.weight"] = shard
    _write_index(folder, index)
    with pytest.raises(CheckpointError, match=r"model\.safetensors\.index\.json: tensor model\.norm\.weight is said "
                                              r"to be in .*, which is not a plain file name in the model's folder"):
        load_checkpoint(folder)


def _elsewhere(folder, index):
    """The index puts model.norm.weight in the other shard."""
    first, second = "model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors"
    index["weight_map"]["model.norm.weight"] = second if index["weight_map"]["model.norm.weight"] == first else first


@pytest.mark.parametrize(("change", "message"), [
    (_elsewhere, r"tensor model\.norm\.weight is said to be in model-0000[12]-of-00002\.safetensors, which does not "
                 r"declare it"),
    (lambda folder, index: (folder / "model-00002-of-00002.safetensors").unlink(),
     r"model-00002-of-00002\.safetensors: no such file"),
    (lambda folder, index: index.pop("weight_map"), "expected an object with a weight_map naming the file of each"),
    (lambda folder, index: index["weight_map"].pop("model.norm.weight"), r"tensor model\.norm\.weight is missing"),
])
def test_a_broken_index_is_one_clear_message(tmp_path, tiny_llama_variants, nothing_read, change, message):
    folder, index = _sharded(tmp_path, tiny_llama_variants)
    change(folder, index)
    _write_index(folder, index)
    with pytest.raises(CheckpointError, match=message):
        load_checkpoint(folder)


def test_an_index_with_a_name_given_twice_or_not_json_is_refused(tmp_path, tiny_llama_variants, nothing_read):
    folder, _index = _sharded(tmp_path, tiny_llama_variants)
    (folder / "model.safetensors.index.json").write_text('{"weight_map": {"a": "x", "a": "y"}}', encoding="utf-8")
    with pytest.raises(CheckpointError, match=r"index\.json: a is given twice"):
        load_checkpoint(folder)
    (folder / "model.safetensors.index.json").write_text('{"weight_map": ', encoding="utf-8")
    with pytest.raises(CheckpointError, match=r"index.json: not valid JSON \("):
        load_checkpoint(folder)


def test_a_shard_with_a_bad_header_is_refused_before_any_tensor_is_read(tmp_path, tiny_llama_variants,
                                                                         nothing_read):
    folder, _index = _sharded(tmp_path, tiny_llama_variants)
    (folder / "model-00002-of-00002.safetensors").write_bytes(b"\x02\x00\x00\x00\x00\x00\x00\x00[]")
    with pytest.raises(CheckpointError, match=r"model-00002-of-00002\.safetensors: the header is not a JSON object"):
        load_checkpoint(folder)


def test_a_folder_with_only_an_index_is_a_model_folder(tmp_path, tiny_llama_variants):
    folder, _index = _sharded(tmp_path, tiny_llama_variants)
    assert not (folder / "model.safetensors").exists()
    assert checkpoint.check_folder(folder) == folder
    (folder / "model.safetensors.index.json").unlink()
    with pytest.raises(CheckpointError, match=r"model\.safetensors is missing \(a model folder holds"):
        checkpoint.check_folder(folder)


class _EveryName:
    """Names that hold every tensor name: the tensors config.json asks for."""

    def __contains__(self, name: object) -> bool:
        return True


QWEN25_05B = {"vocab_size": 151936, "hidden_size": 896, "intermediate_size": 4864, "num_hidden_layers": 24,
              "num_attention_heads": 14, "num_key_value_heads": 2, "max_position_embeddings": 32768,
              "rope_theta": 1000000.0, "tie_word_embeddings": True}


def test_qwen2_5_0_5b_in_bf16_is_counted_as_float32_and_refused_from_its_header(tmp_path, tiny_qwen2_dir,
                                                                                  monkeypatch, nothing_read):
    """Qwen2.5-0.5B's config and a BF16 header of its shapes, no byte of the data there (a hole)."""
    folder = _copy(tmp_path, tiny_qwen2_dir, "qwen2.5-0.5b")
    document = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    document = {key: value for key, value in document.items() if key != "head_dim"} | QWEN25_05B
    (folder / "config.json").write_text(json.dumps(document), encoding="utf-8")
    config = read_config(folder / "config.json")
    shapes = tensor_shapes(config, _EveryName())
    assert config.head_size == 64 and config.kv_heads == (0,) * 7 + (1,) * 7
    write(folder / "model.safetensors", layout({name: ("BF16", shape) for name, shape in shapes.items()}))
    numbers = sum(math.prod(shape) for shape in shapes.values())
    assert numbers == 494_032_768  # the 0.49 B parameters Qwen2.5-0.5B's model card gives
    embeddings = 151936 * 896
    # every number kept as float32, the embeddings' 2 bytes a number once more while they are widened, and the
    # largest matrix a product widens (8192 rows of the tied head, 7.3 M numbers) twice in float64
    needed = 4 * numbers + 2 * embeddings + 16 * 8192 * 896
    assert needed == 2_365_840_896
    monkeypatch.setattr(weights_size, "available_memory_bytes", lambda: 2_000_000_000)
    with pytest.raises(CheckpointError, match=r"model.safetensors: this model needs about 2366 MB of memory to load, "
                                              r"and only 2000 MB are free"):
        load_checkpoint(folder)
