"""Multi-head attention lab: h heads on slices of W_Q, W_K, W_V, their maps side by side, the concatenation and W_O.

The lab keeps its scenario in a MultiHeadModel of its own and only draws from it. Clicking a head (its title,
or a row of its maps) hands that head's query of the chosen token, with the head's keys and values, to the
explorer as its scene.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QSignalBlocker, Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QSpinBox,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from attention_explorer.core.limits import ScenarioError
from attention_explorer.core.scenes.multihead.scene import (
    MAX_HEADS,
    MultiHeadScenario,
    head_counts,
    head_query_scenario,
)
from attention_explorer.core.scenes.sequence.tokens import split_tokens
from attention_explorer.state.explorer import ExplorerModel
from attention_explorer.ui.i18n.switcher import error_text
from attention_explorer.ui.labs.multihead.heads import HeadsGrid, cell_text_limit, head_hex
from attention_explorer.ui.labs.multihead.state import MAX_LAB_D_MODEL, MultiHeadModel, default_multihead
from attention_explorer.ui.labs.multihead.tables import HeadMatrixTabs
from attention_explorer.ui.panels.scenario_info import example_name
from attention_explorer.ui.style.numbers import MINUS, cell_number
from attention_explorer.ui.style.safe_text import escaped
from attention_explorer.ui.style.theme import theme
from attention_explorer.ui.widgets.lab_message import LabMessage

SHAPE = "{0} × {1}".format
# In presentation, the tables' column at most this share of the width: the heads' maps keep the rest, their numbers
# as large as the hall's; wider tables scroll sideways in their column, with the scroll bar showing it.
TABLES_SHARE = 0.36


class HeadCountSpin(QSpinBox):
    """h: the arrows step to the next number of heads that divides d_model; a typed h that does not is refused."""

    def __init__(self, divisors: Callable[[], list[int]], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._divisors = divisors

    def stepBy(self, steps: int) -> None:
        allowed = self._divisors()
        current = self.value()
        if steps > 0:
            following = [h for h in allowed if h > current]
            target = following[min(steps, len(following)) - 1] if following else current
        else:
            before = [h for h in allowed if h < current]
            target = before[max(len(before) + steps, 0)] if before else current
        self.setValue(target)


class MultiHeadLab(QWidget):
    """d_model split into h heads: each head's W slices, scores and weights, then Concat(head_1 … head_h)·W_O."""

    hint = Signal(str)

    def __init__(self, model: ExplorerModel, parent: QWidget | None = None,
                 scenario: MultiHeadScenario | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("multiHeadLab")
        self.model = model
        self.multihead = MultiHeadModel(scenario if scenario is not None else default_multihead(), parent=self)
        self._build()
        self.multihead.changed.connect(self.refresh)
        self.multihead.selection_changed.connect(self._show_selection)
        theme().changed.connect(self._apply_theme)
        self.retranslate()
        self._apply_theme()

    # ------------------------------------------------------------ building

    def _build(self) -> None:
        self.tokens_label = QLabel(self)
        self.tokens_edit = QLineEdit(self)
        self.tokens_edit.setObjectName("multiheadTokensEdit")
        self.tokens_edit.editingFinished.connect(self._on_tokens_typed)
        self.tokens_label.setBuddy(self.tokens_edit)
        self.size_labels: dict[str, QLabel] = {}
        self.size_spins: dict[str, QSpinBox] = {}
        for name in ("d_model", "heads", "seed"):
            spin = HeadCountSpin(lambda: head_counts(self.multihead.scenario.d_model), self) if name == "heads" \
                else QSpinBox(self)
            spin.setObjectName(f"multihead_{name}Spin")
            spin.setKeyboardTracking(False)  # typing "512" is one change, not 5, 51, 512
            spin.setRange(*{"d_model": (1, MAX_LAB_D_MODEL), "heads": (1, MAX_HEADS), "seed": (0, 2**31 - 1)}[name])
            spin.valueChanged.connect(lambda value, n=name: self._on_spin(n, value))
            label = QLabel(self)
            label.setBuddy(spin)
            self.size_labels[name], self.size_spins[name] = label, spin
        self.causal_check = QCheckBox(self)
        self.causal_check.setObjectName("multiheadCausal")
        self.causal_check.toggled.connect(lambda on: self._guarded(self.multihead.set_causal, on))
        self.scale_check = QCheckBox(self)
        self.scale_check.setObjectName("multiheadScale")
        self.scale_check.toggled.connect(lambda on: self._guarded(self.multihead.set_scale, None if on else 1.0))
        self.shapes_label = QLabel(self)
        self.shapes_label.setObjectName("multiheadShapes")
        self.formula_label = QLabel(self)
        self.formula_label.setObjectName("multiheadFormula")
        self.message_label = LabMessage(self)
        self.message_label.setObjectName("multiheadMessage")
        self.selection_label = QLabel(self)
        self.selection_label.setObjectName("multiheadSelection")
        for label in (self.shapes_label, self.formula_label, self.selection_label):
            label.setTextFormat(Qt.TextFormat.RichText)
            label.setWordWrap(True)
        self.heads_grid = HeadsGrid(self)
        self.heads_grid.head_clicked.connect(lambda head: self.use_head(head, self.multihead.row))
        self.heads_grid.row_clicked.connect(self.use_head)
        self.tabs = HeadMatrixTabs(self.multihead, self)

        first = QHBoxLayout()
        first.addWidget(self.tokens_label)
        first.addWidget(self.tokens_edit, 1)
        first.addSpacing(12)
        first.addWidget(self.causal_check)
        first.addWidget(self.scale_check)
        second = QHBoxLayout()
        for name in ("d_model", "heads", "seed"):
            second.addWidget(self.size_labels[name])
            second.addWidget(self.size_spins[name])
            second.addSpacing(6)
        second.addWidget(self.shapes_label, 1)
        right = QWidget(self)
        right_column = QVBoxLayout(right)
        right_column.setContentsMargins(0, 0, 0, 0)
        right_column.addWidget(self.heads_grid, 1)
        right_column.addWidget(self.selection_label)
        self.splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.splitter.addWidget(self.tabs)
        self.splitter.addWidget(right)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 5)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.setSizes([420, 760])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 6, 8, 6)
        layout.setSpacing(6)
        layout.addLayout(first)
        layout.addLayout(second)
        layout.addWidget(self.formula_label)
        layout.addWidget(self.message_label)
        layout.addWidget(self.splitter, 1)

    # ------------------------------------------------------------ public

    def load(self, scenario: MultiHeadScenario) -> None:
        """Show a multi-head scenario (a file or a preset) in the lab."""
        self.multihead.load_scenario(scenario)
        name = escaped(example_name(scenario.title, scenario.tokens))
        self.message_label.set_status(self.tr("Opened “{0}”.").format(name))

    def use_head(self, head: int, row: int) -> None:
        """Head `head`'s query of token `row` becomes the explorer's query, against that head's keys and values."""
        if not self._guarded(self.multihead.select, head, row):
            return
        scenario, result = self.multihead.scenario, self.multihead.result
        token = scenario.tokens[row]
        title = self.tr("Head {0}: “{1}” as the query").format(head + 1, token)
        description = self.tr(
            "Multi-head attention, head {0} of {1}: the query is row {2} of Q_{0} = X·W_Q[:, {3}…{4}] (the token "
            "“{5}”), the keys and values are the rows of K_{0} and V_{0}, each d_k = {6} wide."
        ).format(head + 1, scenario.heads, row + 1, head * scenario.d_k + 1, (head + 1) * scenario.d_k, token,
                 scenario.d_k)
        if scenario.causal:
            description += " " + self.tr("Causal mask: only the keys up to “{0}” (the first {1}) are included.").format(
                token, row + 1)
        try:
            self.model.load_scenario(head_query_scenario(scenario, result, head, row, title, description))
        except ScenarioError as error:
            self._show_error(error_text(error))
            return
        message = self.tr("Head {0}, “{1}” is now the query in the explorer: drag it on the canvas.")
        self.message_label.set_status(message.format(head + 1, escaped(token)))
        self.hint.emit(message.format(head + 1, token))

    # ------------------------------------------------------------ input

    def _guarded(self, edit: Callable, *args) -> bool:
        """Run a model edit; a ScenarioError is shown in the lab (and as a hint) and changes nothing."""
        try:
            edit(*args)
        except ScenarioError as error:
            self._show_error(error_text(error))
            self._sync_controls()
            return False
        self.message_label.clear_error()
        return True

    def _on_tokens_typed(self) -> None:
        if split_tokens(self.tokens_edit.text()) != list(self.multihead.scenario.tokens):
            self._guarded(self.multihead.set_tokens_text, self.tokens_edit.text())

    def _on_spin(self, name: str, value: int) -> None:
        edits = {"d_model": self.multihead.set_d_model, "heads": self.multihead.set_heads,
                 "seed": self.multihead.randomize}
        self._guarded(edits[name], value)

    def _show_error(self, message: str) -> None:
        self.message_label.show_error(message)
        self.hint.emit(message)

    # ------------------------------------------------------------ drawing

    def _sync_controls(self) -> None:
        """Controls show the model's values (without feeding them back as edits)."""
        scenario = self.multihead.scenario
        values = {"d_model": scenario.d_model, "heads": scenario.heads, "seed": self.multihead.seed}
        for name, spin in self.size_spins.items():
            with QSignalBlocker(spin):
                if name == "d_model":
                    spin.setMaximum(max(MAX_LAB_D_MODEL, values[name]))
                    spin.setSingleStep(scenario.heads)  # the arrows keep d_model a multiple of h
                spin.setValue(values[name])
        with QSignalBlocker(self.tokens_edit):
            if split_tokens(self.tokens_edit.text()) != list(scenario.tokens):
                self.tokens_edit.setText(" ".join(scenario.tokens))
        with QSignalBlocker(self.causal_check):
            self.causal_check.setChecked(scenario.causal)
        with QSignalBlocker(self.scale_check):
            self.scale_check.setChecked(scenario.scale is None)

    def refresh(self) -> None:
        """Redraw every view in place from the lab's model."""
        scenario, result = self.multihead.scenario, self.multihead.result
        self._sync_controls()
        if len(self.heads_grid.tiles) != scenario.heads:
            self.heads_grid.set_heads(scenario.heads)
        masked = result.mask
        score_texts = weight_texts = None
        if scenario.n <= cell_text_limit(scenario.heads):
            flat_mask = masked.ravel().tolist()
            score_texts = [[MINUS + "∞" if m else cell_number(v) for v, m in zip(head.ravel().tolist(), flat_mask)]
                           for head in result.scores]
            weight_texts = [["0" if m else cell_number(v) for v, m in zip(head.ravel().tolist(), flat_mask)]
                            for head in result.weights]
        self.heads_grid.show_heads(result.scores, result.weights, masked, scenario.tokens, score_texts, weight_texts)
        self.tabs.refresh()
        self._update_texts()
        self._show_selection()

    def _show_selection(self) -> None:
        """The chosen head framed, its row marked and its columns tinted darker; the line below says which."""
        scenario = self.multihead.scenario
        head, row = self.multihead.head, self.multihead.row
        self.heads_grid.choose(head, row)
        self.tabs.tint_changed()
        colour = head_hex(head)
        self.selection_label.setText(self.tr(
            '<span style="color:{0}"><b>Head {1}</b></span>, query “{2}”: {3} of W<sub>Q</sub>, '
            "W<sub>K</sub>, W<sub>V</sub>. Click a head's title or a row of its maps to explore that query on "
            "the canvas.").format(colour, head + 1, escaped(scenario.tokens[row]), self._columns(head)))

    def _columns(self, head: int) -> str:
        """"columns 5…8" (or "column 3" when each head is one column wide) of head `head`."""
        d_k = self.multihead.scenario.d_k
        if d_k == 1:
            return self.tr("column {0}").format(head + 1)
        return self.tr("columns {0}…{1}").format(head * d_k + 1, (head + 1) * d_k)

    def _update_texts(self) -> None:
        """Shapes, titles and captions (the parts that depend on the sizes)."""
        scenario, result = self.multihead.scenario, self.multihead.result
        n, d_model, h, d_k = scenario.n, scenario.d_model, scenario.heads, scenario.d_k
        self.shapes_label.setText(self.tr(
            "N = <b>{0}</b> tokens, d<sub>model</sub> = <b>{1}</b>, h = <b>{2}</b> heads, "
            "d<sub>k</sub> = d<sub>v</sub> = d<sub>model</sub> / h = <b>{3}</b>").format(n, d_model, h, d_k))
        scale = (self.tr("1/√{0} = {1}").format(d_k, f"{result.scale:.3f}") if scenario.scale is None
                 else f"{result.scale:.3g}")
        self.formula_label.setText(self.tr(
            "head<sub>i</sub> = softmax(Q<sub>i</sub>K<sub>i</sub><sup>T</sup> × {0}{1})·V<sub>i</sub>, &nbsp; "
            "MultiHead(X) = Concat(head<sub>1</sub>, …, head<sub>{2}</sub>)·W<sub>O</sub>").format(
                scale, self.tr(" + M (causal)") if scenario.causal else "", h))
        captions = {
            "w_q": self.tr("<b>W<sub>Q</sub></b>: <b>{0}</b>, {1} slices of <b>{2}</b>, one per head (its colour)"),
            "w_k": self.tr("<b>W<sub>K</sub></b>: <b>{0}</b>, {1} slices of <b>{2}</b>, one per head"),
            "w_v": self.tr("<b>W<sub>V</sub></b>: <b>{0}</b>, {1} slices of <b>{2}</b>, one per head"),
        }
        for name, text in captions.items():
            self.tabs.captions[name].setText(text.format(SHAPE(d_model, d_model), h, SHAPE(d_model, d_k)))
        for name, letter in (("queries", "Q"), ("keys", "K"), ("values", "V")):
            self.tabs.captions[name].setText(self.tr(
                "<b>{0}</b> = X·W<sub>{0}</sub>: <b>{1}</b>; head i uses its own <b>{2}</b> slice {0}<sub>i</sub>"
            ).format(letter, SHAPE(n, d_model), SHAPE(n, d_k)))
        self.tabs.captions["embeddings"].setText(self.tr(
            "<b>X</b>: one embedding row per token, <b>{0}</b> (seeded N(0, 1) for new words)").format(
                SHAPE(n, d_model)))
        self.tabs.captions["concat"].setText(self.tr(
            "<b>Concat</b>(head<sub>1</sub>, …, head<sub>{0}</sub>): {0} × ({1}) side by side = <b>{2}</b>").format(
                h, SHAPE(n, d_k), SHAPE(n, d_model)))
        self.tabs.captions["w_o"].setText(self.tr(
            "<b>W<sub>O</sub></b>: <b>{0}</b>; its rows {1}…{2} take head 1's part, and so on: it mixes the heads"
        ).format(SHAPE(d_model, d_model), 1, d_k))
        self.tabs.captions["output"].setText(self.tr(
            "<b>Output</b> = Concat·W<sub>O</sub>: ({0}) · ({1}) = <b>{0}</b>, one row per token as wide as "
            "the input").format(SHAPE(n, d_model), SHAPE(d_model, d_model)))
        for tile in self.heads_grid.tiles:
            first, last = tile.head * d_k + 1, (tile.head + 1) * d_k
            span = str(first) if d_k == 1 else f"{first}…{last}"  # the columns: the selection line says so in words
            tile.title.setText(self.tr("Head {0} · {1}").format(tile.head + 1, span))
            tile.title.setToolTip(self.tr("Scores Q_{0}·K_{0}ᵀ ({1}) above, the row softmax below; click to "
                                          "explore this head on the canvas").format(tile.head + 1, SHAPE(n, n)))

    def set_presenting(self, presenting: bool) -> None:
        """Presentation: the tables' numbers as large as the maps' and every cell shown (the page of tables
        scrolls, with its scroll bar showing it, when they do not fit), the tables' column as wide as they need."""
        self._presenting = presenting
        self.message_label.show_statuses(not presenting)
        self.tabs.set_whole(presenting)
        self._apply_theme()

    def _fit_splitter(self) -> None:
        if getattr(self, "_presenting", False):
            total = sum(self.splitter.sizes())
            tables = min(self.tabs.whole_width(), int(total * TABLES_SHARE))
            self.splitter.setSizes([tables, total - tables])

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._fit_splitter()

    def _apply_theme(self) -> None:
        """Re-apply sizes after a presentation-zoom change."""
        font = QFont(self.font())
        # In presentation the tables' numbers are read from the back row: the size of the maps' numbers.
        font.setPointSizeF(theme().number_pt() if getattr(self, "_presenting", False) else theme().font_pt())
        self.tabs.set_font(font)
        self.heads_grid.apply_theme()
        self.refresh()
        self._fit_splitter()

    def retranslate(self) -> None:
        """Static texts in the current language."""
        self.tokens_label.setText(self.tr("Sentence"))
        self.tokens_edit.setPlaceholderText(self.tr("Words separated by spaces, or Chinese without spaces"))
        self.tokens_edit.setToolTip(self.tr("Type a sentence and press Enter (1 to 512 tokens): words separated by "
                                            "spaces, or Chinese without spaces, which becomes one token per "
                                            "character as Chinese BERT splits it (我爱北京 → 我 爱 北 京)"))
        self.size_labels["d_model"].setText(self.tr("d_model"))
        self.size_labels["heads"].setText(self.tr("h"))
        self.size_labels["seed"].setText(self.tr("seed"))
        self.size_spins["d_model"].setToolTip(self.tr("Width of each embedding; a new width draws new seeded X and "
                                                      "W (it must be a multiple of h)"))
        self.size_spins["heads"].setToolTip(self.tr("Number of heads: the same W_Q, W_K, W_V, W_O cut into h "
                                                    "slices of d_model / h columns (h must divide d_model)"))
        self.size_spins["seed"].setToolTip(self.tr("Changing the seed draws new random X and W"))
        for index, name in enumerate(("W_Q, W_K, W_V", self.tr("Q, K, V"), "X", self.tr("Concat, W_O, output"))):
            self.tabs.setTabText(index, name)
        self.causal_check.setText(self.tr("Causal mask"))
        self.causal_check.setToolTip(self.tr("−∞ above the diagonal before softmax, in every head"))
        self.scale_check.setText(self.tr("Scale by 1/√d_k"))
        self.scale_check.setToolTip(self.tr("Off: softmax of the raw scores (factor 1)"))
        self.message_label.redraw()
        self._update_texts()
        self._show_selection()

    def changeEvent(self, event) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        elif event.type() == QEvent.Type.PaletteChange:
            self.tabs.setStyleSheet(self.tabs.styleSheet())  # re-polish the tables with the new palette
            self.message_label.redraw()
        super().changeEvent(event)
