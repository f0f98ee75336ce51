"""View ▸ Presentation (F5): the canvas large with its readout, the charts beside it, d_k and scale in a strip."""

from __future__ import annotations

from PySide6.QtCore import QByteArray, QEvent, Qt
from PySide6.QtWidgets import QApplication, QDockWidget, QToolBar

from attention_explorer.ui.widgets.scale_strip import ScaleStrip

# What the hall does not need to see; each stays in View ▸ Panels.
DESK_ONLY_DOCKS = ("vectorEditor", "presetInfo", "historyPanel", "scaleControls")
CHARTS_SHARE = 0.36  # of the width, for the charts' column: the canvas keeps the rest (over half the window)
READOUT_SCALE = 1.3  # the canvas readout's numbers, relative to the theme's, for the back row


class Presentation:
    """Mixed into MainWindow: enters and leaves the presentation layout; leaving brings the desk back as it was."""

    def _build_presentation(self) -> None:
        """The compact d_k and scale strip (a tool bar shown only while presenting)."""
        self._desk_layout: tuple[QByteArray, QByteArray] | None = None
        controls = self.scale_controls
        # New components follow the full panel's fill and seed, so both ways of growing d_k give the same vectors.
        self.scale_strip = ScaleStrip(self.model, lambda: (str(controls.fill_combo.currentData()),
                                                           controls.seed_spin.value()))
        self.presentation_bar = QToolBar()
        self.presentation_bar.setObjectName("presentationStrip")
        self.presentation_bar.setMovable(False)
        self.presentation_bar.setFloatable(False)
        self.presentation_bar.toggleViewAction().setVisible(False)  # no entry in the tool bars' context menu
        self.presentation_bar.addWidget(self.scale_strip)
        self.addToolBar(Qt.ToolBarArea.TopToolBarArea, self.presentation_bar)
        self.presentation_bar.hide()
        self.model.steps_changed.connect(self._follow_step_through)

    @property
    def presenting(self) -> bool:
        """Whether the presentation layout is shown."""
        return getattr(self, "_desk_layout", None) is not None

    def toggle_presentation(self) -> None:
        """F5: the presentation layout, or the desk layout again."""
        if self.presenting:
            self.leave_presentation()
        else:
            self.enter_presentation()

    def enter_presentation(self) -> None:
        """Canvas and readout large, the weights and the output beside it, the four steps a tab, the strip on top."""
        if self.presenting:
            return
        if self._state_before_wide_page is not None:
            self.show_page(0)  # a wide lab hides every dock: the desk comes back first, and is what is kept
        # Qt's first restore of a tabbed dock group moves its split by a few pixels; restoring once here makes
        # that happen now, behind the presentation, and leaving then gives back the desk pixel for pixel.
        self.restoreState(self.saveState())
        self._desk_layout = (self.saveGeometry(), self.saveState())
        for name in DESK_ONLY_DOCKS:
            self.docks[name].hide()
        weights, output, steps, trace = (self.docks[name] for name in
                                         ("weightsChart", "outputView", "stepsView", "rotationTrace"))
        for dock in (weights, output, steps, trace):
            dock.setFloating(False)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, weights)
        self.splitDockWidget(weights, output, Qt.Orientation.Vertical)
        self.tabifyDockWidget(output, steps)
        self.tabifyDockWidget(output, trace)  # a turn shows its trace here: the canvas keeps its height
        for dock in (weights, output, steps):
            dock.show()
        trace.setVisible(self.animator.running)
        self._raise_for_steps()
        self.presentation_bar.show()
        self.canvas.set_readout_scale(READOUT_SCALE)
        self._fit_presentation()
        self.actions_by_name["presentation"].setChecked(True)

    def leave_presentation(self) -> None:
        """The desk layout exactly as it was before F5: docks, their sizes and the window's geometry."""
        if not self.presenting:
            return
        geometry, state = self._desk_layout
        self._desk_layout = None
        self.canvas.set_readout_scale(1.0)
        # The strip goes first: restoring the docks with it still shown gave the charts' column less width.
        self.presentation_bar.hide()
        if geometry != self.saveGeometry():  # the window first: a resize after the docks would share them anew
            self.restoreGeometry(geometry)
        QApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
        if self._state_before_wide_page is not None:
            # A wide lab is shown and keeps every dock hidden: the desk layout comes back with the canvas.
            self._state_before_wide_page = state
        else:
            self.restoreState(state)
        self.actions_by_name["presentation"].setChecked(False)
        self.actions_by_name["fullScreen"].setChecked(self.isFullScreen())

    def desk_state(self) -> QByteArray:
        """The dock layout to keep for the next start: the desk's, whatever is shown now."""
        if self.presenting:
            return self._desk_layout[1]
        return self._state_before_wide_page or self.saveState()

    def _fit_presentation(self) -> None:
        """The charts' column a third of the width, the weights and the tabs below them half of its height each."""
        weights, output = self.docks["weightsChart"], self.docks["outputView"]
        self.resizeDocks([weights], [int(self.width() * CHARTS_SHARE)], Qt.Orientation.Horizontal)
        half = max(self.centralWidget().height() // 2, 1)
        self.resizeDocks([weights, self._shown_tab(output)], [half, half], Qt.Orientation.Vertical)

    def _shown_tab(self, dock: QDockWidget) -> QDockWidget:
        """The dock of `dock`'s tab group that is in front."""
        for other in (dock, *self.tabifiedDockWidgets(dock)):
            if other.isVisible() and not other.visibleRegion().isEmpty():
                return other
        return dock

    def _present_turn(self) -> None:
        """A turn in presentation: its trace is a tab beside the output, in front."""
        trace = self.docks["rotationTrace"]
        trace.show()
        trace.raise_()

    def _follow_step_through(self) -> None:
        if self.presenting:
            self._raise_for_steps()

    def _raise_for_steps(self) -> None:
        """In step-through the four steps are in front until the last step, which reveals the output view."""
        model = self.model
        steps_in_front = model.step_through and model.revealed_steps < model.STEP_COUNT
        self.docks["stepsView" if steps_in_front else "outputView"].raise_()
