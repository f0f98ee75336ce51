"""The tables every `compute` report prints: matrices as JSON rows (−inf as null) and as aligned text tables.

Shared by the reports of every kind (core/scenes/*/report.py). Pure Python and numpy, no Qt.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Sequence

import numpy as np


def matrix(rows: np.ndarray) -> list[list[float | None]]:
    """Rows as JSON lists, −inf (a masked entry) as None: JSON has no infinity."""
    return [[None if math.isinf(v) else v for v in row] for row in rows.tolist()]


def cell_text(value: float) -> str:
    """A table cell: 3 decimals, "-inf" for a masked entry."""
    return "-inf" if math.isinf(value) else f"{value:.3f}"


def text_width(text: str) -> int:
    """Columns a terminal gives the text: Chinese characters take two."""
    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in text)


def padded(text: str, width: int, right: bool = True) -> str:
    """`text` padded with spaces to `width` terminal columns (right-aligned unless right=False)."""
    padding = " " * max(0, width - text_width(text))
    return padding + text if right else text + padding


def text_table(title: str, row_names: Sequence[str], column_names: Sequence[str], rows: np.ndarray) -> list[str]:
    """The lines of a titled table (row names left, columns right-aligned), and an empty line after it."""
    cells = [[cell_text(v) for v in row] for row in rows.tolist()]
    name_width = max(text_width(name) for name in row_names)
    widths = [max(text_width(column_names[j]), *(len(row[j]) for row in cells)) for j in range(len(column_names))]
    lines = [title, " " * name_width + "  " + "  ".join(padded(c, w) for c, w in zip(column_names, widths))]
    for name, row in zip(row_names, cells):
        lines.append(padded(name, name_width, right=False) + "  "
                     + "  ".join(padded(c, w) for c, w in zip(row, widths)))
    return [*lines, ""]
