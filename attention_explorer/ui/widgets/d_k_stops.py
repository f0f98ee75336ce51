"""The log-spaced positions of a d_k slider (scale controls and the variance lab share them)."""

from __future__ import annotations

import math

from attention_explorer.core.limits import MAX_DIM

# d_k slider: its positions index D_K_STOPS, the distinct values of round(2^(j/4)) for j = 0…48: log-spaced
# (four stops an octave from 16 up), all integers, every power of two among them, and each step changes d_k
# (below 16 round(2^(j/4)) repeats, so the repeats are dropped: 1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 13, 16, 19, …).
D_K_STEPS_PER_OCTAVE = 4
D_K_STOPS = tuple(
    sorted(
        {round(2.0 ** (j / D_K_STEPS_PER_OCTAVE)) for j in range(D_K_STEPS_PER_OCTAVE * round(math.log2(MAX_DIM)) + 1)}
    )
)
D_K_MAX_POSITION = len(D_K_STOPS) - 1


def d_k_from_position(position: int) -> int:
    """d_k for a d_k-slider position."""
    return D_K_STOPS[min(max(position, 0), D_K_MAX_POSITION)]


def position_from_d_k(d_k: int) -> int:
    """The d_k-slider position whose d_k is nearest to d_k on a log scale."""
    target = math.log(max(d_k, 1))
    return min(range(len(D_K_STOPS)), key=lambda position: abs(math.log(D_K_STOPS[position]) - target))
