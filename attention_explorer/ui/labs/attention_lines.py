"""Shared drawing of the head and model views: one colour per head, weight-faded lines, PNG and SVG export."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPen
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import QWidget

# BertViz's category10 first, then further distinct hues for models with more heads than that.
HEAD_HEX = ("#1F77B4", "#FF7F0E", "#2CA02C", "#D62728", "#9467BD", "#8C564B", "#E377C2", "#7F7F7F",
            "#BCBD22", "#17BECF", "#393B79", "#AD494A")
MIN_LINE_WEIGHT = 0.01  # fainter lines are invisible anyway; skipping them keeps long sentences fast
EXPORT_PNG_SCALE = 2  # figures for papers: twice the screen's pixels


def head_color(head: int) -> QColor:
    """The colour of head `head` in both views (hues spread evenly beyond the first twelve)."""
    if head < len(HEAD_HEX):
        return QColor(HEAD_HEX[head])
    return QColor.fromHsvF((head * 0.618034) % 1.0, 0.75, 0.8)


def line_pen(colour: QColor, weight: float, width: float) -> QPen:
    """A line as opaque as its attention weight (BertViz's convention)."""
    faded = QColor(colour)
    faded.setAlphaF(float(min(max(weight, 0.0), 1.0)))
    pen = QPen(faded, width)
    pen.setCapStyle(Qt.PenCapStyle.FlatCap)
    return pen


def draw_lines(painter: QPainter, weights: np.ndarray, colour: QColor, left_x: float, right_x: float,
               rows_y: np.ndarray, width: float, queries: np.ndarray | None = None,
               keys: np.ndarray | None = None) -> int:
    """Lines from each query row (left) to each key row (right) for one head's N × N weights; returns how many."""
    n = weights.shape[0]
    chosen = np.zeros((n, n), dtype=bool)
    chosen[np.ix_(np.arange(n) if queries is None else queries, np.arange(n) if keys is None else keys)] = True
    drawn = 0
    for i, j in zip(*np.nonzero(chosen & (weights >= MIN_LINE_WEIGHT))):
        painter.setPen(line_pen(colour, weights[i, j], width))
        painter.drawLine(QPointF(left_x, rows_y[i]), QPointF(right_x, rows_y[j]))
        drawn += 1
    return drawn


def export_view(view: QWidget, path: str) -> bool:
    """Write a view that has `render_to(painter, size)` as PNG (twice its pixels) or SVG, by the suffix."""
    size = view.size()
    if Path(path).suffix.lower() == ".svg":
        generator = QSvgGenerator()
        generator.setFileName(path)
        generator.setSize(size)
        generator.setViewBox(QRectF(0, 0, size.width(), size.height()))
        generator.setTitle(view.export_title())
        painter = QPainter(generator)
        view.render_to(painter, size)
        return painter.end()
    image = QImage(size * EXPORT_PNG_SCALE, QImage.Format.Format_ARGB32)
    image.setDevicePixelRatio(EXPORT_PNG_SCALE)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    view.render_to(painter, QSize(size))
    painter.end()
    return image.save(path, "PNG")
