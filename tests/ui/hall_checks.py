"""The hall's composition rules (issue 36), checked on a real main window in presentation at 1280×720.

Shared by tests/ui/window/test_hall_composition.py (offscreen, in the main suite) and
tests/ui/realwindow/test_hall_composition.py (xcb under Xvfb). Pixels are widget pixels mapped to the window.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, QPoint, QPointF, QRect, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QAbstractScrollArea, QApplication, QLabel

from attention_explorer.core.teaching.lecture import load_built_in
from attention_explorer.ui.widgets.matrix_table import MatrixTable

LEAST_CANVAS_SHARE = 0.45  # of the window's height, for the canvas's plot
LEAST_REACH_SHARE = 1 / 3  # of the plot's smaller side, for the longest vector


def settle() -> None:
    for _ in range(2):
        QApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
        QApplication.processEvents()


def start_lecture(window):
    """Presentation (entered afresh), then the built-in lecture from its first scene; its scene count."""
    window.leave_presentation()
    window.enter_presentation()
    window.resize(1280, 720)  # the projector's whole screen: offscreen, presentation fitted it to an 800×800 one
    window.lessons.open_built_in_lecture()
    settle()
    return len(load_built_in().scenes)


def canvas_scenes(window, count: int):
    """Enter every scene of the running lecture in turn (as Page Down would reach it) and yield the index of each
    that shows the vector canvas."""
    runner = window.lessons.runner
    for index in range(count):
        runner.enter(index)
        settle()
        if window.central_tabs.currentIndex() == 0:
            yield index


def window_rect(widget) -> QRect:
    return QRect(widget.mapTo(widget.window(), QPoint(0, 0)), widget.size())


def visible_plots(window) -> list:
    return [plot for plot in window.findChildren(pg.PlotWidget)
            if plot.isVisible() and not plot.viewport().visibleRegion().isEmpty()]


def canvas_share(window) -> float:
    """The canvas plot's viewport height over the window's height."""
    return window.canvas.plot.viewport().height() / window.height()


def longest_share(window) -> float:
    """The longest drawn vector's length in pixels over the plot view's smaller side."""
    canvas = window.canvas
    qx, qy, kx, ky = canvas._plane.drawn_tips(canvas.model.scenario, canvas.drawing_basis(), canvas._pool.indices)
    sx, sy = canvas.view.viewPixelSize()
    lengths = np.hypot(np.append(kx, qx) / sx, np.append(ky, qy) / sy)
    return float(lengths.max()) / min(canvas.view.width(), canvas.view.height())


def labels_over_plots(window) -> list[str]:
    """Each visible label whose rectangle overlaps a visible plot's viewport (as "label text / plot name")."""
    plots = [(plot, window_rect(plot.viewport())) for plot in visible_plots(window)]
    found = []
    for label in window.findChildren(QLabel):
        if not label.isVisible() or label.visibleRegion().isEmpty() or not label.text():
            continue
        rect = window_rect(label)
        for plot, viewport in plots:
            if plot.isAncestorOf(label):
                continue  # a plot's own axis title is drawn by the plot, not a label over it
            if rect.intersects(viewport):
                found.append(f"{label.text()[:40]!r} / {plot.objectName()}")
    return found


def angle_label_on_arrows(window) -> list[str]:
    """The arrows whose drawn segment (origin to tip) crosses the angle label's rectangle."""
    canvas = window.canvas
    label = canvas.arc_label
    if not label.isVisible():
        return []
    box = label.sceneBoundingRect().adjusted(1, 1, -1, -1)
    qx, qy, kx, ky = canvas._plane.drawn_tips(canvas.model.scenario, canvas.drawing_basis(), canvas._pool.indices)
    names = ["Q", *(canvas.model.scenario.labels[i] for i in canvas._pool.indices)]
    origin = canvas.view.mapViewToScene(QPointF(0, 0))
    crossed = []
    for name, x, y in zip(names, [qx, *kx.tolist()], [qy, *ky.tolist()]):
        tip = canvas.view.mapViewToScene(QPointF(x, y))
        for t in np.linspace(0.0, 1.0, 200):
            if box.contains(origin + (tip - origin) * float(t)):
                crossed.append(name)
                break
    return crossed


def composition_problems(window) -> list[str]:
    """Every rule the scene on screen breaks, in words."""
    problems = []
    share = canvas_share(window)
    if share < LEAST_CANVAS_SHARE:
        problems.append(f"canvas {share:.0%} of the height")
    reach = longest_share(window)
    if reach < LEAST_REACH_SHARE:
        problems.append(f"longest vector {reach:.2f} of the plot's smaller side")
    problems += [f"label over a plot: {found}" for found in labels_over_plots(window)]
    problems += [f"angle label on {name}" for name in angle_label_on_arrows(window)]
    problems += [f"pin name cut by the plot's edge: {name}" for name in pin_names_cut(window)]
    return problems


def pin_names_cut(window) -> list[str]:
    """The pins' names on the canvas that run past the plot's view (scene 6 cut "with 1/√d_k" to "with 1/")."""
    canvas = window.canvas
    view = canvas.view.sceneBoundingRect()
    return [name.textItem.toPlainText() for name in window.pinning.ghosts[0].names
            if name.isVisible() and not view.contains(name.sceneBoundingRect())]


def canvas_geometry(window) -> tuple:
    """What must not move while a button is held or a turn plays: the plot's place and size, the view's range."""
    canvas = window.canvas
    (left, right), (bottom, top) = canvas.view.viewRange()
    rounded = tuple(round(value, 9) for value in (left, right, bottom, top))
    return window_rect(canvas.plot).getRect(), (canvas.view.width(), canvas.view.height()), rounded


def _point(canvas, x: float, y: float) -> QPoint:
    return canvas.plot.mapFromScene(canvas.view.mapViewToScene(QPointF(x, y)))


def drag_geometries(window, key: int, end: tuple[float, float], steps: int = 12) -> list[tuple]:
    """Drag key `key`'s tip to view point `end` with the real mouse events; the canvas geometry at the press and
    after every move (the last before the release)."""
    canvas = window.canvas
    canvas.plot.scene().minDragTime = 0
    viewport = canvas.plot.viewport()
    start = canvas.tip_of("key", key)
    QTest.mousePress(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, _point(canvas, *start))
    seen = [canvas_geometry(window)]
    for step in range(1, steps + 1):
        t = step / steps
        pos = QPointF(_point(canvas, start[0] + (end[0] - start[0]) * t, start[1] + (end[1] - start[1]) * t))
        QApplication.sendEvent(viewport, QMouseEvent(
            QEvent.Type.MouseMove, pos, QPointF(viewport.mapToGlobal(pos)), Qt.MouseButton.NoButton,
            Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier))
        settle()
        seen.append(canvas_geometry(window))
    QTest.mouseRelease(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, _point(canvas, *end))
    settle()
    return seen


def turn_geometries(window, frames: int = 1000) -> list[tuple]:
    """Space plays a full turn of the selected key; the canvas geometry once it started and after each of its
    first `frames` frames (advanced here, and by the timer while events are processed: no waiting). A quarter
    turn crosses an axis, where a component changes sign."""
    window.activateWindow()
    window.canvas.setFocus()
    QTest.keyClick(window.canvas, Qt.Key.Key_Space)
    settle()
    animator = window.animator
    assert animator.running
    seen = [canvas_geometry(window)]
    for _ in range(frames):
        if not animator.running:
            break
        animator.advance()
        settle()
        seen.append(canvas_geometry(window))
    animator.stop()
    return seen


def turned_target(window, key: int, turns: int = 1) -> tuple[float, float]:
    """Key `key`'s tip turned by `turns` quarter turns about the origin (as long: inside the framed disc); a drag
    there gives its components and its dot product with Q another sign."""
    x, y = window.canvas.tip_of("key", key)
    for _ in range(turns):
        x, y = -y, x
    return x, y


def shown_tables(window) -> list[MatrixTable]:
    return [table for table in window.findChildren(MatrixTable)
            if table.isVisible() and not table.viewport().visibleRegion().isEmpty()]


def clipped_tables(window) -> list[str]:
    """Each shown matrix table that hides part of itself with no scroll bar saying so: rows or columns past its own
    edge, or the table past the edge of a scroll area around it (its page's, its lab's)."""
    found = []
    for table in shown_tables(window):
        name = table.objectName() or type(table).__name__
        viewport = table.viewport()
        if table.horizontalHeader().length() > viewport.width() + 1 and not table.horizontalScrollBar().isVisible():
            found.append(f"{name}: columns cut")
        if table.verticalHeader().length() > viewport.height() + 1 and not table.verticalScrollBar().isVisible():
            found.append(f"{name}: rows cut")
        # What is left of it inside each scroll area around it, innermost first: an inner area that scrolls (with
        # its bar) already said so for the part it hides.
        shown = window_rect(table)
        area = table.parentWidget()
        while area is not None and area is not window:
            if isinstance(area, QAbstractScrollArea):
                view = window_rect(area.viewport())
                where = area.objectName() or type(area).__name__
                if shown.bottom() > view.bottom() and not area.verticalScrollBar().isVisible():
                    found.append(f"{name}: cut at the bottom of {where}")
                if shown.right() > view.right() and not area.horizontalScrollBar().isVisible():
                    found.append(f"{name}: cut at the right of {where}")
                shown = shown.intersected(view)
            area = area.parentWidget()
        if shown.bottom() >= window.height() or shown.right() >= window.width():
            found.append(f"{name}: cut by the window's edge")
    return found


def table_shows_every_cell(table: MatrixTable) -> bool:
    """Every row and column of the table lies inside its own view (the table does not scroll within itself)."""
    viewport = table.viewport()
    return (table.horizontalHeader().length() <= viewport.width() + 1
            and table.verticalHeader().length() <= viewport.height() + 1)
