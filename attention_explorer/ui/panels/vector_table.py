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
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    Signal,
)
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QPainter,
    QPen,
    QPixmap,
)
from PySide6.QtWidgets import (
    QLineEdit,
    QStyledItemDelegate,
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
