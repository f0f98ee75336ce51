"""Tick marks and their numbers drawn under chosen positions of a horizontal slider."""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QSize
from PySide6.QtGui import QPainter, QPalette
from PySide6.QtWidgets import QSlider, QStyle, QStyleOptionSlider, QWidget


class SliderTicks(QWidget):
    """Tick marks and their numbers drawn exactly under chosen positions of a horizontal slider."""

    def __init__(self, slider: QSlider, ticks: list[tuple[int, str]], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._slider = slider
        self._ticks = ticks
        # (geometry it was measured for, tick xs, shown labels): a window repaint draws this widget every frame
        # and the style's sub-control rectangles cost ~1 ms for eight ticks; they change only with the geometry.
        self._measured: tuple[tuple, list[float], list[tuple[float, str]]] | None = None

    def sizeHint(self) -> QSize:
        return QSize(100, self.fontMetrics().height() + 8)

    def minimumSizeHint(self) -> QSize:
        return self.sizeHint()

    def tick_x(self, position: int) -> float:
        """x (in this widget) of the slider handle's centre at `position`."""
        option = QStyleOptionSlider()
        self._slider.initStyleOption(option)
        style = self._slider.style()
        groove = style.subControlRect(
            QStyle.ComplexControl.CC_Slider, option, QStyle.SubControl.SC_SliderGroove, self._slider
        )
        handle = style.subControlRect(
            QStyle.ComplexControl.CC_Slider, option, QStyle.SubControl.SC_SliderHandle, self._slider
        )
        span = groove.width() - handle.width()
        offset = QStyle.sliderPositionFromValue(self._slider.minimum(), self._slider.maximum(), position, span)
        x_in_slider = groove.x() + offset + handle.width() / 2
        return self.mapFromGlobal(self._slider.mapToGlobal(QPointF(x_in_slider, 0))).x()

    def shown_labels(self) -> list[tuple[float, str]]:
        """(left x, text) of every label drawn at the current width: inner ones that would collide are left out."""
        metrics = self.fontMetrics()
        gap = metrics.horizontalAdvance(" ")

        def label_left(position: int, text: str) -> float:
            """Where a label starts: centred under its tick, but kept inside the widget."""
            width = metrics.horizontalAdvance(text)
            return min(max(self.tick_x(position) - width / 2, 0), self.width() - width)

        last = len(self._ticks) - 1
        last_left = label_left(*self._ticks[last])
        shown: list[tuple[float, str]] = []
        taken_until = -math.inf
        for number, (position, text) in enumerate(self._ticks):
            left, width = label_left(position, text), metrics.horizontalAdvance(text)
            # In a narrow dock labels would run into each other ("2564096"): skip an inner one that would.
            # The last label (the range's end) is always drawn, where it really is (pushed in from the edge).
            if number < last and (left < taken_until + gap or left + width + gap > last_left):
                continue
            shown.append((left, text))
            taken_until = left + width
        return shown

    def _measure(self) -> tuple[list[float], list[tuple[float, str]]]:
        """The tick xs and the shown labels, measured again only when the slider, this widget or the font moved."""
        slider = self._slider
        offset = self.mapFromGlobal(slider.mapToGlobal(QPointF(0.0, 0.0)))
        key = (offset.x(), self.width(), slider.width(), slider.minimum(), slider.maximum(), self.font().key(),
               slider.font().key(), id(slider.style()), slider.orientation())
        if self._measured is None or self._measured[0] != key:
            self._measured = (key, [self.tick_x(position) for position, _text in self._ticks], self.shown_labels())
        return self._measured[1], self._measured[2]

    def paintEvent(self, event) -> None:
        xs, labels = self._measure()
        painter = QPainter(self)
        painter.setPen(self.palette().color(QPalette.ColorRole.WindowText))
        for x in xs:
            painter.drawLine(QPointF(x, 0), QPointF(x, 4))
        ascent = self.fontMetrics().ascent()
        for left, text in labels:
            painter.drawText(QPointF(left, 5 + ascent), text)
        painter.end()
