"""The benchmark's yardstick: a window with the explorer's docks and plot items, fed precomputed numbers, no model.

It shows what Qt and pyqtgraph alone cost for the same picture: the same docks at the same sizes, the same number
of arrows, bars, text items and rich-text panels, updated directly with numbers recorded from the real window.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QBrush, QColor, QPolygonF
from PySide6.QtWidgets import (
    QDockWidget,
    QGraphicsItem,
    QGraphicsPolygonItem,
    QLabel,
    QListWidget,
    QMainWindow,
    QSlider,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

OKABE_ITO = ("#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7")


@dataclass
class Frame:
    """Everything one frame of the real window showed, recorded after it was drawn."""

    query: np.ndarray  # components 0 and 1
    keys: np.ndarray  # (N, 2)
    values: np.ndarray  # (N, 2) or (N, d_v)
    weights: np.ndarray
    unscaled: np.ndarray
    output: np.ndarray
    angle_text: str
    canvas_readout: str
    steps_html: str
    stats_text: str
    output_readout: str
    cells: list[str]  # the dragged key's row in the vector table


def _colour(i: int) -> QColor:
    return QColor(OKABE_ITO[i % len(OKABE_ITO)])


def _panel(*widgets: QWidget) -> QWidget:
    panel = QWidget()
    layout = QVBoxLayout(panel)
    layout.setContentsMargins(6, 4, 6, 4)
    for widget in widgets:
        layout.addWidget(widget, 1 if isinstance(widget, pg.PlotWidget) else 0)
    return panel


def _label(rich: bool = True) -> QLabel:
    label = QLabel()
    label.setWordWrap(True)
    if rich:
        label.setTextFormat(Qt.TextFormat.RichText)
    return label


class BaselineWindow(QMainWindow):
    """Plain Qt and pyqtgraph: one arrow (line, head, handle, label) per vector, bars with value texts, points."""

    def __init__(self, n: int, dock_sizes: dict[str, tuple[int, int]], central_pages: int) -> None:
        super().__init__()
        self.n = n
        # The canvas: a plot with an arrow per vector, the unit circle, the angle arc, a rich-text readout.
        self.canvas_plot = pg.PlotWidget()
        self.canvas_plot.setAspectLocked(True)
        self.canvas_plot.showGrid(x=True, y=True, alpha=0.25)
        self.canvas_plot.disableAutoRange()
        angles = np.linspace(0, 2 * math.pi, 181)
        self.canvas_plot.addItem(pg.PlotCurveItem(np.cos(angles), np.sin(angles), pen=pg.mkPen("#999", width=2)))
        self.arrows = []
        for i in range(n + 1):
            colour = QColor("#222222") if i == 0 else _colour(i - 1)
            line = pg.PlotCurveItem([0, 0], [0, 0], pen=pg.mkPen(colour, width=4))
            head = pg.ArrowItem(angle=0, headLen=22, headWidth=9, pen=None, brush=colour)
            handle = pg.TargetItem(pos=(0, 0), size=34, movable=False)
            label = pg.TextItem("Q" if i == 0 else f"K{i}", color=colour, anchor=(0, 0.5))
            for item in (line, head, handle, label):
                self.canvas_plot.addItem(item)
            self.arrows.append((line, head, handle, label))
        self.arc = pg.PlotCurveItem(pen=pg.mkPen("#333", width=3))
        self.arc_label = pg.TextItem(anchor=(0.5, 0.5))
        self.canvas_plot.addItem(self.arc)
        self.canvas_plot.addItem(self.arc_label)
        self.canvas_readout = _label()
        canvas = _panel(self.canvas_plot, self.canvas_readout)
        tabs = QTabWidget()
        tabs.setDocumentMode(True)
        tabs.addTab(canvas, "Vectors")
        for page in range(central_pages - 1):
            tabs.addTab(QWidget(), f"Lab {page + 1}")
        self.setCentralWidget(tabs)

        # The weights: bars, the unscaled outline, a value text per bar, a rich-text line above.
        self.weights_plot = pg.PlotWidget(background="w")
        self.weights_plot.disableAutoRange()
        self.weights_plot.setRange(xRange=(-0.6, n - 0.4), yRange=(0, 1.14), padding=0)
        brushes = [QBrush(_colour(i)) for i in range(n)]
        self.bars = pg.BarGraphItem(x=np.arange(n), height=np.zeros(n), width=0.62, brushes=brushes, pen=None)
        self.overlay = pg.BarGraphItem(x=np.arange(n), height=np.zeros(n), width=0.86, brush=None,
                                       pen=pg.mkPen("#888", width=2, style=Qt.PenStyle.DashLine))
        self.weights_plot.addItem(self.bars)
        self.weights_plot.addItem(self.overlay)
        self.value_texts = []
        for _ in range(n if n <= 12 else 0):
            text = pg.TextItem(anchor=(0.5, 1.0), color="#1A1A1A")
            self.weights_plot.addItem(text)
            self.value_texts.append(text)
        self.stats_label = _label()

        # The output: the V's as points, their hull, the output as a star with its label, a readout.
        self.output_plot = pg.PlotWidget(background="w")
        self.output_plot.disableAutoRange()
        self.output_plot.setAspectLocked(True)
        self.hull = QGraphicsPolygonItem()
        self.hull.setBrush(QBrush(QColor(120, 120, 120, 28)))
        self.output_plot.addItem(self.hull)
        self.points = pg.ScatterPlotItem(size=20, brush=pg.mkBrush("#56B4E9"), pen=pg.mkPen("w", width=1.5))
        self.star = pg.ScatterPlotItem(size=26, symbol="star", brush=pg.mkBrush("#7B2D8E"), pen=pg.mkPen("w"))
        self.star_label = pg.TextItem("output", anchor=(0.5, -0.3))
        self.value_labels = []
        for i in range(n if n <= 16 else 0):
            label = pg.TextItem(f"K{i + 1}", anchor=(0, 0.5))
            self.output_plot.addItem(label)
            self.value_labels.append(label)
        for item in (self.points, self.star, self.star_label):
            self.output_plot.addItem(item)
        self.output_readout = _label()

        self.steps = QTextBrowser()
        self.steps.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
        self.table = QTableWidget(n + 1, 5)
        for row in range(n + 1):
            for column in range(5):
                self.table.setItem(row, column, QTableWidgetItem("0.000"))
        story = _label()
        story.setText("<b>A story</b><p>Text about the example.</p>")
        scale = _panel(_label(), QSlider(Qt.Orientation.Horizontal), _label(), QSlider(Qt.Orientation.Horizontal))

        self.docks: dict[str, QDockWidget] = {}
        left, right = Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea
        bottom = Qt.DockWidgetArea.BottomDockWidgetArea
        trace = pg.PlotWidget()
        for name, widget, area in (
            ("vectorEditor", self.table, left), ("presetInfo", story, left), ("historyPanel", QListWidget(), left),
            ("scaleControls", scale, left), ("stepsView", self.steps, right),
            ("weightsChart", _panel(self.stats_label, self.weights_plot, _label()), right),
            ("outputView", _panel(self.output_readout, self.output_plot, _label()), right),
            ("rotationTrace", trace, bottom),
        ):
            dock = QDockWidget(name, self)
            dock.setObjectName(f"dock_{name}")
            dock.setWidget(widget)
            self.addDockWidget(area, dock)
            self.docks[name] = dock
        self.splitDockWidget(self.docks["weightsChart"], self.docks["outputView"], Qt.Orientation.Horizontal)
        self.tabifyDockWidget(self.docks["vectorEditor"], self.docks["presetInfo"])
        self.tabifyDockWidget(self.docks["presetInfo"], self.docks["historyPanel"])
        self.docks["vectorEditor"].raise_()
        self.docks["rotationTrace"].hide()
        self._dock_sizes = dock_sizes
        # The program keeps each axis (and its grid) as a cached pixmap; the yardstick does the same, so that
        # frame_ratio keeps measuring our overhead and not a difference in how the toolkit is set up.
        for plot in (self.canvas_plot, self.weights_plot, self.output_plot, trace):
            for name in ("left", "bottom", "top", "right"):
                plot.getPlotItem().getAxis(name).setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)

    def match_layout(self) -> None:
        """Give each dock the size it has in the real window (call once shown)."""
        docks = [self.docks[name] for name in self._dock_sizes if name in self.docks]
        self.resizeDocks(docks, [self._dock_sizes[d.objectName()[5:]][0] for d in docks], Qt.Orientation.Horizontal)
        self.resizeDocks(docks, [self._dock_sizes[d.objectName()[5:]][1] for d in docks], Qt.Orientation.Vertical)

    def fit(self, frames: list[Frame]) -> None:
        """Frame every position the replay will show (as the real canvas and output view are framed)."""
        points = np.vstack([np.vstack([f.query[None, :], f.keys]) for f in frames])
        low, high = points.min(axis=0) - 0.4, points.max(axis=0) + 0.4
        self.canvas_plot.setRange(xRange=(low[0], high[0]), yRange=(low[1], high[1]), padding=0)
        values = frames[0].values
        if values.shape[1] >= 2:
            self.output_plot.setRange(xRange=(values[:, 0].min() - 0.3, values[:, 0].max() + 0.3),
                                      yRange=(values[:, 1].min() - 0.3, values[:, 1].max() + 0.3), padding=0)
            hull = QPolygonF([QPointF(float(x), float(y)) for x, y in values[:, :2]])
            self.hull.setPolygon(hull)

    def show_frame(self, frame: Frame, dragged: int) -> None:
        """Put the recorded numbers into every item, as a model-less program would."""
        tips = np.vstack([frame.query[None, :], frame.keys])
        for (line, head, handle, label), (x, y) in zip(self.arrows, tips):
            line.setData(np.array([0.0, x]), np.array([0.0, y]))
            head.setPos(x, y)
            head.setRotation(180.0 - math.degrees(math.atan2(y, x)))
            handle.setPos(x, y)
            label.setPos(x, y)
        q, k = tips[0], tips[dragged + 1]
        start, stop = math.atan2(q[1], q[0]), math.atan2(k[1], k[0])
        sweep = math.remainder(stop - start, 2 * math.pi)
        angles = start + sweep * np.linspace(0, 1, 48)
        self.arc.setData(0.5 * np.cos(angles), 0.5 * np.sin(angles))
        self.arc_label.setText(frame.angle_text)
        self.arc_label.setPos(0.7 * math.cos(start + sweep / 2), 0.7 * math.sin(start + sweep / 2))
        self.canvas_readout.setText(frame.canvas_readout)
        self.bars.setOpts(height=frame.weights)
        self.overlay.setOpts(height=frame.unscaled)
        for i, text in enumerate(self.value_texts):
            text.setText(f"{frame.weights[i]:.3f}")
            text.setPos(i, float(frame.weights[i]) + 0.01)
        self.stats_label.setText(frame.stats_text)
        values = frame.values
        if values.shape[1] >= 2:
            self.points.setData(x=values[:, 0], y=values[:, 1], size=np.round(9 + 26 * np.sqrt(frame.weights)))
            self.star.setData(x=[frame.output[0]], y=[frame.output[1]])
            self.star_label.setPos(float(frame.output[0]), float(frame.output[1]))
            for i, label in enumerate(self.value_labels):
                label.setPos(float(values[i, 0]), float(values[i, 1]))
        self.output_readout.setText(frame.output_readout)
        self.steps.setHtml(frame.steps_html)
        for column, text in enumerate(frame.cells):
            self.table.item(dragged + 1, column).setText(text)
