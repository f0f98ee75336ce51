"""Pinned states on the canvas: each pin's Q and keys as a faded set of arrows in its colour, named at Q's tip.

The items of a pin slot are made once and updated with setData when the pins or the plane shown change; a drag
move leaves the pins alone, so it costs nothing here. Tips come from the core's projection of the pin's vectors
on the plane the canvas shows.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QBrush, QColor, QFont

from attention_explorer.core.maths.projection import plane_tips
from attention_explorer.core.scenes.query.pins import Pin
from attention_explorer.ui.style.pin_style import pin_colour, pin_name, pin_pen
from attention_explorer.ui.style.theme import theme
from attention_explorer.ui.widgets.ghosts import name_levels, passive, same_state

GHOST_ALPHA = 0.6  # faded: the live arrows stay what the eye follows
GHOST_Z = 2  # below every live arrow, its grab circle and its name
TIP_PX = 9.0


def _passive(item: pg.GraphicsObject) -> pg.GraphicsObject:
    """`item`, never taking a click, a drag or a hover from the live arrow on the same spot; below every arrow."""
    passive(item).setZValue(GHOST_Z)
    return item


class CanvasGhosts(QObject):
    """The pins' arrows on a VectorCanvas: shafts from the origin, a hollow dot at each tip, the name at Q's."""

    def __init__(self, canvas) -> None:
        super().__init__(canvas)
        self.canvas = canvas
        self.model = canvas.model
        self.shafts: list[pg.PlotDataItem] = []
        self.tips: list[pg.ScatterPlotItem] = []
        self.names: list[pg.TextItem] = []
        self._shown: tuple | None = None
        self.model.changed.connect(self.refresh)
        self.model.selection_changed.connect(self.refresh)
        canvas.plane_combo.currentIndexChanged.connect(self.refresh)
        theme().changed.connect(self.redraw)
        canvas.installEventFilter(self)
        canvas.view.sigRangeChanged.connect(self._place_names)
        self.refresh()

    def eventFilter(self, watched, event) -> bool:
        if watched is self.canvas and event.type() == QEvent.Type.LanguageChange:
            self.redraw()  # "Pin 1" in the new language
        return False

    def redraw(self) -> None:
        """Draw again whatever the state (after a theme or language change)."""
        self._shown = None
        self.refresh()

    def refresh(self, *_args) -> None:
        """Project and draw the pins when they or the plane changed."""
        pins = self.model.pins
        basis = self.canvas.drawing_basis() if pins else None
        state = (pins, None if basis is None else basis.tobytes())
        if same_state(state, self._shown):
            return
        self._shown = state
        while len(self.shafts) < len(pins):
            shaft = _passive(pg.PlotDataItem(connect="pairs"))
            tip = _passive(pg.ScatterPlotItem(pxMode=True, symbol="o"))
            name = _passive(pg.TextItem(anchor=(-0.1, -0.25)))
            for item in (shaft, tip, name):
                self.canvas.plot.addItem(item)
            self.shafts.append(shaft)
            self.tips.append(tip)
            self.names.append(name)
        projections = [self._project(pin, basis) for pin in pins]
        drawn = [p for p in projections if p is not None]
        # Below-right of the pinned Q's tip (Q's own name sits above it); pins that share Q would print their
        # names on top of each other: a line down for each one above.
        levels = iter(name_levels([float(p[0][0]) for p in drawn], [float(p[1][0]) for p in drawn],
                                  self.canvas.view.viewPixelSize()))
        for slot, (shaft, tip, name) in enumerate(zip(self.shafts, self.tips, self.names)):
            projected = projections[slot] if slot < len(pins) else None
            if projected is not None:
                name.setAnchor((-0.1, -0.25 - 1.05 * next(levels)))
                self._draw(pins[slot], projected, shaft, tip, name)
            for item in (shaft, tip, name):
                item.setVisible(projected is not None)

    @staticmethod
    def _project(pin: Pin, basis: np.ndarray | None) -> tuple[np.ndarray, np.ndarray] | None:
        """The x and y of the pin's Q (first) and keys on the plane shown; None where its d_k has no such plane."""
        scene = pin.scenario
        if basis is not None and basis.shape[1] != scene.d_k:
            return None  # the plane of another d_k: no honest picture of this pin there
        qx, qy, kx, ky = plane_tips(scene.query, scene.keys, basis)
        return np.append(qx, kx), np.append(qy, ky)

    def _draw(self, pin: Pin, projected: tuple[np.ndarray, np.ndarray], shaft, tip, name) -> None:
        xs, ys = projected
        colour = QColor(pin_colour(pin))
        colour.setAlphaF(GHOST_ALPHA)
        pen = pin_pen(pin, 0.8)
        pen.setColor(colour)
        pairs_x = np.column_stack([np.zeros_like(xs), xs]).reshape(-1)
        pairs_y = np.column_stack([np.zeros_like(ys), ys]).reshape(-1)
        shaft.setData(pairs_x, pairs_y, pen=pen)
        rim = pin_pen(pin, 0.6)
        rim.setColor(colour)
        rim.setStyle(Qt.PenStyle.SolidLine)
        tip.setData(x=xs, y=ys, size=TIP_PX * theme().zoom, pen=rim, brush=QBrush(Qt.BrushStyle.NoBrush))
        font = QFont(self.canvas.font())
        font.setPointSizeF(theme().font_pt())
        name.setFont(font)
        name.setColor(pin_colour(pin))
        name.setText(pin_name(pin))
        name.setPos(float(xs[0]), float(ys[0]))
        self._place_name(name)

    def _place_names(self, *_args) -> None:
        for name in self.names:
            if name.isVisible():
                self._place_name(name)

    def _place_name(self, name: pg.TextItem) -> None:
        """The name right of Q's ghost tip; left of it where it would run past the plot's right edge (it
        was cut there, "with 1/")."""
        view = self.canvas.view
        (_left, right), _ = view.viewRange()
        pixel = view.viewPixelSize()[0]
        width = name.boundingRect().width() * pixel
        anchor = (1.05, -0.2) if name.pos().x() + 1.1 * width > right else (-0.1, -0.25)
        if tuple(name.anchor) != anchor:
            name.setAnchor(anchor)
