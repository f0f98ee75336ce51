"""A matrix as a compact table: read through from a model, cells typed over, blocks pasted from a spreadsheet."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QEvent, QModelIndex, QSize, Qt
from PySide6.QtGui import QBrush, QColor, QGuiApplication, QKeySequence
from PySide6.QtWidgets import QAbstractItemView, QFrame, QHeaderView, QScrollArea, QTableView, QWidget

from attention_explorer.ui.i18n.switcher import error_text
from attention_explorer.ui.style.numbers import tooltip_number

STRETCH_MAX_COLUMNS = 6  # tables with at most this many columns fill their width
WHOLE_MOST = QSize(760, 560)  # a whole table asks for at most this much room; past it, it scrolls within itself


def scrolled_page(page: QWidget) -> QScrollArea:
    """A tab's page in a scroll area: at the desk it fits the view as before; while its tables are whole
    (presentation) a page taller or wider than the view scrolls, with its scroll bars showing that it does."""
    area = QScrollArea()
    area.setWidgetResizable(True)
    area.setFrameShape(QFrame.Shape.NoFrame)
    area.setWidget(page)
    return area


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
        self._whole = False
        self._desk_row_height: int | None = None  # the rows' height at the desk, while whole rows follow the font
        self.horizontalHeader().setDefaultSectionSize(62)
        self.verticalHeader().setDefaultSectionSize(28)
        self.setHorizontalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        model.modelReset.connect(self._fit_rows)
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

    def set_whole(self, whole: bool) -> None:
        """Whole (presentation): the table asks for room for every row and column (up to WHOLE_MOST), rows as tall
        as its font, so the page around it scrolls visibly instead of the table hiding a row behind its own edge."""
        self._whole = whole
        self._fit_rows()
        self.updateGeometry()

    def _fit_rows(self) -> None:
        rows = self.verticalHeader()
        if self._whole:
            if self._desk_row_height is None:
                self._desk_row_height = rows.defaultSectionSize()
            rows.setDefaultSectionSize(max(self.fontMetrics().height() + 8, self._desk_row_height))
        elif self._desk_row_height is not None:
            rows.setDefaultSectionSize(self._desk_row_height)
            self._desk_row_height = None
        if self._whole and self.model().columnCount() > STRETCH_MAX_COLUMNS:  # every number whole, never "−0…"
            self.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        else:
            self.fit_columns()

    def whole_size(self) -> QSize:
        """The room every row and column takes, with the headers and the frame."""
        frame = 2 * self.frameWidth()
        columns = range(self.model().columnCount())
        header = self.horizontalHeader()
        width = sum(max(header.sectionSizeHint(c), self.sizeHintForColumn(c), 40) for c in columns)
        width += self.verticalHeader().sizeHint().width() + frame
        height = header.sizeHint().height() + self.verticalHeader().length() + frame
        return QSize(width, height)

    def minimumSizeHint(self) -> QSize:
        if not self._whole:
            return super().minimumSizeHint()
        whole = self.whole_size()
        bar = self.style().pixelMetric(self.style().PixelMetric.PM_ScrollBarExtent)
        # Past the most, the table scrolls within itself: room for that scroll bar too.
        width = whole.width() if whole.height() <= WHOLE_MOST.height() else whole.width() + bar
        height = whole.height() if whole.width() <= WHOLE_MOST.width() else whole.height() + bar
        return QSize(min(width, WHOLE_MOST.width() + bar), min(height, WHOLE_MOST.height() + bar))

    def sizeHint(self) -> QSize:
        return self.minimumSizeHint() if self._whole else super().sizeHint()

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange and self._whole:
            self._fit_rows()
            self.updateGeometry()

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
