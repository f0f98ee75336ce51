"""The theme applied to every plot of the window: background, axes, a colour bar's own axis, tick fonts.

A mixin of the main window (ui/window/main_window.py); the window calls it when the theme changes and when it
builds a page.
"""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QApplication

from attention_explorer.ui.application import apply_style
from attention_explorer.ui.style.theme import theme


class WindowTheme:
    """Every plot of the window in the current theme's colours and text size."""

    def _apply_theme(self) -> None:
        current = theme()
        app = QApplication.instance()
        apply_style(app)
        for plot in self.findChildren(pg.PlotWidget):
            plot.setBackground(current.background())
            for axis_name in ("left", "bottom", "right", "top"):
                axis = plot.getPlotItem().getAxis(axis_name)
                axis.setPen(current.foreground())
                axis.setTextPen(current.foreground())
                font = QFont(app.font())
                font.setPointSizeF(current.font_pt() * 0.9)
                axis.setStyle(tickFont=font)
            for item in plot.scene().items():
                if isinstance(item, pg.ColorBarItem):  # a heatmap's colour scale: its numbers were dark on black
                    item.axis.setPen(current.foreground())
                    item.axis.setTextPen(current.foreground())
        self.actions_by_name[f"theme_{current.mode}"].setChecked(True)
        self._save_theme()
