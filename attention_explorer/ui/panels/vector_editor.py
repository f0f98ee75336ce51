"""The vector editor: Q, every K_i and V_i as a table of numbers, edited cell by cell or pasted from a spreadsheet.

This module is the panel around the table (vector_table.py: model and delegate; vector_view.py: the view): d_k
and d_v, adding and removing pairs, the message line, the column widths and the clipboard (a paste is checked by
vector_paste.py).
"""

from __future__ import annotations

import math

import numpy as np
from PySide6.QtCore import (
    QCoreApplication,
    QEvent,
    QModelIndex,
    QPersistentModelIndex,
    QSignalBlocker,
    QSize,
    Qt,
    Signal,
)
from PySide6.QtGui import (
    QFont,
    QFontMetrics,
    QFontMetricsF,
    QGuiApplication,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSpinBox,
    QStyle,
    QVBoxLayout,
    QWidget,
)

from attention_explorer.core.limits import MAX_DIM, ScenarioError
from attention_explorer.core.scenes.query import scene as sc
from attention_explorer.state.explorer import ExplorerModel, new_merge_key
from attention_explorer.ui.i18n.switcher import error_text
from attention_explorer.ui.panels.vector_paste import holds_numbers, parse_paste
from attention_explorer.ui.panels.vector_table import (
    QUERY_ROW,
    SWATCH_WIDTH,
    KeepTypingDelegate,
    VectorTableModel,
)
from attention_explorer.ui.panels.vector_view import VectorTable
from attention_explorer.ui.style.numbers import MINUS, row_cells, three_decimals, tooltip_number
from attention_explorer.ui.style.safe_text import literal, mnemonic_free, plain_label
from attention_explorer.ui.style.theme import theme

_translate = QCoreApplication.translate  # lupdate: -tr-function-alias translate+=_translate

# The panel asks for the width of the name column and this many number columns, so a 2-D scenario's table
# (Q/K 0, Q/K 1, V 0, V 1) is never cut at the panel's edge (the Chinese UI left it ~30 px too narrow),
# but never asks for more than MAX_ASKED_WIDTH: wider tables, and big zooms, scroll.
NUMBER_COLUMNS_ASKED_FOR = 4
MAX_ASKED_WIDTH = 400  # more would squeeze the canvas, the lecture's centre, below ~450 px at 1280×720
# A wider window gives the panel the whole table when it takes no more than this share of the window's width:
# the library example's d_k = 4, d_v = 2 table fits whole at 1600×1000; at 1280×720 its Q/K block does, and the
# V columns scroll beside the names, which stay in view.
WHOLE_TABLE_SHARE = 0.36


class VectorEditor(QWidget):
    """Edit Q, every K_i and V_i (and their labels) as numbers; add/remove pairs; set d_k and d_v."""

    hint = Signal(str)
    width_wanted = Signal(int)  # the panel's width that shows the whole table (changes with its columns)

    def __init__(self, model: ExplorerModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("vectorEditor")
        self.model = model
        self._sized_lengths: tuple[int, ...] = ()  # per number column: characters of its widest number
        self._moving_current = False  # True while the panel itself moves the current cell
        self._sized_labels: tuple[str, ...] = ()  # labels the name column was sized for

        self.add_button = QPushButton()  # texts of buttons and tooltips: retranslate()
        self.add_button.setObjectName("addPairButton")
        self.remove_button = QPushButton()
        self.remove_button.setObjectName("removePairButton")
        self.d_k_spin = self._dimension_spin("dKSpin")
        self.d_v_spin = self._dimension_spin("dVSpin")

        self.table_model = VectorTableModel(model, self)
        self.table = VectorTable()
        self.table.setObjectName("vectorTable")
        self.table.setModel(self.table_model)
        self.table.setItemDelegate(KeepTypingDelegate(self.table_model, self.table))
        self.table.names.setItemDelegate(KeepTypingDelegate(self.table_model, self.table.names))  # one per view
        # The highlight is the model's selected key (drawn by the table model), not Qt's own selection.
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.table.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked
            | QAbstractItemView.EditTrigger.EditKeyPressed
            | QAbstractItemView.EditTrigger.AnyKeyPressed
        )
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.table.horizontalHeader().setHighlightSections(False)
        self.table.setMouseTracking(True)
        self.table.setWordWrap(False)

        self.message_label = plain_label(QLabel())  # a refused edit may quote the label typed
        self.message_label.setObjectName("vectorEditorMessage")
        self.message_label.setWordWrap(True)
        self.message_label.hide()
        self.truncation_label = QLabel()
        self.truncation_label.setObjectName("vectorEditorTruncation")
        self.truncation_label.setWordWrap(True)

        pairs = QHBoxLayout()
        pairs.setSpacing(8)
        pairs.addWidget(self.add_button)
        pairs.addWidget(self.remove_button)
        pairs.addStretch(1)
        dimensions = QHBoxLayout()
        dimensions.setSpacing(6)
        for text, spin in (("d_k", self.d_k_spin), ("d_v", self.d_v_spin)):
            label = QLabel(text)
            label.setBuddy(spin)
            dimensions.addWidget(label)
            dimensions.addWidget(spin)
            dimensions.addSpacing(12)
        dimensions.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.setSpacing(6)
        layout.addLayout(pairs)
        layout.addWidget(self.table, 1)
        layout.addLayout(dimensions)
        layout.addWidget(self.truncation_label)
        layout.addWidget(self.message_label)

        self.add_button.clicked.connect(self._add_pair)
        self.remove_button.clicked.connect(self._remove_pair)
        self.d_k_spin.valueChanged.connect(self._set_d_k)
        self.d_v_spin.valueChanged.connect(self._set_d_v)
        self.table.selectionModel().currentChanged.connect(self._current_changed)
        self._hovered: QPersistentModelIndex | None = None  # the cell whose value the status bar tells
        self.table.entered.connect(self._hover)
        self.table.names.entered.connect(self._hover)
        self.table.names.selectionModel().currentChanged.connect(self._current_changed)
        self.table.viewport().installEventFilter(self)
        self.table.names.viewport().installEventFilter(self)
        self.table.left.connect(lambda: self.hint.emit(""))
        self.table.paste_requested.connect(self.paste_from_clipboard)
        self.table.copy_requested.connect(self.copy_current_row)
        self.table.names.paste_requested.connect(self.paste_at_name)
        self.table.names.copy_requested.connect(self.copy_current_row)
        self.table_model.refused.connect(self.show_error)
        self.table_model.committed.connect(self.clear_message)
        self.table_model.row_typed.connect(self.fill_row_from)
        model.opened.connect(self.clear_message)  # a refusal speaks of the scene it was made in, not of the next
        model.changed.connect(self._update)
        model.selection_changed.connect(self._update_selection)
        theme().changed.connect(self._apply_theme)

        self._apply_theme()
        self.retranslate()  # also draws the model's state
        self._move_current_to(model.selected_key, 1)

    def _dimension_spin(self, name: str) -> QSpinBox:
        spin = QSpinBox()
        spin.setObjectName(name)
        spin.setRange(1, MAX_DIM)
        spin.setKeyboardTracking(False)  # typing "128" commits 128 once, not 1, 12 and 128
        spin.setAccelerated(True)
        return spin

    def retranslate(self) -> None:
        """Every static text in the current language, then the model's state in it (again on LanguageChange)."""
        self.add_button.setText(_translate("VectorEditor", "+ Add pair"))
        self.add_button.setToolTip(_translate("VectorEditor", "Append a key–value pair of zeros"))
        zeros = _translate("VectorEditor", " (new components are zeros)")
        self.d_k_spin.setToolTip(_translate(
            "VectorEditor", "d_k: components of Q and of every key (new ones follow the fill of the scale panel)"))
        self.d_v_spin.setToolTip(_translate("VectorEditor", "d_v: components of every value") + zeros)
        columns = self.table_model.columnCount()
        if columns:
            self.table_model.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, columns - 1)
        self._sized_lengths = ()  # the columns fit their header texts too, and those changed
        self._update()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def _width_for(self, columns: int) -> int:
        """The panel's width that shows the first `columns` columns of the table whole."""
        # The vertical scroll bar counts even while hidden: adding keys until it shows must not cut a column.
        scroll_bar = self.table.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent, None, self.table)
        margins = self.layout().contentsMargins()
        table = sum(self.table.columnWidth(column) for column in range(columns)) + 2 * self.table.frameWidth()
        return table + scroll_bar + margins.left() + margins.right()

    def minimumSizeHint(self) -> QSize:
        hint = super().minimumSizeHint()
        wanted = self._width_for(min(self.table_model.columnCount(), 1 + NUMBER_COLUMNS_ASKED_FOR))
        return QSize(max(hint.width(), min(wanted, MAX_ASKED_WIDTH)), hint.height())

    def whole_table_width(self) -> int:
        """The panel's width that shows every column of the table (the window gives it when it has room)."""
        return max(self.minimumSizeHint().width(), self._width_for(self.table_model.columnCount()))

    # ------------------------------------------------------------ look

    def _apply_theme(self) -> None:
        # Slightly larger than body text, not readout size: a 2-D scenario (2 + 2 columns) must fit the
        # ~370-pixel-wide dock of a 1280×720 window without scrolling; the big readouts live elsewhere.
        number_font = QFont(self.font())
        number_font.setPointSizeF(theme().font_pt() * 1.1)
        self.table.setFont(number_font)
        header_font = QFont(self.font())
        header_font.setPointSizeF(theme().font_pt())
        self.table.horizontalHeader().setFont(header_font)
        metrics = QFontMetrics(number_font)
        self.table.verticalHeader().setDefaultSectionSize(metrics.height() + 12)
        self.table.place_names()
        error_colour = theme().error_hex()
        self._error_style = f"color: {error_colour}; font-weight: bold;"
        self._info_style = "color: palette(text);"
        self.table_model.clear_swatches()
        self._sized_lengths = ()
        self._size_columns()
        self.table_model.refresh_all()

    def _size_columns(self) -> None:
        """Give each number column the width of its widest number, drawn bold (only when that width changes).

        Any row can become the selected, bold one, so every column is sized for bold text: sized for the
        regular font, the selected key's "-0.600" came out as "-0.6...". Each column keeps room for a minus
        sign whether or not it holds a negative number, so a drag across zero never makes the columns jump.
        """
        scenario = self.model.scenario
        shown_k, shown_v = self.table_model.shown_components()
        widest = np.concatenate((
            np.maximum(np.abs(scenario.query[:shown_k]), np.max(np.abs(scenario.keys[:, :shown_k]), axis=0)),
            np.max(np.abs(scenario.values[:, :shown_v]), axis=0),
        ))
        lengths = tuple(len(three_decimals(float(value))) for value in widest)
        if lengths == self._sized_lengths:
            return
        self._sized_lengths = lengths
        bold = QFontMetricsF(self._bold_table_font())
        digit = max("0123456789", key=bold.horizontalAdvance)  # the widest digit stands for every digit
        header_metrics = QFontMetricsF(self.table.horizontalHeader().font())
        padding = self._cell_padding()
        for column, length in enumerate(lengths, start=1):
            widest_text = MINUS + digit * (length - 4) + "." + digit * 3  # the typographic minus the cells show
            header = str(self.table_model.headerData(column, Qt.Orientation.Horizontal))
            width = max(
                math.ceil(bold.horizontalAdvance(widest_text)) + padding,
                math.ceil(header_metrics.horizontalAdvance(header)) + 12,
            )
            self.table.setColumnWidth(column, width)
        self._size_name_column()  # also tells the layout the panel's new minimum width

    def _bold_table_font(self) -> QFont:
        """The table's font as the selected key's row draws it."""
        bold = QFont(self.table.font())
        bold.setBold(True)
        return bold

    def _cell_padding(self) -> int:
        """Pixels of a column that its text never gets: the style's text margin on both sides, the grid line."""
        margin = self.table.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, self.table) + 1
        return 2 * margin + (1 if self.table.showGrid() else 0)

    def _size_name_column(self) -> None:
        self._sized_labels = self.model.scenario.labels
        metrics = QFontMetricsF(self._bold_table_font())  # the selected key's label is bold
        widest = max(metrics.horizontalAdvance(label) for label in (*self._sized_labels, "Q"))
        # The marker sits in its own margins before the text, and a little air keeps the name off the rule.
        margin = self.table.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, self.table) + 1
        needed = math.ceil(widest) + self._cell_padding() + SWATCH_WIDTH + 2 * margin + 4
        header = str(self.table_model.headerData(0, Qt.Orientation.Horizontal))
        header_width = math.ceil(QFontMetricsF(self.table.horizontalHeader().font()).horizontalAdvance(header)) + 12
        self.table.setColumnWidth(0, min(max(needed, header_width), 150))
        self.updateGeometry()
        self.width_wanted.emit(self.whole_table_width())

    # ------------------------------------------------------------ redraw from the model

    def _update(self) -> None:
        scenario = self.model.scenario
        current = self.table.currentIndex()
        reshaped = self.table_model.sync_shape()
        if reshaped:
            self._sized_lengths = ()
            self._size_columns()
            self._move_current_to(self.model.selected_key, current.column() if current.isValid() else 1)
        else:
            self._size_columns()
            self.table_model.refresh()
        if scenario.labels != self._sized_labels:
            self._size_name_column()
        for spin, value in ((self.d_k_spin, scenario.d_k), (self.d_v_spin, scenario.d_v)):
            if spin.value() != value:
                with QSignalBlocker(spin):
                    spin.setValue(value)
        self._update_remove_button()
        if self._hovered is not None and self._hovered.isValid():  # the status bar tells the value now, not before
            self._hover(self.table_model.index(self._hovered.row(), self._hovered.column()))
        shown_k, shown_v = self.table_model.shown_components()
        notes = []
        if shown_k < scenario.d_k:
            notes.append(_translate("VectorEditor", "Q/K: showing {0} of {1} components").format(shown_k, scenario.d_k))
        if shown_v < scenario.d_v:
            notes.append(_translate("VectorEditor", "V: showing {0} of {1} components").format(shown_v, scenario.d_v))
        self.truncation_label.setText(
            "; ".join(notes) + (_translate("VectorEditor", " (paste fills hidden ones too)") if notes else "")
        )
        self.truncation_label.setVisible(bool(notes))

    def _update_selection(self, key: int) -> None:
        self.table_model.refresh()
        self._update_remove_button()
        current = self.table.currentIndex()
        if self.table.state() != QAbstractItemView.State.EditingState and current.row() - 1 != key:
            self._move_current_to(key, current.column() if current.isValid() else 1)
        self.table.scrollTo(self.table_model.index(self.table_model.key_row(key), max(current.column(), 0)))

    def _update_remove_button(self) -> None:
        scenario = self.model.scenario
        label = scenario.labels[self.model.selected_key]
        shown = label if len(label) <= 10 else label[:9] + "…"
        self.remove_button.setText(_translate("VectorEditor", "− Remove {0}").format(mnemonic_free(shown)))
        self.remove_button.setEnabled(scenario.n > 1)
        tip = literal(_translate("VectorEditor", "Remove the selected pair “{0}”").format(label) if scenario.n > 1
                           else _translate("VectorEditor", "At least one key–value pair must remain"))
        if self.remove_button.toolTip() != tip:  # setToolTip sends an event even for the same text
            self.remove_button.setToolTip(tip)

    def _move_current_to(self, key: int, column: int) -> None:
        column = min(max(column, 1), self.table_model.columnCount() - 1)  # never the name hidden under the names
        self._moving_current = True
        try:
            self.table.setCurrentIndex(self.table_model.index(self.table_model.key_row(key), column))
        finally:
            self._moving_current = False

    # ------------------------------------------------------------ user input

    def _current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if self._moving_current or not current.isValid() or current.row() == QUERY_ROW:
            return
        key = current.row() - 1
        if key < self.model.scenario.n:
            self.model.select_key(key)

    def eventFilter(self, watched, event) -> bool:
        if watched in (self.table.viewport(), self.table.names.viewport()) and event.type() == QEvent.Type.Leave:
            self._hovered = None  # the mouse left the table: its hint is no longer about a cell
        return super().eventFilter(watched, event)

    def _hover(self, index: QModelIndex) -> None:
        self._hovered = QPersistentModelIndex(index)
        cell = self.table_model.cell(index.row(), index.column())
        if cell is not None:
            self.hint.emit(
                _translate(
                    "VectorEditor", "{0} component {1} = {2} — type to edit, Ctrl+V pastes spreadsheet rows"
                ).format(
                    self.table_model.vector_name(cell.role, cell.index),
                    cell.component,
                    tooltip_number(float(sc.vector(self.model.scenario, cell.role, cell.index)[cell.component])),
                )
            )
        elif index.column() == 0 and index.row() != QUERY_ROW:
            self.hint.emit(_translate("VectorEditor", "Click to select this key, double-click to rename it"))
        else:
            self.hint.emit("")

    def _add_pair(self) -> None:
        try:
            self.model.add_pair()
        except ScenarioError as error:
            self.show_error(error_text(error))
            return
        self.clear_message()

    def _remove_pair(self) -> None:
        try:
            self.model.remove_pair(self.model.selected_key)
        except ScenarioError as error:
            self.show_error(error_text(error))
            return
        self.clear_message()

    def _set_d_k(self, value: int) -> None:
        self._set_dimension(self.model.set_d_k, value)

    def _set_d_v(self, value: int) -> None:
        self._set_dimension(self.model.set_d_v, value)

    def _set_dimension(self, setter, value: int) -> None:
        try:
            setter(value)
        except ScenarioError as error:
            self.show_error(error_text(error))
            self._update()  # the spin box shows the model's value again
            return
        self.clear_message()

    # ------------------------------------------------------------ messages

    def show_error(self, text: str) -> None:
        """Show a refused edit in the panel (and in the status bar)."""
        self.message_label.setStyleSheet(self._error_style)
        self.message_label.setText(text)
        self.message_label.show()
        self.hint.emit(text)

    def show_info(self, text: str) -> None:
        """Show a neutral note in the panel."""
        self.message_label.setStyleSheet(self._info_style)
        self.message_label.setText(text)
        self.message_label.show()
        self.hint.emit(text)

    def clear_message(self) -> None:
        """Hide the message line."""
        self.message_label.clear()
        self.message_label.hide()

    # ------------------------------------------------------------ clipboard

    def _flat_start(self, row: int, column: int) -> int:
        """Position in the row's [K components…, V components…] sequence where a paste at `column` starts."""
        shown_k, _ = self.table_model.shown_components()
        if column <= 0:
            return 0
        if column <= shown_k:
            return column - 1
        return self.model.scenario.d_k + column - 1 - shown_k

    def paste_from_clipboard(self) -> None:
        """Paste tab-separated rows at the current cell: all numbers are checked first, then one undo step."""
        current = self.table.currentIndex()
        start_row = current.row() if current.isValid() else self.table_model.key_row(self.model.selected_key)
        self._paste_numbers(start_row, self._flat_start(start_row, current.column() if current.isValid() else 1))

    def paste_at_name(self, row: int) -> None:
        """Ctrl+V on a key's name: numbers fill that row from its first number on; a text without numbers renames
        the key (one line: its line breaks and tabs become spaces)."""
        text = QGuiApplication.clipboard().text()
        if row != QUERY_ROW and text.strip() and not holds_numbers(text):
            self.table_model.setData(self.table_model.index(row, 0), " ".join(text.split()))
            return
        self._paste_numbers(row, 0)

    def _paste_numbers(self, start_row: int, start: int) -> None:
        text = QGuiApplication.clipboard().text()
        try:
            edits, row_count, column_count = parse_paste(text, self.model.scenario, start_row, start)
        except ValueError as error:
            self.show_error(_translate("VectorEditor", "Paste refused, nothing changed: {0}").format(error))
            return
        if self._apply_paste(edits):
            self.show_info(_translate("VectorEditor", "Pasted {0} × {1} numbers (one undo step).").format(
                row_count, column_count))

    def fill_row_from(self, row: int, column: int, text: str) -> None:
        """Several numbers typed into one cell ("２，３", "2, 3"): they fill that cell and the ones to its right, in
        one undo step, or, if they do not fit before the row's end, nothing changes and the message says why."""
        start = self._flat_start(row, column)
        scenario = self.model.scenario
        width = scenario.d_k if row == QUERY_ROW else scenario.d_k + scenario.d_v
        count = len(row_cells(text))
        if start + count > width:
            self.show_error(_translate(
                "VectorEditor", "{0} numbers typed, but only {1} fit from this cell to the end of the row: "
                "nothing changed."
            ).format(count, width - start))
            return
        try:
            edits, _rows, _columns = parse_paste(text, scenario, row, start)
        except ValueError as error:
            self.show_error(_translate("VectorEditor", "Typed numbers refused, nothing changed: {0}").format(error))
            return
        if self._apply_paste(edits):
            self.show_info(_translate(
                "VectorEditor", "{0} numbers typed: they fill this cell and the ones to its right (one undo step)."
            ).format(count))

    def _apply_paste(self, edits: dict) -> bool:
        """Every checked vector of a paste, as one undo step; False (and a message) if the core refused one."""
        merge_key = new_merge_key()
        try:
            for (role, index), numbers in edits.items():
                self.model.set_vector(role, index, numbers, merge_key)
        except ScenarioError as error:  # cannot happen after parse_paste's check; never leave half a paste
            self.show_error(_translate("VectorEditor", "Paste refused: {0}").format(error_text(error)))
            return False
        finally:
            self.model.finish_gesture(merge_key)
        return True

    def copy_current_row(self, row: int | None = None) -> None:
        """Copy a row (None: the current cell's; all its components, full precision) as tab-separated text."""
        if row is None:
            current = self.table.currentIndex()
            if not current.isValid():
                return
            row = current.row()
        scenario = self.model.scenario
        if row == QUERY_ROW:
            numbers = list(scenario.query)
        else:
            numbers = [*scenario.keys[row - 1], *scenario.values[row - 1]]
        QGuiApplication.clipboard().setText("\t".join(repr(float(x)) for x in numbers))
        self.show_info(_translate("VectorEditor", "Copied {0} numbers of the current row.").format(len(numbers)))
