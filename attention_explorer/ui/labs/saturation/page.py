"""The saturation lab's widgets and their layout: readout, weight curves, entropy and ‖J‖ plots, the shift check."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSlider,
    QVBoxLayout,
    QWidget,
)

from attention_explorer.core.maths.saturation import LOG_FACTOR_MAX
from attention_explorer.ui.labs.saturation.axis import BREAK_X, X_RANGE, ZERO_X, axis_ticks
from attention_explorer.ui.widgets.lab_plots import still_plot, titled

SHIFT_LIMIT = 1000  # the shift slider runs over −1000 … 1000


def make_plot(lab: QWidget, name: str) -> pg.PlotWidget:
    """A still plot on the lab's log-factor x axis; its title label goes into lab.titles."""
    plot, title = still_plot(lab, name, 90)
    lab.titles[plot] = title
    item = plot.getPlotItem()
    item.showGrid(x=True, y=True, alpha=0.2)
    item.getAxis("bottom").setTicks(axis_ticks())
    item.getAxis("left").enableAutoSIPrefix(False)
    return plot


def build_page(lab: QWidget) -> QGridLayout:
    """The lab's plots, labels, buttons and slider in their layout (texts come from its retranslate); returns the
    grid that holds the shift table, whose place depends on the width."""
    # ---- top row: title/readout and the ×10 / ÷10 buttons
    lab.readout = QLabel(lab)
    lab.readout.setObjectName("saturationReadout")
    lab.readout.setTextFormat(Qt.TextFormat.RichText)
    lab.readout.setWordWrap(True)
    lab.divide_button = QPushButton(lab)
    lab.divide_button.setObjectName("divideFactorButton")
    lab.multiply_button = QPushButton(lab)
    lab.multiply_button.setObjectName("multiplyFactorButton")
    # The article's softmax examples are scores, not vectors: "2, 1, 0" typed here becomes the scores as they are.
    lab.scores_title = QLabel(lab)
    lab.scores_title.setObjectName("scoresTitle")
    lab.scores_edit = QLineEdit(lab)
    lab.scores_edit.setObjectName("scoresEdit")
    lab.scores_edit.setClearButtonEnabled(True)
    lab.scores_title.setBuddy(lab.scores_edit)
    lab.scores_edit.setMinimumWidth(lab.scores_edit.fontMetrics().horizontalAdvance("２０，１０，０，−５") + 40)
    lab.scores_weights = QLabel(lab)
    lab.scores_weights.setObjectName("scoresWeights")
    lab.scores_weights.setTextFormat(Qt.TextFormat.RichText)
    lab.scores_weights.setWordWrap(True)
    lab.legend = QLabel(lab)
    lab.legend.setObjectName("saturationLegend")
    lab.legend.setTextFormat(Qt.TextFormat.RichText)
    lab.legend.setWordWrap(True)

    # ---- plots
    lab.weights_plot = make_plot(lab, "saturationWeightsPlot")
    lab.entropy_plot = make_plot(lab, "saturationEntropyPlot")
    lab.jacobian_plot = make_plot(lab, "saturationJacobianPlot")
    lab.weights_plot.setMinimumHeight(150)
    lab.weights_view = lab.weights_plot.getPlotItem().getViewBox()
    lab.weights_view.setRange(xRange=X_RANGE, yRange=(-0.06, 1.05), padding=0.0)
    lab.weights_plot.getPlotItem().getAxis("left").setTicks(
        [[(v, f"{v:g}") for v in (0.0, 0.5, 1.0)], [(v, "") for v in (0.25, 0.75)]])

    lab.curves: list[pg.PlotDataItem] = []
    lab.current_dots = pg.ScatterPlotItem(size=12, pxMode=True)
    lab.current_dots.setZValue(20)
    lab.weights_plot.addItem(lab.current_dots)
    lab.zero_dot = pg.ScatterPlotItem(size=11, pxMode=True)
    lab.zero_dot.setZValue(15)
    lab.weights_plot.addItem(lab.zero_dot)
    lab.zero_label = pg.TextItem(anchor=(0.5, 1.2))
    lab.weights_plot.addItem(lab.zero_label)

    lab.entropy_curve = pg.PlotDataItem()
    lab.entropy_zero = pg.ScatterPlotItem(size=9, pxMode=True)
    lab.entropy_dot = pg.ScatterPlotItem(size=12, pxMode=True)
    lab.jacobian_curve = pg.PlotDataItem()
    lab.jacobian_zero = pg.ScatterPlotItem(size=9, pxMode=True)
    lab.jacobian_dot = pg.ScatterPlotItem(size=12, pxMode=True)
    for plot, items in ((lab.entropy_plot, (lab.entropy_curve, lab.entropy_zero, lab.entropy_dot)),
                        (lab.jacobian_plot, (lab.jacobian_curve, lab.jacobian_zero, lab.jacobian_dot))):
        for item in items:
            plot.addItem(item)
        items[2].setZValue(20)
        plot.getPlotItem().getViewBox().setRange(xRange=X_RANGE, yRange=(0.0, 1.0), padding=0.0)

    # The factor: one draggable line per plot, all showing (and setting) the same model factor.
    lab.factor_lines: list[pg.InfiniteLine] = []
    lab.break_lines: list[pg.InfiniteLine] = []
    for plot in (lab.weights_plot, lab.entropy_plot, lab.jacobian_plot):
        line = pg.InfiniteLine(angle=90, movable=True, bounds=(ZERO_X, LOG_FACTOR_MAX))
        line.setZValue(30)
        plot.addItem(line)
        lab.factor_lines.append(line)
        gap = pg.InfiniteLine(pos=BREAK_X, angle=90, movable=False)
        plot.addItem(gap)
        lab.break_lines.append(gap)
    lab.factor_line = lab.factor_lines[0]

    lab.caption = QLabel(lab)
    lab.caption.setObjectName("saturationCaption")
    lab.caption.setTextFormat(Qt.TextFormat.RichText)
    lab.caption.setWordWrap(True)

    # ---- shift invariance
    lab.shift_title = QLabel(lab)
    lab.shift_title.setObjectName("shiftTitle")
    lab.shift_slider = QSlider(Qt.Orientation.Horizontal, lab)
    lab.shift_slider.setObjectName("shiftSlider")
    lab.shift_slider.setRange(-SHIFT_LIMIT, SHIFT_LIMIT)
    lab.shift_slider.setSingleStep(10)
    lab.shift_slider.setPageStep(100)
    lab.shift_value = QLabel(lab)
    lab.shift_value.setObjectName("shiftValue")
    lab.shift_zero_button = QPushButton(lab)
    lab.shift_zero_button.setObjectName("shiftZeroButton")
    lab.shift_far_button = QPushButton(lab)
    lab.shift_far_button.setObjectName("shiftFarButton")
    lab.shift_note = QLabel(lab)
    lab.shift_note.setObjectName("shiftNote")
    lab.shift_note.setTextFormat(Qt.TextFormat.RichText)
    lab.shift_note.setWordWrap(True)
    lab.shift_table = QLabel(lab)
    lab.shift_table.setObjectName("shiftTable")
    lab.shift_table.setTextFormat(Qt.TextFormat.RichText)
    lab.shift_table.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
    lab.naive_status = QLabel(lab)
    lab.naive_status.setObjectName("naiveStatus")
    lab.naive_status.setTextFormat(Qt.TextFormat.RichText)
    lab.naive_status.setWordWrap(True)
    lab.message_label = QLabel(lab)
    lab.message_label.setObjectName("saturationMessage")
    lab.message_label.setWordWrap(True)
    lab.message_label.hide()


    top = QHBoxLayout()
    top.setSpacing(8)
    top.addWidget(lab.readout, 1)
    top.addWidget(lab.divide_button)
    top.addWidget(lab.multiply_button)
    scores_row = QHBoxLayout()
    scores_row.setSpacing(8)
    scores_row.addWidget(lab.scores_title)
    scores_row.addWidget(lab.scores_edit)
    scores_row.addWidget(lab.scores_weights, 1)

    side = QVBoxLayout()
    side.setSpacing(2)
    side.addWidget(titled(lab, lab.titles[lab.entropy_plot], lab.entropy_plot), 1)
    side.addWidget(titled(lab, lab.titles[lab.jacobian_plot], lab.jacobian_plot), 1)
    plots = QHBoxLayout()
    plots.setSpacing(6)
    main = QVBoxLayout()
    main.setSpacing(0)
    main.addWidget(lab.legend)
    main.addWidget(lab.weights_plot, 1)
    plots.addLayout(main, 3)
    plots.addLayout(side, 2)

    separator = QFrame(lab)
    separator.setFrameShape(QFrame.Shape.HLine)
    separator.setFrameShadow(QFrame.Shadow.Sunken)

    shift_row = QHBoxLayout()
    shift_row.setSpacing(8)
    shift_row.addWidget(lab.shift_title)
    shift_row.addWidget(lab.shift_slider, 1)
    shift_row.addWidget(lab.shift_value)
    shift_row.addWidget(lab.shift_zero_button)
    shift_row.addWidget(lab.shift_far_button)
    # Wide: the table, and beside it the naive method's status over the note. Narrow: status under the table.
    shift = QGridLayout()
    shift.setHorizontalSpacing(16)
    shift.setVerticalSpacing(4)

    layout = QVBoxLayout(lab)
    layout.setContentsMargins(8, 6, 8, 6)
    layout.setSpacing(4)
    layout.addLayout(top)
    layout.addLayout(scores_row)
    layout.addLayout(plots, 1)
    layout.addWidget(lab.caption)
    layout.addWidget(lab.message_label)
    layout.addWidget(separator)
    layout.addLayout(shift_row)
    layout.addLayout(shift)
    return shift
