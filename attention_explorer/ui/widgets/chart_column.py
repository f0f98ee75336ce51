"""A chart panel's column: a live readout over a still plot over a caption (the weights chart, the output view)."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QSizePolicy, QVBoxLayout, QWidget

from attention_explorer.ui.widgets.live_label import LiveLabelHost


def chart_column(owner: QWidget, readout: QLabel, name: str,
                 axis_items: dict | None = None) -> tuple[pg.PlotWidget, QLabel, pg.PlotItem]:
    """Lay out `readout`, a plot `{name}Plot` and a caption `{name}Caption` in `owner`; the plot never pans or zooms
    (a lecture click must not move it; the view follows the data). Returns the plot, the caption and its PlotItem."""
    readout.setTextFormat(Qt.TextFormat.RichText)
    readout.setWordWrap(True)
    plot = pg.PlotWidget(owner, background="w", axisItems=axis_items, enableMenu=False)
    plot.setObjectName(f"{name}Plot")
    plot.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
    plot.setMinimumHeight(90)
    caption = QLabel(owner)
    caption.setObjectName(f"{name}Caption")
    caption.setTextFormat(Qt.TextFormat.RichText)
    caption.setWordWrap(True)
    layout = QVBoxLayout(owner)
    layout.setContentsMargins(6, 4, 6, 4)
    layout.setSpacing(4)
    layout.addWidget(LiveLabelHost(readout, owner))  # its numbers change on every drag move
    layout.addWidget(plot, 1)
    layout.addWidget(caption)
    item = plot.getPlotItem()
    item.setMouseEnabled(x=False, y=False)
    item.setMenuEnabled(False)
    item.hideButtons()
    return plot, caption, item
