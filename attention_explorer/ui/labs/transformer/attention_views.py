"""The transformer page's "Where attention goes" tab: the head view, the model view, the sinks switch, export.

It keeps the page's last result (tokens and layers × heads × N × N weights, BERT's or GPT-2's alike), asks the
core for the weights without the sink columns when the switch is on, and hands both views what to draw.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PySide6.QtCore import QEvent, Signal
from PySide6.QtGui import QAction, QFont
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QMenu,
    QMessageBox,
    QPushButton,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from attention_explorer.core.pretrained.sinks import sink_columns, sink_share, without_sinks
from attention_explorer.ui.i18n.switcher import error_text
from attention_explorer.ui.labs.transformer.attention_lines import export_view
from attention_explorer.ui.labs.transformer.head_view import HeadView
from attention_explorer.ui.labs.transformer.kv_groups import GROUPS_LISTED, head_groups
from attention_explorer.ui.labs.transformer.model_view import ModelView
from attention_explorer.ui.style.safe_text import literal, plain_label, window_title
from attention_explorer.ui.style.theme import theme

HEAD_VIEW, MODEL_VIEW = 0, 1


class AttentionViews(QWidget):
    """Head view and model view of the page's result, with "Hide attention sinks" and PNG/SVG export."""

    head_chosen = Signal(int, int)  # a model-view thumbnail was clicked: open that layer and head
    hint = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("attentionViews")
        self.tokens: tuple[str, ...] = ()
        self.attentions = np.zeros((0, 0, 0, 0))
        self.shown = self.attentions  # what the views draw: the attentions, or them without the sinks
        self.hidden = np.zeros(0, dtype=bool)
        self.layer = 0
        self.kv_heads: tuple[int, ...] = ()
        self._current: tuple[int, int] | None = None

        self.view_buttons = QButtonGroup(self)
        self.head_button = QPushButton(self)
        self.head_button.setObjectName("headViewButton")
        self.model_button = QPushButton(self)
        self.model_button.setObjectName("modelViewButton")
        for index, button in enumerate((self.head_button, self.model_button)):
            button.setCheckable(True)
            self.view_buttons.addButton(button, index)
        self.head_button.setChecked(True)
        self.sinks_box = QCheckBox(self)
        self.sinks_box.setObjectName("hideSinks")
        self.export_button = QPushButton(self)
        self.export_button.setObjectName("exportViewButton")
        self.png_action = QAction(self)
        self.svg_action = QAction(self)
        menu = QMenu(self.export_button)
        menu.addAction(self.png_action)
        menu.addAction(self.svg_action)
        self.export_button.setMenu(menu)
        self.sinks_label = plain_label(QLabel(self))
        self.sinks_label.setObjectName("sinksExplanation")
        self.sinks_label.setWordWrap(True)
        self.groups_label = plain_label(QLabel(self))  # grouped-query attention: which query heads share K and V
        self.groups_label.setObjectName("kvGroupsCaption")
        self.groups_label.setWordWrap(True)
        self.groups_label.setVisible(False)
        self.head_view = HeadView(self)
        self.model_view = ModelView(self)
        self.stack = QStackedWidget(self)
        self.stack.addWidget(self.head_view)
        self.stack.addWidget(self.model_view)

        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.head_button)
        row.addWidget(self.model_button)
        row.addSpacing(12)
        row.addWidget(self.sinks_box)
        row.addStretch(1)
        row.addWidget(self.export_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.setSpacing(4)
        layout.addLayout(row)
        layout.addWidget(self.groups_label)
        layout.addWidget(self.sinks_label)
        layout.addWidget(self.stack, 1)

        self.view_buttons.idClicked.connect(self.stack.setCurrentIndex)
        self.sinks_box.toggled.connect(self._recompute)
        self.png_action.triggered.connect(lambda: self.export_dialog("png"))
        self.svg_action.triggered.connect(lambda: self.export_dialog("svg"))
        self.model_view.head_chosen.connect(self.head_chosen)
        self.model_view.tile_hovered.connect(self._on_tile_hovered)
        self.head_view.hovered.connect(self._on_token_hovered)
        self.retranslate()
        self.apply_theme()

    # ------------------------------------------------------------ the page's hooks

    def show_analysis(self, tokens: tuple[str, ...], attentions: np.ndarray,
                      kv_heads: tuple[int, ...] = ()) -> None:
        """A new result: its tokens, every layer's attention (layers × heads × N × N), and the K/V head of each query
        head (grouped-query attention: the views group the heads that share one)."""
        self.kv_heads = tuple(kv_heads)
        self.head_view.set_kv_heads(self.kv_heads)
        self.model_view.set_kv_heads(self.kv_heads)
        self._update_groups_text()
        self.tokens = tuple(tokens)
        self.attentions = np.asarray(attentions, dtype=np.float64)
        self.hidden = sink_columns(self.tokens)
        self._recompute()

    def set_current(self, layer: int, head: int) -> None:
        """The page shows this layer and head: the head view draws that layer, with that head alone when it moved."""
        moved = (layer, head) != self._current
        self._current = (layer, head)
        self.layer = layer
        self.model_view.set_current(layer, head)
        self._show_layer()
        if moved:
            self.head_view.select_only(head)

    def show_view(self, index: int) -> None:
        """HEAD_VIEW or MODEL_VIEW, as the buttons do."""
        self.view_buttons.button(index).setChecked(True)
        self.stack.setCurrentIndex(index)

    @property
    def sinks_hidden(self) -> bool:
        """True while the sink columns are hidden and the rest renormalised."""
        return self.sinks_box.isChecked()

    def current_view(self) -> HeadView | ModelView:
        """The view on show (the one Export writes)."""
        return self.stack.currentWidget()

    # ------------------------------------------------------------ what the views draw

    def _recompute(self, *_args) -> None:
        if self.sinks_hidden and self.attentions.size:
            self.shown = without_sinks(self.attentions, self.hidden)
        else:
            self.shown = self.attentions
        self.model_view.show_attentions(self.shown)
        self._show_layer()
        self._update_sinks_text()

    def _show_layer(self) -> None:
        if self.shown.shape[0] == 0:
            return
        layer = min(self.layer, self.shown.shape[0] - 1)
        hidden = self.hidden if self.sinks_hidden else np.zeros(len(self.tokens), dtype=bool)
        self.head_view.show_layer(self.tokens, self.shown[layer], hidden, layer)

    def groups_text(self) -> str:
        """"Heads 0–3 share K/V head 0, …" for a model with grouped-query attention; "" without it."""
        groups = head_groups(self.kv_heads)
        if not groups:
            return ""
        parts = [self.tr("heads {0}–{1} share K/V head {2}").format(group.first, group.last, group.kv)
                 for group in groups]
        if len(parts) > GROUPS_LISTED:
            parts = [*parts[:GROUPS_LISTED - 1], "…", parts[-1]]
        return self.tr("Grouped-query attention, {0} query heads on {1} K/V heads: {2}. The heads of a group "
                       "score the same keys with their own queries.").format(
            len(self.kv_heads), len(groups), self.tr(", ").join(parts))

    def _update_groups_text(self) -> None:
        text = self.groups_text()
        self.groups_label.setText(text)
        self.groups_label.setVisible(bool(text))

    def _update_sinks_text(self) -> None:
        self.sinks_label.setVisible(self.sinks_hidden)
        if not self.sinks_hidden:
            return
        names = ", ".join(dict.fromkeys(token for token, hidden in zip(self.tokens, self.hidden) if hidden))
        share = sink_share(self.attentions, self.hidden) if self.attentions.size else 0.0
        self.sinks_label.setText(self.tr(
            "Hidden: {0} ({1:.0%} of all attention); each row of the rest is renormalised to add up to 1. "
            "Models park attention on the first token, on [CLS], [SEP] and full stops when a head has nothing "
            "useful to look at: softmax must put its weight somewhere, and these tokens are always there.")
            .format(names, share))

    # ------------------------------------------------------------ export

    def ask_export_path(self, fmt: str) -> str:
        """The save dialog (tests replace this)."""
        name = "head-view" if self.stack.currentIndex() == HEAD_VIEW else "model-view"
        file_filter = "PNG (*.png)" if fmt == "png" else "SVG (*.svg)"
        path, _ = QFileDialog.getSaveFileName(self, self.tr("Export the view"), str(Path.home() / f"{name}.{fmt}"),
                                              file_filter)
        return path

    def export_dialog(self, fmt: str) -> bool:
        """Export ▸ PNG or SVG: ask where, then write the view on show."""
        path = self.ask_export_path(fmt)
        if not path:
            return False
        if not path.lower().endswith(f".{fmt}"):
            path += f".{fmt}"
        return self.export(path)

    def export(self, path: str) -> bool:
        """Write the view on show to `path` (PNG or SVG by its suffix); the status bar says how it went.

        "Exported" only for a file that is on the disk whole; otherwise the file's name and the reason.
        """
        try:
            export_view(self.current_view(), path)
        except Exception as error:  # a full or read-only disk, a name that is a folder, a picture not made
            text = self.tr("{0} was not exported: {1}").format(Path(path).name, error_text(error))
            self.hint.emit(text)
            QMessageBox.warning(self, window_title(self.tr("Cannot export")), literal(text))
            return False
        self.hint.emit(self.tr("Exported {0}").format(Path(path).name))
        return True

    # ------------------------------------------------------------ hints, language, theme

    def _on_tile_hovered(self, layer: int, head: int) -> None:
        self.hint.emit("" if layer < 0 else self.tr("Layer {0}, head {1}: click to open it").format(layer, head))

    def _on_token_hovered(self, side: str, index: int) -> None:
        if not side:
            self.hint.emit("")
        elif side == "query":
            self.hint.emit(self.tr("Where “{0}” looks: its attention over every key").format(self.tokens[index]))
        else:
            self.hint.emit(self.tr("Who looks at “{0}”: every query's weight on it").format(self.tokens[index]))

    def title(self) -> str:
        """The tab's title."""
        return self.tr("Where attention goes")

    def retranslate(self) -> None:
        """Every text in the current language."""
        self.head_button.setText(self.tr("Head view"))
        self.head_button.setToolTip(self.tr(
            "Lines from each token (left) to the tokens it attends to (right), one colour per head; click a "
            "swatch to switch a head on or off, double-click to keep only it; hover a token for its lines alone"))
        self.model_button.setText(self.tr("Model view"))
        self.model_button.setToolTip(self.tr("Every layer and head at once; click one to open it"))
        self.sinks_box.setText(self.tr("Hide attention sinks"))
        self.sinks_box.setToolTip(self.tr(
            "Leave out the first token, [CLS], [SEP] and full stops, and renormalise the rest of each row"))
        self.export_button.setText(self.tr("Export"))
        self.png_action.setText(self.tr("Export as PNG…"))
        self.svg_action.setText(self.tr("Export as SVG…"))
        self.head_view.texts = {"query": self.tr("query"), "key": self.tr("key"),
                                "mean": self.tr("mean of {0} heads"), "group": self.tr("K/V {0}")}
        self.model_view.group_text = self.head_view.texts["group"]
        self.model_view.apply_theme()
        self.head_view.update()
        self._update_groups_text()
        self._update_sinks_text()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def apply_theme(self) -> None:
        """Fonts for the presentation zoom; the views take their colours from the theme when they paint."""
        font = QFont(self.font())
        font.setPointSizeF(theme().font_pt())
        self.sinks_label.setFont(font)
        self.groups_label.setFont(font)
        self.model_view.apply_theme()
        self.head_view.update()
