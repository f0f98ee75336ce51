"""Attention masks: causal and padding, the additive matrix M of softmax(QKᵀ/√d_k + M)·V, and masked attention.

A mask here is a boolean N×N array, True where a query may NOT look (PyTorch's boolean `attn_mask` is the
opposite: True where it may). Pure numpy, no Qt.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from attention_explorer.core.limits import ScenarioError
from attention_explorer.core.maths.attention import SelfAttentionResult, causal_mask, frozen, softmax
from attention_explorer.core.messages import value_kind


def padding_mask(n: int, padded: Iterable[int]) -> np.ndarray:
    """Boolean N×N, True in the columns of the padded tokens: no query may attend to a padding key."""
    columns = np.zeros(n, dtype=bool)
    columns[list(padded)] = True
    return np.broadcast_to(columns, (n, n)).copy()


def attention_mask(n: int, causal: bool, padded: Iterable[int] = ()) -> np.ndarray:
    """The union of the causal mask (when on) and the padding mask: True where a query may not look."""
    blocked = padding_mask(n, padded)
    if causal:
        blocked |= causal_mask(n)
    return blocked


def additive_mask(blocked: np.ndarray) -> np.ndarray:
    """M: 0 where a query may look, −∞ where it may not, added to the scaled scores before the softmax."""
    return np.where(blocked, -np.inf, 0.0)


def masked_attention(queries: np.ndarray, keys: np.ndarray, values: np.ndarray, scale: float,
                     blocked: np.ndarray, causal: bool = False) -> SelfAttentionResult:
    """Row-wise softmax(scale · Q·Kᵀ + M)·V; every row needs at least one key it may look at."""
    queries = np.asarray(queries, dtype=np.float64)
    keys = np.asarray(keys, dtype=np.float64)
    values = np.asarray(values, dtype=np.float64)
    scores = queries @ keys.T
    scaled_scores = scores * scale + additive_mask(blocked)
    weights = softmax(scaled_scores)  # e^(−inf − max) is exactly 0: masked weights are exact zeros
    return SelfAttentionResult(
        scores=frozen(scores), scale=float(scale), scaled_scores=frozen(scaled_scores),
        weights=frozen(weights), output=frozen(weights @ values), causal=causal,
    )


def check_padding(padding: Any, n: int, causal: bool) -> tuple[int, ...]:
    """The padded positions as a sorted tuple; ScenarioError names the first bad entry or an empty row."""
    if isinstance(padding, (str, bytes)) or not isinstance(padding, (list, tuple)):
        raise ScenarioError("padding: expected a list of token positions, got {0}", value_kind(padding))
    if len(padding) > n:
        raise ScenarioError("padding: {0} positions, more than the {1} tokens", len(padding), n)
    seen: set[int] = set()
    for place, position in enumerate(padding):
        if isinstance(position, bool) or not isinstance(position, (int, np.integer)):
            raise ScenarioError("padding[{0}]: expected a whole number (a token position from 0), got {1}",
                                place, value_kind(position))
        if not 0 <= position < n:
            raise ScenarioError("padding[{0}]: position {1} is out of range (there are {2} tokens, from 0 to {3})",
                                place, int(position), n, n - 1)
        if int(position) in seen:
            raise ScenarioError("padding[{0}]: position {1} is given twice", place, int(position))
        seen.add(int(position))
    if len(seen) == n:
        raise ScenarioError("padding: every token is padded; at least one must stay for the queries to look at")
    if causal and 0 in seen:
        raise ScenarioError("padding: with the causal mask the first token (position 0) cannot be padded: "
                            "its row would have no key left to look at")
    return tuple(sorted(seen))
