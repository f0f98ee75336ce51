"""The step-through banner ("Step 2 of 4 — Scaling · → next, …") and the black screen a clicker's B key shows."""

from __future__ import annotations

import re

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QEvent, QObject, Qt
from PySide6.QtGui import QFont, QPalette
from PySide6.QtWidgets import QLabel, QWidget

from attention_explorer.state.explorer import ExplorerModel
from attention_explorer.ui.style.theme import theme

# The four steps' names, as the steps panel's headings call them.
STEP_NAMES = (
    QT_TRANSLATE_NOOP("StepBanner", "Dot products"),
    QT_TRANSLATE_NOOP("StepBanner", "Scaling"),
    QT_TRANSLATE_NOOP("StepBanner", "Softmax"),
    QT_TRANSLATE_NOOP("StepBanner", "Weighted sum"),
)


def _after_commas(chunk: str) -> list[str]:
    """A part of the banner split after its commas (the comma stays with the words before it)."""
    pieces = [piece for piece in re.split(r"(?<=[，,])\s*", chunk) if piece]
    return pieces or [chunk]


def _joint(line: str) -> str:
    """What goes between a line and the next part on the same line."""
    return "" if line.endswith("，") else (" " if line.endswith(",") else " · ")


class StepBanner(QLabel):
    """Shown only in step-through: which step is revealed and which keys move on, back and out."""

    def __init__(self, model: ExplorerModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("stepBanner")
        self.model = model
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.setWordWrap(True)
        self.setAutoFillBackground(True)
        self.setContentsMargins(8, 4, 8, 4)
        model.steps_changed.connect(self.refresh)
        theme().changed.connect(self.refresh)
        self.refresh()

    def refresh(self) -> None:
        """The banner's text, colours and size from the model and the theme; hidden outside step-through."""
        palette = self.palette()
        # The selection colours: every theme gives its highlighted text enough contrast on them.
        palette.setColor(QPalette.ColorRole.Window, palette.color(QPalette.ColorRole.Highlight))
        palette.setColor(QPalette.ColorRole.WindowText, palette.color(QPalette.ColorRole.HighlightedText))
        self.setPalette(palette)
        font = QFont(self.font())
        font.setPointSizeF(theme().font_pt() * 1.15)
        font.setBold(True)
        self.setFont(font)
        step = self.model.revealed_steps
        name = QCoreApplication.translate("StepBanner", STEP_NAMES[step - 1])
        self._full_text = self.tr("Step {0} of {1} — {2} · → next, ← back, Esc leaves step-through").format(
            step, self.model.STEP_COUNT, name)
        self._wrap()
        self.setVisible(self.model.step_through)

    def _wrap(self) -> None:
        """The text on one line, or broken only between its parts (at " · ", then after a comma): Chinese may break
        between any two characters, and left to itself a narrow banner put the last one, 示, alone on a line."""
        text = getattr(self, "_full_text", "")
        room = self.contentsRect().width() - 2 * self.margin() - 4
        metrics = self.fontMetrics()
        if room <= 0 or metrics.horizontalAdvance(text) <= room:
            self.setText(text)
            return
        parts = [part for chunk in text.split(" · ") for part in _after_commas(chunk)]
        lines: list[str] = []
        for part in parts:
            joined = f"{lines[-1]}{_joint(lines[-1])}{part}" if lines else part
            if lines and metrics.horizontalAdvance(joined) <= room:
                lines[-1] = joined
            else:
                lines.append(part)
        self.setText("\n".join(lines))

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._wrap()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.refresh()
        super().changeEvent(event)


class BlankScreen(QWidget):
    """A black cover over the whole window (a clicker's B, as in slide shows); any key or click takes it away."""

    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        self.setObjectName("blankScreen")
        self.setAutoFillBackground(True)
        palette = self.palette()
        palette.setColor(QPalette.ColorRole.Window, Qt.GlobalColor.black)
        self.setPalette(palette)
        window.installEventFilter(self)
        self.hide()

    def toggle(self) -> None:
        """Cover the window, or show it again."""
        if self.isVisible():
            self.hide()
            return
        self.setGeometry(self.parentWidget().rect())
        self.show()
        self.raise_()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.parentWidget() and event.type() == QEvent.Type.Resize:
            self.setGeometry(self.parentWidget().rect())  # a window made full screen stays covered
        return False

    def mousePressEvent(self, event) -> None:
        self.hide()
