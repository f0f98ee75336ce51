"""The vector canvas, driven with real mouse events on its plot: drags, modifiers, readout, notes, Fit."""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6.QtCore import QEvent, QPoint, QPointF, QRectF, Qt
from PySide6.QtGui import QMouseEvent, QTextDocument, QWheelEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from attention_explorer.core.limits import MAX_ABS
from attention_explorer.ui.canvas.drag import clamp_to_format, drag_target
from attention_explorer.ui.canvas.vector_canvas import VectorCanvas
from attention_explorer.ui.panels.history import HistoryView
from attention_explorer.ui.style.theme import theme
from attention_explorer.ui.widgets.fast_items import DOCUMENT_MARGIN, QuickText
from tests.ui.widget_helpers import show_widget, type_into_cell

NO_MODIFIER = Qt.KeyboardModifier.NoModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier
CTRL = Qt.KeyboardModifier.ControlModifier


def make_canvas(qtbot, model) -> VectorCanvas:
    theme().set_zoom(1.0)
    theme().set_mode("light")
    canvas = VectorCanvas(model)
    qtbot.addWidget(canvas)
    canvas.resize(800, 600)
    canvas.show()
    qtbot.waitExposed(canvas)
    canvas.plot.scene().minDragTime = 0
    canvas.fit()
    QApplication.processEvents()
    return canvas


@pytest.fixture
def canvas(qtbot, model):
    return make_canvas(qtbot, model)


def widget_point(canvas: VectorCanvas, x: float, y: float) -> QPoint:
    """The viewport pixel showing view point (x, y)."""
    return canvas.plot.mapFromScene(canvas.view.mapViewToScene(QPointF(x, y)))


def press(canvas, x, y, modifiers=NO_MODIFIER) -> None:
    QTest.mousePress(canvas.plot.viewport(), Qt.MouseButton.LeftButton, modifiers, widget_point(canvas, x, y))


def move(canvas, x, y, modifiers=NO_MODIFIER, buttons=Qt.MouseButton.LeftButton) -> None:
    viewport = canvas.plot.viewport()
    pos = QPointF(widget_point(canvas, x, y))
    event = QMouseEvent(QEvent.Type.MouseMove, pos, QPointF(viewport.mapToGlobal(pos)), Qt.MouseButton.NoButton,
                        buttons, modifiers)
    QApplication.sendEvent(viewport, event)


def release(canvas, x, y, modifiers=NO_MODIFIER) -> None:
    QTest.mouseRelease(canvas.plot.viewport(), Qt.MouseButton.LeftButton, modifiers, widget_point(canvas, x, y))


def drag(canvas, start, end, modifiers=NO_MODIFIER, steps=4) -> None:
    """Press at `start` (a tip), move in `steps` straight steps to `end`, release there."""
    press(canvas, *start, modifiers)
    for step in range(1, steps + 1):
        t = step / steps
        move(canvas, start[0] + (end[0] - start[0]) * t, start[1] + (end[1] - start[1]) * t, modifiers)
    release(canvas, *end, modifiers)


def pixel(canvas) -> float:
    """View units per screen pixel (aspect locked: the same on both axes)."""
    return canvas.view.viewPixelSize()[0]


def readout_text(canvas) -> str:
    document = QTextDocument()
    document.setHtml(canvas.readout.text())
    return document.toPlainText().replace("\u00a0", " ")


def expected_numbers(query: np.ndarray, key: np.ndarray) -> dict[str, str]:
    """The readout's numbers, computed here independently of the core."""
    dot = float(np.dot(query, key))
    q_norm, k_norm = float(np.linalg.norm(query)), float(np.linalg.norm(key))
    cosine = dot / (q_norm * k_norm)
    return {"dot": f"{dot:.3f}", "q": f"{q_norm:.3f}", "k": f"{k_norm:.3f}", "cos": f"{cosine:.3f}",
            "angle": f"{math.degrees(math.acos(cosine)):.1f}°", "product": f"{q_norm * k_norm * cosine:.3f}"}


def assert_readout_shows(canvas, query, key) -> None:
    text = readout_text(canvas)
    numbers = expected_numbers(np.asarray(query), np.asarray(key))
    assert f"θ = {numbers['angle']}" in text
    assert f"cos θ = {numbers['cos']}" in text
    assert f"∣Q∣ = {numbers['q']}" in text
    label = canvas.model.scenario.labels[canvas.model.selected_key]
    assert f"∣{label}∣ = {numbers['k']}" in text
    assert f"Q·{label} = {numbers['dot']}" in text
    assert f"cos θ = {numbers['q']} × {numbers['k']} × {numbers['cos']} = {numbers['product']}" in text
    assert "nan" not in text.lower()


# ---------------------------------------------------------------- dragging


def test_dragging_k2_moves_it_live_updates_the_readout_and_undoes_in_one_step(canvas, model):
    before = model.scenario.keys.copy()
    start = tuple(before[1])
    end = (1.4, 0.6)
    steps_before = model.undo_stack.count()
    press(canvas, *start)
    move(canvas, 0.2, 1.2)
    # Live: the model already holds the new K2 while the button is still down.
    assert model.scenario.keys[1] == pytest.approx([0.2, 1.2], abs=2 * pixel(canvas))
    assert model.selected_key == 1  # grabbing a key selects it
    move(canvas, 0.9, 0.9)
    move(canvas, *end)
    release(canvas, *end)

    moved = model.scenario.keys[1]
    assert moved == pytest.approx(end, abs=2 * pixel(canvas))
    np.testing.assert_array_equal(np.delete(model.scenario.keys, 1, axis=0), np.delete(before, 1, axis=0))
    assert_readout_shows(canvas, model.scenario.query, moved)
    # The arrow's handle sits on the new tip.
    assert tuple(canvas._keys[1].handle.pos()) == pytest.approx(tuple(moved))

    assert model.undo_stack.count() == steps_before + 1
    model.undo_stack.undo()
    np.testing.assert_array_equal(model.scenario.keys, before)


def test_a_drag_through_its_start_keeps_one_history_line_and_back_at_the_start_leaves_none(qtbot, canvas, model):
    """Mid-drag the History list never changes (it used to lose and regain the line at the start point)."""
    history = HistoryView(model)
    qtbot.addWidget(history)
    history.show()
    start = tuple(model.scenario.keys[1])
    rows = []
    model.undo_stack.indexChanged.connect(lambda _index: rows.append(history.model().rowCount()))
    press(canvas, *start)
    for point in [(0.2, 1.2), start, (0.9, 0.9), start, (1.4, 0.6), start]:
        move(canvas, *point)
        assert history.model().rowCount() == 2  # "<empty>" and the drag's step, at the start point too
    assert model.scenario.keys[1].tolist() == list(start)
    release(canvas, *start)
    assert model.scenario.keys[1].tolist() == list(start)
    assert history.model().rowCount() == 1 and not model.undo_stack.canUndo()
    assert rows == [2, 1]  # one line added at the first move, removed at the release


def test_dragging_q_moves_the_query(canvas, model):
    keys = model.scenario.keys.copy()
    drag(canvas, tuple(model.scenario.query), (-0.5, 1.5))
    assert model.scenario.query == pytest.approx([-0.5, 1.5], abs=2 * pixel(canvas))
    np.testing.assert_array_equal(model.scenario.keys, keys)
    assert_readout_shows(canvas, model.scenario.query, model.scenario.keys[model.selected_key])


def test_shift_snaps_the_angle_to_15_degree_steps(canvas, model):
    target = (1.6 * math.cos(math.radians(50)), 1.6 * math.sin(math.radians(50)))
    drag(canvas, tuple(model.scenario.keys[0]), target, SHIFT)
    x, y = model.scenario.keys[0]
    assert math.degrees(math.atan2(y, x)) == pytest.approx(45.0, abs=1e-9)
    assert math.hypot(x, y) == pytest.approx(1.6, abs=3 * pixel(canvas))


def test_ctrl_keeps_the_length(canvas, model):
    length = float(np.linalg.norm(model.scenario.keys[2]))
    drag(canvas, tuple(model.scenario.keys[2]), (-1.9, 0.4), CTRL)
    x, y = model.scenario.keys[2]
    assert math.hypot(x, y) == pytest.approx(length, rel=1e-12)
    assert math.degrees(math.atan2(y, x)) == pytest.approx(math.degrees(math.atan2(0.4, -1.9)), abs=1.0)


def test_shift_and_ctrl_together_snap_and_keep_the_length(canvas, model):
    length = float(np.linalg.norm(model.scenario.query))
    drag(canvas, tuple(model.scenario.query), (0.3, 2.2), SHIFT | CTRL)
    x, y = model.scenario.query
    assert math.hypot(x, y) == pytest.approx(length, rel=1e-12)
    assert math.degrees(math.atan2(y, x)) == pytest.approx(75.0, abs=1e-9)


def test_clicking_a_tip_selects_that_key(canvas, model):
    keys = model.scenario.keys.copy()
    QTest.mouseClick(canvas.plot.viewport(), Qt.MouseButton.LeftButton, NO_MODIFIER,
                     widget_point(canvas, *model.scenario.keys[2]))
    assert model.selected_key == 2
    np.testing.assert_array_equal(model.scenario.keys, keys)
    assert "K3" in readout_text(canvas)
    assert canvas._keys[2].label.textItem.font().bold()
    assert not canvas._keys[0].label.textItem.font().bold()
    assert canvas._keys[2].line.opts["pen"].widthF() > canvas._keys[0].line.opts["pen"].widthF()


def test_hovering_a_tip_emits_a_hint(canvas, model):
    hints: list[str] = []
    canvas.hint.connect(hints.append)
    move(canvas, *model.scenario.keys[1], buttons=Qt.MouseButton.NoButton)
    assert hints and "K2" in hints[-1] and "Shift" in hints[-1]
    move(canvas, -1.8, -1.5, buttons=Qt.MouseButton.NoButton)
    assert hints[-1] == ""


# ---------------------------------------------------------------- dimensions


def test_dk_4_says_it_shows_two_components_and_drags_only_those(qtbot, library_model):
    canvas = make_canvas(qtbot, library_model)
    # The example opens in the plane of Q and K1 (components 0 and 1 draw Q and K3 on one point): choose them.
    canvas.plane_combo.setCurrentIndex(canvas.plane_combo.findData("components"))
    assert canvas.note.isVisible()
    assert "components 0 and 1" in canvas.note.text() and "d_k = 4" in canvas.note.text()
    library_model.select_key(1)
    before = library_model.scenario.keys.copy()
    drag(canvas, (before[1][0], before[1][1]), (0.8, 0.6))
    moved = library_model.scenario.keys[1]
    assert moved[:2] == pytest.approx([0.8, 0.6], abs=2 * pixel(canvas))
    np.testing.assert_array_equal(moved[2:], before[1][2:])  # components 2 and 3 untouched
    # The readout's numbers are the exact 4-dimensional ones.
    assert_readout_shows(canvas, library_model.scenario.query, moved)


def test_dk_1_draws_on_the_axis_and_drags_component_0(canvas, model):
    model.set_d_k(1)
    assert not canvas.note.isHidden() and "d_k = 1" in canvas.note.text()
    assert tuple(canvas._keys[0].handle.pos()) == pytest.approx((1.2, 0.0))
    drag(canvas, (1.2, 0.0), (-0.7, 0.9))
    assert model.scenario.keys[0] == pytest.approx([-0.7], abs=2 * pixel(canvas))
    assert tuple(canvas._keys[0].handle.pos())[1] == 0.0


def test_dk_2_has_no_dimension_note(canvas):
    assert canvas.note.isHidden()


# ---------------------------------------------------------------- edge cases


def test_dragging_a_key_onto_the_origin_shows_theta_undefined(canvas, model):
    drag(canvas, tuple(model.scenario.keys[1]), (0.0, 0.0))
    np.testing.assert_array_equal(model.scenario.keys[1], [0.0, 0.0])
    assert model.selected_key == 1
    text = readout_text(canvas)
    assert "θ undefined" in text
    assert "nan" not in text.lower() and "None" not in text
    assert "Q·K2 = 0.000" in text
    assert not canvas.arc.isVisible()
    assert float(np.sum(model.result.weights)) == pytest.approx(1.0)


def test_clamping_function():
    assert clamp_to_format(2e6, -3e6) == (MAX_ABS, -MAX_ABS, True)
    assert clamp_to_format(0.5, -0.25) == (0.5, -0.25, False)
    # Modifiers: snapping and keeping the length.
    x, y = drag_target(1.0, 1.1, 2.0, 0.0, snap=True, keep_length=True)
    assert (x, y) == pytest.approx((2.0 * math.cos(math.radians(45)), 2.0 * math.sin(math.radians(45))))
    assert drag_target(0.0, 1.0, 1.0, 0.0, snap=True, keep_length=False) == (0.0, 1.0)  # no -0.000 or 6e-17


def test_dragging_far_beyond_the_format_limit_is_clamped_with_a_note(canvas, model):
    canvas.view.setRange(xRange=(-3.2e6, 3.2e6), yRange=(-3.2e6, 3.2e6), padding=0)
    QApplication.processEvents()
    assert model.selected_key == 0  # on top of the others where all tips meet at this zoom
    press(canvas, *model.scenario.keys[0])
    move(canvas, 1.5e6, 0.0)
    move(canvas, 3.0e6, 2.9e6)
    assert canvas.message.isVisible() and "1000000" in canvas.message.text()
    release(canvas, 3.0e6, 2.9e6)
    np.testing.assert_array_equal(model.scenario.keys[0], [MAX_ABS, MAX_ABS])
    assert "nan" not in readout_text(canvas).lower()
    assert "inf" not in readout_text(canvas).lower()


def test_fit_button_shows_every_tip_and_the_unit_circle(qtbot, canvas, model):
    model.set_vector("key", 2, [4.0, -3.0])
    canvas.view.setRange(xRange=(10, 11), yRange=(10, 11), padding=0)
    QApplication.processEvents()
    assert canvas.fit_button.toolTip()
    qtbot.mouseClick(canvas.fit_button, Qt.MouseButton.LeftButton)
    (left, right), (bottom, top) = canvas.view.viewRange()
    scenario = model.scenario
    for x, y in [tuple(scenario.query), *map(tuple, scenario.keys), (1, 1), (-1, -1)]:
        assert left < x < right and bottom < y < top


def test_a_new_scenario_is_fitted(qtbot, canvas, model):
    from attention_explorer.core.files.presets import load_preset

    model.load_scenario(load_preset("saturation-large"))
    (left, right), (bottom, top) = canvas.view.viewRange()
    for x, y in map(tuple, model.scenario.keys[:, :2]):
        assert left < x < right and bottom < y < top
    assert len(canvas._keys) == model.scenario.n


def test_adding_a_key_adds_one_arrow_and_keeps_the_others(canvas, model):
    old_items = [glyph.line for glyph in canvas._keys]
    model.add_pair([0.5, -0.5])
    assert [glyph.line for glyph in canvas._keys[:3]] == old_items
    assert len(canvas._keys) == 4
    assert canvas._keys[3].label.textItem.toPlainText() == model.scenario.labels[3]
    assert tuple(canvas._keys[3].handle.pos()) == pytest.approx((0.5, -0.5))


def test_dark_theme_recolours_the_plot(canvas):
    try:
        theme().set_mode("dark")
        assert canvas.plot.backgroundBrush().color() == theme().background()
        assert canvas.query.color == pg.mkColor(theme().foreground()) or canvas.query.color.lightness() > 128
    finally:
        theme().set_mode("light")
    assert canvas.plot.backgroundBrush().color() == theme().background()


# ---------------------------------------------------------------- framing after edits from elsewhere


def view_rect(canvas):
    """The plot area the user sees, in scene coordinates."""
    return canvas.view.mapRectToScene(canvas.view.boundingRect())


def assert_every_vector_shown(canvas) -> None:
    """Every tip inside the view range, and its grab circle and label on screen (once the frame is drawn)."""
    QApplication.processEvents()
    (left, right), (bottom, top) = canvas.view.viewRange()
    scenario = canvas.model.scenario
    for x, y in [tuple(scenario.query), *map(tuple, scenario.keys)]:
        assert left < x < right and bottom < y < top, ((x, y), canvas.view.viewRange())
    shown = view_rect(canvas)
    for glyph in [canvas.query, *canvas._keys]:
        assert shown.contains(glyph.handle.sceneBoundingRect())
        assert shown.contains(glyph.label.sceneBoundingRect()), glyph.label.textItem.toPlainText()


def test_typing_a_key_beyond_the_view_in_the_table_reframes_the_canvas(qtbot, canvas, model):
    from attention_explorer.ui.panels.vector_editor import VectorEditor

    editor = VectorEditor(model)
    qtbot.addWidget(editor)
    editor.show()
    top = canvas.view.viewRange()[1][1]
    assert top < 3.0  # K2 = [0, 3] would be off the top of the view as it is
    type_into_cell(editor, 2, 1, "0")  # row 2: K2 (below Q and K1); column 1: component 0
    type_into_cell(editor, 2, 2, "3")
    QApplication.processEvents()
    assert tuple(model.scenario.keys[1]) == (0.0, 3.0)
    assert_every_vector_shown(canvas)


def test_undo_and_redo_reframe_when_a_tip_would_be_out_of_view(canvas, model):
    model.set_vector("key", 1, [0.0, 4.0])
    assert_every_vector_shown(canvas)
    canvas.view.setRange(xRange=(-0.5, 0.5), yRange=(-0.5, 0.5), padding=0)  # the user zoomed in on the origin
    QApplication.processEvents()
    model.undo_stack.undo()
    assert tuple(model.scenario.keys[1]) == pytest.approx((-0.6, 1.3))
    assert_every_vector_shown(canvas)
    model.undo_stack.redo()
    assert_every_vector_shown(canvas)


def test_an_edit_that_leaves_every_tip_in_view_keeps_the_view(canvas, model):
    kept = canvas.view.viewRange()
    model.set_vector("key", 0, [0.5, -0.4])
    model.set_vector("query", 0, [-0.3, 0.2])
    assert canvas.view.viewRange() == kept
    origin = QPointF(widget_point(canvas, 0.0, 0.0))
    viewport = canvas.plot.viewport()
    for _ in range(3):  # the user zooms out with the wheel: the view is the user's now, and kept
        QApplication.sendEvent(viewport, QWheelEvent(origin, QPointF(viewport.mapToGlobal(origin)), QPoint(0, 0),
                                                     QPoint(0, -120), Qt.MouseButton.NoButton, NO_MODIFIER,
                                                     Qt.ScrollPhase.NoScrollPhase, False))
    QApplication.processEvents()
    zoomed = canvas.view.viewRange()
    assert zoomed[0][1] > 2.2 and zoomed[1][0] < -2.2
    model.set_vector("key", 2, [2.0, -2.0])
    assert canvas.view.viewRange() == zoomed


def test_a_drag_past_the_edge_of_the_view_never_moves_the_view_until_the_release(canvas, model):
    kept = canvas.view.viewRange()
    (_, _), (_, top) = kept
    start = tuple(model.scenario.keys[1])
    beyond = (start[0], top + 40 * pixel(canvas))  # above the plot: the mouse left it, the drag goes on
    press(canvas, *start)
    for t in (0.25, 0.5, 0.75, 1.0):
        move(canvas, start[0], start[1] + (beyond[1] - start[1]) * t)
        assert canvas.view.viewRange() == kept
    release(canvas, *beyond)
    assert model.scenario.keys[1][1] > top  # the tip did go out of view, with the mouse
    # Released, no tip may stay out of reach: the view frames everything again (and then keeps still).
    assert_every_vector_shown(canvas)
    framed = canvas.view.viewRange()
    model.select_key(0)  # not an edit: no reason to move
    assert canvas.view.viewRange() == framed


# ---------------------------------------------------------------- names clear of the arrows


def letters_rect(label: QuickText) -> QRectF:
    """A text's letters on screen (scene coordinates): its box less the empty margin a text document keeps round it."""
    text = label.textItem
    margin = DOCUMENT_MARGIN
    return text.mapRectToScene(text.boundingRect().adjusted(margin, margin, -margin, -margin))


def segment_crosses(start: QPointF, end: QPointF, half_width: float, rect: QRectF) -> bool:
    """Whether a line from `start` to `end`, `half_width` wide on each side, crosses `rect` (Liang–Barsky clipping
    of the segment against the rectangle grown by the half width)."""
    grown = rect.adjusted(-half_width, -half_width, half_width, half_width)
    dx, dy = end.x() - start.x(), end.y() - start.y()
    low, high = 0.0, 1.0
    for p, q in ((-dx, start.x() - grown.left()), (dx, grown.right() - start.x()),
                 (-dy, start.y() - grown.top()), (dy, grown.bottom() - start.y())):
        if p == 0:
            if q < 0:
                return False  # parallel to this edge and outside it
        elif p < 0:
            low = max(low, q / p)
        else:
            high = min(high, q / p)
    return low < high


def circle_crosses(centre: QPointF, radius: float, rect: QRectF) -> bool:
    nearest_x = min(max(centre.x(), rect.left()), rect.right())
    nearest_y = min(max(centre.y(), rect.top()), rect.bottom())
    return math.hypot(centre.x() - nearest_x, centre.y() - nearest_y) < radius


def what_covers(canvas: VectorCanvas) -> list[str]:
    """Every name (Q's, each key's) whose letters lie on another arrow's line, another arrow's grab circle or
    another text (a name or the angle), as the user sees the canvas.

    The angle's number is only checked against the names: it belongs between Q's arrow and the selected key's,
    where other arrows may pass, on a backing that keeps it readable over them."""
    canvas.plot.grab()  # painted: a TextItem fits its transform to the view when painted
    names = ["Q", *canvas.model.scenario.labels]
    glyphs = [canvas.query, *canvas._keys]
    origin = canvas.view.mapViewToScene(QPointF(0.0, 0.0))
    arrows = []
    for name, glyph in zip(names, glyphs):
        tip = canvas.view.mapViewToScene(glyph.handle.pos())
        ring = glyph.handle.pen.widthF() / 2
        arrows.append((name, tip, glyph.line.opts["pen"].widthF() / 2, glyph.handle.scale / 2 + ring))
    texts = {name: letters_rect(glyph.label) for name, glyph in zip(names, glyphs)}
    if canvas.arc_label.isVisible():
        texts["angle"] = letters_rect(canvas.arc_label)
    found = []
    for name, rect in texts.items():
        for arrow, tip, half_width, radius in arrows:
            if arrow == name or name == "angle":
                continue
            if segment_crosses(origin, tip, half_width, rect):
                found.append(f"{name} on {arrow}'s line")
            if circle_crosses(tip, radius, rect):
                found.append(f"{name} on {arrow}'s grab circle")
        for other, other_rect in texts.items():
            if other != name and rect.intersects(other_rect):
                found.append(f"{name} on {other}")
    return found


def assert_names_by_their_tips(canvas: VectorCanvas) -> None:
    """Each name is next to its own tip: its letters within 2.5 lines of text of the tip's grab circle."""
    for glyph in [canvas.query, *canvas._keys]:
        tip = canvas.view.mapViewToScene(glyph.handle.pos())
        rect = letters_rect(glyph.label)
        reach = glyph.handle.scale / 2 + 2.5 * rect.height()
        assert circle_crosses(tip, reach, rect), (glyph.label.textItem.toPlainText(), tip, rect)


def preset_canvas(qtbot, preset: str, size=(800, 600), zoom: float = 1.0) -> VectorCanvas:
    from attention_explorer.core.files.presets import load_preset
    from attention_explorer.state.explorer import ExplorerModel

    theme().set_zoom(zoom)
    return show_widget(qtbot, VectorCanvas(ExplorerModel(load_preset(preset))), size)


@pytest.mark.parametrize(("mode", "zoom"), [("light", 1.0), ("contrast", 1.0), ("light", 1.5)])
def test_no_name_lies_on_another_arrow_its_grab_circle_or_another_text(qtbot, mode, zoom):
    # code-review: "other tests" (a zero vector) and "config" have their tips by the origin, where the other arrows
    # start: their names lay across Q's and "call chain"'s lines. aligned: K1's name sat on Q's line.
    from attention_explorer.core.files.presets import load_preset

    theme().set_mode(mode)
    try:
        # Presentation zoom is for a projector: a bigger window. One canvas opens each example in turn.
        canvas = preset_canvas(qtbot, "code-review", (800, 600) if zoom == 1.0 else (1100, 850), zoom)
        for preset in ["code-review", "aligned", "drag-2d", "orthogonal", "saturation-small"]:
            canvas.model.load_scenario(load_preset(preset))
            QApplication.processEvents()
            for selected in range(canvas.model.scenario.n):
                canvas.model.select_key(selected)
                covered = what_covers(canvas)
                assert covered == [], (preset, selected, covered)
                assert_names_by_their_tips(canvas)
    finally:
        theme().set_mode("light")
        theme().set_zoom(1.0)


def test_names_with_room_beyond_their_tips_stay_there(qtbot):
    # The drag-2d example has nothing in the way: every name sits beyond its tip along its arrow, as it always did.
    canvas = preset_canvas(qtbot, "drag-2d")
    canvas.plot.grab()
    scenario = canvas.model.scenario
    for glyph, (x, y) in zip([canvas.query, *canvas._keys], [tuple(scenario.query), *map(tuple, scenario.keys)]):
        length = math.hypot(x, y)
        ux, uy = x / length, y / length
        tip = canvas.view.mapViewToScene(QPointF(x, y))
        assert tuple(glyph.label.anchor) == pytest.approx((0.5 - 0.5 * ux, 0.5 + 0.5 * uy))
        where = canvas.view.mapViewToScene(glyph.label.pos())
        assert (where.x() - tip.x(), where.y() - tip.y()) == pytest.approx((14 * ux, -14 * uy), abs=0.5)


def test_dragging_a_key_across_the_others_keeps_the_names_clear_where_there_is_room(qtbot):
    canvas = preset_canvas(qtbot, "drag-2d")
    canvas.plot.scene().minDragTime = 0
    model = canvas.model
    start = tuple(model.scenario.keys[1])  # K2, dragged round over Q's and K1's names and lines
    path = [(-0.2, 1.4), (0.6, 1.3), (1.3, 1.0), (1.6, 0.4), (1.4, -0.3), (0.5, -1.2)]
    press(canvas, *start)
    for point in path:
        move(canvas, *point)
        covered = what_covers(canvas)
        assert covered == [], (point, covered)
        assert_names_by_their_tips(canvas)
    release(canvas, *path[-1])
    assert model.scenario.keys[1] == pytest.approx(path[-1], abs=2 * pixel(canvas))


@pytest.mark.parametrize(("preset", "language", "mode"), [
    ("code-review", "en", "light"), ("code-review", "zh_CN", "light"), ("code-review", "en", "dark"),
    ("aligned", "en", "light"), ("drag-2d", "en", "light")])
def test_in_the_window_no_name_lies_on_another_arrow(qtbot, tmp_path, preset, language, mode):
    # As `attention-explorer --screenshot --size 1280x720 --preset code-review` shows it (a projector's size).
    from PySide6.QtCore import QSettings

    from attention_explorer.app import create_window
    from attention_explorer.ui.i18n.switcher import language_switcher

    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    settings.setValue("theme", mode)
    window = create_window(preset, settings=settings)
    qtbot.addWidget(window)
    try:
        language_switcher().set_language(language)
        window.resize(1280, 720)
        window.show()
        qtbot.waitExposed(window)
        QApplication.processEvents()
        assert what_covers(window.canvas) == [], what_covers(window.canvas)
        assert_names_by_their_tips(window.canvas)
    finally:
        language_switcher().set_language("en")
        theme().set_mode("light")


def test_no_hover_search_mid_drag_and_hover_works_again_after_release(canvas, model, monkeypatch):
    scene = canvas.plot.scene()
    searches: list[bool] = []
    search = scene.itemsNearEvent
    monkeypatch.setattr(scene, "itemsNearEvent", lambda *a, **k: searches.append(True) or search(*a, **k))
    start = tuple(model.scenario.keys[1])
    press(canvas, *start)
    move(canvas, start[0] + 0.05, start[1])  # the drag starts here
    searches.clear()
    for step in range(1, 6):
        move(canvas, start[0] + 0.05 + 0.05 * step, start[1] - 0.02 * step)
    assert searches == []  # drag moves skip pyqtgraph's hover search
    assert model.scenario.keys[1][0] == pytest.approx(start[0] + 0.3, abs=3 * pixel(canvas))  # and still drag
    end = tuple(model.scenario.keys[1])
    release(canvas, *end)
    hints: list[str] = []
    canvas.hint.connect(hints.append)
    move(canvas, -1.8, -1.5, buttons=Qt.MouseButton.NoButton)
    move(canvas, *model.scenario.keys[2], buttons=Qt.MouseButton.NoButton)
    assert hints and "K3" in hints[-1]  # hovering is back after the release
