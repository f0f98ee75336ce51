"""The main window: the canvas in the middle, every other panel a dock around it, menus and actions."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QAction, QFont, QKeySequence
from PySide6.QtWidgets import QApplication, QDockWidget, QLabel, QMainWindow, QWidget

from ..model import ExplorerModel
from .output_view import OutputView
from .scale_controls import ScaleControls
from .steps_view import StepsView
from .theme import theme
from .vector_canvas import VectorCanvas
from .vector_editor import VectorEditor
from .weights_chart import WeightsChart


def configure_application(app: QApplication, language: str | None = None) -> None:
    """Application-wide settings: names (for QSettings), a projector-friendly font, pyqtgraph options."""
    import pyqtgraph as pg

    app.setApplicationName("Attention Explorer")
    app.setOrganizationName("Attention Explorer")
    app.setOrganizationDomain("attention-explorer.dev")
    pg.setConfigOptions(antialias=True, background="w", foreground="#202020")
    font = QFont(app.font())
    font.setPointSizeF(theme().font_pt())
    app.setFont(font)


class MainWindow(QMainWindow):
    """Attention Explorer's window: every panel draws from the one model it is given."""

    def __init__(self, model: ExplorerModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("mainWindow")
        self.model = model
        self.canvas = VectorCanvas(model)
        self.setCentralWidget(self.canvas)
        self.editor = VectorEditor(model)
        self.scale_controls = ScaleControls(model)
        self.steps_view = StepsView(model)
        self.weights_chart = WeightsChart(model)
        self.output_view = OutputView(model)
        self.docks: dict[str, QDockWidget] = {}
        left = Qt.DockWidgetArea.LeftDockWidgetArea
        right = Qt.DockWidgetArea.RightDockWidgetArea
        self._add_dock(self.editor, self.tr("Vectors"), left)
        self._add_dock(self.scale_controls, self.tr("d_k and scale"), left)
        self._add_dock(self.steps_view, self.tr("The four steps"), right)
        self._add_dock(self.weights_chart, self.tr("Attention weights"), right)
        self._add_dock(self.output_view, self.tr("Output"), right)
        self.splitDockWidget(self.docks["weightsChart"], self.docks["outputView"], Qt.Orientation.Horizontal)
        self.setCorner(Qt.Corner.BottomLeftCorner, left)
        self.setCorner(Qt.Corner.BottomRightCorner, right)
        for panel in (self.canvas, self.editor, self.scale_controls, self.steps_view,
                      self.weights_chart, self.output_view):
            hint = getattr(panel, "hint", None)
            if hint is not None:
                hint.connect(self._show_hint)
        self._build_menus()
        self._hint_label = QLabel()
        self.statusBar().addWidget(self._hint_label, 1)
        self._show_hint("")
        model.changed.connect(self._update_title)
        self._update_title()
        self.resize(1600, 1000)

    def _add_dock(self, panel: QWidget, title: str, area: Qt.DockWidgetArea) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(f"dock_{panel.objectName()}")
        dock.setWidget(panel)
        dock.setFeatures(
            QDockWidget.DockWidgetFeature.DockWidgetClosable
            | QDockWidget.DockWidgetFeature.DockWidgetMovable
            | QDockWidget.DockWidgetFeature.DockWidgetFloatable
        )
        self.addDockWidget(area, dock)
        self.docks[panel.objectName()] = dock
        return dock

    def _build_menus(self) -> None:
        bar = self.menuBar()
        file_menu = bar.addMenu(self.tr("&File"))
        quit_action = QAction(self.tr("&Quit"), self)
        quit_action.setShortcut(QKeySequence.StandardKey.Quit)
        quit_action.triggered.connect(self.close)
        file_menu.addAction(quit_action)

        edit_menu = bar.addMenu(self.tr("&Edit"))
        undo = self.model.undo_stack.createUndoAction(self, self.tr("&Undo"))
        undo.setShortcut(QKeySequence.StandardKey.Undo)
        redo = self.model.undo_stack.createRedoAction(self, self.tr("&Redo"))
        redo.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence.StandardKey.Redo])
        edit_menu.addAction(undo)
        edit_menu.addAction(redo)
        self.undo_action, self.redo_action = undo, redo

        self.view_menu = bar.addMenu(self.tr("&View"))
        for dock in self.docks.values():
            self.view_menu.addAction(dock.toggleViewAction())

    def _show_hint(self, text: str) -> None:
        self._hint_label.setText(text or self.tr("Drag the tip of Q or of any key on the canvas."))

    def _update_title(self) -> None:
        title = self.model.scenario.title or self.tr("Untitled scenario")
        self.setWindowTitle(QCoreApplication.translate("MainWindow", "{0} — Attention Explorer").format(title))
