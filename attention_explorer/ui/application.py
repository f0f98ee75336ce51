"""The QApplication set-up: names (for QSettings), icon, a projector-friendly font, pyqtgraph, language and palette."""

from __future__ import annotations

from collections.abc import Callable

import pyqtgraph as pg
from PySide6.QtCore import QEvent, QObject, QSettings, QTimer
from PySide6.QtGui import QFont, QIcon
from PySide6.QtWidgets import QApplication, QWidget

from attention_explorer.core.files.presets import resources_dir
from attention_explorer.ui.i18n.switcher import LANGUAGES, language_switcher, system_language
from attention_explorer.ui.style.theme import apply_widget_colours, theme


def application_icon() -> QIcon:
    """The application's icon: a query arrow and two key arrows from one origin."""
    return QIcon(str(resources_dir() / "icons" / "attention-explorer.svg"))


def configure_application(app: QApplication, language: str | None = None) -> None:
    """Application-wide settings: names (for QSettings), icon, a projector-friendly font, pyqtgraph, language."""
    app.setApplicationName("Attention Explorer")
    app.setOrganizationName("Attention Explorer")
    app.setOrganizationDomain("attention-explorer.dev")
    app.setWindowIcon(application_icon())
    pg.setConfigOptions(antialias=True, background="w", foreground="#202020")
    apply_font(app)
    if language is None:
        stored = QSettings().value("language")
        language = stored if stored in LANGUAGES else system_language()
    language_switcher().set_language(language)


def apply_font(app: QApplication) -> None:
    """The application font at the theme's (zoomed) size."""
    font = QFont(app.font())
    font.setPointSizeF(theme().font_pt())
    if font != app.font():  # setting even the same font sends every widget a FontChange (~8 ms for the window)
        app.setFont(font)



def apply_style(app: QApplication) -> None:
    """The current theme's palette, style sheet and font on the whole application."""
    apply_widget_colours(app, theme().mode)
    apply_font(app)


class _FirstPaint(QObject):
    """Calls back once, right after the first paint of the widget it watches, and goes."""

    def __init__(self, widget: QWidget, callback: Callable[[], None]) -> None:
        super().__init__(widget)
        self._callback = callback
        widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint:
            watched.removeEventFilter(self)
            # Its children paint in the same pass, after it: the call waits for the event loop.
            QTimer.singleShot(0, self._callback)
            self.deleteLater()
        return False


def after_first_paint(widget: QWidget, callback: Callable[[], None]) -> None:
    """Call `callback` once `widget` (and so its children) has been painted for the first time."""
    _FirstPaint(widget, callback)
