"""Axes that are painted once and then copied: pyqtgraph redraws an axis and its grid on every frame otherwise."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtWidgets import QGraphicsItem

AXIS_NAMES = ("left", "bottom", "top", "right")


def cache_axes(plot: pg.PlotWidget | pg.PlotItem) -> None:
    """Keep each axis of `plot` (ticks, tick labels and grid lines) as a pixmap redrawn only when the axis changes."""
    # A grid's lines span the whole view, so every moving item's repaint also replays them: in the output view
    # its two axes cost ~6 ms a frame at 1280×720 (measured with tests/benchmarks/bench_interaction.py), a copy
    # of the cached pixmap costs next to nothing. The cache is dropped whenever the axis calls update(): new
    # ticks, range, pen, font or size.
    item = plot.getPlotItem() if isinstance(plot, pg.PlotWidget) else plot
    for name in AXIS_NAMES:
        axis = item.getAxis(name)
        axis.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        # With the automatic SI prefix on, every change of range (a fit, a zoom, a resize) re-typesets the axis
        # title as HTML; our axes have no units to prefix, so it only cost time (~60 µs a range change).
        axis.enableAutoSIPrefix(False)
