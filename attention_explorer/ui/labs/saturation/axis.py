"""The saturation lab's x axis: the scale factor on a log scale, with factor 0 drawn apart left of a break."""

from __future__ import annotations

import math

from attention_explorer.core.maths.saturation import LOG_FACTOR_MAX, LOG_FACTOR_MIN

# x axis: log10 of the factor from LOG_FACTOR_MIN to LOG_FACTOR_MAX, and factor 0 drawn apart at ZERO_X,
# left of a dashed break at BREAK_X (a log axis has no 0; at 0 every weight is 1/N).
ZERO_X = LOG_FACTOR_MIN - 0.5
BREAK_X = LOG_FACTOR_MIN - 0.25
X_RANGE = (ZERO_X - 0.2, LOG_FACTOR_MAX + 0.15)
SNAP_TO_ONE = 0.012  # a drag within ±2.8 % of factor 1 lands on exactly 1 (the unscaled scores)


def x_from_factor(factor: float) -> float:
    """Where a factor sits on the lab's x axis (0 at ZERO_X; beyond 0.01 … 10 clamped to the ends)."""
    if factor <= 0:
        return ZERO_X
    return min(max(math.log10(factor), LOG_FACTOR_MIN), LOG_FACTOR_MAX)


def factor_from_x(x: float) -> float:
    """The factor a dragged line position means: 0 left of the break, else 10^x to 3 significant digits."""
    if x < BREAK_X:
        return 0.0
    exponent = min(max(x, LOG_FACTOR_MIN), LOG_FACTOR_MAX)
    if abs(exponent) < SNAP_TO_ONE:
        return 1.0
    return float(f"{10.0**exponent:.3g}")


def axis_ticks() -> list[list[tuple[float, str]]]:
    """Major ticks 0, 0.01, 0.1, 1, 10 and unlabelled minor ticks at 2…9 of each decade."""
    major = [(ZERO_X, "0")] + [(float(p), f"{10.0**p:g}") for p in range(LOG_FACTOR_MIN, LOG_FACTOR_MAX + 1)]
    minor = [(p + math.log10(m), "") for p in range(LOG_FACTOR_MIN, LOG_FACTOR_MAX) for m in range(2, 10)]
    return [major, minor]
