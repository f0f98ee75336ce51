"""Covers a presenter puts over the whole window: a note (the end of a lecture, the list of keys) and a spotlight.

Both follow the window's size; a note is opaque and reads in every theme (palette roles, not colours), the spotlight
dims everything but a soft circle around the mouse pointer.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QPoint, QPointF, QRectF, Qt, QTimer
from PySide6.QtGui import QColor, QCursor, QFont, QPainter, QPainterPath, QPalette, QRadialGradient
from PySide6.QtWidgets import QGridLayout, QLabel, QVBoxLayout, QWidget

from attention_explorer.ui.style.safe_text import plain_label
from attention_explorer.ui.style.theme import theme

SPOTLIGHT_RADIUS_PT = 6.0  # the bright circle's radius, in multiples of the theme's font size (zoom follows)
SPOTLIGHT_CLEAR = 0.75  # of the radius: fully bright inside, a soft edge from there to the radius
SPOTLIGHT_DIM = 170  # alpha (of 255) of the black laid over the rest of the window
SPOTLIGHT_FOLLOW_MS = 16  # how often the circle looks where the pointer is (no widget tracks every move)


class _WindowCover(QWidget):
    """A child of the window over all of it, following its size."""

    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        window.installEventFilter(self)
        self.hide()

    def cover(self) -> None:
        """Over the whole window, on top."""
        self.setGeometry(self.parentWidget().rect())
        self.show()
        self.raise_()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.parentWidget() and event.type() == QEvent.Type.Resize:
            self.setGeometry(self.parentWidget().rect())
        return False


class CoverNote(_WindowCover):
    """A large title and lines under it, or a two-column list (key, what it does), centred over the window."""

    def __init__(self, window: QWidget, name: str) -> None:
        super().__init__(window)
        self.setObjectName(name)
        self.setAutoFillBackground(True)
        self.setBackgroundRole(QPalette.ColorRole.Window)
        self.title_label = plain_label(QLabel(self))
        self.title_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.lines_label = plain_label(QLabel(self))
        self.lines_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.lines_label.setWordWrap(True)
        self.table = QWidget(self)
        self.table_layout = QGridLayout(self.table)
        self.table_layout.setHorizontalSpacing(24)
        self.rows: list[tuple[QLabel, QLabel]] = []
        layout = QVBoxLayout(self)
        layout.addStretch(1)
        layout.addWidget(self.title_label)
        layout.addSpacing(12)
        layout.addWidget(self.table, 0, Qt.AlignmentFlag.AlignHCenter)
        layout.addWidget(self.lines_label)
        layout.addStretch(1)
        theme().changed.connect(self._apply_theme)
        self._apply_theme()

    def _apply_theme(self) -> None:
        size = theme().font_pt()
        title = QFont(self.font())
        title.setPointSizeF(size * 2.4)
        title.setBold(True)
        self.title_label.setFont(title)
        body = QFont(self.font())
        body.setPointSizeF(size * 1.3)
        self.lines_label.setFont(body)
        bold = QFont(body)
        bold.setBold(True)
        for key, meaning in self.rows:
            key.setFont(bold)
            meaning.setFont(body)

    def set_texts(self, title: str, lines: str = "", rows: tuple[tuple[str, str], ...] = ()) -> None:
        """The title, the line(s) under it, and the (key, meaning) rows of the list."""
        self.title_label.setText(title)
        self.lines_label.setText(lines)
        self.lines_label.setVisible(bool(lines))
        while len(self.rows) < len(rows):
            key, meaning = plain_label(QLabel(self.table)), plain_label(QLabel(self.table))
            key.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            self.table_layout.addWidget(key, len(self.rows), 0)
            self.table_layout.addWidget(meaning, len(self.rows), 1)
            self.rows.append((key, meaning))
        for index, (key, meaning) in enumerate(self.rows):
            shown = index < len(rows)
            key.setVisible(shown)
            meaning.setVisible(shown)
            if shown:
                key.setText(rows[index][0])
                meaning.setText(rows[index][1])
        self.table.setVisible(bool(rows))
        self._apply_theme()

    def visible_texts(self) -> list[str]:
        """Every text shown, title first (what the hall reads)."""
        labels = [self.title_label, *(label for row in self.rows for label in row), self.lines_label]
        return [label.text() for label in labels if label.isVisible() and label.text()]


class Spotlight(_WindowCover):
    """Held key: the window dimmed but for a soft bright circle that follows the mouse pointer."""

    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        self.setObjectName("spotlight")
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)  # the lecturer can still click through
        self.centre = QPoint()
        self._timer = QTimer(self)
        self._timer.setInterval(SPOTLIGHT_FOLLOW_MS)
        self._timer.timeout.connect(self.follow_pointer)

    @property
    def radius(self) -> float:
        """The circle's radius in pixels: larger with the theme's zoom."""
        return SPOTLIGHT_RADIUS_PT * theme().font_pt() * 96.0 / 72.0

    def switch_on(self) -> None:
        """Cover the window and light the pointer's place."""
        self.follow_pointer()
        self.cover()
        self._timer.start()

    def switch_off(self) -> None:
        """Gone: the window as it was."""
        self._timer.stop()
        self.hide()

    def follow_pointer(self) -> None:
        """Move the circle to where the pointer is now."""
        centre = self.parentWidget().mapFromGlobal(QCursor.pos())
        if centre != self.centre:
            self.centre = centre
            self.update()

    def paintEvent(self, _event) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(Qt.PenStyle.NoPen)
        centre, radius = QPointF(self.centre), self.radius
        clear = radius * SPOTLIGHT_CLEAR
        dim = QColor(0, 0, 0, SPOTLIGHT_DIM)
        outside = QPainterPath()
        outside.addRect(QRectF(self.rect()))
        disc = QPainterPath()
        disc.addEllipse(centre, radius, radius)
        painter.fillPath(outside.subtracted(disc), dim)
        # The soft edge: a ring from the clear disc to the dimmed rest, darker outwards.
        inner = QPainterPath()
        inner.addEllipse(centre, clear, clear)
        gradient = QRadialGradient(centre, radius)
        gradient.setColorAt(SPOTLIGHT_CLEAR, QColor(0, 0, 0, 0))
        gradient.setColorAt(1.0, dim)
        painter.fillPath(disc.subtracted(inner), gradient)
        painter.end()
