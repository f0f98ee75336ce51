"""The self-attention lab's matrix tabs: Q, K, V read through from the sequence model, and X, W_Q, W_K, W_V to edit."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import QLabel, QTabWidget, QVBoxLayout, QWidget

from attention_explorer.ui.labs.self_attention.state import SequenceModel
from attention_explorer.ui.style.numbers import cell_number, parse_number, parse_number_rows
from attention_explorer.ui.style.theme import KEY_ROW_HEX, QUERY_ROW_HEX, ROW_TEXT_HEX
from attention_explorer.ui.widgets.matrix_table import MatrixTable, MatrixTableModel, TableNumbers, scrolled_page

LAB_NUMBERS = TableNumbers(cell_number, parse_number, parse_number_rows, QUERY_ROW_HEX, ROW_TEXT_HEX)


def rich_caption(parent: QWidget) -> QLabel:
    """A word-wrapped rich-text label (the tables' captions)."""
    caption = QLabel(parent)
    caption.setTextFormat(Qt.TextFormat.RichText)
    caption.setWordWrap(True)
    return caption


def set_table_fonts(tables: Iterable[MatrixTable], font: QFont) -> None:
    """The zoomed font on tables and their headers."""
    for widget in tables:
        widget.setFont(font)
        widget.horizontalHeader().setFont(font)
        widget.verticalHeader().setFont(font)


class SequenceMatrixTabs(QTabWidget):
    """Tabs "Q, K, V", X, W_Q, W_K, W_V: the projections to read, the inputs to type over or paste into."""

    def __init__(self, model: SequenceModel, edit: Callable[[str, int, int, float], None],
                 paste: Callable[[str, int, int, list[list[float]]], None], show_error: Callable[[str], None],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("matrixTabs")
        self.setStyleSheet("QTabBar::tab { padding: 4px 10px 6px 10px; }")  # room for the _ of W_Q
        tokens = lambda: model.sequence.tokens  # noqa: E731
        dims = lambda: [f"x{r + 1}" for r in range(model.sequence.d_model)]  # noqa: E731
        self.q_model = MatrixTableModel(lambda: model.result.queries, tokens, "q", LAB_NUMBERS, parent=self)
        self.k_model = MatrixTableModel(lambda: model.result.keys, tokens, "k", LAB_NUMBERS, parent=self)
        self.k_model.highlight = QBrush(QColor(KEY_ROW_HEX))
        self.v_model = MatrixTableModel(lambda: model.result.values, tokens, "v", LAB_NUMBERS, parent=self)
        self.edit_models: dict[str, MatrixTableModel] = {}
        self.edit_tables: dict[str, MatrixTable] = {}
        for name, rows, prefix in (("embeddings", tokens, "x"), ("w_q", dims, "q"), ("w_k", dims, "k"),
                                   ("w_v", dims, "v")):
            table_model = MatrixTableModel(
                lambda n=name: getattr(model.sequence, n), rows, prefix, LAB_NUMBERS,
                edit=lambda r, c, value, n=name: edit(n, r, c, value), parent=self)
            table_model.error_handler = show_error
            table = MatrixTable(table_model, paste=lambda r, c, block, n=name: paste(n, r, c, block), parent=self)
            table.setObjectName(f"{name}Table")
            self.edit_models[name] = table_model
            self.edit_tables[name] = table
        self.q_table = MatrixTable(self.q_model, parent=self)
        self.q_table.setObjectName("queriesTable")
        self.k_table = MatrixTable(self.k_model, parent=self)
        self.k_table.setObjectName("keysTable")
        self.v_table = MatrixTable(self.v_model, parent=self)
        self.v_table.setObjectName("valuesTable")
        self.q_caption, self.k_caption, self.v_caption = rich_caption(self), rich_caption(self), rich_caption(self)
        self.edit_captions = {name: rich_caption(self) for name in self.edit_tables}
        projections = QWidget(self)
        column = QVBoxLayout(projections)
        column.setContentsMargins(4, 4, 4, 4)
        for caption, table in ((self.q_caption, self.q_table), (self.k_caption, self.k_table),
                               (self.v_caption, self.v_table)):
            column.addWidget(caption)
            column.addWidget(table, 1)
        self.addTab(scrolled_page(projections), "")
        for name, table in self.edit_tables.items():
            page = QWidget(self)
            page_layout = QVBoxLayout(page)
            page_layout.setContentsMargins(4, 4, 4, 4)
            page_layout.addWidget(self.edit_captions[name])
            page_layout.addWidget(table, 1)
            self.addTab(scrolled_page(page), "")

    def tables(self) -> tuple[MatrixTable, ...]:
        """Every table of the tabs."""
        return (self.q_table, self.k_table, self.v_table, *self.edit_tables.values())

    def refresh(self) -> None:
        """Re-read every table from the model."""
        for table_model in (self.q_model, self.k_model, self.v_model, *self.edit_models.values()):
            table_model.refresh()

    def set_table_font(self, font: QFont) -> None:
        """The zoomed font on every table and its headers."""
        set_table_fonts(self.tables(), font)
