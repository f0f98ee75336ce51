"""How position enters q·k: sinusoidal encodings added to the vectors, against RoPE rotating q and k.

Sinusoidal (Vaswani et al.): p_pos[2i] = sin(pos·θ_i), p_pos[2i+1] = cos(pos·θ_i), added before the dot product, so
(q + p_m)·(k + p_n) has terms in m and n on their own. RoPE (Su et al.): each pair (x[2i], x[2i+1]) is turned by
pos·θ_i, so q_m·k_n = Σ_i |q_i||k_i| cos((m − n)θ_i + φ_i) depends on m − n only. θ_i = base^(−2i/d). Pure numpy.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from attention_explorer.core.limits import ScenarioError

ROPE_BASE = 10000.0
MAX_ROPE_BASE = 1e9  # rope_theta of real models: 10 000 (Llama 2), 500 000 (Llama 3), 1 000 000 (Qwen2.5)
MAX_POSITION = 4096
MAX_D = 1024
METHODS = ("sinusoidal", "rope")


def check_d(d: int) -> None:
    """Raise ScenarioError unless d is an even whole number from 2 to MAX_D (positions come in sin/cos pairs)."""
    if isinstance(d, bool) or not isinstance(d, (int, np.integer)) or not 2 <= d <= MAX_D or d % 2:
        raise ScenarioError("d: expected an even whole number from 2 to {0} (pairs of sin and cos), got {1!r}",
                            MAX_D, d)


def check_position(position: int, place: str) -> None:
    """Raise ScenarioError unless the position is a whole number from 0 to MAX_POSITION."""
    if isinstance(position, bool) or not isinstance(position, (int, np.integer)) or not 0 <= position <= MAX_POSITION:
        raise ScenarioError("{0}: expected a whole number from 0 to {1}, got {2!r}", place, MAX_POSITION, position)


def check_base(base: float) -> None:
    """Raise ScenarioError unless RoPE's base θ is a number above 1 and at most MAX_ROPE_BASE."""
    number = isinstance(base, (int, float, np.integer, np.floating)) and not isinstance(base, bool)
    if not number or not 1 < base <= MAX_ROPE_BASE:  # compared as given: float() of a huge integer overflows
        raise ScenarioError("base: expected a number above 1 and at most {0:g}, got {1!r}", MAX_ROPE_BASE, base)


def frequencies(d: int, base: float = ROPE_BASE) -> np.ndarray:
    """θ_i = base^(−2i/d) for the d/2 pairs: pair 0 turns fastest (1 radian per position), the last slowest."""
    check_d(d)
    return float(base) ** (-2.0 * np.arange(d // 2) / d)


def sinusoidal_encoding(positions: np.ndarray | int, d: int) -> np.ndarray:
    """p_pos: sin(pos·θ_i) in the even components and cos(pos·θ_i) in the odd ones (one row per position)."""
    angles = np.multiply.outer(np.asarray(positions, dtype=np.float64), frequencies(d))
    encoding = np.empty((*angles.shape[:-1], d))
    encoding[..., 0::2] = np.sin(angles)
    encoding[..., 1::2] = np.cos(angles)
    return encoding


def rope_rotate(vector: np.ndarray, positions: np.ndarray | int, base: float = ROPE_BASE) -> np.ndarray:
    """The vector with every pair (x[2i], x[2i+1]) turned by pos·θ_i, θ_i = base^(−2i/d) (one row per position)."""
    vector = np.asarray(vector, dtype=np.float64)
    angles = np.multiply.outer(np.asarray(positions, dtype=np.float64), frequencies(vector.shape[-1], base))
    cos, sin = np.cos(angles), np.sin(angles)
    even, odd = vector[0::2], vector[1::2]
    rotated = np.empty((*angles.shape[:-1], vector.shape[-1]))
    rotated[..., 0::2] = even * cos - odd * sin
    rotated[..., 1::2] = even * sin + odd * cos
    return rotated


def scores(method: str, q: np.ndarray, k: np.ndarray, m: np.ndarray | int, n: np.ndarray | int,
           base: float = ROPE_BASE) -> np.ndarray:
    """q at position m against k at position n: (q + p_m)·(k + p_n) or R(m)q·R(n)k, broadcast over m and n (`base`:
    RoPE's θ; the sinusoidal encodings keep the original transformer's 10 000)."""
    q, k = np.asarray(q, dtype=np.float64), np.asarray(k, dtype=np.float64)
    if method == "sinusoidal":
        d = q.shape[-1]
        return np.sum((q + sinusoidal_encoding(m, d)) * (k + sinusoidal_encoding(n, d)), axis=-1)
    if method == "rope":
        return np.sum(rope_rotate(q, m, base) * rope_rotate(k, n, base), axis=-1)
    raise ScenarioError("method: expected one of {0}, got {1!r}", ", ".join(METHODS), method)


@dataclass(frozen=True)
class OffsetCurves:
    """q·k against the offset m − n, one curve per absolute key position n (RoPE's curves lie on each other)."""

    offsets: np.ndarray  # m − n, shared by every curve
    starts: tuple[int, ...]  # the key positions n, one curve each
    values: np.ndarray  # len(starts) × len(offsets); NaN where m = n + offset would be negative

    def spread(self) -> float:
        """The largest gap between curves at one offset: 0 (to rounding) when q·k depends on m − n only."""
        return float(np.nanmax(np.nanmax(self.values, axis=0) - np.nanmin(self.values, axis=0)))


def offset_curves(method: str, q: np.ndarray, k: np.ndarray, starts: tuple[int, ...],
                  max_offset: int, base: float = ROPE_BASE) -> OffsetCurves:
    """For each key position n in `starts`, q at m = n + offset against k at n, offset from −max to +max."""
    offsets = np.arange(-max_offset, max_offset + 1)
    rows = []
    for n in starts:
        m = n + offsets
        row = np.full(offsets.shape, np.nan)
        valid = m >= 0  # a position before the first token does not exist
        row[valid] = scores(method, q, k, m[valid], n, base)
        rows.append(row)
    return OffsetCurves(offsets=offsets, starts=tuple(starts), values=np.array(rows))


@dataclass(frozen=True)
class PairView:
    """One frequency pair of q and k in the plane: as given, and turned by mθ and nθ (RoPE)."""

    theta: float  # θ_i of the pair, radians per position
    q: np.ndarray  # (q[2i], q[2i+1])
    k: np.ndarray
    q_rotated: np.ndarray  # q's pair turned by mθ
    k_rotated: np.ndarray  # k's pair turned by nθ
    angle_before: float  # angle from k to q before turning, radians in (−π, π]
    angle_after: float  # after: angle_before + (m − n)θ, wrapped to (−π, π]
    dot: float  # the pair's share of the rotated q·k: |q_i||k_i| cos(angle_after)


def _angle(vector: np.ndarray) -> float:
    return float(np.arctan2(vector[1], vector[0]))


def _turned(vector: np.ndarray, angle: float) -> np.ndarray:
    """A 2-D vector turned counter-clockwise by `angle` radians."""
    cos, sin = np.cos(angle), np.sin(angle)
    return np.array([vector[0] * cos - vector[1] * sin, vector[0] * sin + vector[1] * cos])


def _wrapped(angle: float) -> float:
    """The same direction as an angle in (−π, π]."""
    wrapped = math.remainder(angle, 2.0 * math.pi)
    return math.pi if wrapped == -math.pi else wrapped


def pair_view(q: np.ndarray, k: np.ndarray, m: int, n: int, pair: int, base: float = ROPE_BASE) -> PairView:
    """Pair `pair` of q and k, turned by RoPE (base θ) to positions m and n."""
    q, k = np.asarray(q, dtype=np.float64), np.asarray(k, dtype=np.float64)
    check_position(m, "m")
    check_position(n, "n")
    if isinstance(pair, bool) or not 0 <= pair < q.shape[-1] // 2:
        raise ScenarioError("pair: expected 0 to {0}, got {1!r}", q.shape[-1] // 2 - 1, pair)
    theta = float(frequencies(q.shape[-1], base)[pair])
    q_pair, k_pair = q[2 * pair:2 * pair + 2], k[2 * pair:2 * pair + 2]
    q_rotated, k_rotated = _turned(q_pair, m * theta), _turned(k_pair, n * theta)
    before = _wrapped(_angle(q_pair) - _angle(k_pair))
    return PairView(theta=theta, q=q_pair, k=k_pair, q_rotated=q_rotated, k_rotated=k_rotated,
                    angle_before=before, angle_after=_wrapped(before + (m - n) * theta),
                    dot=float(q_rotated @ k_rotated))


def interleaved(vector: np.ndarray) -> np.ndarray:
    """A vector in the halves layout of Llama's RoPE (number i paired with number i + d/2) reordered as the
    interleaved layout pairs them (2i with 2i + 1): the same pairs turned by the same angles, so every dot product
    and every RoPE score is unchanged."""
    vector = np.asarray(vector, dtype=np.float64)
    half = vector.shape[-1] // 2
    out = np.empty_like(vector)
    out[..., 0::2], out[..., 1::2] = vector[..., :half], vector[..., half:]
    return out


def seeded_pair(d: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """The fixed q and k of the lab: seeded N(0, 1) vectors of width d (the same d and seed, the same pair)."""
    check_d(d)
    rng = np.random.default_rng([seed, d])
    return rng.standard_normal(d), rng.standard_normal(d)
