"""The angle on the canvas: the arc from Q to the selected key and the number θ on it, updated in place."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg

from attention_explorer.ui.canvas import label_layout
from attention_explorer.ui.canvas.arrow_item import PlacedLabel
from attention_explorer.ui.widgets.fast_items import FewPointsCurve

ARC_POINTS = 48
_ARC_STEPS = np.linspace(0.0, 1.0, ARC_POINTS)


class AngleItem:
    """The arc and its number, kept for the canvas's life; hidden where an arrow is the zero vector."""

    def __init__(self) -> None:
        self.arc = FewPointsCurve()
        self.arc.setZValue(5)
        self.label = PlacedLabel(anchor=(0.5, 0.5))
        self.label.setZValue(60)  # above the arrows, on a backing (see VectorCanvas._apply_theme): stays readable
        self._text = ""

    def add_to(self, plot: pg.PlotWidget) -> None:
        plot.addItem(self.arc)
        plot.addItem(self.label)

    def forget_text(self) -> None:
        """Set the text again at the next `show` (a new language or plane)."""
        self._text = ""

    def hide(self) -> None:
        self.arc.setVisible(False)
        self.label.setVisible(False)

    def show(self, text: str, arc: tuple[float, float, float], q_len: float, k_len: float, pixel: float,
             handle_radius: float, on_a_line: bool, half_widths: tuple[float, float], placed: list,
             obstacles=None, keep_clear: list | tuple = ()) -> None:
        """Draw the `arc` (see label_layout.angle_arc) and `text` by it, clear of the `placed` labels and of the arrows
        in `obstacles` and of the `keep_clear` boxes (see label_layout.clear_of_arrows)."""
        start, sweep, radius = arc
        angles = start + sweep * _ARC_STEPS
        self.arc.setData(radius * np.cos(angles), radius * np.sin(angles))
        if text != self._text:
            self.label.setText(text)
            self._text = text
        self.arc.setVisible(True)
        self.label.setVisible(True)
        size = self.label.size_px()
        centre = label_layout.angle_label_point(size, start, sweep, radius, q_len, k_len, pixel, handle_radius,
                                                on_a_line, half_widths)
        if obstacles is not None:  # never on an arrow: the nearest place that crosses none
            centre = label_layout.clear_of_arrows(size, *centre, pixel, obstacles, [*placed, *keep_clear])
        self.label.place(label_layout.place_beside(size, *centre, 0.0, 0.0, pixel, placed)[0])

