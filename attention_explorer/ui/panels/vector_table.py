"""The vector editor's table: the Qt item model of Q, every K_i and V_i, its cell delegate and its view.

The table model reads `ExplorerModel.scenario` on every paint and keeps no numbers of its own; edits go
through the model's edit methods, so they are undoable and every other panel follows.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import (
    QAbstractTableModel,
    QCoreApplication,
    QEvent,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    Signal,
)
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QKeySequence,
    QPainter,
    QPen,
    QPixmap,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QLineEdit,
    QStyledItemDelegate,
    QTableView,
    QWidget,
)

from attention_explorer.core.limits import MAX_LABEL, ScenarioError
from attention_explorer.core.scenes.query import scene as sc
from attention_explorer.state.explorer import ExplorerModel
from attention_explorer.ui.i18n.switcher import error_text
from attention_explorer.ui.style.numbers import (
    parse_number,
    row_cells,
    three_decimals,
    tooltip_number,
    typographic_minus,
)
from attention_explorer.ui.style.safe_text import literal
from attention_explorer.ui.style.theme import key_color, query_color, theme

_translate = QCoreApplication.translate  # lupdate: -tr-function-alias translate+=_translate

# Thousands of columns make a QTableView crawl (and nobody reads them): show the first few, say so.
SHOWN_COMPONENTS = 16
SWATCH_WIDTH = 12  # the colour marker beside each name
QUERY_ROW = 0
# Components are numbered from 0 in headers and messages, as on the canvas's axes ("component 0", "component 1");
# rows and columns of a pasted block are counted from 1, as a spreadsheet does.


@dataclass(frozen=True)
class Cell:
    """What one number cell of the table edits: Q (role "query"), K_index or V_index, one component."""

    role: str
    index: int
    component: int


def _runs(rows: list[int]) -> list[tuple[int, int]]:
    """Sorted row numbers as (first, last) runs of consecutive rows: [1, 2, 5] → [(1, 2), (5, 5)]."""
    runs: list[tuple[int, int]] = []
    for row in rows:
        if runs and runs[-1][1] == row - 1:
            runs[-1] = (runs[-1][0], row)
        else:
            runs.append((row, row))
    return runs


class VectorTableModel(QAbstractTableModel):
    """Rows: Q, then one row per key–value pair. Columns: name | shown K components | shown V components."""

    refused = Signal(str)  # an edit was refused: the message says why
    committed = Signal()  # an edit typed into a cell went through
    row_typed = Signal(int, int, str)  # several numbers typed into one cell (row, column, text): they fill a row

    def __init__(self, model: ExplorerModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._model = model
        # The table's shape as last announced to the views (Qt needs it stable between resets).
        self._pairs, self._shown_k, self._shown_v = self._wanted_shape()
        self._swatches: dict[tuple[str, bool], QPixmap] = {}
        self._bold = QFont()
        self._bold.setBold(True)
        self._shown: tuple | None = None  # what the cells showed at the last refresh (see `_shown_state`)

    # ------------------------------------------------------------ shape

    def _wanted_shape(self) -> tuple[int, int, int]:
        scenario = self._model.scenario
        return scenario.n, min(scenario.d_k, SHOWN_COMPONENTS), min(scenario.d_v, SHOWN_COMPONENTS)

    def shown_components(self) -> tuple[int, int]:
        """How many K and V components are columns."""
        return self._shown_k, self._shown_v

    def sync_shape(self) -> bool:
        """Reset the table if the number of pairs or of shown components changed; True if it did."""
        wanted = self._wanted_shape()
        if wanted == (self._pairs, self._shown_k, self._shown_v):
            return False
        self.beginResetModel()
        self._pairs, self._shown_k, self._shown_v = wanted
        self._shown = None
        self.endResetModel()
        return True

    def _shown_state(self) -> tuple:
        """What the cells' text and highlight are drawn from: the shown components, the labels, the selected key."""
        scenario = self._model.scenario
        numbers = np.concatenate([scenario.keys[:, :self._shown_k], scenario.values[:, :self._shown_v]], axis=1)
        return scenario.query[:self._shown_k].copy(), numbers, scenario.labels, self._model.selected_key

    def refresh(self) -> None:
        """Repaint the rows whose numbers, label or highlight changed (a drag move changes one), keeping the layout,
        editors and current cell. Repainting every row cost ~1.5 ms of a drag move's frame: each cell asks `data`
        for eight roles."""
        state = self._shown_state()
        rows = self._changed_rows(state)
        self._shown = state
        columns = self.columnCount()
        if not columns:
            return
        for first, last in _runs(rows):
            self.dataChanged.emit(self.index(first, 0), self.index(last, columns - 1))

    def refresh_all(self) -> None:
        """Every cell may look different (a new theme): repaint them all."""
        self._shown = None
        self.refresh()

    def _changed_rows(self, state: tuple) -> list[int]:
        """Table rows that show something else in `state` than at the last refresh (all rows after a reset)."""
        if self._shown is None or self._shown[1].shape != state[1].shape:
            return list(range(self.rowCount()))
        query, numbers, labels, selected = state
        old_query, old_numbers, old_labels, old_selected = self._shown
        rows = set((np.flatnonzero(np.any(numbers != old_numbers, axis=1)) + 1).tolist())
        if not np.array_equal(query, old_query):
            rows.add(QUERY_ROW)
        if labels != old_labels:
            rows.update(i + 1 for i, (new, old) in enumerate(zip(labels, old_labels)) if new != old)
        if selected != old_selected:
            rows.update(self.key_row(key) for key in (selected, old_selected) if 0 <= key < self._pairs)
        return sorted(row for row in rows if row < self.rowCount())

    def key_row(self, key: int) -> int:
        """Table row of key `key`."""
        return key + 1

    def value_column(self, component: int) -> int:
        """Table column of V component `component` (must be shown)."""
        return 1 + self._shown_k + component

    def cell(self, row: int, column: int) -> Cell | None:
        """The number a cell edits, or None for name cells and the empty V cells of the Q row."""
        if column <= 0 or row < 0 or row > self._pairs:
            return None
        if column <= self._shown_k:
            role = "query" if row == QUERY_ROW else "key"
            return Cell(role, max(row - 1, 0), column - 1)
        if row == QUERY_ROW or column > self._shown_k + self._shown_v:
            return None
        return Cell("value", row - 1, column - 1 - self._shown_k)

    def _number(self, cell: Cell) -> float:
        return float(sc.vector(self._model.scenario, cell.role, cell.index)[cell.component])

    def vector_name(self, role: str, index: int) -> str:
        """How messages name a vector: Q, "key K2" or "value K2"."""
        if role == "query":
            return "Q"
        label = self._model.scenario.labels[index]
        return (
            _translate("VectorEditor", "key {0}").format(label)
            if role == "key"
            else _translate("VectorEditor", "value {0}").format(label)
        )

    # ------------------------------------------------------------ Qt model interface

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else self._pairs + 1

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else 1 + self._shown_k + self._shown_v

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole):
        if orientation != Qt.Orientation.Horizontal:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            if section == 0:
                return _translate("VectorEditor", "Name")
            if section <= self._shown_k:
                return _translate("VectorEditor", "Q/K {0}").format(section - 1)
            return _translate("VectorEditor", "V {0}").format(section - 1 - self._shown_k)
        if role == Qt.ItemDataRole.ToolTipRole:
            if section == 0:
                return _translate("VectorEditor", "The key–value pair's label (double-click to rename)")
            if section <= self._shown_k:
                return _translate("VectorEditor", "Component {0} of Q and of every key K").format(section - 1)
            return _translate("VectorEditor", "Component {0} of every value V").format(section - 1 - self._shown_k)
        return None

    def flags(self, index: QModelIndex | QPersistentModelIndex) -> Qt.ItemFlag:
        enabled = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        if index.column() == 0:
            return enabled if index.row() == QUERY_ROW else enabled | Qt.ItemFlag.ItemIsEditable
        if self.cell(index.row(), index.column()) is None:
            return Qt.ItemFlag.ItemIsEnabled
        return enabled | Qt.ItemFlag.ItemIsEditable

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or index.row() > self._model.scenario.n:
            return None
        row, column = index.row(), index.column()
        selected = row != QUERY_ROW and row - 1 == self._model.selected_key
        if role == Qt.ItemDataRole.BackgroundRole:
            if selected:
                tint = QColor(key_color(row - 1))
                tint.setAlpha(80)
                return QBrush(tint)
            if row == QUERY_ROW:
                shade = QColor(theme().foreground())
                shade.setAlpha(14 if column <= self._shown_k else 28)
                return QBrush(shade)
            return None
        if role == Qt.ItemDataRole.FontRole:
            return self._bold if selected or (column == 0 and row == QUERY_ROW) else None
        if column == 0:
            return self._name_data(row, role, selected)
        cell = self.cell(row, column)
        if cell is None:
            return None
        if role == Qt.ItemDataRole.DisplayRole:  # the minus sign, as wide as "+"; the editor reads it back
            return typographic_minus(three_decimals(self._number(cell)))
        if role == Qt.ItemDataRole.EditRole:
            return repr(self._number(cell))  # full precision, shortest form that reads back exactly
        if role == Qt.ItemDataRole.ToolTipRole:
            return literal(_translate("VectorEditor", "{0} component {1} = {2}").format(
                self.vector_name(cell.role, cell.index), cell.component, tooltip_number(self._number(cell))
            ))
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def _name_data(self, row: int, role: int, selected: bool):
        scenario = self._model.scenario
        label = "Q" if row == QUERY_ROW else scenario.labels[row - 1]
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            return label
        if role == Qt.ItemDataRole.DecorationRole:
            colour = query_color() if row == QUERY_ROW else key_color(row - 1)
            return self._swatch(colour, selected)
        if role == Qt.ItemDataRole.ToolTipRole:
            if row == QUERY_ROW:
                return _translate("VectorEditor", "The query Q")
            return literal(_translate(
                "VectorEditor", "Key K and value V of “{0}” (click to select, double-click to rename)"
            ).format(label))
        return None

    def _swatch(self, colour: QColor, selected: bool) -> QPixmap:
        """A colour marker: a filled bar, with a dark outline for the selected key."""
        cache_key = (colour.name(), selected)
        pixmap = self._swatches.get(cache_key)
        if pixmap is None:
            pixmap = QPixmap(SWATCH_WIDTH, 22)
            pixmap.fill(Qt.GlobalColor.transparent)
            painter = QPainter(pixmap)
            painter.setRenderHint(QPainter.RenderHint.Antialiasing)
            painter.setBrush(colour)
            outline = QColor(theme().foreground()) if selected else colour
            painter.setPen(outline)
            painter.drawRoundedRect(1, 1, SWATCH_WIDTH - 2, 20, 3, 3)
            painter.end()
            self._swatches[cache_key] = pixmap
        return pixmap

    def clear_swatches(self) -> None:
        """Forget cached markers (the theme's colours changed)."""
        self._swatches.clear()

    def setData(self, index: QModelIndex | QPersistentModelIndex, value, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if role != Qt.ItemDataRole.EditRole or not index.isValid():
            return False
        text = str(value)
        if index.column() == 0:
            return self._set_label(index.row(), text)
        cell = self.cell(index.row(), index.column())
        if cell is None:
            return False
        if len(row_cells(text)) > 1:  # "２，３", "2, 3", "２、３": a row typed into a cell fills it and those after
            self.row_typed.emit(index.row(), index.column(), text)
            return False
        place = _translate("VectorEditor", "{0} component {1}").format(
            self.vector_name(cell.role, cell.index), cell.component
        )
        try:
            number = parse_number(text)
        except ValueError as error:
            self.refused.emit(
                _translate("VectorEditor", "{0}: {1} — kept {2}.").format(
                    place, error, three_decimals(self._number(cell))
                )
            )
            return False
        try:
            self._model.set_component(cell.role, cell.index, cell.component, number)
        except ScenarioError as error:
            self.refused.emit(_translate("VectorEditor", "{0}: {1}").format(place, error_text(error)))
            return False
        self.committed.emit()
        return True

    def _set_label(self, row: int, text: str) -> bool:
        if row == QUERY_ROW:
            return False
        label = text.strip()
        if not label:
            self.refused.emit(
                _translate("VectorEditor", "A label cannot be empty — kept “{0}”.").format(
                    self._model.scenario.labels[row - 1]
                )
            )
            return False
        if len(label) > MAX_LABEL:
            self.refused.emit(_translate("VectorEditor", "A label has at most {0} characters.").format(MAX_LABEL))
            return False
        try:
            self._model.set_label(row - 1, label)
        except ScenarioError as error:
            self.refused.emit(error_text(error))
            return False
        self.committed.emit()
        return True


class KeepTypingDelegate(QStyledItemDelegate):
    """Line-edit delegate that never overwrites what the user is typing when the model redraws.

    It also draws a rule left of the first V column, so Q/K and V read as two blocks.
    """

    def __init__(self, table_model: VectorTableModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._table_model = table_model

    def paint(self, painter: QPainter, option, index: QModelIndex | QPersistentModelIndex) -> None:
        super().paint(painter, option, index)
        shown_k, _ = self._table_model.shown_components()
        if index.column() in (0, 1, shown_k + 1):  # the name column's right edge too: seen when scrolled
            painter.save()
            painter.setPen(QPen(theme().foreground(), 2))
            edge = option.rect.right() + 1 if index.column() == 0 else option.rect.left()
            painter.drawLine(edge, option.rect.top(), edge, option.rect.bottom())
            painter.restore()

    def setEditorData(self, editor: QWidget, index: QModelIndex | QPersistentModelIndex) -> None:
        if isinstance(editor, QLineEdit) and editor.isModified():
            return
        super().setEditorData(editor, index)


_Move = QAbstractItemView.CursorAction


class NameColumn(QTableView):
    """The name column, laid over the table's first column so that it stays in view when the numbers scroll
    sideways (Qt's "frozen column"). A click on a name selects that key; typing there renames it, in the cell
    the user sees; Tab and → leave it for the row's first number cell."""

    leave_to_numbers = Signal(int)  # the row whose first number cell takes the focus

    def __init__(self, table: QTableView) -> None:
        super().__init__(table)
        self.setObjectName("vectorNames")
        self.verticalHeader().hide()
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked
            | QAbstractItemView.EditTrigger.EditKeyPressed
            | QAbstractItemView.EditTrigger.AnyKeyPressed
        )
        self.setMouseTracking(True)
        self.setWordWrap(False)
        self.horizontalHeader().setHighlightSections(False)

    def show_only_names(self) -> None:
        """Hide every column but the first (again after the table's shape changed)."""
        model = self.model()
        for column in range(1, model.columnCount() if model is not None else 0):
            self.setColumnHidden(column, True)

    def keyPressEvent(self, event) -> None:
        current = self.currentIndex()
        if current.isValid() and event.key() in (Qt.Key.Key_Tab, Qt.Key.Key_Backtab, Qt.Key.Key_Right):
            self.leave_to_numbers.emit(current.row())
            event.accept()
            return
        super().keyPressEvent(event)
        if self.state() == QAbstractItemView.State.EditingState:
            # The key went to the name's editor (Qt leaves the event ignored): the table below must not take it
            # too, or it opened its own editor on the number cell and the name's closed.
            event.accept()

    def focusNextPrevChild(self, _next: bool) -> bool:
        return False  # Tab is handled above: it goes to the numbers


class VectorTable(QTableView):
    """The table view: Ctrl+V pastes spreadsheet rows, Ctrl+C copies the current row.

    Its name column stays in view (a NameColumn over it); Tab and Shift+Tab walk the number cells only, row
    after row, and wrap; the current cell is never the name cell hidden under that column, so what is typed
    lands in the cell drawn with the focus.
    """

    paste_requested = Signal()
    copy_requested = Signal()
    left = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.names = NameColumn(self)
        self.setHorizontalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.viewport().stackUnder(self.names)
        self.verticalScrollBar().valueChanged.connect(self.names.verticalScrollBar().setValue)
        self.names.verticalScrollBar().valueChanged.connect(self.verticalScrollBar().setValue)
        self.horizontalHeader().sectionResized.connect(self._column_resized)
        self.horizontalScrollBar().valueChanged.connect(self._snap_to_column)
        self.names.leave_to_numbers.connect(self._enter_numbers)

    def setModel(self, model) -> None:
        super().setModel(model)
        self.names.setModel(model)
        model.modelReset.connect(self._reset)
        for signal in (model.columnsInserted, model.layoutChanged):
            signal.connect(self._reshaped)
        self._reshaped()

    def _reset(self) -> None:
        self._end_room = 0  # a reset gave every column its default width
        self._reshaped()

    def _reshaped(self, *_args) -> None:
        self.names.show_only_names()
        self.place_names()

    def _column_resized(self, column: int, _old: int, _new: int) -> None:
        if column == 0:
            self.place_names()

    def place_names(self) -> None:
        """Lay the name column over the first column: its width, the header's height, the rows, the scroll."""
        header = self.horizontalHeader()
        self.names.setColumnWidth(0, self.columnWidth(0))
        self.names.horizontalHeader().setFont(header.font())
        self.names.horizontalHeader().setFixedHeight(header.height())
        self.names.verticalHeader().setDefaultSectionSize(self.verticalHeader().defaultSectionSize())
        frame = self.frameWidth()
        self.names.setGeometry(frame, frame, self.columnWidth(0), header.height() + self.viewport().height())
        self.names.verticalScrollBar().setValue(self.verticalScrollBar().value())

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self.place_names()

    def updateGeometries(self) -> None:
        super().updateGeometries()
        self._align_scroll_end()
        self.place_names()

    # Scrolled sideways, a number column always starts right at the names' edge: no sliver of a cut number
    # beside them. The scroll stops at column starts, and the last column takes the few pixels more (at the left
    # of its right-aligned numbers) that make the scroll's end such a start too.

    def setColumnWidth(self, column: int, width: int) -> None:
        if column == self.horizontalHeader().count() - 1:
            width += self._end_room
        super().setColumnWidth(column, width)

    def sized_width(self, column: int) -> int:
        """The column's width as its numbers asked for it (without the room that aligns the scroll's end)."""
        room = self._end_room if column == self.horizontalHeader().count() - 1 else 0
        return self.columnWidth(column) - room

    _end_room = 0
    _aligning = False

    def _column_stops(self) -> list[int]:
        """Horizontal scroll positions at which a number column starts just right of the name column."""
        header = self.horizontalHeader()
        return [header.sectionPosition(column) - self.columnWidth(0) for column in range(1, header.count())]

    def _align_scroll_end(self) -> None:
        header = self.horizontalHeader()
        last = header.count() - 1
        if last < 1 or self._aligning:
            return
        end = header.length() - self._end_room - self.viewport().width()  # the scroll's end without the room
        room = 0 if end <= 0 else min((at for at in self._column_stops() if at >= end), default=end) - end
        if room != self._end_room:
            sized = self.sized_width(last)
            self._end_room = room
            self._aligning = True
            try:
                super().setColumnWidth(last, sized + room)
            finally:
                self._aligning = False

    def _snap_to_column(self, value: int) -> None:
        bar = self.horizontalScrollBar()
        stops = [at for at in self._column_stops() if at <= bar.maximum()]
        if stops and value not in stops:
            bar.setValue(min(stops, key=lambda at: abs(at - value)))

    def _editable(self, row: int, column: int) -> bool:
        return bool(self.model().flags(self.model().index(row, column)) & Qt.ItemFlag.ItemIsEditable)

    def _number_cell_after(self, row: int, column: int, step: int) -> QModelIndex:
        """The next (step 1) or previous (step −1) editable number cell in reading order, wrapping around."""
        model = self.model()
        columns = model.columnCount() - 1  # number columns 1…columns
        count = model.rowCount() * columns
        position = row * columns + max(column, 1) - 1
        for _ in range(count):
            position = (position + step) % count
            found_row, found_column = divmod(position, columns)
            if self._editable(found_row, found_column + 1):
                return model.index(found_row, found_column + 1)
        return QModelIndex()

    def moveCursor(self, action, modifiers) -> QModelIndex:
        current = self.currentIndex()
        if current.isValid() and action in (_Move.MoveNext, _Move.MovePrevious):
            found = self._number_cell_after(current.row(), current.column(), 1 if action == _Move.MoveNext else -1)
            return found if found.isValid() else current
        if current.isValid() and action == _Move.MoveLeft and current.column() <= 1:
            self._enter_names(current.row())  # a name is reached with ← (never with Tab)
            return current
        moved = super().moveCursor(action, modifiers)
        if moved.isValid() and moved.column() == 0:
            moved = self.model().index(moved.row(), 1)
        return moved

    def _enter_names(self, row: int) -> None:
        self.names.setCurrentIndex(self.model().index(row, 0))
        self.names.setFocus(Qt.FocusReason.OtherFocusReason)

    def _enter_numbers(self, row: int) -> None:
        self.setCurrentIndex(self.model().index(row, 1))
        self.setFocus(Qt.FocusReason.TabFocusReason)

    def edit(self, index, trigger=QAbstractItemView.EditTrigger.AllEditTriggers, event=None):
        # A name is edited where it is drawn, in the name column over the table, not in the cell hidden under it.
        if index.isValid() and index.column() == 0:
            self._enter_names(index.row())
            return self.names.edit(index, trigger, event)
        return super().edit(index, trigger, event)

    def scrollTo(self, index, hint=QAbstractItemView.ScrollHint.EnsureVisible) -> None:
        bar = self.horizontalScrollBar()
        if index.isValid() and index.column() == 0:  # a name is always in view: scroll up or down only
            kept = bar.value()
            super().scrollTo(index, hint)
            bar.setValue(kept)
            return
        super().scrollTo(index, hint)
        if index.isValid():  # a cell scrolled to the left edge would sit under the names: bring it out
            hidden = self.columnWidth(0) - self.columnViewportPosition(index.column())
            if hidden > 0:
                bar.setValue(bar.value() - hidden)

    def event(self, event: QEvent) -> bool:
        # Take Ctrl+V/Ctrl+C before any window-wide shortcut does.
        if event.type() == QEvent.Type.ShortcutOverride and (
            event.matches(QKeySequence.StandardKey.Paste) or event.matches(QKeySequence.StandardKey.Copy)
        ):
            event.accept()
            return True
        return super().event(event)

    def keyPressEvent(self, event) -> None:
        if event.matches(QKeySequence.StandardKey.Paste):
            self.paste_requested.emit()
            event.accept()
            return
        if event.matches(QKeySequence.StandardKey.Copy):
            self.copy_requested.emit()
            event.accept()
            return
        super().keyPressEvent(event)

    def leaveEvent(self, event) -> None:
        self.left.emit()
        super().leaveEvent(event)
