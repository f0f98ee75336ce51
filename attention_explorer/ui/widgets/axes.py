"""Axes that are painted once and then copied: pyqtgraph redraws an axis and its grid on every frame otherwise."""

from __future__ import annotations

import functools

import pyqtgraph as pg
import shiboken6
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QPainter, QPen
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
        # Two levels of grid lines, not pyqtgraph's three: the third is drawn at about 4 % opacity (nobody sees it
        # on a projector) and was two thirds of the lines. Qt's raster engine blends a translucent line slowly
        # (~0.15 ms for 500 px here), so the canvas's two axes took 26 ms to cache at every zoom, fit or resize
        # (7 ms with two levels).
        axis.setStyle(maxTickLevel=1)
        # The axis's own drawing, but for how its straight 1-px lines are laid down (see draw_axis_picture).
        axis.drawPicture = functools.partial(draw_axis_picture, axis)
        # Qt scrolls a cached pixmap instead of repainting it when the item is over 1.2× the viewport's size (an
        # axis reaches 15 px past both ends for its end labels, so any plot under ~150 px tall) and keeps doing so
        # from then on: as a small plot grew, the labels of each height it passed through stayed in the pixmap.
        axis.geometryChanged.connect(functools.partial(_drop_cache, axis))


def _drop_cache(axis: pg.AxisItem) -> None:
    """Forget the axis's cached pixmap, so that its next paint draws it whole."""
    # A scene being torn down still moves its items: the signal can arrive after the axis itself is gone.
    if not shiboken6.isValid(axis):
        return
    axis.setCacheMode(QGraphicsItem.CacheMode.NoCache)
    axis.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)


def draw_axis_picture(axis: pg.AxisItem, painter: QPainter, axis_spec: tuple, tick_specs: list,
                      text_specs: list) -> None:
    """What `AxisItem.drawPicture` draws, with each straight 1-px tick or grid line filled as a 1-px rectangle."""
    # Same pixels (checked at random fractional positions, overlaps included), but Qt's raster engine strokes a
    # translucent line through its general path: at about a quarter of the cost (measured), a grid of fills is
    # what keeps the canvas's first paint and every re-cache after a zoom or resize cheap.
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
    pen, start, end = axis_spec
    painter.setPen(pen)
    painter.drawLine(start, end)
    for pen, start, end in tick_specs:
        rectangle = _one_pixel_rectangle(pen, start, end)
        if rectangle is None:
            painter.setPen(pen)
            painter.drawLine(start, end)
        else:
            painter.fillRect(rectangle, pen.color())
    if axis.style["tickFont"] is not None:
        painter.setFont(axis.style["tickFont"])
    painter.setPen(axis.textPen())
    painter.setClipRect(axis.boundingRect().toAlignedRect())
    for rectangle, flags, text in text_specs:
        painter.drawText(rectangle, int(flags), text)


def _one_pixel_rectangle(pen: QPen, start: QPointF, end: QPointF) -> QRectF | None:
    """The rectangle an aliased solid 1-px line from `start` to `end` covers; None if it is not such a line."""
    if pen.style() != Qt.PenStyle.SolidLine or pen.widthF() > 1.0 or pen.brush().style() != Qt.BrushStyle.SolidPattern:
        return None
    # An aliased line covers the pixels whose centres lie within half a pixel of it, both end pixels included.
    x0, y0, x1, y1 = start.x(), start.y(), end.x(), end.y()
    if x0 == x1:
        return QRectF(x0 - 0.5, min(y0, y1) - 0.5, 1.0, abs(y1 - y0) + 1.0)
    if y0 == y1:
        return QRectF(min(x0, x1) - 0.5, y0 - 0.5, abs(x1 - x0) + 1.0, 1.0)
    return None
