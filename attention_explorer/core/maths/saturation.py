"""Softmax saturation: the weights, their entropy and the Jacobian norm as the scale factor grows.

Pure numpy (float64), no Qt. Every function takes the raw scores of one query and works on many factors at
once (one row per factor), so a whole curve costs one vectorised softmax.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attention_explorer.core.maths.attention import entropy_bits, softmax, softmax_jacobian_norm

# Factors on the lab's log axis: 10^-2 … 10^1, POINTS_PER_DECADE steps a decade (1, 0.1, 10 fall on grid points).
LOG_FACTOR_MIN = -2
LOG_FACTOR_MAX = 1
POINTS_PER_DECADE = 100


def factor_grid(points_per_decade: int = POINTS_PER_DECADE) -> np.ndarray:
    """Log-spaced factors 0.01 … 10; every power of ten is exactly on the grid."""
    steps = np.arange((LOG_FACTOR_MAX - LOG_FACTOR_MIN) * points_per_decade + 1)
    return 10.0 ** (steps / points_per_decade + LOG_FACTOR_MIN)


def weights_over_factors(scores: np.ndarray, factors: np.ndarray) -> np.ndarray:
    """softmax(f · scores) for every factor f: an F×N array, row f sums to 1 (max subtracted, so no overflow)."""
    scores = np.asarray(scores, dtype=np.float64)
    factors = np.asarray(factors, dtype=np.float64)
    return softmax(factors[:, None] * scores[None, :])


# The lab's names for the core's entropy and Jacobian norm, which already work row by row on an F×N array.
entropy_rows = entropy_bits
jacobian_norm_rows = softmax_jacobian_norm


def shifted_softmax(scaled_scores: np.ndarray, shift: float) -> np.ndarray:
    """softmax(x + c), computed the safe way: the largest input is subtracted before exp."""
    return softmax(np.asarray(scaled_scores, dtype=np.float64) + float(shift))


@dataclass(frozen=True, eq=False)
class NaiveSoftmax:
    """What e^x / Σ e^x gives without subtracting the maximum first."""

    exponentials: np.ndarray  # e^x, inf where x > ~709.78, 0 where x < ~-745
    weights: np.ndarray  # NaN where inf/inf or 0/0 happened
    overflow: bool  # some e^x was infinite
    underflow: bool  # every e^x was 0, so the sum was 0

    @property
    def failed(self) -> bool:
        """True when the naive result is not a usable probability vector."""
        return bool(self.overflow or self.underflow or not np.all(np.isfinite(self.weights)))


def naive_softmax(scaled_scores: np.ndarray, shift: float = 0.0) -> NaiveSoftmax:
    """e^(x + c) / Σ e^(x + c) as a textbook formula would compute it, float64 warnings silenced.

    Not a second softmax: the lab shows where this unshifted formula breaks and `softmax` does not.
    """
    shifted = np.asarray(scaled_scores, dtype=np.float64) + float(shift)
    with np.errstate(over="ignore", under="ignore", invalid="ignore", divide="ignore"):
        exps = np.exp(shifted)
        total = np.sum(exps)
        weights = exps / total
    return NaiveSoftmax(
        exponentials=exps,
        weights=weights,
        overflow=bool(np.any(np.isinf(exps))),
        underflow=bool(total == 0.0),
    )
