"""The window's pins: Edit ▸ Pin this scene (P) and Remove all pins, the Pins panel, and the ghosts in the views."""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt

from attention_explorer.core.limits import ScenarioError
from attention_explorer.core.scenes.query.pins import MAX_PINS
from attention_explorer.ui.canvas.ghost_items import CanvasGhosts
from attention_explorer.ui.i18n.switcher import error_text
from attention_explorer.ui.panels.pin_ghosts import OutputGhosts, WeightGhosts
from attention_explorer.ui.panels.pins_table import PinsTable
from attention_explorer.ui.style.pin_style import pin_name


class Pinning(QObject):
    """Built by the main window before its action table: the handlers the table's pin rows name."""

    def __init__(self, window) -> None:
        super().__init__(window)
        self.window = window
        self.model = window.model
        self.table = PinsTable(self.model)
        dock = window._add_dock(self.table, Qt.DockWidgetArea.RightDockWidgetArea)
        dock.hide()
        self.dock = dock
        # Made a tab beside the steps only when the first pin shows it: a tab group, even with this tab hidden,
        # widens the window's least width (934 px, more than an 800-px screen).
        self._placed = False
        self.ghosts = (CanvasGhosts(window.canvas), WeightGhosts(window.weights_chart),
                       OutputGhosts(window.output_view))
        self._pin_count = len(self.model.pins)
        self.model.changed.connect(self._pins_changed)

    def pin_scene(self) -> None:
        """P: keep the scene as a pin, or say in the status bar that three is the limit (nothing changes then)."""
        if len(self.model.pins) >= MAX_PINS:
            self.window._show_hint(self.tr(
                "Three pins at most: remove one (Edit ▸ Remove all pins, or its button in the Pins panel) "
                "before pinning another."))
            return
        try:
            self.model.add_pin()
        except ScenarioError as error:
            self.window._show_hint(error_text(error))
            return
        self.window._show_hint(self.tr("Pinned as {0}: its ghost stays in the canvas, the weights and the output; "
                                       "the Pins panel lists what changes.").format(pin_name(self.model.pins[-1])))

    def remove_pins(self) -> None:
        """Edit ▸ Remove all pins (one undo step)."""
        if not self.model.pins:
            self.window._show_hint(self.tr("There are no pins to remove."))
        self.model.clear_pins()

    def _pins_changed(self) -> None:
        count = len(self.model.pins)
        window = self.window
        if window.presenting:
            # The hall: the table is a tab beside the output (never a band over the charts), and goes when the
            # last pin does (an empty table would stay for the rest of the lecture).
            if count and not self._pin_count:
                window.present_pins()
            elif not count and self._pin_count:
                self.dock.hide()
            self._pin_count = count
            return
        if count and not self._pin_count and self.window._state_before_wide_page is None:
            if not self._placed and not self.window._layout_restored and not self.dock.isFloating():
                self.window.tabifyDockWidget(self.window.docks["stepsView"], self.dock)
            self._placed = True
            self.dock.show()  # the first pin brings its table
            self.dock.raise_()
        self._pin_count = count
