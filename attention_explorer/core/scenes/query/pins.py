"""Pinned snapshots: a scene kept beside the live one, and what changed between them, number by number.

A Pin (defined in core.scenes.query.scene, beside the Scenario that holds it) keeps a scene and its AttentionResult,
computed once when the pin is made, so views draw pinned states without computing anything.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

# A Pin belongs to its Scenario's module (a scenario holds its pins, a pin holds a scenario): defined there, named here.
from attention_explorer.core.limits import MAX_PINS
from attention_explorer.core.maths.attention import AttentionResult
from attention_explorer.core.scenes.query.scene import Pin, Scenario, free_pin_number

__all__ = ["MAX_PINS", "QUANTITIES", "Pin", "PinComparison", "compare_pins", "free_pin_number"]

# The rows of a comparison, in the order the table lists them.
QUANTITIES = ("scale", "scores", "weights", "entropy", "output", "angles")


@dataclass(frozen=True, eq=False)
class PinComparison:
    """Every compared number now and in each pin, one row each; NaN where a side has no such number."""

    rows: tuple[tuple[str, int], ...]  # (quantity, index): a key or an output component (0 for scale, entropy)
    labels: tuple[str, ...]  # the key rows' names: the live labels, then a pin's for keys only a pin has
    now: np.ndarray  # shape (R,)
    pinned: np.ndarray  # shape (P, R), one row per pin in the order of the pins
    deltas: np.ndarray  # now − pinned, shape (P, R): positive where the number grew since the pin


def _angles(result: AttentionResult) -> np.ndarray:
    """θ in degrees per key, NaN where it is undefined (a zero vector)."""
    return np.array([np.nan if angle is None else angle for angle in result.angles_deg], dtype=np.float64)


def _quantity(result: AttentionResult, quantity: str) -> np.ndarray:
    """One quantity of a result as a flat array."""
    if quantity == "angles":
        return _angles(result)
    if quantity in ("scale", "entropy"):
        return np.array([getattr(result, quantity)], dtype=np.float64)
    return np.asarray(getattr(result, quantity), dtype=np.float64)


def _padded(values: np.ndarray, length: int) -> np.ndarray:
    """`values` followed by NaN up to `length`."""
    out = np.full(length, np.nan)
    out[: values.shape[0]] = values
    return out


def compare_pins(live: Scenario, live_result: AttentionResult, pins: tuple[Pin, ...]) -> PinComparison:
    """Scale, scores, weights, entropy, output and θ of the live scene beside each pin's, row by row."""
    keys = max([live.n, *(pin.scenario.n for pin in pins)])
    components = max([live.d_v, *(pin.scenario.d_v for pin in pins)])
    sizes = {"scale": 1, "entropy": 1, "scores": keys, "weights": keys, "angles": keys, "output": components}
    rows = tuple((quantity, index) for quantity in QUANTITIES for index in range(sizes[quantity]))
    labels = list(live.labels)
    for index in range(live.n, keys):
        labels.append(next(pin.scenario.labels[index] for pin in pins if index < pin.scenario.n))

    def flat(result: AttentionResult) -> np.ndarray:
        return np.concatenate([_padded(_quantity(result, quantity), sizes[quantity]) for quantity in QUANTITIES])

    pinned = np.array([flat(pin.result) for pin in pins]).reshape(len(pins), len(rows))
    now = flat(live_result)
    return PinComparison(rows=rows, labels=tuple(labels), now=now, pinned=pinned, deltas=now - pinned)
