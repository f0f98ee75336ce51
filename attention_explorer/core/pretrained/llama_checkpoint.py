"""A Llama or Qwen2 config.json and its tensors, checked into LlamaConfig and LlamaWeights.

Supported: RMSNorm, RoPE without scaling (rope_scaling absent or null, or of rope_type "default"; rope_theta at
the top level as transformers 4 writes it, or inside rope_parameters as transformers 5 does), grouped-query
attention, SwiGLU ("silu"), q/k/v biases (Qwen2 always, Llama with attention_bias), MLP biases (mlp_bias), tied or
untied embeddings. Refused by name: other RoPE types (llama3, linear, dynamic, yarn, longrope, …), a partial
rotary factor, interleaved RoPE, other activations, and Qwen2's sliding-window attention.
"""

from __future__ import annotations

import json
import math
from collections.abc import Collection, Mapping
from typing import Any

import numpy as np

from attention_explorer.core.messages import big_integer_text, number_text, value_kind
from attention_explorer.core.pretrained.config_fields import CheckpointError, _flag, _norm_epsilon, _text, _whole
from attention_explorer.core.pretrained.llama import LlamaBlock, LlamaConfig, LlamaWeights
from attention_explorer.core.pretrained.safetensors_file import TensorEntry

LLAMA_TYPES = ("llama", "qwen2")
# config.json's sizes → our field names and the largest value any real model comes near.
_SIZES = {
    "vocab_size": ("vocab_size", 10_000_000),
    "hidden_size": ("hidden_size", 65_536),
    "num_hidden_layers": ("num_layers", 1_000),
    "num_attention_heads": ("num_heads", 4_096),
    "intermediate_size": ("intermediate_size", 1_048_576),
}
_OPTIONAL_SIZES = {  # absent or null: the default
    "num_key_value_heads": ("num_kv_heads", 4_096),
    "head_dim": ("head_size", 65_536),
    "max_position_embeddings": ("max_position_embeddings", 16_777_216),
}
_DEFAULT_POSITIONS = {"llama": 2048, "qwen2": 32768}  # transformers' defaults when config.json does not say
_ACTIVATIONS = ("silu", "swish")  # the same function under two names
_ROPE_KEYS = ("rope_type", "type", "rope_theta", "partial_rotary_factor")
_LARGEST_THETA = 1e12
_BLOCK_TENSORS = {
    "input_norm_weight": "input_layernorm.weight", "post_norm_weight": "post_attention_layernorm.weight",
    "query_weight": "self_attn.q_proj.weight", "query_bias": "self_attn.q_proj.bias",
    "key_weight": "self_attn.k_proj.weight", "key_bias": "self_attn.k_proj.bias",
    "value_weight": "self_attn.v_proj.weight", "value_bias": "self_attn.v_proj.bias",
    "output_weight": "self_attn.o_proj.weight", "output_bias": "self_attn.o_proj.bias",
    "gate_weight": "mlp.gate_proj.weight", "gate_bias": "mlp.gate_proj.bias",
    "up_weight": "mlp.up_proj.weight", "up_bias": "mlp.up_proj.bias",
    "down_weight": "mlp.down_proj.weight", "down_bias": "mlp.down_proj.bias",
}
_TOP_TENSORS = {"token_embeddings": "embed_tokens.weight", "final_norm_weight": "norm.weight"}
LM_HEAD = "lm_head.weight"  # never under the "model." prefix


def _number(value: Any, where: str) -> float:
    """A finite number (true/false and strings are not)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise CheckpointError("{0}: expected a number, got {1}", where, value_kind(value))
    if isinstance(value, int) and abs(value) >= 10**15:
        raise CheckpointError("{0}: {1} is out of range", where, big_integer_text(value))
    if not math.isfinite(value):
        raise CheckpointError("{0}: NaN is not allowed (every number must be finite)", where)
    return float(value)


def _rope_theta(document: dict, place: str) -> float:
    """RoPE's θ, after refusing every RoPE variant but the original one."""
    theta, where = document.get("rope_theta"), f"{place}: rope_theta"
    partial = document.get("partial_rotary_factor")
    for key in ("rope_parameters", "rope_scaling"):  # transformers lets the older rope_scaling win
        rope = document.get(key)
        if rope is None:
            continue
        if not isinstance(rope, dict):
            raise CheckpointError("{0}: expected an object or null, got {1}", f"{place}: {key}", value_kind(rope))
        for name in rope:
            if name not in _ROPE_KEYS:
                raise CheckpointError("{0}: {1} is not supported (only {2})", f"{place}: {key}",
                                      json.dumps(name, ensure_ascii=False)[:60], "rope_type, rope_theta")
        kind = rope.get("rope_type", rope.get("type", "default"))
        if kind != "default":
            shown = json.dumps(kind, ensure_ascii=False)[:60]
            raise CheckpointError("{0}: RoPE of type {1} is not supported (only the original RoPE, \"default\", "
                                  "without scaling)", f"{place}: {key}", shown)
        if rope.get("rope_theta") is not None:
            theta, where = rope["rope_theta"], f"{place}: {key}.rope_theta"
        partial = rope.get("partial_rotary_factor", partial)
    if partial is not None and _number(partial, f"{place}: partial_rotary_factor") != 1:
        raise CheckpointError("{0}: partial_rotary_factor {1} is not supported (RoPE on every dimension only)",
                              place, number_text(float(partial)))
    if theta is None:
        return 10000.0
    value = _number(theta, where)
    if not 1 < value <= _LARGEST_THETA:
        raise CheckpointError("{0}: {1} is out of range (above 1, at most {2:g})", where, number_text(value),
                              _LARGEST_THETA)
    return value


def _refuse_other_layouts(document: dict, model_type: str, place: str) -> None:
    """One message for each variant this forward pass does not compute."""
    activation = _text(document, "hidden_act", place, "silu")
    if activation not in _ACTIVATIONS:
        raise CheckpointError("{0}: hidden_act {1!r} is not supported (supported: {2})", place, activation[:60],
                              ", ".join(_ACTIVATIONS))
    if _flag(document, "rope_interleaved", place):
        raise CheckpointError("{0}: rope_interleaved true is not supported (only RoPE on the two halves of each "
                              "head, as transformers computes it)", place)
    if model_type == "qwen2" and _flag(document, "use_sliding_window", place):
        raise CheckpointError("{0}: use_sliding_window true is not supported (only full causal attention)", place)
    layer_types = document.get("layer_types")
    if layer_types is not None:
        if not isinstance(layer_types, list):
            raise CheckpointError("{0}: expected a list of strings, got {1}", f"{place}: layer_types",
                                  value_kind(layer_types))
        for kind in layer_types:
            if kind != "full_attention":
                raise CheckpointError("{0}: layer type {1} is not supported (only \"full_attention\")", place,
                                      json.dumps(kind, ensure_ascii=False)[:60])


def llama_config_from_dict(document: dict, model_type: str, place: str) -> LlamaConfig:
    """A LlamaConfig from a parsed config.json whose model_type is "llama" or "qwen2"; every field it uses is
    type-checked, and the variants it does not compute are refused."""
    _refuse_other_layouts(document, model_type, place)
    fields: dict[str, Any] = {}
    for key, (field, largest) in _SIZES.items():
        if key not in document:
            raise CheckpointError("{0}: {1} is missing", place, key)
        fields[field] = _whole(document, key, place, largest)
    for key, (field, largest) in _OPTIONAL_SIZES.items():
        if document.get(key) is not None:
            fields[field] = _whole(document, key, place, largest)
    hidden, heads = fields["hidden_size"], fields["num_heads"]
    if "head_size" not in fields:
        if hidden % heads:
            raise CheckpointError("{0}: hidden_size {1} is not a multiple of num_attention_heads {2}", place, hidden,
                                  heads)
        fields["head_size"] = hidden // heads
    if fields["head_size"] % 2:
        raise CheckpointError("{0}: head_dim {1} is odd; RoPE turns pairs of numbers and needs an even head size",
                              place, fields["head_size"])
    fields.setdefault("num_kv_heads", heads)
    if heads % fields["num_kv_heads"]:
        raise CheckpointError("{0}: num_attention_heads {1} is not a multiple of num_key_value_heads {2}", place,
                              heads, fields["num_kv_heads"])
    fields.setdefault("max_position_embeddings", _DEFAULT_POSITIONS[model_type])
    if "rms_norm_eps" in document:
        fields["rms_norm_eps"] = _norm_epsilon(document, place, "rms_norm_eps")
    if model_type == "qwen2":
        fields["qkv_bias"] = True
    else:
        fields["attention_bias"] = _flag(document, "attention_bias", place)
        fields["mlp_bias"] = _flag(document, "mlp_bias", place)
    return LlamaConfig(rope_theta=_rope_theta(document, place),
                       tie_word_embeddings=_flag(document, "tie_word_embeddings", place), model_type=model_type,
                       **fields)


def _find_prefix(names: Collection[str], place: str) -> str:
    """"model." for LlamaForCausalLM and Qwen2ForCausalLM checkpoints, "" for a bare LlamaModel."""
    for prefix in ("model.", ""):
        if prefix + _TOP_TENSORS["token_embeddings"] in names:
            return prefix
    raise CheckpointError("{0}: no {1} tensor: not a Llama-family checkpoint", place, "model.embed_tokens.weight")


def _names(config: LlamaConfig, prefix: str) -> dict[str, tuple[str, int | None]]:
    """Checkpoint name → (field, block index or None) of every tensor this config reads."""
    names: dict[str, tuple[str, int | None]] = {prefix + name: (field, None) for field, name in _TOP_TENSORS.items()}
    if not config.tie_word_embeddings:
        names[LM_HEAD] = ("lm_head", None)
    block_fields = LlamaBlock.shapes(config)
    for index in range(config.num_layers):
        names |= {f"{prefix}layers.{index}.{name}": (field, index) for field, name in _BLOCK_TENSORS.items()
                  if field in block_fields}
    return names


def llama_tensor_shapes(config: LlamaConfig, names: Collection[str], place: str) -> dict[str, tuple[int, ...]]:
    """The checkpoint name and the shape config.json gives of every tensor the model reads (the rest are left)."""
    top, block = LlamaWeights.shapes(config), LlamaBlock.shapes(config)
    wanted = {}
    for name, (field, index) in _names(config, _find_prefix(names, place)).items():
        if name not in names:
            raise CheckpointError("{0}: tensor {1} is missing", place, name)
        wanted[name] = top[field] if index is None else block[field]
    return wanted


def llama_needed_bytes(config: LlamaConfig, entries: Collection[TensorEntry]) -> int:
    """Memory to read these tensors and run them: every number as float32 (bf16 and fp16 widened; f64 kept), the
    largest stored tensor once more while it is being widened, and the largest matrix a product widens to float64,
    twice (the heads are widened 8192 rows at a time)."""
    kept = sum(max(4, entry.nbytes // max(entry.count, 1)) * entry.count for entry in entries)
    reading = max((entry.nbytes for entry in entries), default=0)
    chunk = 8192 * config.hidden_size
    widened = max([min(entry.count, chunk) if entry.shape and entry.shape[0] == config.vocab_size else entry.count
                   for entry in entries], default=0)
    return kept + reading + 2 * 8 * widened


def llama_weights_from_tensors(config: LlamaConfig, tensors: Mapping[str, np.ndarray], place: str) -> LlamaWeights:
    """Pick the model's weights out of a checkpoint's named tensors, checking every name, kind and shape; each kept
    as float32 (or float64 when stored so)."""
    top: dict[str, np.ndarray] = {}
    blocks: list[dict[str, np.ndarray]] = [{} for _ in range(config.num_layers)]
    for name, (field, index) in _names(config, _find_prefix(tensors, place)).items():
        if name not in tensors:
            raise CheckpointError("{0}: tensor {1} is missing", place, name)
        array = np.asarray(tensors[name])
        if not np.issubdtype(array.dtype, np.floating):
            raise CheckpointError("{0}: tensor {1} holds {2}, expected floating-point numbers", place, name,
                                  array.dtype)
        if not np.isfinite(array).all():
            raise CheckpointError("{0}: {1} holds NaN or infinite numbers", place, name)
        array = array if array.dtype.itemsize >= 4 else array.astype(np.float32)
        (top if index is None else blocks[index])[field] = array
    try:
        return LlamaWeights(config=config, blocks=tuple(LlamaBlock(**fields) for fields in blocks), **top)
    except ValueError as error:
        raise CheckpointError("{0}: {1} (does config.json belong to these weights?)", place, error) from None
