"""A one-line label that draws "…" where its text does not fit, with the whole text in its tooltip.

A wrapping label in a tool bar asks for a height for each width the bar tries, and the bar's layout answers with a
new width: the two went on forever (the lecture's place line at the window's bottom edge hung a zoomed window).
This label never wraps and never asks for more width than "…" needs; text() stays the whole text.
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QPainter, QPalette
from PySide6.QtWidgets import QLabel

from attention_explorer.ui.style.safe_text import literal


class ElidedLabel(QLabel):
    """A plain-text label on one line, elided on the right when it is narrower than its text."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setWordWrap(False)

    def minimumSizeHint(self) -> QSize:
        hint = super().minimumSizeHint()
        return QSize(min(hint.width(), self.fontMetrics().horizontalAdvance("…") * 3), hint.height())

    def shown_text(self) -> str:
        """What is drawn: the text, or its start and "…" when it does not fit."""
        width = self.contentsRect().width() - 2 * self.margin()
        return self.fontMetrics().elidedText(self.text(), Qt.TextElideMode.ElideRight, max(width, 0))

    def setText(self, text: str) -> None:
        super().setText(text)
        self._update_tooltip()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._update_tooltip()

    def _update_tooltip(self) -> None:
        # a tooltip guesses rich text: the text (from a lecture file, say) is shown as itself
        self.setToolTip(literal(self.text()) if self.shown_text() != self.text() else "")

    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        rect = self.contentsRect().adjusted(self.margin(), self.margin(), -self.margin(), -self.margin())
        self.style().drawItemText(painter, rect, int(self.alignment()), self.palette(), self.isEnabled(),
                                  self.shown_text(), QPalette.ColorRole.WindowText)
