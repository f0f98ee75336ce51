"""Rotary position embedding (RoPE) as Llama and Qwen2 apply it: transformers' rotate_half convention, in float64.

A head's d numbers are split into two halves, and number i of the first half is paired with number i of the
second (i and i + d/2: not neighbours, as in the RoPE paper's interleaved form). The pair is turned by the angle
position · θ^(−2i/d). A query rotated at position m and a key rotated at position n then give
q_m·k_n = q·R(n − m)·k: the score depends on the positions only through m − n.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Rotary:
    """RoPE of one model: the base θ (config.json's rope_theta) and the head size d (even)."""

    theta: float
    head_size: int

    def __post_init__(self) -> None:
        if self.head_size < 2 or self.head_size % 2:
            raise ValueError(f"head_size: RoPE needs an even number ≥ 2, got {self.head_size}")
        if not self.theta > 1:
            raise ValueError(f"theta: expected a number above 1, got {self.theta}")

    @property
    def inverse_frequencies(self) -> np.ndarray:
        """θ^(−2i/d) for i = 0 … d/2 − 1: the angle each pair turns by per position."""
        return 1.0 / self.theta ** (np.arange(0, self.head_size, 2, dtype=np.float64) / self.head_size)

    def angles(self, positions: np.ndarray | int) -> np.ndarray:
        """position · θ^(−2i/d): (…, d/2) for positions of any shape."""
        return np.asarray(positions, dtype=np.float64)[..., np.newaxis] * self.inverse_frequencies

    def rotate(self, x: np.ndarray, positions: np.ndarray | int) -> np.ndarray:
        """x (…, N, d) with row j turned to positions[j] (or every row to one position): x·cos + rotate_half(x)·sin."""
        x = np.asarray(x, dtype=np.float64)
        angles = self.angles(positions)
        cos = np.concatenate([np.cos(angles)] * 2, axis=-1)
        sin = np.concatenate([np.sin(angles)] * 2, axis=-1)
        return x * cos + rotate_half(x) * sin


def rotate_half(x: np.ndarray) -> np.ndarray:
    """(a, b) → (−b, a) on the two halves of the last axis: a quarter turn of every pair."""
    half = x.shape[-1] // 2
    return np.concatenate([-x[..., half:], x[..., :half]], axis=-1)
