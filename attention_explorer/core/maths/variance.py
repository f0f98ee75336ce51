"""Why √d_k: the spread of q·k for random vectors, and how often softmax goes one-hot with and without scaling.

Pure numpy, no Qt.

Sampling uses an exact identity instead of drawing both vectors: for q, k ~ N(0, I_d), given q the dot product
q·k is N(0, |q|²), and |q|² follows a χ² distribution with d degrees of freedom. So q·k has exactly the law of
√(χ²_d) · z with z ~ N(0, 1) independent. That costs two numbers per sample instead of 2·d normals, so the
cost does not grow with d_k, and gives the same statistics. The direct method is
`attention.sample_dot_products`; the tests check that both give the same distribution.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from attention_explorer.core.maths.attention import DotProductSample, frozen, softmax

# The d_k values of the one-hot curve: 1, 2, 4, … 4096.
D_K_LADDER = tuple(2**power for power in range(13))
ONE_HOT_THRESHOLD = 0.99  # "near one-hot": the largest weight exceeds this
MAX_EXAMPLE_KEYS = 64
MAX_EXAMPLE_D_K = 4096


def sample_dot_products_exact(d_k: int, samples: int, seed: int) -> DotProductSample:
    """`samples` values of q·k for q, k ~ N(0, 1)^d_k, drawn as √(χ²_d_k)·z (same law, O(samples) work)."""
    if d_k < 1 or samples < 1:
        raise ValueError("d_k and samples must be at least 1")
    rng = np.random.default_rng(seed)
    squared_norms = rng.chisquare(d_k, samples)  # |q|²
    unit_normals = rng.standard_normal(samples)  # (q/|q|)·k
    raw = np.sqrt(squared_norms) * unit_normals
    return DotProductSample(d_k=d_k, seed=seed, raw=frozen(raw), scaled=frozen(raw / math.sqrt(d_k)))


@dataclass(frozen=True)
class Moments:
    """Measured mean, variance and standard deviation of a sample."""

    mean: float
    variance: float
    std: float


def moments(values: np.ndarray) -> Moments:
    """Mean, unbiased variance and its square root."""
    values = np.asarray(values, dtype=np.float64)
    variance = float(np.var(values, ddof=1)) if values.size > 1 else 0.0
    return Moments(mean=float(np.mean(values)), variance=variance, std=math.sqrt(variance))


def histogram_edges(sigma: float, bins: int = 61, span: float = 4.5) -> np.ndarray:
    """Equal bins over ±span·sigma (an odd count puts one bin centred on 0)."""
    return np.linspace(-span * sigma, span * sigma, bins + 1)


def histogram_counts(values: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """How many values fall in each bin (values outside the edges are not counted)."""
    counts, _ = np.histogram(np.asarray(values, dtype=np.float64), bins=edges)
    return counts.astype(np.float64)


def expected_counts(x: np.ndarray, sigma: float, samples: int, bin_width: float) -> np.ndarray:
    """The N(0, σ²) density at x, scaled to a histogram of `samples` values in bins of `bin_width`."""
    x = np.asarray(x, dtype=np.float64)
    density = np.exp(-0.5 * (x / sigma) ** 2) / (sigma * math.sqrt(2.0 * math.pi))
    return density * samples * bin_width


def example_vectors(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """One query (4096,) and 64 keys (64×4096) of N(0, 1) components; smaller d_k and N use leading parts."""
    rng = np.random.default_rng(seed)
    query = rng.standard_normal(MAX_EXAMPLE_D_K)
    keys = rng.standard_normal((MAX_EXAMPLE_KEYS, MAX_EXAMPLE_D_K))
    return query, keys


def example_scores(query: np.ndarray, keys: np.ndarray, d_k: int, n_keys: int) -> np.ndarray:
    """Raw scores K·q using the first d_k components and the first n_keys keys (nested: d_k grows smoothly)."""
    return keys[:n_keys, :d_k] @ query[:d_k]


def max_weights(scores: np.ndarray) -> np.ndarray:
    """The largest softmax weight of each row of a T×N score array (= 1 / Σ e^(s − max))."""
    return np.max(softmax(scores), axis=-1)


def one_hot_share(
    d_k_values: tuple[int, ...] | list[int], n_keys: int, trials: int, seed: int,
    threshold: float = ONE_HOT_THRESHOLD,
) -> tuple[np.ndarray, np.ndarray]:
    """Share of trials whose largest weight exceeds `threshold`, per d_k: (unscaled, scaled by 1/√d_k).

    Each trial is one query against n_keys keys, all N(0, 1)^d_k. Given q the n scores are independent
    N(0, |q|²), so a trial is |q|·z with |q|² ~ χ²_d_k and z ~ N(0, 1)^n: exact, and cheap at any d_k.
    The same z serve every d_k, so the curves differ only through d_k, not through fresh noise.
    """
    rng = np.random.default_rng(seed)
    unit_scores = rng.standard_normal((trials, n_keys))
    unscaled = np.empty(len(d_k_values))
    scaled = np.empty(len(d_k_values))
    for index, d_k in enumerate(d_k_values):
        norms = np.sqrt(rng.chisquare(d_k, trials))[:, None]
        scores = norms * unit_scores
        unscaled[index] = float(np.mean(max_weights(scores) > threshold))
        scaled[index] = float(np.mean(max_weights(scores / math.sqrt(d_k)) > threshold))
    return unscaled, scaled


def dot_product_std(d_k: int) -> float:
    """The theoretical standard deviation of q·k for q, k ~ N(0, 1)^d_k: √d_k."""
    return math.sqrt(d_k)


def example_weights(scores: np.ndarray, d_k: int) -> tuple[np.ndarray, np.ndarray]:
    """One query's softmax weights from raw scores q·k, and from q·k/√d_k: (raw, scaled)."""
    scores = np.asarray(scores, dtype=np.float64)
    return softmax(scores), softmax(scores / dot_product_std(d_k))
