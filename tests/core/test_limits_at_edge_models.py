"""Every limit of the real-model mode at its edge: config.json's sizes and files, positions, ids, top-k, memory.

One row per limit (tests/helpers/limit_edges.py), through the lowest function that enforces it: config.json's fields
through config_from_dict, positions through the numpy BERT and GPT-2 on the tiny test models' random weights (no
tokenizer needed), the tokenizer's length limits through a Checkpoint whose tokenizer makes as many tokens as asked.
"""

from __future__ import annotations

import json
import math
import tempfile
from pathlib import Path
from types import SimpleNamespace
from unittest import mock

import pytest

from attention_explorer.core.pretrained import checkpoint, gpt2_checkpoint, weights_size
from attention_explorer.core.pretrained.bert import encode
from attention_explorer.core.pretrained.checkpoint import (
    Checkpoint,
    config_from_dict,
    read_config,
    weights_from_tensors,
)
from attention_explorer.core.pretrained.config_fields import CheckpointError
from attention_explorer.core.pretrained.generation import MAX_TOP_K, next_token_id
from attention_explorer.core.pretrained.gpt2 import decode, decode_next
from attention_explorer.core.pretrained.safetensors_file import HEADER_LIMIT, read_header
from tests.helpers import tiny_bert, tiny_gpt2
from tests.helpers.limit_edges import Edge, assert_accepted, assert_refused, rows

MiB = 1024 * 1024
GPT2_VOCAB = 300
BERT_POSITIONS, GPT2_POSITIONS = tiny_bert.MAX_POSITIONS, tiny_gpt2.POSITIONS  # 40 and 24
# hidden_size 65536 (its largest) divides by every power of two, so a heads row is refused only by its own limit
BERT_DOCUMENT = {**tiny_bert.CONFIG, "hidden_size": 65_536}
GPT2_DOCUMENT = {**tiny_gpt2.CONFIG, "vocab_size": GPT2_VOCAB, "n_embd": 65_536}


def bert_config(**changes):
    return config_from_dict({**BERT_DOCUMENT, **changes})


def gpt2_config(**changes):
    return config_from_dict({**GPT2_DOCUMENT, **changes})


_MODELS: dict[str, object] = {}


def bert_weights():
    if "bert" not in _MODELS:
        _MODELS["bert"] = weights_from_tensors(config_from_dict(tiny_bert.CONFIG), tiny_bert.random_tensors())
    return _MODELS["bert"]


def gpt2_weights():
    if "gpt2" not in _MODELS:
        config = config_from_dict({**tiny_gpt2.CONFIG, "vocab_size": GPT2_VOCAB})
        _MODELS["gpt2"] = weights_from_tensors(config, tiny_gpt2.random_tensors(GPT2_VOCAB))
    return _MODELS["gpt2"]


class CountingTokenizer:
    """A tokenizer whose text is the number of tokens to make: "24" is 24 tokens of id 5."""

    def encode(self, text: str):
        n = int(text)
        return SimpleNamespace(ids=[5] * n, tokens=["w"] * n, type_ids=[0] * n, attention_mask=[1] * n)

    def decode_each(self, ids):
        return ["w"] * len(ids)

    def id_to_token(self, token_id):
        return "w"


def model(kind: str) -> Checkpoint:
    weights = bert_weights() if kind == "bert" else gpt2_weights()
    return Checkpoint(Path("tiny"), "tiny", weights.config, weights, CountingTokenizer())


def analysed(kind: str, n: int) -> int:
    return model(kind).analyse(str(n)).n


def generated(n: int) -> int:
    """n tokens reached by generating the last one after n − 1 given."""
    gpt2 = model("gpt2")
    return gpt2.next_token(gpt2.analyse(str(n - 1)), 7).n


def next_id(token_id: int) -> int:
    gpt2 = model("gpt2")
    return gpt2.next_token(gpt2.analyse("3"), token_id).ids[-1]


def cached_next(n: int) -> int:
    """decode_next on a cache of n − 1 tokens: the n-th position."""
    weights = gpt2_weights()
    return decode_next(weights, decode(weights, [5] * (n - 1)), 7).n


def head_shape(layer: int, head: int) -> tuple[int, int]:
    attention = model("bert").analyse("3").head(layer, head)
    return attention.layer, attention.head


def padded_config(size: int) -> int:
    """A valid config.json padded with spaces to exactly `size` bytes, read; answers the file's size."""
    text = json.dumps(tiny_bert.CONFIG).encode()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "config.json"
        path.write_bytes(text + b" " * (size - len(text)))
        assert read_config(path).hidden_size == tiny_bert.HIDDEN
        return path.stat().st_size


def header_of_length(length: int) -> int:
    """A weights file whose header is `length` bytes ("{}" padded with spaces): read when allowed."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "model.safetensors"
        path.write_bytes(length.to_bytes(8, "little") + b"{}" + b" " * (length - 2))
        assert read_header(path).entries == {}
        return length


def fits(free_below_needed: int) -> int:
    """A model needing N bytes with N − `free_below_needed` bytes free; answers how many bytes short it fell."""
    header = json.dumps({"w": {"dtype": "F32", "shape": [1000, 1000], "data_offsets": [0, 4_000_000]}}).encode()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "model.safetensors"
        path.write_bytes(len(header).to_bytes(8, "little") + header + bytes(4_000_000))
        entries = read_header(path).entries.values()
        needed = weights_size.needed_bytes(entries)
        assert needed == 4_000_000 + 8 * 2 * 1_000_000  # the tensor, then its float64 copy twice
        with mock.patch.object(weights_size, "available_memory_bytes", lambda: needed - free_below_needed):
            weights_size.check_fits_in_memory(path, entries)
    return free_below_needed


def size_rows(kind: str, build, fields: dict[str, tuple[str, int]]) -> list[Edge]:
    """One row per size field of config.json: its largest accepted, one more refused."""
    return [Edge(f"{kind} {key} {largest}", f"config_fields._whole ({kind})", largest, largest + 1,
                 lambda value, key=key, field=field: getattr(build(**{key: value}), field),
                 rf"config\.json: {key}: {largest + 1} is out of range \(1 to {largest}\)", CheckpointError)
            for key, (field, largest) in fields.items()]


BERT_SIZES = {"vocab_size": ("vocab_size", 10_000_000), "hidden_size": ("hidden_size", 65_536),
              "num_hidden_layers": ("num_layers", 1_000), "num_attention_heads": ("num_heads", 4_096),
              "intermediate_size": ("intermediate_size", 1_048_576),
              "max_position_embeddings": ("max_position_embeddings", 1_048_576),
              "type_vocab_size": ("type_vocab_size", 65_536)}
GPT2_SIZES = {"vocab_size": ("vocab_size", 10_000_000), "n_embd": ("hidden_size", 65_536),
              "n_layer": ("num_layers", 1_000), "n_head": ("num_heads", 4_096),
              "n_positions": ("max_position_embeddings", 1_048_576), "n_inner": ("intermediate_size", 1_048_576)}

LIMITS = rows(
    *size_rows("BERT", bert_config, BERT_SIZES),
    *size_rows("GPT-2", gpt2_config, GPT2_SIZES),
    Edge("BERT sizes at least 1", "config_fields._whole", 1, 0, lambda n: bert_config(num_hidden_layers=n).num_layers,
         r"config\.json: num_hidden_layers: 0 is out of range \(1 to 1000\)", CheckpointError),
    Edge("GPT-2 sizes at least 1", "config_fields._whole", 1, 0, lambda n: gpt2_config(n_layer=n).num_layers,
         r"config\.json: n_layer: 0 is out of range \(1 to 1000\)", CheckpointError),
    Edge("layer norm epsilon below 1", "config_fields._norm_epsilon", math.nextafter(1.0, 0.0), 1.0,
         lambda eps: bert_config(layer_norm_eps=eps).layer_norm_eps,
         r"config\.json: layer_norm_eps: 1 is out of range \(expected a small positive number below 1\)",
         CheckpointError),
    Edge("layer norm epsilon above 0", "config_fields._norm_epsilon", 5e-324, 0.0,
         lambda eps: gpt2_config(layer_norm_epsilon=eps).layer_norm_eps,
         r"config\.json: layer_norm_epsilon: 0 is out of range \(expected a small positive number below 1\)",
         CheckpointError),
    Edge("config.json 1 MiB", "config_fields._config_document", MiB, MiB + 1, padded_config,
         r".*config\.json: 1048577 bytes is far too large for a config\.json", CheckpointError),
    Edge("weights header 16 MiB", "safetensors_file.read_header", HEADER_LIMIT, HEADER_LIMIT + 1, header_of_length,
         r".*model\.safetensors: the header claims 16777217 bytes; at most 16777216 are accepted", CheckpointError),
    Edge("memory: needs exactly what is free", "weights_size.check_fits_in_memory", 0, 1, fits,
         r".*model\.safetensors: this model needs about 20 MB of memory to load, and only 19 MB are free",
         CheckpointError),
    Edge("top-k 1000", "generation.next_token_id", MAX_TOP_K, MAX_TOP_K + 1,
         lambda k: next_token_id(list(range(2000)), k) >= 2000 - k and k,
         "top-k: expected a whole number from 1 to 1000, got 1001", CheckpointError),
    Edge("top-k at least 1", "generation.next_token_id", 1, 0, lambda k: next_token_id([0.0, 1.0], k) == 1 and k,
         "top-k: expected a whole number from 1 to 1000, got 0", CheckpointError),
    # -- positions and ids (the tiny models: BERT 40 positions, 27 words; GPT-2 24 positions, 300 tokens)
    Edge("BERT positions", "bert.encode", BERT_POSITIONS, BERT_POSITIONS + 1,
         lambda n: encode(bert_weights(), [5] * n).last_hidden_state.shape[0],
         "input_ids: 41 tokens, this model takes at most 40", ValueError),
    Edge("BERT ids below the vocabulary size", "bert.encode", len(tiny_bert.VOCAB) - 1, len(tiny_bert.VOCAB),
         lambda token: encode(bert_weights(), [token]).last_hidden_state.shape[0] == 1 and token,
         "input_ids: ids must lie in 0–26", ValueError),
    Edge("GPT-2 positions", "gpt2.check_ids", GPT2_POSITIONS, GPT2_POSITIONS + 1,
         lambda n: decode(gpt2_weights(), [5] * n).n, "input_ids: 25 tokens, this model takes at most 24", ValueError),
    Edge("GPT-2 positions with the cache", "gpt2.decode_next", GPT2_POSITIONS, GPT2_POSITIONS + 1, cached_next,
         "input_ids: 25 tokens, this model takes at most 24", ValueError),
    Edge("GPT-2 ids below the vocabulary size", "gpt2.check_ids", GPT2_VOCAB - 1, GPT2_VOCAB,
         lambda token: decode(gpt2_weights(), [token]).n == 1 and token, "input_ids: ids must lie in 0–299",
         ValueError),
    Edge("text of as many tokens as positions (BERT)", "checkpoint.Checkpoint.analyse", BERT_POSITIONS,
         BERT_POSITIONS + 1, lambda n: analysed("bert", n), "the text is 41 tokens long; this model takes at most 40",
         CheckpointError),
    Edge("text of as many tokens as positions (GPT-2)", "checkpoint.Checkpoint.analyse", GPT2_POSITIONS,
         GPT2_POSITIONS + 1, lambda n: analysed("gpt2", n), "the text is 25 tokens long; this model takes at most 24",
         CheckpointError),
    Edge("generated up to the positions", "checkpoint.Checkpoint.next_token", GPT2_POSITIONS, GPT2_POSITIONS + 1,
         generated, "the sequence is 24 tokens long, and this model takes at most 24: no token can be added",
         CheckpointError),
    Edge("generated token id below the vocabulary size", "checkpoint.Checkpoint.next_token", GPT2_VOCAB - 1,
         GPT2_VOCAB, next_id, r"token id 300 is not in the vocabulary \(0–299\)", CheckpointError),
    Edge("generated token id at least 0", "checkpoint.Checkpoint.next_token", 0, -1, next_id,
         r"token id -1 is not in the vocabulary \(0–299\)", CheckpointError),
    Edge("layer of a head", "checkpoint.Analysis.head", tiny_bert.LAYERS - 1, tiny_bert.LAYERS,
         lambda layer: head_shape(layer, 0)[0], r"layer 2 is out of range: the model has 2 layers \(0–1\)",
         CheckpointError),
    Edge("layer of a head at least 0", "checkpoint.Analysis.head", 0, -1, lambda layer: head_shape(layer, 0)[0],
         r"layer -1 is out of range: the model has 2 layers \(0–1\)", CheckpointError),
    Edge("head of a layer", "checkpoint.Analysis.head", tiny_bert.HEADS - 1, tiny_bert.HEADS,
         lambda head: head_shape(0, head)[1], r"head 4 is out of range: each layer has 4 heads \(0–3\)",
         CheckpointError),
)


@pytest.mark.parametrize("edge", LIMITS)
def test_the_limit_itself_is_accepted(edge):
    assert_accepted(edge)


@pytest.mark.parametrize("edge", LIMITS)
def test_one_past_the_limit_is_refused_with_its_message(edge):
    assert_refused(edge)


def test_the_table_holds_every_size_field_the_readers_check():
    """A size field added to config.json's readers, or a largest value changed, shows here."""
    assert {**checkpoint._SIZES, **checkpoint._OPTIONAL_SIZES} == BERT_SIZES
    assert {**gpt2_checkpoint._SIZES, "n_inner": ("intermediate_size", gpt2_checkpoint._INNER_LARGEST)} == GPT2_SIZES
    assert HEADER_LIMIT == 16 * MiB and MAX_TOP_K == 1000
