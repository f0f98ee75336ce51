"""A BERT-family encoder, a GPT-2 or a Llama-family decoder from a local Hugging Face model folder.

The folder holds config.json, tokenizer.json and the weights: model.safetensors, or shards named by
model.safetensors.index.json (weights_files.py). Needs the optional package `tokenizers` (pip install
"attention-explorer[model]"), which runs in a process of its own (tokenizer_process.py), so the rest of the app
runs without it. The weights are read by safetensors_file.py, in plain Python and numpy: only the tensors the model
uses, after every header has been checked. Nothing here talks to the network or the Hugging Face Hub: a folder is
read from disk, and `find_cached_checkpoints` only looks at the cache folders that are already on the machine.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from attention_explorer.core.messages import Phrase, value_kind
from attention_explorer.core.pretrained import gpt2, llama
from attention_explorer.core.pretrained.bert import (
    ACTIVATIONS,
    BertConfig,
    BertWeights,
    EncoderOutput,
    LayerAttention,
    LayerWeights,
    encode,
)
from attention_explorer.core.pretrained.config_fields import (
    CheckpointError,
    _config_document,
    _flag,
    _norm_epsilon,
    _text,
    _whole,
)
from attention_explorer.core.pretrained.gpt2 import DecoderOutput, Gpt2Config, Gpt2Weights
from attention_explorer.core.pretrained.gpt2_checkpoint import (
    gpt2_config_from_dict,
    gpt2_tensor_shapes,
    gpt2_weights_from_tensors,
)
from attention_explorer.core.pretrained.llama import LlamaConfig, LlamaWeights, RotaryLayerAttention
from attention_explorer.core.pretrained.llama_checkpoint import (
    LLAMA_TYPES,
    llama_config_from_dict,
    llama_needed_bytes,
    llama_tensor_shapes,
    llama_weights_from_tensors,
)
from attention_explorer.core.pretrained.rope import Rotary
from attention_explorer.core.pretrained.safetensors_file import BFLOAT16, READABLE, TensorEntry, read_tensors
from attention_explorer.core.pretrained.tokenizer_process import TokenizerProcess
from attention_explorer.core.pretrained.weights_files import INDEX, SINGLE, open_weights, read_index, weights_path
from attention_explorer.core.pretrained.weights_size import check_fits_in_memory, is_complete_safetensors

REQUIRED_FILES = ("config.json", "model.safetensors", "tokenizer.json")  # or model.safetensors.index.json
# The [model] extra also installs safetensors (the tests write their tiny models with it); reading needs only these.
OPTIONAL_PACKAGES = ("tokenizers",)
INSTALL_HINT = 'pip install "attention-explorer[model]"'
# model_type in config.json → what it covers. Only the original BERT layout (absolute positions, post-LayerNorm),
# the original GPT-2 and the Llama layout (RMSNorm, RoPE, grouped-query attention, SwiGLU) are implemented;
# RoBERTa, DistilBERT, ALBERT, ELECTRA, Mistral, Gemma, … differ in ways that matter.
SUPPORTED_MODEL_TYPES = {"bert": "BERT and BERT-architecture encoders such as MiniLM",
                         "gpt2": "GPT-2 and distilgpt2",
                         "llama": "Llama, SmolLM2 and TinyLlama",
                         "qwen2": "Qwen2 and Qwen2.5"}
ModelConfig = BertConfig | Gpt2Config | LlamaConfig
Weights = BertWeights | Gpt2Weights | LlamaWeights
# Each decoder's forward pass over a whole sequence, and its step that appends one token from the KV cache.
_DECODERS = {Gpt2Config: (gpt2.decode, gpt2.decode_next), LlamaConfig: (llama.decode, llama.decode_next)}
# progress(stage, done, total): stage is "config", "weights", "tokenizer" (loading: done of 3 steps), "tokens" (the
# sentence being tokenized) or "layer" (done of total layers).
Progress = Callable[[str, int, int], None]


def _no_progress(_stage: str, _done: int, _total: int) -> None:
    """The default progress hook: nothing to show."""
# config.json's sizes → our field names and the largest value any real BERT comes near (the weights' shapes are
# checked against them later; the bounds only keep a hostile number out of messages and arithmetic).
_SIZES = {
    "vocab_size": ("vocab_size", 10_000_000),
    "hidden_size": ("hidden_size", 65_536),
    "num_hidden_layers": ("num_layers", 1_000),
    "num_attention_heads": ("num_heads", 4_096),
    "intermediate_size": ("intermediate_size", 1_048_576),
}
_OPTIONAL_SIZES = {
    "max_position_embeddings": ("max_position_embeddings", 1_048_576),
    "type_vocab_size": ("type_vocab_size", 65_536),
}

# Our field names → the checkpoint's names (relative to the "bert." prefix, when there is one).
_EMBEDDING_TENSORS = {
    "word_embeddings": "embeddings.word_embeddings.weight",
    "position_embeddings": "embeddings.position_embeddings.weight",
    "token_type_embeddings": "embeddings.token_type_embeddings.weight",
    "embedding_norm_weight": "embeddings.LayerNorm.weight",
    "embedding_norm_bias": "embeddings.LayerNorm.bias",
}
_LAYER_TENSORS = {
    "query_weight": "attention.self.query.weight", "query_bias": "attention.self.query.bias",
    "key_weight": "attention.self.key.weight", "key_bias": "attention.self.key.bias",
    "value_weight": "attention.self.value.weight", "value_bias": "attention.self.value.bias",
    "attention_output_weight": "attention.output.dense.weight",
    "attention_output_bias": "attention.output.dense.bias",
    "attention_norm_weight": "attention.output.LayerNorm.weight",
    "attention_norm_bias": "attention.output.LayerNorm.bias",
    "intermediate_weight": "intermediate.dense.weight", "intermediate_bias": "intermediate.dense.bias",
    "output_weight": "output.dense.weight", "output_bias": "output.dense.bias",
    "output_norm_weight": "output.LayerNorm.weight", "output_norm_bias": "output.LayerNorm.bias",
}
# Checkpoints converted from the original TensorFlow BERT name LayerNorm's parameters gamma and beta.
_LEGACY_SUFFIXES = {"LayerNorm.weight": "LayerNorm.gamma", "LayerNorm.bias": "LayerNorm.beta"}


def _installed(name: str) -> bool:
    if name in sys.modules:
        return sys.modules[name] is not None  # None: importing it was blocked
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def missing_packages() -> list[str]:
    """The optional packages real transformer mode needs but this Python lacks (empty when all are there)."""
    return [name for name in OPTIONAL_PACKAGES if not _installed(name)]


def require_packages() -> None:
    """Raise CheckpointError saying what to install when an optional package is missing."""
    missing = missing_packages()
    if missing:
        if len(missing) == 1:
            raise CheckpointError("real transformer mode needs the package {0}: {1}", missing[0], INSTALL_HINT)
        raise CheckpointError("real transformer mode needs the packages {0}: {1}", " and ".join(missing), INSTALL_HINT)


def supported_text() -> str:
    """The supported architectures, for messages."""
    return "; ".join(f'"{name}" ({what})' for name, what in SUPPORTED_MODEL_TYPES.items())


def _model_type(document: dict) -> str | None:
    """config.json's model_type (checked by the caller); very old BERT configs name only their architecture."""
    if "model_type" in document:
        return document["model_type"]
    architectures = document.get("architectures")
    if isinstance(architectures, list) and architectures and all(
            isinstance(name, str) and name.startswith("Bert") for name in architectures):
        return "bert"
    return None


# ---------------------------------------------------------------- config.json


def read_config(path: str | os.PathLike[str]) -> ModelConfig:
    """The config of a config.json (BERT, GPT-2, Llama or Qwen2); anything else raises CheckpointError."""
    path = Path(path)
    return config_from_dict(_config_document(path), str(path))


def _check_architecture(document: dict, place: str) -> str:
    """The model_type, checked to be a supported one; `architectures` named in the message when it helps."""
    architectures = document.get("architectures")
    if architectures is not None:
        if not isinstance(architectures, list):
            raise CheckpointError("{0}: expected a list of strings, got {1}", f"{place}: architectures",
                             value_kind(architectures))
        for index, name in enumerate(architectures):
            if not isinstance(name, str):
                raise CheckpointError(
                    "{0}: expected a string, got {1}", f"{place}: architectures[{index}]", value_kind(name)
                )
    model_type = _text(document, "model_type", place)
    if model_type is None:
        model_type = _model_type(document)
    named = f" ({architectures[0][:60]})" if architectures else ""
    if model_type is None:
        raise CheckpointError("{0}: no model_type{1}; supported: {2}", place, named, supported_text())
    if model_type not in SUPPORTED_MODEL_TYPES:
        raise CheckpointError(
            "{0}: model_type {1}{2} is not supported; supported: {3}",
            place, json.dumps(model_type, ensure_ascii=False)[:60], named, supported_text(),
        )
    return model_type


def config_from_dict(document: Any, place: str = "config.json") -> ModelConfig:
    """A BertConfig, Gpt2Config or LlamaConfig from the parsed config.json: every field it uses type-checked, others
    refused."""
    if not isinstance(document, dict):
        raise CheckpointError("{0}: expected a JSON object", place)
    model_type = _check_architecture(document, place)
    if model_type == "gpt2":
        return gpt2_config_from_dict(document, place)
    if model_type in LLAMA_TYPES:
        return llama_config_from_dict(document, model_type, place)
    position_type = _text(document, "position_embedding_type", place, "absolute")
    if position_type != "absolute":
        raise CheckpointError('{0}: position_embedding_type "{1}" is not supported (only "absolute")', place,
                         position_type[:60])
    if _flag(document, "is_decoder", place) or _flag(document, "add_cross_attention", place):
        raise CheckpointError("{0}: a BERT used as a decoder is not supported (only the encoder)", place)
    hidden_act = _text(document, "hidden_act", place, "gelu")
    if hidden_act not in ACTIVATIONS:
        raise CheckpointError(
            "{0}: hidden_act {1!r} is not supported (supported: {2})",
            place, hidden_act[:60], ', '.join(ACTIVATIONS),
        )
    fields: dict[str, Any] = {}
    for key, (field, largest) in _SIZES.items():
        if key not in document:
            raise CheckpointError("{0}: {1} is missing", place, key)
        fields[field] = _whole(document, key, place, largest)
    for key, (field, largest) in _OPTIONAL_SIZES.items():
        if key in document:
            fields[field] = _whole(document, key, place, largest)
    if "layer_norm_eps" in document:
        fields["layer_norm_eps"] = _norm_epsilon(document, place)
    if fields["hidden_size"] % fields["num_heads"]:
        raise CheckpointError("{0}: hidden_size {1} is not a multiple of num_attention_heads {2}", place,
                         fields["hidden_size"], fields["num_heads"])
    return BertConfig(hidden_act=hidden_act, **fields)


# ---------------------------------------------------------------- model.safetensors


def _find_prefix(tensors: Collection[str], place: str) -> str:
    """"" for a BertModel checkpoint, "bert." for BertForMaskedLM, BertForPreTraining and the like."""
    for prefix in ("", "bert."):
        if prefix + _EMBEDDING_TENSORS["word_embeddings"] in tensors:
            return prefix
    raise CheckpointError("{0}: no {1} tensor: not a BERT checkpoint", place, _EMBEDDING_TENSORS['word_embeddings'])


def _stored_name(name: str, names: Collection[str], place: str) -> str:
    """The name a BERT tensor has in the checkpoint: its own, or LayerNorm's gamma and beta of the TensorFlow days."""
    if name in names:
        return name
    for new, old in _LEGACY_SUFFIXES.items():
        if name.endswith(new) and name[: -len(new)] + old in names:
            return name[: -len(new)] + old
    raise CheckpointError("{0}: tensor {1} is missing", place, name)


def tensor_shapes(config: ModelConfig, names: Collection[str],
                  place: str = "model.safetensors") -> dict[str, tuple[int, ...]]:
    """Every tensor the model reads, by its name in the checkpoint, with the shape config.json gives it."""
    if isinstance(config, Gpt2Config):
        return gpt2_tensor_shapes(config, names, place)
    if isinstance(config, LlamaConfig):
        return llama_tensor_shapes(config, names, place)
    prefix = _find_prefix(names, place)
    wanted = {_stored_name(prefix + _EMBEDDING_TENSORS[field], names, place): shape
              for field, shape in BertWeights.shapes(config).items()}
    layer_shapes = LayerWeights.shapes(config)
    for index in range(config.num_layers):
        for field, name in _LAYER_TENSORS.items():
            wanted[_stored_name(f"{prefix}encoder.layer.{index}.{name}", names, place)] = layer_shapes[field]
    return wanted


def _checked_entries(config: ModelConfig, declared: Mapping[str, TensorEntry], place: str) -> list[TensorEntry]:
    """The header's entries of the tensors the model reads, each checked to be readable and of config's shape."""
    entries = []
    with_bf16 = isinstance(config, LlamaConfig)
    for name, shape in tensor_shapes(config, declared, place).items():
        entry = declared[name]
        if with_bf16 and entry.dtype not in READABLE and entry.dtype != BFLOAT16:
            raise CheckpointError("{0}: tensor {1} holds {2}; only F64, F32, F16 and BF16 tensors can be read", place,
                                  name, entry.dtype)
        if not with_bf16 and entry.dtype not in READABLE:
            raise CheckpointError("{0}: tensor {1} holds {2}; only F64, F32 and F16 tensors can be read", place,
                                  name, entry.dtype)
        if entry.shape != shape:
            raise CheckpointError("{0}: tensor {1}: expected shape {2}, got {3} (does config.json belong to these "
                                  "weights?)", place, name, shape, entry.shape)
        entries.append(entry)
    return entries


def weights_from_tensors(config: ModelConfig, tensors: Mapping[str, np.ndarray],
                         place: str = "model.safetensors") -> Weights:
    """Pick a model's weights out of a checkpoint's named tensors, checking every name and shape."""
    if isinstance(config, Gpt2Config):
        return gpt2_weights_from_tensors(config, tensors, place)
    if isinstance(config, LlamaConfig):
        return llama_weights_from_tensors(config, tensors, place)
    prefix = _find_prefix(tensors, place)

    def tensor(name: str) -> np.ndarray:
        full = _stored_name(prefix + name, tensors, place)
        array = np.asarray(tensors[full])
        if not np.issubdtype(array.dtype, np.floating):
            raise CheckpointError(
                "{0}: tensor {1} holds {2}, expected floating-point numbers", place, full, array.dtype
            )
        return array

    embeddings = {field: tensor(name) for field, name in _EMBEDDING_TENSORS.items()}
    layers = []
    for index in range(config.num_layers):
        fields = {field: tensor(f"encoder.layer.{index}.{name}") for field, name in _LAYER_TENSORS.items()}
        layers.append(LayerWeights(**fields))
    try:
        weights = BertWeights(config=config, layers=tuple(layers), **embeddings)
    except ValueError as error:
        raise CheckpointError("{0}: {1} (does config.json belong to these weights?)", place, error) from None
    named = [*embeddings.items(), *((f"encoder layer {i}", array) for i, layer in enumerate(layers)
                                    for array in vars(layer).values())]
    for name, array in named:
        if not np.isfinite(array).all():
            raise CheckpointError("{0}: {1} holds NaN or infinite numbers", place, name)
    return weights


def read_weights(path: str | os.PathLike[str], config: ModelConfig) -> Weights:
    """The weights in a model.safetensors file, or in the shards a model.safetensors.index.json names. Every header
    is checked first: every entry, then the names, dtypes and shapes of the tensors the model uses against
    config.json, then the memory they need; only then are those tensors read, and no other."""
    files = open_weights(path)
    entries = _checked_entries(config, files.entries, str(path))
    llama_family = isinstance(config, LlamaConfig)
    check_fits_in_memory(path, entries, llama_needed_bytes(config, entries) if llama_family else None)
    tensors: dict[str, np.ndarray] = {}
    for header, names in files.by_file(entry.name for entry in entries):
        tensors |= read_tensors(header, names, True) if llama_family else read_tensors(header, names)
    return weights_from_tensors(config, tensors, str(path))


# ---------------------------------------------------------------- tokenizer.json


def read_tokenizer(path: str | os.PathLike[str]) -> TokenizerProcess:
    """tokenizer.json loaded by `tokenizers` in a process of its own (padding and truncation off: one sentence, as
    typed), so that a pattern in it that backtracks without end, or panics, costs a message and no more."""
    require_packages()
    if not Path(path).is_file():
        raise CheckpointError("{0}: no such file", path)
    return TokenizerProcess(path)


# ---------------------------------------------------------------- the loaded model


@dataclass(frozen=True)
class HeadAttention:
    """One head of one layer for the analysed sentence: q, k, v (N × d_k) and the N × N matrices.

    With RoPE (the Llama family), queries and keys are after rotation, as the scores use them: row j turned to
    position j. queries_unrotated and keys_unrotated are the same vectors before it, and `rotary` turns any of them
    to any position (q_m·k_n then depends on m − n only). kv_head is the K/V head whose keys and values this query
    head reads (its own index without grouped-query attention).
    """

    layer: int
    head: int
    queries: np.ndarray
    keys: np.ndarray
    values: np.ndarray
    scaled_scores: np.ndarray
    weights: np.ndarray
    kv_head: int = -1  # -1: the head's own index (set in __post_init__)
    queries_unrotated: np.ndarray | None = None  # None: no RoPE
    keys_unrotated: np.ndarray | None = None
    rotary: Rotary | None = None

    def __post_init__(self) -> None:
        if self.kv_head < 0:
            object.__setattr__(self, "kv_head", self.head)

    @property
    def head_size(self) -> int:
        """d_k = d_v of this head."""
        return int(self.queries.shape[1])

    @property
    def positions(self) -> np.ndarray:
        """The position of each token (its row), 0 … N − 1."""
        return np.arange(self.queries.shape[0])

    def rotated_query(self, token: int, position: int) -> np.ndarray:
        """Token's unrotated q turned to `position` (RoPE models only): q_m for m = position."""
        return self._rotary().rotate(self.queries_unrotated[token], position)

    def rotated_key(self, token: int, position: int) -> np.ndarray:
        """Token's unrotated k turned to `position` (RoPE models only): k_n for n = position."""
        return self._rotary().rotate(self.keys_unrotated[token], position)

    def _rotary(self) -> Rotary:
        if self.rotary is None or self.queries_unrotated is None or self.keys_unrotated is None:
            raise CheckpointError("this model has no rotary position embedding: its q and k are not rotated")
        return self.rotary


@dataclass(frozen=True)
class Analysis:
    """A sentence run through the model: its tokens and every layer's attention."""

    text: str
    tokens: tuple[str, ...]
    ids: tuple[int, ...]
    output: EncoderOutput | DecoderOutput
    generated: int = 0  # tokens appended by generation (the last ones); decoders only

    @property
    def n(self) -> int:
        """Number of tokens, [CLS] and [SEP] included."""
        return len(self.tokens)

    @property
    def causal(self) -> bool:
        """True for a decoder (GPT-2, Llama): no token attends to a later one."""
        return isinstance(self.output, DecoderOutput)

    @property
    def kv_heads(self) -> tuple[int, ...]:
        """The K/V head of each query head, the same in every layer: (0, 0, 1, 1) for 4 query heads sharing 2 K/V
        heads (grouped-query attention), (0, 1, 2, 3) without it."""
        first = self.output.layers[0]
        if isinstance(first, RotaryLayerAttention):
            return first.kv_heads
        return tuple(range(first.weights.shape[0]))

    @property
    def num_kv_heads(self) -> int:
        """How many K/V heads each layer has (what the KV cache holds per layer and token)."""
        return len(set(self.kv_heads))

    def layer(self, layer: int) -> LayerAttention:
        """All heads of one layer."""
        return self.output.layers[layer]

    def head(self, layer: int, head: int) -> HeadAttention:
        """q, k, v, scores and weights of one head (0-based layer and head)."""
        if not 0 <= layer < len(self.output.layers):
            raise CheckpointError(
                "layer {0} is out of range: the model has {1} layers (0–{2})",
                layer, len(self.output.layers), len(self.output.layers) - 1,
            )
        attention = self.output.layers[layer]
        heads = attention.weights.shape[0]
        if not 0 <= head < heads:
            raise CheckpointError("head {0} is out of range: each layer has {1} heads (0–{2})", head, heads, heads - 1)
        base = (layer, head, attention.queries[head], attention.keys[head], attention.values[head],
                attention.scaled_scores[head], attention.weights[head])
        if not isinstance(attention, RotaryLayerAttention):
            return HeadAttention(*base)
        kv_head = attention.kv_heads[head]
        rotary = Rotary(attention.rope_theta, attention.queries.shape[2])
        return HeadAttention(*base, kv_head, attention.queries_unrotated[head], attention.keys_unrotated[kv_head],
                             rotary)


_WORD_START = "\u2581"  # "▁": SentencePiece's mark of a word's start (a space)


def _readable_tokens(tokenizer: TokenizerProcess, ids: list[int], raw: list[str]) -> tuple[str, ...]:
    """A decoder's tokens as text: byte-level ones (GPT-2, SmolLM2, Qwen2) " love" for "Ġlove"; SentencePiece-style
    ones (Llama 2, TinyLlama), whose decoder drops a token's leading space when it stands alone, " love" for
    "▁love". A lone space is "␣", and a token holding part of a character or a control character stays in its
    stored form ("ç", "Ċ", "<0xE7>"), as Hugging Face shows it."""
    shown = []
    for text, token in zip(tokenizer.decode_each(ids), raw):
        if token.startswith(_WORD_START) and not text.startswith(" ") and "\ufffd" not in text:
            text = " " + text
        if text and not text.strip(" "):
            shown.append("␣" * len(text))
        elif text and "\ufffd" not in text and text.isprintable():
            shown.append(text)
        else:
            shown.append(token)
    return tuple(shown)


@dataclass(frozen=True)
class Checkpoint:
    """A BERT encoder or a GPT-2 read from a folder: its config, its weights and its tokenizer."""

    folder: Path
    name: str
    config: ModelConfig
    weights: Weights
    tokenizer: TokenizerProcess  # tokenizers.Tokenizer's calls, answered by a process of its own

    @property
    def model_type(self) -> str:
        """config.json's model_type: "bert", "gpt2", "llama" or "qwen2"."""
        return self.config.model_type

    @property
    def generates(self) -> bool:
        """True for a model with a language-model head that can append tokens (GPT-2, the Llama family)."""
        return type(self.config) in _DECODERS

    @property
    def num_kv_heads(self) -> int:
        """K/V heads per layer: fewer than num_heads with grouped-query attention."""
        return getattr(self.config, "num_kv_heads", self.config.num_heads)

    @property
    def rope_theta(self) -> float | None:
        """RoPE's θ, or None for a model with learned position embeddings."""
        return getattr(self.config, "rope_theta", None)

    def token_text(self, token_id: int) -> str:
        """How one vocabulary token is shown."""
        raw = self.tokenizer.id_to_token(token_id) or ""
        return _readable_tokens(self.tokenizer, [token_id], [raw])[0] if self.generates else raw

    def next_token(self, analysis: Analysis, token_id: int) -> Analysis:
        """The analysis with one token appended, computed from its cached keys and values (decoders only)."""
        limit = self.config.max_position_embeddings
        if analysis.n >= limit:
            raise CheckpointError("the sequence is {0} tokens long, and this model takes at most {1}: no token can "
                                  "be added", analysis.n, limit)
        if not 0 <= token_id < self.config.vocab_size:
            raise CheckpointError("token id {0} is not in the vocabulary (0–{1})", token_id, self.config.vocab_size - 1)
        output = _DECODERS[type(self.config)][1](self.weights, analysis.output, token_id)
        return Analysis(analysis.text, (*analysis.tokens, self.token_text(token_id)), (*analysis.ids, token_id),
                        output, analysis.generated + 1)

    def analyse(self, text: str, progress: Progress = _no_progress) -> Analysis:
        """Tokenize one sentence ([CLS] … [SEP] as the tokenizer adds them) and run the model on it."""
        try:
            text.encode("utf-8")
        except UnicodeEncodeError as error:  # the tokenizer would say only "TextInputSequence must be str"
            raise CheckpointError("the text is not valid Unicode (character {0} is a lone surrogate)",
                             error.start + 1) from None
        progress("tokens", 0, self.config.num_layers)
        encoding = self.tokenizer.encode(text)  # a time limit, and every failure one CheckpointError
        ids = list(encoding.ids)
        limit = self.config.max_position_embeddings
        if not ids:
            raise CheckpointError("the tokenizer made no tokens of this text")
        if len(ids) > limit:
            raise CheckpointError("the text is {0} tokens long; this model takes at most {1}", len(ids), limit)
        if max(ids) >= self.config.vocab_size:
            raise CheckpointError(
                "the tokenizer gave id {0}, but the model knows only {1} tokens: tokenizer.json does not "
                "belong to this model",
                max(ids), self.config.vocab_size,
            )
        layers = self.config.num_layers

        def on_layer(index: int) -> None:
            progress("layer", index + 1, layers)

        if self.generates:
            return Analysis(text, _readable_tokens(self.tokenizer, ids, list(encoding.tokens)), tuple(ids),
                            _DECODERS[type(self.config)][0](self.weights, ids, on_layer))
        try:
            output = encode(self.weights, ids, encoding.type_ids, encoding.attention_mask, on_layer)
        except ValueError as error:  # e.g. a token type the model has no embedding for
            raise CheckpointError("the model cannot take these tokens ({0})", error) from None
        return Analysis(text, tuple(encoding.tokens), tuple(ids), output)


def _display_name(folder: Path) -> str:
    """"org/name" for a Hugging Face cache snapshot, else the folder's own name."""
    parts = folder.parts
    if len(parts) >= 3 and parts[-2] == "snapshots" and parts[-3].startswith("models--"):
        return parts[-3][len("models--"):].replace("--", "/")
    return folder.name or str(folder)


def check_folder(folder: str | os.PathLike[str]) -> Path:
    """The folder as a Path if it holds the three files a model needs (the weights whole, or an index of their
    shards); else CheckpointError saying what is missing."""
    path = Path(folder).expanduser()
    if not path.exists():
        raise CheckpointError("{0}: no such folder", path)
    if not path.is_dir():
        raise CheckpointError("{0}: not a folder (give the folder that holds {1})", path, ', '.join(REQUIRED_FILES))
    for name in REQUIRED_FILES:
        if not (path / name).is_file() and not (name == SINGLE and (path / INDEX).is_file()):
            extra = Phrase("")
            if name == "model.safetensors" and (path / "pytorch_model.bin").is_file():
                extra = Phrase("; only pytorch_model.bin is there, which needs PyTorch to read")
            elif name == "tokenizer.json" and (path / "vocab.txt").is_file():
                extra = Phrase("; only vocab.txt is there (a newer copy of the model has tokenizer.json)")
            raise CheckpointError("{0}: {1} is missing{2} (a model folder holds {3})", path, name, extra,
                             ", ".join(REQUIRED_FILES))
    return path


def load_checkpoint(folder: str | os.PathLike[str], progress: Progress = _no_progress) -> Checkpoint:
    """Read a Hugging Face model folder; every problem is one CheckpointError, and nothing is downloaded."""
    require_packages()
    path = check_folder(folder)
    progress("config", 0, 3)
    config = read_config(path / "config.json")
    progress("weights", 1, 3)
    weights = read_weights(weights_path(path), config)
    progress("tokenizer", 2, 3)
    tokenizer = read_tokenizer(path / "tokenizer.json")
    if tokenizer.vocab_size > config.vocab_size:
        tokenizer.close()
        raise CheckpointError(
            "{0}: {1} tokens, but the model has only {2}: the files do not belong together",
            path / 'tokenizer.json', tokenizer.vocab_size, config.vocab_size,
        )
    return Checkpoint(path, _display_name(path.resolve()), config, weights, tokenizer)


# ---------------------------------------------------------------- models already on this machine


@dataclass(frozen=True)
class CachedCheckpoint:
    """A usable model folder found in the Hugging Face cache."""

    name: str  # "org/name"
    path: Path  # the snapshot folder


def hub_cache_dir() -> Path:
    """Where the Hugging Face libraries keep downloaded models ($HF_HUB_CACHE, $HF_HOME/hub or the default)."""
    if os.environ.get("HF_HUB_CACHE"):
        return Path(os.environ["HF_HUB_CACHE"]).expanduser()
    if os.environ.get("HF_HOME"):
        return Path(os.environ["HF_HOME"]).expanduser() / "hub"
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache").expanduser()
    return cache / "huggingface" / "hub"


def _snapshots(repository: Path) -> list[Path]:
    """A repository's snapshot folders, the one refs/main points at first, then the newest."""
    folder = repository / "snapshots"
    try:
        found = sorted((p for p in folder.iterdir() if p.is_dir()), key=lambda p: p.stat().st_mtime, reverse=True)
    except OSError:
        return []
    try:
        main = (repository / "refs" / "main").read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        main = ""
    return sorted(found, key=lambda p: p.name != main)


def _inside(path: Path, root: Path) -> bool:
    """True when `path`, every link on the way followed, is `root` or lies under it (`root` already resolved)."""
    try:
        return Path(os.path.realpath(path)).is_relative_to(root)
    except (OSError, ValueError):
        return False


def weight_files(folder: str | os.PathLike[str]) -> list[Path]:
    """The weights' files of a model folder: model.safetensors, or the index and every shard it names (checked
    names only); [] when neither is there or the index cannot be read."""
    folder = Path(folder)
    path = weights_path(folder)
    if path.name != INDEX:
        return [path] if path.is_file() else []
    try:
        shards = sorted(set(read_index(path).values()))
    except CheckpointError:
        return []
    return [path, *(folder / shard for shard in shards)]


def is_complete_snapshot(folder: str | os.PathLike[str], root: str | os.PathLike[str]) -> bool:
    """A snapshot whose download finished: config.json, tokenizer.json and the weights (model.safetensors, or
    model.safetensors.index.json and every shard it names) there as regular files inside the cache `root` (a link
    leading out of it does not count), and each weights file exactly as long as its header says.

    Reads only the index and the weights' headers: the files' hashes were checked against the Hub's listing when
    they were downloaded. A folder holding only config.json, three links to one file, cut-off weights or an index
    naming a missing shard is not complete.
    """
    folder, root = Path(folder), Path(os.path.realpath(root))
    weights = weight_files(folder)
    files = [folder / "config.json", folder / "tokenizer.json", *weights]
    if not weights or not all(path.is_file() and _inside(path, root) for path in files):
        return False
    if len({os.path.realpath(path) for path in files}) < len(files):  # one file under several names
        return False
    return all(is_complete_safetensors(path) for path in weights if path.name != INDEX)


def _is_listed_folder(folder: Path, root: Path) -> bool:
    """A complete snapshot (see is_complete_snapshot) whose config.json does not name another architecture.

    A malformed config.json is listed too: choosing it then says what is wrong with it, and nothing else breaks.
    """
    if not is_complete_snapshot(folder, root):
        return False
    try:
        document = _config_document(folder / "config.json")
    except CheckpointError:
        return True
    except OSError:
        return False
    if not isinstance(document, dict):
        return True
    model_type = document.get("model_type") if "model_type" in document else _model_type(document)
    return not isinstance(model_type, str) or model_type in SUPPORTED_MODEL_TYPES


def find_cached_checkpoints(hub_dir: str | os.PathLike[str] | None = None) -> list[CachedCheckpoint]:
    """Complete models of the supported families already in the Hugging Face cache (one snapshot each, its weights
    in one file or in shards), sorted by name; reads only (the index, the weights' headers, and config.json)."""
    root = Path(hub_dir) if hub_dir is not None else hub_cache_dir()
    try:
        repositories = sorted(p for p in root.iterdir() if p.name.startswith("models--") and p.is_dir())
    except OSError:
        return []
    found = []
    for repository in repositories:
        for snapshot in _snapshots(repository):
            if _is_listed_folder(snapshot, root):
                found.append(CachedCheckpoint(repository.name[len("models--"):].replace("--", "/"), snapshot))
                break
    return sorted(found, key=lambda model: model.name.lower())
