"""The scale-factor slider's positions: 0 is exactly 0, then a logarithmic scale from 0.01 to 10.

Shared by the scale controls panel and the compact scale strip, which both show the same slider.
"""

from __future__ import annotations

import math

# Factor slider: position 0 is exactly 0; p in 1..900 means 10^(p/300 − 2), i.e. 0.01 … 10, 300 steps a decade
# (0.77 % apart); 0.1, 1 and 10 fall exactly on positions 300, 600 and 900.
FACTOR_STEPS_PER_DECADE = 300
FACTOR_MAX_POSITION = 3 * FACTOR_STEPS_PER_DECADE


def factor_from_position(position: int) -> float:
    """The scale factor for a factor-slider position (0 → exactly 0, 600 → exactly 1)."""
    if position <= 0:
        return 0.0
    return 10.0 ** (position / FACTOR_STEPS_PER_DECADE - 2)


def position_from_factor(factor: float) -> int:
    """The factor-slider position nearest to a factor (factors beyond 0.01…10 sit at the ends)."""
    if factor <= 0:
        return 0
    position = round(FACTOR_STEPS_PER_DECADE * (math.log10(factor) + 2))
    return min(max(position, 1), FACTOR_MAX_POSITION)
