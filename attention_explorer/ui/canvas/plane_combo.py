"""The controls floating over the canvas's plot: the plane menu, as wide as the plane it shows, and the Fit button."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import QPointF, QSize, Qt
from PySide6.QtWidgets import QComboBox, QPushButton, QStyle, QStyleOptionComboBox, QStylePainter, QWidget


class PlaneCombo(QComboBox):
    """The plane menu: as wide as the plane it shows (not its longest choice), its text elided where it must be
    narrower (it floats between the left axis and the Fit button); the open list shows every choice in full."""

    def sizeHint(self) -> QSize:
        option = QStyleOptionComboBox()
        self.initStyleOption(option)
        metrics = self.fontMetrics()
        text = QSize(metrics.horizontalAdvance(self.currentText()) + 4, metrics.height())
        return self.style().sizeFromContents(QStyle.ContentsType.CT_ComboBox, option, text, self)

    def paintEvent(self, _event) -> None:
        painter = QStylePainter(self)
        option = QStyleOptionComboBox()
        self.initStyleOption(option)
        painter.drawComplexControl(QStyle.ComplexControl.CC_ComboBox, option)
        field = self.style().subControlRect(QStyle.ComplexControl.CC_ComboBox, option,
                                            QStyle.SubControl.SC_ComboBoxEditField, self)
        option.currentText = self.fontMetrics().elidedText(option.currentText, Qt.TextElideMode.ElideRight,
                                                           field.width() - 2)
        painter.drawControl(QStyle.ControlElement.CE_ComboBoxLabel, option)


def place_floating(plot: pg.PlotWidget, view: pg.ViewBox, fit_button: QPushButton, plane_combo: QComboBox) -> None:
    """The Fit button at the plot's top right; the plane menu (when shown) left of it, right of the left axis."""
    fit_button.adjustSize()
    fit_button.move(plot.width() - fit_button.width() - 10, 10)
    fit_button.raise_()
    if not plane_combo.isHidden():
        # Between the left axis and the Fit button: over the axis it hid the top tick label ("1.5" in the
        # library example). Where that is too narrow for the plane's name, the name is elided.
        axis_right = plot.mapFromScene(view.sceneBoundingRect().topLeft()).x()
        leftmost = plot.viewport().mapTo(plot, QPointF(axis_right, 0.0)).x() + 6
        right = fit_button.x() - 8
        hint = plane_combo.sizeHint()
        width = int(min(hint.width(), max(right - leftmost, 60)))
        plane_combo.resize(width, hint.height())
        plane_combo.move(right - width, 10 + (fit_button.height() - hint.height()) // 2)
        plane_combo.raise_()


def covered_boxes(plot: pg.PlotWidget, view: pg.ViewBox,
                  widgets: tuple[QWidget, ...]) -> list[tuple[float, float, float, float]]:
    """Where the shown `widgets` float over `view`: (left, top, right, bottom) in pixels from its top left."""
    origin = view.sceneBoundingRect().topLeft()
    boxes = []
    for widget in widgets:
        if widget.isHidden():
            continue
        geometry = widget.geometry().translated(-plot.viewport().pos())
        rect = plot.mapToScene(geometry).boundingRect().translated(-origin)
        boxes.append((rect.left(), rect.top(), rect.right(), rect.bottom()))
    return boxes
