"""The QApplication set-up: names (for QSettings), icon, a projector-friendly font, pyqtgraph, language and palette."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import QSettings
from PySide6.QtGui import QColor, QFont, QIcon, QPalette
from PySide6.QtWidgets import QApplication

from attention_explorer.core.presets import resources_dir
from attention_explorer.ui.i18n.switcher import LANGUAGES, language_switcher, system_language
from attention_explorer.ui.style.theme import theme


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
    app.setFont(font)


def palette_for(mode: str) -> QPalette:
    """The widgets' palette for a theme mode: the style's own in light, ours in dark and high contrast."""
    palette = QPalette()
    if mode == "light":
        return QApplication.style().standardPalette()
    window, base, text, highlight = {
        "dark": ("#2B2D31", "#1E1F22", "#E6E6E6", "#3D6FB6"),
        "contrast": ("#000000", "#000000", "#FFFFFF", "#FFD400"),
    }[mode]
    for role, colour in (
        (QPalette.ColorRole.Window, window), (QPalette.ColorRole.Base, base),
        (QPalette.ColorRole.AlternateBase, window), (QPalette.ColorRole.Button, window),
        (QPalette.ColorRole.WindowText, text), (QPalette.ColorRole.Text, text),
        (QPalette.ColorRole.ButtonText, text), (QPalette.ColorRole.ToolTipBase, base),
        (QPalette.ColorRole.ToolTipText, text), (QPalette.ColorRole.Highlight, highlight),
        (QPalette.ColorRole.HighlightedText, "#000000" if mode == "contrast" else "#FFFFFF"),
        (QPalette.ColorRole.PlaceholderText, "#9A9A9A"),
    ):
        palette.setColor(role, QColor(colour))
    return palette


def apply_style(app: QApplication) -> None:
    """The current theme's palette and font on the whole application."""
    app.setPalette(palette_for(theme().mode))
    apply_font(app)
