"""Plots the labs share: a still pyqtgraph plot with its title as a QLabel above it."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont
from PySide6.QtWidgets import QLabel, QSizePolicy, QVBoxLayout, QWidget

from attention_explorer.ui.widgets.axes import cache_axes


def still_plot(parent: QWidget, name: str, min_height: int) -> tuple[pg.PlotWidget, QLabel]:
    """A plot that a lecture click can never pan or zoom, and the rich-text label that titles it."""
    plot = pg.PlotWidget(parent, enableMenu=False)
    plot.setObjectName(name)
    # Titles are QLabels above the plot: a pyqtgraph title would force the plot wider than a narrow dock.
    title = QLabel(parent)
    title.setObjectName(f"{name}Title")
    title.setTextFormat(Qt.TextFormat.RichText)
    title.setAlignment(Qt.AlignmentFlag.AlignHCenter)
    title.setWordWrap(True)
    title.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
    plot.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
    plot.setMinimumHeight(min_height)
    item = plot.getPlotItem()
    item.setMouseEnabled(x=False, y=False)
    item.setMenuEnabled(False)
    item.hideButtons()
    item.getViewBox().disableAutoRange()
    cache_axes(item)
    return plot, title


def titled(parent: QWidget, title: QLabel, plot: pg.PlotWidget) -> QWidget:
    """The plot with its title label above it."""
    box = QWidget(parent)
    box.setProperty("figureTitled", True)  # exported with its title (ui/widgets/figures.py)
    layout = QVBoxLayout(box)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.setSpacing(0)
    layout.addWidget(title)
    layout.addWidget(plot, 1)
    return box


def style_axes(plots: tuple[pg.PlotWidget, ...], foreground: QColor, background: QColor, tick_font: QFont,
               label_style: dict[str, str]) -> None:
    """The theme's background, axis pens, tick font and label style on every plot of a lab."""
    for plot in plots:
        plot.setBackground(background)
        item = plot.getPlotItem()
        for name in ("left", "bottom"):
            axis = item.getAxis(name)
            axis.setPen(foreground)
            axis.setTextPen(foreground)
            axis.setStyle(tickFont=tick_font)
            if axis.labelText:
                axis.setLabel(axis.labelText, **label_style)
