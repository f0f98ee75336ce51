"""A block of numbers pasted into the vector editor: which vectors it changes, every number checked first."""

from __future__ import annotations

import re

from PySide6.QtCore import QCoreApplication

from attention_explorer.core.limits import ScenarioError
from attention_explorer.core.scenes.query import scene as sc
from attention_explorer.ui.i18n.switcher import error_text
from attention_explorer.ui.panels.vector_table import QUERY_ROW
from attention_explorer.ui.style.numbers import list_separators, parse_number, row_cells

_translate = QCoreApplication.translate  # lupdate: -tr-function-alias translate+=_translate

# The new vectors, keyed by (role, index), and the pasted block's row and column counts.
PastedVectors = tuple[dict[tuple[str, int], list[float]], int, int]


# A cell written as a number, whether or not it is one the editor takes ("1e9" is one, out of range).
_NUMBER_LIKE = re.compile(r"[+\-−]?(\d+([.,]\d*)?|[.,]\d+)([eE][+\-−]?\d+)?")


def holds_numbers(text: str) -> bool:
    """True when some cell of `text` (split as a paste splits it) is written as a number: pasted on a name, it is
    numbers for that row, not a new name ("K4" and "Paris" are names)."""
    return any(_NUMBER_LIKE.fullmatch(cell.strip()) for line in text.splitlines() for cell in row_cells(line))


def parse_paste(text: str, scenario: sc.Scenario, start_row: int, start: int) -> PastedVectors:
    """The vectors `text` makes when pasted at table row `start_row`, component `start` of the row's K…V numbers.

    Returns the new vectors keyed by (role, index) and the paste's size; ValueError names the first bad cell.
    """
    text = list_separators(text)  # "０．８，０．２" from a Chinese input method is "0.8, 0.2"
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    while lines and not lines[-1].strip():
        lines.pop()
    if not lines:
        raise ValueError(_translate("VectorEditor", "the clipboard holds no numbers"))
    # Spreadsheets separate cells with tabs; text with no tab at all is split at spaces, semicolons and commas
    # followed by a space ("0.8, 0.2" as the article writes a vector; "0,5" alone stays a decimal comma).
    tabs = "\t" in text
    rows = []
    for line in lines:
        cells = line.split("\t") if tabs else row_cells(line)
        while cells and not cells[-1].strip():
            cells.pop()
        rows.append(cells)
    if start_row + len(rows) > scenario.n + 1:
        raise ValueError(
            _translate("VectorEditor", "{0} rows pasted but only {1} rows from here down").format(
                len(rows), scenario.n + 1 - start_row
            )
        )
    edits: dict[tuple[str, int], list[float]] = {}
    checked = scenario
    for offset, cells in enumerate(rows):
        row = start_row + offset
        width = scenario.d_k if row == QUERY_ROW else scenario.d_k + scenario.d_v
        if start + len(cells) > width:
            raise ValueError(
                _translate("VectorEditor", "row {0} has {1} numbers but only {2} fit from this column").format(
                    offset + 1, len(cells), width - start
                )
            )
        flat = list(scenario.query) if row == QUERY_ROW else [*scenario.keys[row - 1], *scenario.values[row - 1]]
        for column, cell_text in enumerate(cells):
            try:
                flat[start + column] = parse_number(cell_text)
            except ValueError as error:
                raise ValueError(
                    _translate("VectorEditor", "row {0}, column {1}: {2}").format(offset + 1, column + 1, error)
                ) from None
        if row == QUERY_ROW:
            edits["query", 0] = flat
        else:
            if start < scenario.d_k:
                edits["key", row - 1] = flat[: scenario.d_k]
            if start + len(cells) > scenario.d_k:
                edits["value", row - 1] = flat[scenario.d_k :]
    try:  # the core's own checks, before anything changes
        for (role, index), numbers in edits.items():
            checked = sc.with_vector(checked, role, index, numbers)
    except ScenarioError as error:
        raise ValueError(error_text(error)) from None
    return edits, len(rows), max(len(cells) for cells in rows)
