"""The main window's files: new, open, save, recent files, dropped files, exports of plots and copies of the steps."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pyqtgraph as pg
from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QPoint, QRect, QSize
from PySide6.QtGui import QRegion
from PySide6.QtWidgets import QApplication, QDialog, QFileDialog, QMessageBox, QWidget

from attention_explorer.core.files.figure_size import max_export_width
from attention_explorer.core.files.openfile import load_file
from attention_explorer.core.files.presets import load_preset
from attention_explorer.core.files.safety import remove_stale_temporaries
from attention_explorer.core.files.workspace import scene_kind
from attention_explorer.core.limits import ScenarioError
from attention_explorer.core.scenes.query import export
from attention_explorer.core.scenes.query.scene import Scenario
from attention_explorer.state.workspace import EXPLORER
from attention_explorer.ui.i18n.preset_labels import translated_labels
from attention_explorer.ui.i18n.switcher import error_text
from attention_explorer.ui.labs.registry import KIND_PAGES, PAGES, SUGGESTED_NAMES, VECTORS, page_index, page_kind
from attention_explorer.ui.style.safe_text import literal, mnemonic_free
from attention_explorer.ui.widgets.export_file import png_bytes, write_export
from attention_explorer.ui.widgets.figures import (
    DEFAULT_SCALE,
    ExportOptions,
    FigureMenu,
    figure_image,
    figure_name,
    figure_title,
    page_figures,
    write_figure,
)
from attention_explorer.ui.window.disk_changes import CANCEL, SAVE_AS

if TYPE_CHECKING:  # the other kinds' modules load with a file of their kind (start-up opens a plain scenario)
    from attention_explorer.core.scenes.cross.scene import CrossScenario
    from attention_explorer.core.scenes.multihead.scene import MultiHeadScenario
    from attention_explorer.core.scenes.positions.scene import PositionalScene
    from attention_explorer.core.scenes.sequence.scene import SequenceScenario
    from attention_explorer.core.teaching.lecture import Lecture

    LabScene = SequenceScenario | MultiHeadScenario | CrossScenario | PositionalScene

_translate = QCoreApplication.translate  # lupdate: -tr-function-alias translate+=_translate

FILE_FILTER = QT_TRANSLATE_NOOP("MainWindow", "Attention Explorer scenario (*.json);;All files (*)")
FIGURE_FILTERS = {"png": "PNG (*.png)", "svg": "SVG (*.svg)", "pdf": "PDF (*.pdf)"}


class FileHandling:
    """Mixed into MainWindow: what File ▸ and a dropped file do, through the window's Document."""

    # The page kind the unsaved-changes question is about (ask_unsaved_changes() takes no argument: tests replace it).
    _unsaved_kind = EXPLORER

    def maybe_save(self, kinds: tuple[str, ...] | None = None) -> bool:
        """Ask about each page with unsaved changes (only those of `kinds`, None: every page), showing it first;
        False when the user cancels."""
        for kind in self.document.workspace.modified_kinds():
            if kinds is not None and kind not in kinds:
                continue
            if page_kind(self.central_tabs.currentIndex()) != kind:
                self.show_page(page_index(KIND_PAGES.get(kind, VECTORS)))  # the question is about what the window shows
            self._unsaved_kind = kind
            answer = self.ask_unsaved_changes()
            if answer == QMessageBox.StandardButton.Save:
                if not self.save():
                    return False
            elif answer != QMessageBox.StandardButton.Discard:
                return False
        return True

    def ask_unsaved_changes(self) -> QMessageBox.StandardButton:
        """The Save / Discard / Cancel question about the page shown (tests replace this)."""
        if self._unsaved_kind == EXPLORER:
            text = _translate("MainWindow", "The scenario has changes that are not saved. Save them?")
        else:
            text = _translate("MainWindow", "“{0}” has changes that are not saved. Save them?").format(
                self.page_title(self._unsaved_kind))
        return QMessageBox.question(
            self, _translate("MainWindow", "Unsaved changes"), text,
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
            | QMessageBox.StandardButton.Cancel, QMessageBox.StandardButton.Save,
        )

    def ask_open_path(self) -> str:
        """File dialog for Open (tests replace this)."""
        path, _ = QFileDialog.getOpenFileName(self, _translate("MainWindow", "Open scenario"), self._dialog_folder(),
                                              _translate("MainWindow", FILE_FILTER))
        return path

    def ask_save_path(self, title: str, suggestion: str, file_filter: str) -> str:
        """File dialog for Save As and exports (tests replace this)."""
        path, _ = QFileDialog.getSaveFileName(self, title, suggestion, file_filter)
        return path

    def _dialog_folder(self) -> str:
        path = self.document.page_path(self.current_kind()) or self.document.path
        return str(path.parent) if path else str(Path.home())

    def new_scenario(self) -> None:
        """File ▸ New: the default example, after asking about unsaved changes."""
        if self.maybe_save((EXPLORER,)):
            self.document.open_scenario(load_preset("drag-2d"))

    def open_preset(self, name: str) -> None:
        """Examples ▸ name: load a preset (the explanation panel shows its story)."""
        loaded = translated_labels(load_preset(name))
        if not isinstance(loaded, Scenario):  # a self-attention, multi-head or cross-attention example
            if self.maybe_save((scene_kind(loaded),)):
                self.open_sequence(loaded)
            return
        if not self.maybe_save((EXPLORER,)):
            return
        self.document.open_scenario(loaded)
        self.show_page(0)
        if not self.presenting:  # the hall has no room for the story: it stays in View ▸ Panels
            self.docks["presetInfo"].show()
            self.docks["presetInfo"].raise_()

    def open_sequence(self, sequence: LabScene) -> None:
        """Open a self-attention, multi-head, cross-attention or positions scene in its lab, as that page's saved
        state with no file (the explorer's stays as it is)."""
        page = page_index(KIND_PAGES[scene_kind(sequence)])
        self.page(page).load(sequence)
        self.show_page(page)

    def receive_scene(self, scene: LabScene) -> None:
        """A scene one lab hands to another (a real head's q and k to the positions lab): that lab takes it as one
        edit (undoable, the window modified), and its page is shown."""
        page = page_index(KIND_PAGES[scene_kind(scene)])
        self.page(page).receive(scene)
        self.show_page(page)

    def sentence_in_real_model(self, text: str) -> bool:
        """A lab's sentence through a real model: the real-transformer page, which opens a model that reads it."""
        self.show_page(page_index("transformer"))
        return self.transformer_lab.show_sentence(text)

    def open_dialog(self) -> None:
        """File ▸ Open (unsaved changes of the page the file opens in are asked about once its kind is known)."""
        path = self.ask_open_path()
        if path:
            self.open_file(path)

    def open_model_dialog(self) -> bool:
        """File ▸ Open model…: the real-transformer page, then its folder chooser."""
        self.show_page(page_index("transformer"))
        return self.transformer_lab.open_dialog()

    def get_model_dialog(self) -> None:
        """File ▸ Get a model…: download a model into the Hugging Face cache (its own dialog and module)."""
        from attention_explorer.ui.window.get_model import open_get_model

        open_get_model(self)

    def open_file(self, path: str, ask: bool = True) -> bool:
        """Open a scenario file of either kind; a bad file shows the loader's message and changes nothing."""
        try:
            loaded = load_file(path)  # a scenario, a sequence or a lecture script
        except ScenarioError as error:
            self.show_error(_translate("MainWindow", "Cannot open the file"), f"{Path(path).name}: {error_text(error)}")
            return False
        return self.open_loaded(path, loaded, ask)

    def open_loaded(self, path: str, loaded: Scenario | LabScene | Lecture, ask: bool = True) -> bool:
        """Attach the window to a scenario file already read: File ▸ Open and `attention-explorer FILE` alike.

        Temporary files that a save killed half-way left beside the file (their writer is gone) are removed.
        """
        remove_stale_temporaries(path)
        if not isinstance(loaded, Scenario):
            from attention_explorer.core.teaching.lecture import Lecture

            if isinstance(loaded, Lecture):
                self.lessons.start_lecture(loaded)
                return True
            kind = scene_kind(loaded)  # a self-attention, multi-head, cross-attention or positions file
            if ask and not self.maybe_save((kind,)):
                return False
            self.open_sequence(loaded)
            self.document.workspace.opened_file(kind, path)  # Save writes that lab's scene back to this file
            self.document.add_recent(Path(os.path.abspath(path)))
            return True
        if ask and not self.maybe_save((EXPLORER,)):
            return False
        self.document.open(path, loaded)
        self.show_page(0)
        return True

    def save(self) -> bool:
        """File ▸ Save: the page shown, in its own kind, to its file (Save As when it has none yet)."""
        path = self.document.page_path(self.current_kind())
        if path is None:
            return self.save_as()
        return self._save_to(path)

    def save_as(self) -> bool:
        """File ▸ Save As: the page shown, in its own kind."""
        suggestion = str(Path(self._dialog_folder()) / SUGGESTED_NAMES[self.current_kind()])
        path = self.ask_save_path(_translate("MainWindow", "Save scenario"), suggestion,
                                  _translate("MainWindow", FILE_FILTER))
        if not path:
            return False
        if not path.lower().endswith(".json"):
            path += ".json"
        return self._save_to(Path(path))

    def _save_to(self, path: Path) -> bool:
        kind = self.current_kind()
        answer = self.confirm_overwrite(path, kind)  # the file changed on disk since this window read or wrote it?
        if answer == SAVE_AS:
            return self.save_as()
        if answer == CANCEL:
            return False
        try:
            if kind == EXPLORER:
                self.document.save(path)
            else:  # a lab's scene, in its own kind of file
                self.document.add_recent(self.document.workspace.save(kind, path))
        except (OSError, ScenarioError) as error:
            self.show_error(_translate("MainWindow", "Cannot save"), f"{path.name}: {error_text(error)}")
            return False
        self._show_hint(_translate("MainWindow", "Saved {0}").format(path.name))
        return True

    def _rebuild_recent_menu(self) -> None:
        self.recent_menu.clear()
        recent = self.document.recent_files()
        for path in recent:
            action = self.recent_menu.addAction(mnemonic_free(Path(path).name))
            action.setToolTip(literal(path))
            action.triggered.connect(lambda _checked=False, p=path: self.open_file(p))
        if not recent:
            empty = self.recent_menu.addAction(_translate("MainWindow", "(none yet)"))
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
        """Write one plot to PNG or SVG with pyqtgraph's exporters, or to PDF as a right-click Export… writes it
        (ui/widgets/figures.py), by the file's suffix.

        The picture is made in memory, then written and checked on the disk (ui/widgets/export_file.py): a full
        or read-only disk raises instead of leaving a 0-byte file behind an "Exported".
        """
        from pyqtgraph import exporters

        plot = self.plot_widget(name)
        if path.lower().endswith(".pdf"):
            write_figure(plot, path, "pdf")
            return
        if path.lower().endswith(".svg"):
            data = exporters.SVGExporter(plot.getPlotItem()).export(toBytes=True)
        else:
            exporter = exporters.ImageExporter(plot.getPlotItem())
            exporter.parameters()["width"] = max(800, int(plot.width() * 2))
            data = png_bytes(exporter.export(toBytes=True))
        write_export(path, data)

    def export_plot_dialog(self, name: str, fmt: str) -> None:
        """File ▸ Export ▸ a plot."""
        file_filter = FIGURE_FILTERS[fmt]
        path = self.ask_save_path(_translate("MainWindow", "Export"),
                                  str(Path(self._dialog_folder()) / f"{name}.{fmt}"), file_filter)
        if not path:
            return
        if not path.lower().endswith(f".{fmt}"):
            path += f".{fmt}"
        self._export(path, lambda: self.export_plot(name, path))

    def export_window(self, path: str) -> None:
        """The whole window as a PNG, written and checked like a plot's (raises when it is not written whole)."""
        write_export(path, png_bytes(self.grab().toImage()))

    def export_window_dialog(self) -> None:
        """File ▸ Export ▸ Whole window."""
        path = self.ask_save_path(_translate("MainWindow", "Export"), str(Path(self._dialog_folder()) / "window.png"),
                                  "PNG (*.png)")
        if path:
            if not path.lower().endswith(".png"):
                path += ".png"
            self._export(path, lambda: self.export_window(path))

    # ------------------------------------------------------------ figures: any plot, the current page

    def _install_figure_menu(self) -> None:
        """A right-click on any plot of any page offers Export… (ui/widgets/figures.py): the window and each dock,
        which floats as a window of its own, are watched once; plots made later have it too."""
        self.figure_menu = FigureMenu(self.export_figure_dialog, self.copy_figure, self)
        for watched in (self, *self.docks.values()):
            self.figure_menu.watch(watched)

    def page_figures(self) -> list[QWidget]:
        """The figures the current page shows (on the Vectors page, also those of its docks)."""
        page = self.current_page()
        return page_figures(self if page is self.canvas else page)

    def current_page_figure(self) -> tuple[QWidget, QRegion | None]:
        """The current page as one figure: a lab whole; the Vectors page as the canvas and the docks beside it."""
        page = self.current_page()
        if page is not self.canvas:
            return page, None
        region = QRegion(QRect(self.canvas.mapTo(self, QPoint(0, 0)), self.canvas.size()))
        for dock in self.docks.values():
            # A dock tabbed behind another is "visible" far outside the window: only the docks in view count.
            if dock.isVisible() and not dock.isFloating() and self.rect().contains(dock.geometry()):
                region += dock.geometry()
        return self, region

    def ask_export_options(self, size: QSize, title: str = "") -> tuple[str, int] | None:
        """Format and PNG width for a figure shown at `size` (None: cancelled; tests replace this)."""
        dialog = ExportOptions(size, str(self.settings.value("export/format", "png")), parent=self, title=title)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return None
        self.settings.setValue("export/format", dialog.fmt)
        return dialog.fmt, dialog.width_box.value()

    def export_figure(self, figure: QWidget, path: str, fmt: str, width: int | None = None,
                      source: QRegion | None = None) -> None:
        """Write one figure as PNG (`width` pixels wide), SVG or PDF; raises when it is not on the disk whole."""
        page = figure is self or figure is self.current_page()  # a page is titled as its tab, a plot by its label
        write_figure(figure, path, fmt, width, self._page_title() if page else "", source)

    def _page_title(self) -> str:
        return mnemonic_free(_translate("MainWindow", PAGES[self.central_tabs.currentIndex()].title))

    def export_figure_dialog(self, figure: QWidget, source: QRegion | None = None, name: str = "") -> bool:
        """Right-click ▸ Export… on a plot (and File ▸ Export ▸ Current page): format and width, then the file."""
        size = (source.boundingRect() if source is not None else figure.rect()).size()
        page = figure is self or figure is self.current_page()
        options = self.ask_export_options(size, self._page_title() if page else figure_title(figure))
        if options is None:
            return False
        fmt, width = options
        name = name or figure_name(figure) or PAGES[self.central_tabs.currentIndex()].id
        suggestion = str(Path(self._dialog_folder()) / f"{name}.{fmt}")
        path = self.ask_save_path(_translate("MainWindow", "Export"), suggestion, FIGURE_FILTERS[fmt])
        if not path:
            return False
        if not path.lower().endswith(f".{fmt}"):
            path += f".{fmt}"
        return self._export(path, lambda: self.export_figure(figure, path, fmt, width, source))

    def copy_figure(self, figure: QWidget) -> None:
        """Right-click ▸ Copy picture: the plot at twice its pixels on the clipboard, for slides."""
        QApplication.clipboard().setImage(figure_image(figure, min(DEFAULT_SCALE * figure.width(),
                                                                   max_export_width(figure.width(), figure.height()))))
        self._show_hint(_translate("MainWindow", "Copied to the clipboard."))

    def export_page_dialog(self) -> bool:
        """File ▸ Export ▸ Current page: the whole page as one picture."""
        figure, source = self.current_page_figure()
        return self.export_figure_dialog(figure, source, PAGES[self.central_tabs.currentIndex()].id)

    def _export(self, path: str, write: Callable[[], None]) -> bool:
        """Run an export's `write`; the status bar says "Exported" only for a file that is on the disk whole."""
        try:
            write()
        except Exception as error:  # a full or read-only disk, a name that is a folder, a picture not made
            self.show_error(_translate("MainWindow", "Cannot export"),
                            _translate("MainWindow", "{0} was not exported: {1}").format(Path(path).name,
                                                                                       error_text(error)))
            return False
        self._show_hint(_translate("MainWindow", "Exported {0}").format(Path(path).name))
        return True

    def copy_as(self, kind: str) -> str:
        """Copy the four steps to the clipboard as Markdown, LaTeX or a NumPy snippet."""
        scenario, result = self.model.scenario, self.model.result
        text = {
            "markdown": lambda: export.to_markdown(scenario, result),
            "latex": lambda: export.to_latex(scenario, result),
            "numpy": lambda: export.to_numpy(scenario),
        }[kind]()
        QApplication.clipboard().setText(text)
        self._show_hint(_translate("MainWindow", "Copied to the clipboard."))
        return text
