"""One arrow on the canvas, Q or a key: its line, head, grab handle and name, each updated in place."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QFont, QPainterPath

from attention_explorer.ui.canvas import label_layout
from attention_explorer.ui.canvas.label_layout import Placement
from attention_explorer.ui.style.theme import theme, theme_ink
from attention_explorer.ui.widgets.fast_items import FewPointsCurve, QuickText, moves_quietly

HANDLE_PX = 34  # diameter of the grab circle at a tip: easy to hit with a touchpad on a lectern


def _circle_path() -> QPainterPath:
    path = QPainterPath()
    path.addEllipse(QPointF(0.0, 0.0), 0.5, 0.5)
    return path


class TipHandle(pg.TargetItem):
    """The grab circle at an arrow's tip; it never moves itself, it tells the arrow's owner (who asks the model)."""

    def __init__(self, arrow: ArrowItem) -> None:
        super().__init__(pos=(0, 0), size=HANDLE_PX, symbol=_circle_path(), movable=True)
        self.arrow = arrow
        self.setCursor(Qt.CursorShape.OpenHandCursor)

    def mouseDragEvent(self, ev) -> None:
        if ev.button() != Qt.MouseButton.LeftButton:
            ev.ignore()
            return
        ev.accept()
        self.arrow.on_drag(self.arrow, ev)

    def mouseClickEvent(self, ev) -> None:
        if ev.button() == Qt.MouseButton.LeftButton:
            ev.accept()
            self.arrow.on_select(self.arrow.role, self.arrow.index)

    def hoverEvent(self, ev) -> None:
        was = self.mouseHovering
        super().hoverEvent(ev)
        if self.mouseHovering != was:
            self.arrow.on_hover(self.arrow, self.mouseHovering)


class PlacedLabel(QuickText):
    """A text put where label_layout says; touched only when that changed (most labels stay put during a drag)."""

    def __init__(self, **options) -> None:
        super().__init__(**options)
        moves_quietly(self)
        self._placed_at: Placement | None = None

    def size_px(self) -> tuple[float, float]:
        """Width and height in pixels: a TextItem keeps its size whatever the zoom."""
        size = self.textItem.boundingRect()
        return size.width(), size.height()

    def place(self, placement: Placement) -> None:
        """Anchor the text at the placement's view point."""
        if self._placed_at != placement:
            self._placed_at = placement
            self.setPos(placement[0], placement[1])
            self.setAnchor(placement[2])


class ArrowItem:
    """The pieces of one vector's arrow from the origin, kept for as long as the vector is shown.

    It is not itself a QGraphicsItem: a parent item would stack its pieces together, and the canvas draws every
    grab circle above every other arrow's line, and the selected arrow above all.
    """

    def __init__(self, role: str, index: int, color: QColor, on_select: Callable[[str, int], None],
                 on_drag: Callable[[ArrowItem, object], None], on_hover: Callable[[ArrowItem, bool], None]) -> None:
        self.role = role  # "query" or "key"
        self.index = index
        self.color = color
        self.on_select, self.on_drag, self.on_hover = on_select, on_drag, on_hover
        self.line = FewPointsCurve([0.0, 0.0], [0.0, 0.0])
        self.line.setClickable(True, width=12)
        self.line.sigClicked.connect(lambda *_: self.on_select(self.role, self.index))
        self.head = pg.ArrowItem(angle=0, pen=None, brush=color)
        self.handle = TipHandle(self)
        self.label = PlacedLabel(color=color, anchor=(0, 0.5))
        self.head_len = 0.0
        self.emphasised: bool | None = None  # None: not styled yet
        self._drawn_at: tuple | None = None  # (x, y, pixel, head_len) the line, head and handle were last put at
        self.stacked_px = 0.0  # how far down (up if < 0) its label was put, under other labels of tips on its point
        self.half_width = 0.0  # half the line's width in pixels: names keep clear of that

    def items(self) -> tuple:
        return self.line, self.head, self.handle, self.label

    def add_to(self, plot: pg.PlotWidget) -> None:
        for item in self.items():
            plot.addItem(item)

    def remove_from(self, plot: pg.PlotWidget) -> None:
        for item in self.items():
            plot.removeItem(item)

    def set_name(self, text: str) -> None:
        self.label.setText(text)

    def show_key(self, index: int, color: QColor) -> None:
        """Draw key `index` from now on, in its colour (many keys: the canvas reuses its arrows); styled at the next
        `set_selected`, put at the next `set_vector`."""
        self.index = index
        self.set_colour(color)

    def set_colour(self, color: QColor) -> None:
        """Another colour (a theme change); drawn at the next `set_selected`."""
        self.color = color
        self.emphasised = None

    def set_selected(self, emphasised: bool, z: float, base_font: QFont, force: bool = False) -> None:
        """Style it as the selected arrow (thicker, bold name; Q always is) or not, stacked at `z`; restyled only
        where that changed or `force` (a theme change)."""
        if self.emphasised == emphasised and not force:
            self.handle.setZValue(z + 1)
            return
        self.emphasised = emphasised
        t = theme()
        is_query = self.role == "query"
        width = t.line_px() * (1.9 if emphasised else 1.0) * (1.2 if is_query else 1.0)
        self.head_len = t.arrow_px() * (1.2 if emphasised or is_query else 1.0)
        pen = pg.mkPen(self.color, width=width)
        pen.setCapStyle(Qt.PenCapStyle.FlatCap)
        self.line.setPen(pen)
        self.half_width = width / 2
        # headWidth is the half-width; a swept-back base reads as an arrow even when small.
        self.head.setStyle(headLen=self.head_len, headWidth=self.head_len * 0.4, baseAngle=25, pen=None,
                           brush=self.color)
        ring, fill, hover_fill = QColor(self.color), QColor(self.color), QColor(self.color)
        ring.setAlpha(170)
        fill.setAlpha(45)
        hover_fill.setAlpha(110)
        self.handle.setPen(pg.mkPen(ring, width=2))
        self.handle.setBrush(fill)
        self.handle.setHoverPen(pg.mkPen(self.color, width=3))
        self.handle.setHoverBrush(hover_fill)
        if self.handle.scale != HANDLE_PX * t.zoom:
            self.handle.scale = HANDLE_PX * t.zoom  # TargetItem's name for its size in pixels
            self.handle.viewTransformChanged()  # rebuilds its shape at the new size
        font = QFont(base_font)
        font.setPointSizeF(t.number_pt() * (1.25 if emphasised or is_query else 1.05))
        font.setBold(emphasised or is_query)
        self.label.setFont(font)
        # High contrast: the name at 7:1 on the plot (K3's teal was dark on black); elsewhere the key's own colour.
        self.label.setColor(QColor(theme_ink(self.color.name())) if t.mode == "contrast" else self.color)
        self.line.setZValue(z)
        self.head.setZValue(z)
        self.label.setZValue(z)
        self.handle.setZValue(z + 1)

    def set_vector(self, x: float, y: float, pixel: float) -> None:
        """Point the arrow at (x, y) in view units, `pixel` view units a pixel; untouched if nothing changed."""
        # A drag moves one tip: the other arrows keep their place and are not touched.
        where = (x, y, pixel, self.head_len)
        if self._drawn_at == where:
            return
        self._drawn_at = where
        self.head.setPos(x, y)
        self.handle.setPos(x, y)
        length = math.hypot(x, y)
        if length > 0:
            ux, uy = x / length, y / length
            # End the line inside the arrow head: a thick flat line end would stick out of its sharp tip.
            back = min(length, self.head_len * 0.6 * pixel)
            self.line.setData(np.array([0.0, x - ux * back]), np.array([0.0, y - uy * back]))
            self.head.setRotation(180.0 - math.degrees(math.atan2(y, x)))
            self.head.setVisible(True)
        else:
            self.line.setData(np.zeros(2), np.zeros(2))
            self.head.setVisible(False)

    def place_label(self, placement: Placement) -> None:
        self.label.place(placement)

    def put(self, x: float, y: float, pixel: float, placed: list, on_a_line: bool, stack: bool = False,
            obstacles: tuple | None = None, owner: int = -1) -> None:
        """Draw the arrow to (x, y) and put its name at its tip; clear of the `obstacles` (shafts, grab circles'
        radius, view) where it can be, the arrow being number `owner` among them (0 for Q)."""
        self.set_vector(x, y, pixel)
        ux, uy = label_layout.tip_direction(x, y, on_a_line)
        size = self.label.size_px()
        if obstacles:
            self.place_label(label_layout.place_name(size, x, y, ux, uy, math.hypot(x, y) > 0, pixel, placed,
                                                     *obstacles, owner))
            self.stacked_px = 0.0
            return
        gap = label_layout.LABEL_GAP_PX * pixel
        # A stacked label goes on the side away from its tip: above a label over it (an arrow steeper than 30°
        # up, or on a line, where the labels sit above the tips), towards the tip it would cover the handle;
        # otherwise below, away from the angle's number, which goes above near-level arrows.
        direction = (-1 if uy > 0.5 else 1) if stack else 0
        placement, shift = label_layout.place_beside(size, x + ux * gap, y + uy * gap, ux, uy, pixel, placed,
                                                     direction)
        self.place_label(placement)
        # A stack on one point is the same at any zoom, so fit() leaves room for it. (Other moves depend on the
        # zoom: counting them, a fit would crowd the tips, which moves their labels further, and so on.)
        self.stacked_px = shift if stack else 0.0
