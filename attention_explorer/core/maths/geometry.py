"""Plane geometry for moving a vector by keyboard or animation: rotate and stretch in components 0 and 1."""

from __future__ import annotations

import math

import numpy as np


def rotate_in_plane(vector: np.ndarray, degrees: float) -> np.ndarray:
    """Rotate components 0 and 1 counter-clockwise by `degrees`; other components stay."""
    rotated = np.array(vector, dtype=np.float64)
    if rotated.shape[0] < 2:
        # On a line the only rotations are 0° and 180°: flip once the turn passes 90°.
        turns = round(degrees / 180.0)
        return rotated * (-1.0 if turns % 2 else 1.0)
    radians = math.radians(degrees)
    cos_a, sin_a = math.cos(radians), math.sin(radians)
    x, y = rotated[0], rotated[1]
    rotated[0] = cos_a * x - sin_a * y
    rotated[1] = sin_a * x + cos_a * y
    return rotated


def plane_angle_deg(vector: np.ndarray) -> float:
    """Direction of (component 0, component 1) in degrees, in [0, 360)."""
    y = float(vector[1]) if vector.shape[0] > 1 else 0.0
    return math.degrees(math.atan2(y, float(vector[0]))) % 360.0


def with_plane_angle(vector: np.ndarray, degrees: float) -> np.ndarray:
    """The vector turned so that its (0, 1)-plane direction is `degrees`, its plane length unchanged."""
    return rotate_in_plane(vector, degrees - plane_angle_deg(vector))


def stretch(vector: np.ndarray, factor: float) -> np.ndarray:
    """The vector times `factor` (changes its length, keeps its direction)."""
    return np.asarray(vector, dtype=np.float64) * float(factor)


def snap_direction(x: float, y: float, step_deg: float = 15.0) -> tuple[float, float]:
    """(x, y) turned to the nearest multiple of `step_deg` (halves away from zero), same length."""
    length = math.hypot(x, y)
    if length == 0.0:
        return 0.0, 0.0
    # Halves away from zero, on both sides alike: round() would send 7.5° to 0° but 22.5° to 30° (to even).
    # The 1e-9 lets a direction of exactly 7.5° count as a half although atan2 gives 7.499999999999999.
    steps = math.degrees(math.atan2(y, x)) / step_deg
    angle = math.copysign(math.floor(abs(steps) + 0.5 + 1e-9), steps) * step_deg
    return length * math.cos(math.radians(angle)), length * math.sin(math.radians(angle))


def keep_length(x: float, y: float, length: float) -> tuple[float, float]:
    """The point in direction (x, y) at distance `length` from the origin (pure rotation of a drag)."""
    current = math.hypot(x, y)
    if current == 0.0:
        return length, 0.0
    return x * length / current, y * length / current
