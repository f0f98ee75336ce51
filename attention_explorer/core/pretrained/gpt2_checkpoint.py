"""A GPT-2's config.json fields and model.safetensors tensors, checked into Gpt2Config and Gpt2Weights."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

import numpy as np

from attention_explorer.core.pretrained.bert import ACTIVATIONS
from attention_explorer.core.pretrained.config_fields import CheckpointError, _flag, _norm_epsilon, _text, _whole
from attention_explorer.core.pretrained.gpt2 import Gpt2Block, Gpt2Config, Gpt2Weights

# config.json's sizes → our field names and the largest value any real GPT-2 comes near.
_SIZES = {
    "vocab_size": ("vocab_size", 10_000_000),
    "n_embd": ("hidden_size", 65_536),
    "n_layer": ("num_layers", 1_000),
    "n_head": ("num_heads", 4_096),
    "n_positions": ("max_position_embeddings", 1_048_576),
}
_INNER_LARGEST = 1_048_576
_BLOCK_TENSORS = {
    "norm1_weight": "ln_1.weight", "norm1_bias": "ln_1.bias",
    "qkv_weight": "attn.c_attn.weight", "qkv_bias": "attn.c_attn.bias",
    "projection_weight": "attn.c_proj.weight", "projection_bias": "attn.c_proj.bias",
    "norm2_weight": "ln_2.weight", "norm2_bias": "ln_2.bias",
    "fc_weight": "mlp.c_fc.weight", "fc_bias": "mlp.c_fc.bias",
    "fc_projection_weight": "mlp.c_proj.weight", "fc_projection_bias": "mlp.c_proj.bias",
}
_TOP_TENSORS = {"token_embeddings": "wte.weight", "position_embeddings": "wpe.weight",
                "final_norm_weight": "ln_f.weight", "final_norm_bias": "ln_f.bias"}


def gpt2_config_from_dict(document: dict, place: str) -> Gpt2Config:
    """A Gpt2Config from a parsed config.json whose model_type is "gpt2"; every field it uses is type-checked."""
    fields: dict[str, Any] = {}
    for key, (field, largest) in _SIZES.items():
        if key not in document:
            raise CheckpointError("{0}: {1} is missing", place, key)
        fields[field] = _whole(document, key, place, largest)
    if document.get("n_inner") is not None:
        fields["intermediate_size"] = _whole(document, "n_inner", place, _INNER_LARGEST)
    else:
        fields["intermediate_size"] = 4 * fields["hidden_size"]
    if "layer_norm_epsilon" in document:
        fields["layer_norm_eps"] = _norm_epsilon(document, place, "layer_norm_epsilon")
    activation = _text(document, "activation_function", place, "gelu_new")
    if activation not in ACTIVATIONS:
        raise CheckpointError("{0}: activation_function {1!r} is not supported (supported: {2})", place,
                              activation[:60], ", ".join(ACTIVATIONS))
    if "scale_attn_weights" in document and not _flag(document, "scale_attn_weights", place):
        raise CheckpointError("{0}: scale_attn_weights false is not supported (only the scaling by 1/√d_k)", place)
    for key in ("scale_attn_by_inverse_layer_idx", "add_cross_attention"):
        if _flag(document, key, place):
            raise CheckpointError("{0}: {1} true is not supported (only the original GPT-2 layout)", place, key)
    if fields["hidden_size"] % fields["num_heads"]:
        raise CheckpointError("{0}: n_embd {1} is not a multiple of n_head {2}", place, fields["hidden_size"],
                              fields["num_heads"])
    return Gpt2Config(hidden_act=activation, **fields)


def _find_prefix(tensors: Collection[str], place: str) -> str:
    """"" for a GPT2Model checkpoint (gpt2 on the Hub), "transformer." for GPT2LMHeadModel (distilgpt2)."""
    for prefix in ("", "transformer."):
        if prefix + "wte.weight" in tensors:
            return prefix
    raise CheckpointError("{0}: no {1} tensor: not a GPT-2 checkpoint", place, "wte.weight")


def gpt2_tensor_shapes(config: Gpt2Config, names: Collection[str], place: str) -> dict[str, tuple[int, ...]]:
    """The checkpoint name and the shape config.json gives of every tensor a GPT-2 reads (the rest are left)."""
    prefix = _find_prefix(names, place)
    shapes = Gpt2Weights.shapes(config)
    wanted = {prefix + name: shapes[field] for field, name in _TOP_TENSORS.items()}
    block_shapes = Gpt2Block.shapes(config)
    for index in range(config.num_layers):
        wanted |= {f"{prefix}h.{index}.{name}": block_shapes[field] for field, name in _BLOCK_TENSORS.items()}
    for name in wanted:
        if name not in names:
            raise CheckpointError("{0}: tensor {1} is missing", place, name)
    return wanted


def gpt2_weights_from_tensors(config: Gpt2Config, tensors: Mapping[str, np.ndarray], place: str) -> Gpt2Weights:
    """Pick a GPT-2's weights out of a checkpoint's named tensors, checking every name, kind and shape."""
    prefix = _find_prefix(tensors, place)

    def tensor(name: str) -> np.ndarray:
        full = prefix + name
        if full not in tensors:
            raise CheckpointError("{0}: tensor {1} is missing", place, full)
        array = np.asarray(tensors[full])
        if not np.issubdtype(array.dtype, np.floating):
            raise CheckpointError("{0}: tensor {1} holds {2}, expected floating-point numbers", place, full,
                                  array.dtype)
        if not np.isfinite(array).all():
            raise CheckpointError("{0}: {1} holds NaN or infinite numbers", place, full)
        # Widened once here: a generation step multiplies one row by every matrix, and widening them per step
        # would cost more than the step itself.
        return np.asarray(array, dtype=np.float64)

    top = {field: tensor(name) for field, name in _TOP_TENSORS.items()}
    blocks = tuple(Gpt2Block(**{field: tensor(f"h.{index}.{name}") for field, name in _BLOCK_TENSORS.items()})
                   for index in range(config.num_layers))
    try:
        return Gpt2Weights(config=config, blocks=blocks, **top)
    except ValueError as error:
        raise CheckpointError("{0}: {1} (does config.json belong to these weights?)", place, error) from None
