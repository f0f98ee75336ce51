"""What happens to one key as it turns once around the origin: cos θ and its weight at every direction."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from attention_explorer.core.maths.attention import softmax
from attention_explorer.core.scenes.query.scene import Scenario


@dataclass(frozen=True, eq=False)
class RotationSweep:
    """cos θ(Q, K_index) and K_index's weight when K_index points at each plane direction (degrees)."""

    directions_deg: np.ndarray
    cosines: np.ndarray  # NaN where θ is undefined (a zero vector): such points are simply not drawn
    weights: np.ndarray


def rotation_sweep(scenario: Scenario, index: int, samples: int = 361) -> RotationSweep:
    """Turn key `index` in the plane of components 0 and 1 through 360°, keeping its other components."""
    directions = np.linspace(0.0, 360.0, samples)
    radians = np.radians(directions)
    key = scenario.keys[index]
    plane_length = math.hypot(float(key[0]), float(key[1]) if scenario.d_k > 1 else 0.0)
    turned = np.repeat(key[None, :], samples, axis=0)
    turned[:, 0] = plane_length * np.cos(radians)
    if scenario.d_k > 1:
        turned[:, 1] = plane_length * np.sin(radians)
    key_scores = turned @ scenario.query
    other_scores = scenario.keys @ scenario.query
    all_scores = np.repeat(other_scores[None, :], samples, axis=0)
    all_scores[:, index] = key_scores
    weights = softmax(all_scores * scenario.effective_scale)[:, index]
    norms = np.linalg.norm(turned, axis=1) * float(np.linalg.norm(scenario.query))
    with np.errstate(invalid="ignore", divide="ignore"):
        cosines = np.where(norms > 0, np.clip(key_scores / np.where(norms > 0, norms, 1.0), -1.0, 1.0), np.nan)
    return RotationSweep(directions_deg=directions, cosines=cosines, weights=weights)
