"""Shared drawing of the head and model views: one colour per head, weight-faded lines, PNG and SVG export."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QLineF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPen
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import QWidget

from attention_explorer.ui.widgets.export_file import png_bytes, write_export

# BertViz's category10 first, then further distinct hues for models with more heads than that.
HEAD_HEX = ("#1F77B4", "#FF7F0E", "#2CA02C", "#D62728", "#9467BD", "#8C564B", "#E377C2", "#7F7F7F",
            "#BCBD22", "#17BECF", "#393B79", "#AD494A")
MIN_LINE_WEIGHT = 0.01  # fainter lines are invisible anyway; skipping them keeps long sentences fast
ALPHA_LEVELS = 64  # line opacities are rounded to 1/64: indistinguishable, and lines of one opacity go together
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


def strongest_lines(weights: np.ndarray, queries: np.ndarray | None = None, keys: np.ndarray | None = None,
                    max_lines: int = 4000) -> tuple[np.ndarray, np.ndarray]:
    """(query, key) index arrays of the lines worth drawing: not faint, and only the strongest `max_lines`
    (a 512-token sentence has 262 144 per head; no one can see them all, and drawing them would freeze the page)."""
    n = weights.shape[0]
    chosen = np.zeros((n, n), dtype=bool)
    chosen[np.ix_(np.arange(n) if queries is None else queries, np.arange(n) if keys is None else keys)] = True
    rows, columns = np.nonzero(chosen & (weights >= MIN_LINE_WEIGHT))
    if rows.size > max_lines:
        keep = np.argpartition(weights[rows, columns], rows.size - max_lines)[rows.size - max_lines:]
        rows, columns = rows[keep], columns[keep]
    return rows, columns


def draw_lines(painter: QPainter, weights: np.ndarray, colour: QColor, left_x: float, right_x: float,
               rows_y: np.ndarray, width: float, queries: np.ndarray | None = None,
               keys: np.ndarray | None = None, max_lines: int = 4000) -> int:
    """Lines from each query row (left) to each key row (right) for one head's N × N weights; returns how many."""
    rows, columns = strongest_lines(weights, queries, keys, max_lines)
    levels = np.clip(np.rint(weights[rows, columns] * ALPHA_LEVELS), 1, ALPHA_LEVELS).astype(int)
    for level in np.unique(levels):  # one pen per opacity: a few dozen calls instead of one per line
        at = levels == level
        painter.setPen(line_pen(colour, level / ALPHA_LEVELS, width))
        painter.drawLines([QLineF(left_x, rows_y[i], right_x, rows_y[j]) for i, j in zip(rows[at], columns[at])])
    return int(rows.size)


def export_view(view: QWidget, path: str) -> None:
    """Write a view that has `render_to(painter, size, fast)` as PNG (twice its pixels) or SVG, by the suffix.

    Drawn in memory, then written and checked on the disk: raises (OSError, ScenarioError, NothingToWrite) when the
    file is not there whole.
    """
    size = view.size()
    if Path(path).suffix.lower() == ".svg":
        data = QByteArray()
        buffer = QBuffer(data)
        buffer.open(QIODevice.OpenModeFlag.WriteOnly)
        generator = QSvgGenerator()
        generator.setOutputDevice(buffer)
        generator.setSize(size)
        generator.setViewBox(QRectF(0, 0, size.width(), size.height()))
        generator.setTitle(view.export_title())
        painter = QPainter(generator)
        view.render_to(painter, size, fast=False)
        drawn = painter.end()
        buffer.close()
        write_export(path, bytes(data.data()) if drawn else b"")
        return
    image = QImage(size * EXPORT_PNG_SCALE, QImage.Format.Format_ARGB32)
    image.setDevicePixelRatio(EXPORT_PNG_SCALE)
    painter = QPainter(image)
    view.render_to(painter, QSize(size), fast=False)
    painter.end()
    write_export(path, png_bytes(image))
