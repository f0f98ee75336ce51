"""The multi-head lab's matrices: X, W_Q, W_K, W_V, Q, K, V, the concatenation, W_O and the output, tinted per head.

Read-only tables that read through the lab's model; each head's columns (rows of W_O) carry that head's colour.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

import numpy as np
from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import QLabel, QTabWidget, QVBoxLayout, QWidget

from attention_explorer.ui.labs.multihead.heads import head_hex
from attention_explorer.ui.labs.multihead.state import MultiHeadModel
from attention_explorer.ui.style.numbers import cell_number, parse_number, parse_number_rows
from attention_explorer.ui.widgets.matrix_table import MatrixTable, MatrixTableModel, TableNumbers, scrolled_page

TINT_ALPHA = 70  # a head's colour over the table's own background: readable in the light and the dark theme
CHOSEN_ALPHA = 150  # the chosen head's columns stand out
NUMBERS = TableNumbers(cell_number, parse_number, parse_number_rows, "#FFE08A", "#000000")


@lru_cache(maxsize=8)
def numbered(prefix: str, count: int) -> tuple[str, ...]:
    """"x1" … "x512": a table's row names, built once per size (the header asks for them per section)."""
    return tuple(f"{prefix}{r + 1}" for r in range(count))


class HeadTintedModel(MatrixTableModel):
    """A matrix whose columns (or rows) belong to heads of `d_k()` each, tinted in the heads' colours."""

    def __init__(self, matrix: Callable[[], np.ndarray], row_names: Callable, prefix: str, model: MultiHeadModel,
                 by_rows: bool = False, tinted: bool = True, parent=None) -> None:
        super().__init__(matrix, row_names, prefix, NUMBERS, parent=parent)
        self.multihead = model
        self.by_rows = by_rows
        self.tinted = tinted
        self._shown: tuple = ()  # the matrix object and head width last shown: an unchanged one is not re-read

    def refresh(self) -> None:
        """Re-read the matrix unless it is the very array already shown with the same heads (arrays never change)."""
        shown = (self._matrix(), self.multihead.scenario.d_k)
        if self._shown and shown[0] is self._shown[0] and shown[1] == self._shown[1]:
            return
        headers_change = not self._shown or shown[1] != self._shown[1] or shown[0].shape != self._shown[0].shape
        self._shown = shown
        super().refresh()
        if headers_change and self.columnCount():
            self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, self.columnCount() - 1)

    def tint_changed(self) -> None:
        """The chosen head changed: only the cells' backgrounds are redrawn."""
        if self.tinted and self.rowCount() and self.columnCount():
            self.dataChanged.emit(self.index(0, 0), self.index(self.rowCount() - 1, self.columnCount() - 1),
                                  [Qt.ItemDataRole.BackgroundRole])

    def head_of(self, index: QModelIndex) -> int:
        """The head whose slice a cell lies in."""
        return (index.row() if self.by_rows else index.column()) // self.multihead.scenario.d_k

    def data(self, index: QModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        if self.tinted and role == Qt.ItemDataRole.BackgroundRole and index.isValid():
            head = self.head_of(index)
            colour = QColor(head_hex(head))
            colour.setAlpha(CHOSEN_ALPHA if head == self.multihead.head else TINT_ALPHA)
            return QBrush(colour)
        return super().data(index, role)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole):
        d_k = self.multihead.scenario.d_k
        along = Qt.Orientation.Vertical if self.by_rows else Qt.Orientation.Horizontal
        if self.tinted and orientation == along and role == Qt.ItemDataRole.DisplayRole:
            # "h2·3": column 3 of head 2, so a slice reads as one head's own matrix
            return f"h{section // d_k + 1}·{section % d_k + 1}"
        if self.tinted and orientation == along and role == Qt.ItemDataRole.ForegroundRole:
            return QBrush(QColor(head_hex(section // d_k)))
        return super().headerData(section, orientation, role)


class HeadMatrixTabs(QTabWidget):
    """Tabs of tables with a caption above each: the shapes are written in the captions."""

    def __init__(self, model: MultiHeadModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("multiheadTabs")
        self.setStyleSheet("QTabBar::tab { padding: 4px 10px 6px 10px; }")  # room for the _ of W_Q
        self.multihead = model
        tokens = lambda: model.scenario.tokens  # noqa: E731
        dims = lambda: numbered("x", model.scenario.d_model)  # noqa: E731
        scenario = lambda: model.scenario  # noqa: E731
        result = lambda: model.result  # noqa: E731
        specs = {  # name: (matrix, row names, column prefix, tinted by rows, tinted at all)
            "queries": (lambda: result().queries, tokens, "q", False, True),
            "keys": (lambda: result().keys, tokens, "k", False, True),
            "values": (lambda: result().values, tokens, "v", False, True),
            "w_q": (lambda: scenario().w_q, dims, "q", False, True),
            "w_k": (lambda: scenario().w_k, dims, "k", False, True),
            "w_v": (lambda: scenario().w_v, dims, "v", False, True),
            "embeddings": (lambda: scenario().embeddings, tokens, "x", False, False),
            "concat": (lambda: result().concat, tokens, "c", False, True),
            "w_o": (lambda: scenario().w_o, lambda: numbered("c", model.scenario.d_model), "y", True, True),
            "output": (lambda: result().output, tokens, "y", False, False),
        }
        self.models: dict[str, HeadTintedModel] = {}
        self.tables: dict[str, MatrixTable] = {}
        self.captions: dict[str, QLabel] = {}
        for name, (matrix, rows, prefix, by_rows, tinted) in specs.items():
            self.models[name] = HeadTintedModel(matrix, rows, prefix, model, by_rows, tinted, parent=self)
            self.tables[name] = MatrixTable(self.models[name], parent=self)
            self.tables[name].setObjectName(f"{name}Table")
            caption = QLabel(self)
            caption.setObjectName(f"{name}Caption")
            caption.setTextFormat(Qt.TextFormat.RichText)
            caption.setWordWrap(True)
            self.captions[name] = caption
        for names in (("w_q", "w_k", "w_v"), ("queries", "keys", "values"), ("embeddings",),
                      ("concat", "w_o", "output")):
            page = QWidget(self)
            column = QVBoxLayout(page)
            column.setContentsMargins(4, 4, 4, 4)
            for name in names:
                column.addWidget(self.captions[name])
                column.addWidget(self.tables[name], 1)
            self.addTab(scrolled_page(page), "")

    def refresh(self) -> None:
        """Re-read every matrix that changed."""
        for table_model in self.models.values():
            table_model.refresh()

    def tint_changed(self) -> None:
        """Redraw the head tints (the chosen head's are darker)."""
        for table_model in self.models.values():
            table_model.tint_changed()

    def set_whole(self, whole: bool) -> None:
        """Presentation: every table asks for room for all its cells; the page scrolls when they do not fit."""
        for table in self.tables.values():
            table.set_whole(whole)

    def whole_width(self) -> int:
        """The width the widest page asks for with its tables whole, with room for a vertical scroll bar."""
        bar = self.style().pixelMetric(self.style().PixelMetric.PM_ScrollBarExtent)
        widest = max(table.minimumSizeHint().width() for table in self.tables.values())
        return widest + bar + 2 * 4 + 2 * self.style().pixelMetric(self.style().PixelMetric.PM_DefaultFrameWidth)

    def set_font(self, font) -> None:
        """The lab's table font (it follows the presentation zoom)."""
        for table in self.tables.values():
            table.setFont(font)
            table.horizontalHeader().setFont(font)
            table.verticalHeader().setFont(font)
