"""Self-attention lab, "every position is Q, K and V": X·W_Q, X·W_K, X·W_V, Q·Kᵀ + M, its row softmax A and A·V.

The lab keeps its sequence in a SequenceModel of its own (the explorer's model holds one query); clicking a
row of either heatmap hands that token to the explorer as its query, with the sequence's keys and values.
The causal and padding masks are switches; hovering an output row shows which row of A and which V's made it.
Heatmaps stay interactive up to N = 512: the image, the colour bar, the mask and the cell texts are built once
(texts once per N, and only for N ≤ 16) and updated in place.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from PySide6.QtCore import QEvent, QSignalBlocker, Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QCheckBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSizePolicy,
    QSpinBox,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from attention_explorer.core.limits import ScenarioError
from attention_explorer.core.scenes.sequence.scene import SequenceScenario, query_scenario
from attention_explorer.core.scenes.sequence.tokens import joined_sentence
from attention_explorer.state.explorer import ExplorerModel
from attention_explorer.ui.i18n.switcher import error_text
from attention_explorer.ui.labs.self_attention.masks import PaddingButton, formula_html
from attention_explorer.ui.labs.self_attention.output import OutputColumn, output_sum_html
from attention_explorer.ui.labs.self_attention.state import (
    CHINESE_EXAMPLE,
    ENGLISH_EXAMPLE,
    SequenceModel,
    default_sequence,
    split_tokens,
)
from attention_explorer.ui.labs.self_attention.tables import SequenceMatrixTabs, set_table_fonts
from attention_explorer.ui.panels.scenario_info import example_name
from attention_explorer.ui.style.numbers import MINUS, cell_number
from attention_explorer.ui.style.safe_text import escaped
from attention_explorer.ui.style.theme import (
    KEY_ROW_HEX,
    QUERY_ROW_HEX,
    ROW_TEXT_HEX,
    SCORE_MAP_HEX,
    WEIGHT_MAP_HEX,
    theme,
)
from attention_explorer.ui.widgets.heatmap import CELL_TEXT_MAX_N, Heatmap, HeatmapLook

SPIN_MAX = 1024  # d_model, d_k, d_v from the spin boxes (a file may bring larger ones)
SCORE_LOOK = HeatmapLook(colours=SCORE_MAP_HEX)
WEIGHT_LOOK = HeatmapLook(colours=WEIGHT_MAP_HEX)
DOT_TERMS_SHOWN = 4  # q·k written out term by term up to this d_k; beyond it the first terms and "…"
HEATMAP_MIN_HEIGHT = 120  # px: what a map keeps when a lecture takes the height (its cells still read at N = 3)


# ---------------------------------------------------------------- the lab


class SelfAttentionLab(QWidget):
    """Every position is Q, K and V: a sentence, its projections, Q·Kᵀ, the row softmax, one click to the explorer."""

    hint = Signal(str)
    sentence_requested = Signal(str)  # "In a real model": the sentence, for the real-transformer page

    def __init__(self, model: ExplorerModel, parent: QWidget | None = None,
                 sequence: SequenceScenario | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("selfAttentionLab")
        self.model = model
        self.sequence_model = SequenceModel(sequence if sequence is not None else default_sequence(), parent=self)
        self._error = ""
        self._status = ""
        self.query_on_click = True  # a click on a cell makes its row the explorer's query (off while a question waits)
        self._build_controls()
        self._build_tables()
        self._build_maps()
        self._build_layout()
        self.sequence_model.changed.connect(self.refresh)
        self.sequence_model.hover_changed.connect(self._show_hover)
        theme().changed.connect(self._apply_theme)
        self.retranslate()
        self._apply_theme()

    # ------------------------------------------------------------ building

    def _build_controls(self) -> None:
        self.tokens_label = QLabel(self)
        self.tokens_edit = QLineEdit(self)
        self.tokens_edit.setObjectName("tokensEdit")
        self.tokens_edit.editingFinished.connect(self._on_tokens_typed)
        self.chinese_button = QPushButton(CHINESE_EXAMPLE, self)
        self.chinese_button.setObjectName("chineseExample")
        self.chinese_button.clicked.connect(self._load_chinese_example)
        self.english_button = QPushButton(ENGLISH_EXAMPLE, self)
        self.english_button.setObjectName("englishExample")
        self.english_button.clicked.connect(lambda: self._guarded(self.sequence_model.set_tokens,
                                                                  ENGLISH_EXAMPLE.split()))
        self.size_labels: dict[str, QLabel] = {}
        self.size_spins: dict[str, QSpinBox] = {}
        for name in ("d_model", "d_k", "d_v", "seed"):
            label = QLabel(self)
            spin = QSpinBox(self)
            spin.setMinimumWidth(64)
            spin.setMaximumWidth(110)
            spin.setObjectName(f"{name}Spin")
            spin.setKeyboardTracking(False)  # typing "512" is one change, not 5, 51, 512
            spin.setRange(0 if name == "seed" else 1, 2**31 - 1 if name == "seed" else SPIN_MAX)
            label.setBuddy(spin)
            spin.valueChanged.connect(lambda value, n=name: self._on_size(n, value))
            self.size_labels[name] = label
            self.size_spins[name] = spin
        self.random_button = QPushButton(self)
        self.random_button.setObjectName("randomButton")
        self.random_button.clicked.connect(lambda: self._guarded(self.sequence_model.randomize))
        self.identity_button = QPushButton(self)
        self.identity_button.setObjectName("identityButton")
        self.identity_button.clicked.connect(lambda: self._guarded(self.sequence_model.set_identity))
        self.real_model_button = QPushButton(self)
        self.real_model_button.setObjectName("realModelButton")
        self.real_model_button.clicked.connect(
            lambda: self.sentence_requested.emit(joined_sentence(self.sequence_model.sequence.tokens)))
        self.causal_check = QCheckBox(self)
        self.causal_check.setObjectName("causalCheck")
        self.causal_check.toggled.connect(lambda on: self._guarded(self.sequence_model.set_causal, on))
        self.padding_button = PaddingButton(self.sequence_model, self._guarded, self)
        self.formula_label = QLabel(self)
        self.formula_label.setObjectName("maskFormula")
        self.formula_label.setTextFormat(Qt.TextFormat.RichText)
        self.scale_check = QCheckBox(self)
        self.scale_check.setObjectName("scaleCheck")
        self.scale_check.toggled.connect(lambda on: self._guarded(self.sequence_model.set_scale, None if on else 1.0))
        self.message_label = QLabel(self)
        self.message_label.setObjectName("labMessage")
        self.message_label.setWordWrap(True)
        self.message_label.setTextFormat(Qt.TextFormat.RichText)

    def _build_tables(self) -> None:
        self.tabs = SequenceMatrixTabs(self.sequence_model, self._edit_cell, self._paste, self._show_error, self)
        for name in ("q_model", "k_model", "v_model", "edit_models", "edit_tables", "q_table", "k_table", "v_table",
                     "q_caption", "k_caption", "v_caption", "edit_captions"):
            setattr(self, name, getattr(self.tabs, name))
        self.output = OutputColumn(self.sequence_model, self)

    def _build_maps(self) -> None:
        self.score_map = Heatmap(SCORE_LOOK, self)
        self.score_map.setObjectName("scoreMap")
        self.weight_map = Heatmap(WEIGHT_LOOK, self)
        self.weight_map.setObjectName("weightMap")
        for heatmap in (self.score_map, self.weight_map):
            heatmap.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
            # Small enough that a lecture's caption and question above the lab leave the maps room: a larger minimum
            # pushed them out of their row, under the notes below them and past the bottom of the page.
            heatmap.setMinimumSize(200, HEATMAP_MIN_HEIGHT)
        self.score_title = QLabel(self)
        self.score_title.setObjectName("scoreTitle")
        self.weight_title = QLabel(self)
        self.weight_title.setObjectName("weightTitle")
        self.weight_caption = QLabel(self)
        self.weight_caption.setObjectName("weightCaption")
        self.score_caption = QLabel(self)
        self.score_caption.setObjectName("scoreCaption")
        self.dot_label = QLabel(self)
        self.dot_label.setObjectName("dotProduct")
        for label in (self.score_title, self.weight_title, self.weight_caption, self.score_caption, self.dot_label):
            label.setTextFormat(Qt.TextFormat.RichText)
            label.setWordWrap(True)
        self.dot_label.setMinimumHeight(52)
        for heatmap in (self.score_map, self.weight_map):
            heatmap.cell_hovered.connect(self._on_cell_hovered)
            heatmap.cell_clicked.connect(lambda row, _column: self.query_on_click and self.use_as_query(row))

    def _build_layout(self) -> None:
        controls = QGridLayout()
        controls.setHorizontalSpacing(8)
        controls.setVerticalSpacing(6)
        first = QHBoxLayout()
        first.addWidget(self.tokens_label)
        first.addWidget(self.tokens_edit, 1)
        first.addWidget(self.chinese_button)
        first.addWidget(self.english_button)
        first.addSpacing(12)
        first.addWidget(self.causal_check)
        first.addWidget(self.padding_button)
        first.addWidget(self.scale_check)
        second = QHBoxLayout()
        for name in ("d_model", "d_k", "d_v", "seed"):
            second.addWidget(self.size_labels[name])
            second.addWidget(self.size_spins[name])
            second.addSpacing(6)
        second.addWidget(self.random_button)
        second.addWidget(self.identity_button)
        second.addStretch(1)
        second.addWidget(self.real_model_button)
        controls.addLayout(first, 0, 0)
        controls.addLayout(second, 1, 0)

        # One grid for both maps: their titles share a row height, so the two matrices always line up.
        maps = QWidget(self)
        grid = QGridLayout(maps)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setHorizontalSpacing(10)
        grid.setVerticalSpacing(4)
        grid.addWidget(self.formula_label, 0, 0, 1, 3)
        for column, (title, heatmap, caption) in enumerate(((self.score_title, self.score_map, self.score_caption),
                                                            (self.weight_title, self.weight_map, self.weight_caption),
                                                            (self.output.title, self.output, self.output.caption))):
            title.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignBottom)
            caption.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
            grid.addWidget(title, 1, column)
            grid.addWidget(heatmap, 2, column)
            grid.addWidget(caption, 3, column)
            grid.setColumnStretch(column, 3 if column < 2 else 2)
        grid.setRowStretch(2, 1)
        self.splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.splitter.addWidget(self.tabs)
        self.splitter.addWidget(maps)
        maps.installEventFilter(self)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 8)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.setSizes([300, 700])

        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 6, 8, 6)
        layout.setSpacing(6)
        layout.addLayout(controls)
        layout.addWidget(self.message_label)
        layout.addWidget(self.splitter, 1)
        layout.addWidget(self.dot_label)

    # ------------------------------------------------------------ public

    def load(self, sequence: SequenceScenario) -> None:
        """Show a self-attention scenario (a file or the preset) in the lab."""
        self.sequence_model.load_sequence(sequence)
        self._set_status(self.tr("Opened “{0}”.").format(escaped(example_name(sequence.title, sequence.tokens))))

    def use_as_query(self, index: int) -> None:
        """Token `index` becomes the explorer's query: q = Q[index] against the sequence's K and V."""
        sequence, result = self.sequence_model.sequence, self.sequence_model.result
        if not 0 <= index < sequence.n:
            return
        token = sequence.tokens[index]
        sentence = " ".join(sequence.tokens)
        if len(sentence) > 300:
            sentence = sentence[:300] + "…"
        title = self.tr("“{0}” as the query").format(token)
        description = self.tr(
            "Self-attention on “{0}”: the query is row {1} of Q = X·W_Q (the token “{2}”); the keys and values "
            "are the rows of K = X·W_K and V = X·W_V, one per token."
        ).format(sentence, index + 1, token)
        if sequence.causal:
            title = self.tr("“{0}” as the query (causal: keys up to it)").format(token)
            description += " " + self.tr(
                "The causal mask cannot be drawn with a single query, so only the keys and values up to “{0}” "
                "(the first {1}) are included: the tokens after it are left out."
            ).format(token, index + 1)
        if sequence.padding:
            description += " " + self.tr("The padding tokens are left out of the keys: no query looks at them.")
        try:
            scenario = query_scenario(sequence, result, index, title, description)
            self.model.load_scenario(scenario)
        except ScenarioError as error:
            self._show_error(error_text(error))
            return
        message = self.tr("“{0}” is now the query in the explorer: drag it on the canvas.").format(escaped(token))
        self._set_status(message)
        self.hint.emit(self.tr("“{0}” is now the query in the explorer: drag it on the canvas.").format(token))

    # ------------------------------------------------------------ input

    def _guarded(self, edit: Callable, *args) -> bool:
        """Run a model edit; a ScenarioError is shown in the lab (and as a hint) and changes nothing."""
        try:
            edit(*args)
        except ScenarioError as error:
            self._show_error(error_text(error))
            self._sync_controls()
            return False
        self._clear_error()
        return True

    def _on_tokens_typed(self) -> None:
        if split_tokens(self.tokens_edit.text()) != list(self.sequence_model.sequence.tokens):
            self._guarded(self.sequence_model.set_tokens_text, self.tokens_edit.text())

    def _load_chinese_example(self) -> None:
        self._guarded(self.sequence_model.use_example, default_sequence())

    def _on_size(self, name: str, value: int) -> None:
        edits = {"d_model": self.sequence_model.set_d_model, "d_k": self.sequence_model.set_d_k,
                 "d_v": self.sequence_model.set_d_v, "seed": self.sequence_model.randomize}
        self._guarded(edits[name], value)

    def _edit_cell(self, matrix: str, row: int, column: int, value: float) -> None:
        """A typed number (the table reports a ScenarioError itself)."""
        self.sequence_model.set_cell(matrix, row, column, value)
        self._clear_error()

    def _paste(self, matrix: str, row: int, column: int, block: list[list[float]]) -> None:
        self._guarded(self.sequence_model.paste_block, matrix, row, column, block)

    def _on_cell_hovered(self, row: int, column: int) -> None:
        self.sequence_model.set_hover((row, column) if row >= 0 else None)

    # ------------------------------------------------------------ messages

    def _show_error(self, message: str) -> None:
        self._error = message
        self._update_message()
        self.hint.emit(message)

    def _clear_error(self) -> None:
        if self._error:
            self._error = ""
            self._update_message()

    def _set_status(self, message: str) -> None:
        self._error = ""
        self._status = message
        self._update_message()

    def _update_message(self) -> None:
        if self._error:
            colour = theme().error_hex()
            self.message_label.setText(f'<span style="color:{colour}">⚠ {escaped(self._error)}</span>')
        else:
            self.message_label.setText(self._status)
        # Presenting, errors only: "Opened …" is the desk's line (the hall reads the lecture's caption).
        self.message_label.setVisible(bool(self._error or (self._status and not getattr(self, "_presenting", False))))

    # ------------------------------------------------------------ drawing

    def _sync_controls(self) -> None:
        """Controls show the model's values (without feeding them back as edits)."""
        sequence = self.sequence_model.sequence
        values = {"d_model": sequence.d_model, "d_k": sequence.d_k, "d_v": sequence.d_v,
                  "seed": self.sequence_model.seed}
        for name, spin in self.size_spins.items():
            with QSignalBlocker(spin):
                if name != "seed":
                    spin.setMaximum(max(SPIN_MAX, values[name]))
                spin.setValue(values[name])
        with QSignalBlocker(self.tokens_edit):
            if split_tokens(self.tokens_edit.text()) != list(sequence.tokens):
                self.tokens_edit.setText(" ".join(sequence.tokens))
        with QSignalBlocker(self.causal_check):
            self.causal_check.setChecked(sequence.causal)
        with QSignalBlocker(self.scale_check):
            self.scale_check.setChecked(sequence.scale is None)
        self.padding_button.sync()

    def refresh(self) -> None:
        """Redraw every view in place from the sequence model."""
        sequence, result = self.sequence_model.sequence, self.sequence_model.result
        self._sync_controls()
        self.tabs.refresh()
        self.output.refresh()
        masked = result.mask
        scores = np.where(masked, np.nan, result.scores)
        visible = result.scores[~masked]
        peak = float(np.max(np.abs(visible))) if visible.size else 0.0
        peak = math.ceil(peak * 100.0) / 100.0 or 1.0  # whole hundredths, like the bar's rounding
        small = sequence.n <= CELL_TEXT_MAX_N
        score_texts = weight_texts = None
        if small:
            minus_infinity = MINUS + "∞"
            score_texts = [minus_infinity if m else cell_number(v) for v, m in
                           zip(result.scores.ravel().tolist(), masked.ravel().tolist())]
            weight_texts = ["0" if m else cell_number(v) for v, m in
                            zip(result.weights.ravel().tolist(), masked.ravel().tolist())]
        self.score_map.show_matrix(scores, (-peak, peak), sequence.tokens, score_texts, masked)
        self.weight_map.show_matrix(result.weights, (0.0, 1.0), sequence.tokens, weight_texts, masked)
        self._update_texts()
        self._show_hover()

    def _update_texts(self) -> None:
        """Shapes, titles and captions (the parts that depend on the numbers)."""
        # The formula's words too: a switch of language retranslates them ("M = 0: no mask…").
        self.formula_label.setText(formula_html(self.sequence_model.sequence, self.sequence_model.result))
        sequence, result = self.sequence_model.sequence, self.sequence_model.result
        n, d_model, d_k, d_v = sequence.n, sequence.d_model, sequence.d_k, sequence.d_v
        shape = "{0} × {1}".format
        for caption, letter, width in ((self.q_caption, "Q", d_k), (self.k_caption, "K", d_k),
                                       (self.v_caption, "V", d_v)):
            caption.setText(self.tr("<b>{0}</b> = X·W<sub>{0}</sub>: &nbsp;<b>{1}</b>").format(letter, shape(n, width)))
            caption.setToolTip(self.tr("{0} = X·W_{0}: ({1}) · ({2}) = {3}").format(
                letter, shape(n, d_model), shape(d_model, width), shape(n, width)))
        captions = {
            "embeddings": self.tr("<b>X</b>: one embedding row per token, <b>{0}</b> (seeded N(0, 1) for new words; "
                                  "type over a number to edit it, Ctrl+V pastes a block)").format(shape(n, d_model)),
            "w_q": self.tr("<b>W<sub>Q</sub></b>: <b>{0}</b>, turns an embedding into a query").format(
                shape(d_model, d_k)),
            "w_k": self.tr("<b>W<sub>K</sub></b>: <b>{0}</b>, turns an embedding into a key").format(
                shape(d_model, d_k)),
            "w_v": self.tr("<b>W<sub>V</sub></b>: <b>{0}</b>, turns an embedding into a value").format(
                shape(d_model, d_v)),
        }
        for name, caption in self.edit_captions.items():
            caption.setText(captions[name])
        self.score_title.setText(self.tr(
            "<b>Scores Q·K<sup>T</sup></b><br/>N×d<sub>k</sub> · d<sub>k</sub>×N = N×N: &nbsp;"
            "({0}) · ({1}) = <b>{2}</b>").format(shape(n, d_k), shape(d_k, n), shape(n, n)))
        if sequence.causal:
            score_caption = self.tr("Row = query token, column = key token. Causal mask: "
                                    "<b>{0}</b> above the diagonal (a token may not look ahead).").format(MINUS + "∞")
        else:
            score_caption = self.tr("Row = query token, column = key token.")
        if sequence.padding:
            score_caption += " " + self.tr("Padding: <b>{0}</b> in the columns of the padding tokens.").format(
                MINUS + "∞")
        self.score_caption.setText(score_caption)
        scale = (self.tr("1/√{0} = {1}").format(d_k, f"{result.scale:.3f}") if sequence.scale is None
                 else f"{result.scale:.3g}")
        self.weight_title.setText(
            self.tr("<b>Weights</b><br/>softmax of each row of Q·K<sup>T</sup> × {0}").format(scale))
        masked_note = self.tr(" Masked cells get exactly 0.") if result.mask.any() else ""
        self.weight_caption.setText(self.tr("<b>Each row sums to 1.</b>{0} Click a row: that token becomes the "
                                            "explorer's query.").format(masked_note))

    def _show_hover(self) -> None:
        """Hovered cell (i, j): outlined in both maps, row i of Q and row j of K tinted, q_i·k_j written out."""
        cell = self.sequence_model.hovered
        self.score_map.show_hover(cell)
        self.weight_map.show_hover(cell)
        self.q_model.set_highlighted_row(cell[0] if cell else -1)
        self.k_model.set_highlighted_row(cell[1] if cell else -1)
        output_row = self.sequence_model.output_row
        self.weight_map.set_marks(output_row, -1)
        self.output.show_row(output_row)
        if cell is None and output_row >= 0:
            result = self.sequence_model.result
            text = output_sum_html(self.sequence_model.sequence.tokens, result.weights[output_row],
                                   result.output[output_row], output_row)
            self.dot_label.setText(f'<span style="font-size:{theme().number_pt():.0f}pt">{text}</span>')
            self.hint.emit(self.tr("Output row of “{0}”: row “{0}” of A times V, one weight per row of V").format(
                self.sequence_model.sequence.tokens[output_row]))
            return
        if cell is None:
            self.dot_label.setText(self.tr("Hover over a cell (i, j) to see q<sub>i</sub>·k<sub>j</sub> written out; "
                                           "click a row to make its token the explorer's query."))
            self.hint.emit("")
            return
        i, j = cell
        self.q_table.scrollTo(self.q_model.index(i, 0))
        self.k_table.scrollTo(self.k_model.index(j, 0))
        sequence, result = self.sequence_model.sequence, self.sequence_model.result
        query_token, key_token = sequence.tokens[i], sequence.tokens[j]
        q, k = result.queries[i], result.keys[j]
        terms = [f"{cell_number(a)}×{cell_number(b)}" for a, b in zip(q[:DOT_TERMS_SHOWN], k[:DOT_TERMS_SHOWN])]
        if sequence.d_k > DOT_TERMS_SHOWN:
            terms.append(self.tr("… ({0} terms)").format(sequence.d_k))
        score = cell_number(float(result.scores[i, j]), 3)
        weight = cell_number(float(result.weights[i, j]), 3)
        q_name = (f'<span style="background:{QUERY_ROW_HEX}; color:{ROW_TEXT_HEX}">'
                  f'q<sub>{escaped(query_token)}</sub></span>')
        k_name = (f'<span style="background:{KEY_ROW_HEX}; color:{ROW_TEXT_HEX}">'
                  f'k<sub>{escaped(key_token)}</sub></span>')
        if result.mask[i, j]:
            tail = self.tr("masked: {0} before softmax, weight <b>0</b>").format(MINUS + "∞")
        else:
            tail = self.tr("weight <b>{0}</b>").format(weight)
        text = self.tr("{0} · {1} = {2} = <b>{3}</b> &nbsp;→&nbsp; {4}").format(
            q_name, k_name, " + ".join(terms), score, tail)
        self.dot_label.setText(f'<span style="font-size:{theme().number_pt():.0f}pt">{text}</span>')
        self.hint.emit(self.tr("q·k of “{0}” (query) and “{1}” (key) = {2}; click to make “{0}” the explorer's "
                               "query").format(query_token, key_token, score))

    def set_presenting(self, presenting: bool) -> None:
        """Presentation: every row of the tables shown (the page of tables scrolls, with its scroll bar showing it,
        when they do not fit: a row cut in half was 北京's)."""
        self._presenting = presenting
        self._update_message()
        for table in (*self.tabs.tables(), self.output.v_table, self.output.output_table):
            table.set_whole(presenting)
        self._apply_theme()
        self._fit_maps_height()

    def _fit_maps_height(self) -> None:
        """While presenting, the maps' column never gets less height than its wrapped texts and whole tables need at
        its width (a splitter knows no height-for-width: it gave the V and A·V tables two of their three rows);
        the lab's page scrolls instead, its scroll bar showing it."""
        maps = self.splitter.widget(1)
        # The least height of its parts at this width (their preferred heights would grow with the maps each time).
        need = maps.layout().minimumHeightForWidth(maps.width()) if getattr(self, "_presenting", False) else 0
        if maps.minimumHeight() != max(need, 0):
            maps.setMinimumHeight(max(need, 0))

    def eventFilter(self, watched, event) -> bool:
        if watched is self.splitter.widget(1) and event.type() == QEvent.Type.Resize \
                and event.size().width() != event.oldSize().width():
            self._fit_maps_height()  # measured at the width it has now (laid out later than the lab)
        return super().eventFilter(watched, event)

    def _apply_theme(self) -> None:
        """Re-apply sizes after a presentation-zoom change."""
        font = QFont(self.font())
        font.setPointSizeF(theme().font_pt())  # the text size: larger, the tables took the maps' height
        set_table_fonts((*self.tabs.tables(), self.output.v_table, self.output.output_table), font)
        title_font = QFont(font)
        title_font.setPointSizeF(theme().font_pt() * 1.08)
        for label in (self.score_title, self.weight_title, self.output.title):
            label.setFont(title_font)
        for heatmap in (self.score_map, self.weight_map):
            heatmap.apply_theme()
        self.refresh()

    def retranslate(self) -> None:
        """Static texts in the current language."""
        self.tokens_label.setText(self.tr("Sentence"))
        self.tokens_edit.setPlaceholderText(self.tr("Words separated by spaces, or Chinese without spaces"))
        self.tokens_edit.setToolTip(self.tr("Type a sentence and press Enter (1 to 512 tokens): words separated by "
                                            "spaces, or Chinese without spaces, which becomes one token per "
                                            "character as Chinese BERT splits it (我爱北京 → 我 爱 北 京)"))
        self.chinese_button.setToolTip(self.tr("The example sentence with its hand-made numbers"))
        self.english_button.setToolTip(self.tr("A longer sentence; new words get seeded random embeddings"))
        self.size_labels["d_model"].setText(self.tr("d_model"))
        self.size_labels["d_k"].setText(self.tr("d_k"))
        self.size_labels["d_v"].setText(self.tr("d_v"))
        self.size_labels["seed"].setText(self.tr("seed"))
        self.size_spins["d_model"].setToolTip(self.tr("Width of each embedding (rows of W_Q, W_K, W_V)"))
        self.size_spins["d_k"].setToolTip(self.tr("Width of each query and key (columns of W_Q and W_K)"))
        self.size_spins["d_v"].setToolTip(self.tr("Width of each value (columns of W_V)"))
        self.size_spins["seed"].setToolTip(self.tr("Changing the seed draws new random X and W"))
        self.random_button.setText(self.tr("Random X, W"))
        self.random_button.setToolTip(self.tr("Seeded N(0, 1) embeddings and N(0, 1/d_model) weights, "
                                              "like a freshly initialised layer"))
        self.real_model_button.setText(self.tr("In a real model…"))
        self.real_model_button.setToolTip(self.tr(
            "Run this sentence through a real model on the Real transformer page: its own tokenizer splits it, and "
            "each head's attention is shown. For Chinese, a model that reads it from this computer's Hugging Face "
            "cache (bert-base-chinese or Qwen2.5-0.5B; File ▸ Get a model… downloads them)"))
        self.identity_button.setText(self.tr("W = I"))
        self.identity_button.setToolTip(self.tr("W_Q = W_K = W_V = identity, so Q = K = V = X "
                                                "(needs d_k = d_v = d_model)"))
        for index, name in enumerate((self.tr("Q, K, V"), "X", "W_Q", "W_K", "W_V")):
            self.tabs.setTabText(index, name)
        self.causal_check.setText(self.tr("Causal mask"))
        self.causal_check.setToolTip(self.tr("−∞ above the diagonal before softmax: no token looks ahead"))
        self.padding_button.retranslate()
        self.scale_check.setText(self.tr("Scale by 1/√d_k"))
        self.scale_check.setToolTip(self.tr("Off: softmax of the raw scores (factor 1)"))
        self._update_message()
        self._update_texts()
        self.output.update_texts()
        self._show_hover()

    def changeEvent(self, event) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        elif event.type() == QEvent.Type.PaletteChange:
            # A widget with a style sheet keeps the palette it was polished with: the tables would stay light on a
            # dark theme. Setting the sheet again re-polishes the tabs with the new application palette.
            self.tabs.setStyleSheet(self.tabs.styleSheet())
            self._update_message()  # its error colour depends on the theme
        super().changeEvent(event)
