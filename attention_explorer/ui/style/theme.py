"""One palette and one size scale for every panel, so a key has the same colour everywhere."""

from __future__ import annotations

from functools import lru_cache
from typing import ClassVar

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication

from attention_explorer.core.files.presets import resources_dir

# Okabe–Ito: distinguishable with the common colour-vision deficiencies, and on a washed-out projector.
KEY_HEX = ("#E69F00", "#56B4E9", "#009E73", "#D55E00", "#0072B2", "#CC79A7", "#F0E442")
QUERY_HEX = "#222222"
OUTPUT_HEX = "#7B2D8E"
UNSCALED_HEX = "#9A9A9A"
# The labs' tints of the hovered query row (Q, and its band in the heatmaps) and key row (K), with dark text on
# them in every theme.
QUERY_ROW_HEX = "#FFE08A"
KEY_ROW_HEX = "#BFE0F5"
ROW_TEXT_HEX = "#000000"


# A refusal (a typed "abc", a bad file) in its own colour, the same in every panel and lab.
# The labs' heatmaps: scores diverge from 0 (negative blue, 0 white, positive red); weights run 0 white to 1 dark blue.
SCORE_MAP_HEX = ("#2166AC", "#F7F7F7", "#B2182B")
WEIGHT_MAP_HEX = ("#FFFFFF", "#6BAED6", "#08306B")
ERROR_HEX = "#B03A2E"
ERROR_ON_DARK_HEX = "#FF8A65"


def key_color(index: int) -> QColor:
    """The colour of key (and value) `index`, the same in every panel."""
    return QColor(KEY_HEX[index % len(KEY_HEX)])


def key_hex(index: int) -> str:
    """`key_color` as #RRGGBB, for rich text."""
    return KEY_HEX[index % len(KEY_HEX)]


def query_color() -> QColor:
    """The colour of Q: near-black on light backgrounds, near-white on dark ones."""
    return QColor(QUERY_HEX if theme().mode == "light" else "#F2F2F2")


def output_color() -> QColor:
    """The colour of the attention output."""
    return QColor(OUTPUT_HEX)


class Theme(QObject):
    """Presentation zoom shared by every panel: sizes are multiplied by `zoom`; `changed` on change."""

    changed = Signal()

    BASE_FONT_PT = 12.0  # readable at 1280×720; presentation zoom multiplies it
    BASE_NUMBER_PT = 15.0  # readouts people read from the back row
    BASE_LINE_PX = 3.0
    BASE_ARROW_PX = 22.0
    MIN_ZOOM = 0.6
    # The most a 1280×720 projector's window composes (presentation, either language): at 3× the d_k strip alone
    # asked for 1 330 px of width.
    MAX_ZOOM = 2.5

    MODES = ("light", "dark", "contrast")
    # background, foreground (text and axes), faint (grids, unit circle)
    _COLOURS: ClassVar[dict[str, tuple[str, str, str]]] = {
        "light": ("#FFFFFF", "#202020", "#C8C8C8"),
        "dark": ("#1E1F22", "#E6E6E6", "#4A4C52"),
        "contrast": ("#000000", "#FFFFFF", "#808080"),
    }

    def __init__(self) -> None:
        super().__init__()
        self._zoom = 1.0
        self._mode = "light"

    @property
    def mode(self) -> str:
        """light, dark or contrast (high contrast for projectors)."""
        return self._mode

    def error_hex(self) -> str:
        """The colour of a refusal's text: dark red on the light theme, a light orange that reads on dark ones."""
        return ERROR_HEX if self._mode == "light" else ERROR_ON_DARK_HEX

    def set_mode(self, mode: str) -> None:
        """Switch the colour theme."""
        if mode not in self.MODES:
            raise ValueError(f"unknown theme {mode!r}")
        if mode != self._mode:
            self._mode = mode
            self.changed.emit()

    def background(self) -> QColor:
        """Plot and panel background."""
        return QColor(self._COLOURS[self._mode][0])

    def foreground(self) -> QColor:
        """Text and axis colour."""
        return QColor(self._COLOURS[self._mode][1])

    def faint(self) -> QColor:
        """Grid lines and guides."""
        return QColor(self._COLOURS[self._mode][2])

    @property
    def zoom(self) -> float:
        """Current presentation zoom (1.0 = normal)."""
        return self._zoom

    def set_zoom(self, zoom: float) -> None:
        """Set the zoom, clamped to MIN_ZOOM–MAX_ZOOM."""
        zoom = min(self.MAX_ZOOM, max(self.MIN_ZOOM, float(zoom)))
        if abs(zoom - self._zoom) > 1e-9:
            self._zoom = zoom
            self.changed.emit()

    def font_pt(self) -> float:
        """Point size of ordinary text."""
        return self.BASE_FONT_PT * self._zoom

    def number_pt(self) -> float:
        """Point size of prominent numbers (readouts)."""
        return self.BASE_NUMBER_PT * self._zoom

    def line_px(self) -> float:
        """Width of vector lines and outlines (thicker in high contrast)."""
        return self.BASE_LINE_PX * self._zoom * (1.4 if self._mode == "contrast" else 1.0)

    def arrow_px(self) -> float:
        """Size of arrow heads."""
        return self.BASE_ARROW_PX * self._zoom


_theme: Theme | None = None


def theme() -> Theme:
    """The application's one Theme (created on first use, after the QApplication)."""
    global _theme
    if _theme is None:
        _theme = Theme()
    return _theme


# ---------------------------------------------------------------- readable colours (WCAG 2)


def relative_luminance(colour: QColor) -> float:
    """WCAG 2 relative luminance: 0 for black, 1 for white."""

    def linear(channel: int) -> float:
        value = channel / 255.0
        return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4

    return 0.2126 * linear(colour.red()) + 0.7152 * linear(colour.green()) + 0.0722 * linear(colour.blue())


def contrast_ratio(first: QColor, second: QColor) -> float:
    """WCAG 2 contrast ratio of two colours, from 1 (the same) to 21 (black on white)."""
    lighter, darker = sorted((relative_luminance(first), relative_luminance(second)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


@lru_cache(maxsize=256)
def readable_hex(hex_colour: str, background_hex: str, ratio: float = 4.5) -> str:
    """`hex_colour`, lightened or darkened in its own hue just enough to read on `background_hex` at `ratio`."""
    # 4.5 is WCAG AA for body text; a colour that already reads is returned as it is (light theme unchanged).
    colour, background = QColor(hex_colour), QColor(background_hex)
    if contrast_ratio(colour, background) >= ratio:
        return colour.name()
    hue, saturation, lightness, _ = colour.getHslF()
    target = 1.0 if relative_luminance(background) < 0.18 else 0.0
    for step in range(1, 41):
        candidate = QColor.fromHslF(max(hue, 0.0), saturation, lightness + (target - lightness) * step / 40)
        if contrast_ratio(candidate, background) >= ratio:
            return candidate.name()
    return "#FFFFFF" if target else "#000000"


def theme_ink(hex_colour: str, background: QColor | None = None) -> str:
    """`hex_colour` made readable on `background` (default: the theme's) at 7:1 in high contrast, else 4.5:1."""
    current = theme()
    background = current.background() if background is None else background
    return readable_hex(hex_colour, background.name(), 7.0 if current.mode == "contrast" else 4.5)


# ---------------------------------------------------------------- widget colours (palette and style sheet)

# Window, base (fields), text, highlight, disabled text; light is the style's own palette.
_WIDGET_COLOURS: dict[str, tuple[str, str, str, str, str]] = {
    "dark": ("#2B2D31", "#1E1F22", "#E6E6E6", "#3D6FB6", "#E6E6E6"),
    # Disabled grey #8C8C8C: 6.3:1 on black (readable, WCAG's 4.5) yet plainly dimmer than white (3.4:1 between them).
    "contrast": ("#000000", "#000000", "#FFFFFF", "#FFD400", "#8C8C8C"),
}


def palette_for(mode: str) -> QPalette:
    """The application palette of a theme mode (light: the style's standard palette)."""
    if mode == "light":
        return QApplication.style().standardPalette()
    window, base, text, highlight, disabled = _WIDGET_COLOURS[mode]
    palette = QPalette()
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
    if mode == "contrast":
        # Fusion draws frames, grooves and bevels from these shades; black-on-black they vanish.
        for role in (QPalette.ColorRole.Light, QPalette.ColorRole.Midlight, QPalette.ColorRole.Mid,
                     QPalette.ColorRole.Dark, QPalette.ColorRole.Shadow):
            palette.setColor(role, QColor(text))
        for role in (QPalette.ColorRole.Text, QPalette.ColorRole.WindowText, QPalette.ColorRole.ButtonText,
                     QPalette.ColorRole.PlaceholderText):
            palette.setColor(QPalette.ColorGroup.Disabled, role, QColor(disabled))
    return palette


# High contrast for projectors: every boundary and indicator white or yellow on black (WCAG 2.1 1.4.11 asks
# 3:1; these are 21:1 and 14:1), the focus yellow, the disabled grey with dashed edges so that it reads as
# "off" without relying on the grey alone.
_CONTRAST_STYLE_SHEET = """
QToolTip { color: #FFFFFF; background: #000000; border: 2px solid #FFFFFF; padding: 2px; }

QLineEdit, QAbstractSpinBox, QComboBox, QPlainTextEdit, QTextEdit {
    color: #FFFFFF; background: #000000; border: 2px solid #FFFFFF; border-radius: 0px;
    selection-background-color: #FFD400; selection-color: #000000; padding: 1px 3px;
}
QLineEdit:focus, QAbstractSpinBox:focus, QComboBox:focus, QPlainTextEdit:focus, QTextEdit:focus {
    border-color: #FFD400;
}
QLineEdit:disabled, QAbstractSpinBox:disabled, QComboBox:disabled, QPlainTextEdit:disabled, QTextEdit:disabled {
    color: #8C8C8C; border: 2px dashed #8C8C8C;
}
QAbstractSpinBox { padding-right: 18px; }
QAbstractSpinBox::up-button, QAbstractSpinBox::down-button {
    subcontrol-origin: padding; width: 16px; background: #000000; border-left: 2px solid #FFFFFF;
}
QAbstractSpinBox::up-button { subcontrol-position: top right; border-bottom: 1px solid #FFFFFF; }
QAbstractSpinBox::down-button { subcontrol-position: bottom right; }
QAbstractSpinBox::up-button:disabled, QAbstractSpinBox::down-button:disabled { border-color: #8C8C8C; }
QAbstractSpinBox::up-arrow { image: url(@ICONS@/contrast-up.svg); width: 10px; height: 6px; }
QAbstractSpinBox::down-arrow { image: url(@ICONS@/contrast-down.svg); width: 10px; height: 6px; }
QAbstractSpinBox::up-arrow:disabled, QAbstractSpinBox::up-arrow:off { image: url(@ICONS@/contrast-up-disabled.svg); }
QAbstractSpinBox::down-arrow:disabled, QAbstractSpinBox::down-arrow:off {
    image: url(@ICONS@/contrast-down-disabled.svg);
}
QComboBox { padding-right: 20px; }
QComboBox::drop-down {
    subcontrol-origin: border; subcontrol-position: top right; width: 18px; border-left: 2px solid #FFFFFF;
}
QComboBox::drop-down:disabled { border-left-color: #8C8C8C; }
QComboBox::down-arrow { image: url(@ICONS@/contrast-down.svg); width: 10px; height: 6px; }
QComboBox::down-arrow:disabled { image: url(@ICONS@/contrast-down-disabled.svg); }
QComboBox QAbstractItemView {
    color: #FFFFFF; background: #000000; border: 2px solid #FFFFFF;
    selection-background-color: #FFD400; selection-color: #000000;
}

QPushButton, QToolButton {
    color: #FFFFFF; background: #000000; border: 2px solid #FFFFFF; border-radius: 3px; padding: 3px 8px;
}
QPushButton:hover, QToolButton:hover, QPushButton:focus, QToolButton:focus { border-color: #FFD400; }
QPushButton:pressed, QPushButton:checked, QToolButton:pressed, QToolButton:checked {
    color: #000000; background: #FFD400;
}
QPushButton:disabled, QToolButton:disabled { color: #8C8C8C; border: 2px dashed #8C8C8C; }

QRadioButton, QCheckBox { spacing: 6px; }
QRadioButton::indicator, QCheckBox::indicator {
    width: 14px; height: 14px; border: 2px solid #FFFFFF; background: #000000;
}
QRadioButton::indicator { border-radius: 9px; }
QRadioButton::indicator:checked {
    background: qradialgradient(cx: 0.5, cy: 0.5, radius: 0.5, fx: 0.5, fy: 0.5,
                                stop: 0 #FFD400, stop: 0.55 #FFD400, stop: 0.65 #000000, stop: 1 #000000);
}
QCheckBox::indicator:checked { background: #FFD400; border: 2px solid #FFFFFF; image: url(@ICONS@/contrast-check.svg); }
QCheckBox::indicator:indeterminate {
    background: qlineargradient(x1: 0, y1: 0, x2: 0, y2: 1, stop: 0 #000000, stop: 0.35 #000000,
                                stop: 0.36 #FFD400, stop: 0.64 #FFD400, stop: 0.65 #000000, stop: 1 #000000);
}
QRadioButton::indicator:focus, QCheckBox::indicator:focus { border-color: #FFD400; }
QRadioButton::indicator:disabled, QCheckBox::indicator:disabled { border: 2px dashed #8C8C8C; }
QRadioButton::indicator:checked:disabled { background: qradialgradient(cx: 0.5, cy: 0.5, radius: 0.5,
    fx: 0.5, fy: 0.5, stop: 0 #8C8C8C, stop: 0.55 #8C8C8C, stop: 0.65 #000000, stop: 1 #000000); }
QCheckBox::indicator:checked:disabled { background: #8C8C8C; }

QSlider:horizontal { min-height: 22px; }
QSlider:vertical { min-width: 22px; }
QSlider::groove:horizontal { height: 6px; background: #000000; border: 2px solid #FFFFFF; border-radius: 4px; }
QSlider::groove:vertical { width: 6px; background: #000000; border: 2px solid #FFFFFF; border-radius: 4px; }
QSlider::sub-page:horizontal, QSlider::add-page:vertical {
    background: #FFFFFF; border: 2px solid #FFFFFF; border-radius: 4px;
}
QSlider::handle:horizontal {
    width: 14px; margin: -7px 0px; background: #FFD400; border: 2px solid #FFFFFF; border-radius: 9px;
}
QSlider::handle:vertical {
    height: 14px; margin: 0px -7px; background: #FFD400; border: 2px solid #FFFFFF; border-radius: 9px;
}
QSlider::groove:disabled, QSlider::sub-page:disabled, QSlider::add-page:disabled { border-color: #8C8C8C; }
QSlider::sub-page:horizontal:disabled, QSlider::add-page:vertical:disabled { background: #8C8C8C; }
QSlider::handle:disabled { background: #8C8C8C; border: 2px dashed #8C8C8C; }

QMenuBar { background: #000000; color: #FFFFFF; border-bottom: 1px solid #FFFFFF; }
QMenuBar::item { background: transparent; padding: 3px 8px; }
QMenuBar::item:selected, QMenuBar::item:pressed { background: #FFD400; color: #000000; }
QMenu { background: #000000; color: #FFFFFF; border: 2px solid #FFFFFF; padding: 2px; }
QMenu::item { padding: 4px 24px 4px 24px; border: 1px solid transparent; }
QMenu::item:selected { background: #FFD400; color: #000000; }
QMenu::item:disabled { color: #8C8C8C; }
QMenu::separator { height: 2px; background: #FFFFFF; margin: 4px 6px; }
QMenu::indicator { width: 12px; height: 12px; border: 2px solid #FFFFFF; background: #000000; }
QMenu::indicator:checked { background: #FFD400; }
QMenu::indicator:exclusive { border-radius: 8px; }

QTabWidget::pane { border: 2px solid #FFFFFF; }
QTabBar::tab {
    color: #FFFFFF; background: #000000; border: 2px solid #FFFFFF; padding: 4px 10px; margin-right: 2px;
}
QTabBar::tab:selected { color: #000000; background: #FFD400; }
QTabBar::tab:hover:!selected { border-color: #FFD400; }
QTabBar::tab:disabled { color: #8C8C8C; border: 2px dashed #8C8C8C; }
QTabBar QToolButton { background: #000000; border: 2px solid #FFFFFF; padding: 0px; }
QTabBar QToolButton:disabled { border: 2px dashed #8C8C8C; }
QTabBar QToolButton::left-arrow { image: url(@ICONS@/contrast-left.svg); width: 6px; height: 10px; }
QTabBar QToolButton::right-arrow { image: url(@ICONS@/contrast-right.svg); width: 6px; height: 10px; }
QTabBar QToolButton::left-arrow:disabled { image: url(@ICONS@/contrast-left-disabled.svg); }
QTabBar QToolButton::right-arrow:disabled { image: url(@ICONS@/contrast-right-disabled.svg); }

QScrollBar:horizontal { height: 16px; background: #000000; border: 1px solid #FFFFFF; margin: 0px; }
QScrollBar:vertical { width: 16px; background: #000000; border: 1px solid #FFFFFF; margin: 0px; }
QScrollBar::handle { background: #FFFFFF; border: 2px solid #000000; }
QScrollBar::handle:horizontal { min-width: 24px; }
QScrollBar::handle:vertical { min-height: 24px; }
QScrollBar::handle:hover, QScrollBar::handle:pressed { background: #FFD400; }
QScrollBar::add-line, QScrollBar::sub-line { width: 0px; height: 0px; border: none; background: none; }
QScrollBar::add-page, QScrollBar::sub-page { background: none; }

QHeaderView::section {
    color: #FFFFFF; background: #000000; border: 1px solid #FFFFFF; padding: 2px 4px;
}
QHeaderView::section:checked { color: #000000; background: #FFD400; }
QTableView, QTableWidget, QListView, QListWidget, QTreeView {
    color: #FFFFFF; background: #000000; gridline-color: #FFFFFF; border: 2px solid #FFFFFF;
    selection-background-color: #FFD400; selection-color: #000000;
}
QTableView QTableCornerButton::section { background: #000000; border: 1px solid #FFFFFF; }

QGroupBox { border: 2px solid #FFFFFF; margin-top: 1.2em; padding-top: 4px; }
QGroupBox::title { subcontrol-origin: margin; left: 8px; padding: 0px 4px; color: #FFFFFF; }
QProgressBar { border: 2px solid #FFFFFF; background: #000000; color: #FFFFFF; text-align: center; }
QProgressBar::chunk { background: #FFD400; }
QSplitter::handle { background: #FFFFFF; }
QMainWindow::separator { background: #808080; width: 3px; height: 3px; }
"""


def style_sheet_for(mode: str) -> str:
    """The application style sheet of a theme mode (only high contrast has one; the others use the style's look)."""
    if mode != "contrast":
        return ""
    return _CONTRAST_STYLE_SHEET.replace("@ICONS@", (resources_dir() / "icons").as_posix())


def apply_widget_colours(app: QApplication, mode: str) -> None:
    """Give the application the palette and style sheet of `mode` (the window calls this on every theme change)."""
    app.setPalette(palette_for(mode))
    if app.styleSheet() != style_sheet_for(mode):  # setting a sheet re-polishes every widget: only on a change
        app.setStyleSheet(style_sheet_for(mode))
