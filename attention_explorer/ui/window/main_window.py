"""The main window: the canvas in the middle, every other panel a dock around it, menus and actions."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pyqtgraph as pg
import shiboken6
from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QByteArray,
    QCoreApplication,
    QDateTime,
    QEvent,
    QKeyCombination,
    QLocale,
    QObject,
    QSettings,
    Qt,
    QTimer,
)
from PySide6.QtGui import QAction, QActionGroup, QCloseEvent, QFont, QKeyEvent, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QDockWidget,
    QFileDialog,
    QLabel,
    QLineEdit,
    QMainWindow,
    QMessageBox,
    QPlainTextEdit,
    QScrollArea,
    QTabWidget,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from attention_explorer.core import export
from attention_explorer.core.geometry import rotate_in_plane, stretch
from attention_explorer.core.presets import load_preset, preset_names
from attention_explorer.core.scenario import Scenario, ScenarioError, load_any
from attention_explorer.core.sequence import SequenceScenario
from attention_explorer.state.animation import RotationAnimator
from attention_explorer.state.document import Document, Recovery
from attention_explorer.state.explorer import ExplorerModel
from attention_explorer.ui.canvas.vector_canvas import VectorCanvas
from attention_explorer.ui.i18n.switcher import LANGUAGES, error_text, language_switcher, system_language
from attention_explorer.ui.labs.saturation import SaturationLab
from attention_explorer.ui.labs.self_attention import SelfAttentionLab
from attention_explorer.ui.labs.transformer import TransformerPanel
from attention_explorer.ui.labs.variance import VarianceLab
from attention_explorer.ui.panels.history import HistoryView
from attention_explorer.ui.panels.output_view import OutputView
from attention_explorer.ui.panels.rotation_trace import RotationTrace
from attention_explorer.ui.panels.scale_controls import ScaleControls
from attention_explorer.ui.panels.scenario_info import PresetInfo, translated_scenario_text
from attention_explorer.ui.panels.steps_view import StepsView
from attention_explorer.ui.panels.vector_editor import VectorEditor
from attention_explorer.ui.panels.weights_chart import WeightsChart
from attention_explorer.ui.style.theme import apply_widget_colours, theme
from attention_explorer.ui.widgets.safe_text import literal, mnemonic_free, plain_label, window_title

ZOOM_STEP = 1.15
LAB_SATURATION, LAB_VARIANCE, LAB_SELF_ATTENTION, LAB_TRANSFORMER = 1, 2, 3, 4  # tab indexes
LENGTH_STEP = 1.1
FILE_FILTER = QT_TRANSLATE_NOOP("MainWindow", "Attention Explorer scenario (*.json);;All files (*)")
# Widgets that need plain keys (digits, arrows, +/−, Space, Tab) for themselves.
_TEXT_INPUTS = (QLineEdit, QAbstractSpinBox, QComboBox, QTextEdit, QPlainTextEdit, QAbstractItemView)


def configure_application(app: QApplication, language: str | None = None) -> None:
    """Application-wide settings: names (for QSettings), a projector-friendly font, pyqtgraph, language."""
    app.setApplicationName("Attention Explorer")
    app.setOrganizationName("Attention Explorer")
    app.setOrganizationDomain("attention-explorer.dev")
    pg.setConfigOptions(antialias=True, background="w", foreground="#202020")
    apply_font(app)
    if language is None:
        stored = QSettings().value("language")
        language = stored if stored in LANGUAGES else system_language()
    language_switcher().set_language(language)


def apply_font(app: QApplication) -> None:
    """The application font at the theme's (zoomed) size."""
    font = QFont(app.font())
    font.setPointSizeF(theme().font_pt())
    app.setFont(font)


class _LabHolder(QWidget):
    """A lab inside its scroll area, given the whole visible height whenever the lab's minimum size fits in it."""

    def __init__(self, lab: QWidget) -> None:
        super().__init__()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(lab)

    def heightForWidth(self, width: int) -> int:
        # A lab's word-wrapped labels give it a height-for-width, and QScrollArea takes that (the *preferred*
        # height of every part, 841 px for the self-attention lab) as the least height: the page scrolled at
        # 1280×720 with its matrices cut off. Without one, the scroll area fits the lab to the view and scrolls
        # only below the lab's minimum size.
        return -1


class MainWindow(QMainWindow):
    """Attention Explorer's window: every panel draws from the one model it is given."""

    def __init__(self, model: ExplorerModel, settings: QSettings | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("mainWindow")
        self.setAcceptDrops(True)
        self.model = model
        self.settings = settings if settings is not None else QSettings()
        self.document = Document(model, self.settings, parent=self)
        self.animator = RotationAnimator(model, self)

        self.canvas = VectorCanvas(model)
        # The labs share the middle with the canvas. Each is built the first time it is shown: a lecture that
        # never opens one pays nothing for it, at start-up or per drag move.
        self._lab_factories: dict[int, Callable[[], QWidget]] = {
            LAB_SATURATION: lambda: SaturationLab(model),
            LAB_VARIANCE: lambda: VarianceLab(model),
            LAB_SELF_ATTENTION: lambda: SelfAttentionLab(model),
            LAB_TRANSFORMER: lambda: TransformerPanel(model),
        }
        self._built_pages: dict[int, QWidget] = {0: self.canvas}
        self.central_tabs = QTabWidget()
        self.central_tabs.setObjectName("centralTabs")
        self.central_tabs.setDocumentMode(True)
        self.central_tabs.addTab(self.canvas, "")
        for _index in sorted(self._lab_factories):
            # A lab scrolls rather than forcing the whole window wider than a 1280×720 projector.
            scroll = QScrollArea()
            scroll.setWidgetResizable(True)
            scroll.setFrameShape(QScrollArea.Shape.NoFrame)
            self.central_tabs.addTab(scroll, "")
        self.setCentralWidget(self.central_tabs)
        self._state_before_wide_page: QByteArray | None = None
        self.central_tabs.currentChanged.connect(self._page_changed)
        self.editor = VectorEditor(model)
        self.scale_controls = ScaleControls(model)
        self.steps_view = StepsView(model)
        self.weights_chart = WeightsChart(model)
        self.output_view = OutputView(model)
        self.preset_info = PresetInfo(model)
        self.rotation_trace = RotationTrace(model, self.animator)
        self.history = HistoryView(model)
        self.history.setObjectName("historyPanel")

        self.docks: dict[str, QDockWidget] = {}
        self._layout_restored = False
        left = Qt.DockWidgetArea.LeftDockWidgetArea
        right = Qt.DockWidgetArea.RightDockWidgetArea
        bottom = Qt.DockWidgetArea.BottomDockWidgetArea
        self._add_dock(self.editor, left)
        self._add_dock(self.preset_info, left)
        self._add_dock(self.history, left)
        self._add_dock(self.scale_controls, left)
        self._add_dock(self.steps_view, right)
        self._add_dock(self.weights_chart, right)
        self._add_dock(self.output_view, right)
        self._add_dock(self.rotation_trace, bottom)
        self.splitDockWidget(self.docks["weightsChart"], self.docks["outputView"], Qt.Orientation.Horizontal)
        # Tabs keep the left column roomy at 1280×720: the story, the numbers and the history take turns.
        self.tabifyDockWidget(self.docks["vectorEditor"], self.docks["presetInfo"])
        self.tabifyDockWidget(self.docks["presetInfo"], self.docks["historyPanel"])
        self.docks["vectorEditor"].raise_()
        self.docks["rotationTrace"].hide()  # shown when an animation starts
        self.setCorner(Qt.Corner.BottomLeftCorner, left)
        self.setCorner(Qt.Corner.BottomRightCorner, right)

        for panel in (self.canvas, self.editor, self.scale_controls, self.steps_view, self.weights_chart,
                      self.output_view, self.preset_info, self.rotation_trace):
            hint = getattr(panel, "hint", None)
            if hint is not None:
                hint.connect(self._show_hint)
        self._hint_label = plain_label(QLabel())  # hints quote labels and tokens: text, never markup
        self._hint_label.setObjectName("statusHint")
        self.statusBar().addWidget(self._hint_label, 1)
        # Stays in view while the autosave cannot keep up (too large), instead of a message at every edit.
        self._autosave_label = QLabel()
        self._autosave_label.setObjectName("autosaveStatus")
        self._autosave_label.setTextFormat(Qt.TextFormat.PlainText)
        self._autosave_label.hide()
        self._autosave_error: ScenarioError | None = None
        self.statusBar().addPermanentWidget(self._autosave_label)

        self.actions_by_name: dict[str, QAction] = {}
        self._build_actions()
        self._build_menus()
        self.retranslate()

        model.changed.connect(self._update_title)
        self.document.path_changed.connect(self._update_title)
        self.document.recent_changed.connect(self._rebuild_recent_menu)
        self.document.autosave_problem.connect(self._autosave_problem)
        self.animator.running_changed.connect(self._animation_running_changed)
        model.steps_changed.connect(self._steps_mode_changed)
        theme().changed.connect(self._apply_theme)
        QApplication.instance().installEventFilter(self)
        self.resize(1600, 1000)
        self._default_state = self.saveState()
        self._restore_settings()
        self._apply_theme()
        self._update_title()
        QTimer.singleShot(0, self.canvas.setFocus)
        if model.parent() is None:
            # The window owns the model, and takes it last so the document's connections are gone first.
            model.setParent(self)

    # ------------------------------------------------------------ building

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if not self._layout_restored:
            self._fit_docks_to_width()

    def _fit_docks_to_width(self) -> None:
        """Share the width: a quarter for the vectors, a third for the steps, the rest for the canvas."""
        width = max(self.width(), 800)
        self.resizeDocks([self.docks["vectorEditor"], self.docks["stepsView"]],
                         [int(width * 0.26), int(width * 0.32)], Qt.Orientation.Horizontal)
        height = max(self.height(), 500)
        self.resizeDocks([self.docks["stepsView"], self.docks["weightsChart"]],
                         [int(height * 0.55), int(height * 0.38)], Qt.Orientation.Vertical)
        self.resizeDocks([self.docks["vectorEditor"], self.docks["scaleControls"]],
                         [int(height * 0.52), int(height * 0.40)], Qt.Orientation.Vertical)

    def _add_dock(self, panel: QWidget, area: Qt.DockWidgetArea) -> QDockWidget:
        dock = QDockWidget(self)
        dock.setObjectName(f"dock_{panel.objectName()}")
        dock.setWidget(panel)
        self.addDockWidget(area, dock)
        self.docks[panel.objectName()] = dock
        return dock

    def _action(self, name: str, handler: Callable[[], object], shortcut: QKeySequence | str | None = None,
                checkable: bool = False, plain_key: bool = False) -> QAction:
        """An action; `plain_key` ones show their key in menus but are dispatched by eventFilter."""
        action = QAction(self)
        action.setObjectName(name)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        if plain_key:
            # Shown in the menu, but active only through eventFilter so text fields keep their keys.
            action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        action.setCheckable(checkable)
        action.triggered.connect(lambda _checked=False: handler())
        self.actions_by_name[name] = action
        self.addAction(action)
        return action

    def _build_actions(self) -> None:
        A = self._action
        A("new", self.new_scenario, QKeySequence.StandardKey.New)
        A("open", self.open_dialog, QKeySequence.StandardKey.Open)
        A("openModel", self.open_model_dialog)
        A("save", self.save, QKeySequence.StandardKey.Save)
        A("saveAs", self.save_as, QKeySequence.StandardKey.SaveAs)
        A("quit", self.close, QKeySequence.StandardKey.Quit)
        for plot_name in ("canvas", "weights", "output"):
            for fmt in ("png", "svg"):
                A(f"export_{plot_name}_{fmt}", lambda p=plot_name, f=fmt: self.export_plot_dialog(p, f))
        A("export_window_png", self.export_window_dialog)
        A("copy_markdown", lambda: self.copy_as("markdown"))
        A("copy_latex", lambda: self.copy_as("latex"))
        A("copy_numpy", lambda: self.copy_as("numpy"))

        # Our own actions rather than QUndoStack.createUndoAction: their texts follow a live language switch.
        stack = self.model.undo_stack
        A("undo", stack.undo, QKeySequence.StandardKey.Undo)
        A("redo", stack.redo, "Ctrl+Shift+Z")
        self.actions_by_name["redo"].setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence.StandardKey.Redo])
        stack.indexChanged.connect(self._update_undo_actions)
        stack.cleanChanged.connect(self._update_undo_actions)
        A("addPair", self._add_pair)
        A("removePair", self._remove_pair)

        for number in range(1, self.central_tabs.count() + 1):
            A(f"page{number}", lambda n=number: self.show_page(n - 1), f"Ctrl+{number}")
        A("resetLayout", self.reset_layout)
        A("fullScreen", self.toggle_full_screen, "F11", checkable=True)
        A("zoomIn", lambda: self.zoom_by(ZOOM_STEP), "Ctrl+=")
        self.actions_by_name["zoomIn"].setShortcuts([QKeySequence("Ctrl+="), QKeySequence("Ctrl++")])
        A("zoomOut", lambda: self.zoom_by(1 / ZOOM_STEP), "Ctrl+-")
        A("zoomReset", lambda: theme().set_zoom(1.0), "Ctrl+0")
        self.theme_group = QActionGroup(self)
        for mode in theme().MODES:
            action = A(f"theme_{mode}", lambda m=mode: theme().set_mode(m), checkable=True)
            self.theme_group.addAction(action)
        self.language_group = QActionGroup(self)
        for code in LANGUAGES:
            action = A(f"lang_{code}", lambda c=code: self.set_language(c), checkable=True)
            self.language_group.addAction(action)
        A("stepThrough", lambda: self.model.set_step_through(not self.model.step_through), "Ctrl+T",
          checkable=True)
        A("nextStep", self.model.reveal_next_step, "PgDown", plain_key=True)
        A("previousStep", self.model.reveal_previous_step, "PgUp", plain_key=True)

        for number in range(1, 10):
            A(f"selectKey{number}", lambda n=number: self._select_key(n - 1), str(number), plain_key=True)
        A("nextKey", lambda: self._select_key(self.model.selected_key + 1, wrap=True), "Tab", plain_key=True)
        A("previousKey", lambda: self._select_key(self.model.selected_key - 1, wrap=True), "Shift+Tab",
          plain_key=True)
        A("rotateLeft", lambda: self.rotate_selected(5.0), "Left", plain_key=True)
        A("rotateRight", lambda: self.rotate_selected(-5.0), "Right", plain_key=True)
        A("rotateLeftFine", lambda: self.rotate_selected(1.0), "Shift+Left", plain_key=True)
        A("rotateRightFine", lambda: self.rotate_selected(-1.0), "Shift+Right", plain_key=True)
        A("longer", lambda: self.stretch_selected(LENGTH_STEP), "+", plain_key=True)
        A("shorter", lambda: self.stretch_selected(1 / LENGTH_STEP), "-", plain_key=True)
        A("playRotation", self.animator.toggle, "Space", plain_key=True)
        A("stopRotation", self.animator.stop, "Esc", plain_key=True)

    def _build_menus(self) -> None:
        bar = self.menuBar()
        get = self.actions_by_name
        self.file_menu = bar.addMenu("")
        for name in ("new", "open"):
            self.file_menu.addAction(get[name])
        self.recent_menu = self.file_menu.addMenu("")
        self.file_menu.addAction(get["openModel"])
        for name in ("save", "saveAs"):
            self.file_menu.addAction(get[name])
        self.file_menu.addSeparator()
        self.export_menu = self.file_menu.addMenu("")
        for name in get:
            if name.startswith("export_"):
                self.export_menu.addAction(get[name])
        self.copy_menu = self.file_menu.addMenu("")
        for name in ("copy_markdown", "copy_latex", "copy_numpy"):
            self.copy_menu.addAction(get[name])
        self.file_menu.addSeparator()
        self.file_menu.addAction(get["quit"])

        self.edit_menu = bar.addMenu("")
        self.edit_menu.aboutToShow.connect(self._update_undo_actions)  # a drag renames its step silently
        for name in ("undo", "redo"):
            self.edit_menu.addAction(get[name])
        self.edit_menu.addSeparator()
        for name in ("addPair", "removePair"):
            self.edit_menu.addAction(get[name])

        self.examples_menu = bar.addMenu("")
        self.preset_actions: dict[str, QAction] = {}
        for name in preset_names():
            action = QAction(self)
            action.setObjectName(f"preset_{name}")
            action.triggered.connect(lambda _checked=False, n=name: self.open_preset(n))
            self.examples_menu.addAction(action)
            self.preset_actions[name] = action

        self.keys_menu = bar.addMenu("")
        for name in ("nextKey", "previousKey", *[f"selectKey{n}" for n in range(1, 10)]):
            self.keys_menu.addAction(get[name])
        self.keys_menu.addSeparator()
        for name in ("rotateLeft", "rotateRight", "rotateLeftFine", "rotateRightFine", "longer", "shorter"):
            self.keys_menu.addAction(get[name])
        self.keys_menu.addSeparator()
        for name in ("playRotation", "stopRotation"):
            self.keys_menu.addAction(get[name])

        self.view_menu = bar.addMenu("")
        self.pages_menu = self.view_menu.addMenu("")
        self.panels_menu = self.view_menu.addMenu("")
        for dock in self.docks.values():
            self.panels_menu.addAction(dock.toggleViewAction())
        self.panels_menu.addSeparator()
        self.panels_menu.addAction(get["resetLayout"])
        self.view_menu.addSeparator()
        for name in ("stepThrough", "nextStep", "previousStep"):
            self.view_menu.addAction(get[name])
        self.view_menu.addSeparator()
        for name in ("fullScreen", "zoomIn", "zoomOut", "zoomReset"):
            self.view_menu.addAction(get[name])
        self.theme_menu = self.view_menu.addMenu("")
        for mode in theme().MODES:
            self.theme_menu.addAction(get[f"theme_{mode}"])
        self.language_menu = self.view_menu.addMenu("")
        for code in LANGUAGES:
            self.language_menu.addAction(get[f"lang_{code}"])
        self._rebuild_recent_menu()

    def retranslate(self) -> None:
        """Every text of the window in the current language (called again on LanguageChange)."""
        self.model.retranslate_history()  # before the Undo/Redo actions read the steps' names
        titles = {
            "presetInfo": self.tr("About this example"), "vectorEditor": self.tr("Vectors"),
            "scaleControls": self.tr("d_k and scale"), "stepsView": self.tr("The four steps"),
            "weightsChart": self.tr("Attention weights"), "outputView": self.tr("Output"),
            "rotationTrace": self.tr("Rotation trace"), "historyPanel": self.tr("History"),
        }
        for name, dock in self.docks.items():
            dock.setWindowTitle(titles[name])
        self.history.setEmptyLabel(self.tr("<opened>"))
        texts = {
            "new": (self.tr("&New"), self.tr("Start from the default example")),
            "open": (self.tr("&Open…"), self.tr("Open a scenario file")),
            "openModel": (self.tr("Open &model…"),
                          self.tr("Open a local BERT-family model folder and look at its real attention")),
            "save": (self.tr("&Save"), self.tr("Save the scenario")),
            "saveAs": (self.tr("Save &As…"), self.tr("Save the scenario under a new name")),
            "quit": (self.tr("&Quit"), self.tr("Close Attention Explorer")),
            "export_canvas_png": (self.tr("Canvas as PNG…"), ""), "export_canvas_svg": (self.tr("Canvas as SVG…"), ""),
            "export_weights_png": (self.tr("Weights chart as PNG…"), ""),
            "export_weights_svg": (self.tr("Weights chart as SVG…"), ""),
            "export_output_png": (self.tr("Output view as PNG…"), ""),
            "export_output_svg": (self.tr("Output view as SVG…"), ""),
            "export_window_png": (self.tr("Whole window as PNG…"), ""),
            "copy_markdown": (self.tr("Markdown table"), self.tr("Copy the four steps as a Markdown table")),
            "copy_latex": (self.tr("LaTeX"), self.tr("Copy the four steps as a LaTeX table")),
            "copy_numpy": (self.tr("NumPy snippet"), self.tr("Copy a NumPy script that reproduces the four steps")),
            "undo": (self.tr("&Undo"), ""), "redo": (self.tr("&Redo"), ""),
            "addPair": (self.tr("Add key–value pair"), ""), "removePair": (self.tr("Remove selected pair"), ""),
            "resetLayout": (self.tr("Reset panel layout"), self.tr("Put every panel back where it started")),
            "fullScreen": (self.tr("&Full screen"), ""),
            "zoomIn": (self.tr("Zoom in"), self.tr("Larger text, lines and arrows")),
            "zoomOut": (self.tr("Zoom out"), self.tr("Smaller text, lines and arrows")),
            "zoomReset": (self.tr("Normal size"), ""),
            "theme_light": (self.tr("Light"), ""), "theme_dark": (self.tr("Dark"), ""),
            "theme_contrast": (self.tr("High contrast (projector)"), ""),
            "lang_en": ("English", ""), "lang_zh_CN": ("简体中文", ""),
            "stepThrough": (self.tr("Step through the four steps"), self.tr("Reveal the steps one at a time")),
            "nextStep": (self.tr("Next step"), self.tr("Right arrow or Page Down in step-through mode")),
            "previousStep": (self.tr("Previous step"), self.tr("Left arrow or Page Up in step-through mode")),
            "nextKey": (self.tr("Select next key"), ""), "previousKey": (self.tr("Select previous key"), ""),
            "rotateLeft": (self.tr("Rotate key 5° counter-clockwise"), ""),
            "rotateRight": (self.tr("Rotate key 5° clockwise"), ""),
            "rotateLeftFine": (self.tr("Rotate key 1° counter-clockwise"), ""),
            "rotateRightFine": (self.tr("Rotate key 1° clockwise"), ""),
            "longer": (self.tr("Make key longer"), ""), "shorter": (self.tr("Make key shorter"), ""),
            "playRotation": (self.tr("Play a full turn"), self.tr("Turn the selected key through 360°")),
            "stopRotation": (self.tr("Stop the turn"), ""),
        }
        for number in range(1, 10):
            texts[f"selectKey{number}"] = (self.tr("Select key {0}").format(number), "")
        for name, (text, tip) in texts.items():
            action = self.actions_by_name[name]
            if name in ("undo", "redo"):
                continue  # _update_undo_actions names the step ("Undo Move K2")
            action.setText(text)
            action.setToolTip(tip or text.replace("&", "").rstrip("…"))
            action.setStatusTip(tip)
        for name, action in self.preset_actions.items():
            action.setText(translated_scenario_text(load_preset(name).title) or name)
        self.file_menu.setTitle(self.tr("&File"))
        self.recent_menu.setTitle(self.tr("Open &Recent"))
        self._show_autosave_problem()
        self.export_menu.setTitle(self.tr("&Export"))
        self.copy_menu.setTitle(self.tr("&Copy as"))
        self.edit_menu.setTitle(self.tr("&Edit"))
        self.examples_menu.setTitle(self.tr("E&xamples"))
        self.keys_menu.setTitle(self.tr("&Keys"))
        self.view_menu.setTitle(self.tr("&View"))
        self.panels_menu.setTitle(self.tr("&Panels"))
        self.theme_menu.setTitle(self.tr("&Theme"))
        self.pages_menu.setTitle(self.tr("&Labs"))
        page_titles = [self.tr("Vectors"), self.tr("Saturation: why scale?"), self.tr("Variance: why √dₖ?"),
                       self.tr("Self-attention"), self.tr("Real transformer")]
        for index in range(self.central_tabs.count()):
            self.central_tabs.setTabText(index, page_titles[index])
        self._rebuild_pages_menu()
        self.language_menu.setTitle(self.tr("&Language"))
        self._rebuild_recent_menu()
        self._update_undo_actions()
        self._show_hint("")
        self._update_title()

    def _update_undo_actions(self, *_args) -> None:
        stack = self.model.undo_stack
        for name, possible, step in (("undo", stack.canUndo(), stack.undoText()),
                                     ("redo", stack.canRedo(), stack.redoText())):
            action = self.actions_by_name[name]
            action.setEnabled(possible)
            step = mnemonic_free(step)  # the step names a label ("Rename a&b"): its "&" is no shortcut
            if name == "undo":
                action.setText(self.tr("&Undo {0}").format(step).strip() if step else self.tr("&Undo"))
            else:
                action.setText(self.tr("&Redo {0}").format(step).strip() if step else self.tr("&Redo"))

    def _rebuild_pages_menu(self) -> None:
        self.pages_menu.clear()
        for index in range(self.central_tabs.count()):
            action = self.actions_by_name[f"page{index + 1}"]
            action.setText(self.central_tabs.tabText(index))
            self.pages_menu.addAction(action)

    def show_page(self, index: int) -> None:
        """Bring the canvas (0) or a lab to the middle of the window."""
        if 0 <= index < self.central_tabs.count():
            self.central_tabs.setCurrentIndex(index)

    def page(self, index: int) -> QWidget:
        """The canvas (0) or a lab, built on first use."""
        if index not in self._built_pages:
            lab = self._lab_factories[index]()
            self._built_pages[index] = lab
            self.central_tabs.widget(index).setWidget(_LabHolder(lab))
            hint = getattr(lab, "hint", None)
            if hint is not None:
                hint.connect(self._show_hint)
            self._apply_theme()
        return self._built_pages[index]

    @property
    def saturation_lab(self) -> SaturationLab:
        """The saturation lab (built on first use)."""
        return self.page(LAB_SATURATION)

    @property
    def variance_lab(self) -> VarianceLab:
        """The variance lab (built on first use)."""
        return self.page(LAB_VARIANCE)

    @property
    def self_attention_lab(self) -> SelfAttentionLab:
        """The self-attention lab (built on first use)."""
        return self.page(LAB_SELF_ATTENTION)

    @property
    def transformer_panel(self) -> TransformerPanel:
        """The real-transformer page (built on first use)."""
        return self.page(LAB_TRANSFORMER)

    @property
    def pages(self) -> list[QWidget]:
        """Every page of the middle, in tab order (builds the labs)."""
        return [self.page(index) for index in range(self.central_tabs.count())]

    def _page_changed(self, index: int) -> None:
        self.page(index)
        self._show_hint("")
        # Labs with state of their own get the whole window; the explorer's docks step aside.
        wide = index in (LAB_VARIANCE, LAB_SELF_ATTENTION, LAB_TRANSFORMER)
        if wide and self._state_before_wide_page is None:
            self._state_before_wide_page = self.saveState()
            for dock in self.docks.values():
                dock.hide()
        elif not wide and self._state_before_wide_page is not None:
            self.restoreState(self._state_before_wide_page)
            self._state_before_wide_page = None

    def current_page(self) -> QWidget:
        """The canvas or the lab shown in the middle."""
        return self.page(self.central_tabs.currentIndex())

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange and hasattr(self, "actions_by_name"):
            if shiboken6.isValid(self.recent_menu):  # a window being torn down has lost its menus already
                self.retranslate()
        super().changeEvent(event)

    # ------------------------------------------------------------ keys

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Plain-key actions (digits, arrows, Space…) unless a text field or table has the focus."""
        if event.type() != QEvent.Type.KeyPress or not self.isActiveWindow():
            return False
        focus = QApplication.focusWidget()
        if focus is not None and (isinstance(focus, _TEXT_INPUTS) or not self.isAncestorOf(focus)):
            if not (event.key() == Qt.Key.Key_Escape and self.animator.running):
                return False
        return self.handle_key(event)

    def handle_key(self, event: QKeyEvent) -> bool:
        """Run the plain-key action matching `event`; True when one ran."""
        if event.isAutoRepeat() and event.key() in (Qt.Key.Key_Space, Qt.Key.Key_Tab):
            return True
        modifiers = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        key = event.key()
        if self.model.step_through and modifiers == Qt.KeyboardModifier.NoModifier:
            if key == Qt.Key.Key_Right:
                self.model.reveal_next_step()
                return True
            if key == Qt.Key.Key_Left:
                self.model.reveal_previous_step()
                return True
        if key == Qt.Key.Key_Backtab:
            key, modifiers = Qt.Key.Key_Tab, Qt.KeyboardModifier.ShiftModifier
        if key in (Qt.Key.Key_Plus, Qt.Key.Key_Minus, Qt.Key.Key_Equal):
            modifiers &= ~Qt.KeyboardModifier.ShiftModifier  # '+' needs Shift on many layouts
            if key == Qt.Key.Key_Equal:
                key = Qt.Key.Key_Plus
        pressed = QKeySequence(QKeyCombination(modifiers, Qt.Key(key)))
        for action in self.actions_by_name.values():
            if action.shortcutContext() != Qt.ShortcutContext.WidgetShortcut or not action.isEnabled():
                continue
            if action.shortcut().matches(pressed) == QKeySequence.SequenceMatch.ExactMatch:
                action.trigger()
                return True
        return False

    def _select_key(self, index: int, wrap: bool = False) -> None:
        count = self.model.scenario.n
        if wrap:
            index %= count
        if 0 <= index < count:
            self.model.select_key(index)

    def rotate_selected(self, degrees: float) -> None:
        """Turn the selected key in the plane of components 0 and 1."""
        index = self.model.selected_key
        self._edit_selected(lambda: rotate_in_plane(self.model.scenario.keys[index], degrees))

    def stretch_selected(self, factor: float) -> None:
        """Make the selected key longer (factor > 1) or shorter."""
        index = self.model.selected_key
        self._edit_selected(lambda: stretch(self.model.scenario.keys[index], factor))

    def _edit_selected(self, new_key: Callable[[], object]) -> None:
        try:
            self.model.set_vector("key", self.model.selected_key, new_key())
        except ScenarioError as error:
            self._show_hint(error_text(error))

    def _add_pair(self) -> None:
        try:
            self.model.add_pair()
        except ScenarioError as error:
            self.show_error(self.tr("Cannot add a pair"), error_text(error))

    def _remove_pair(self) -> None:
        try:
            self.model.remove_pair(self.model.selected_key)
        except ScenarioError as error:
            self.show_error(self.tr("Cannot remove the pair"), error_text(error))

    # ------------------------------------------------------------ presentation

    def reset_layout(self) -> None:
        """View ▸ Panels ▸ Reset: every dock back in its first place and size."""
        self.restoreState(self._default_state)
        self._layout_restored = False
        self._fit_docks_to_width()

    def toggle_full_screen(self) -> None:
        """F11: full screen and back."""
        if self.isFullScreen():
            self.showNormal()
        else:
            self.showFullScreen()
        self.actions_by_name["fullScreen"].setChecked(self.isFullScreen())

    def zoom_by(self, factor: float) -> None:
        """Scale every font, line and arrow together."""
        theme().set_zoom(theme().zoom * factor)

    def _apply_theme(self) -> None:
        current = theme()
        app = QApplication.instance()
        apply_widget_colours(app, current.mode)
        apply_font(app)
        for plot in self.findChildren(pg.PlotWidget):
            plot.setBackground(current.background())
            for axis_name in ("left", "bottom", "right", "top"):
                axis = plot.getPlotItem().getAxis(axis_name)
                axis.setPen(current.foreground())
                axis.setTextPen(current.foreground())
                font = QFont(app.font())
                font.setPointSizeF(current.font_pt() * 0.9)
                axis.setStyle(tickFont=font)
        self.actions_by_name[f"theme_{current.mode}"].setChecked(True)
        self.settings.setValue("theme", current.mode)
        self.settings.setValue("zoom", current.zoom)

    def set_language(self, language: str) -> None:
        """Switch the interface language now (no restart) and remember it."""
        if not language_switcher().set_language(language):
            self.show_error(self.tr("Language"), self.tr("The translation for {0} is missing.").format(language))
            language_switcher().set_language("en")
            language = "en"
        self.actions_by_name[f"lang_{language}"].setChecked(True)
        self.settings.setValue("language", language)

    def _animation_running_changed(self, running: bool) -> None:
        trace = self.docks["rotationTrace"]
        if running and not trace.isVisible():
            trace.show()  # first: the canvas it takes room from is then framed at its new size
            # Qt gives a newly shown bottom dock about half the column: the canvas, what the turn is about,
            # was left 156 px tall at 1280×720. The trace reads well at its minimum height.
            self.resizeDocks([trace], [trace.minimumSizeHint().height()], Qt.Orientation.Vertical)
            QApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
        self.canvas.frame_turn(self.model.selected_key if running else None)
        self.actions_by_name["playRotation"].setChecked(running)

    def _steps_mode_changed(self) -> None:
        self.actions_by_name["stepThrough"].setChecked(self.model.step_through)

    # ------------------------------------------------------------ files

    def maybe_save(self) -> bool:
        """Ask about unsaved changes; False when the user cancels."""
        if not self.document.modified:
            return True
        answer = self.ask_unsaved_changes()
        if answer == QMessageBox.StandardButton.Save:
            return self.save()
        return answer == QMessageBox.StandardButton.Discard

    def ask_unsaved_changes(self) -> QMessageBox.StandardButton:
        """The Save / Discard / Cancel question (tests replace this)."""
        return QMessageBox.question(
            self, self.tr("Unsaved changes"), self.tr("The scenario has changes that are not saved. Save them?"),
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
            | QMessageBox.StandardButton.Cancel, QMessageBox.StandardButton.Save,
        )

    def ask_open_path(self) -> str:
        """File dialog for Open (tests replace this)."""
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Open scenario"), self._dialog_folder(),
                                              QCoreApplication.translate("MainWindow", FILE_FILTER))
        return path

    def ask_save_path(self, title: str, suggestion: str, file_filter: str) -> str:
        """File dialog for Save As and exports (tests replace this)."""
        path, _ = QFileDialog.getSaveFileName(self, title, suggestion, file_filter)
        return path

    def show_error(self, title: str, text: str) -> None:
        """A visible error (tests replace this); the status bar repeats it."""
        self._show_hint(text)
        QMessageBox.warning(self, window_title(title), literal(text))

    def _dialog_folder(self) -> str:
        return str(self.document.path.parent) if self.document.path else str(Path.home())

    def new_scenario(self) -> None:
        """File ▸ New: the default example, after asking about unsaved changes."""
        if self.maybe_save():
            self.document.open_scenario(load_preset("drag-2d"))

    def open_preset(self, name: str) -> None:
        """Examples ▸ name: load a preset (the explanation panel shows its story)."""
        loaded = load_preset(name)
        if isinstance(loaded, SequenceScenario):
            self.open_sequence(loaded)
            return
        if not self.maybe_save():
            return
        self.document.open_scenario(loaded)
        self.show_page(0)
        self.docks["presetInfo"].show()
        self.docks["presetInfo"].raise_()

    def open_sequence(self, sequence: SequenceScenario) -> None:
        """Show a self-attention sequence in its lab (the explorer's scenario stays as it is)."""
        self.self_attention_lab.load_sequence(sequence)
        self.show_page(LAB_SELF_ATTENTION)

    def open_dialog(self) -> None:
        """File ▸ Open."""
        if not self.maybe_save():
            return
        path = self.ask_open_path()
        if path:
            self.open_file(path, ask=False)

    def open_model_dialog(self) -> bool:
        """File ▸ Open model…: the real-transformer page, then its folder chooser."""
        self.show_page(LAB_TRANSFORMER)
        return self.transformer_panel.open_dialog()

    def open_file(self, path: str, ask: bool = True) -> bool:
        """Open a scenario file of either kind; a bad file shows the loader's message and changes nothing."""
        try:
            loaded = load_any(path)
        except ScenarioError as error:
            self.show_error(self.tr("Cannot open the file"), f"{Path(path).name}: {error_text(error)}")
            return False
        return self.open_loaded(path, loaded, ask)

    def open_loaded(self, path: str, loaded: Scenario | SequenceScenario, ask: bool = True) -> bool:
        """Attach the window to a scenario file already read: File ▸ Open and `attention-explorer FILE` alike."""
        if isinstance(loaded, SequenceScenario):
            self.open_sequence(loaded)
            self.document.add_recent(Path(os.path.abspath(path)))
            return True
        if ask and not self.maybe_save():
            return False
        self.document.open(path, loaded)
        self.show_page(0)
        return True

    def save(self) -> bool:
        """File ▸ Save (Save As when there is no file yet)."""
        if self.document.path is None:
            return self.save_as()
        return self._save_to(self.document.path)

    def save_as(self) -> bool:
        """File ▸ Save As."""
        suggestion = str(Path(self._dialog_folder()) / "scenario.json")
        path = self.ask_save_path(self.tr("Save scenario"), suggestion,
                                  QCoreApplication.translate("MainWindow", FILE_FILTER))
        if not path:
            return False
        if not path.lower().endswith(".json"):
            path += ".json"
        return self._save_to(Path(path))

    def _save_to(self, path: Path) -> bool:
        try:
            self.document.save(path)
        except (OSError, ScenarioError) as error:
            self.show_error(self.tr("Cannot save"), f"{path.name}: {error_text(error)}")
            return False
        self._show_hint(self.tr("Saved {0}").format(path.name))
        return True

    def _rebuild_recent_menu(self) -> None:
        self.recent_menu.clear()
        recent = self.document.recent_files()
        for path in recent:
            action = self.recent_menu.addAction(mnemonic_free(Path(path).name))
            action.setToolTip(literal(path))
            action.triggered.connect(lambda _checked=False, p=path: self.open_file(p))
        if not recent:
            empty = self.recent_menu.addAction(self.tr("(none yet)"))
            empty.setEnabled(False)

    def dragEnterEvent(self, event) -> None:
        if event.mimeData().hasUrls() and any(url.isLocalFile() for url in event.mimeData().urls()):
            event.acceptProposedAction()

    def dropEvent(self, event) -> None:
        files = [url.toLocalFile() for url in event.mimeData().urls() if url.isLocalFile()]
        if files:
            event.acceptProposedAction()
            self.open_file(files[0])

    # ------------------------------------------------------------ export

    def plot_widget(self, name: str) -> pg.PlotWidget:
        """The PlotWidget of the canvas, the weights chart or the output view."""
        panel = {"canvas": self.canvas, "weights": self.weights_chart, "output": self.output_view}[name]
        return panel if isinstance(panel, pg.PlotWidget) else panel.findChildren(pg.PlotWidget)[0]

    def export_plot(self, name: str, path: str) -> None:
        """Write one plot to PNG or SVG with pyqtgraph's exporters (by the file's suffix)."""
        from pyqtgraph import exporters

        plot = self.plot_widget(name)
        if path.lower().endswith(".svg"):
            exporter = exporters.SVGExporter(plot.getPlotItem())
        else:
            exporter = exporters.ImageExporter(plot.getPlotItem())
            exporter.parameters()["width"] = max(800, int(plot.width() * 2))
        exporter.export(path)

    def export_plot_dialog(self, name: str, fmt: str) -> None:
        """File ▸ Export ▸ a plot."""
        file_filter = "PNG (*.png)" if fmt == "png" else "SVG (*.svg)"
        path = self.ask_save_path(self.tr("Export"), str(Path(self._dialog_folder()) / f"{name}.{fmt}"),
                                  file_filter)
        if not path:
            return
        if not path.lower().endswith(f".{fmt}"):
            path += f".{fmt}"
        try:
            self.export_plot(name, path)
        except Exception as error:
            self.show_error(self.tr("Cannot export"), f"{Path(path).name}: {error_text(error)}")
            return
        self._show_hint(self.tr("Exported {0}").format(Path(path).name))

    def export_window(self, path: str) -> bool:
        """The whole window as a PNG."""
        return self.grab().save(path, "PNG")

    def export_window_dialog(self) -> None:
        """File ▸ Export ▸ Whole window."""
        path = self.ask_save_path(self.tr("Export"), str(Path(self._dialog_folder()) / "window.png"), "PNG (*.png)")
        if path:
            if not path.lower().endswith(".png"):
                path += ".png"
            if not self.export_window(path):
                self.show_error(self.tr("Cannot export"), self.tr("Could not write {0}").format(path))

    def copy_as(self, kind: str) -> str:
        """Copy the four steps to the clipboard as Markdown, LaTeX or a NumPy snippet."""
        scenario, result = self.model.scenario, self.model.result
        text = {
            "markdown": lambda: export.to_markdown(scenario, result),
            "latex": lambda: export.to_latex(scenario, result),
            "numpy": lambda: export.to_numpy(scenario),
        }[kind]()
        QApplication.clipboard().setText(text)
        self._show_hint(self.tr("Copied to the clipboard."))
        return text

    # ------------------------------------------------------------ settings, recovery, closing

    def _restore_settings(self) -> None:
        geometry = self.settings.value("geometry")
        if isinstance(geometry, QByteArray):
            self.restoreGeometry(geometry)
        state = self.settings.value("windowState")
        self._layout_restored = isinstance(state, QByteArray) and self.restoreState(state)
        mode = self.settings.value("theme", "light")
        if mode in theme().MODES:
            theme().set_mode(mode)
        try:
            theme().set_zoom(float(self.settings.value("zoom", 1.0)))
        except (TypeError, ValueError):
            theme().set_zoom(1.0)
        self.actions_by_name[f"lang_{language_switcher().language}"].setChecked(True)

    def offer_recovery(self) -> None:
        """Offer what windows that did not close normally autosaved, newest first (call once the window is shown).

        Yes restores that one and keeps the rest for the next start; No discards it and offers the next.
        """
        found = self.document.stale_recoveries()
        try:
            for position, recovery in enumerate(found):
                if recovery.scenario == self.model.scenario:
                    self.document.discard_recovery(recovery)  # nothing there that this window does not show
                elif self.ask_restore_recovery(recovery, position, len(found)):
                    self.document.restore(recovery, self.tr("Restore unsaved work"))
                    break
                else:
                    self.document.discard_recovery(recovery)
        finally:
            for recovery in found:
                self.document.release_recovery(recovery)

    def ask_restore_recovery(self, recovery: Recovery, position: int = 0, count: int = 1) -> bool:
        """Yes/No question about restoring one recovery file, the `position`-th of `count` (tests replace this)."""
        when = QLocale().toString(QDateTime.fromSecsSinceEpoch(int(recovery.saved_at)),
                                  QLocale.FormatType.ShortFormat)
        if count == 1:
            text = self.tr("Attention Explorer did not close normally. Restore the scenario autosaved on {0}?").format(
                when)
        else:
            text = self.tr("{1} windows did not close normally. Restore the scenario autosaved on {0} "
                           "({2} of {1}, newest first)? Yes keeps the others for the next start; No discards "
                           "this one and offers the next.").format(when, count, position + 1)
        answer = QMessageBox.question(self, self.tr("Restore unsaved work?"), text)
        return answer == QMessageBox.StandardButton.Yes

    def _autosave_problem(self, error: ScenarioError | None) -> None:
        self._autosave_error = error
        self._show_autosave_problem()

    def _show_autosave_problem(self) -> None:
        """The status bar says why the autosave stopped, for as long as it is stopped."""
        if not hasattr(self, "_autosave_label"):
            return
        error = self._autosave_error
        if error is None:
            self._autosave_label.clear()
            self._autosave_label.hide()
            return
        self._autosave_label.setText(self.tr("Not autosaved (the last copy that fitted is kept): {0}").format(
            error_text(error)))
        self._autosave_label.show()

    def closeEvent(self, event: QCloseEvent) -> None:
        self.animator.stop()
        if not self.maybe_save():
            event.ignore()
            return
        self.settings.setValue("geometry", self.saveGeometry())
        self.settings.setValue("windowState", self._state_before_wide_page or self.saveState())
        self.document.end_session()
        QApplication.instance().removeEventFilter(self)
        event.accept()

    # ------------------------------------------------------------ status and title

    def _show_hint(self, text: str) -> None:
        self._hint_label.setText(text or self._idle_hint())

    def _idle_hint(self) -> str:
        """What the status bar says when nothing is hovered: how to use the page in the middle."""
        page = self.central_tabs.currentIndex() if hasattr(self, "central_tabs") else 0
        if page == LAB_SATURATION:
            return self.tr("Move the factor slider or press ÷ 10 and × 10; drag a key on the Vectors page and the "
                           "curves follow.")
        if page == LAB_VARIANCE:
            return self.tr("Drag d_k and N; New seed draws fresh random vectors.")
        if page == LAB_SELF_ATTENTION:
            return self.tr("Type a sentence or edit X and the W's; hover a cell for q·k, click a row to explore it.")
        if page == LAB_TRANSFORMER:
            return self.tr("Open a model folder, type a sentence and press Show; nothing is downloaded.")
        return self.tr("Drag the tip of Q or of a key. Keys 1–9 select, arrows rotate, Space plays a full turn.")

    def _update_title(self) -> None:
        title = translated_scenario_text(self.model.scenario.title) or self.tr("Untitled scenario")
        if self.document.path is not None:
            title = f"{self.document.path.name} — {title}"
        marker = "*" if self.document.modified else ""
        self.setWindowTitle(window_title(QCoreApplication.translate("MainWindow", "{0}{1} — Attention Explorer").format(
            title, marker)))
