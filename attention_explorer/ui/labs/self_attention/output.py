"""The self-attention lab's output column: V and A·V (N × d_v); hovering output row i tints V by row i of A."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from PySide6.QtCore import QCoreApplication, QEvent, QModelIndex, QObject, Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import QApplication, QLabel, QVBoxLayout, QWidget

from attention_explorer.ui.labs.self_attention.state import SequenceModel
from attention_explorer.ui.labs.self_attention.tables import LAB_NUMBERS, rich_caption
from attention_explorer.ui.style.numbers import cell_number
from attention_explorer.ui.style.safe_text import escaped
from attention_explorer.ui.style.theme import relative_luminance
from attention_explorer.ui.widgets.matrix_table import MatrixTable, MatrixTableModel

WEIGHTED_ROW_HEX = "#F0A800"  # a V row's tint at weight 1 (fades to the table's base colour at weight 0)
SUM_TERMS_SHOWN = 6  # o_i = Σ a_ij v_j written out up to this many terms, the largest first


class WeightedRowsModel(MatrixTableModel):
    """A read-through table whose rows can be tinted by weights (row j as strong as weight j), shown in the header."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.row_weights: np.ndarray | None = None

    def set_row_weights(self, weights: np.ndarray | None) -> None:
        """Tint row j by weights[j] (None: no tint)."""
        self.row_weights = None if weights is None else np.array(weights, dtype=np.float64)
        rows, columns = self.rowCount(), self.columnCount()
        if rows and columns:
            self.dataChanged.emit(self.index(0, 0), self.index(rows - 1, columns - 1),
                                  [Qt.ItemDataRole.BackgroundRole, Qt.ItemDataRole.ForegroundRole])
            self.headerDataChanged.emit(Qt.Orientation.Vertical, 0, rows - 1)

    def row_tint(self, row: int) -> QColor | None:
        """The background of row `row`: the tint blended into the base colour by its weight (None: untinted)."""
        if self.row_weights is None or not 0 <= row < self.row_weights.shape[0]:
            return None
        weight = float(np.clip(self.row_weights[row], 0.0, 1.0))
        base, tint = QApplication.palette().base().color(), QColor(WEIGHTED_ROW_HEX)
        return QColor.fromRgbF(*(b + (t - b) * weight for b, t in
                                 zip(base.getRgbF()[:3], tint.getRgbF()[:3])))

    def data(self, index: QModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        if index.isValid() and role in (Qt.ItemDataRole.BackgroundRole, Qt.ItemDataRole.ForegroundRole):
            tint = self.row_tint(index.row())
            if tint is not None:
                if role == Qt.ItemDataRole.BackgroundRole:
                    return QBrush(tint)
                return QBrush(QColor("#000000" if relative_luminance(tint) > 0.4 else "#FFFFFF"))
        return super().data(index, role)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole):
        name = super().headerData(section, orientation, role)
        if (orientation == Qt.Orientation.Vertical and role == Qt.ItemDataRole.DisplayRole and name is not None
                and self.row_weights is not None and section < self.row_weights.shape[0]):
            return f"{name} ×{cell_number(float(self.row_weights[section]))}"
        return name


class HoverTable(MatrixTable):
    """A read-only matrix table that reports the row under the mouse (−1 when it leaves)."""

    row_hovered = Signal(int)

    def __init__(self, model: MatrixTableModel, parent: QWidget | None = None) -> None:
        super().__init__(model, parent=parent)
        self.setMouseTracking(True)
        self.entered.connect(lambda index: self.row_hovered.emit(index.row()))
        self.viewport().installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.viewport() and event.type() == QEvent.Type.Leave:
            self.row_hovered.emit(-1)
        return super().eventFilter(watched, event)


class OutputColumn(QWidget):
    """V and the output A·V, one row per token; its title and caption go into the lab's grid beside the maps."""

    def __init__(self, model: SequenceModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("outputColumn")
        self.model = model
        tokens = lambda: model.sequence.tokens  # noqa: E731
        self.v_model = WeightedRowsModel(lambda: model.result.values, tokens, "v", LAB_NUMBERS, parent=self)
        self.output_model = MatrixTableModel(lambda: model.result.output, tokens, "o", LAB_NUMBERS, parent=self)
        self.v_table = MatrixTable(self.v_model, parent=self)
        self.v_table.setObjectName("weightedValuesTable")
        self.output_table = HoverTable(self.output_model, parent=self)
        self.output_table.setObjectName("outputTable")
        for table in (self.v_table, self.output_table):
            table.verticalHeader().setDefaultSectionSize(24)  # three rows of each fit beside the maps at 720 px
        self.output_table.row_hovered.connect(model.set_output_hover)
        self.title = QLabel(parent)
        self.title.setObjectName("outputTitle")
        self.title.setTextFormat(Qt.TextFormat.RichText)
        self.title.setWordWrap(True)
        self.caption = rich_caption(parent)
        self.caption.setObjectName("outputCaption")
        self.v_caption = rich_caption(self)
        self.v_caption.setObjectName("weightedValuesCaption")
        self.output_caption = rich_caption(self)
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(3)
        for caption, table in ((self.v_caption, self.v_table), (self.output_caption, self.output_table)):
            column.addWidget(caption)
            column.addWidget(table, 1)

    def refresh(self) -> None:
        """Re-read V and A·V, and their shapes."""
        self.v_model.refresh()
        self.output_model.refresh()
        self.update_texts()

    def update_texts(self) -> None:
        """Shapes and captions in the current language."""
        sequence = self.model.sequence
        n, d_v = sequence.n, sequence.d_v
        shape = "{0} × {1}".format
        self.title.setText(self.tr("<b>Output A·V</b><br/>({0}) · ({1}) = <b>{2}</b>").format(
            shape(n, n), shape(n, d_v), shape(n, d_v)))
        self.title.setToolTip(self.tr("A·V: N×N · N×d_v = N×d_v, one output row per token"))
        self.output_caption.setText(self.tr("<b>A·V</b>: o<sub>i</sub> = Σ<sub>j</sub> a<sub>ij</sub> v<sub>j</sub>"))
        self.caption.setText(self.tr("Hover over an output row: its row of A is outlined and every row of V is "
                                     "tinted by its weight."))
        self.show_row(self.model.output_row)

    def show_row(self, row: int) -> None:
        """Output row `row` tinted, V's rows tinted by row `row` of A (−1: neither)."""
        self.output_model.set_highlighted_row(row)
        sequence, result = self.model.sequence, self.model.result
        self.v_model.set_row_weights(result.weights[row] if row >= 0 else None)
        if row >= 0:
            self.v_caption.setText(self.tr("<b>V</b> tinted by row “{0}” of A").format(escaped(sequence.tokens[row])))
        else:
            self.v_caption.setText(self.tr("<b>V</b>: <b>{0}</b>").format(f"{sequence.n} × {sequence.d_v}"))


def output_sum_html(tokens: Sequence[str], weights: np.ndarray, output: np.ndarray, row: int) -> str:
    """o_i = Σ_j a_ij v_j written out with the largest weights first, and its numbers."""
    order = np.argsort(-weights, kind="stable")
    shown = [j for j in order[:SUM_TERMS_SHOWN] if weights[j] > 0]
    terms = [f"{cell_number(float(weights[j]))}·v<sub>{escaped(tokens[j])}</sub>" for j in shown]
    rest = int(np.count_nonzero(weights > 0)) - len(shown)
    if rest > 0:
        terms.append(QCoreApplication.translate("OutputColumn", "… ({0} more)").format(rest))
    numbers = ", ".join(cell_number(float(v)) for v in output[:SUM_TERMS_SHOWN])
    if output.shape[0] > SUM_TERMS_SHOWN:
        numbers += ", …"
    return QCoreApplication.translate("OutputColumn", "o<sub>{0}</sub> = Σ<sub>j</sub> a<sub>{0}j</sub> v<sub>j</sub>"
                                      " = {1} = <b>[{2}]</b>").format(escaped(tokens[row]), " + ".join(terms), numbers)
