"""The HTML pieces the steps view is written with: tooltipped numbers, unbroken runs, vectors, row tints.

Also the width of the label column.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

import numpy as np
from PySide6.QtGui import QColor, QFont, QFontMetrics

from attention_explorer.ui.style.numbers import number_html, tooltip_number
from attention_explorer.ui.style.theme import contrast_ratio

# Vectors longer than this are shown as their first components and "…".
SHOWN_COMPONENTS = 4
# Labels up to as wide as this many "M"s stay on one line ("key 1"); wider ones wrap at a space onto two.
LABEL_KEPT_WHOLE_M = 4
# The label column is at most as wide as this many "M"s (140 px at the full number size, 112 px at 12 pt).
LABEL_COLUMN_MAX_M = 7

_TAGS = re.compile(r"(<[^>]*>)")
# Tags and entities (&nbsp;, &#8212;) are kept whole when a step is masked; only the text between them changes.
_TAGS_AND_ENTITIES = re.compile(r"(<[^>]*>|&#?\w+;)")
_NUMBER = re.compile(r"[−-]?\d[\d.]*")
_NUMBER_SPLIT = re.compile(r"([−-]?\d[\d.]*)")
_TITLE_ATTRIBUTE = re.compile(r' title="[^"]*"')
# A hidden digit keeps its width: a figure space (a digit wide) or a punctuation space (a point wide); a sign stays,
# unseen. Only a white-space:pre span keeps such spaces from collapsing into one.
_BLANKS = str.maketrans("0123456789.", "\u2007" * 10 + "\u2008")


def tip(shown: str, value: float) -> str:
    """`shown` with a hover tooltip of the full-precision value."""
    return f'<span title="{tooltip_number(value)}">{shown}</span>'


def nowrap(text: str) -> str:
    """HTML whose visible spaces are non-breaking, so a line never breaks inside it (tags are left alone).

    Qt's tables honour these; a `white-space: nowrap` cell squeezed by its neighbours gets broken mid-number.
    """
    return "".join(part if part.startswith("<") else part.replace(" ", "&nbsp;") for part in _TAGS.split(text))


def masked(html: str) -> str:
    """`html` with every number blank space of its width, and no tooltips: a step not yet revealed.

    Key labels (the `key:` links) stay as they are, so the placeholder rows still name their keys.
    """
    parts = _TAGS_AND_ENTITIES.split(_TITLE_ATTRIBUTE.sub("", html))
    in_label = False
    for index, part in enumerate(parts):
        if part.startswith("<"):
            in_label = part.startswith('<a href="key:') or (in_label and part != "</a>")
        elif part and not part.startswith("&") and not in_label:
            parts[index] = _hidden_text(part)
    return "".join(parts)


def _hidden_text(text: str) -> str:
    """Numbers blanked (nothing to copy), the signs and brackets around them unseen: no husk of a formula is drawn."""
    pieces = []
    for position, piece in enumerate(_NUMBER_SPLIT.split(text)):
        if position % 2:
            pieces.append(_hidden_number(re.match(_NUMBER, piece)))
        elif piece.strip():
            pieces.append(f'<span style="color:transparent">{piece}</span>')
        else:
            pieces.append(piece)
    return "".join(pieces)


def _hidden_number(match: re.Match[str]) -> str:
    return '<span style="white-space:pre; color:transparent">' + match.group(0).translate(_BLANKS) + "</span>"


def vector_text(values: Sequence[float] | np.ndarray, fmt=number_html) -> str:
    """[a, b, …] with at most SHOWN_COMPONENTS components, then the count of the rest."""
    values = np.asarray(values, dtype=np.float64)
    shown = [fmt(float(v)) for v in values[:SHOWN_COMPONENTS]]
    if values.shape[0] > SHOWN_COMPONENTS:
        shown.append(f"… ({values.shape[0]})")
    return "[" + ", ".join(shown) + "]"


def keep_together(formula: str) -> str:
    """Let a formula wrap only at its "=" signs: the spaces inside each side become non-breaking."""
    sides = formula.split(" = ")
    return " = ".join(side.replace(" ", "&nbsp;").replace("<span&nbsp;", "<span ") for side in sides)


def _tint(hex_colour: str, amount: float) -> str:
    """`hex_colour` mixed with white (amount 0 = white, 1 = the colour)."""
    colour = QColor(hex_colour)
    mix = [round(255 + (c - 255) * amount) for c in (colour.red(), colour.green(), colour.blue())]
    return "#{:02X}{:02X}{:02X}".format(*mix)


def text_on(hex_colour: str) -> str:
    """Black or white, whichever reads better on `hex_colour`."""
    colour = QColor(hex_colour)
    luminance = 0.299 * colour.red() + 0.587 * colour.green() + 0.114 * colour.blue()
    return "#000000" if luminance > 150 else "#FFFFFF"


@lru_cache(maxsize=64)
def row_tint(hex_colour: str, mode: str, background_hex: str, text_hex: str) -> str:
    """Background of a selected row: a light tint of the key colour, or on dark themes a deep one under light text."""
    # A light tint under light text would be unreadable: on dark themes the key colour is sunk into the background.
    if mode == "light":
        return _tint(hex_colour, 0.32)
    colour, background, text = QColor(hex_colour), QColor(background_hex), QColor(text_hex)
    for amount in (0.4, 0.35, 0.3, 0.25, 0.2, 0.15, 0.1):
        mix = QColor.fromRgbF(*(b + (c - b) * amount for c, b in zip(colour.getRgbF()[:3], background.getRgbF()[:3])))
        if contrast_ratio(text, mix) >= 4.5:
            return mix.name()
    return background.name()


@lru_cache(maxsize=64)
def label_column_px(font_description: str, point_size: float, labels: tuple[str, ...]) -> int:
    """Width of the label column for `labels` in bold `point_size` of the font `font_description` (QFont.toString).

    A long label wraps at its spaces: the column is just wide enough for it on two lines. "shared state" takes the
    width of "shared", two lines beside a d_k = 4 Q·K of two lines, where on one line it left that Q·K room for
    four. Cached: the text is rebuilt once per frame during a drag, with the same labels.
    """
    font = QFont()
    font.fromString(font_description)
    font.setPointSizeF(point_size)
    font.setBold(True)
    metrics = QFontMetrics(font)
    whole = LABEL_KEPT_WHOLE_M * metrics.horizontalAdvance("M")
    widest = max([width_on_two_lines(metrics, label, whole) for label in labels] + [metrics.horizontalAdvance("Σ")])
    return min(widest + 20, LABEL_COLUMN_MAX_M * metrics.horizontalAdvance("M"))


def width_on_two_lines(metrics: QFontMetrics, label: str, kept_whole: int) -> int:
    """The least width `label` takes when broken at one of its spaces; its whole width if that is at most
    `kept_whole` or it has no space."""
    width = metrics.horizontalAdvance(label)
    words = label.split()
    if len(words) < 2 or width <= kept_whole:
        return width
    return min(max(metrics.horizontalAdvance(" ".join(words[:k])), metrics.horizontalAdvance(" ".join(words[k:])))
               for k in range(1, len(words)))
