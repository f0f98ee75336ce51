"""A matrix as a compact table: read through from a model, cells typed over, blocks pasted from a spreadsheet."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt
from PySide6.QtGui import QBrush, QColor, QGuiApplication, QKeySequence
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView, QWidget

from attention_explorer.ui.i18n.switcher import error_text
from attention_explorer.ui.style.numbers import tooltip_number

STRETCH_MAX_COLUMNS = 6  # tables with at most this many columns fill their width


@dataclass(frozen=True)
class TableNumbers:
    """How a table writes and reads its numbers (the lab's own formatter and parsers), and its row tint."""

    text: Callable[[float], str]
    parse: Callable[[str], float]  # raises ValueError (a ScenarioError is one)
    parse_block: Callable[[str], list[list[float]]]  # raises ValueError (a ScenarioError is one)
    row_tint_hex: str
    row_text_hex: str  # text on the tinted row


class MatrixTableModel(QAbstractTableModel):
    """A read-through table of one matrix of the sequence model (no copy of the numbers is kept)."""

    def __init__(self, matrix: Callable[[], np.ndarray], row_names: Callable[[], Sequence[str]], column_prefix: str,
                 numbers: TableNumbers, edit: Callable[[int, int, float], None] | None = None, parent=None) -> None:
        super().__init__(parent)
        self.numbers = numbers
        self._matrix = matrix
        self._row_names = row_names
        self._column_prefix = column_prefix
        self._edit = edit
        self._shape = self._matrix().shape
        self.highlighted_row = -1
        self.highlight = QBrush(QColor(numbers.row_tint_hex))
        self.error_handler: Callable[[str], None] | None = None

    def rowCount(self, parent: QModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else self._shape[0]

    def columnCount(self, parent: QModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else self._shape[1]

    def data(self, index: QModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self.numbers.text(float(self._matrix()[index.row(), index.column()]))
        if role == Qt.ItemDataRole.EditRole:  # every digit, so editing a cell changes nothing it was not told to
            return repr(float(self._matrix()[index.row(), index.column()]))
        if role == Qt.ItemDataRole.ToolTipRole:
            return tooltip_number(float(self._matrix()[index.row(), index.column()]))
        if role == Qt.ItemDataRole.BackgroundRole and index.row() == self.highlighted_row:
            return self.highlight
        if role == Qt.ItemDataRole.ForegroundRole and index.row() == self.highlighted_row:
            return QBrush(QColor(self.numbers.row_text_hex))
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole):
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if orientation == Qt.Orientation.Horizontal:
            return f"{self._column_prefix}{section + 1}"
        names = self._row_names()
        return names[section] if section < len(names) else None

    def flags(self, index: QModelIndex) -> Qt.ItemFlag:
        flags = super().flags(index)
        return flags | Qt.ItemFlag.ItemIsEditable if self._edit is not None else flags

    def setData(self, index: QModelIndex, value, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if self._edit is None or role != Qt.ItemDataRole.EditRole or not index.isValid():
            return False
        try:
            self._edit(index.row(), index.column(), self.numbers.parse(str(value)))
        except ValueError as error:  # not a number, or the edit refused it (a ScenarioError)
            if self.error_handler is not None:
                self.error_handler(error_text(error))
            return False
        return True

    def refresh(self) -> None:
        """Re-read the matrix: a reset when its shape changed, else one dataChanged for every cell."""
        shape = self._matrix().shape
        if shape != self._shape:
            self.beginResetModel()
            self._shape = shape
            self.endResetModel()
            return
        if shape[0] and shape[1]:
            self.dataChanged.emit(self.index(0, 0), self.index(shape[0] - 1, shape[1] - 1))
            self.headerDataChanged.emit(Qt.Orientation.Vertical, 0, shape[0] - 1)

    def set_highlighted_row(self, row: int) -> None:
        """Tint one row (−1: none)."""
        if row == self.highlighted_row:
            return
        old, self.highlighted_row = self.highlighted_row, row
        for changed in (old, row):
            if 0 <= changed < self._shape[0]:
                self.dataChanged.emit(self.index(changed, 0), self.index(changed, self._shape[1] - 1),
                                      [Qt.ItemDataRole.BackgroundRole, Qt.ItemDataRole.ForegroundRole])


class MatrixTable(QTableView):
    """A compact table of a matrix; Ctrl+V pastes a block of numbers (from a spreadsheet) at the current cell."""

    def __init__(self, model: MatrixTableModel, paste: Callable[[int, int, list[list[float]]], None] | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setModel(model)
        self._paste = paste
        self.horizontalHeader().setDefaultSectionSize(62)
        self.verticalHeader().setDefaultSectionSize(28)
        self.setHorizontalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        model.modelReset.connect(self.fit_columns)
        self.fit_columns()
        triggers = QAbstractItemView.EditTrigger
        if paste is not None:  # typing a number on a cell starts editing it, as in a spreadsheet
            self.setEditTriggers(triggers.DoubleClicked | triggers.EditKeyPressed | triggers.AnyKeyPressed)
        else:
            self.setEditTriggers(triggers.NoEditTriggers)
            self.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
            self.setFocusPolicy(Qt.FocusPolicy.NoFocus)

    def fit_columns(self) -> None:
        """A few columns share the width; many keep a readable fixed width and scroll."""
        header = self.horizontalHeader()
        few = self.model().columnCount() <= STRETCH_MAX_COLUMNS
        header.setSectionResizeMode(QHeaderView.ResizeMode.Stretch if few else QHeaderView.ResizeMode.Interactive)

    def keyPressEvent(self, event) -> None:
        if self._paste is not None and event.matches(QKeySequence.StandardKey.Paste):
            current = self.currentIndex()
            row, column = (current.row(), current.column()) if current.isValid() else (0, 0)
            table_model = self.model()
            try:
                self._paste(row, column, table_model.numbers.parse_block(QGuiApplication.clipboard().text()))
            except ValueError as error:  # not a number, or the edit refused it (a ScenarioError)
                if table_model.error_handler is not None:
                    table_model.error_handler(error_text(error))
            event.accept()
            return
        super().keyPressEvent(event)
