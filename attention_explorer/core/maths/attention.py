"""Scaled dot-product attention for one query, for a whole sequence, and the numbers around it.

Pure numpy (float64). Nothing here imports Qt, so it works the same in a notebook, a test, the
command line and the GUI.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

# Beyond this a float64 e^x overflows (e^709.78 is the largest finite value).
_EXP_SAFE = 700.0


def _read_only(fresh: np.ndarray) -> np.ndarray:
    """An array made here and held by nobody else, frozen without a copy (N × d_v is 16 MB at the limits)."""
    fresh.setflags(write=False)
    return fresh


def frozen(array: np.ndarray) -> np.ndarray:
    """Return a float64 copy that cannot be written to."""
    out = np.array(array, dtype=np.float64, copy=True)
    out.setflags(write=False)
    return out


def inv_sqrt_scale(d_k: int) -> float:
    """The standard scale factor 1/√d_k."""
    return 1.0 / math.sqrt(d_k)


def softmax(scores: np.ndarray, axis: int = -1, mask: np.ndarray | None = None) -> np.ndarray:
    """Softmax along `axis`, the maximum subtracted first (no overflow); weight exactly 0 where `mask` is False.

    `mask` (broadcast against `scores`) says which entries take part, as in PyTorch's boolean attention mask;
    every slice along `axis` needs at least one entry that does.
    """
    scores = np.asarray(scores, dtype=np.float64)
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    shifted = scores - np.max(scores, axis=axis, keepdims=True)
    exps = np.exp(shifted)  # e^(−inf − max) is exactly 0: a masked or far-below entry gets weight 0
    return exps / np.sum(exps, axis=axis, keepdims=True)


def entropy_bits(weights: np.ndarray) -> np.ndarray:
    """Shannon entropy in bits over the last axis (0 for one-hot, log2 N for uniform; 0·log 0 counts as 0)."""
    weights = np.asarray(weights, dtype=np.float64)
    positive = weights > 0
    terms = np.where(positive, weights * np.log2(np.where(positive, weights, 1.0)), 0.0)
    return -np.sum(terms, axis=-1) + 0.0  # + 0.0: one-hot gives 0, never "−0.000"


def softmax_jacobian_norm(weights: np.ndarray) -> np.ndarray:
    """Frobenius norm of the softmax Jacobian diag(w) − w·wᵀ over the last axis: √(Σw² − 2Σw³ + (Σw²)²).

    It vanishes as w goes one-hot: a saturated softmax passes almost no gradient back to the scores.
    """
    weights = np.asarray(weights, dtype=np.float64)
    square_sum = np.sum(weights**2, axis=-1)
    cube_sum = np.sum(weights**3, axis=-1)
    return np.sqrt(np.maximum(square_sum - 2.0 * cube_sum + square_sum**2, 0.0))


def _peaks(rows: np.ndarray) -> np.ndarray:
    """Largest |x| of each row, 1 for all-zero rows (a divisor that never underflows)."""
    # max(max x, −min x) is max |x| without a temporary |rows| (16 MB at 512 × 4096, on every drag move).
    peaks = np.maximum(np.max(rows, axis=-1, keepdims=True), -np.min(rows, axis=-1, keepdims=True))
    return np.where(peaks > 0, peaks, 1.0)


def vector_norms(rows: np.ndarray) -> np.ndarray:
    """Euclidean norm of each row (or of a single vector), without underflow for tiny components."""
    rows = np.asarray(rows, dtype=np.float64)
    peaks = _peaks(rows)  # squaring 1e-170 gives 0: scale each row to a largest |x| of 1 first
    return _unit_norms(rows / peaks) * peaks[..., 0]


def _unit_norms(units: np.ndarray) -> np.ndarray:
    """Norms of rows already divided by their peaks (their largest |x| is exactly 1, or they are zero)."""
    if units.ndim < 2 or units.size <= _BLOCK:
        return np.sqrt(np.sum(np.square(units), axis=-1))
    # A block of rows at a time through one small buffer: at 512 × 4096 a full-size square would be a fresh
    # 16 MB array on every edit. Each row is summed exactly as before, so the norms are the same bits.
    rows = max(1, _BLOCK // units.shape[-1])
    buffer = np.empty((rows, units.shape[-1]))
    norms = np.empty(units.shape[0])
    for start in range(0, units.shape[0], rows):
        part = units[start:start + rows]
        squares = np.square(part, out=buffer[:part.shape[0]])
        norms[start:start + rows] = np.sqrt(np.sum(squares, axis=-1))
    return norms


_BLOCK = 1 << 16  # numbers per block of rows: 512 kB, well inside a core's cache


def cosines_and_angles(
    query: np.ndarray, keys: np.ndarray, scores: np.ndarray | None = None
) -> tuple[tuple[float | None, ...], tuple[float | None, ...]]:
    """cos θ and θ in degrees between the query and each key; None exactly where either vector is zero.

    `scores` is accepted for compatibility; the cosines come from rescaled vectors, so tiny but nonzero
    vectors still get their angle.
    """
    query = np.asarray(query, dtype=np.float64)
    keys = np.asarray(keys, dtype=np.float64)
    return _cosines(query / _peaks(query), keys / _peaks(keys))


def _cosines(query_unit: np.ndarray, key_units: np.ndarray, key_unit_norms: np.ndarray | None = None
             ) -> tuple[tuple[float | None, ...], tuple[float | None, ...]]:
    """cosines_and_angles from the vectors divided by their peaks (every peak then exactly 1: no second division);
    `key_unit_norms`: _unit_norms(key_units) where the caller has them."""
    dots = key_units @ query_unit
    if key_unit_norms is None:
        key_unit_norms = _unit_norms(key_units)
    lengths = key_unit_norms * float(_unit_norms(query_unit))
    # The same IEEE division and clamp as one float at a time, for all keys at once (many keys, every drag move).
    with np.errstate(divide="ignore", invalid="ignore"):
        ratios = np.minimum(1.0, np.maximum(-1.0, dots / lengths)).tolist()
    cosines = tuple(None if length == 0.0 else ratio for ratio, length in zip(ratios, lengths.tolist()))
    angles = tuple(None if cosine is None else math.degrees(math.acos(cosine)) for cosine in cosines)
    return cosines, angles


@dataclass(frozen=True, eq=False)
class AttentionResult:
    """Everything the explorer shows for one query against N keys (arrays are read-only)."""

    scores: np.ndarray  # raw K·q, shape (N,)
    scale: float  # the factor actually applied to the raw scores
    scaled_scores: np.ndarray  # scale · scores
    exponentials: np.ndarray  # e^x of the scaled scores, or e^(x − max) when exp_shifted
    exp_shifted: bool  # True when e^x itself would overflow/underflow, so the max was subtracted
    exp_sum: float
    weights: np.ndarray  # softmax of the scaled scores, sums to 1
    unscaled_weights: np.ndarray  # softmax of the raw scores (factor 1): what the weights would be without scaling
    output: np.ndarray  # Σ w_i V_i, shape (d_v,)
    query_norm: float
    key_norms: np.ndarray
    cosines: tuple[float | None, ...]
    angles_deg: tuple[float | None, ...]
    entropy: float  # bits
    max_weight: float
    jacobian_norm: float
    values: np.ndarray = field(default_factory=lambda: np.zeros((0, 0)), repr=False)  # the V's, shape (N, d_v)

    @cached_property
    def weighted_values(self) -> np.ndarray:
        """w_i · V_i, shape (N, d_v): the terms of the output, made when first asked for (16 MB at the limits)."""
        return _read_only(self.weights[:, None] * self.values)

    def weighted_value(self, index: int) -> np.ndarray:
        """w_i · V_i for i = `index` alone: the same numbers as that row of `weighted_values`."""
        return self.weights[index] * self.values[index]

    @property
    def n(self) -> int:
        """Number of key–value pairs."""
        return int(self.scores.shape[0])

    @property
    def temperature(self) -> float:
        """Equivalent softmax temperature T = 1/scale (inf when the scale is 0)."""
        return math.inf if self.scale == 0 else 1.0 / self.scale


def attend(query: np.ndarray, keys: np.ndarray, values: np.ndarray, scale: float) -> AttentionResult:
    """softmax(scale · K·q) · V for one query, with every intermediate number."""
    query = np.asarray(query, dtype=np.float64)
    keys = np.asarray(keys, dtype=np.float64)
    values = np.asarray(values, dtype=np.float64)
    scores = keys @ query
    scaled_scores = scores * scale
    top = float(np.max(scaled_scores))
    bottom = float(np.min(scaled_scores))
    exp_shifted = top > _EXP_SAFE or bottom < -_EXP_SAFE
    exponentials = np.exp(scaled_scores - top) if exp_shifted else np.exp(scaled_scores)
    exp_sum = float(np.sum(exponentials))
    weights = softmax(scaled_scores)
    output = _weighted_sum(weights, values)
    key_peaks = _peaks(keys)
    key_units = keys / key_peaks  # shared by the key norms and the cosines: one pass over a 512 × 4096 matrix
    query_peak = _peaks(query)
    query_unit = query / query_peak
    key_unit_norms = _unit_norms(key_units)  # once for the cosines and the norms (a pass over N × d_k)
    cosines, angles = _cosines(query_unit, key_units, key_unit_norms)
    return AttentionResult(
        scores=frozen(scores),
        scale=float(scale),
        scaled_scores=frozen(scaled_scores),
        exponentials=frozen(exponentials),
        exp_shifted=exp_shifted,
        exp_sum=exp_sum,
        weights=frozen(weights),
        unscaled_weights=frozen(softmax(scores)),
        output=frozen(output),
        query_norm=float(_unit_norms(query_unit) * query_peak[..., 0]),
        key_norms=frozen(key_unit_norms * key_peaks[..., 0]),
        cosines=cosines,
        angles_deg=angles,
        entropy=float(entropy_bits(weights)),
        max_weight=float(np.max(weights)),
        jacobian_norm=float(softmax_jacobian_norm(weights)),
        values=values if not values.flags.writeable else frozen(values),  # weighted_values are made from it later
    )


def _weighted_sum(weights: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Σ w_i V_i, bit for bit (weights[:, None] * values).sum(axis=0), without that N × d_v product for big V's."""
    if values.ndim != 2 or values.shape[1] < 2 or values.size < _BLOCK:
        return (weights[:, None] * values).sum(axis=0)
    # The sum down axis 0 of a C-ordered matrix adds its rows one after the other: so does this, through one row's
    # buffer (at 512 × 4096 the product would be a fresh 16 MB array on every drag move).
    total = weights[0] * values[0]
    term = np.empty_like(total)
    for weight, row in zip(weights[1:], values[1:]):
        total += np.multiply(row, weight, out=term)
    return total


@dataclass(frozen=True, eq=False)
class SelfAttentionResult:
    """Self-attention over a sequence: every position is a query, a key and a value."""

    scores: np.ndarray  # Q·Kᵀ, shape (N, N)
    scale: float
    scaled_scores: np.ndarray  # masked entries are -inf when causal
    weights: np.ndarray  # row softmax; masked entries exactly 0
    output: np.ndarray  # weights · V, shape (N, d_v)
    causal: bool


def causal_mask(n: int) -> np.ndarray:
    """Boolean N×N mask, True above the diagonal (the future a causal model may not see)."""
    return np.triu(np.ones((n, n), dtype=bool), k=1)


def self_attention(
    queries: np.ndarray, keys: np.ndarray, values: np.ndarray, scale: float, causal: bool = False
) -> SelfAttentionResult:
    """Row-wise softmax(scale · Q·Kᵀ [+ causal −∞ mask]) · V for a whole sequence."""
    queries = np.asarray(queries, dtype=np.float64)
    keys = np.asarray(keys, dtype=np.float64)
    values = np.asarray(values, dtype=np.float64)
    scores = queries @ keys.T
    scaled_scores = scores * scale
    if causal:
        scaled_scores = np.where(causal_mask(scores.shape[0]), -np.inf, scaled_scores)
    weights = softmax(scaled_scores)  # e^(−inf − max) is exactly 0: masked weights are exact zeros
    return SelfAttentionResult(
        scores=frozen(scores),
        scale=float(scale),
        scaled_scores=frozen(scaled_scores),
        weights=frozen(weights),
        output=frozen(weights @ values),
        causal=causal,
    )


@dataclass(frozen=True, eq=False)
class DotProductSample:
    """M dot products q·k of independent standard-normal vectors, raw and scaled by 1/√d_k."""

    d_k: int
    seed: int
    raw: np.ndarray
    scaled: np.ndarray


def sample_dot_products(d_k: int, samples: int, seed: int, chunk: int = 4096) -> DotProductSample:
    """Draw q, k ~ N(0, 1)^d_k `samples` times (seeded, in chunks to bound memory); return q·k."""
    if d_k < 1 or samples < 1:
        raise ValueError("d_k and samples must be at least 1")
    rng = np.random.default_rng(seed)
    raw = np.empty(samples, dtype=np.float64)
    rows_per_chunk = max(1, min(samples, (chunk * 256) // d_k))
    for start in range(0, samples, rows_per_chunk):
        stop = min(samples, start + rows_per_chunk)
        q = rng.standard_normal((stop - start, d_k))
        k = rng.standard_normal((stop - start, d_k))
        raw[start:stop] = np.einsum("ij,ij->i", q, k)
    return DotProductSample(d_k=d_k, seed=seed, raw=frozen(raw), scaled=frozen(raw / math.sqrt(d_k)))
