"""A GPT-2 decoder's forward pass in plain numpy, and one generation step that reuses the keys and values cache.

Learned token and position embeddings, then per block: LayerNorm, causal multi-head self-attention (c_attn's
one matrix split into Q, K and V, Conv1D layout: x·W + b with W as (in, out)), output projection and residual;
LayerNorm, feed-forward with GELU (gelu_new), residual; a final LayerNorm ln_f. The language-model head is tied
to the token embeddings (logits = ln_f(h)·wteᵀ). Every computation runs in float64, as in bert.py.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from attention_explorer.core.maths.attention import inv_sqrt_scale, softmax
from attention_explorer.core.pretrained.bert import ACTIVATIONS, LayerAttention, check_shape, layer_norm


@dataclass(frozen=True)
class Gpt2Config:
    """The sizes of a GPT-2 (config.json's n_embd, n_head, n_layer, n_positions, … under BERT's field names)."""

    vocab_size: int
    hidden_size: int  # n_embd
    num_layers: int  # n_layer
    num_heads: int  # n_head
    intermediate_size: int  # n_inner, 4·n_embd when null
    max_position_embeddings: int = 1024  # n_positions
    layer_norm_eps: float = 1e-5  # layer_norm_epsilon
    hidden_act: str = "gelu_new"  # activation_function
    model_type = "gpt2"

    def __post_init__(self) -> None:
        for name in ("vocab_size", "hidden_size", "num_layers", "num_heads", "intermediate_size",
                     "max_position_embeddings"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name}: expected a whole number ≥ 1, got {value!r}")
        if self.hidden_size % self.num_heads:
            raise ValueError(f"hidden_size {self.hidden_size} is not a multiple of num_heads {self.num_heads}")
        if self.hidden_act not in ACTIVATIONS:
            raise ValueError(f"hidden_act {self.hidden_act!r} is not supported")

    @property
    def head_size(self) -> int:
        """d_k of one head: n_embd / n_head."""
        return self.hidden_size // self.num_heads


@dataclass(frozen=True)
class Gpt2Block:
    """One decoder block; Conv1D matrices are (in_features, out_features), as GPT-2 stores them."""

    norm1_weight: np.ndarray  # ln_1
    norm1_bias: np.ndarray
    qkv_weight: np.ndarray  # attn.c_attn: (n_embd, 3·n_embd), Q | K | V side by side
    qkv_bias: np.ndarray
    projection_weight: np.ndarray  # attn.c_proj
    projection_bias: np.ndarray
    norm2_weight: np.ndarray  # ln_2
    norm2_bias: np.ndarray
    fc_weight: np.ndarray  # mlp.c_fc: (n_embd, n_inner)
    fc_bias: np.ndarray
    fc_projection_weight: np.ndarray  # mlp.c_proj: (n_inner, n_embd)
    fc_projection_bias: np.ndarray

    @staticmethod
    def shapes(config: Gpt2Config) -> dict[str, tuple[int, ...]]:
        """The shape every field must have."""
        h, i = config.hidden_size, config.intermediate_size
        return {
            "norm1_weight": (h,), "norm1_bias": (h,), "qkv_weight": (h, 3 * h), "qkv_bias": (3 * h,),
            "projection_weight": (h, h), "projection_bias": (h,), "norm2_weight": (h,), "norm2_bias": (h,),
            "fc_weight": (h, i), "fc_bias": (i,), "fc_projection_weight": (i, h), "fc_projection_bias": (h,),
        }


@dataclass(frozen=True)
class Gpt2Weights:
    """Every weight of a GPT-2: token and position embeddings, the blocks, the final LayerNorm."""

    config: Gpt2Config
    token_embeddings: np.ndarray  # wte, also the tied language-model head
    position_embeddings: np.ndarray  # wpe
    blocks: tuple[Gpt2Block, ...]
    final_norm_weight: np.ndarray  # ln_f
    final_norm_bias: np.ndarray

    @staticmethod
    def shapes(config: Gpt2Config) -> dict[str, tuple[int, ...]]:
        """The shape every field outside the blocks must have (the blocks' are Gpt2Block.shapes)."""
        c = config
        return {"token_embeddings": (c.vocab_size, c.hidden_size),
                "position_embeddings": (c.max_position_embeddings, c.hidden_size),
                "final_norm_weight": (c.hidden_size,), "final_norm_bias": (c.hidden_size,)}

    def __post_init__(self) -> None:
        c = self.config
        for name, shape in self.shapes(c).items():
            check_shape(getattr(self, name), shape, name)
        if len(self.blocks) != c.num_layers:
            raise ValueError(f"h: expected {c.num_layers} blocks, got {len(self.blocks)}")
        for index, block in enumerate(self.blocks):
            for name, shape in Gpt2Block.shapes(c).items():
                check_shape(getattr(block, name), shape, f"h[{index}].{name}")


@dataclass(frozen=True)
class DecoderOutput:
    """A forward pass over a sequence: every layer's attention (its keys and values are the KV cache)."""

    layers: tuple[LayerAttention, ...]  # weights are causal: row i is 0 beyond column i
    hidden_states: tuple[np.ndarray, ...]  # the embeddings, then each block's output (N × hidden)
    last_hidden_state: np.ndarray  # ln_f of the last block's output, N × hidden
    next_logits: np.ndarray  # the tied head's scores for the token after the last one (vocab,)

    @property
    def attentions(self) -> np.ndarray:
        """All attention weights as one array, layers × heads × N × N."""
        return np.stack([layer.weights for layer in self.layers])

    @property
    def n(self) -> int:
        """Tokens in the sequence (= tokens held in the KV cache)."""
        return int(self.hidden_states[0].shape[0])


def _conv1d(x: np.ndarray, weight: np.ndarray, bias: np.ndarray) -> np.ndarray:
    """x·W + b in float64 (GPT-2's Conv1D stores W as (in, out), the transpose of nn.Linear)."""
    return x @ weight.astype(np.float64, copy=False) + bias


def _split_heads(x: np.ndarray, num_heads: int) -> np.ndarray:
    """N × hidden → heads × N × head_size."""
    n, hidden = x.shape
    return x.reshape(n, num_heads, hidden // num_heads).transpose(1, 0, 2)


def _qkv(block: Gpt2Block, x: np.ndarray, config: Gpt2Config) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """ln_1, then c_attn's output cut into thirds Q | K | V, each heads × N × head_size."""
    normed = layer_norm(x, block.norm1_weight, block.norm1_bias, config.layer_norm_eps)
    q, k, v = np.split(_conv1d(normed, block.qkv_weight, block.qkv_bias), 3, axis=-1)
    return tuple(_split_heads(part, config.num_heads) for part in (q, k, v))


def _finish_block(block: Gpt2Block, x: np.ndarray, context: np.ndarray, config: Gpt2Config) -> np.ndarray:
    """The block after attention: c_proj and residual, then ln_2, the GELU feed-forward and residual."""
    x = x + _conv1d(context, block.projection_weight, block.projection_bias)
    inner = ACTIVATIONS[config.hidden_act](
        _conv1d(layer_norm(x, block.norm2_weight, block.norm2_bias, config.layer_norm_eps), block.fc_weight,
                block.fc_bias))
    return x + _conv1d(inner, block.fc_projection_weight, block.fc_projection_bias)


def check_ids(config: object, ids: np.ndarray, start: int) -> None:
    """Refuse ids a decoder (GPT-2 or Llama: any config with max_position_embeddings and vocab_size) cannot take
    at `start`: none, past its positions, or outside its vocabulary."""
    if ids.size < 1:
        raise ValueError("input_ids: expected at least one token")
    if start + ids.size > config.max_position_embeddings:
        raise ValueError(f"input_ids: {start + ids.size} tokens, this model takes at most "
                         f"{config.max_position_embeddings}")
    if ids.min() < 0 or ids.max() >= config.vocab_size:
        raise ValueError(f"input_ids: ids must lie in 0–{config.vocab_size - 1}")


_LOGIT_ROWS = 8192  # wte widened to float64 this many rows at a time: GPT-2's whole wte would be 300 MB at once


def next_token_logits(weights: Gpt2Weights, last_hidden: np.ndarray) -> np.ndarray:
    """The tied language-model head on one final hidden state: ln_f(h)·wteᵀ, one score per vocabulary token."""
    table = weights.token_embeddings
    return np.concatenate([table[start:start + _LOGIT_ROWS].astype(np.float64, copy=False) @ last_hidden
                           for start in range(0, table.shape[0], _LOGIT_ROWS)])


def decode(weights: Gpt2Weights, input_ids: Sequence[int],
           on_layer: Callable[[int], None] | None = None) -> DecoderOutput:
    """Run GPT-2 on a whole sequence: every token attends to itself and the tokens before it (`on_layer(i)` after
    block i)."""
    config = weights.config
    ids = np.asarray(input_ids, dtype=np.int64).reshape(-1)
    check_ids(config, ids, 0)
    n = ids.size
    x = weights.token_embeddings[ids].astype(np.float64) + weights.position_embeddings[:n]
    scale = inv_sqrt_scale(config.head_size)
    causal = np.tril(np.ones((n, n), dtype=bool))[np.newaxis]
    hidden_states, layers = [x], []
    for block in weights.blocks:
        q, k, v = _qkv(block, x, config)
        scaled = q @ k.transpose(0, 2, 1) * scale
        probabilities = softmax(scaled, mask=causal)
        context = (probabilities @ v).transpose(1, 0, 2).reshape(n, config.hidden_size)
        x = _finish_block(block, x, context, config)
        layers.append(LayerAttention(q, k, v, scaled, probabilities))
        hidden_states.append(x)
        if on_layer is not None:
            on_layer(len(layers) - 1)
    final = layer_norm(x, weights.final_norm_weight, weights.final_norm_bias, config.layer_norm_eps)
    return DecoderOutput(tuple(layers), tuple(hidden_states), final, next_token_logits(weights, final[-1]))


def grow_layer(old: LayerAttention, q: np.ndarray, k: np.ndarray, v: np.ndarray, new_scores: np.ndarray,
           new_weights: np.ndarray, scale: float) -> LayerAttention:
    """The layer's matrices with one more token: its row, and a column the earlier (causal) rows give 0 to."""
    queries = np.concatenate([old.queries, q], axis=1)
    keys = np.concatenate([old.keys, k], axis=1)
    values = np.concatenate([old.values, v], axis=1)
    # The earlier queries never see the new key (weight 0), but their unmasked score is shown like every other.
    column = old.queries @ k.transpose(0, 2, 1) * scale
    scores = np.concatenate([np.concatenate([old.scaled_scores, column], axis=2), new_scores], axis=1)
    zeros = np.zeros((*old.weights.shape[:2], 1))
    weights = np.concatenate([np.concatenate([old.weights, zeros], axis=2), new_weights], axis=1)
    return LayerAttention(queries, keys, values, scores, weights)


def decode_next(weights: Gpt2Weights, past: DecoderOutput, token_id: int) -> DecoderOutput:
    """Append one token using the cached keys and values: only its own q, k, v are computed (O(n·d) attention)."""
    config = weights.config
    n = past.n
    check_ids(config, np.asarray([token_id], dtype=np.int64), n)
    x = weights.token_embeddings[[token_id]].astype(np.float64) + weights.position_embeddings[n:n + 1]
    scale = inv_sqrt_scale(config.head_size)
    hidden_states, layers = [np.concatenate([past.hidden_states[0], x])], []
    for index, block in enumerate(weights.blocks):
        cached = past.layers[index]
        q, k, v = _qkv(block, x, config)
        keys = np.concatenate([cached.keys, k], axis=1)  # the cache grows by one row per head
        values = np.concatenate([cached.values, v], axis=1)
        scaled = q @ keys.transpose(0, 2, 1) * scale  # heads × 1 × (n + 1): the new query row
        probabilities = softmax(scaled)  # the newest token may see every cached key: nothing to mask
        context = (probabilities @ values).transpose(1, 0, 2).reshape(1, config.hidden_size)
        x = _finish_block(block, x, context, config)
        layers.append(grow_layer(cached, q, k, v, scaled, probabilities, scale))
        hidden_states.append(np.concatenate([past.hidden_states[index + 1], x]))
    final = layer_norm(x, weights.final_norm_weight, weights.final_norm_bias, config.layer_norm_eps)
    return DecoderOutput(tuple(layers), tuple(hidden_states), np.concatenate([past.last_hidden_state, final]),
                         next_token_logits(weights, final[-1]))
