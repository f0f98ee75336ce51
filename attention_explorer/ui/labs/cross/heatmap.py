"""An N_q × N_k matrix (target tokens down the side, source tokens along the top) as a heatmap with hover and click.

The square Heatmap of ui/widgets assumes one token list for rows and columns; cross-attention has two.
Numbers are written in the cells while there are at most CELL_TEXT_MAX cells: each cell's number is its own value,
written by the heatmap from the very matrix it colours, so the text and the colour can never show two matrices.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetrics, QPen
from PySide6.QtWidgets import QGraphicsRectItem, QWidget

from attention_explorer.ui.style.theme import theme
from attention_explorer.ui.widgets.axes import cache_axes

CELL_TEXT_MAX = 256  # numbers in the cells up to this many cells (16 × 16)
HOVER_HEX = "#111111"
BAND_HEX = "#C98A00"
TICK_ROOM = "MMMMMM"  # a row label is elided to this width


class CrossHeatmap(pg.PlotWidget):
    """Rows = target tokens (queries), columns = source tokens (keys); a colour bar; hover and click signals."""

    cell_hovered = Signal(int, int)  # row, column; -1, -1 when the mouse leaves the matrix
    cell_clicked = Signal(int, int)

    def __init__(self, colours: tuple[str, ...], parent: QWidget | None = None) -> None:
        super().__init__(parent, background="w", enableMenu=False)
        self.colormap = pg.ColorMap(np.linspace(0.0, 1.0, len(colours)), [QColor(c) for c in colours])
        plot = self.getPlotItem()
        plot.setMouseEnabled(x=False, y=False)
        plot.setMenuEnabled(False)
        plot.hideButtons()
        cache_axes(plot)
        plot.showAxis("top")
        plot.hideAxis("bottom")
        self.view_box = plot.getViewBox()
        self.view_box.invertY(True)
        self.view_box.disableAutoRange()
        for side in ("left", "top"):
            plot.getAxis(side).setTextPen(pg.mkPen("#202020"))
        self.image = pg.ImageItem(axisOrder="row-major")
        plot.addItem(self.image)
        self.colour_bar = pg.ColorBarItem(values=(0.0, 1.0), colorMap=self.colormap, rounding=0.01,
                                          interactive=False, width=14, colorMapMenu=False)
        self.colour_bar.setImageItem(self.image, insert_in=plot)
        self.band = QGraphicsRectItem()
        self.box = QGraphicsRectItem()
        for item, hex_colour, width, style in ((self.band, BAND_HEX, 2.5, Qt.PenStyle.DashLine),
                                               (self.box, HOVER_HEX, 3.5, Qt.PenStyle.SolidLine)):
            pen = QPen(QColor(hex_colour), width)
            pen.setCosmetic(True)
            pen.setStyle(style)
            item.setPen(pen)
            item.setBrush(QBrush(Qt.BrushStyle.NoBrush))
            item.setZValue(12)
            item.setVisible(False)
            plot.addItem(item)
        self.cell_texts: list[pg.TextItem] = []
        self.shape = (0, 0)
        self.rows: tuple[str, ...] = ()
        self.columns: tuple[str, ...] = ()
        self._hovered = (-1, -1)
        self.scene().sigMouseMoved.connect(self._on_moved)
        self.scene().sigMouseClicked.connect(self._on_clicked)
        self.view_box.sigResized.connect(self._fit)

    def show_matrix(self, values: np.ndarray, levels: tuple[float, float], rows: Sequence[str],
                    columns: Sequence[str], number: Callable[[float], str]) -> None:
        """Draw `values` (N_q × N_k) at `levels`, with the tokens on the axes and number(value) in each cell."""
        shape = (int(values.shape[0]), int(values.shape[1]))
        relabel = shape != self.shape or tuple(rows) != self.rows or tuple(columns) != self.columns
        if shape != self.shape:
            self.shape = shape
            self.view_box.setRange(xRange=(0, shape[1]), yRange=(0, shape[0]), padding=0.0)
            self._make_texts(shape[0] * shape[1] if shape[0] * shape[1] <= CELL_TEXT_MAX else 0)
        self.image.setImage(values, levels=levels, autoLevels=False)
        self.image.setRect(QRectF(0.0, 0.0, shape[1], shape[0]))
        self.colour_bar.setLevels(levels)
        self.rows, self.columns = tuple(rows), tuple(columns)
        if self.cell_texts:
            low, high = levels
            for item, value in zip(self.cell_texts, values.ravel().tolist()):
                share = (value - low) / (high - low or 1.0)
                dark = 0.25 < share < 0.75 if low < 0 else share < 0.55  # light cells take dark numbers
                item.setColor(QColor("#141414" if dark else "#FFFFFF"))
                item.setText(number(value))
        if relabel:  # ticks and fonts depend on the tokens and the cell size only (a resize refits them too)
            self._fit()

    def _make_texts(self, count: int) -> None:
        while len(self.cell_texts) > count:
            self.removeItem(self.cell_texts.pop())
        while len(self.cell_texts) < count:
            item = pg.TextItem(anchor=(0.5, 0.5))
            item.setZValue(10)
            self.addItem(item)
            self.cell_texts.append(item)
        columns = max(self.shape[1], 1)
        for index, item in enumerate(self.cell_texts):
            item.setPos(index % columns + 0.5, index // columns + 0.5)

    def refit(self) -> None:
        """Tick labels and cell numbers sized to the cells again (after a zoom or theme change)."""
        self._fit()

    def _fit(self) -> None:
        """Tick labels and cell numbers sized to the cells (every k-th label when the cells are small)."""
        n_q, n_k = self.shape
        if not n_q or not self.rows:
            return
        font = QFont(self.font())
        font.setPointSizeF(theme().font_pt())
        metrics = QFontMetrics(font)
        cell_w, cell_h = self.view_box.width() / n_k, self.view_box.height() / n_q
        row_step = max(1, math.ceil((metrics.height() + 2) / max(cell_h, 1.0)))
        column_step = max(1, math.ceil(metrics.horizontalAdvance("Mmmm") / max(cell_w, 1.0)))
        room = max(int(cell_w * column_step) - 6, 14)
        plot = self.getPlotItem()
        left = [(i + 0.5, metrics.elidedText(self.rows[i], Qt.TextElideMode.ElideRight,
                                             metrics.horizontalAdvance(TICK_ROOM))) for i in range(0, n_q, row_step)]
        plot.getAxis("left").setTicks([left, []])
        # pyqtgraph widens an axis only after a label did not fit, and then leaves that label out: size it first
        plot.getAxis("left").setWidth(max(metrics.horizontalAdvance(text) for _, text in left) + 14)
        plot.getAxis("top").setTicks([[(j + 0.5, metrics.elidedText(
            self.columns[j], Qt.TextElideMode.ElideRight, room)) for j in range(0, n_k, column_step)], []])
        for side in ("left", "top"):
            plot.getAxis(side).setStyle(tickFont=font, hideOverlappingLabels=False)
        number_font = QFont(font)
        size = theme().number_pt()
        while size > 7.0:
            number_font.setPointSizeF(size)
            if QFontMetrics(number_font).horizontalAdvance("0.000") <= cell_w - 6:
                break
            size -= 0.5
        number_font.setPointSizeF(size)
        fits = QFontMetrics(number_font).horizontalAdvance("0.00") <= cell_w
        for item in self.cell_texts:
            item.setFont(number_font)
            item.setVisible(fits)

    def cell_at(self, scene_pos: QPointF) -> tuple[int, int] | None:
        """(row, column) under a scene position, or None outside the matrix."""
        if not self.view_box.sceneBoundingRect().contains(scene_pos):
            return None
        point = self.view_box.mapSceneToView(scene_pos)
        row, column = math.floor(point.y()), math.floor(point.x())
        return (row, column) if 0 <= row < self.shape[0] and 0 <= column < self.shape[1] else None

    def cell_center(self, row: int, column: int) -> QPointF:
        """Widget coordinates of a cell's centre."""
        return QPointF(self.mapFromScene(self.view_box.mapViewToScene(QPointF(column + 0.5, row + 0.5))))

    def show_hover(self, cell: tuple[int, int] | None) -> None:
        """Outline the hovered cell and its row (the row a click hands to the explorer)."""
        self.box.setVisible(cell is not None)
        self.band.setVisible(cell is not None)
        if cell is not None:
            self.box.setRect(QRectF(cell[1], cell[0], 1.0, 1.0))
            self.band.setRect(QRectF(0.0, cell[0], self.shape[1], 1.0))

    def _on_moved(self, scene_pos: QPointF) -> None:
        cell = self.cell_at(scene_pos) or (-1, -1)
        if cell != self._hovered:
            self._hovered = cell
            self.cell_hovered.emit(*cell)

    def _on_clicked(self, event) -> None:
        cell = self.cell_at(event.scenePos()) if event.button() == Qt.MouseButton.LeftButton else None
        if cell is not None:
            event.accept()
            self.cell_clicked.emit(*cell)

    def leaveEvent(self, event) -> None:
        """Nothing is under the mouse any more."""
        super().leaveEvent(event)
        if self._hovered != (-1, -1):
            self._hovered = (-1, -1)
            self.cell_hovered.emit(-1, -1)
