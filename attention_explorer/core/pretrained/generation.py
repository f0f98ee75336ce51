"""Generation one token at a time: choosing the next token (greedy or seeded top-k), and what the KV cache costs."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attention_explorer.core.maths.attention import softmax
from attention_explorer.core.pretrained.config_fields import CheckpointError
from attention_explorer.core.pretrained.gpt2 import Gpt2Config
from attention_explorer.core.pretrained.llama import LlamaConfig

MAX_TOP_K = 1000


def next_token_id(logits: np.ndarray, top_k: int = 1, seed: int = 0, position: int = 0) -> int:
    """Greedy (top_k = 1: the highest logit, the lowest id on a tie) or a draw among the k highest, seeded.

    The draw's generator is seeded with (seed, position), so the same sentence and seed give the same tokens
    whatever was generated or undone before.
    """
    logits = np.asarray(logits, dtype=np.float64)
    if isinstance(top_k, bool) or not isinstance(top_k, int) or not 1 <= top_k <= MAX_TOP_K:
        raise CheckpointError("top-k: expected a whole number from 1 to {0}, got {1}", MAX_TOP_K, top_k)
    if top_k == 1:
        return int(np.argmax(logits))
    k = min(top_k, logits.size)
    candidates = np.argsort(-logits, kind="stable")[:k]
    probabilities = softmax(logits[candidates])
    rng = np.random.default_rng([seed, position])
    return int(candidates[rng.choice(k, p=probabilities)])


def token_probability(logits: np.ndarray, token_id: int) -> float:
    """softmax(logits)[token_id]: how likely the model found the token."""
    return float(softmax(np.asarray(logits, dtype=np.float64))[token_id])


@dataclass(frozen=True)
class CacheCost:
    """The KV cache after n tokens and the attention work of the next step with and without it.

    With grouped-query attention the cache holds kv_heads K/V heads, fewer than the query heads that read them.
    """

    layers: int
    heads: int  # query heads
    tokens: int
    head_size: int
    item_bytes: int  # per stored number (float64 here)
    kv_heads: int | None = None  # K/V heads; None: one per query head

    @property
    def cached_heads(self) -> int:
        """The heads whose keys and values the cache holds: kv_heads, or every query head without grouping."""
        return self.heads if self.kv_heads is None else self.kv_heads

    @property
    def shape(self) -> tuple[int, int, int, int, int]:
        """layers × 2 (K and V) × K/V heads × tokens × head_size."""
        return self.layers, 2, self.cached_heads, self.tokens, self.head_size

    @property
    def numbers(self) -> int:
        """Numbers held in the cache."""
        return int(np.prod(self.shape))

    @property
    def numbers_without_grouping(self) -> int:
        """Numbers the cache would hold with one K/V head per query head (as GPT-2 has)."""
        return self.layers * 2 * self.heads * self.tokens * self.head_size

    @property
    def grouping_saving(self) -> float:
        """How many times smaller grouped-query attention makes the cache (1 without it)."""
        return self.heads / self.cached_heads

    @property
    def bytes(self) -> int:
        """The cache's memory."""
        return self.numbers * self.item_bytes

    @property
    def step_with_cache(self) -> int:
        """Multiply-adds of the next token's attention: its q against n+1 keys and n+1 values, O(n·d) per layer."""
        width = self.heads * self.head_size
        return 2 * self.layers * (self.tokens + 1) * width

    @property
    def step_without_cache(self) -> int:
        """The same token recomputing the whole sequence: all n+1 queries against n+1 keys, O(n²·d) per layer."""
        width = self.heads * self.head_size
        return 2 * self.layers * (self.tokens + 1) ** 2 * width


def cache_cost(config: Gpt2Config | LlamaConfig, tokens: int, item_bytes: int = 8) -> CacheCost:
    """What the cache of `tokens` tokens holds and what the next step costs (every query head still scores every
    key: grouping shrinks the cache, not the work)."""
    kv_heads = getattr(config, "num_kv_heads", None)
    return CacheCost(config.num_layers, config.num_heads, tokens, config.head_size, item_bytes, kv_heads)
