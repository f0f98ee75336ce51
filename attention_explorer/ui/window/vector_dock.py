"""The vectors' dock sized to its table: every row's height at the desk, and the whole table's width when it grows.

A mixin of the main window (ui/window/main_window.py), which has the docks, the editor and the lessons.
"""

from __future__ import annotations

from PySide6.QtCore import Qt

from attention_explorer.ui.panels.vector_editor import WHOLE_TABLE_SHARE


class VectorDockSizes:
    """The vector panel's height for its rows and its width for its whole table."""

    def _vector_rows_height(self) -> int:
        """The vectors' dock height at which its table shows every row without scrolling."""
        table = self.editor.table
        dock = self.docks["vectorEditor"]
        if not dock.isVisible():
            return 0
        return dock.height() - table.viewport().height() + table.verticalHeader().length() + 2

    def _whole_table_width(self, width: int) -> int:
        """The vector panel's width for its whole table, if that is within its share of `width`; else 0."""
        wanted = self.editor.whole_table_width()
        return wanted if wanted <= int(width * WHOLE_TABLE_SHARE) else 0

    _vectors_width_before: int | None = None  # the vector panel's width before the window widened it

    def _widen_vectors(self, wanted: int) -> None:
        """The table grew (d_k 2 → 4): at the desk, a window with room widens the vector panel to show it whole,
        and gives the width back when the table needs it no more (not while a lecture runs: nothing moves under
        the lecture's buttons)."""
        dock = self.docks.get("vectorEditor")
        if dock is None or self.presenting or self._restoring_state or self.lessons.lecture_active:
            return
        # The vector panel or the one in front of it in its tab group (About this example, History): same width.
        group = (dock, *self.tabifiedDockWidgets(dock))
        dock = next((shown for shown in group if shown.isVisible() and not shown.visibleRegion().isEmpty()), None)
        if dock is None or dock.isFloating():
            return
        if dock.width() < wanted and self._whole_table_width(self.width()):
            if self._vectors_width_before is None:
                self._vectors_width_before = dock.width()
            self.resizeDocks([dock], [wanted], Qt.Orientation.Horizontal)
        elif self._vectors_width_before is not None and dock.width() > max(wanted, self._vectors_width_before):
            narrower = max(wanted, self._vectors_width_before)
            if narrower == self._vectors_width_before:
                self._vectors_width_before = None
            self.resizeDocks([dock], [narrower], Qt.Orientation.Horizontal)
