"""Small plot: the selected key's cos θ and weight against its direction, with the current direction marked."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QPen
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from attention_explorer.core.maths.geometry import plane_angle_deg
from attention_explorer.core.maths.sweep import rotation_sweep
from attention_explorer.state.animation import RotationAnimator
from attention_explorer.state.explorer import ExplorerModel
from attention_explorer.ui.style.safe_text import plain_label
from attention_explorer.ui.style.theme import key_color, query_color, theme
from attention_explorer.ui.widgets.axes import cache_axes


class RotationTrace(QWidget):
    """cos θ (dashed, Q's colour) and weight (the key's colour) for every direction of the selected key."""

    hint = Signal(str)

    def __init__(self, model: ExplorerModel, animator: RotationAnimator, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("rotationTrace")
        self.model = model
        self.animator = animator
        self.plot = pg.PlotWidget(enableMenu=False)
        self.plot.setMenuEnabled(False)
        self.plot.setMouseEnabled(x=False, y=False)
        self.plot.hideButtons()
        self.plot.setXRange(0, 360, padding=0.02)
        self.plot.setYRange(-1.05, 1.05, padding=0)
        self.plot.showGrid(x=True, y=True, alpha=0.25)
        cache_axes(self.plot)
        self.plot.getAxis("bottom").setTicks([[(a, f"{a}°") for a in range(0, 361, 90)]])
        self.cos_curve = self.plot.plot([], [])
        self.weight_curve = self.plot.plot([], [])
        self.traced_weight = self.plot.plot([], [])
        self.marker = pg.InfiniteLine(angle=90, movable=False)
        self.plot.addItem(self.marker)
        self.caption = plain_label(QLabel())  # it names the turning key's label
        self.caption.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.caption)
        layout.addWidget(self.plot, 1)
        self.setMinimumHeight(160)
        self._stale = True
        model.changed.connect(self.refresh)
        model.selection_changed.connect(self.refresh)
        animator.running_changed.connect(self.refresh)
        theme().changed.connect(self.refresh)
        self.refresh()

    def refresh(self) -> None:
        """Redraw the curves from the core's sweep of the current scenario (later, if hidden)."""
        if not self.isVisible():
            self._stale = True  # a closed dock costs nothing per drag move; showEvent catches up
            return
        self._stale = False
        scenario = self.model.scenario
        index = self.model.selected_key
        sweep = rotation_sweep(scenario, index)
        colour = key_color(index)
        width = theme().line_px()
        self.cos_curve.setData(sweep.directions_deg, sweep.cosines, connect="finite")
        self.cos_curve.setPen(pg.mkPen(query_color(), width=width * 0.7, style=Qt.PenStyle.DashLine))
        faint = pg.mkColor(colour)
        faint.setAlpha(90 if self.animator.running else 255)
        self.weight_curve.setData(sweep.directions_deg, sweep.weights)
        self.weight_curve.setPen(pg.mkPen(faint, width=width * 0.7))
        direction = plane_angle_deg(scenario.keys[index])
        if self.animator.running or self.animator.turned_deg > 0:
            start = self.animator.start_direction
            done = np.linspace(start, start + self.animator.turned_deg, 121) % 360.0
            positions = np.searchsorted(sweep.directions_deg, done).clip(0, len(sweep.weights) - 1)
            # Break the line where the trace wraps from 360° back to 0°.
            traced = np.where(np.abs(np.diff(done, prepend=done[0])) > 180, np.nan, sweep.weights[positions])
            self.traced_weight.setData(done, traced, connect="finite")
        else:
            self.traced_weight.setData([], [])
        self.traced_weight.setPen(pg.mkPen(colour, width=width * 1.3))
        self.marker.setPos(direction)
        self.marker.setPen(QPen(colour, width))
        label = scenario.labels[index]
        self.caption.setText(self.tr(
            "Turning {0}: its weight (solid) and cos θ with Q (dashed) at every direction. "
            "Space plays a full turn, Esc stops."
        ).format(label))

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if self._stale:
            self.refresh()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.refresh()
        super().changeEvent(event)
