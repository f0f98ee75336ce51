"""One palette and one size scale for every panel, so a key has the same colour everywhere."""

from __future__ import annotations

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
    """The colour of Q."""
    return QColor(QUERY_HEX)


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

    def __init__(self) -> None:
        super().__init__()
        self._zoom = 1.0

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
        """Width of vector lines and outlines."""
        return self.BASE_LINE_PX * self._zoom

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
