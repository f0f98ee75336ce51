"""The window's file changed on disk by someone else (another window, another program): said, never overwritten blindly.

Two guards, as code editors have them:

* Before File ▸ Save writes over the window's own file, the file on disk must still hold what the window last read
  or wrote (core/files/safety.py compares size, time and SHA-256). If it does not, the user chooses: Overwrite,
  Save As… or Cancel.
* When the window is activated, a quick look (a stat; the bytes are hashed only when size or time moved) tells
  whether the file changed meanwhile. If it did, a bar above the page says so and offers Reload; the title gets
  its "*" (what the window shows is no longer what the file holds, and closing it asks about saving).

The bar, not a question box: activation happens on the click that brings the window forward (perhaps on the
canvas, in the middle of a lecture), and a modal box at that moment swallows the click and steals the focus;
the bar waits until the user has a moment, and Save asks anyway before anything is overwritten. Each change is
told once: the version on disk that was told about is kept, and only a further change shows the bar again.
"""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QEvent, Qt
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QMessageBox, QPushButton, QStyle, QWidget

from attention_explorer.core.files.safety import FileStamp, check_file
from attention_explorer.state.workspace import EXPLORER
from attention_explorer.ui.style.safe_text import literal, window_title

_translate = QCoreApplication.translate  # lupdate: -tr-function-alias translate+=_translate

OVERWRITE, SAVE_AS, CANCEL = "overwrite", "save_as", "cancel"


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

    def tell(self, file_name: str, missing: bool) -> None:
        """Show the bar about `file_name`: changed by someone else, or no longer there."""
        self.file_name, self.missing = file_name, missing
        self.retranslate()
        self.show()

    def retranslate(self) -> None:
        if self.missing:
            self.message.setText(_translate(
                "MainWindow", "{0} is no longer on the disk (deleted, moved or renamed). The window still shows "
                "its scenario; Save writes it again.").format(self.file_name))
            self.keep_button.setText(_translate("MainWindow", "Dismiss"))
        else:
            self.message.setText(_translate(
                "MainWindow", "{0} was changed on the disk by another window or program. Reload it, or keep "
                "this window's version (Save asks before overwriting the file).").format(self.file_name))
            self.keep_button.setText(_translate("MainWindow", "Keep this window's version"))
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
    """Mixed into MainWindow: the check before a save, and the bar shown when the window's file changed on disk."""

    _file_bar: FileChangedBar | None = None
    # The change already told about: the file and the stamp of what it held then (None: it was gone).
    _told: tuple[Path, FileStamp | None] | None = None

    # ------------------------------------------------------------ before a save

    def confirm_overwrite(self, path: Path, kind: str = EXPLORER) -> str:
        """OVERWRITE when `path` may be written: not the file of the page of `kind`, or one that still holds what the
        window last read or wrote; otherwise the user's answer (OVERWRITE, SAVE_AS or CANCEL)."""
        own = self.document.page_path(kind)
        known = self.document.disk_stamp if kind == EXPLORER else self.document.workspace.stamp(kind)
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

    # ------------------------------------------------------------ on activation

    def check_file_on_disk(self) -> None:
        """Whether the window's file was changed on disk by someone else since it was read or written; the bar
        says so once per change. Quick when nothing changed: one stat."""
        document = self.document
        path, known = document.path, document.disk_stamp
        if path is None or known is None:
            self._hide_file_bar()
            return
        if self._told_already(path):
            return  # the same change as last time: told once, not again
        check = check_file(path, known)
        if not check.changed:
            if check.stamp is not None and check.stamp != known:
                document.disk_stamp = check.stamp  # touched, or the read's stamp completed: still the same bytes
            self._told = None
            self._hide_file_bar()
            return
        self._told = (path, check.stamp)
        # What the window shows is no longer what the file holds: "*" in the title, and closing asks about saving.
        self.model.undo_stack.resetClean()
        self._file_bar_widget().tell(path.name, check.missing)

    def _told_already(self, path: Path) -> bool:
        if self._told is None or self._told[0] != path:
            return False
        told = self._told[1]
        if told is None:
            return not os.path.isfile(path)
        return not check_file(path, told).changed

    def reload_from_disk(self) -> bool:
        """The bar's Reload: the file as it is on the disk now (undoable like any open)."""
        path = self.document.path
        if path is None:
            return False
        self._hide_file_bar()
        return self.open_file(str(path), ask=False)

    def _file_bar_widget(self) -> FileChangedBar:
        if self._file_bar is None:
            bar = FileChangedBar()
            bar.reload_button.clicked.connect(self.reload_from_disk)
            bar.save_button.clicked.connect(self.save)
            bar.keep_button.clicked.connect(self._hide_file_bar)
            self.centralWidget().layout().insertWidget(0, bar)  # above the step banner and the pages
            self._file_bar = bar
            self.document.path_changed.connect(self._file_bar_path_changed)
        return self._file_bar

    def _hide_file_bar(self) -> None:
        if self._file_bar is not None:
            self._file_bar.hide()

    def _file_bar_path_changed(self) -> None:
        """Opened, saved or attached to another file: a bar about the old version has nothing left to say."""
        if self._told is not None and (self.document.path != self._told[0] or self.document.disk_stamp is None
                                       or not self.document.modified):
            self._told = None
            self._hide_file_bar()


def _same_file(a: Path, b: Path) -> bool:
    """True when two names lead to the same file (links followed); names that do not exist compare as text."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.abspath(a) == os.path.abspath(b)
