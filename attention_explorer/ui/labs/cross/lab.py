"""Cross-attention lab: queries from the target sentence (a decoder's), keys and values from the source (the encoder's).

The lab keeps its scenario in a CrossModel of its own; clicking a row of either heatmap hands that target token's q
to the explorer as its query, with the source's keys and values. The N_q × N_k matrices are CrossHeatmaps.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from PySide6.QtCore import QEvent, QSignalBlocker, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import (
    QCheckBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSizePolicy,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from attention_explorer.core.limits import ScenarioError
from attention_explorer.core.scenes.cross.scene import CrossScenario, cross_query_scenario
from attention_explorer.core.scenes.sequence.tokens import split_tokens
from attention_explorer.state.explorer import ExplorerModel
from attention_explorer.ui.i18n.switcher import error_text
from attention_explorer.ui.labs.cross.heatmap import CrossHeatmap
from attention_explorer.ui.labs.cross.state import CrossModel, default_cross
from attention_explorer.ui.panels.scenario_info import example_name
from attention_explorer.ui.style.numbers import cell_number, parse_number, parse_number_rows
from attention_explorer.ui.style.safe_text import escaped
from attention_explorer.ui.style.theme import KEY_ROW_HEX, QUERY_ROW_HEX, ROW_TEXT_HEX, theme
from attention_explorer.ui.widgets.lab_message import LabMessage
from attention_explorer.ui.widgets.matrix_table import MatrixTable, MatrixTableModel, TableNumbers

SCORE_COLOURS = ("#2166AC", "#F7F7F7", "#B2182B")
WEIGHT_COLOURS = ("#FFFFFF", "#6BAED6", "#08306B")
EDITABLE = ("target_embeddings", "source_embeddings", "w_q", "w_k", "w_v")


class CrossAttentionLab(QWidget):
    """Target words ask, source words answer: Q from one sentence, K and V from another, one click to the explorer."""

    hint = Signal(str)

    def __init__(self, model: ExplorerModel, parent: QWidget | None = None,
                 cross: CrossScenario | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("crossAttentionLab")
        self.model = model
        self.cross_model = CrossModel(cross if cross is not None else default_cross(), parent=self)
        self._build_controls()
        self._build_tables()
        self._build_maps()
        self._build_layout()
        self.cross_model.changed.connect(self.refresh)
        self.cross_model.hover_changed.connect(self._show_hover)
        theme().changed.connect(self._apply_theme)
        self.retranslate()
        self._apply_theme()

    # ------------------------------------------------------------ building

    def _build_controls(self) -> None:
        self.target_label, self.source_label = QLabel(self), QLabel(self)
        self.target_edit, self.source_edit = QLineEdit(self), QLineEdit(self)
        for edit, side, name in ((self.target_edit, "target_tokens", "targetEdit"),
                                 (self.source_edit, "source_tokens", "sourceEdit")):
            edit.setObjectName(name)
            edit.editingFinished.connect(lambda e=edit, s=side: self._on_typed(e, s))
        self.example_button = QPushButton("I love Beijing → 我 爱 北京", self)
        self.example_button.setObjectName("translationExample")
        self.example_button.clicked.connect(lambda: self._guarded(self.cross_model.use_example, default_cross()))
        self.scale_check = QCheckBox(self)
        self.scale_check.setObjectName("crossScaleCheck")
        self.scale_check.toggled.connect(lambda on: self._guarded(self.cross_model.set_scale, None if on else 1.0))
        self.shapes_label = QLabel(self)
        self.shapes_label.setObjectName("crossShapes")
        self.message_label = LabMessage(self)  # a refusal, or the last thing done
        self.message_label.setObjectName("crossMessage")
        self.dot_label = QLabel(self)
        self.dot_label.setObjectName("crossDot")
        self.dot_label.setMinimumHeight(48)
        for label in (self.shapes_label, self.message_label, self.dot_label):
            label.setTextFormat(Qt.TextFormat.RichText)
            label.setWordWrap(True)

    def _build_tables(self) -> None:
        model = self.cross_model
        target = lambda: model.cross.target_tokens  # noqa: E731
        source = lambda: model.cross.source_tokens  # noqa: E731
        dims = lambda: [f"x{r + 1}" for r in range(model.cross.d_model)]  # noqa: E731
        numbers = TableNumbers(cell_number, parse_number, parse_number_rows, QUERY_ROW_HEX, ROW_TEXT_HEX)
        self.q_model = MatrixTableModel(lambda: model.result.queries, target, "q", numbers, parent=self)
        self.k_model = MatrixTableModel(lambda: model.result.keys, source, "k", numbers, parent=self)
        self.k_model.highlight = QBrush(QColor(KEY_ROW_HEX))
        self.v_model = MatrixTableModel(lambda: model.result.values, source, "v", numbers, parent=self)
        rows = {"target_embeddings": target, "source_embeddings": source, "w_q": dims, "w_k": dims, "w_v": dims}
        self.edit_models: dict[str, MatrixTableModel] = {}
        self.tables: dict[str, MatrixTable] = {}
        for name in EDITABLE:
            table_model = MatrixTableModel(
                lambda n=name: getattr(model.cross, n), rows[name], "x" if "embeddings" in name else name[-1],
                numbers, edit=lambda r, c, value, n=name: self._edit_cell(n, r, c, value), parent=self)
            table_model.error_handler = self._show_error
            self.edit_models[name] = table_model
            self.tables[name] = MatrixTable(table_model, parent=self)
            self.tables[name].setObjectName(f"cross_{name}Table")
        for name, table_model in (("queries", self.q_model), ("keys", self.k_model), ("values", self.v_model)):
            self.tables[name] = MatrixTable(table_model, parent=self)
            self.tables[name].setObjectName(f"cross_{name}Table")
        self.captions = {name: QLabel(self) for name in self.tables}
        for caption in self.captions.values():
            caption.setTextFormat(Qt.TextFormat.RichText)
            caption.setWordWrap(True)
        self.tabs = QTabWidget(self)
        self.tabs.setObjectName("crossTabs")
        self.tabs.setStyleSheet("QTabBar::tab { padding: 4px 10px 6px 10px; }")  # room for the _ of W_Q
        for names in (("queries", "keys", "values"), *((name,) for name in EDITABLE)):
            page = QWidget(self.tabs)
            column = QVBoxLayout(page)
            column.setContentsMargins(4, 4, 4, 4)
            for name in names:
                column.addWidget(self.captions[name])
                column.addWidget(self.tables[name], 1)
            self.tabs.addTab(page, "")

    def _build_maps(self) -> None:
        self.score_map = CrossHeatmap(SCORE_COLOURS, self)
        self.score_map.setObjectName("crossScoreMap")
        self.weight_map = CrossHeatmap(WEIGHT_COLOURS, self)
        self.weight_map.setObjectName("crossWeightMap")
        self.score_title, self.weight_title = QLabel(self), QLabel(self)
        self.weight_caption = QLabel(self)
        for label in (self.score_title, self.weight_title, self.weight_caption):
            label.setTextFormat(Qt.TextFormat.RichText)
            label.setWordWrap(True)
        for heatmap in (self.score_map, self.weight_map):
            heatmap.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
            heatmap.setMinimumSize(200, 180)
            heatmap.cell_hovered.connect(self._on_hovered)
            heatmap.cell_clicked.connect(lambda row, _column: self.use_as_query(row))

    def _build_layout(self) -> None:
        first = QHBoxLayout()
        for label, edit in ((self.target_label, self.target_edit), (self.source_label, self.source_edit)):
            first.addWidget(label)
            first.addWidget(edit, 1)
        first.addWidget(self.example_button)
        first.addWidget(self.scale_check)
        maps = QWidget(self)
        grid = QGridLayout(maps)
        grid.setContentsMargins(0, 0, 0, 0)
        for column, (title, heatmap) in enumerate(((self.score_title, self.score_map),
                                                   (self.weight_title, self.weight_map))):
            title.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignBottom)
            grid.addWidget(title, 0, column)
            grid.addWidget(heatmap, 1, column)
            grid.setColumnStretch(column, 1)
        grid.addWidget(self.weight_caption, 2, 0, 1, 2)
        grid.setRowStretch(1, 1)
        self.splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.splitter.addWidget(self.tabs)
        self.splitter.addWidget(maps)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.setSizes([320, 700])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 6, 8, 6)
        layout.addLayout(first)
        layout.addWidget(self.shapes_label)
        layout.addWidget(self.message_label)
        layout.addWidget(self.splitter, 1)
        layout.addWidget(self.dot_label)

    # ------------------------------------------------------------ public

    def load(self, cross: CrossScenario) -> None:
        """Show a cross-attention scenario (a file or the preset) in the lab."""
        self.cross_model.load_cross(cross)
        self._set_status(self.tr("Opened “{0}”.").format(escaped(example_name(cross.title, cross.target_tokens))))

    def use_as_query(self, index: int) -> None:
        """Target token `index` becomes the explorer's query, against the source's keys and values."""
        cross, result = self.cross_model.cross, self.cross_model.result
        if not 0 <= index < cross.n_q:
            return
        token = cross.target_tokens[index]
        source = " ".join(cross.source_tokens)
        source = source if len(source) <= 300 else source[:300] + "…"
        title = self.tr("“{0}” asks the source").format(token)
        description = self.tr(
            "Cross-attention: the query is row {0} of Q = Y·W_Q, the target token “{1}”; the keys and values are the "
            "rows of K = X·W_K and V = X·W_V, one per source token of “{2}”."
        ).format(index + 1, token, source)
        try:
            self.model.load_scenario(cross_query_scenario(cross, result, index, title, description))
        except ScenarioError as error:
            self._show_error(error_text(error))
            return
        message = self.tr("“{0}” is now the query in the explorer, the source words its keys: drag it on the canvas.")
        self._set_status(message.format(escaped(token)))
        self.hint.emit(message.format(token))

    def idle_hint(self) -> str:
        """What the status bar says while nothing is hovered."""
        return self.tr("Type a target and a source sentence or edit Y, X and the W's; hover a cell for q·k, click a "
                       "row to explore that target word.")

    # ------------------------------------------------------------ input and messages

    def _guarded(self, edit: Callable, *args) -> bool:
        try:
            edit(*args)
        except ScenarioError as error:
            self._show_error(error_text(error))
            self._sync_controls()
            return False
        self._clear_error()
        return True

    def _on_typed(self, edit: QLineEdit, side: str) -> None:
        if split_tokens(edit.text()) != list(getattr(self.cross_model.cross, side)):
            self._guarded(self.cross_model.set_tokens_text, side, edit.text())

    def _edit_cell(self, matrix: str, row: int, column: int, value: float) -> None:
        self.cross_model.set_cell(matrix, row, column, value)
        self._clear_error()

    def _on_hovered(self, row: int, column: int) -> None:
        self.cross_model.set_hover((row, column) if row >= 0 else None)

    def _show_error(self, message: str) -> None:
        self.message_label.show_error(message)
        self.hint.emit(message)

    def _clear_error(self) -> None:
        self.message_label.clear_error()

    def _set_status(self, message: str) -> None:
        self.message_label.set_status(message)

    # ------------------------------------------------------------ drawing

    def _sync_controls(self) -> None:
        cross = self.cross_model.cross
        for edit, tokens in ((self.target_edit, cross.target_tokens), (self.source_edit, cross.source_tokens)):
            with QSignalBlocker(edit):
                if split_tokens(edit.text()) != list(tokens):
                    edit.setText(" ".join(tokens))
        with QSignalBlocker(self.scale_check):
            self.scale_check.setChecked(cross.scale is None)

    def refresh(self) -> None:
        """Redraw every view from the cross model."""
        cross, result = self.cross_model.cross, self.cross_model.result
        self._sync_controls()
        for table_model in (self.q_model, self.k_model, self.v_model, *self.edit_models.values()):
            table_model.refresh()
        # "Scores Q·Kᵀ" (the title, the hover's q·k): the raw scores, in the colours and in the numbers alike; the
        # heatmap writes each cell's number from the matrix it colours.
        peak = math.ceil(float(np.max(np.abs(result.scores))) * 100.0) / 100.0 or 1.0
        self.score_map.show_matrix(result.scores, (-peak, peak), cross.target_tokens, cross.source_tokens, cell_number)
        self.weight_map.show_matrix(result.weights, (0.0, 1.0), cross.target_tokens, cross.source_tokens, cell_number)
        self._update_texts()
        self._show_hover()

    def _update_texts(self) -> None:
        cross, result = self.cross_model.cross, self.cross_model.result
        n_q, n_k, d_model, d_k, d_v = cross.n_q, cross.n_k, cross.d_model, cross.d_k, cross.d_v
        shape = "{0} × {1}".format
        self.shapes_label.setText(self.tr(
            "<b>Q</b> = Y·W<sub>Q</sub>: ({0}) · ({1}) = <b>{2}</b>, from the target &nbsp;·&nbsp; "
            "<b>K</b> = X·W<sub>K</sub>: ({3}) · ({1}) = <b>{4}</b> and <b>V</b> = X·W<sub>V</sub>: ({3}) · ({5}) = "
            "<b>{6}</b>, from the source"
        ).format(shape(n_q, d_model), shape(d_model, d_k), shape(n_q, d_k), shape(n_k, d_model), shape(n_k, d_k),
                 shape(d_model, d_v), shape(n_k, d_v)))
        captions = {
            "queries": self.tr("<b>Q</b> = Y·W<sub>Q</sub>: <b>{0}</b>, one query per target token").format(
                shape(n_q, d_k)),
            "keys": self.tr("<b>K</b> = X·W<sub>K</sub>: <b>{0}</b>, one key per source token").format(
                shape(n_k, d_k)),
            "values": self.tr("<b>V</b> = X·W<sub>V</sub>: <b>{0}</b>, one value per source token").format(
                shape(n_k, d_v)),
            "target_embeddings": self.tr("<b>Y</b>: the target's embeddings, <b>{0}</b> (where the queries come "
                                         "from; type over a number to edit it)").format(shape(n_q, d_model)),
            "source_embeddings": self.tr("<b>X</b>: the source's embeddings, <b>{0}</b> (where the keys and values "
                                         "come from)").format(shape(n_k, d_model)),
            "w_q": self.tr("<b>W<sub>Q</sub></b>: <b>{0}</b>").format(shape(d_model, d_k)),
            "w_k": self.tr("<b>W<sub>K</sub></b>: <b>{0}</b>").format(shape(d_model, d_k)),
            "w_v": self.tr("<b>W<sub>V</sub></b>: <b>{0}</b>").format(shape(d_model, d_v)),
        }
        for name, caption in self.captions.items():
            caption.setText(captions[name])
        self.score_title.setText(self.tr(
            "<b>Scores Q·K<sup>T</sup></b><br/>N<sub>q</sub>×d<sub>k</sub> · d<sub>k</sub>×N<sub>k</sub> = "
            "N<sub>q</sub>×N<sub>k</sub>: &nbsp;({0}) · ({1}) = <b>{2}</b>").format(
                shape(n_q, d_k), shape(d_k, n_k), shape(n_q, n_k)))
        scale = (self.tr("1/√{0} = {1}").format(d_k, f"{result.scale:.3f}") if cross.scale is None
                 else f"{result.scale:.3g}")
        self.weight_title.setText(self.tr("<b>Weights</b><br/>softmax of each row of Q·K<sup>T</sup> × {0}").format(
            scale))
        self.weight_caption.setText(self.tr(
            "Row = target token (it asks), column = source token (it answers). <b>Each row sums to 1.</b> No mask: "
            "the whole source is already known. Click a row: that target token becomes the explorer's query."))

    def _show_hover(self) -> None:
        cell = self.cross_model.hovered
        for heatmap in (self.score_map, self.weight_map):
            heatmap.show_hover(cell)
        self.q_model.set_highlighted_row(cell[0] if cell else -1)
        self.k_model.set_highlighted_row(cell[1] if cell else -1)
        if cell is None:
            self.dot_label.setText(self.tr("Hover over a cell (i, j) to see q<sub>i</sub>·k<sub>j</sub>: target "
                                           "token i asking source token j; click a row to explore it."))
            return
        cross, result = self.cross_model.cross, self.cross_model.result
        i, j = cell
        target, source = cross.target_tokens[i], cross.source_tokens[j]
        score = cell_number(float(result.scores[i, j]), 3)
        weight = cell_number(float(result.weights[i, j]), 3)
        q_name = f'<span style="background:{QUERY_ROW_HEX}; color:{ROW_TEXT_HEX}">q<sub>{escaped(target)}</sub></span>'
        k_name = f'<span style="background:{KEY_ROW_HEX}; color:{ROW_TEXT_HEX}">k<sub>{escaped(source)}</sub></span>'
        text = self.tr("{0} · {1} = <b>{2}</b> &nbsp;→&nbsp; weight <b>{3}</b>").format(q_name, k_name, score, weight)
        self.dot_label.setText(f'<span style="font-size:{theme().number_pt():.0f}pt">{text}</span>')
        self.hint.emit(self.tr("q·k of “{0}” (target) and “{1}” (source) = {2}; click to make “{0}” the explorer's "
                               "query").format(target, source, score))

    def _apply_theme(self) -> None:
        """Sizes for the current zoom: the tables' fonts, the maps' labels and numbers."""
        font = QFont(self.font())
        font.setPointSizeF(theme().font_pt())
        for table in self.tables.values():
            table.setFont(font)
            table.horizontalHeader().setFont(font)
            table.verticalHeader().setFont(font)
        for heatmap in (self.score_map, self.weight_map):
            heatmap.refit()
        self.refresh()

    def retranslate(self) -> None:
        """Static texts in the current language."""
        self.target_label.setText(self.tr("Target (queries)"))
        self.source_label.setText(self.tr("Source (keys, values)"))
        self.target_edit.setToolTip(self.tr("The sentence being written, the decoder's side: words separated by "
                                            "spaces (Chinese typed without spaces is one token per character, as "
                                            "Chinese BERT splits it), then Enter"))
        self.source_edit.setToolTip(self.tr("The sentence being translated, the encoder's side: words separated by "
                                            "spaces (Chinese typed without spaces is one token per character, as "
                                            "Chinese BERT splits it), then Enter"))
        self.example_button.setToolTip(self.tr("The translation example with its hand-made numbers"))
        self.scale_check.setText(self.tr("Scale by 1/√d_k"))
        for index, name in enumerate((self.tr("Q, K, V"), self.tr("Y (target)"), self.tr("X (source)"),
                                      "W_Q", "W_K", "W_V")):
            self.tabs.setTabText(index, name)
        self.message_label.redraw()
        self._update_texts()
        self._show_hover()

    def changeEvent(self, event) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        elif event.type() == QEvent.Type.PaletteChange:
            self.message_label.redraw()
        super().changeEvent(event)
