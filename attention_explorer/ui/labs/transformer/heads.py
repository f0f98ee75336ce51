"""The transformer page's "All heads" tab: every head of every layer as a small attention matrix."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QPen
from PySide6.QtWidgets import QGraphicsRectItem, QWidget

from attention_explorer.ui.style.theme import theme
from attention_explorer.ui.widgets.axes import cache_axes
from attention_explorer.ui.widgets.heatmap import MARK_HEX

WEIGHT_COLOURS = ((255, 255, 255), (8, 48, 107))  # white → dark blue: 0 → 1
SCORE_COLOURS = ((178, 24, 43), (255, 255, 255), (33, 102, 172))  # red (negative) → white (0) → blue
AXIS_HEX = "#303030"
GRID_GAP = 0.25  # gap between the small multiples, in tiles
GRID_BACKGROUND = "#E4E4E4"


class HeadGrid(pg.PlotWidget):
    """Every head of every layer as a small attention matrix: layers down, heads across; one ImageItem each."""

    head_clicked = Signal(int, int)  # layer, head
    head_hovered = Signal(int, int)  # -1, -1 when none

    def __init__(self, parent: QWidget | None = None) -> None:
        # Grey, so nearly-white tiles keep their edges.
        super().__init__(parent, background=GRID_BACKGROUND, enableMenu=False)
        item = self.getPlotItem()
        item.setMouseEnabled(x=False, y=False)
        item.setMenuEnabled(False)
        item.hideButtons()
        cache_axes(item)
        item.invertY(True)
        item.showAxis("top")
        item.hideAxis("bottom")
        self.setAspectLocked(True)
        self.view_box = item.getViewBox()
        self.view_box.disableAutoRange()
        for name in ("left", "top"):
            item.getAxis(name).setPen(pg.mkPen(AXIS_HEX))
            item.getAxis(name).setTextPen(pg.mkPen(AXIS_HEX))
        colour_map = pg.ColorMap([0.0, 1.0], [QColor(*c) for c in WEIGHT_COLOURS])
        self._lookup = colour_map.getLookupTable(0.0, 1.0, 256)
        self.images: list[list[pg.ImageItem]] = []
        self.current = QGraphicsRectItem()
        self.current.setBrush(QBrush(Qt.BrushStyle.NoBrush))
        self.current.setZValue(20)
        item.addItem(self.current)
        self._n = 0
        self._shape = (0, 0)
        self._hovered = (-1, -1)
        self.scene().sigMouseClicked.connect(self._on_click)
        self.scene().sigMouseMoved.connect(self._on_mouse_moved)
        self.apply_theme()

    def apply_theme(self) -> None:
        """Fonts and the pen of the current head's frame."""
        font = QFont(self.font())
        font.setPointSizeF(theme().font_pt())
        for name in ("left", "top"):
            self.getPlotItem().getAxis(name).setStyle(tickFont=font)
        pen = QPen(QColor(MARK_HEX), theme().line_px())
        pen.setCosmetic(True)
        self.current.setPen(pen)

    def build(self, layers: int, heads: int) -> None:
        """One ImageItem per head (done once per model; `show` then updates them in place)."""
        for row in self.images:
            for image in row:
                self.getPlotItem().removeItem(image)
        self.images = []
        for _ in range(layers):
            row = []
            for _ in range(heads):
                image = pg.ImageItem(axisOrder="row-major")
                image.setLookupTable(self._lookup)
                self.getPlotItem().addItem(image)
                row.append(image)
            self.images.append(row)
        self._shape = (layers, heads)
        self._n = 0

    def show_attentions(self, attentions: np.ndarray) -> None:
        """attentions: layers × heads × N × N."""
        for layer, row in enumerate(self.images):
            for head, image in enumerate(row):
                image.setImage(attentions[layer, head], levels=(0.0, 1.0), autoLevels=False)
        n = attentions.shape[-1]
        if n != self._n:  # after setImage: setRect scales by the image's size in pixels
            self._n = n
            self._place_tiles()

    def _pitch(self) -> float:
        return self._n * (1.0 + GRID_GAP)

    def _place_tiles(self) -> None:
        pitch = self._pitch()
        for layer, row in enumerate(self.images):
            for head, image in enumerate(row):
                image.setRect(QRectF(head * pitch, layer * pitch, self._n, self._n))
        layers, heads = self._shape
        self.view_box.setRange(xRange=(0, heads * pitch), yRange=(0, layers * pitch), padding=0.02)
        item = self.getPlotItem()
        item.getAxis("left").setTicks([[(layer * pitch + self._n / 2, f"L{layer}") for layer in range(layers)]])
        step = 1 if heads <= 12 else 2
        item.getAxis("top").setTicks([[(head * pitch + self._n / 2, f"H{head}") for head in range(0, heads, step)]])

    def set_current(self, layer: int, head: int) -> None:
        """Frame the head shown in the large matrix."""
        pitch = self._pitch()
        margin = self._n * GRID_GAP * 0.3
        self.current.setRect(QRectF(head * pitch - margin, layer * pitch - margin, self._n + 2 * margin,
                                    self._n + 2 * margin))

    def head_at(self, scene_pos: QPointF) -> tuple[int, int]:
        """(layer, head) of the tile under a scene position, or (-1, -1)."""
        if not self.images or self._n == 0 or not self.view_box.sceneBoundingRect().contains(scene_pos):
            return -1, -1
        point = self.view_box.mapSceneToView(scene_pos)
        pitch = self._pitch()
        layer, head = int(np.floor(point.y() / pitch)), int(np.floor(point.x() / pitch))
        layers, heads = self._shape
        if 0 <= layer < layers and 0 <= head < heads:
            return layer, head
        return -1, -1

    def _on_click(self, event) -> None:
        if event.button() != Qt.MouseButton.LeftButton:
            return
        layer, head = self.head_at(event.scenePos())
        if layer >= 0:
            event.accept()
            self.head_clicked.emit(layer, head)

    def _on_mouse_moved(self, scene_pos: QPointF) -> None:
        found = self.head_at(scene_pos)
        if found != self._hovered:
            self._hovered = found
            self.head_hovered.emit(*found)
