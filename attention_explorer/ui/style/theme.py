"""One palette and one size scale for every panel, so a key has the same colour everywhere."""

from __future__ import annotations

from functools import lru_cache
from typing import ClassVar

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QColor

# Okabe–Ito: distinguishable with the common colour-vision deficiencies, and on a washed-out projector.
KEY_HEX = ("#E69F00", "#56B4E9", "#009E73", "#D55E00", "#0072B2", "#CC79A7", "#F0E442")
QUERY_HEX = "#222222"
OUTPUT_HEX = "#7B2D8E"
UNSCALED_HEX = "#9A9A9A"


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
        """Set the zoom, clamped to 0.6–3.0."""
        zoom = min(3.0, max(0.6, float(zoom)))
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
