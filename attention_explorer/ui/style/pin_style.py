"""How a pin looks in every view: its colour and line style by its number, and its name in the current language."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QColor, QPen

from attention_explorer.core.scenes.query.pins import Pin
from attention_explorer.ui.style.safe_text import escaped
from attention_explorer.ui.style.theme import theme, theme_ink

# Not among the keys' Okabe–Ito colours, and each pin also has its own dash pattern (for grey-scale projectors).
PIN_HEX = ("#C2185B", "#6D4C41", "#3F51B5")
PIN_DASHES = (Qt.PenStyle.DashLine, Qt.PenStyle.DotLine, Qt.PenStyle.DashDotLine)
PIN_MARKS = ("╍╍", "┅┅", "-·-")  # the dash pattern in a legend's text


def pin_name(pin: Pin) -> str:
    """The pin's own name, or "Pin 1", "Pin 2", … in the current language."""
    return pin.name or QCoreApplication.translate("Pins", "Pin {0}").format(pin.number)


def pin_colour(pin: Pin) -> QColor:
    """The pin's colour, made readable on the current theme's background."""
    return QColor(theme_ink(PIN_HEX[(pin.number - 1) % len(PIN_HEX)]))


def pin_pen(pin: Pin, width_factor: float = 1.0) -> QPen:
    """A cosmetic pen in the pin's colour and dash pattern, as thick as the theme's lines times `width_factor`."""
    pen = QPen(pin_colour(pin), max(1.5, theme().line_px() * width_factor))
    pen.setStyle(PIN_DASHES[(pin.number - 1) % len(PIN_DASHES)])
    pen.setCosmetic(True)
    return pen


def legend_html(pins: tuple[Pin, ...]) -> str:
    """One line naming every pin in its colour after its dash pattern (names from files are escaped)."""
    parts = []
    for pin in pins:
        mark = PIN_MARKS[(pin.number - 1) % len(PIN_MARKS)]
        parts.append(f'<span style="color:{pin_colour(pin).name()}; font-weight:bold">{mark} '
                     f'{escaped(pin_name(pin))}</span>')
    return "&nbsp;&nbsp;&nbsp;".join(parts)
