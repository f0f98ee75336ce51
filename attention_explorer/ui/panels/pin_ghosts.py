"""Pinned states drawn as ghosts in the weights chart (outlined bars) and the output view (hollow stars).

Each view gets a fixed set of items per pin slot, made the first time a pin needs them and then only updated
(setOpts / setData) when the pins, the step shown, the view's mode or the theme change — never on a drag move,
which leaves the pins as they are. Every number comes from the pin's own result, computed by the core.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QBrush, QFont
from PySide6.QtWidgets import QLabel, QWidget

from attention_explorer.core.scenes.query.pins import MAX_PINS, Pin
from attention_explorer.state.explorer import ExplorerModel
from attention_explorer.ui.style.pin_style import legend_html, pin_colour, pin_name, pin_pen
from attention_explorer.ui.style.theme import theme
from attention_explorer.ui.widgets.ghosts import name_levels, passive, same_state

# The outlines of the pins nest around the live bar (0.62 wide) and the grey unscaled outline (0.86), so where two
# pins agree both outlines still show.
GHOST_BAR_WIDTHS = (0.72, 0.79, 0.95)
DENSE_KEYS = 40  # as the weights chart: from here on an outline per bar would be a comb of lines
GHOST_STAR_PX = 24.0
GHOST_STAR_Z = 25  # hollow: above the live star (20) without hiding it


class PinLegend(QLabel):
    """The pins' names in their colours and dash patterns, under a plot; hidden while there is no pin."""

    def __init__(self, on_language_change, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("pinLegend")
        self.setTextFormat(Qt.TextFormat.RichText)  # legend_html escapes every name
        self.setWordWrap(True)
        self._on_language_change = on_language_change
        self.hide()

    def show_pins(self, pins: tuple[Pin, ...]) -> None:
        """Name `pins` (hide when there are none)."""
        font = QFont(self.font())
        font.setPointSizeF(theme().font_pt())
        self.setFont(font)
        self.setText(legend_html(pins))
        self.setToolTip("\n".join(pin_name(pin) for pin in pins))
        self.setVisible(bool(pins))

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self._on_language_change()
        super().changeEvent(event)


class _Ghosts(QObject):
    """What the weights and output ghosts share: the legend under the plot, and redrawing only on a real change."""

    def __init__(self, view: QWidget, model: ExplorerModel) -> None:
        # A QObject child of the view: Qt drops the theme's and the model's connections with it, so a closed
        # window's ghosts are never called again.
        super().__init__(view)
        self.view = view
        self.model = model
        self.legend = PinLegend(self.redraw, view)
        layout = view.layout()
        layout.insertWidget(layout.indexOf(view.plot) + 1, self.legend)
        self._shown: tuple | None = None
        model.changed.connect(self.refresh)
        model.steps_changed.connect(self.refresh)
        theme().changed.connect(self.redraw)

    def state(self) -> tuple:
        """What the ghosts depend on, the pins first: the same tuple through every edit that leaves them alone."""
        return (self.model.pins,)

    def redraw(self) -> None:
        """Draw again whatever the state (after a theme or language change)."""
        self._shown = None
        self.refresh()

    def refresh(self) -> None:
        """Update the ghosts from the model's pins when something they show changed."""
        state = self.state()
        if same_state(state, self._shown):
            return
        self._shown = state
        self.legend.show_pins(self.model.pins if self.wants_legend() else ())
        self.draw(self.model.pins)

    def wants_legend(self) -> bool:
        """Whether the names go in the legend under the plot (not where the ghosts carry their own names)."""
        return True

    def draw(self, pins: tuple[Pin, ...]) -> None:
        raise NotImplementedError


class WeightGhosts(_Ghosts):
    """Each pin's weights as outlined bars (many keys: a step line) in the pin's colour and dash pattern."""

    def __init__(self, chart: QWidget) -> None:
        super().__init__(chart, chart.model)
        self.bars: list[pg.BarGraphItem] = []
        self.steps: list[pg.PlotDataItem] = []
        self.refresh()

    def state(self) -> tuple:
        return (self.model.pins, self.model.step_shown(3))

    def draw(self, pins: tuple[Pin, ...]) -> None:
        while len(self.bars) < len(pins):
            bar = passive(pg.BarGraphItem(x=np.zeros(0), height=np.zeros(0), width=0.7,
                                          brush=QBrush(Qt.BrushStyle.NoBrush)))
            step = passive(pg.PlotDataItem(stepMode="center"))
            self.view.plot.addItem(bar)
            self.view.plot.addItem(step)
            self.bars.append(bar)
            self.steps.append(step)
        shown = self.model.step_shown(3)  # before the softmax step a pin's weights would give the answer away
        for slot, (bar, step) in enumerate(zip(self.bars, self.steps)):
            if slot >= len(pins):
                bar.setVisible(False)
                step.setVisible(False)
                continue
            pin = pins[slot]
            weights = pin.result.weights
            n = weights.shape[0]
            dense = n >= DENSE_KEYS
            pen = pin_pen(pin, 0.8)
            bar.setOpts(x=np.arange(n, dtype=np.float64), height=weights, pen=pen,
                        width=GHOST_BAR_WIDTHS[(pin.number - 1) % MAX_PINS])
            step.setData(np.arange(n + 1, dtype=np.float64) - 0.5, weights, pen=pen)
            bar.setVisible(shown and not dense)
            step.setVisible(shown and dense)


class OutputGhosts(_Ghosts):
    """Each pin's output as a hollow star (d_v = 2) or as outlined component bars, in the pin's colour."""

    def __init__(self, view: QWidget) -> None:
        super().__init__(view, view.model)
        self.stars: list[pg.ScatterPlotItem] = []
        self.names: list[pg.TextItem] = []
        self.bars: list[pg.BarGraphItem] = []
        self.refresh()

    def state(self) -> tuple:
        return (self.model.pins, self.model.step_shown(4), self.view.mode)

    def wants_legend(self) -> bool:
        return self.view.mode != "plane"  # in the plane each hollow star has its name beside it

    def draw(self, pins: tuple[Pin, ...]) -> None:
        while len(self.stars) < len(pins):
            star = passive(pg.ScatterPlotItem(pxMode=True, symbol="star"))
            star.setZValue(GHOST_STAR_Z)
            name = passive(pg.TextItem(anchor=(-0.15, 1.0)))
            name.setZValue(GHOST_STAR_Z)
            bar = passive(pg.BarGraphItem(x=np.zeros(0), height=np.zeros(0), width=0.6,
                                          brush=QBrush(Qt.BrushStyle.NoBrush)))
            for item in (star, name, bar):
                self.view.plot.addItem(item)
            self.stars.append(star)
            self.names.append(name)
            self.bars.append(bar)
        shown = self.model.step_shown(4)
        plane = self.view.mode == "plane"
        font = QFont(self.view.font())
        font.setPointSizeF(theme().font_pt())
        outputs = [pin.result.output for pin in pins if pin.result.output.shape[0] == 2]
        # Pins with one output would print their names on top of each other: a line up for each one below.
        levels = iter(name_levels([float(o[0]) for o in outputs], [float(o[1]) for o in outputs],
                                  self.view.view_box.viewPixelSize()))
        for slot, (star, name, bar) in enumerate(zip(self.stars, self.names, self.bars)):
            pin = pins[slot] if slot < len(pins) else None
            output = pin.result.output if pin is not None else np.zeros(0)
            in_plane = pin is not None and shown and plane and output.shape[0] == 2
            if in_plane:
                solid = pin_pen(pin, 0.8)
                solid.setStyle(Qt.PenStyle.SolidLine)  # a dashed rim breaks a star this small into dots
                star.setData(x=[float(output[0])], y=[float(output[1])], size=GHOST_STAR_PX * theme().zoom,
                             symbol="star", pen=solid, brush=QBrush(Qt.BrushStyle.NoBrush))
                name.setText(pin_name(pin))
                name.setColor(pin_colour(pin))
                name.setFont(font)
                name.setAnchor((-0.15, 1.0 + 1.05 * next(levels)))
                name.setPos(float(output[0]), float(output[1]))
            if pin is not None and shown and not plane:
                bar.setOpts(x=np.arange(output.shape[0], dtype=np.float64), height=output, pen=pin_pen(pin, 0.8),
                            width=0.5 + 0.12 * (pin.number - 1))
            star.setVisible(in_plane)
            name.setVisible(in_plane)
            bar.setVisible(pin is not None and shown and not plane)
