"""A BERT encoder's forward pass in plain numpy, keeping every layer's per-head q, k, v and attention.

Embeddings (word + position + token type) and LayerNorm, then per layer: multi-head self-attention with the
attention mask, output projection, residual and LayerNorm; feed-forward with GELU, residual and LayerNorm.
Weights are stored as given (float32 in Hugging Face checkpoints); every computation runs in float64, so the
numbers the app shows do not depend on summation order beyond ~1e-15 (transformers' float32 agrees to ~1e-7).
No Qt, no PyTorch: the Hugging Face folder format lives in checkpoint.py.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from attention_explorer.core.maths.attention import inv_sqrt_scale, softmax

# math.erf element by element: exact to double precision, and no SciPy needed. Element by element is slow,
# so it is kept to the GELU alone: a sentence of 16 tokens through MiniLM evaluates ~150 000 of them.
_erf = np.vectorize(math.erf, otypes=[np.float64])
_SQRT_HALF = math.sqrt(0.5)
_TANH_GELU_C = math.sqrt(2.0 / math.pi)


def erf(x: np.ndarray) -> np.ndarray:
    """The error function, element-wise."""
    return _erf(np.asarray(x, dtype=np.float64))


def gelu(x: np.ndarray) -> np.ndarray:
    """GELU in BERT's exact form, x·Φ(x) = ½·x·(1 + erf(x/√2))."""
    x = np.asarray(x, dtype=np.float64)
    return 0.5 * x * (1.0 + erf(x * _SQRT_HALF))


def gelu_tanh(x: np.ndarray) -> np.ndarray:
    """GELU's tanh approximation (transformers' "gelu_new" and "gelu_pytorch_tanh")."""
    x = np.asarray(x, dtype=np.float64)
    return 0.5 * x * (1.0 + np.tanh(_TANH_GELU_C * (x + 0.044715 * x**3)))


def relu(x: np.ndarray) -> np.ndarray:
    """max(x, 0)."""
    return np.maximum(np.asarray(x, dtype=np.float64), 0.0)


ACTIVATIONS = {"gelu": gelu, "gelu_new": gelu_tanh, "gelu_pytorch_tanh": gelu_tanh, "relu": relu}


@dataclass(frozen=True)
class BertConfig:
    """The sizes of a BERT encoder (the fields of a Hugging Face config.json that the forward pass needs)."""

    vocab_size: int
    hidden_size: int
    num_layers: int
    num_heads: int
    intermediate_size: int
    max_position_embeddings: int = 512
    type_vocab_size: int = 2
    layer_norm_eps: float = 1e-12
    hidden_act: str = "gelu"
    model_type = "bert"

    def __post_init__(self) -> None:
        for name in ("vocab_size", "hidden_size", "num_layers", "num_heads", "intermediate_size",
                     "max_position_embeddings", "type_vocab_size"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name}: expected a whole number ≥ 1, got {value!r}")
        if self.hidden_size % self.num_heads:
            raise ValueError(f"hidden_size {self.hidden_size} is not a multiple of num_heads {self.num_heads}")
        if self.hidden_act not in ACTIVATIONS:
            raise ValueError(f"hidden_act {self.hidden_act!r} is not supported (supported: {', '.join(ACTIVATIONS)})")
        if not (isinstance(self.layer_norm_eps, (int, float)) and 0 < self.layer_norm_eps < 1):
            raise ValueError(f"layer_norm_eps: expected a small positive number, got {self.layer_norm_eps!r}")

    @property
    def head_size(self) -> int:
        """d_k of one head: hidden_size / num_heads."""
        return self.hidden_size // self.num_heads


@dataclass(frozen=True)
class LayerWeights:
    """One encoder layer; matrices as in PyTorch's nn.Linear, (out_features, in_features)."""

    query_weight: np.ndarray
    query_bias: np.ndarray
    key_weight: np.ndarray
    key_bias: np.ndarray
    value_weight: np.ndarray
    value_bias: np.ndarray
    attention_output_weight: np.ndarray
    attention_output_bias: np.ndarray
    attention_norm_weight: np.ndarray
    attention_norm_bias: np.ndarray
    intermediate_weight: np.ndarray
    intermediate_bias: np.ndarray
    output_weight: np.ndarray
    output_bias: np.ndarray
    output_norm_weight: np.ndarray
    output_norm_bias: np.ndarray

    @staticmethod
    def shapes(config: BertConfig) -> dict[str, tuple[int, ...]]:
        """The shape every field must have."""
        h, i = config.hidden_size, config.intermediate_size
        return {
            "query_weight": (h, h), "query_bias": (h,), "key_weight": (h, h), "key_bias": (h,),
            "value_weight": (h, h), "value_bias": (h,),
            "attention_output_weight": (h, h), "attention_output_bias": (h,),
            "attention_norm_weight": (h,), "attention_norm_bias": (h,),
            "intermediate_weight": (i, h), "intermediate_bias": (i,),
            "output_weight": (h, i), "output_bias": (h,),
            "output_norm_weight": (h,), "output_norm_bias": (h,),
        }


@dataclass(frozen=True)
class BertWeights:
    """Every weight of a BERT encoder (the pooler is not needed for attention and is left out)."""

    config: BertConfig
    word_embeddings: np.ndarray
    position_embeddings: np.ndarray
    token_type_embeddings: np.ndarray
    embedding_norm_weight: np.ndarray
    embedding_norm_bias: np.ndarray
    layers: tuple[LayerWeights, ...]

    @staticmethod
    def shapes(config: BertConfig) -> dict[str, tuple[int, ...]]:
        """The shape every embedding field must have (the layers' are LayerWeights.shapes)."""
        c = config
        return {
            "word_embeddings": (c.vocab_size, c.hidden_size),
            "position_embeddings": (c.max_position_embeddings, c.hidden_size),
            "token_type_embeddings": (c.type_vocab_size, c.hidden_size),
            "embedding_norm_weight": (c.hidden_size,), "embedding_norm_bias": (c.hidden_size,),
        }

    def __post_init__(self) -> None:
        c = self.config
        for name, shape in self.shapes(c).items():
            check_shape(getattr(self, name), shape, name)
        if len(self.layers) != c.num_layers:
            raise ValueError(f"layers: expected {c.num_layers}, got {len(self.layers)}")
        layer_shapes = LayerWeights.shapes(c)
        for index, layer in enumerate(self.layers):
            for name, shape in layer_shapes.items():
                check_shape(getattr(layer, name), shape, f"layers[{index}].{name}")


def check_shape(array: np.ndarray, shape: tuple[int, ...], place: str) -> None:
    """Refuse an array whose shape is not `shape` (a programming error, never the user's input)."""
    if tuple(np.shape(array)) != shape:
        raise ValueError(f"{place}: expected shape {shape}, got {tuple(np.shape(array))}")


@dataclass(frozen=True)
class LayerAttention:
    """One layer's attention, per head: q, k, v (heads × N × head_size), scores and weights (heads × N × N)."""

    queries: np.ndarray
    keys: np.ndarray
    values: np.ndarray
    scaled_scores: np.ndarray  # q·k/√d_k before the mask is applied
    weights: np.ndarray  # softmax over the keys with masked keys excluded; each row sums to 1


@dataclass(frozen=True)
class EncoderOutput:
    """What one forward pass produced: every layer's attention and every hidden state."""

    layers: tuple[LayerAttention, ...]
    hidden_states: tuple[np.ndarray, ...]  # the embeddings' output, then each layer's output (N × hidden)

    @property
    def attentions(self) -> np.ndarray:
        """All attention weights as one array, layers × heads × N × N."""
        return np.stack([layer.weights for layer in self.layers])

    @property
    def last_hidden_state(self) -> np.ndarray:
        """The encoder's output, N × hidden."""
        return self.hidden_states[-1]


def layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray, eps: float) -> np.ndarray:
    """Normalise each row to mean 0 and variance 1 (biased variance, as PyTorch), then scale and shift."""
    mean = x.mean(axis=-1, keepdims=True)
    centred = x - mean
    variance = np.mean(centred * centred, axis=-1, keepdims=True)
    return centred / np.sqrt(variance + eps) * weight + bias


def _linear(x: np.ndarray, weight: np.ndarray, bias: np.ndarray) -> np.ndarray:
    """x·Wᵀ + b in float64 (nn.Linear's layout); float32 weights are widened per product, not stored twice."""
    return x @ weight.T.astype(np.float64, copy=False) + bias


def _split_heads(x: np.ndarray, num_heads: int) -> np.ndarray:
    """N × hidden → heads × N × head_size."""
    n, hidden = x.shape
    return x.reshape(n, num_heads, hidden // num_heads).transpose(1, 0, 2)


def encode(weights: BertWeights, input_ids: Sequence[int], token_type_ids: Sequence[int] | None = None,
           attention_mask: Sequence[int] | None = None,
           on_layer: Callable[[int], None] | None = None) -> EncoderOutput:
    """Run the encoder on one sequence of token ids; mask 0 marks padding that no token may attend to.

    `on_layer(i)` is called after layer i (a progress bar's hook).
    """
    config = weights.config
    ids = np.asarray(input_ids, dtype=np.int64).reshape(-1)
    n = ids.shape[0]
    if n < 1:
        raise ValueError("input_ids: expected at least one token")
    if n > config.max_position_embeddings:
        raise ValueError(f"input_ids: {n} tokens, this model takes at most {config.max_position_embeddings}")
    if ids.min() < 0 or ids.max() >= config.vocab_size:
        raise ValueError(f"input_ids: ids must lie in 0–{config.vocab_size - 1}")
    types = np.zeros(n, dtype=np.int64) if token_type_ids is None else np.asarray(token_type_ids, np.int64)
    if types.shape != (n,) or types.min() < 0 or types.max() >= config.type_vocab_size:
        raise ValueError(f"token_type_ids: expected {n} ids in 0–{config.type_vocab_size - 1}")
    keep = np.ones(n, dtype=bool) if attention_mask is None else np.asarray(attention_mask).reshape(-1) != 0
    if keep.shape != (n,) or not keep.any():
        raise ValueError(f"attention_mask: expected {n} entries, at least one of them 1")

    x = (weights.word_embeddings[ids].astype(np.float64) + weights.position_embeddings[:n]
         + weights.token_type_embeddings[types])
    x = layer_norm(x, weights.embedding_norm_weight, weights.embedding_norm_bias, config.layer_norm_eps)
    activation = ACTIVATIONS[config.hidden_act]
    scale = inv_sqrt_scale(config.head_size)
    key_mask = keep[np.newaxis, np.newaxis, :]  # the same keys are hidden from every head and query
    hidden_states = [x]
    layers = []
    for layer in weights.layers:
        q = _split_heads(_linear(x, layer.query_weight, layer.query_bias), config.num_heads)
        k = _split_heads(_linear(x, layer.key_weight, layer.key_bias), config.num_heads)
        v = _split_heads(_linear(x, layer.value_weight, layer.value_bias), config.num_heads)
        scaled = q @ k.transpose(0, 2, 1) * scale
        probabilities = softmax(scaled, mask=key_mask)
        context = (probabilities @ v).transpose(1, 0, 2).reshape(n, config.hidden_size)
        attended = _linear(context, layer.attention_output_weight, layer.attention_output_bias)
        x = layer_norm(attended + x, layer.attention_norm_weight, layer.attention_norm_bias, config.layer_norm_eps)
        inner = activation(_linear(x, layer.intermediate_weight, layer.intermediate_bias))
        x = layer_norm(_linear(inner, layer.output_weight, layer.output_bias) + x,
                       layer.output_norm_weight, layer.output_norm_bias, config.layer_norm_eps)
        layers.append(LayerAttention(q, k, v, scaled, probabilities))
        hidden_states.append(x)
        if on_layer is not None:
            on_layer(len(layers) - 1)
    return EncoderOutput(tuple(layers), tuple(hidden_states))
