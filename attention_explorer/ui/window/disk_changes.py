"""A page's file changed on disk by someone else (another window, another program): said, never overwritten blindly.

Every page with a file of its own is watched: the explorer's scenario (the Vectors page) and each lab with a scene of
its own (self-attention, multi-head, cross-attention, positions, training). Two guards, as code editors have them:

* Before File ▸ Save writes over a page's file, the file on disk must still hold what the window last read or wrote
  (core/files/safety.py compares size, time and SHA-256). If it does not, the user chooses: Overwrite, Save As… or
  Cancel.
* When the window is activated, and whenever a QFileSystemWatcher sees a page's file or its folder change (so a
  window in the background tells it too), a quick look (a stat; the bytes are hashed only when size or time moved)
  tells whether a file changed meanwhile. If it did, a bar above the pages names that page's file and offers
  Reload, which reloads that page only; the title gets its "*" (what the page shows is no longer what the file
  holds, and closing asks about saving). Reload is an undo step like any open, and over edits not saved it asks
  first. Several changed pages are told one after the other, the page shown first.

The bar, not a question box: activation happens on the click that brings the window forward (perhaps on the
canvas, in the middle of a lecture), and a modal box at that moment swallows the click and steals the focus;
the bar waits until the user has a moment, and Save asks anyway before anything is overwritten. Each change is
told once: the version on disk that was told about is kept, and only a further change shows the bar again.
"""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QEvent, QFileSystemWatcher, Qt, QTimer
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QMessageBox, QPushButton, QStyle, QWidget

from attention_explorer.core.files.openfile import load_file
from attention_explorer.core.files.safety import FileStamp, check_file
from attention_explorer.core.files.workspace import scene_kind
from attention_explorer.core.limits import ScenarioError
from attention_explorer.state.workspace import EXPLORER
from attention_explorer.ui.i18n.switcher import error_text
from attention_explorer.ui.labs.registry import KIND_PAGES, VECTORS, page_index
from attention_explorer.ui.style.safe_text import literal, window_title

_translate = QCoreApplication.translate  # lupdate: -tr-function-alias translate+=_translate

OVERWRITE, SAVE_AS, CANCEL = "overwrite", "save_as", "cancel"
# The pause after the watcher's last signal before the pages' files are checked (a save is a burst of signals).
WATCH_PAUSE_MS = 150


class FileChangedBar(QFrame):
    """A line above the page: the file changed (Reload / Keep this window's version) or is gone (Save / Dismiss)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("fileChangedBar")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 4, 8, 4)
        icon = QLabel()
        size = self.style().pixelMetric(QStyle.PixelMetric.PM_SmallIconSize)
        icon.setPixmap(self.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxWarning).pixmap(size, size))
        layout.addWidget(icon)
        self.message = QLabel()
        self.message.setObjectName("fileChangedMessage")
        self.message.setTextFormat(Qt.TextFormat.PlainText)  # it quotes a file name
        self.message.setWordWrap(True)
        layout.addWidget(self.message, 1)
        self.reload_button = QPushButton()
        self.reload_button.setObjectName("fileChangedReload")
        self.save_button = QPushButton()
        self.save_button.setObjectName("fileChangedSave")
        self.keep_button = QPushButton()
        self.keep_button.setObjectName("fileChangedKeep")
        for button in (self.reload_button, self.save_button, self.keep_button):
            layout.addWidget(button)
        self.missing = False
        self.file_name = ""
        self.kind = ""
        self.page = ""  # the page's title as the tabs show it ("": the explorer's scenario)

    def tell(self, file_name: str, missing: bool, kind: str = EXPLORER, page: str = "") -> None:
        """Show the bar about `file_name`, the file of the page of `kind` (titled `page`; "" for the explorer's
        scenario): changed by someone else, or no longer there."""
        self.file_name, self.missing, self.kind, self.page = file_name, missing, kind, page
        self.retranslate()
        self.show()

    def retranslate(self) -> None:
        if self.missing and self.page:
            self.message.setText(_translate(
                "MainWindow", "{0}, the file of the page “{1}”, is no longer on the disk (deleted, moved or "
                "renamed). The page still shows its scene; Save writes it again.").format(self.file_name, self.page))
        elif self.missing:
            self.message.setText(_translate(
                "MainWindow", "{0} is no longer on the disk (deleted, moved or renamed). The window still shows "
                "its scenario; Save writes it again.").format(self.file_name))
        elif self.page:
            self.message.setText(_translate(
                "MainWindow", "{0}, the file of the page “{1}”, was changed on the disk by another window or "
                "program. Reload it, or keep this window's version (Save asks before overwriting the file).").format(
                    self.file_name, self.page))
        else:
            self.message.setText(_translate(
                "MainWindow", "{0} was changed on the disk by another window or program. Reload it, or keep "
                "this window's version (Save asks before overwriting the file).").format(self.file_name))
        self.keep_button.setText(_translate("MainWindow", "Dismiss") if self.missing
                                 else _translate("MainWindow", "Keep this window's version"))
        self.reload_button.setText(_translate("MainWindow", "Reload"))
        self.reload_button.setToolTip(_translate(
            "MainWindow", "Show the file as it is on the disk now (Edit ▸ Undo brings this window's version back)"))
        self.save_button.setText(_translate("MainWindow", "Save"))
        self.reload_button.setVisible(not self.missing)
        self.save_button.setVisible(self.missing)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)


class DiskChanges:
    """Mixed into MainWindow: the check before a save, and the bar shown when a page's file changed on disk."""

    _file_bar: FileChangedBar | None = None
    _file_watcher: QFileSystemWatcher | None = None
    _watch_timer: QTimer | None = None
    # The changes already told about, by page kind: the file and the stamp of what it held then (None: it was gone).
    _told: dict[str, tuple[Path, FileStamp | None]]
    # The pages whose change the bar has still to tell (its first one is on the bar), in the order they were found.
    _waiting: list[str]
    # What each told page showed when its change was found: whether it had unsaved edits, and its state then.
    _state_told: dict[str, tuple[bool, object]]

    def _disk_changes_state(self) -> None:
        if "_told" not in self.__dict__:
            self._told, self._waiting, self._state_told = {}, [], {}

    # ------------------------------------------------------------ before a save

    def confirm_overwrite(self, path: Path, kind: str = EXPLORER) -> str:
        """OVERWRITE when `path` may be written: not the file of the page of `kind`, or one that still holds what the
        window last read or wrote; otherwise the user's answer (OVERWRITE, SAVE_AS or CANCEL)."""
        own = self.document.page_path(kind)
        known = self._known_stamp(kind)
        if known is None or own is None or not _same_file(path, own):
            return OVERWRITE  # a new name (the Save As dialog asked about an existing file already)
        check = check_file(path, known, thorough=True)  # the bytes, whatever the time says: this is the last chance
        if not check.changed or check.missing:
            return OVERWRITE  # unchanged, or gone (written again, as editors do)
        return self.ask_save_conflict(path.name)

    def ask_save_conflict(self, file_name: str) -> str:
        """Overwrite / Save As… / Cancel, for a file changed on disk since the window read or wrote it (tests
        replace this)."""
        box = QMessageBox(QMessageBox.Icon.Warning, window_title(_translate("MainWindow", "File changed on disk")),
                          literal(_translate(
                              "MainWindow", "{0} was changed on the disk by another window or program since this "
                              "window opened or saved it. Overwriting it loses those changes.").format(file_name)),
                          QMessageBox.StandardButton.NoButton, self)
        overwrite = box.addButton(_translate("MainWindow", "Overwrite"), QMessageBox.ButtonRole.DestructiveRole)
        save_as = box.addButton(_translate("MainWindow", "Save As…"), QMessageBox.ButtonRole.AcceptRole)
        cancel = box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(save_as)  # Enter keeps both versions
        box.setEscapeButton(cancel)
        box.exec()
        clicked = box.clickedButton()
        return OVERWRITE if clicked is overwrite else SAVE_AS if clicked is save_as else CANCEL

    # ------------------------------------------------------------ the pages' files

    def _known_stamp(self, kind: str) -> FileStamp | None:
        return self.document.disk_stamp if kind == EXPLORER else self.document.workspace.stamp(kind)

    def _page_files(self) -> dict[str, Path]:
        """Every page that has a file of its own, the page shown first, then in the tabs' order."""
        workspace = self.document.workspace
        shown = self.current_kind()
        kinds = sorted(workspace.kinds(), key=lambda kind: kind != shown)
        return {kind: path for kind in kinds if (path := self.document.page_path(kind)) is not None}

    # ------------------------------------------------------------ on activation, or when the watcher sees a change

    def check_file_on_disk(self) -> None:
        """Whether any page's file was changed on disk by someone else since the window read or wrote it; the bar
        says so once per change. Quick when nothing changed: one stat a file."""
        self._disk_changes_state()
        files = self._page_files()
        for kind in [kind for kind in self._told if kind not in files]:
            self._forget(kind)
        for kind, path in files.items():
            known = self._known_stamp(kind)
            if known is None:
                self._forget(kind)
                continue
            if self._told_already(kind, path):
                continue  # the same change as last time: told once, not again
            check = check_file(path, known)
            if not check.changed:
                if check.stamp is not None and check.stamp != known:
                    self._note_stamp(kind, check.stamp)  # touched, or the read's stamp completed: the same bytes
                self._forget(kind)
                continue
            workspace = self.document.workspace
            if kind not in self._state_told:  # a further change after Keep: the page's edits date from the first
                state = self.model.scenario if kind == EXPLORER else workspace.lab_model(kind).state
                self._state_told[kind] = (workspace.modified(kind), state)
            self._told[kind] = (path, check.stamp)
            if kind not in self._waiting:
                self._waiting.append(kind)
            # What the page shows is no longer what the file holds: "*" in the title, and closing asks about saving.
            if kind == EXPLORER:
                self.model.undo_stack.resetClean()
            else:
                workspace.mark_changed_on_disk(kind)
        self._show_next_change()
        self._watch_page_files()

    def _note_stamp(self, kind: str, stamp: FileStamp) -> None:
        if kind == EXPLORER:
            self.document.disk_stamp = stamp
        else:
            self.document.workspace.set_stamp(kind, stamp)

    def _told_already(self, kind: str, path: Path) -> bool:
        told = self._told.get(kind)
        if told is None or told[0] != path:
            return False
        if told[1] is None:
            return not os.path.isfile(path)
        return not check_file(path, told[1]).changed

    def _forget(self, kind: str) -> None:
        """The page's file holds what the page was read from or saved as again (or it has no file): nothing to tell."""
        self._told.pop(kind, None)
        self._state_told.pop(kind, None)
        if kind in self._waiting:
            self._waiting.remove(kind)
            self._show_next_change()

    def _show_next_change(self) -> None:
        """The bar tells the first change not yet answered, or hides."""
        if not self._waiting:
            self._hide_file_bar()
            return
        kind = self._waiting[0]
        path, stamp = self._told[kind]
        page = "" if kind == EXPLORER else self.page_title(kind)
        bar = self._file_bar_widget()
        if bar.isVisible() and (bar.kind, bar.file_name, bar.missing) == (kind, path.name, stamp is None):
            return
        bar.tell(path.name, stamp is None, kind, page)

    def _answered(self) -> str | None:
        """The bar's change was answered (Reload, Save or Keep): the next one, if any, takes its place."""
        kind = self._waiting.pop(0) if self._waiting else None
        self._show_next_change()
        return kind

    def keep_window_version(self) -> None:
        """The bar's Keep this window's version (or Dismiss): told, and not again until the file changes again."""
        self._answered()

    def save_told_page(self) -> bool:
        """The bar's Save, for a file that is gone: that page is written again to its file."""
        kind = self._waiting[0] if self._waiting else self.current_kind()
        if kind != self.current_kind():
            self.show_page(page_index(KIND_PAGES.get(kind, VECTORS)))
        self._answered()
        return self.save()

    def reload_from_disk(self) -> bool:
        """The bar's Reload: that page's file as it is on the disk now, in that page only (undoable like any open).
        When the page has edits not saved, the user is asked first."""
        self._disk_changes_state()
        kind = self._waiting[0] if self._waiting else self.current_kind()
        path = self.document.page_path(kind)
        if path is None:
            return False
        edited, state = self._state_told.get(kind, (self.document.workspace.modified(kind), None))
        now = self.model.scenario if kind == EXPLORER else self.document.workspace.lab_model(kind).state
        if (edited or (state is not None and now is not state)) and not self.ask_reload_over_edits(
                path.name, "" if kind == EXPLORER else self.page_title(kind)):
            return False
        try:
            loaded = load_file(str(path))
        except ScenarioError as error:
            self.show_error(_translate("MainWindow", "Cannot open the file"), f"{path.name}: {error_text(error)}")
            return False
        try:
            loaded_kind = scene_kind(loaded)
        except TypeError:  # a lecture script
            loaded_kind = None
        if loaded_kind != kind:
            self.show_error(_translate("MainWindow", "Cannot reload the file"), _translate(
                "MainWindow", "{0} no longer holds a scene of this page: open it with File ▸ Open.").format(path.name))
            return False
        self._answered()
        return self.open_loaded(str(path), loaded, ask=False)

    def ask_reload_over_edits(self, file_name: str, page: str) -> bool:
        """Reload / Cancel, when the page to reload has changes that are not saved (tests replace this)."""
        if page:
            text = _translate("MainWindow", "“{0}” has changes that are not saved. Reloading {1} replaces them with "
                              "the file as it is on the disk (Edit ▸ Undo brings them back).").format(page, file_name)
        else:
            text = _translate("MainWindow", "The scenario has changes that are not saved. Reloading {0} replaces "
                              "them with the file as it is on the disk (Edit ▸ Undo brings them back).").format(
                                  file_name)
        box = QMessageBox(QMessageBox.Icon.Question, window_title(_translate("MainWindow", "Reload")), literal(text),
                          QMessageBox.StandardButton.NoButton, self)
        reload_button = box.addButton(_translate("MainWindow", "Reload"), QMessageBox.ButtonRole.DestructiveRole)
        cancel = box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(cancel)  # Enter loses nothing
        box.setEscapeButton(cancel)
        box.exec()
        return box.clickedButton() is reload_button

    def _file_bar_widget(self) -> FileChangedBar:
        if self._file_bar is None:
            bar = FileChangedBar()
            bar.reload_button.clicked.connect(self.reload_from_disk)
            bar.save_button.clicked.connect(self.save_told_page)
            bar.keep_button.clicked.connect(self.keep_window_version)
            self.centralWidget().layout().insertWidget(0, bar)  # above the step banner and the pages
            self._file_bar = bar
        return self._file_bar

    def _hide_file_bar(self) -> None:
        if self._file_bar is not None:
            self._file_bar.hide()

    def _file_bar_path_changed(self) -> None:
        """Opened, saved or attached to another file: a change told about the old version has nothing left to say;
        and the watcher follows the pages' files."""
        self._disk_changes_state()
        workspace = self.document.workspace
        for kind, (path, _stamp) in list(self._told.items()):
            if (self.document.page_path(kind) != path or self._known_stamp(kind) is None
                    or not workspace.modified(kind)):
                self._forget(kind)
        self._watch_page_files()

    # ------------------------------------------------------------ the watcher

    def _start_watching_files(self) -> None:
        """Follow the pages' files with a QFileSystemWatcher, so a change is told without activating the window.

        The files and their folders are watched: a save by another program replaces the file (a rename), which
        ends a watch on the file itself, and a file deleted and written again shows in its folder. Signals come in
        bursts (a save writes a temporary, then renames it): one check follows a short pause.
        """
        self._disk_changes_state()
        self._file_watcher = QFileSystemWatcher(self)
        self._watch_timer = QTimer(self)
        self._watch_timer.setSingleShot(True)
        self._watch_timer.setInterval(WATCH_PAUSE_MS)
        self._watch_timer.timeout.connect(self.check_file_on_disk)
        self._file_watcher.fileChanged.connect(self._watch_timer.start)
        self._file_watcher.directoryChanged.connect(self._watch_timer.start)
        self.document.path_changed.connect(self._file_bar_path_changed)
        self._watch_page_files()

    def _watch_page_files(self) -> None:
        watcher = self._file_watcher
        if watcher is None:
            return
        wanted: set[str] = set()
        for path in self._page_files().values():
            wanted.add(str(path.parent))
            if path.is_file():
                wanted.add(str(path))
        watched = set(watcher.files()) | set(watcher.directories())
        if watched - wanted:
            watcher.removePaths(sorted(watched - wanted))
        if wanted - watched:
            watcher.addPaths(sorted(wanted - watched))  # a path that cannot be watched is left out quietly


def _same_file(a: Path, b: Path) -> bool:
    """True when two names lead to the same file (links followed); names that do not exist compare as text."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.abspath(a) == os.path.abspath(b)
