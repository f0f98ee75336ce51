"""The canvas's planes for d_k > 2 (components 0 and 1, Q and the selected key, PCA), dragged with real mouse events."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from PySide6.QtCore import QEvent, QPoint, QPointF, Qt
from PySide6.QtGui import QMouseEvent, QWheelEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from attention_explorer.core.files.presets import load_preset
from attention_explorer.core.limits import MAX_ABS
from attention_explorer.core.maths.projection import pca_plane, project, query_key_plane
from attention_explorer.state.explorer import ExplorerModel
from attention_explorer.ui.canvas.vector_canvas import PLANE_KINDS, VectorCanvas
from attention_explorer.ui.style.theme import theme
from tests.ui.widget_helpers import show_widget

K2 = np.array([0.3, 1.0, -0.5, 0.8])  # not orthogonal to Q = [1, 0, 1, 0]: an angle worth drawing


@pytest.fixture
def canvas(qtbot, library_model):
    theme().set_zoom(1.0)
    theme().set_mode("light")
    library_model.set_vector("key", 1, K2)
    library_model.select_key(1)
    canvas = VectorCanvas(library_model)
    qtbot.addWidget(canvas)
    canvas.resize(800, 600)
    canvas.show()
    qtbot.waitExposed(canvas)
    canvas.plot.scene().minDragTime = 0
    # It opens in the plane of Q and K2 (components 0 and 1 draw Q and K3 on one point): these tests start from
    # components 0 and 1, chosen by hand, and choose their planes from there.
    canvas.plane_combo.setCurrentIndex(canvas.plane_combo.findData("components"))
    QApplication.processEvents()
    return canvas


def shipped_library_canvas(qtbot, model, size=(800, 600)) -> VectorCanvas:
    """A canvas on the library example as it ships: Q = K1, and K3 on the same point in components 0 and 1."""
    return show_widget(qtbot, VectorCanvas(model), size)


def choose_plane(canvas: VectorCanvas, kind: str) -> None:
    """Pick a plane in the canvas's plane menu with the keyboard, as a user would."""
    combo = canvas.plane_combo
    wanted = combo.findData(kind)
    combo.setFocus()
    while combo.currentIndex() != wanted:
        QTest.keyClick(combo, Qt.Key.Key_Down if combo.currentIndex() < wanted else Qt.Key.Key_Up)
    QApplication.processEvents()


def widget_point(canvas: VectorCanvas, x: float, y: float) -> QPoint:
    return canvas.plot.mapFromScene(canvas.view.mapViewToScene(QPointF(x, y)))


def press(canvas, x, y) -> None:
    QTest.mousePress(canvas.plot.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     widget_point(canvas, x, y))


def move(canvas, x, y) -> None:
    viewport = canvas.plot.viewport()
    pos = QPointF(widget_point(canvas, x, y))
    event = QMouseEvent(QEvent.Type.MouseMove, pos, QPointF(viewport.mapToGlobal(pos)), Qt.MouseButton.NoButton,
                        Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(viewport, event)


def release(canvas, x, y) -> None:
    QTest.mouseRelease(canvas.plot.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                       widget_point(canvas, x, y))


def pixel(canvas) -> float:
    return canvas.view.viewPixelSize()[0]


def drawn_tips(canvas) -> np.ndarray:
    """Where the grab handles of Q and each key are drawn, one row each."""
    glyphs = [canvas.query, *canvas._keys]
    return np.array([tuple(glyph.handle.pos()) for glyph in glyphs])


def vectors(model) -> np.ndarray:
    return np.vstack((model.scenario.query, model.scenario.keys))


def outside(basis: np.ndarray, vector: np.ndarray) -> np.ndarray:
    """The part of `vector` orthogonal to the plane of `basis` (rows orthonormal)."""
    return vector - basis.T @ (basis @ vector)


def test_components_is_the_default_and_there_is_no_menu_for_two_dimensions(qtbot, model):
    # code-review: 4-D, its vectors apart in components 0 and 1 (the library example opens in another plane).
    review = ExplorerModel(load_preset("code-review"))
    canvas = show_widget(qtbot, VectorCanvas(review), (800, 600))
    assert canvas.plane_combo.isVisible()
    assert canvas.plane_combo.currentData() == "components"
    np.testing.assert_allclose(drawn_tips(canvas), vectors(canvas.model)[:, :2])
    assert "components 0 and 1" in canvas.note.text()
    plane_canvas = VectorCanvas(model)  # the drag-2d preset: d_k = 2
    qtbot.addWidget(plane_canvas)
    plane_canvas.show()
    QApplication.processEvents()
    assert plane_canvas.plane_combo.isHidden()
    assert plane_canvas.note.isHidden()


def test_plane_of_q_and_the_selected_key_draws_their_angle_and_lengths_exactly(canvas):
    model = canvas.model
    choose_plane(canvas, "query-key")
    basis = query_key_plane(model.scenario.query, model.scenario.keys[1])
    np.testing.assert_allclose(drawn_tips(canvas), project(vectors(model), basis), atol=1e-12)
    (qx, qy), (kx, ky) = drawn_tips(canvas)[0], drawn_tips(canvas)[2]
    assert (qx, qy) == pytest.approx((math.sqrt(2), 0.0))  # e1 along Q
    assert math.hypot(kx, ky) == pytest.approx(float(np.linalg.norm(K2)))
    drawn_angle = math.degrees(math.atan2(ky, kx) - math.atan2(qy, qx))
    # Independently: θ = arccos(Q·K2 / |Q||K2|) = arccos(-0.2 / (√2 · √1.98)).
    true_angle = math.degrees(math.acos(-0.2 / (math.sqrt(2) * math.sqrt(1.98))))
    assert model.result.angles_deg[1] == pytest.approx(true_angle)
    assert drawn_angle == pytest.approx(true_angle)
    arc_x, arc_y = canvas.arc.getData()
    arc_span = math.degrees(math.atan2(arc_y[-1], arc_x[-1]) - math.atan2(arc_y[0], arc_x[0]))
    assert arc_span == pytest.approx(true_angle)
    assert canvas.arc_label.textItem.toPlainText() == f"{true_angle:.1f}°"  # exact: no "(4-D)"
    assert "plane of Q and K2" in canvas.note.text() and "exact" in canvas.note.text()
    assert canvas.plot.getAxis("bottom").labelText == "along Q"
    assert "Q–K2" in canvas.plot.getAxis("left").labelText
    # Another selected key, another plane.
    model.select_key(2)
    assert "plane of Q and K3" in canvas.note.text()
    np.testing.assert_allclose(drawn_tips(canvas),
                               project(vectors(model), query_key_plane(model.scenario.query, model.scenario.keys[2])),
                               atol=1e-12)


def test_dragging_k2_in_the_q_k2_plane_moves_it_only_within_that_plane_in_one_undo_step(canvas):
    model = canvas.model
    choose_plane(canvas, "query-key")
    before = vectors(model)
    frozen = query_key_plane(before[0], before[2])
    start = project(before[2], frozen)
    end = (0.9, 0.7)
    steps_before = model.undo_stack.count()
    press(canvas, *start)
    for t in (0.25, 0.5, 0.75, 1.0):
        x, y = start[0] + (end[0] - start[0]) * t, start[1] + (end[1] - start[1]) * t
        move(canvas, x, y)
        # Live, and the tip stays under the mouse: the plane does not move during the drag.
        assert tuple(canvas._keys[1].handle.pos()) == pytest.approx((x, y), abs=2 * pixel(canvas))
    release(canvas, *end)

    moved = model.scenario.keys[1]
    assert project(moved, frozen) == pytest.approx(end, abs=2 * pixel(canvas))
    np.testing.assert_allclose(outside(frozen, moved), outside(frozen, before[2]), atol=1e-12)
    np.testing.assert_array_equal(model.scenario.query, before[0])
    np.testing.assert_array_equal(np.delete(model.scenario.keys, 1, axis=0), np.delete(before[1:], 1, axis=0))
    # The drawn angle is still the true one, which the readout shows.
    (qx, qy), (kx, ky) = drawn_tips(canvas)[0], drawn_tips(canvas)[2]
    angle = model.result.angles_deg[1]
    cosine = float(np.dot(before[0], moved) / (np.linalg.norm(before[0]) * np.linalg.norm(moved)))
    assert angle == pytest.approx(math.degrees(math.acos(cosine)))
    assert abs(math.degrees(math.remainder(math.atan2(ky, kx) - math.atan2(qy, qx), 2 * math.pi))) == \
        pytest.approx(angle)
    assert f"{angle:.1f}°" in canvas.readout.text()

    assert model.undo_stack.count() == steps_before + 1
    model.undo_stack.undo()
    np.testing.assert_array_equal(vectors(model), before)


def test_pca_plane_draws_the_projections_and_a_drag_keeps_the_plane_still(canvas):
    model = canvas.model
    choose_plane(canvas, "pca")
    before = vectors(model)
    frozen = pca_plane(before)
    np.testing.assert_allclose(drawn_tips(canvas), project(before, frozen), atol=1e-12)
    assert "best-fitting plane (PCA)" in canvas.note.text()
    assert canvas.plot.getAxis("bottom").labelText == "PC 1"
    assert canvas.plot.getAxis("left").labelText == "PC 2"
    assert canvas.arc_label.textItem.toPlainText().endswith("(4-D)")  # a projection: the caveat stays

    # Drag K3 (not selected: grabbing selects it, which does not move this plane).
    start = project(before[3], frozen)
    end = (-0.6, 0.9)
    steps_before = model.undo_stack.count()
    press(canvas, *start)
    for t in (0.5, 1.0):
        x, y = start[0] + (end[0] - start[0]) * t, start[1] + (end[1] - start[1]) * t
        move(canvas, x, y)
        assert tuple(canvas._keys[2].handle.pos()) == pytest.approx((x, y), abs=2 * pixel(canvas))
    release(canvas, *end)
    assert model.selected_key == 2
    moved = model.scenario.keys[2]
    assert project(moved, frozen) == pytest.approx(end, abs=2 * pixel(canvas))
    np.testing.assert_allclose(outside(frozen, moved), outside(frozen, before[3]), atol=1e-12)
    assert model.undo_stack.count() == steps_before + 1
    # After the drag the plane is the best fit of the new vectors (each axis keeps its direction).
    refitted = pca_plane(vectors(model))
    drawn = drawn_tips(canvas)
    for axis in range(2):
        projected = vectors(model) @ refitted[axis]
        assert drawn[:, axis] == pytest.approx(projected, abs=1e-12) or drawn[:, axis] == pytest.approx(-projected)


def test_a_far_drag_in_a_plane_clamps_every_component_with_a_note(canvas):
    model = canvas.model
    choose_plane(canvas, "query-key")
    frozen = query_key_plane(model.scenario.query, model.scenario.keys[1])
    start = project(model.scenario.keys[1], frozen)
    canvas.view.setRange(xRange=(-4e6, 4e6), yRange=(-4e6, 4e6), padding=0)
    QApplication.processEvents()
    press(canvas, *start)
    move(canvas, 1.5e6, 0.0)
    move(canvas, 3.5e6, -3.0e6)
    assert canvas.message.isVisible() and "1000000" in canvas.message.text()
    release(canvas, 3.5e6, -3.0e6)
    moved = model.scenario.keys[1]
    assert np.max(np.abs(moved)) == MAX_ABS
    assert np.all(np.isfinite(moved))


def test_choosing_a_plane_for_d_k_2_is_kept_for_when_d_k_grows(canvas):
    model = canvas.model
    choose_plane(canvas, "pca")
    model.set_d_k(2)
    assert canvas.plane_combo.isHidden()
    np.testing.assert_allclose(drawn_tips(canvas), vectors(model))  # d_k = 2: the plane is the whole space
    model.set_d_k(4)
    assert not canvas.plane_combo.isHidden()
    np.testing.assert_allclose(drawn_tips(canvas), project(vectors(model), pca_plane(vectors(model))), atol=1e-12)


@pytest.fixture
def window(make_window):
    return make_window("library")


def test_a_live_language_switch_translates_the_canvas(window):
    canvas = window.canvas
    choose_plane(canvas, "components")  # the plane it opened in, chosen again by hand: the full note
    choose_plane(canvas, "query-key")
    assert canvas.fit_button.text() == "Fit"
    english_note = canvas.note.text()
    window.actions_by_name["lang_zh_CN"].trigger()
    QApplication.processEvents()
    assert canvas.fit_button.text() == "适应窗口"
    assert canvas.note.text() != english_note and "Q" in canvas.note.text()
    assert canvas.plane_combo.currentText() != "Plane of Q and the selected key (angle exact)"
    assert canvas.plot.getAxis("bottom").labelText != "along Q"
    window.actions_by_name["lang_en"].trigger()
    QApplication.processEvents()
    assert canvas.fit_button.text() == "Fit"
    assert canvas.note.text() == english_note


def test_removing_a_key_of_the_pair_that_chose_the_plane_keeps_a_true_note(window, qtbot):
    # The library example opens in the plane of Q and a key because two vectors fall on one point in components
    # 0 and 1; removing keys left the note naming a key that no longer existed (an IndexError, nothing redrawn).
    canvas = window.canvas
    assert "on one point" in canvas.note.text()
    while window.model.scenario.n > 1:
        window.remove_pair()
        QApplication.processEvents()
        assert canvas.note.text()
    labels = window.model.scenario.labels
    assert "on one point" not in canvas.note.text()
    assert f"plane of Q and {labels[0]}" in canvas.note.text()


# ---------------------------------------------------------------- what the user can read


def label_rects(canvas: VectorCanvas) -> dict:
    """The scene rectangle of every text drawn on the plot: Q's and each key's name, and the angle."""
    QApplication.processEvents()
    rects = {"Q": canvas.query.label.sceneBoundingRect()}
    for label, glyph in zip(canvas.model.scenario.labels, canvas._keys):
        rects[label] = glyph.label.sceneBoundingRect()
    if canvas.arc_label.isVisible():
        rects["angle"] = canvas.arc_label.sceneBoundingRect()
    return rects


def shown_rect(canvas: VectorCanvas):
    return canvas.view.mapRectToScene(canvas.view.boundingRect())


@pytest.mark.parametrize("zoom", [1.0, 1.5])
@pytest.mark.parametrize("kind", PLANE_KINDS)
def test_names_of_tips_on_one_point_stack_beside_it_and_no_text_overprints_another(qtbot, library_model, zoom, kind):
    theme().set_zoom(zoom)
    theme().set_mode("light")
    try:
        # Presentation zoom is for a projector: a bigger window (at 800 × 600 the plot is 313 px high).
        canvas = shipped_library_canvas(qtbot, library_model, size=(800, 600) if zoom == 1.0 else (1100, 850))
        choose_plane(canvas, kind)
        for selected in range(3):  # each key in turn on one canvas
            library_model.select_key(selected)
            rects = label_rects(canvas)
            names = list(rects)
            for i, first in enumerate(names):
                for second in names[i + 1:]:
                    overlap = rects[first].intersected(rects[second])
                    assert overlap.width() < 1 or overlap.height() < 1, (first, second, rects[first], rects[second])
            shown = shown_rect(canvas)
            for name, rect in rects.items():
                assert shown.contains(rect), (name, rect, shown)
            # Tips drawn on one point (Q = K1 on every plane, and K3 too in components 0 and 1): their names form
            # one column right beside that point, each under the one before, Q's level with the tip.
            tips = drawn_tips(canvas)
            names_by_row = ["Q", *library_model.scenario.labels]
            on_q = [name for name, tip in zip(names_by_row, tips) if np.allclose(tip, tips[0], atol=1e-9)]
            assert on_q[:2] == ["Q", "K1"] and ("K3" in on_q) == (kind == "components")
            point = canvas.view.mapViewToScene(QPointF(*tips[0]))
            column = sorted((rects[name] for name in on_q), key=lambda rect: rect.top())
            assert column[0] == rects["Q"]
            assert abs(rects["Q"].center().y() - point.y()) < 1
            for above, below in itertools.pairwise(column):
                assert below.left() == pytest.approx(above.left())
                assert below.top() == pytest.approx(above.bottom(), abs=1)
            assert 0 < column[0].left() - point.x() < 30
    finally:
        theme().set_zoom(1.0)


def test_the_library_example_in_the_contrast_theme_keeps_its_names_apart(qtbot, library_model):
    theme().set_zoom(1.0)
    theme().set_mode("contrast")
    try:
        canvas = shipped_library_canvas(qtbot, library_model, size=(480, 560))
        rects = label_rects(canvas)
        names = list(rects)
        for i, first in enumerate(names):
            for second in names[i + 1:]:
                overlap = rects[first].intersected(rects[second])
                assert overlap.width() < 1 or overlap.height() < 1, (first, second)
        assert all(shown_rect(canvas).contains(rect) for rect in rects.values())
    finally:
        theme().set_mode("light")


def plot_rect(canvas: VectorCanvas, item):
    """Where a plot item (an axis: its numbers and name, not its grid) lies in the coordinates of the plot widget,
    which the floating menu uses."""
    polygon = canvas.plot.mapFromScene(item.mapRectToScene(item.rect()))
    return polygon.boundingRect().translated(canvas.plot.viewport().pos())


@pytest.mark.parametrize("width", [800, 560, 420])
@pytest.mark.parametrize("kind", PLANE_KINDS)
def test_the_plane_menu_leaves_the_left_axis_and_its_numbers_uncovered(qtbot, library_model, width, kind):
    theme().set_zoom(1.0)
    theme().set_mode("light")
    canvas = shipped_library_canvas(qtbot, library_model, size=(width, 600))
    choose_plane(canvas, kind)
    combo = canvas.plane_combo.geometry()
    axis = plot_rect(canvas, canvas.plot.getAxis("left"))
    assert canvas.plane_combo.isVisible()
    assert combo.left() > axis.right(), (combo, axis)  # the tick numbers ("1.5" at the top) stay readable
    assert combo.right() < canvas.fit_button.geometry().left()
    # As wide as the name of the plane shown (elided where there is no room), not as its longest choice.
    metrics = canvas.plane_combo.fontMetrics()
    assert combo.width() <= max(metrics.horizontalAdvance(canvas.plane_combo.currentText()) + 80, 60)
    if kind == "components":
        longest = max((canvas.plane_combo.itemText(i) for i in range(canvas.plane_combo.count())),
                      key=metrics.horizontalAdvance)
        assert combo.width() < metrics.horizontalAdvance(longest)


def test_the_plane_menu_follows_a_wider_left_axis(qtbot, library_model):
    canvas = shipped_library_canvas(qtbot, library_model)
    canvas.view.setRange(xRange=(-2e5, 2e5), yRange=(-1.5e5, 1.5e5), padding=0)  # long tick numbers
    QApplication.processEvents()
    axis = plot_rect(canvas, canvas.plot.getAxis("left"))
    assert canvas.plane_combo.geometry().left() > axis.right()


def test_choosing_another_key_in_its_plane_reframes_when_a_tip_would_be_out_of_view(canvas):
    model = canvas.model
    choose_plane(canvas, "query-key")
    origin = QPointF(widget_point(canvas, 0.0, 0.0))
    viewport = canvas.plot.viewport()
    for _ in range(8):  # the user zooms in on the origin with the wheel: the view no longer follows on its own
        QApplication.sendEvent(viewport, QWheelEvent(origin, QPointF(viewport.mapToGlobal(origin)), QPoint(0, 0),
                                                     QPoint(0, 120), Qt.MouseButton.NoButton,
                                                     Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase,
                                                     False))
    QApplication.processEvents()
    assert not canvas._auto_fit
    (left, right), (bottom, top) = canvas.view.viewRange()
    assert not all(left < x < right and bottom < y < top for x, y in drawn_tips(canvas))
    model.select_key(2)
    QApplication.processEvents()
    (left, right), (bottom, top) = canvas.view.viewRange()
    for x, y in drawn_tips(canvas):
        assert left < x < right and bottom < y < top


def test_on_a_line_the_names_of_one_point_stack_upwards_clear_of_its_grab_circle(qtbot, library_model):
    theme().set_zoom(1.0)
    theme().set_mode("light")
    library_model.set_d_k(1)  # Q = K1 = K3 = [1]: one point on the axis, names above the tips
    canvas = shipped_library_canvas(qtbot, library_model)
    rects = label_rects(canvas)
    column = [rects["Q"], rects["K1"], rects["K3"]]
    assert [rect.bottom() for rect in column] == sorted((rect.bottom() for rect in column), reverse=True)
    for lower, upper in itertools.pairwise(column):
        assert upper.bottom() == pytest.approx(lower.top(), abs=1)
    handle = canvas.query.handle.sceneBoundingRect()
    for rect in column[1:]:  # stacked away from the tip: downwards they would cover its grab circle
        assert not rect.intersects(handle)
    assert all(shown_rect(canvas).contains(rect) for rect in rects.values())
