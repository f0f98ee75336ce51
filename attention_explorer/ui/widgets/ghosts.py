"""Helpers for items drawn as ghosts of pinned states, shared by the canvas and the charts' pin ghosts."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt

GHOST_Z = 7  # above the live bars (they have a fill), below the value texts


def passive(item: pg.GraphicsObject) -> pg.GraphicsObject:
    """`item` that never takes a click or a hover from the live items drawn on the same spot."""
    item.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
    item.setAcceptHoverEvents(False)
    item.setZValue(GHOST_Z)
    return item


def same_state(state: tuple, shown: tuple | None) -> bool:
    """Whether a drawn state still holds: the very same pins tuple (held, so its id is never reused), the rest equal."""
    return shown is not None and state[0] is shown[0] and state[1:] == shown[1:]


def name_levels(xs: list[float], ys: list[float], pixel: tuple[float, float],
                apart_px: tuple[float, float] = (90.0, 22.0)) -> list[int]:
    """For names written at these points, how many lines each moves aside: one per earlier name too near it."""
    width, height = (abs(size) if size and np.isfinite(size) else 1.0 for size in pixel)
    levels: list[int] = []
    for i in range(len(xs)):
        near = [j for j in range(i) if abs(xs[i] - xs[j]) / width < apart_px[0]
                and abs(ys[i] - ys[j]) / height < apart_px[1] * (1 + levels[j])]
        levels.append(max((levels[j] + 1 for j in near), default=0))
    return levels
