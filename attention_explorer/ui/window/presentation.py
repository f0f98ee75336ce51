"""View ▸ Presentation (F5): the canvas large with its readout, the charts beside it, d_k and scale in a strip."""

from __future__ import annotations

import math

from PySide6.QtCore import QByteArray, QEvent, QObject, QSize, Qt, QTimer
from PySide6.QtWidgets import QApplication, QDockWidget, QFrame, QScrollArea, QTabBar, QToolBar, QVBoxLayout, QWidget

from attention_explorer.ui.labs.registry import page_index
from attention_explorer.ui.style.theme import theme
from attention_explorer.ui.widgets.scale_strip import ScaleStrip
from attention_explorer.ui.window.settings import first_run_geometry

# What the hall does not need to see; each stays in View ▸ Panels.
# The scoring panel too: at least 403 px wide, beside the charts it left the canvas under half the window.
DESK_ONLY_DOCKS = ("vectorEditor", "presetInfo", "historyPanel", "scaleControls", "scoringView")
CHARTS_SHARE = 0.36  # of the width, for the charts' column: the canvas keeps the rest (over half the window)
TABBED_CHARTS_ZOOM = 1.75  # from this zoom on the weights chart is a tab beside the output, not above it
CANVAS_SHARE = 0.45  # of the window's height, at least, for the canvas page in every scene and at every zoom
READOUT_PT = 19.5  # the least size of the canvas readout's numbers in presentation: 1.3× the theme's at zoom 1
# The pages that show the explorer's scenario, whose d_k and scale the strip shows; a lab with its own d_k hides it
# (two different d_k on one screen, the strip's and the lab's, would contradict each other).
STRIP_PAGES = (0, page_index("saturation"))


class TopBars(QScrollArea):
    """In presentation, the bars above the page (step banner, lecture caption, question) in one column that scrolls
    when zoomed text makes them taller than the window leaves the canvas: they never shrink the figure."""

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("presentationTopBars")
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        inner = QWidget()
        self.column = QVBoxLayout(inner)
        self.column.setContentsMargins(0, 0, 0, 0)
        self.column.setSpacing(0)
        self.setWidget(inner)
        inner.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.LayoutRequest:
            self.updateGeometry()  # a bar shown, hidden or rewrapped: the column's height follows
        return False

    def sizeHint(self) -> QSize:
        inner = self.widget()
        width = self.viewport().width() if self.isVisible() else inner.sizeHint().width()
        height = inner.heightForWidth(width) if inner.hasHeightForWidth() else -1
        return QSize(inner.sizeHint().width(), height if height >= 0 else inner.sizeHint().height())

    def minimumSizeHint(self) -> QSize:
        # As wide as the bars need (their buttons in a row): only the height scrolls.
        return QSize(self.widget().minimumSizeHint().width(),
                     min(self.sizeHint().height(), 2 * self.fontMetrics().height()))


class Presentation:
    """Mixed into MainWindow: enters and leaves the presentation layout; leaving brings the desk back as it was."""

    def _build_presentation(self) -> None:
        """The compact d_k and scale strip (a tool bar shown only while presenting)."""
        self._desk_layout: tuple[QByteArray, QByteArray] | None = None
        self._charts_tabbed = False
        self._qt_tab_elision = Qt.TextElideMode.ElideRight
        self._status_bar_was_shown = True
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
        self.top_bars = TopBars()
        self.top_bars.hide()
        self.centralWidget().installEventFilter(self._top_bars_watch)
        self.model.steps_changed.connect(self._follow_step_through)
        self.central_tabs.currentChanged.connect(self._show_strip_for_page)
        theme().changed.connect(self._zoom_changed)

    @property
    def _top_bars_watch(self) -> QObject:
        """Sees a bar put above the page while presenting (a lecture started now) and moves it into the column."""
        watch = getattr(self, "_top_bars_watcher", None)
        if watch is None:
            watch = self._top_bars_watcher = _LayoutWatch(self, self._top_bars_changed)
        return watch

    def _top_bars_changed(self) -> None:
        """The middle was laid out or resized (a bar added, the zoom changed the menus' height)."""
        if self.presenting:
            self._wrap_top_bars(True)
            self._limit_top_bars()

    def _wrap_top_bars(self, wrapped: bool) -> None:
        """The bars above the page into the scrolling column (presentation), or back above the page (the desk)."""
        middle = self.centralWidget().layout()
        column = self.top_bars.column
        if wrapped:
            above = [middle.itemAt(i).widget() for i in range(middle.indexOf(self.central_tabs))]
            above = [widget for widget in above if widget is not None and widget is not self.top_bars]
            if not above and middle.indexOf(self.top_bars) >= 0:
                return
            bars = [column.itemAt(i).widget() for i in range(column.count())]
            # A bar added above while presenting (the lecture's, the question's) goes under the step banner.
            order = [self.step_banner] if self.step_banner in above + bars else []
            order += [widget for widget in bars + above if widget is not self.step_banner]
            for widget in above:
                middle.removeWidget(widget)
            for widget in order:
                column.removeWidget(widget)
                column.addWidget(widget)
            if middle.indexOf(self.top_bars) < 0:
                middle.insertWidget(0, self.top_bars)
            self.top_bars.show()
            self._limit_top_bars()
        elif middle.indexOf(self.top_bars) >= 0:
            bars = [column.itemAt(i).widget() for i in range(column.count())]
            middle.removeWidget(self.top_bars)
            self.top_bars.hide()
            for at, widget in enumerate(bars):
                column.removeWidget(widget)
                middle.insertWidget(at, widget)

    def _limit_top_bars(self) -> None:
        """The column may take what leaves the canvas page CANVAS_SHARE of the window's height."""
        middle = self.centralWidget()
        page = self.central_tabs
        chrome = page.height() - page.currentWidget().height() if page.currentWidget() is not None else 0
        room = middle.height() - math.ceil(CANVAS_SHARE * self.height()) - chrome - 2
        self.top_bars.setMaximumHeight(max(room, self.top_bars.minimumSizeHint().height()))

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
        self._desk_rect = self.geometry()
        for name in DESK_ONLY_DOCKS:
            self.docks[name].hide()
        self._arrange_charts()
        self._status_bar_was_shown = not self.statusBar().isHidden()
        self.statusBar().hide()  # the desk's hover hints: nothing for the hall, and a line of height for the charts
        self.docks["rotationTrace"].setVisible(self.animator.running)
        self._raise_for_steps()
        self._show_strip_for_page()
        self.canvas.set_beside(True)  # the readout and the notes beside the plot: it keeps the whole height
        self._present_labs(True)
        self._show_page_tabs(False)
        self._wrap_top_bars(True)
        self._scale_readout()
        self._fit_to_screen()
        self._fit_presentation()
        self.actions_by_name["presentation"].setChecked(True)
        QTimer.singleShot(0, self.hide_idle_dock_tab_bars)  # after Qt's layout of the docks

    def leave_presentation(self) -> None:
        """The desk layout exactly as it was before F5: docks, their sizes and the window's geometry."""
        if not self.presenting:
            return
        state = self._desk_layout[1]
        self.canvas.set_readout_scale(1.0)
        self.canvas.set_beside(False)
        self._present_labs(False)
        self._show_page_tabs(True)
        self._wrap_top_bars(False)
        # The strip goes first: restoring the docks with it still shown gave the charts' column less width.
        self.presentation_bar.hide()
        self.statusBar().setVisible(self._status_bar_was_shown)
        self._set_dock_tabs_elided(True)  # the desk's tab groups as Qt lays them out
        if self.geometry() != self._desk_rect and not (self.isFullScreen() or self.isMaximized()):
            # The window first (a resize after the docks would share them anew), and as it was: restoreGeometry
            # would shrink it to the screen again.
            self.setGeometry(self._desk_rect)
            QApplication.processEvents()  # the platform applies the size asynchronously
        QApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
        if self._state_before_wide_page is not None:
            # A wide lab is shown and keeps every dock hidden: the desk layout comes back with the canvas.
            self._state_before_wide_page = state
        else:
            self.restoreState(state)
        self._desk_layout = None  # only now: resizes until here laid out the presentation, not the half-restored desk
        self.actions_by_name["presentation"].setChecked(False)
        self.actions_by_name["fullScreen"].setChecked(self.isFullScreen())

    def desk_state(self) -> QByteArray:
        """The dock layout to keep for the next start: the desk's, whatever is shown now."""
        if self.presenting:
            return self._desk_layout[1]
        return self._state_before_wide_page or self.saveState()

    def _arrange_charts(self) -> None:
        """The weights over a tab group of output, steps and trace; zoomed far in, the weights are a tab too."""
        weights, output, steps, trace = (self.docks[name] for name in
                                         ("weightsChart", "outputView", "stepsView", "rotationTrace"))
        self._charts_tabbed = theme().zoom >= TABBED_CHARTS_ZOOM
        for dock in (weights, output, steps, trace):
            dock.setFloating(False)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, weights)
        if self._charts_tabbed:
            # Two charts stacked at this zoom left each less height than its wrapped captions need.
            self.tabifyDockWidget(weights, output)
        else:
            self.splitDockWidget(weights, output, Qt.Orientation.Vertical)
        self.tabifyDockWidget(output, steps)
        self.tabifyDockWidget(output, trace)  # a turn shows its trace here: the canvas keeps its height
        pins = self.docks.get("pinsTable")
        if pins is not None:
            # The pins' table a tab here, not a band over the charts; placed now even if hidden, so the first pin
            # only shows its tab (tabified later, Qt left the group's old tab bar painted over the output).
            pins.setFloating(False)
            self.tabifyDockWidget(output, pins)
        for dock in (weights, output, steps):
            dock.show()
        self._set_dock_tabs_elided(False)  # scrolled when they do not fit, never cut mid-word

    def _present_labs(self, presenting: bool) -> None:
        """The labs built so far in their hall sizes (larger table numbers, every cell shown), or the desk's."""
        for page in self._built_pages.values():
            if hasattr(page, "set_presenting"):
                page.set_presenting(presenting)

    def _show_page_tabs(self, shown: bool) -> None:
        """The middle's page tabs (and the All pages button): desk chrome. In the hall their row of height is the
        plot's; the lecture, View ▸ Pages and Ctrl+1 … still change the page."""
        self.central_tabs.tabBar().setVisible(shown)
        corner = self.central_tabs.cornerWidget(Qt.Corner.TopRightCorner)
        if corner is not None:
            corner.setVisible(shown)

    def _set_dock_tabs_elided(self, elided: bool) -> None:
        """The tab bars of the window's dock groups elide their titles (Qt's way) or scroll instead."""
        for bar in self.findChildren(QTabBar):
            if bar.parent() is self:
                if elided:
                    bar.setElideMode(self._qt_tab_elision)
                else:
                    self._qt_tab_elision = bar.elideMode()
                    bar.setElideMode(Qt.TextElideMode.ElideNone)
                    bar.setUsesScrollButtons(True)

    def hide_idle_dock_tab_bars(self) -> None:
        """Hide the tab bars Qt left behind from dock groups it has taken apart (presentation, a wide lab).

        Qt leaves such a bar shown at its old place, under the middle or under a chart: in high contrast its white
        border showed as marks along the window's left edge, and a second "Output | The four steps" peeked out
        under the real one. A bar in use spans its group's docks exactly (the app's tabs are north or south).
        """
        spans = [(dock.x(), dock.width()) for dock in self.docks.values() if dock.isVisible()]
        for bar in self.findChildren(QTabBar):
            if bar.parent() is self and bar.isVisible():
                if not any(abs(bar.x() - x) <= 2 and abs(bar.width() - width) <= 2 for x, width in spans):
                    bar.hide()

    def _show_strip_for_page(self, _index: int = 0) -> None:
        """The d_k and scale strip while presenting a page of the explorer's scenario; hidden on a lab's own."""
        if self.presenting:
            self.presentation_bar.setVisible(self.central_tabs.currentIndex() in STRIP_PAGES)

    def _zoom_changed(self) -> None:
        if not self.presenting:
            return
        self._scale_readout()
        self._limit_top_bars()
        if self._charts_tabbed != (theme().zoom >= TABBED_CHARTS_ZOOM):
            trace_shown = self.docks["rotationTrace"].isVisible()
            self._arrange_charts()
            self.docks["rotationTrace"].setVisible(trace_shown)
            self._raise_for_steps()
            self._fit_presentation()

    def _fit_to_screen(self) -> None:
        """A window that the desk's panels made taller than the screen (zoomed in) comes back inside it."""
        screen = self.screen()
        if screen is None or self.isFullScreen() or self.isMaximized():
            return
        QApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)  # the desk's docks are gone: smaller minimum
        available = screen.availableGeometry()
        if not available.contains(self.frameGeometry()):
            inside = first_run_geometry(available, self.size())
            self.resize(inside.size())
            self.move(inside.topLeft())

    def _scale_readout(self) -> None:
        """Large type for the readout in presentation; zoomed past it, the zoom alone (or it takes the plot's room)."""
        self.canvas.set_readout_scale(max(1.0, READOUT_PT / theme().number_pt()))

    def _fit_presentation(self) -> None:
        """The charts' column a third of the width, the weights and the tabs below them half of its height each."""
        self._limit_top_bars()
        weights, output = self.docks["weightsChart"], self.docks["outputView"]
        self.resizeDocks([self._shown_tab(weights)], [int(self.width() * CHARTS_SHARE)], Qt.Orientation.Horizontal)
        if not self._charts_tabbed:
            half = max(self.centralWidget().height() // 2, 1)
            self.resizeDocks([weights, self._shown_tab(output)], [half, half], Qt.Orientation.Vertical)

    def _shown_tab(self, dock: QDockWidget) -> QDockWidget:
        """The dock of `dock`'s tab group that is in front."""
        for other in (dock, *self.tabifiedDockWidgets(dock)):
            if other.isVisible() and not other.visibleRegion().isEmpty():
                return other
        return dock

    def present_pins(self) -> None:
        """The first pin in presentation: the Pins table a tab behind the output (the pin's ghosts are in the charts
        already), never a band over them; the charts keep their size."""
        pins, output = self.docks["pinsTable"], self.docks["outputView"]
        shown = self._shown_tab(output)
        if pins.isFloating() or pins not in self.tabifiedDockWidgets(output):
            pins.setFloating(False)
            self.tabifyDockWidget(output, pins)
        pins.show()
        shown.raise_()

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
        if model.step_through and model.revealed_steps < model.STEP_COUNT:
            shown = "weightsChart" if self._charts_tabbed and model.revealed_steps == 3 else "stepsView"
        else:
            shown = "outputView"
        self.docks[shown].raise_()


class _LayoutWatch(QObject):
    """Calls `on_layout` when the watched widget is resized or asked to lay out again (a widget added or shown)."""

    def __init__(self, parent: QObject, on_layout) -> None:
        super().__init__(parent)
        self._on_layout = on_layout

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() in (QEvent.Type.LayoutRequest, QEvent.Type.Resize):
            self._on_layout()
        return False
