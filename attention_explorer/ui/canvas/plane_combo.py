"""The canvas's plane menu, as wide as the plane it shows."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import QComboBox, QStyle, QStyleOptionComboBox, QStylePainter


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
