"""Four ways to score a query against keys (dot, scaled dot, cosine, additive) and the softmax weights of each.

The additive (Bahdanau) score vᵀ tanh(W_q q + W_k k) uses seeded weights, so the same Q and K always give the
same numbers. Pure numpy, no Qt.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attention_explorer.core.maths.attention import frozen, softmax, vector_norms

SCORINGS = ("dot", "scaled", "cosine", "additive")
ADDITIVE_WIDTH = 8  # d_a, the hidden width of the additive score's small network
ADDITIVE_SEED = 2015  # the year of Bahdanau, Cho and Bengio's paper


@dataclass(frozen=True, eq=False)
class ScoringComparison:
    """Scores and softmax weights of every scoring function for one query against N keys (arrays read-only)."""

    scores: dict[str, np.ndarray]
    weights: dict[str, np.ndarray]

    @property
    def n(self) -> int:
        """Number of keys."""
        return int(self.weights["dot"].shape[0])


def additive_weights(d_k: int, width: int = ADDITIVE_WIDTH,
                     seed: int = ADDITIVE_SEED) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Seeded W_q, W_k (width × d_k, N(0, 1/d_k)) and v (width, N(0, 1/width)) of the additive score."""
    stream = np.random.default_rng([seed, d_k])
    w_q = stream.standard_normal((width, d_k)) / np.sqrt(d_k)
    w_k = stream.standard_normal((width, d_k)) / np.sqrt(d_k)
    v = stream.standard_normal(width) / np.sqrt(width)
    return w_q, w_k, v


def cosine_scores(query: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """q·k / (|q||k|) for each key; 0 where q or the key is zero (no direction to compare)."""
    lengths = vector_norms(keys) * float(vector_norms(query))
    dots = keys @ query
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(lengths > 0, np.clip(dots / np.where(lengths > 0, lengths, 1.0), -1.0, 1.0), 0.0)


def additive_scores(query: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """Bahdanau's vᵀ tanh(W_q q + W_k k) for each key, with the seeded weights of this d_k."""
    w_q, w_k, v = additive_weights(int(query.shape[0]))
    return np.tanh(w_q @ query + keys @ w_k.T) @ v


def compare_scorings(query: np.ndarray, keys: np.ndarray, scale: float) -> ScoringComparison:
    """Every scoring function's scores and weights; "scaled" uses the explorer's own factor `scale`."""
    query = np.asarray(query, dtype=np.float64)
    keys = np.asarray(keys, dtype=np.float64)
    dots = keys @ query
    scores = {"dot": dots, "scaled": dots * scale, "cosine": cosine_scores(query, keys),
              "additive": additive_scores(query, keys)}
    return ScoringComparison(scores={name: frozen(s) for name, s in scores.items()},
                             weights={name: frozen(softmax(s)) for name, s in scores.items()})
