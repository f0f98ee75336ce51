"""The canvas never loses a tip: the view frames every rotation, a drag's release brings tips back, the floating
plane menu and Fit button cover no tip or name, and an example that hides vectors opens in the plane of Q and a key."""

from __future__ import annotations

import math

import numpy as np
import pytest
from PySide6.QtCore import QEvent, QPointF, QRectF, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from attention_explorer.core.files.presets import DEFAULT_PRESET, load_preset, preset_names
from attention_explorer.ui.canvas.vector_canvas import VectorCanvas

NO_MODIFIER = Qt.KeyboardModifier.NoModifier
LEFT = Qt.MouseButton.LeftButton


def widget_point(canvas: VectorCanvas, x: float, y: float):
    return canvas.plot.mapFromScene(canvas.view.mapViewToScene(QPointF(x, y)))


def press(canvas, x, y) -> None:
    QTest.mousePress(canvas.plot.viewport(), LEFT, NO_MODIFIER, widget_point(canvas, x, y))


def move(canvas, x, y) -> None:
    viewport = canvas.plot.viewport()
    pos = QPointF(widget_point(canvas, x, y))
    QApplication.sendEvent(viewport, QMouseEvent(QEvent.Type.MouseMove, pos, QPointF(viewport.mapToGlobal(pos)),
                                                 Qt.MouseButton.NoButton, LEFT, NO_MODIFIER))


def release(canvas, x, y) -> None:
    QTest.mouseRelease(canvas.plot.viewport(), LEFT, NO_MODIFIER, widget_point(canvas, x, y))


def drawn_tips(canvas: VectorCanvas) -> list[tuple[float, float]]:
    """Where the grab handles of Q and every key are drawn."""
    return [tuple(arrow.handle.pos()) for arrow in (canvas.query, *canvas._keys)]


def assert_every_tip_in_view(canvas: VectorCanvas) -> None:
    (left, right), (bottom, top) = canvas.view.viewRange()
    for x, y in drawn_tips(canvas):
        assert left < x < right and bottom < y < top, ((x, y), (left, right, bottom, top))


def turn_by_mouse(canvas: VectorCanvas, index: int, to_degrees: float, steps: int = 12, check=None) -> None:
    """Grab key `index` by its tip and turn it with the mouse, step by step, to `to_degrees`; `check(canvas)` after
    every move, with the button still down."""
    x, y = canvas.model.scenario.keys[index][:2]
    start_angle, length = math.degrees(math.atan2(y, x)), math.hypot(x, y)
    press(canvas, x, y)
    for step in range(1, steps + 1):
        angle = math.radians(start_angle + (to_degrees - start_angle) * step / steps)
        move(canvas, length * math.cos(angle), length * math.sin(angle))
        if check is not None:
            check(canvas)
    end = math.radians(to_degrees)
    release(canvas, length * math.cos(end), length * math.sin(end))
    QApplication.processEvents()


# ---------------------------------------------------------------- every rotation stays in view


def test_turning_k1_of_the_default_example_to_180_degrees_keeps_every_tip_in_view(make_window):
    window = make_window(instant_drags=True)
    canvas = window.canvas
    # The disc of the longest vector is framed from the start: every step of the turn is in view, mid-drag too.
    turn_by_mouse(canvas, 0, 180.0, check=assert_every_tip_in_view)
    assert window.model.scenario.keys[0] == pytest.approx([-1.5, 0.0], abs=0.02)
    assert_every_tip_in_view(canvas)
    # And on round the circle: every direction is visible.
    turn_by_mouse(canvas, 0, 540.0, steps=24, check=assert_every_tip_in_view)
    assert_every_tip_in_view(canvas)


def test_a_drag_past_the_edge_brings_every_tip_back_into_view_on_release(make_window):
    window = make_window(instant_drags=True)
    canvas = window.canvas
    (left, _), _ = canvas.view.viewRange()
    far = left - 1.0  # beyond the left edge of the view
    x, y = window.model.scenario.keys[0]
    press(canvas, x, y)
    for t in np.linspace(0.1, 1.0, 10):
        move(canvas, x + (far - x) * t, y * (1 - t))
    # While the button is down the view stays where it is (it must not jump under the mouse).
    assert canvas.view.viewRange()[0][0] == pytest.approx(left)
    release(canvas, far, 0.0)
    QApplication.processEvents()
    assert window.model.scenario.keys[0][0] == pytest.approx(far, abs=0.05)
    assert_every_tip_in_view(canvas)


def test_an_edit_in_the_table_that_lengthens_a_key_frames_its_disc(make_window):
    window = make_window()
    canvas = window.canvas
    window.model.set_vector("key", 1, [0.0, 2.5])
    QApplication.processEvents()
    (left, right), (bottom, top) = canvas.view.viewRange()
    assert left < -2.5 and right > 2.5 and bottom < -2.5 and top > 2.5


def test_the_framing_contains_the_disc_and_the_names_beyond_it():
    from attention_explorer.ui.canvas.framing import disc_points, frame_range

    reach = np.full((8, 4), 20.0)
    xs, ys = disc_points(2.0, 8)
    left, right, bottom, top = frame_range(xs, ys, reach, 400.0, 300.0)
    scale = max((right - left) / 400.0, (top - bottom) / 300.0)
    assert left <= -2.0 - 20 * scale + 1e-9 and right >= 2.0 + 20 * scale - 1e-9
    assert bottom <= -2.0 - 20 * scale + 1e-9 and top >= 2.0 + 20 * scale - 1e-9


def test_a_short_plot_gives_the_vectors_a_share_of_its_height_before_clearing_the_controls():
    """Controls across the whole top of a 220-px plot: only as much of their band as leaves the disc 35 % of the
    height; a tall plot gets the whole band (every name clear of them)."""
    from attention_explorer.ui.canvas.framing import CONTENT_SHARE, FIT_PAD_PX, disc_points, frame_range

    xs, ys = disc_points(1.5)
    reach = np.full((xs.size, 4), 47.0)  # a grab circle and a line of text all round, as the canvas gives its rim
    covered = [(6.0, 11.0, 362.0, 36.0), (370.0, 9.0, 419.0, 38.0)]  # the plane menu and Fit, as in question mode
    for height, whole_band in ((220.0, False), (430.0, True)):
        left, right, bottom, top = frame_range(xs, ys, reach, 428.0, height, covered)
        scale = max((right - left) / 428.0, (top - bottom) / height)
        disc_px = 3.0 / scale
        margins_px = 2 * (47.0 + FIT_PAD_PX)
        if whole_band:
            assert height - disc_px >= margins_px + 38.0 - 1e-6  # the band below the controls' bottom edge, whole
        else:
            assert disc_px >= CONTENT_SHARE * height - 1e-6
            assert height - disc_px > margins_px  # and still some band


def test_question_mode_at_1280_by_720_keeps_the_library_vectors_readable(make_window):
    """The banner and the question leave the canvas about 200 px: the band clearing the plane menu used to take
    most of what the names left, and Q (length 1.41) was drawn 28 px long."""
    window = make_window("library", size=(1280, 720))
    window.lessons.toggle_questions()
    QApplication.processEvents()
    canvas = window.canvas
    assert canvas.plane_combo.isVisible() and canvas.view.height() < 260
    origin = canvas.view.mapViewToScene(QPointF(0.0, 0.0))
    tip = canvas.view.mapViewToScene(QPointF(*canvas.tip_of("query", 0)))
    drawn_px = math.hypot(tip.x() - origin.x(), tip.y() - origin.y())
    assert drawn_px >= 0.16 * canvas.view.height(), (drawn_px, canvas.view.height())
    assert_every_tip_in_view(canvas)


# ---------------------------------------------------------------- the floating controls cover nothing


def floating_rects(canvas: VectorCanvas) -> dict[str, QRectF]:
    """The scene rectangles of the plane menu (when shown) and the Fit button floating over the plot."""
    rects = {}
    for name, widget in (("plane menu", canvas.plane_combo), ("Fit", canvas.fit_button)):
        if widget.isVisible():
            geometry = widget.geometry().translated(-canvas.plot.viewport().pos())
            rects[name] = canvas.plot.mapToScene(geometry).boundingRect()
    return rects


def drawn_rects(canvas: VectorCanvas) -> dict[str, QRectF]:
    """The scene rectangles of every tip's grab circle and name, and of the angle's number."""
    QApplication.processEvents()
    rects = {}
    for name, arrow in zip(("Q", *canvas.model.scenario.labels), (canvas.query, *canvas._keys)):
        if arrow.handle.isVisible():
            rects[f"{name} tip"] = arrow.handle.sceneBoundingRect()
        if arrow.label.isVisible():
            rects[f"{name} name"] = arrow.label.sceneBoundingRect()
    if canvas.arc_label.isVisible():
        rects["angle"] = canvas.arc_label.sceneBoundingRect()
    return rects


@pytest.mark.parametrize("size", [(1280, 720), (1600, 1000)])
def test_the_plane_menu_and_fit_button_cover_no_tip_and_no_name(make_window, size):
    """The example the window starts with, then every example opened from the Examples menu, as a lecturer would
    (one window for them all: a window each took most of this test's time)."""
    window = make_window(size=size)
    canvas = window.canvas
    # The self-attention, multi-head and translation examples are no single query: the window shows their labs.
    for preset in [name for name in preset_names() if name not in ("self-attention", "multi-head", "translation")]:
        if preset != DEFAULT_PRESET:
            window.preset_actions[preset].trigger()
            QApplication.processEvents()
        assert window.model.scenario.title == load_preset(preset).title
        for selected in range(window.model.scenario.n):
            window.model.select_key(selected)
            floating = floating_rects(canvas)
            assert floating
            for name, rect in drawn_rects(canvas).items():
                for control, control_rect in floating.items():
                    overlap = rect.intersected(control_rect)
                    assert overlap.width() < 1 or overlap.height() < 1, (preset, selected, control, name)


# ---------------------------------------------------------------- a plane where the angle is true


def test_the_library_example_opens_in_the_plane_of_q_and_the_selected_key_and_says_why(make_window):
    window = make_window("library")
    canvas = window.canvas
    assert canvas.plane_combo.isVisible()
    assert canvas.plane_combo.currentData() == "query-key"
    assert canvas.note.isVisible()
    note = canvas.note.text()
    assert note == ("Components 0 and 1 would draw Q and K3 on one point: shown in the plane of Q and K1 instead, "
                    "where their angle is true (d_k = 4).")
    # The angle drawn is the true one (no 4-D caveat), and the three tips lie apart.
    assert canvas.arc_label.textItem.toPlainText() == f"{window.model.result.angles_deg[0]:.1f}°"
    tips = drawn_tips(canvas)
    assert not np.allclose(tips[0], tips[3]) and not np.allclose(tips[1], tips[3])
    window.model.select_key(2)  # another key, another plane: the note names it
    assert "plane of Q and K3" in canvas.note.text()
    # Choosing components 0 and 1 by hand is kept, and the reason goes with the plane it explained.
    canvas.plane_combo.setCurrentIndex(canvas.plane_combo.findData("components"))
    QApplication.processEvents()
    assert "would draw" not in canvas.note.text()


def test_opening_the_library_example_from_the_menu_switches_plane_and_another_example_switches_back(make_window):
    window = make_window()
    window.preset_actions["library"].trigger()
    QApplication.processEvents()
    assert window.canvas.plane_combo.currentData() == "query-key"
    assert "would draw" in window.canvas.note.text()
    window.preset_actions["code-review"].trigger()  # 4-D, but its vectors lie apart in components 0 and 1
    QApplication.processEvents()
    assert window.canvas.plane_combo.currentData() == "components"
    assert "would draw" not in window.canvas.note.text()


def test_in_chinese_the_note_says_why_in_chinese(make_window):
    window = make_window("library", language="zh_CN")
    note = window.canvas.note.text()
    assert window.canvas.note.isVisible()
    assert "同一点" in note and "Q 与 K1" in note and "would draw" not in note
