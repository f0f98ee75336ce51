"""The transformer page's widgets and their layout: model, sentence and head choice above four tabs of views."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFontDatabase
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QSizePolicy,
    QSpinBox,
    QTableWidget,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from attention_explorer.ui.labs.transformer.attention_views import AttentionViews
from attention_explorer.ui.labs.transformer.generation import GenerationView
from attention_explorer.ui.labs.transformer.heads import AXIS_HEX, SCORE_COLOURS, WEIGHT_COLOURS, HeadGrid
from attention_explorer.ui.style.safe_text import plain_label
from attention_explorer.ui.widgets.heatmap import Heatmap, HeatmapLook

DEFAULT_SENTENCE = "I love Beijing"
GENERATION_TAB = 4  # the tabs' index of "Next token"
TICK_STEPS = (1, 2, 5, 10, 20, 50, 100)


def _matrix_look(colours: tuple[tuple[int, int, int], ...]) -> HeatmapLook:
    """Square cells, numbers that turn compact (".85") where cells are narrow, a bar that steps aside when low."""
    return HeatmapLook(colours=tuple(QColor(*c).name() for c in colours), bar_width=12, bar_menu=False,
                       axis_text_hex=AXIS_HEX, padding=0.02, square_cells=True, dark_text_hex="#111111",
                       luminance=(0.2126, 0.7152, 0.0722), dark_text_above=139.999 / 255,
                       compact_numbers=True, tick_steps=TICK_STEPS, short_row_ticks=True, bar_hides_when_low=True)


def _build_empty_state(panel: QWidget) -> QFrame:
    """What the page shows until a model is open: what it does, how to get a model, one button to open one."""
    empty = QFrame(panel)
    empty.setObjectName("transformerEmpty")
    panel.empty_title = QLabel(empty)
    panel.empty_title.setObjectName("transformerEmptyTitle")
    panel.empty_what = QLabel(empty)
    panel.empty_what.setObjectName("transformerEmptyWhat")
    panel.missing_label = plain_label(QLabel(empty))  # only when the optional packages are missing
    panel.missing_label.setObjectName("transformerMissing")
    panel.install_label = plain_label(QLabel(empty))  # a command to copy: real quotes, never markup
    panel.install_label.setObjectName("transformerInstall")
    panel.install_label.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
    panel.empty_how = QLabel(empty)
    panel.empty_how.setObjectName("transformerEmptyHow")
    for label in (panel.empty_title, panel.empty_what, panel.missing_label, panel.install_label, panel.empty_how):
        plain_label(label).setWordWrap(True)
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    panel.empty_open_button = QPushButton(empty)
    panel.empty_open_button.setObjectName("transformerEmptyOpen")
    button_row = QHBoxLayout()
    button_row.addWidget(panel.empty_open_button)
    button_row.addStretch(1)
    layout = QVBoxLayout(empty)
    layout.setContentsMargins(24, 16, 24, 16)
    layout.setSpacing(10)
    for label in (panel.empty_title, panel.empty_what, panel.missing_label, panel.install_label, panel.empty_how):
        layout.addWidget(label)
    layout.addLayout(button_row)
    layout.addStretch(1)
    return empty


def build_page(panel: QWidget) -> None:
    """The panel's widgets and their layout (texts are set by its retranslate)."""
    panel.empty_state = _build_empty_state(panel)
    panel.open_button = QPushButton(panel)
    panel.open_button.setObjectName("transformerOpen")
    panel.models_combo = QComboBox(panel)
    panel.models_combo.setObjectName("transformerModels")
    panel.models_combo.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
    panel.models_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    panel.models_combo.setMinimumContentsLength(12)
    panel.sentence_edit = QLineEdit(DEFAULT_SENTENCE, panel)
    panel.sentence_edit.setObjectName("transformerSentence")
    panel.show_button = QPushButton(panel)
    panel.show_button.setObjectName("transformerShow")
    panel.layer_label = QLabel(panel)
    panel.layer_spin = QSpinBox(panel)
    panel.layer_spin.setObjectName("transformerLayer")
    panel.head_label = QLabel(panel)
    panel.head_spin = QSpinBox(panel)
    panel.head_spin.setObjectName("transformerHead")
    for spin in (panel.layer_spin, panel.head_spin):
        spin.setRange(0, 0)
        spin.setKeyboardTracking(False)
    panel.query_label = QLabel(panel)
    panel.query_combo = QComboBox(panel)
    panel.query_combo.setObjectName("transformerQuery")
    panel.query_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    panel.query_combo.setMinimumContentsLength(8)
    panel.send_button = QPushButton(panel)
    panel.send_button.setObjectName("transformerSend")
    panel.positions_button = QPushButton(panel)  # RoPE models: the chosen q and k into the positions lab
    panel.positions_button.setObjectName("transformerToPositions")
    panel.positions_button.setVisible(False)
    panel.status_label = QLabel(panel)
    panel.status_label.setObjectName("transformerStatus")
    panel.status_label.setWordWrap(True)
    panel.status_label.setTextFormat(Qt.TextFormat.RichText)

    panel.weights_map = Heatmap(_matrix_look(WEIGHT_COLOURS), panel)
    panel.weights_map.setObjectName("transformerWeights")
    panel.scores_map = Heatmap(_matrix_look(SCORE_COLOURS), panel)
    panel.scores_map.setObjectName("transformerScores")
    panel.grid = HeadGrid(panel)
    panel.grid.setObjectName("transformerAllHeads")
    panel.vectors_page = QWidget(panel)
    panel.role_buttons = QButtonGroup(panel)
    role_row = QHBoxLayout()
    role_row.setContentsMargins(0, 0, 0, 0)
    for index, name in enumerate(("q", "k", "v")):
        button = QPushButton(name, panel.vectors_page)
        button.setObjectName(f"transformerRole_{name}")
        button.setCheckable(True)
        button.setChecked(index == 0)
        button.setFixedWidth(button.fontMetrics().horizontalAdvance("MMM") + 16)
        panel.role_buttons.addButton(button, index)
        role_row.addWidget(button)
    panel.vectors_caption = QLabel(panel.vectors_page)
    panel.vectors_caption.setWordWrap(True)
    role_row.addWidget(panel.vectors_caption, 1)
    panel.vectors_table = QTableWidget(panel.vectors_page)
    panel.vectors_table.setObjectName("transformerVectors")
    panel.vectors_table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
    panel.vectors_table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
    panel.vectors_table.setSelectionMode(QTableWidget.SelectionMode.SingleSelection)
    panel.vectors_table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    vectors_layout = QVBoxLayout(panel.vectors_page)
    vectors_layout.setContentsMargins(4, 4, 4, 4)
    vectors_layout.addLayout(role_row)
    vectors_layout.addWidget(panel.vectors_table, 1)
    panel.tabs = QTabWidget(panel)
    panel.tabs.setObjectName("transformerTabs")
    panel.tabs.setMinimumHeight(180)  # below this a matrix of 16 tokens is unreadable
    panel.tabs.addTab(panel.weights_map, "")
    panel.tabs.addTab(panel.scores_map, "")
    panel.tabs.addTab(panel.grid, "")
    panel.tabs.addTab(panel.vectors_page, "")
    panel.generation = GenerationView(panel)  # GPT-2 only: its tab is hidden for an encoder
    panel.tabs.addTab(panel.generation, "")
    panel.attention_views = AttentionViews(panel)
    panel.tabs.addTab(panel.attention_views, "")
    panel.progress_bar = QProgressBar(panel)  # while a model loads or runs, off the UI thread
    panel.progress_bar.setObjectName("transformerProgress")
    panel.progress_bar.setRange(0, 100)
    panel.progress_bar.setTextVisible(True)
    panel.progress_bar.setVisible(False)

    layout = QVBoxLayout(panel)
    layout.setContentsMargins(6, 4, 6, 4)
    layout.setSpacing(6)
    model_row = QHBoxLayout()
    model_row.addWidget(panel.open_button)
    model_row.addWidget(panel.models_combo, 1)
    layout.addLayout(model_row)
    layout.addWidget(panel.progress_bar)
    layout.addWidget(panel.status_label)
    layout.addWidget(panel.empty_state, 1)
    # Everything that needs a model lives in one widget, hidden (with its empty plot) until a model is open.
    panel.model_view = QWidget(panel)
    panel.model_view.setObjectName("transformerModelView")
    view_layout = QVBoxLayout(panel.model_view)
    view_layout.setContentsMargins(0, 0, 0, 0)
    view_layout.setSpacing(6)
    sentence_row = QHBoxLayout()
    sentence_row.addWidget(panel.sentence_edit, 1)
    sentence_row.addWidget(panel.show_button)
    view_layout.addLayout(sentence_row)
    choice_row = QHBoxLayout()
    for widget in (panel.layer_label, panel.layer_spin, panel.head_label, panel.head_spin):
        choice_row.addWidget(widget)
    choice_row.addSpacing(12)
    choice_row.addWidget(panel.query_label)
    choice_row.addWidget(panel.query_combo, 1)
    choice_row.addWidget(panel.send_button)
    choice_row.addWidget(panel.positions_button)
    view_layout.addLayout(choice_row)
    view_layout.addWidget(panel.tabs, 1)
    layout.addWidget(panel.model_view, 1)
