"""Tiny Llama and Qwen2 models built on the spot, without PyTorch: seeded random weights, a small byte-level BPE.

hidden 64, 2 layers, 4 query heads of 16 sharing 2 K/V heads (grouped-query attention), intermediate 112, 64
positions. The weights are written with safetensors.numpy (float32), or by hand as BF16 (each float32 rounded to
the nearest bfloat16, ties to even, as PyTorch rounds), or split over two shards with an index; config.json is
written by hand as a real checkpoint's (transformers 4's rope_theta, or transformers 5's rope_parameters).
Import the fixtures into a test module (`from tests.helpers.tiny_llama import tiny_llama_dir`); each folder is made once
per session.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from tests.helpers.safetensors_layout import layout, write

HIDDEN = 64
LAYERS = 2
HEADS = 4
KV_HEADS = 2
HEAD_SIZE = HIDDEN // HEADS
INTERMEDIATE = 112
POSITIONS = 64
CORPUS = ["I love Beijing", "the cat sat on the mat.", "a dog sat on a cat", "我爱北京天安门", "hello world",
          "attention is all you need", "the cat loves the dog", "我 爱 北京"] * 4
BOS, EOS = "<s>", "</s>"


def build_tokenizer(bos: bool):
    """Byte-level BPE as SmolLM2's and Qwen2's; with `bos`, every sentence starts with <s>, as Llama's do."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, processors, trainers

    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tokenizer.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=300, special_tokens=[BOS, EOS], show_progress=False,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    tokenizer.train_from_iterator(CORPUS, trainer=trainer)
    if bos:
        tokenizer.post_processor = processors.TemplateProcessing(
            single=f"{BOS} $A", pair=f"{BOS} $A {BOS} $B", special_tokens=[(BOS, tokenizer.token_to_id(BOS))])
    return tokenizer


def config_document(family: str, vocab_size: int, tied: bool, rope: str = "v4", **changes) -> dict:
    """config.json as transformers writes it for LlamaForCausalLM or Qwen2ForCausalLM (`rope` "v4": rope_theta and
    rope_scaling null at the top level; "v5": rope_parameters)."""
    theta = 10000.0 if family == "llama" else 1000000.0
    document = {
        "architectures": ["LlamaForCausalLM" if family == "llama" else "Qwen2ForCausalLM"],
        "model_type": family, "vocab_size": vocab_size, "hidden_size": HIDDEN, "intermediate_size": INTERMEDIATE,
        "num_hidden_layers": LAYERS, "num_attention_heads": HEADS, "num_key_value_heads": KV_HEADS,
        "max_position_embeddings": POSITIONS, "hidden_act": "silu", "rms_norm_eps": 1e-6, "initializer_range": 0.02,
        "tie_word_embeddings": tied, "bos_token_id": 0, "eos_token_id": 1, "use_cache": True,
        "attention_dropout": 0.0, "torch_dtype": "float32",
    }
    if family == "llama":
        document |= {"attention_bias": False, "mlp_bias": False, "pretraining_tp": 1, "head_dim": HEAD_SIZE}
    else:
        document |= {"use_sliding_window": False, "sliding_window": None, "max_window_layers": LAYERS}
    if rope == "v4":
        document |= {"rope_theta": theta, "rope_scaling": None}
    else:
        document["rope_parameters"] = {"rope_type": "default", "rope_theta": theta}
    return document | changes


def random_tensors(family: str, vocab_size: int, tied: bool, seed: int = 5) -> dict[str, np.ndarray]:
    """Every tensor of LlamaForCausalLM / Qwen2ForCausalLM under its Hugging Face name, float32, seeded.

    Attention scores of order 1 (not one-hot, not uniform); small token embeddings and a strong feed-forward, so
    that greedy generation does not just repeat the last token.
    """
    rng = np.random.default_rng(seed)

    def normal(*shape: int, scale: float) -> np.ndarray:
        return (rng.standard_normal(shape) * scale).astype(np.float32)

    def norm_weight() -> np.ndarray:
        return (1.0 + rng.standard_normal(HIDDEN) * 0.1).astype(np.float32)

    q, kv = HEADS * HEAD_SIZE, KV_HEADS * HEAD_SIZE
    tensors = {"model.embed_tokens.weight": normal(vocab_size, HIDDEN, scale=0.3 if tied else 1.0),
               "model.norm.weight": norm_weight()}
    if not tied:
        tensors["lm_head.weight"] = normal(vocab_size, HIDDEN, scale=0.5)
    for layer in range(LAYERS):
        prefix = f"model.layers.{layer}."
        tensors |= {
            prefix + "input_layernorm.weight": norm_weight(),
            prefix + "self_attn.q_proj.weight": normal(q, HIDDEN, scale=0.15),
            prefix + "self_attn.k_proj.weight": normal(kv, HIDDEN, scale=0.15),
            prefix + "self_attn.v_proj.weight": normal(kv, HIDDEN, scale=0.3),
            prefix + "self_attn.o_proj.weight": normal(HIDDEN, q, scale=0.1),
            prefix + "post_attention_layernorm.weight": norm_weight(),
            prefix + "mlp.gate_proj.weight": normal(INTERMEDIATE, HIDDEN, scale=0.25),
            prefix + "mlp.up_proj.weight": normal(INTERMEDIATE, HIDDEN, scale=0.25),
            prefix + "mlp.down_proj.weight": normal(HIDDEN, INTERMEDIATE, scale=0.08),
        }
        if family == "qwen2":
            tensors |= {prefix + "self_attn.q_proj.bias": normal(q, scale=0.3),
                        prefix + "self_attn.k_proj.bias": normal(kv, scale=0.3),
                        prefix + "self_attn.v_proj.bias": normal(kv, scale=0.2)}
    return tensors


def to_bf16_bits(values: np.ndarray) -> np.ndarray:
    """float32 → the raw 16 bits of the nearest bfloat16, ties to even (PyTorch's rounding); finite values only."""
    bits = np.ascontiguousarray(values, dtype=np.float32).view(np.uint32).astype(np.uint64)
    return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)


def from_bf16_bits(bits: np.ndarray) -> np.ndarray:
    """The raw 16 bits of bfloat16 numbers → float32, exactly (an independent spelling of the reader's widening)."""
    return np.frombuffer((bits.astype("<u4") << 16).tobytes(), dtype="<f4").reshape(bits.shape)


def write_weights(folder: Path, tensors: dict[str, np.ndarray], dtype: str = "F32", shards: int = 1) -> None:
    """model.safetensors, or `shards` files and model.safetensors.index.json; F32 (safetensors.numpy) or BF16."""
    from safetensors.numpy import save_file

    names = sorted(tensors)
    groups = [names[index::shards] for index in range(shards)]
    files = ["model.safetensors"] if shards == 1 else [f"model-{i + 1:05d}-of-{shards:05d}.safetensors"
                                                       for i in range(shards)]
    for file, group in zip(files, groups):
        if dtype == "F32":
            save_file({name: tensors[name] for name in group}, str(folder / file), metadata={"format": "pt"})
        else:
            bits = {name: to_bf16_bits(tensors[name]) for name in group}
            write(folder / file, layout({name: ("BF16", bits[name].shape) for name in group}), bits)
    if shards > 1:
        weight_map = {name: file for file, group in zip(files, groups) for name in group}
        (folder / "model.safetensors.index.json").write_text(
            json.dumps({"metadata": {"total_size": 0}, "weight_map": weight_map}, indent=2), encoding="utf-8")


def write_model(folder: Path, family: str = "llama", tied: bool = False, dtype: str = "F32", shards: int = 1,
                rope: str = "v4", seed: int = 5) -> Path:
    """A Hugging Face style folder: config.json, the weights, tokenizer.json."""
    folder.mkdir(parents=True, exist_ok=True)
    tokenizer = build_tokenizer(bos=family == "llama")
    tokenizer.save(str(folder / "tokenizer.json"))
    vocab = tokenizer.get_vocab_size(with_added_tokens=True)
    document = config_document(family, vocab, tied, rope)
    if dtype == "BF16":
        document["torch_dtype"] = "bfloat16"
    (folder / "config.json").write_text(json.dumps(document, indent=2), encoding="utf-8")
    write_weights(folder, random_tensors(family, vocab, tied, seed), dtype, shards)
    return folder


def load_tensors(folder: Path) -> dict[str, np.ndarray]:
    """Every tensor of a folder written here, as float32 (BF16 widened), parsed here from the bytes (not with the
    app's reader)."""
    index = folder / "model.safetensors.index.json"
    files = (sorted(set(json.loads(index.read_text(encoding="utf-8"))["weight_map"].values())) if index.is_file()
             else ["model.safetensors"])
    tensors = {}
    for file in files:
        raw = (folder / file).read_bytes()
        length = int.from_bytes(raw[:8], "little")
        for name, entry in json.loads(raw[8:8 + length]).items():
            if name == "__metadata__":
                continue
            begin, end = (8 + length + offset for offset in entry["data_offsets"])
            if entry["dtype"] == "BF16":
                tensors[name] = from_bf16_bits(np.frombuffer(raw[begin:end], dtype="<u2").reshape(entry["shape"]))
            else:
                tensors[name] = np.frombuffer(raw[begin:end], dtype="<f4").reshape(entry["shape"])
    return tensors


_built: dict[tuple, Path] = {}


def _needs_packages() -> None:
    pytest.importorskip("safetensors", reason="the tiny test model needs safetensors (the 'model' extra)")
    pytest.importorskip("tokenizers", reason="the tiny test model needs tokenizers (the 'model' extra)")


def built(factory, **kind) -> Path:
    """The folder of one kind of tiny model, written once per session."""
    _needs_packages()
    key = tuple(sorted(kind.items()))
    if key not in _built:
        name = "tiny-" + "-".join(str(value) for value in kind.values())
        _built[key] = write_model(factory.mktemp(name), **kind)
    return _built[key]


@pytest.fixture(scope="session")
def tiny_llama_dir(tmp_path_factory) -> Path:
    """A Llama with untied embeddings, float32, one file."""
    return built(tmp_path_factory, family="llama")


@pytest.fixture(scope="session")
def tiny_qwen2_dir(tmp_path_factory) -> Path:
    """A Qwen2 with q/k/v biases and tied embeddings (as Qwen2.5-0.5B), float32, one file."""
    return built(tmp_path_factory, family="qwen2", tied=True)


@pytest.fixture(scope="session")
def tiny_llama_variants(tmp_path_factory) -> dict[str, Path]:
    """Other layouts of the same kinds of model: bf16, tied, sharded, transformers 5's config."""
    return {
        "llama-bf16": built(tmp_path_factory, family="llama", dtype="BF16"),
        "llama-tied": built(tmp_path_factory, family="llama", tied=True),
        "llama-sharded": built(tmp_path_factory, family="llama", shards=2),
        "llama-v5-config": built(tmp_path_factory, family="llama", rope="v5"),
        "qwen2-bf16-sharded": built(tmp_path_factory, family="qwen2", tied=True, dtype="BF16", shards=3),
        "qwen2-untied": built(tmp_path_factory, family="qwen2"),
    }
