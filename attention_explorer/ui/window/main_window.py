"""The main window: the canvas and the labs in the middle, every other panel a dock around it."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import shiboken6
from PySide6.QtCore import QByteArray, QCoreApplication, QEvent, QSettings, Qt, QTimer
from PySide6.QtGui import QAction, QCloseEvent
from PySide6.QtWidgets import (
    QApplication,
    QDockWidget,
    QLabel,
    QMainWindow,
    QMenu,
    QMessageBox,
    QScrollArea,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from attention_explorer.core.files.presets import preset_names, preset_title
from attention_explorer.core.limits import ScenarioError
from attention_explorer.state.animation import RotationAnimator
from attention_explorer.state.document import Document
from attention_explorer.state.explorer import ExplorerModel
from attention_explorer.ui.application import application_icon
from attention_explorer.ui.canvas.vector_canvas import VectorCanvas
from attention_explorer.ui.i18n.switcher import error_text
from attention_explorer.ui.labs.registry import (
    PAGES,
    SATURATION,
    SELF_ATTENTION,
    TRANSFORMER,
    VARIANCE,
    page_index,
)
from attention_explorer.ui.lessons.lessons import Lessons
from attention_explorer.ui.panels.history import HistoryView
from attention_explorer.ui.panels.output_view import OutputView
from attention_explorer.ui.panels.scale_controls import ScaleControls
from attention_explorer.ui.panels.scenario_info import PresetInfo, translated_scenario_text
from attention_explorer.ui.panels.steps_view import StepsView
from attention_explorer.ui.panels.vector_editor import VectorEditor
from attention_explorer.ui.panels.weights_chart import WeightsChart
from attention_explorer.ui.style.safe_text import literal, mnemonic_free, plain_label, window_title
from attention_explorer.ui.style.theme import theme
from attention_explorer.ui.widgets.full_width import accept_full_width
from attention_explorer.ui.widgets.step_banner import StepBanner
from attention_explorer.ui.window.actions import ActionTable
from attention_explorer.ui.window.disk_changes import DiskChanges
from attention_explorer.ui.window.files import FileHandling
from attention_explorer.ui.window.keys import KeyDispatch
from attention_explorer.ui.window.lazy_dock import LazyDock
from attention_explorer.ui.window.page_list import page_list_button
from attention_explorer.ui.window.pinning import Pinning
from attention_explorer.ui.window.presentation import Presentation
from attention_explorer.ui.window.settings import WindowSettings
from attention_explorer.ui.window.vector_dock import VectorDockSizes
from attention_explorer.ui.window.window_theme import WindowTheme
from attention_explorer.ui.window.workspace_pages import DocumentPages

if TYPE_CHECKING:  # the labs are imported when first shown: a start-up that never opens one skips ~50 ms
    from attention_explorer.ui.labs.saturation.lab import SaturationLab
    from attention_explorer.ui.labs.self_attention.lab import SelfAttentionLab
    from attention_explorer.ui.labs.transformer.lab import TransformerLab
    from attention_explorer.ui.labs.variance.lab import VarianceLab
    from attention_explorer.ui.panels.rotation_trace import RotationTrace
    from attention_explorer.ui.panels.scoring_view import ScoringView
    from attention_explorer.ui.window.recording import Recorder


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


def _scrolled(panel: QWidget) -> QScrollArea:
    """`panel` in a frameless scroll area that fits it to its width and scrolls it up and down."""
    scroll = QScrollArea()
    scroll.setWidgetResizable(True)
    scroll.setFrameShape(QScrollArea.Shape.NoFrame)
    scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    scroll.setWidget(panel)
    return scroll


def _rotation_trace(model: ExplorerModel, animator: RotationAnimator) -> RotationTrace:
    """The rotation trace panel, its module imported only now (the dock is closed at start)."""
    from attention_explorer.ui.panels.rotation_trace import RotationTrace

    return RotationTrace(model, animator)


def _scoring_view(model: ExplorerModel) -> ScoringView:
    """The scoring functions panel, its module imported only now (the dock is closed at start)."""
    from attention_explorer.ui.panels.scoring_view import ScoringView

    return ScoringView(model)


class MainWindow(FileHandling, DiskChanges, KeyDispatch, WindowSettings, Presentation, DocumentPages, VectorDockSizes,
                 WindowTheme, QMainWindow):
    """Attention Explorer's window: every panel draws from the one model it is given."""

    def __init__(self, model: ExplorerModel, settings: QSettings | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("mainWindow")
        self.setAcceptDrops(True)
        self.setWindowIcon(application_icon())
        self.model = model
        self.settings = settings if settings is not None else QSettings()
        self.document = Document(model, self.settings, parent=self)
        self.animator = RotationAnimator(model, self)
        self._recorder: Recorder | None = None  # File ▸ Record…, built when first used

        self.canvas = VectorCanvas(model)
        # The labs share the middle with the canvas. Each is built the first time it is shown: a lecture that
        # never opens one pays nothing for it, at start-up or per drag move.
        self._lab_factories: dict[int, Callable[[], QWidget]] = {
            index: (lambda build=spec.build: build(model)) for index, spec in enumerate(PAGES) if spec.build
        }
        self._built_pages: dict[int, QWidget] = {0: self.canvas}
        self.central_tabs = QTabWidget()
        self.central_tabs.setObjectName("centralTabs")
        self.central_tabs.setDocumentMode(True)
        self.central_tabs.addTab(self.canvas, "")
        for index in range(1, max(self._lab_factories) + 1):
            # A lab scrolls rather than forcing the whole window wider than a 1280×720 projector.
            scroll = QScrollArea()
            scroll.setWidgetResizable(True)
            scroll.setFrameShape(QScrollArea.Shape.NoFrame)
            self.central_tabs.addTab(scroll, "")
            self.central_tabs.setTabVisible(index, index in self._lab_factories)  # a tab index not built here
        self.step_banner = StepBanner(model)  # above the middle, shown only in step-through
        middle = QWidget()
        middle_layout = QVBoxLayout(middle)
        middle_layout.setContentsMargins(0, 0, 0, 0)
        middle_layout.setSpacing(0)
        middle_layout.addWidget(self.step_banner)
        middle_layout.addWidget(self.central_tabs, 1)
        self.setCentralWidget(middle)
        self._state_before_wide_page: QByteArray | None = None
        self.central_tabs.currentChanged.connect(self._page_changed)
        self.editor = VectorEditor(model)
        self.scale_controls = ScaleControls(model)
        self.steps_view = StepsView(model)
        self.weights_chart = WeightsChart(model)
        self.output_view = OutputView(model)
        self.preset_info = PresetInfo(model)
        self.history = HistoryView(model)
        self.history.setObjectName("historyPanel")

        self.docks: dict[str, QDockWidget] = {}
        self._layout_restored = False
        left = Qt.DockWidgetArea.LeftDockWidgetArea
        right = Qt.DockWidgetArea.RightDockWidgetArea
        bottom = Qt.DockWidgetArea.BottomDockWidgetArea
        self._add_dock(self.editor, left)
        self.editor.width_wanted.connect(self._widen_vectors)
        self._add_dock(self.preset_info, left)
        self._add_dock(self.history, left)
        # The d_k and scale panel scrolls when the left column is short: the vectors above it keep every row.
        self._add_dock(self.scale_controls, left).setWidget(_scrolled(self.scale_controls))
        self._add_dock(self.steps_view, right)
        self._add_dock(self.weights_chart, right)
        self._add_dock(self.output_view, right)
        # Closed at start: built when first shown (an animation starts, a menu entry, the last session's layout).
        self._add_lazy_dock("rotationTrace", lambda: _rotation_trace(model, self.animator), bottom)
        scoring = self._add_lazy_dock("scoringView", lambda: _scoring_view(model), right)
        scoring.hide()  # View ▸ Panels ▸ Scoring functions. Tabbed only once shown: a hidden tab made the window taller
        scoring.toggleViewAction().triggered.connect(lambda on: on and self._tab_beside_steps(scoring))
        self.pinning = Pinning(self)  # the Pins panel (a tab beside the steps) and the pins' ghosts in the views
        self.splitDockWidget(self.docks["weightsChart"], self.docks["outputView"], Qt.Orientation.Horizontal)
        # Tabs keep the left column roomy at 1280×720: the story, the numbers and the history take turns.
        self.tabifyDockWidget(self.docks["vectorEditor"], self.docks["presetInfo"])
        self.tabifyDockWidget(self.docks["presetInfo"], self.docks["historyPanel"])
        self.docks["vectorEditor"].raise_()
        self.docks["rotationTrace"].hide()  # shown when an animation starts
        self.setCorner(Qt.Corner.BottomLeftCorner, left)
        self.setCorner(Qt.Corner.BottomRightCorner, right)
        self._build_presentation()
        self._install_figure_menu()  # right-click ▸ Export… on every plot of every page
        accept_full_width(self)  # the panels' spin boxes (d_k, d_v, seed, factor) read full-width digits

        for panel in (self.canvas, self.editor, self.scale_controls, self.steps_view, self.weights_chart,
                      self.output_view, self.preset_info):
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

        self.lessons = Lessons(self)  # question mode and lecture scripts, above the middle
        self.preset_actions: dict[str, QAction] = {}
        self.action_table = ActionTable(self, self.menuBar(), fillers={
            "examples": self._fill_examples_menu, "panels": self._fill_panels_menu})
        self.actions_by_name = self.action_table.actions
        for name, menu in self.action_table.menus.items():
            setattr(self, f"{name}_menu", menu)  # self.file_menu, self.recent_menu, …
        self.page_list_button = page_list_button(self.pages_menu)
        self.central_tabs.setCornerWidget(self.page_list_button, Qt.Corner.TopRightCorner)
        self.actions_by_name["page1"].setChecked(True)
        self.theme_group = self.action_table.groups["theme"]
        self.language_group = self.action_table.groups["language"]
        stack = model.undo_stack
        stack.indexChanged.connect(self._update_undo_actions)
        stack.cleanChanged.connect(self._update_undo_actions)
        self.edit_menu.aboutToShow.connect(self._update_undo_actions)  # a drag renames its step silently
        self._rebuild_recent_menu()
        self.retranslate()

        model.changed.connect(self._update_title)
        self.document.path_changed.connect(self._update_title)
        self._join_document()  # the labs' scenes are pages of the document, their edits steps of its history
        self._start_watching_files()  # a page's file changed on disk is told at once (ui/window/disk_changes.py)
        self.document.recent_changed.connect(self._rebuild_recent_menu)
        self.document.autosave_problem.connect(self._autosave_problem)
        self.animator.running_changed.connect(self._animation_running_changed)
        model.steps_changed.connect(self._steps_mode_changed)
        theme().changed.connect(self._apply_theme)
        QApplication.instance().installEventFilter(self)
        self._fit_first_run_to_screen()
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
        if self._restoring_state:
            return  # the state being restored brings its own sizes; its docks are not all back in the layout yet
        if self.presenting:
            self._fit_presentation()
        elif not self._layout_restored:
            self._fit_docks_to_width()

    _restoring_state = False

    def restoreState(self, state: QByteArray, version: int = 0) -> bool:
        """QMainWindow.restoreState, with none of the window's own dock sizing while Qt rebuilds the layout.

        Qt widens the window in the middle of it when the layout needs more room than the window has (leaving a
        wide lab for a zoomed desk), and a resizeDocks() then named docks that were not back in the layout yet
        ("QMainWidget::resizeDocks: one QDockWidget is not part of the layout").
        """
        self._restoring_state = True
        try:
            return super().restoreState(state, version)
        finally:
            self._restoring_state = False

    def _fit_docks_to_width(self) -> None:
        """Share the width: a quarter for the vectors (the whole table if it has room), a third for the steps,
        the rest for the canvas."""
        width = max(self.width(), 800)
        vectors = max(int(width * 0.26), self._whole_table_width(width))
        self.resizeDocks([self.docks["vectorEditor"], self.docks["stepsView"]],
                         [vectors, int(width * 0.32)], Qt.Orientation.Horizontal)
        height = max(self.height(), 500)
        self.resizeDocks([self.docks["stepsView"], self.docks["weightsChart"]],
                         [int(height * 0.55), int(height * 0.38)], Qt.Orientation.Vertical)
        # The vectors get the height that shows every row of their table (at most 60 %: nine keys would take it
        # all); the d_k and scale panel the rest, and it scrolls (1264×672 cut the vector table at K3's row).
        editor = max(int(height * 0.52), min(self._vector_rows_height(), int(height * 0.6)))
        self.resizeDocks([self.docks["vectorEditor"], self.docks["scaleControls"]],
                         [editor, height - editor], Qt.Orientation.Vertical)

    def _add_lazy_dock(self, name: str, factory: Callable[[], QWidget], area: Qt.DockWidgetArea) -> LazyDock:
        dock = LazyDock(name, factory, self)
        dock.built.connect(lambda panel: panel.hint.connect(self._show_hint) if hasattr(panel, "hint") else None)
        self.addDockWidget(area, dock)
        self.docks[name] = dock
        return dock

    @property
    def rotation_trace(self) -> RotationTrace:
        """The rotation trace panel (built on first use)."""
        return self.docks["rotationTrace"].panel()

    @property
    def scoring_view(self) -> ScoringView:
        """The scoring functions panel (built on first use)."""
        return self.docks["scoringView"].panel()

    def _add_dock(self, panel: QWidget, area: Qt.DockWidgetArea) -> QDockWidget:
        dock = QDockWidget(self)
        dock.setObjectName(f"dock_{panel.objectName()}")
        dock.setWidget(panel)
        self.addDockWidget(area, dock)
        self.docks[panel.objectName()] = dock
        return dock

    def _tab_beside_steps(self, dock: QDockWidget) -> None:
        """Show `dock` as a tab beside the four steps (the right column's tallest place), in front."""
        if dock not in self.tabifiedDockWidgets(self.docks["stepsView"]):
            self.tabifyDockWidget(self.docks["stepsView"], dock)
        dock.raise_()

    def _fill_examples_menu(self, menu: QMenu) -> None:
        """Examples ▸ every preset, by its title."""
        for name in preset_names():
            action = QAction(self)
            action.setObjectName(f"preset_{name}")
            action.triggered.connect(lambda _checked=False, n=name: self.open_preset(n))
            menu.addAction(action)
            self.preset_actions[name] = action

    def _fill_panels_menu(self, menu: QMenu) -> None:
        """View ▸ Panels ▸ a check box for every dock."""
        for dock in self.docks.values():
            menu.addAction(dock.toggleViewAction())

    def retranslate(self) -> None:
        """Every text of the window in the current language (called again on LanguageChange)."""
        self.model.retranslate_history()  # before the Undo/Redo actions read the steps' names
        titles = {
            "presetInfo": self.tr("About this example"), "vectorEditor": self.tr("Vectors"),
            "scaleControls": self.tr("d_k and scale"), "stepsView": self.tr("The four steps"),
            "weightsChart": self.tr("Attention weights"), "outputView": self.tr("Output"),
            "rotationTrace": self.tr("Rotation trace"), "historyPanel": self.tr("History"),
            "scoringView": self.tr("Scoring functions"),
            "pinsTable": self.tr("Pins"),
        }
        for name, dock in self.docks.items():
            dock.setWindowTitle(titles[name])
        self.history.setEmptyLabel(self.tr("<opened>"))
        self.action_table.retranslate()
        if self._recorder is not None:
            self._recorder.name_action()  # "Stop recording" while one runs
        for name, action in self.preset_actions.items():
            action.setText(translated_scenario_text(preset_title(name)) or name)
        self._show_autosave_problem()
        for index, spec in enumerate(PAGES):
            self.central_tabs.setTabText(index, QCoreApplication.translate("MainWindow", spec.title))
        self.page_list_button.setText(self.tr("All pages"))
        self.page_list_button.setToolTip(self.tr("Every page of the middle, also on Ctrl+1 … Ctrl+{0}").format(
            len(self.pages_menu.actions())))
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

    def show_page(self, index: int) -> None:
        """Bring the canvas (0) or a lab to the middle of the window."""
        if 0 <= index < self.central_tabs.count():
            self.central_tabs.setCurrentIndex(index)

    def page(self, index: int) -> QWidget:
        """The canvas (0) or a lab, built on first use."""
        if index not in self._built_pages and index not in self._lab_factories:
            return self.central_tabs.widget(index)  # a hidden tab whose lab is not part of this build
        if index not in self._built_pages:
            lab = self._lab_factories[index]()
            self._built_pages[index] = lab
            accept_full_width(lab)  # "１６" typed by a Chinese input method into a lab's spin box is 16
            self.central_tabs.widget(index).setWidget(_LabHolder(lab))
            hint = getattr(lab, "hint", None)
            if hint is not None:
                hint.connect(self._show_hint)
            requested = getattr(lab, "scene_requested", None)  # a lab handing a scene to another lab
            if requested is not None:
                requested.connect(self.receive_scene)
            sentence = getattr(lab, "sentence_requested", None)  # a sentence for the real-transformer page
            if sentence is not None:
                sentence.connect(self.sentence_in_real_model)
            self._attach_page(index, lab)
            if self.presenting and hasattr(lab, "set_presenting"):
                lab.set_presenting(True)  # built while presenting: the hall's sizes from the start
            self._apply_theme()
        return self._built_pages[index]

    @property
    def saturation_lab(self) -> SaturationLab:
        """The saturation lab (built on first use)."""
        return self.page(page_index(SATURATION))

    @property
    def variance_lab(self) -> VarianceLab:
        """The variance lab (built on first use)."""
        return self.page(page_index(VARIANCE))

    @property
    def self_attention_lab(self) -> SelfAttentionLab:
        """The self-attention lab (built on first use)."""
        return self.page(page_index(SELF_ATTENTION))

    @property
    def transformer_lab(self) -> TransformerLab:
        """The real-transformer page (built on first use)."""
        return self.page(page_index(TRANSFORMER))

    @property
    def pages(self) -> list[QWidget]:
        """Every page of the middle, in tab order (builds the labs)."""
        return [self.page(index) for index in range(self.central_tabs.count())]

    def _page_changed(self, index: int) -> None:
        self.page(index)
        self._page_kind_changed(index)
        shown = self.actions_by_name.get(f"page{index + 1}")
        if shown is not None:
            shown.setChecked(True)
        self._show_hint("")
        # Labs with state of their own get the whole window; the explorer's docks step aside.
        wide = PAGES[index].wide if 0 <= index < len(PAGES) else False
        if wide and self._state_before_wide_page is None:
            self._state_before_wide_page = self.saveState()
            for dock in self.docks.values():
                dock.hide()
        elif not wide and self._state_before_wide_page is not None:
            self.restoreState(self._state_before_wide_page)
            self._state_before_wide_page = None
        QTimer.singleShot(0, self.hide_idle_dock_tab_bars)  # after Qt's layout of the docks

    def current_page(self) -> QWidget:
        """The canvas or the lab shown in the middle."""
        return self.page(self.central_tabs.currentIndex())

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange and hasattr(self, "actions_by_name"):
            if shiboken6.isValid(self.recent_menu):  # a window being torn down has lost its menus already
                self.retranslate()
        elif event.type() == QEvent.Type.ActivationChange and self.isActiveWindow() and hasattr(self, "document"):
            self.check_file_on_disk()  # changed by another window or program meanwhile? (ui/window/disk_changes.py)
        super().changeEvent(event)

    # ------------------------------------------------------------ edits

    def add_pair(self) -> None:
        """Edit ▸ Add key–value pair."""
        try:
            self.model.add_pair()
        except ScenarioError as error:
            self.show_error(self.tr("Cannot add a pair"), error_text(error))

    def remove_pair(self) -> None:
        """Edit ▸ Remove selected pair."""
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

    def open_guide(self, tab: int = 0) -> None:
        """Help ▸ Guide (F1) and Help ▸ About: the guide beside the window (not modal: Try it shows its result)."""
        from attention_explorer.ui.window.help_dialog import HelpDialog

        if getattr(self, "help_dialog", None) is None:
            self.help_dialog = HelpDialog(self)
        self.help_dialog.tabs.setCurrentIndex(tab)
        self.help_dialog.show()
        self.help_dialog.raise_()

    @property
    def recorder(self) -> Recorder:
        """File ▸ Record…'s recordings and their status-bar indicator (the module imported when first used)."""
        if self._recorder is None:
            from attention_explorer.ui.window.recording import Recorder

            self._recorder = Recorder(self)
        return self._recorder

    def record_dialog(self) -> None:
        """File ▸ Record… (while a recording runs: stop it and write the file)."""
        self.recorder.open_dialog()

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

    def reset_zoom(self) -> None:
        """Ctrl+0: text, lines and arrows at their normal size."""
        theme().set_zoom(1.0)

    def set_theme(self, mode: str) -> None:
        """View ▸ Theme: light, dark or high contrast."""
        theme().set_mode(mode)

    def toggle_step_through(self) -> None:
        """Ctrl+T: reveal the four steps one at a time, or all at once again."""
        self.model.set_step_through(not self.model.step_through)

    def _animation_running_changed(self, running: bool) -> None:
        trace = self.docks["rotationTrace"]
        if running and self.presenting:
            self._present_turn()
        elif running and not trace.isVisible():
            trace.show()  # first: the canvas it takes room from is then framed at its new size
            # Qt gives a newly shown bottom dock about half the column: the canvas, what the turn is about,
            # was left 156 px tall at 1280×720. The trace reads well at its minimum height.
            self.resizeDocks([trace], [trace.minimumSizeHint().height()], Qt.Orientation.Vertical)
            QApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
        self.canvas.frame_turn(self.model.selected_key if running else None)
        self.actions_by_name["playRotation"].setChecked(running)

    def _steps_mode_changed(self) -> None:
        self.actions_by_name["stepThrough"].setChecked(self.model.step_through)

    # ------------------------------------------------------------ errors and closing

    def show_error(self, title: str, text: str) -> None:
        """A visible error (tests replace this); the status bar repeats it."""
        self._show_hint(text)
        QMessageBox.warning(self, window_title(title), literal(text))

    def closeEvent(self, event: QCloseEvent) -> None:
        self.animator.stop()
        if not self.maybe_save():
            event.ignore()
            return
        self._save_layout()
        self.document.end_session()
        self.settings.sync()  # on disk now: nothing is left for the settings object's destructor at exit
        QApplication.instance().removeEventFilter(self)
        event.accept()

    # ------------------------------------------------------------ status and title

    def _show_hint(self, text: str) -> None:
        self._hint_label.setText(text or self._idle_hint())

    def _idle_hint(self) -> str:
        """What the status bar says when nothing is hovered: how to use the page in the middle."""
        page = self.central_tabs.currentIndex() if hasattr(self, "central_tabs") else 0
        hint = PAGES[page].hint if 0 < page < len(PAGES) else ""
        if hint:
            return self.tr(hint)
        idle_hint = getattr(self._built_pages.get(page), "idle_hint", None)
        if idle_hint is not None:  # the newer labs say themselves how they are used
            return idle_hint()
        return self.tr("Drag the tip of Q or of a key. Keys 1–9 select, arrows rotate, Space plays a full turn.")

    def _update_title(self) -> None:
        """The page's file and scene (Save writes them), and "*" while any page has unsaved edits."""
        name, title = self._document_title()
        if name:
            title = f"{name} — {title}"
        marker = "*" if self.document.modified else ""
        self.setWindowTitle(window_title(QCoreApplication.translate("MainWindow", "{0}{1} — Attention Explorer").format(
            title, marker)))
