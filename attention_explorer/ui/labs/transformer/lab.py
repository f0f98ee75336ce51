"""Real transformer mode: a local BERT's attention on the user's sentence, and one token sent to the explorer as Q.

The panel is a lab with its own state (the loaded model, the analysed sentence, the chosen layer, head and
query token); the numbers come from core.bert / core.checkpoint. It writes to the explorer only through
`model.load_scenario` (one undo step), and reads the model back to mark which key is selected there.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PySide6.QtCore import QEvent, QSignalBlocker, Qt, Signal
from PySide6.QtGui import QBrush, QFont
from PySide6.QtWidgets import (
    QFileDialog,
    QTableWidgetItem,
    QWidget,
)

from attention_explorer.core.limits import MAX_DESCRIPTION, MAX_LABEL, MAX_TITLE, ScenarioError
from attention_explorer.core.maths.positional import interleaved
from attention_explorer.core.pretrained import checkpoint
from attention_explorer.core.pretrained.checkpoint import Analysis, Checkpoint
from attention_explorer.core.pretrained.generation import cache_cost
from attention_explorer.core.scenes.positions.scene import PositionalScene
from attention_explorer.core.scenes.query.scene import Scenario
from attention_explorer.state.explorer import ExplorerModel
from attention_explorer.ui.i18n.switcher import error_text
from attention_explorer.ui.labs.transformer.jobs import ModelJob
from attention_explorer.ui.labs.transformer.page import GENERATION_TAB, build_page
from attention_explorer.ui.labs.transformer.run import ModelRunner, subscript
from attention_explorer.ui.style.numbers import formatted_number
from attention_explorer.ui.style.safe_text import escaped, literal, mnemonic_free
from attention_explorer.ui.style.theme import key_color, query_color, theme
from attention_explorer.ui.widgets.heatmap import CELL_TEXT_MAX_N, short_token

CELL_TEXT_MAX_TOKENS = CELL_TEXT_MAX_N  # numbers in the cells up to this many tokens; beyond that unreadable




class TransformerLab(ModelRunner, QWidget):
    """Open a local BERT, type a sentence, see each head's attention, q, k, v; send a token to the explorer."""

    hint = Signal(str)
    model_loaded = Signal(str)  # the loaded model's name
    idle = Signal()  # a job (loading, a forward pass) has ended and its result is shown
    scene_requested = Signal(object)  # a scene for another lab (a real head's q and k for the positions lab)

    def __init__(self, model: ExplorerModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("transformerPanel")
        self.model = model
        self.loaded: Checkpoint | None = None
        self.analysis: Analysis | None = None
        self._sent: Scenario | None = None
        self._sent_text = ""
        self._key_token = -1  # the key n of the pair (a clicked cell's column); -1: the one the query attends to most
        self._error = ""
        self._missing = checkpoint.missing_packages()
        self._job: ModelJob | None = None
        self._job_quiet = False  # the job running is a short one that leaves the page enabled (a next token)

        build_page(self)

        self.open_button.clicked.connect(self.open_dialog)
        self.empty_open_button.clicked.connect(self.open_dialog)
        self.models_combo.activated.connect(self._on_model_chosen)
        self.sentence_edit.returnPressed.connect(self.start_analyse)
        self.show_button.clicked.connect(self.start_analyse)
        self.generation.next_clicked.connect(self.start_next_token)
        self.generation.explore_clicked.connect(self.explore_newest)
        self.layer_spin.valueChanged.connect(self._on_head_changed)
        self.head_spin.valueChanged.connect(self._on_head_changed)
        self.query_combo.currentIndexChanged.connect(self._on_query_changed)
        self.send_button.clicked.connect(self.send_query_to_explorer)
        self.positions_button.clicked.connect(self.send_pair_to_positions)
        self.role_buttons.idClicked.connect(lambda _id: self._show_vectors())
        self.weights_map.cell_clicked.connect(self._on_cell_clicked)
        self.scores_map.cell_clicked.connect(self._on_cell_clicked)
        self.weights_map.cell_hovered.connect(self._on_cell_hovered)
        self.scores_map.cell_hovered.connect(self._on_cell_hovered)
        self.grid.head_clicked.connect(self._on_grid_clicked)
        self.grid.head_hovered.connect(self._on_grid_hovered)
        self.attention_views.head_chosen.connect(self._on_grid_clicked)
        self.attention_views.hint.connect(self.hint)
        model.changed.connect(self._sync_with_explorer)
        model.selection_changed.connect(self._sync_with_explorer)
        theme().changed.connect(self._apply_theme)

        self.cached_models: list[checkpoint.CachedCheckpoint] = []
        self.refresh_cached_models()
        self.retranslate()
        self._apply_theme()
        self._update_enabled()

    # ------------------------------------------------------------ public API (the main window calls these)

    @property
    def available(self) -> bool:
        """True when the optional packages (safetensors, tokenizers) are installed."""
        return not self._missing

    def refresh_cached_models(self) -> None:
        """List the supported models already in the Hugging Face cache (reads the disk only, never the network)."""
        self.cached_models = checkpoint.find_cached_checkpoints() if self.available else []
        current = self.loaded.folder if self.loaded is not None else None
        with QSignalBlocker(self.models_combo):
            self.models_combo.clear()
            self.models_combo.addItem("", None)  # the placeholder; its text is set in retranslate
            for cached in self.cached_models:
                self.models_combo.addItem(cached.name, str(cached.path))
                self.models_combo.setItemData(self.models_combo.count() - 1, literal(str(cached.path)),
                                              Qt.ItemDataRole.ToolTipRole)
            if current is not None:
                self._select_folder_item(current, self.loaded.name)
        self._retranslate_placeholder()

    def ask_model_folder(self) -> str:
        """The folder dialog (tests replace this method)."""
        start = checkpoint.hub_cache_dir()
        return QFileDialog.getExistingDirectory(self, self.tr("Open a model folder"),
                                                str(start if start.is_dir() else Path.home()))

    def open_dialog(self) -> bool:
        """"Open model…": choose a folder and load it; says what to install when the packages are missing."""
        if not self.available:
            self.hint.emit(self._missing_text())
            return False
        folder = self.ask_model_folder()
        return bool(folder) and self.start_open(folder)

    def set_head(self, layer: int, head: int) -> None:
        """Show one head (0-based), as the spin boxes do."""
        with QSignalBlocker(self.layer_spin):
            self.layer_spin.setValue(layer)
        self.head_spin.setValue(head)
        self._on_head_changed()

    def set_query_token(self, index: int) -> None:
        """Make token `index` the query that "Use as the query" sends."""
        if 0 <= index < self.query_combo.count():
            self.query_combo.setCurrentIndex(index)

    @property
    def layer(self) -> int:
        """The layer shown (0-based)."""
        return self.layer_spin.value()

    @property
    def head(self) -> int:
        """The head shown (0-based)."""
        return self.head_spin.value()

    @property
    def query_token(self) -> int:
        """Index of the token chosen as the query."""
        return max(self.query_combo.currentIndex(), 0)

    @property
    def key_token(self) -> int:
        """Index of the pair's key n: the clicked cell's column when the query may see it, else the key the query
        attends to most in the head shown (-1 before a sentence is analysed)."""
        if self.analysis is None:
            return -1
        visible = self.query_token + 1 if self.analysis.causal else self.analysis.n
        if 0 <= self._key_token < visible:
            return self._key_token
        return int(np.argmax(self.analysis.head(self.layer, self.head).weights[self.query_token, :visible]))

    def set_key_token(self, index: int) -> None:
        """Make token `index` the pair's key n (as a click on a cell of its column does)."""
        self._key_token = index
        self._update_send_text()

    @property
    def rotary(self) -> bool:
        """True for a model with RoPE (the Llama family): its q and k are rotated by position."""
        return self.loaded is not None and self.loaded.rope_theta is not None

    def positions_scene(self) -> PositionalScene | None:
        """The chosen query's q and the pair's key's k in this head, before RoPE, at their positions m and n, with
        the model's base θ, for the positions lab (None without a RoPE model's analysis)."""
        if self.analysis is None or not self.rotary:
            return None
        head = self.analysis.head(self.layer, self.head)
        m, n = self.query_token, self.key_token
        tokens = self.analysis.tokens
        # The model pairs number i with number i + d/2; the lab pairs 2i with 2i + 1: the same pairs, reordered.
        q, k = interleaved(head.queries_unrotated[m]), interleaved(head.keys_unrotated[n])
        title = self.tr("{0}, layer {1}, head {2}: “{3}” and “{4}”").format(
            self.loaded.name, self.layer, self.head, short_token(tokens[m], 20), short_token(tokens[n], 20))
        description = self.tr(
            "Real q and k from {0}, layer {1}, head {2} (K/V head {3}), before RoPE: q of “{4}” at m = {5}, k of "
            "“{6}” at n = {7}. At these positions R(m)q · R(n)k = {8}, the model's own score (÷ √{9} = {10}).").format(
            self.loaded.name, self.layer, self.head, head.kv_head, short_token(tokens[m], 40), m,
            short_token(tokens[n], 40), n, formatted_number("{:.4f}", float(head.queries[m] @ head.keys[n])),
            head.head_size, formatted_number("{:.4f}", float(head.scaled_scores[m, n])))
        return PositionalScene(d=head.head_size, pair=0, m=m, n=n, title=title[:MAX_TITLE],
                               description=description[:MAX_DESCRIPTION], q=tuple(q.tolist()), k=tuple(k.tolist()),
                               base=self.loaded.rope_theta)

    def send_pair_to_positions(self) -> bool:
        """"Positions lab": the pair's q and k, before RoPE, into the positions lab (the window opens it there)."""
        try:
            scene = self.positions_scene()
        except ScenarioError as error:  # a base or a position beyond what the lab takes
            self._show_error(error_text(error))
            return False
        if scene is None:
            return False
        self.scene_requested.emit(scene)
        self.hint.emit(self.tr("In the positions lab now: {0}").format(scene.title))
        return True

    def query_scenario(self) -> Scenario | None:
        """The chosen token as a single-query scenario of the chosen head (None before a sentence is analysed)."""
        if self.analysis is None or self.loaded is None:
            return None
        head = self.analysis.head(self.layer, self.head)
        index = self.query_token
        tokens = self.analysis.tokens
        labels = tuple(token[:MAX_LABEL] for token in tokens)
        title = self.tr("“{0}” as the query (layer {1}, head {2})").format(
            short_token(tokens[index], 40), self.layer, self.head)[:MAX_TITLE]
        if self.analysis.causal:  # GPT-2: the cached keys up to the token, the ones it attends over
            return self._causal_scenario(head, index, labels[: index + 1], title)
        sentence = self.analysis.text if len(self.analysis.text) <= 300 else self.analysis.text[:299] + "…"
        description = self.tr(
            "Real numbers from {0}, layer {1}, head {2}, for the sentence “{3}”. Q is the query vector of "
            "“{4}”; the keys and values are the k and v of every token ({5} of them) in this head, d_k = {6}. "
            "BERT scales the scores by 1/√{6}, as the explorer does.").format(
            self.loaded.name, self.layer, self.head, sentence, tokens[index], len(tokens), head.head_size)
        return Scenario(query=head.queries[index], keys=head.keys, values=head.values, labels=labels,
                        title=title, description=description, scale=None)

    def send_query_to_explorer(self) -> bool:
        """Put the chosen token's q, and the sentence's k's and v's, into the explorer (one undo step)."""
        try:
            scenario = self.query_scenario()
            if scenario is None:
                self._show_error(self.tr("Open a model and type a sentence first."))
                return False
            self._sent_text = scenario.title
            self._sent = scenario
            self.model.load_scenario(scenario)
            self.model.select_key(self.key_token)  # the pair's key: a clicked column, or the one attended to most
        except ScenarioError as error:
            self._sent = None
            self._show_error(error_text(error))
            return False
        self.hint.emit(self.tr("In the explorer now: {0}").format(scenario.title))
        self._sync_with_explorer()
        return True

    # ------------------------------------------------------------ drawing

    def _refresh(self) -> None:
        """Redraw the head's matrices, the grid frame, the vectors and the status from the current analysis."""
        if self.analysis is None:
            self._update_status()
            return
        head = self.analysis.head(self.layer, self.head)
        tokens = self.analysis.tokens
        # GPT-2's causal mask hatched: a query never sees a later key
        masked = np.triu(np.ones(head.weights.shape, dtype=bool), 1) if self.analysis.causal else None
        self.weights_map.show_matrix(head.weights, (0.0, 1.0), tokens, self._cell_texts(head.weights, "{:.2f}"),
                                     masked)
        peak = float(np.max(np.abs(head.scaled_scores))) or 1.0
        self.scores_map.show_matrix(head.scaled_scores, (-peak, peak), tokens,
                                    self._cell_texts(head.scaled_scores, "{:.1f}"), masked)
        if self.loaded is not None and self.loaded.generates:
            keys = self.analysis.output.layers[0].keys
            self.generation.show_analysis(self.analysis, self.layer, self.head,
                                          cache_cost(self.loaded.config, self.analysis.n, keys.itemsize))
        self.grid.set_current(self.layer, self.head)
        self.attention_views.set_current(self.layer, self.head)
        self._show_vectors()
        self._update_marks()
        self._update_send_text()
        self._update_status()

    @staticmethod
    def _cell_texts(matrix: np.ndarray, number_format: str) -> list[str] | None:
        """The numbers of a matrix small enough to show them in its cells."""
        if matrix.shape[0] > CELL_TEXT_MAX_TOKENS:
            return None
        return [formatted_number(number_format, value) for value in matrix.ravel().tolist()]

    def _show_vectors(self) -> None:
        """The chosen role's vectors, one token per row: its norm, then every component (updated in place)."""
        if self.analysis is None:
            return
        head = self.analysis.head(self.layer, self.head)
        role = self.role_buttons.checkedId()
        vectors = (head.queries, head.keys, head.values)[max(role, 0)]
        n, d = vectors.shape
        table = self.vectors_table
        if table.rowCount() != n or table.columnCount() != d + 1:
            table.clear()
            table.setRowCount(n)
            table.setColumnCount(d + 1)
            for i in range(n):
                for j in range(d + 1):
                    item = QTableWidgetItem()
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                    table.setItem(i, j, item)
        table.setHorizontalHeaderLabels(["‖·‖", *(str(j) for j in range(d))])
        table.setVerticalHeaderLabels([f"{i}: {token}" for i, token in enumerate(self.analysis.tokens)])
        norms = np.linalg.norm(vectors, axis=1)
        for i in range(n):
            header = table.verticalHeaderItem(i)
            header.setForeground(QBrush(key_color(i) if role else query_color()))
            table.item(i, 0).setText(f"{norms[i]:.3f}")
            for j in range(d):
                table.item(i, j + 1).setText(formatted_number("{:.3f}", vectors[i, j]))
        table.selectRow(self.query_token)
        self.vectors_caption.setText(self._vectors_caption(role, d))

    def _vectors_caption(self, role: int, d: int) -> str:
        if role == 1:
            return self.tr("k of each token: what it offers to be matched ({0} numbers)").format(d)
        if role == 2:
            return self.tr("v of each token: what it passes on when attended to ({0} numbers)").format(d)
        return self.tr("q of each token: what it looks for ({0} numbers)").format(d)

    def _update_marks(self) -> None:
        """The query row, and the explorer's selected key while the explorer shows what we sent."""
        column = self.model.selected_key if self._explorer_shows_ours() else -1
        for heatmap in (self.weights_map, self.scores_map):
            heatmap.set_marks(self.query_token, column)

    def _explorer_shows_ours(self) -> bool:
        return self._sent is not None and self.model.scenario is self._sent

    def _sync_with_explorer(self, *_args) -> None:
        """The explorer changed: mark its selected key while it shows what we sent (again after Undo, Redo)."""
        self._update_marks()
        self._update_status()

    def _update_status(self) -> None:
        """One line: the error, or what is shown (and what the explorer holds); hidden when there is none."""
        self.status_label.setText(self._status_text())
        self.status_label.setVisible(bool(self.status_label.text()))

    def _status_text(self) -> str:
        if self._error:
            colour = theme().error_hex()
            return f'<span style="color:{colour}">{escaped(self._error)}</span>'
        if self.loaded is None:
            return ""  # the empty state says what to do
        config = self.loaded.config
        if self.loaded.num_kv_heads < config.num_heads:
            parts = [self.tr("<b>{0}</b>: {1} layers × {2} heads sharing {3} K/V heads, d_k = {4}").format(
                escaped(self.loaded.name), config.num_layers, config.num_heads, self.loaded.num_kv_heads,
                config.head_size)]
        else:
            parts = [self.tr("<b>{0}</b>: {1} layers × {2} heads, d_k = {3}").format(
                escaped(self.loaded.name), config.num_layers, config.num_heads, config.head_size)]
        if self.analysis is not None:
            parts.append(self.tr("{0} tokens").format(self.analysis.n))
        if self._explorer_shows_ours():
            parts.append(self.tr("in the explorer: {0}").format(escaped(self._sent_text)))
        return " · ".join(parts)

    def _show_error(self, message: str) -> None:
        self._error = message
        self._update_status()
        self.hint.emit(message)

    def _update_enabled(self) -> None:
        available = self.available
        empty = self.loaded is None
        self.empty_state.setVisible(empty)
        self.model_view.setVisible(not empty)
        self.open_button.setVisible(not empty)  # the empty state has its own: one open button on the page
        for label in (self.missing_label, self.install_label):
            label.setVisible(not available)
        idle = available and not self.busy
        # A short job (a next token) leaves the page enabled, so that it does not flash grey on every click; what
        # would start another job meanwhile is refused (`busy`) and only the Next token button waits.
        usable = idle or (available and self._job_quiet)
        for widget in (self.open_button, self.empty_open_button, self.models_combo, self.sentence_edit,
                       self.show_button):
            widget.setEnabled(usable)
        ready = usable and self.analysis is not None
        for widget in (self.layer_spin, self.head_spin, self.query_combo, self.send_button, self.positions_button,
                       self.tabs):
            widget.setEnabled(ready)
        self.generation.next_button.setEnabled(ready and idle)

    # ------------------------------------------------------------ reactions

    def _on_model_chosen(self, index: int) -> None:
        folder = self.models_combo.itemData(index)
        if folder and (self.loaded is None or Path(folder) != self.loaded.folder):
            if not self.start_open(folder):
                self._select_loaded_item()

    def _select_loaded_item(self) -> None:
        """The combo back on the model that is shown (after a model failed to open)."""
        with QSignalBlocker(self.models_combo):
            self._select_folder_item(self.loaded.folder if self.loaded else None, "")

    def _select_folder_item(self, folder: Path | None, name: str) -> None:
        """Select the combo item of a folder, adding it when it came from the dialog."""
        if folder is None:
            self.models_combo.setCurrentIndex(0)
            return
        for index in range(1, self.models_combo.count()):
            if self.models_combo.itemData(index) and Path(self.models_combo.itemData(index)) == Path(folder):
                self.models_combo.setCurrentIndex(index)
                return
        self.models_combo.addItem(name, str(folder))
        self.models_combo.setItemData(self.models_combo.count() - 1, literal(str(folder)),
                                      Qt.ItemDataRole.ToolTipRole)
        self.models_combo.setCurrentIndex(self.models_combo.count() - 1)

    def _on_head_changed(self, *_args) -> None:
        self._refresh()

    def _on_query_changed(self, _index: int) -> None:
        self._key_token = -1  # a new query: its own strongest key until a cell is clicked
        if self.analysis is not None:
            self.vectors_table.selectRow(self.query_token)
            self._update_marks()
            self._update_send_text()

    def _on_cell_clicked(self, row: int, column: int) -> None:
        """A cell chooses the pair: its row the query token, its column the key (selected in the explorer too while it
        shows our tokens)."""
        self.set_query_token(row)
        self.set_key_token(column)
        if self._explorer_shows_ours():
            try:
                self.model.select_key(column)
            except ScenarioError as error:
                self._show_error(error_text(error))

    def _on_cell_hovered(self, row: int, column: int) -> None:
        if row < 0 or self.analysis is None:
            self.hint.emit("")
            return
        head = self.analysis.head(self.layer, self.head)
        tokens = self.analysis.tokens
        text = self.tr("“{0}” → “{1}”: weight {2}, scaled score q·k/√{3} = {4} — click to choose this pair: “{0}” the "
                       "query, “{1}” the key")
        self.hint.emit(text.format(tokens[row], tokens[column], f"{head.weights[row, column]:.4f}", head.head_size,
                                   f"{head.scaled_scores[row, column]:.4f}"))

    def _on_grid_clicked(self, layer: int, head: int) -> None:
        self.set_head(layer, head)
        self.tabs.setCurrentWidget(self.weights_map)

    def _on_grid_hovered(self, layer: int, head: int) -> None:
        if layer < 0:
            self.hint.emit("")
        else:
            self.hint.emit(self.tr("Layer {0}, head {1}: click to show it large").format(layer, head))

    # ------------------------------------------------------------ language and theme

    def _missing_text(self) -> str:
        packages = " ".join(self._missing)
        text = self.tr("Real transformer mode needs the optional packages safetensors and tokenizers "
                       "(missing here: {0}). Install them with: {1}").format(packages, checkpoint.INSTALL_HINT)
        return text

    def _retranslate_placeholder(self) -> None:
        if not self.available:
            text = self.tr("(optional packages missing)")
        elif self.cached_models:
            text = self.tr("Models on this computer ({0})…").format(len(self.cached_models))
        else:
            text = self.tr("No models in the Hugging Face cache")
        self.models_combo.setItemText(0, text)

    def _update_send_text(self) -> None:
        token = self.analysis.tokens[self.query_token] if self.analysis is not None else ""
        self.send_button.setText(self.tr("Explore “{0}” as Q").format(mnemonic_free(short_token(token, 12))) if token
                                 else self.tr("Explore as Q"))
        self.positions_button.setVisible(self.rotary)
        if self.rotary and self.analysis is not None:
            m, n = self.query_token, self.key_token
            self.positions_button.setText(self.tr("q{0}·k{1} in Positions").format(subscript(m), subscript(n)))
            self.positions_button.setToolTip(self.tr(
                "Open this head's q of “{0}” (m = {1}) and k of “{2}” (n = {3}), before RoPE, in the positions lab: "
                "move m and n and q·k changes with m − n only. Click a cell to choose another pair.").format(
                self.analysis.tokens[m], m, self.analysis.tokens[n], n))

    def retranslate(self) -> None:
        """Every static text in the current language (called again on LanguageChange)."""
        self.empty_title.setText(self.tr("No model open"))
        self.empty_what.setText(self.tr(
            "This page runs a real BERT-family model on your sentence and shows the attention "
            "softmax(q·k/√d_k) of each of its heads. Any token can then be explored as the query on the canvas."))
        self.missing_label.setText(self.tr("First install the optional packages it needs (missing here: {0}):")
                                   .format(" ".join(self._missing)))
        self.install_label.setText(checkpoint.INSTALL_HINT)
        self.empty_how.setText(self.tr(
            "Then open a local Hugging Face model folder with config.json, model.safetensors and tokenizer.json. "
            "Models already in the Hugging Face cache on this computer are listed in the box above; nothing is "
            "downloaded.") if not self.available else self.tr(
            "Open a local Hugging Face model folder with config.json, model.safetensors and tokenizer.json. "
            "Models already in the Hugging Face cache on this computer are listed in the box above; nothing is "
            "downloaded."))
        self.empty_open_button.setText(self.tr("Open model folder…"))
        self.empty_open_button.setToolTip(self.tr("The same as File ▸ Open model…"))
        self.open_button.setText(self.tr("Open model…"))
        self.open_button.setToolTip(self.tr(
            "Open a local folder with config.json, model.safetensors and tokenizer.json of a BERT-family model or "
            "a GPT-2"))
        self.models_combo.setToolTip(self.tr(
            "BERT-family and GPT-2 models already in the Hugging Face cache on this computer"))
        self.sentence_edit.setPlaceholderText(self.tr("Type a sentence (English or 中文) and press Enter"))
        self.show_button.setText(self.tr("Show"))
        self.show_button.setToolTip(self.tr("Run the model on the sentence"))
        self.layer_label.setText(self.tr("Layer"))
        self.head_label.setText(self.tr("Head"))
        self.layer_spin.setToolTip(self.tr("Layer, counted from 0"))
        self.head_spin.setToolTip(self.tr("Attention head, counted from 0"))
        self.query_label.setText(self.tr("Query"))
        self.query_combo.setToolTip(self.tr("The token whose q asks; click a row of the matrix to choose it"))
        self.send_button.setToolTip(self.tr(
            "Open this head's q of the chosen token, with every token's k and v, in the explorer: the canvas, "
            "steps and weights then show the model's real numbers"))
        self.tabs.setTabText(0, self.tr("Attention"))
        self.tabs.setTabToolTip(0, self.tr("softmax(q·k/√d_k) for every query (row) and key (column)"))
        self.tabs.setTabText(1, self.tr("Scaled scores"))
        self.tabs.setTabToolTip(1, self.tr("q·k/√d_k before the softmax"))
        self.tabs.setTabText(2, self.tr("All heads"))
        self.tabs.setTabToolTip(2, self.tr("Every head of every layer; click one to show it large"))
        self.tabs.setTabText(3, self.tr("q, k, v"))
        self.tabs.setTabToolTip(3, self.tr("This head's query, key and value vectors of every token"))
        self.tabs.setTabText(self.tabs.indexOf(self.attention_views), self.attention_views.title())
        self.tabs.setTabText(GENERATION_TAB, self.tr("Next token"))
        self.tabs.setTabToolTip(GENERATION_TAB, self.tr("GPT-2 generates one token at a time from its KV cache"))
        for heatmap in (self.weights_map, self.scores_map):
            heatmap.getPlotItem().setLabel("left", self.tr("query"))
            heatmap.getPlotItem().setLabel("top", self.tr("key"))
        self.grid.getPlotItem().setLabel("left", self.tr("layer"))
        self.grid.getPlotItem().setLabel("top", self.tr("head"))
        self._retranslate_placeholder()
        self._update_send_text()
        if self.analysis is not None:
            self.vectors_caption.setText(self._vectors_caption(self.role_buttons.checkedId(),
                                                               self.loaded.config.head_size))
        self._update_status()

    def closeEvent(self, event) -> None:
        if self._job is not None:  # a QThread must not be destroyed while it runs
            self._job.wait()
        super().closeEvent(event)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def _apply_theme(self) -> None:
        """Fonts for the current presentation zoom, and the texts whose colour depends on the theme."""
        text_font = QFont(self.font())
        text_font.setPointSizeF(theme().font_pt())
        for widget in (self.missing_label, self.status_label, self.vectors_caption, self.empty_what,
                       self.empty_how):
            widget.setFont(text_font)
        title_font = QFont(text_font)
        title_font.setPointSizeF(theme().font_pt() * 1.3)
        title_font.setBold(True)
        self.empty_title.setFont(title_font)
        install_font = QFont(self.install_label.font())
        install_font.setPointSizeF(theme().font_pt())
        self.install_label.setFont(install_font)
        table_font = QFont(self.font())
        table_font.setPointSizeF(theme().font_pt())
        self.vectors_table.setFont(table_font)
        for view in (self.weights_map, self.scores_map, self.grid, self.attention_views):
            view.apply_theme()
        self._show_vectors()  # the q rows' labels are in Q's colour, which is light on dark themes
        self._update_status()
