"""A Llama-family decoder's forward pass in plain numpy (Llama, SmolLM2, TinyLlama, Qwen2), with the KV cache.

Token embeddings only (no position table), then per block: RMSNorm, causal grouped-query self-attention with RoPE
on q and k (rope.py), output projection and residual; RMSNorm, the SwiGLU feed-forward down(silu(gate(x))·up(x)),
residual; a final RMSNorm and the language-model head (the token embeddings again when they are tied).

Grouped-query attention: `num_kv_heads` K/V heads serve `num_heads` query heads, query head h reading K/V head
h // (num_heads / num_kv_heads). The KV cache holds only the K/V heads; each query head's keys and values (what
the app shows per head) are its K/V head's, repeated. Weights are kept as float32 (bf16 and fp16 checkpoints are
widened to float32 exactly when read); every computation runs in float64, as in bert.py and gpt2.py.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from attention_explorer.core.maths.attention import inv_sqrt_scale, softmax
from attention_explorer.core.pretrained.bert import LayerAttention, check_shape
from attention_explorer.core.pretrained.gpt2 import DecoderOutput, check_ids, grow_layer
from attention_explorer.core.pretrained.rope import Rotary

_LOGIT_ROWS = 8192  # the head widened to float64 this many rows at a time (Qwen2.5's has 151 936 rows)


@dataclass(frozen=True)
class LlamaConfig:
    """The sizes of a Llama-family decoder (config.json's fields under BERT's names where there is one)."""

    vocab_size: int
    hidden_size: int
    num_layers: int  # num_hidden_layers
    num_heads: int  # num_attention_heads
    num_kv_heads: int  # num_key_value_heads (= num_heads without grouped-query attention)
    intermediate_size: int
    head_size: int  # head_dim, hidden_size / num_heads when config.json does not say
    max_position_embeddings: int = 2048
    rms_norm_eps: float = 1e-6
    rope_theta: float = 10000.0
    tie_word_embeddings: bool = False
    attention_bias: bool = False  # q, k, v and o biases (Llama's attention_bias)
    qkv_bias: bool = False  # q, k and v biases only (Qwen2)
    mlp_bias: bool = False
    model_type: str = "llama"  # or "qwen2"

    def __post_init__(self) -> None:
        for name in ("vocab_size", "hidden_size", "num_layers", "num_heads", "num_kv_heads", "intermediate_size",
                     "head_size", "max_position_embeddings"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name}: expected a whole number ≥ 1, got {value!r}")
        if self.num_heads % self.num_kv_heads:
            raise ValueError(f"num_heads {self.num_heads} is not a multiple of num_kv_heads {self.num_kv_heads}")
        Rotary(self.rope_theta, self.head_size)  # an odd head size or a θ ≤ 1 is refused here

    @property
    def group_size(self) -> int:
        """Query heads per K/V head."""
        return self.num_heads // self.num_kv_heads

    @property
    def kv_heads(self) -> tuple[int, ...]:
        """The K/V head of each query head: h // group_size."""
        return tuple(head // self.group_size for head in range(self.num_heads))

    @property
    def rotary(self) -> Rotary:
        """The model's RoPE."""
        return Rotary(self.rope_theta, self.head_size)

    @property
    def has_qkv_bias(self) -> bool:
        """q_proj, k_proj and v_proj have biases."""
        return self.attention_bias or self.qkv_bias


_BLOCK_BIASES = {"query_bias": "has_qkv_bias", "key_bias": "has_qkv_bias", "value_bias": "has_qkv_bias",
                 "output_bias": "attention_bias", "gate_bias": "mlp_bias", "up_bias": "mlp_bias",
                 "down_bias": "mlp_bias"}


@dataclass(frozen=True)
class LlamaBlock:
    """One decoder block; matrices as nn.Linear stores them, (out_features, in_features); absent biases are None."""

    input_norm_weight: np.ndarray  # input_layernorm
    query_weight: np.ndarray  # self_attn.q_proj: (heads · d, hidden)
    key_weight: np.ndarray  # self_attn.k_proj: (kv_heads · d, hidden)
    value_weight: np.ndarray  # self_attn.v_proj
    output_weight: np.ndarray  # self_attn.o_proj: (hidden, heads · d)
    post_norm_weight: np.ndarray  # post_attention_layernorm
    gate_weight: np.ndarray  # mlp.gate_proj: (intermediate, hidden)
    up_weight: np.ndarray  # mlp.up_proj
    down_weight: np.ndarray  # mlp.down_proj: (hidden, intermediate)
    query_bias: np.ndarray | None = None
    key_bias: np.ndarray | None = None
    value_bias: np.ndarray | None = None
    output_bias: np.ndarray | None = None
    gate_bias: np.ndarray | None = None
    up_bias: np.ndarray | None = None
    down_bias: np.ndarray | None = None

    @staticmethod
    def shapes(config: LlamaConfig) -> dict[str, tuple[int, ...]]:
        """The shape of every field this config has (the biases only where it has them)."""
        h, i, q, kv = (config.hidden_size, config.intermediate_size, config.num_heads * config.head_size,
                       config.num_kv_heads * config.head_size)
        shapes = {"input_norm_weight": (h,), "query_weight": (q, h), "key_weight": (kv, h), "value_weight": (kv, h),
                  "output_weight": (h, q), "post_norm_weight": (h,), "gate_weight": (i, h), "up_weight": (i, h),
                  "down_weight": (h, i)}
        biases = {"query_bias": (q,), "key_bias": (kv,), "value_bias": (kv,), "output_bias": (h,),
                  "gate_bias": (i,), "up_bias": (i,), "down_bias": (h,)}
        return shapes | {name: shape for name, shape in biases.items() if getattr(config, _BLOCK_BIASES[name])}


@dataclass(frozen=True)
class LlamaWeights:
    """Every weight of a Llama-family decoder: embeddings, blocks, final RMSNorm, and the head (None when tied)."""

    config: LlamaConfig
    token_embeddings: np.ndarray  # embed_tokens
    blocks: tuple[LlamaBlock, ...]
    final_norm_weight: np.ndarray  # norm
    lm_head: np.ndarray | None = None  # lm_head.weight; None: tied to token_embeddings

    @staticmethod
    def shapes(config: LlamaConfig) -> dict[str, tuple[int, ...]]:
        """The shape of every field outside the blocks (lm_head only when the embeddings are not tied)."""
        c = config
        shapes = {"token_embeddings": (c.vocab_size, c.hidden_size), "final_norm_weight": (c.hidden_size,)}
        return shapes if c.tie_word_embeddings else shapes | {"lm_head": (c.vocab_size, c.hidden_size)}

    def __post_init__(self) -> None:
        c = self.config
        for name, shape in self.shapes(c).items():
            check_shape(getattr(self, name), shape, name)
        if c.tie_word_embeddings and self.lm_head is not None:
            raise ValueError("lm_head: the embeddings are tied, so there is no separate head")
        if len(self.blocks) != c.num_layers:
            raise ValueError(f"layers: expected {c.num_layers} blocks, got {len(self.blocks)}")
        block_shapes = LlamaBlock.shapes(c)
        for index, block in enumerate(self.blocks):
            for name in _BLOCK_BIASES:
                if name not in block_shapes and getattr(block, name) is not None:
                    raise ValueError(f"layers[{index}].{name}: this config has no such bias")
            for name, shape in block_shapes.items():
                check_shape(getattr(block, name), shape, f"layers[{index}].{name}")

    @property
    def head(self) -> np.ndarray:
        """The language-model head's matrix (vocab × hidden): lm_head, or the token embeddings when tied."""
        return self.token_embeddings if self.lm_head is None else self.lm_head


@dataclass(frozen=True)
class RotaryLayerAttention(LayerAttention):
    """A Llama-family layer's attention: LayerAttention per query head (q and k after RoPE, keys and values those of
    the head's K/V head), the unrotated q and k, and the KV cache as the model holds it (one entry per K/V head)."""

    queries_unrotated: np.ndarray  # heads × N × d, before RoPE
    keys_unrotated: np.ndarray  # kv_heads × N × d, before RoPE
    cached_keys: np.ndarray  # kv_heads × N × d, after RoPE: the KV cache's K
    cached_values: np.ndarray  # kv_heads × N × d: the KV cache's V
    kv_heads: tuple[int, ...]  # the K/V head of each query head
    rope_theta: float  # the RoPE that turned q and k (rope.Rotary with the head size)


def rms_norm(x: np.ndarray, weight: np.ndarray, eps: float) -> np.ndarray:
    """x / √(mean(x²) + ε) · weight, row by row (no centring, no bias)."""
    return x / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + eps) * weight


def silu(x: np.ndarray) -> np.ndarray:
    """x · sigmoid(x), written with tanh so that no exponential overflows."""
    return x * 0.5 * (1.0 + np.tanh(0.5 * x))


def _linear(x: np.ndarray, weight: np.ndarray, bias: np.ndarray | None) -> np.ndarray:
    """x·Wᵀ (+ b) in float64; float32 weights are widened per product, not stored twice."""
    out = x @ weight.T.astype(np.float64, copy=False)
    return out if bias is None else out + bias


def _split_heads(x: np.ndarray, heads: int, size: int) -> np.ndarray:
    """N × (heads · size) → heads × N × size."""
    return x.reshape(x.shape[0], heads, size).transpose(1, 0, 2)


def _projections(block: LlamaBlock, x: np.ndarray, config: LlamaConfig) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """RMSNorm, then q (heads × N × d), k and v (kv_heads × N × d), before RoPE."""
    normed = rms_norm(x, block.input_norm_weight, config.rms_norm_eps)
    d = config.head_size
    return (_split_heads(_linear(normed, block.query_weight, block.query_bias), config.num_heads, d),
            _split_heads(_linear(normed, block.key_weight, block.key_bias), config.num_kv_heads, d),
            _split_heads(_linear(normed, block.value_weight, block.value_bias), config.num_kv_heads, d))


def _finish_block(block: LlamaBlock, x: np.ndarray, context: np.ndarray, config: LlamaConfig) -> np.ndarray:
    """The block after attention: o_proj and residual, then RMSNorm, the SwiGLU feed-forward and residual."""
    x = x + _linear(context, block.output_weight, block.output_bias)
    normed = rms_norm(x, block.post_norm_weight, config.rms_norm_eps)
    inner = silu(_linear(normed, block.gate_weight, block.gate_bias)) * _linear(normed, block.up_weight,
                                                                                   block.up_bias)
    return x + _linear(inner, block.down_weight, block.down_bias)





def next_token_logits(weights: LlamaWeights, last_hidden: np.ndarray) -> np.ndarray:
    """The language-model head on one final hidden state: one score per vocabulary token."""
    table = weights.head
    return np.concatenate([table[start:start + _LOGIT_ROWS].astype(np.float64, copy=False) @ last_hidden
                           for start in range(0, table.shape[0], _LOGIT_ROWS)])


def _context(attention: np.ndarray, values: np.ndarray, config: LlamaConfig) -> np.ndarray:
    """Attention weights (heads × n × N) times each head's values → n × (heads · d)."""
    n = attention.shape[1]
    return (attention @ values).transpose(1, 0, 2).reshape(n, config.num_heads * config.head_size)


def decode(weights: LlamaWeights, input_ids: Sequence[int],
           on_layer: Callable[[int], None] | None = None) -> DecoderOutput:
    """Run the decoder on a whole sequence at positions 0 … N − 1, causally (`on_layer(i)` after block i)."""
    config = weights.config
    ids = np.asarray(input_ids, dtype=np.int64).reshape(-1)
    check_ids(config, ids, 0)
    n = ids.size
    positions = np.arange(n)
    rotary, kv_of = config.rotary, np.asarray(config.kv_heads)
    x = weights.token_embeddings[ids].astype(np.float64)
    scale = inv_sqrt_scale(config.head_size)
    causal = np.tril(np.ones((n, n), dtype=bool))[np.newaxis]
    hidden_states, layers = [x], []
    for block in weights.blocks:
        q0, k0, v = _projections(block, x, config)
        q, k = rotary.rotate(q0, positions), rotary.rotate(k0, positions)
        keys, values = k[kv_of], v[kv_of]  # each query head's K/V head
        scaled = q @ keys.transpose(0, 2, 1) * scale
        probabilities = softmax(scaled, mask=causal)
        x = _finish_block(block, x, _context(probabilities, values, config), config)
        layers.append(RotaryLayerAttention(q, keys, values, scaled, probabilities, q0, k0, k, v, config.kv_heads,
                                           config.rope_theta))
        hidden_states.append(x)
        if on_layer is not None:
            on_layer(len(layers) - 1)
    final = rms_norm(x, weights.final_norm_weight, config.rms_norm_eps)
    return DecoderOutput(tuple(layers), tuple(hidden_states), final, next_token_logits(weights, final[-1]))


def decode_next(weights: LlamaWeights, past: DecoderOutput, token_id: int) -> DecoderOutput:
    """Append one token at position N using the KV cache: only its own q, k and v are computed."""
    config = weights.config
    n = past.n
    check_ids(config, np.asarray([token_id], dtype=np.int64), n)
    rotary, kv_of = config.rotary, np.asarray(config.kv_heads)
    x = weights.token_embeddings[[token_id]].astype(np.float64)
    scale = inv_sqrt_scale(config.head_size)
    hidden_states, layers = [np.concatenate([past.hidden_states[0], x])], []
    for index, block in enumerate(weights.blocks):
        cached: RotaryLayerAttention = past.layers[index]
        q0, k0, v = _projections(block, x, config)
        q, k = rotary.rotate(q0, n), rotary.rotate(k0, n)
        cache_k = np.concatenate([cached.cached_keys, k], axis=1)  # the cache grows by one row per K/V head
        cache_v = np.concatenate([cached.cached_values, v], axis=1)
        scaled = q @ cache_k[kv_of].transpose(0, 2, 1) * scale  # heads × 1 × (N + 1): the new query's row
        probabilities = softmax(scaled)  # the newest token may see every cached key: nothing to mask
        x = _finish_block(block, x, _context(probabilities, cache_v[kv_of], config), config)
        grown = grow_layer(cached, q, k[kv_of], v[kv_of], scaled, probabilities, scale)
        layers.append(RotaryLayerAttention(
            grown.queries, grown.keys, grown.values, grown.scaled_scores, grown.weights,
            np.concatenate([cached.queries_unrotated, q0], axis=1),
            np.concatenate([cached.keys_unrotated, k0], axis=1), cache_k, cache_v, config.kv_heads,
            config.rope_theta))
        hidden_states.append(np.concatenate([past.hidden_states[index + 1], x]))
    final = rms_norm(x, weights.final_norm_weight, config.rms_norm_eps)
    return DecoderOutput(tuple(layers), tuple(hidden_states), np.concatenate([past.last_hidden_state, final]),
                         next_token_logits(weights, final[-1]))
