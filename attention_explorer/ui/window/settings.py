"""The main window's settings (geometry, dock layout, theme, zoom, language) and its offer to recover autosaved work."""

from __future__ import annotations

from PySide6.QtCore import QByteArray, QCoreApplication, QDateTime, QLocale, QPoint, QRect, QSize
from PySide6.QtWidgets import QMessageBox

from attention_explorer.core.limits import ScenarioError
from attention_explorer.state.document import Recovery
from attention_explorer.ui.i18n.switcher import error_text, language_switcher, ui_locale
from attention_explorer.ui.style.safe_text import literal
from attention_explorer.ui.style.theme import theme

_translate = QCoreApplication.translate  # lupdate: -tr-function-alias translate+=_translate
DESK_SIZE = QSize(1600, 1000)  # the first run's size where the screen has room for it
# What a window manager's borders (8 px a side) and title bar (40 px) add around the window's own size.
FRAME_SIDE_PX, FRAME_TITLE_PX = 8, 40


def first_run_geometry(available: QRect, wanted: QSize = DESK_SIZE) -> QRect:
    """The window's first rectangle: `wanted`, shrunk so it fits `available` with its frame, centred in it."""
    width = min(wanted.width(), available.width() - 2 * FRAME_SIDE_PX)
    height = min(wanted.height(), available.height() - FRAME_TITLE_PX - FRAME_SIDE_PX)
    geometry = QRect(0, 0, width, height)
    # The frame is taller above than below: its centre, not the window's, goes to the middle of the screen.
    geometry.moveCenter(available.center() + QPoint(0, (FRAME_TITLE_PX - FRAME_SIDE_PX) // 2))
    return geometry


class WindowSettings:
    """Mixed into MainWindow: what it keeps in its QSettings between runs, and what it recovers after a crash."""

    def _fit_first_run_to_screen(self) -> None:
        """Open within the screen's free area (a 1600×1000 window on a 1280×720 projector lost its right edge)."""
        screen = self.screen()
        geometry = first_run_geometry(screen.availableGeometry()) if screen is not None else QRect(0, 0, 1600, 1000)
        self.resize(geometry.size())
        self.move(geometry.topLeft())

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

    def _save_layout(self) -> None:
        """Geometry and dock layout for the next start (the desk's, while presenting or while a wide lab is shown)."""
        self.settings.setValue("geometry", self._desk_layout[0] if self.presenting else self.saveGeometry())
        self.settings.setValue("windowState", self.desk_state())

    def _save_theme(self) -> None:
        self.settings.setValue("theme", theme().mode)
        self.settings.setValue("zoom", theme().zoom)

    def set_language(self, language: str) -> None:
        """Switch the interface language now (no restart) and remember it."""
        if not language_switcher().set_language(language):
            self.show_error(_translate("MainWindow", "Language"),
                            _translate("MainWindow", "The translation for {0} is missing.").format(language))
            language_switcher().set_language("en")
            language = "en"
        self.actions_by_name[f"lang_{language}"].setChecked(True)
        self.settings.setValue("language", language)

    # ------------------------------------------------------------ recovery

    def offer_recovery(self) -> None:
        """Offer what windows that did not close normally autosaved, newest first (call once the window is shown).

        Yes restores that one and keeps the rest for the next start; No discards it and offers the next.
        """
        found = self.document.stale_recoveries()
        try:
            for position, recovery in enumerate(found):
                if self.document.workspace.shows(recovery.pages):
                    self.document.discard_recovery(recovery)  # nothing there that this window does not show
                elif self.ask_restore_recovery(recovery, position, len(found)):
                    self.document.restore(recovery, _translate("MainWindow", "Restore unsaved work"))
                    self._show_restored_page(recovery.pages.page)
                    break
                else:
                    self.document.discard_recovery(recovery)
        finally:
            for recovery in found:
                self.document.release_recovery(recovery)

    def ask_restore_recovery(self, recovery: Recovery, position: int = 0, count: int = 1) -> bool:
        """Yes/No question about restoring one recovery file, the `position`-th of `count` (tests replace this)."""
        when = ui_locale().toString(QDateTime.fromSecsSinceEpoch(int(recovery.saved_at)),
                                    QLocale.FormatType.ShortFormat)  # the window's language, not the system's
        if count == 1:
            text = _translate(
                "MainWindow", "Attention Explorer did not close normally. Restore the scenario autosaved on {0}?"
            ).format(when)
        else:
            text = _translate("MainWindow", "{1} windows did not close normally. Restore the scenario autosaved on {0} "
                              "({2} of {1}, newest first)? Yes keeps the others for the next start; No discards "
                              "this one and offers the next.").format(when, count, position + 1)
        answer = QMessageBox.question(self, _translate("MainWindow", "Restore unsaved work?"), text)
        return answer == QMessageBox.StandardButton.Yes

    def _autosave_problem(self, error: ScenarioError | OSError | None) -> None:
        self._autosave_error = error
        self._show_autosave_problem()

    def _show_autosave_problem(self) -> None:
        """The status bar says why the autosave stopped, for as long as it is stopped."""
        if not hasattr(self, "_autosave_label"):
            return
        error = self._autosave_error
        if error is None:
            self._autosave_label.clear()
            self._autosave_label.setToolTip("")
            self._autosave_label.hide()
            return
        if isinstance(error, OSError):  # a full disk, no permission: nothing protects the edits from a crash now
            # Short: a permanent status-bar label sets the window's least width (a 1280-pixel projector at 160 %).
            self._autosave_label.setText(_translate("MainWindow", "Edits not protected: no recovery copy ({0})")
                                         .format(error_text(error)))
            self._autosave_label.setToolTip(literal(_translate(
                "MainWindow", "The copy that restores these edits after a crash cannot be written to {0}. Save them "
                "to keep them; this warning goes once a copy is written again.").format(self.document.data_dir)))
        else:
            self._autosave_label.setText(_translate(
                "MainWindow", "Not autosaved (the last copy that fitted is kept): {0}").format(error_text(error)))
            self._autosave_label.setToolTip("")
        self._autosave_label.show()
