"""A holder for a label whose text changes on every drag move, without re-laying out the whole window each time."""

from __future__ import annotations

import re

from PySide6.QtCore import QEvent, QSize
from PySide6.QtWidgets import QLabel, QWidget

_DIGITS = re.compile(r"[0-9]")
_REMEMBERED_SHAPES = 16


class LiveLabelHost(QWidget):
    """Holds one QLabel and passes its size on to the panel's layout only when the label needs another size.

    A QLabel calls updateGeometry() on every setText(); inside a layout that invalidates the panel's layout,
    then its dock's, then the main window's, and Qt lays out every dock again (measured: 1.5 ms per drag move
    with three live readouts). Here the label has no layout above it: its geometry request arrives as a
    LayoutRequest event, and this host forwards it only when the label no longer fits (another line, a longer
    word), so a number that merely changes its digits costs a repaint and nothing more. Asking the label for
    its size lays its text out (about 0.7 ms for a wrapped rich-text readout), so a text that differs from
    a text checked before except in its digits is taken to fit as that one did: interface fonts draw all ten
    digits at the same width (tabular figures). A drag swings a readout between a few shapes (a minus sign,
    one more digit), so the last few that fit are remembered, until the host's size changes.
    Show or hide the host, not the label.
    """

    def __init__(self, label: QLabel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.label = label
        label.setParent(self)
        # Opaque (it fills the host with the window colour the panel has anyway): a transparent label makes Qt
        # repaint the host, the panel and the dock under it on every change, ~0.5 ms a readout per drag move.
        label.setAutoFillBackground(True)
        self.setSizePolicy(label.sizePolicy())
        self._announced = QSize(-1, -1)  # the label's size hint when the layout last asked
        # (text with digits as 0, font, width, height, announced width) known to fit, newest last
        self._fitting: dict[tuple, None] = {}

    def sizeHint(self) -> QSize:
        hint = self.label.sizeHint()
        self._announced = hint
        return hint

    def minimumSizeHint(self) -> QSize:
        return self.label.minimumSizeHint()

    def hasHeightForWidth(self) -> bool:
        return self.label.hasHeightForWidth()

    def heightForWidth(self, width: int) -> int:
        return self.label.heightForWidth(width)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self.label.setGeometry(self.rect())
        self._fitting.clear()

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.LayoutRequest:
            if self._needs_new_size():
                self.updateGeometry()
            return True
        return super().event(event)

    def _needs_new_size(self) -> bool:
        """True when the label's text no longer fits the space the layout gave it."""
        label = self.label
        shape = (_DIGITS.sub("0", label.text()), label.font().key(), self.width(), self.height(),
                 self._announced.width())
        if shape in self._fitting:
            return False
        if label.minimumSizeHint().width() > self.width():
            needs = True
        elif label.hasHeightForWidth():
            needs = label.heightForWidth(self.width()) != self.height()
        else:
            hint = label.sizeHint()
            needs = hint.height() != self.height() or hint.width() != self._announced.width()
        if needs:
            self._fitting.clear()
        else:
            self._fitting[shape] = None
            if len(self._fitting) > _REMEMBERED_SHAPES:
                del self._fitting[next(iter(self._fitting))]
        return needs
