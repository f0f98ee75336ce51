"""The canvas at 512 keys: it draws the selected key and the heaviest ones, says how many it leaves out, and
dragging or selecting still acts on the right key."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QEvent, QPointF, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from attention_explorer.core.scenes.query.scene import Scenario
from attention_explorer.state.explorer import ExplorerModel
from attention_explorer.ui.canvas import drawing_plane
from attention_explorer.ui.canvas.arrow_item import TipHandle
from attention_explorer.ui.canvas.key_pool import MAX_DRAWN_KEYS
from attention_explorer.ui.canvas.vector_canvas import VectorCanvas
from attention_explorer.ui.style.theme import theme

N, D_K = 512, 8


def many_keys() -> Scenario:
    rng = np.random.default_rng(15)
    return Scenario(query=rng.standard_normal(D_K), keys=rng.standard_normal((N, D_K)),
                    values=rng.standard_normal((N, 2)), title="512 keys")


@pytest.fixture(scope="module")
def canvas(qapp):
    theme().set_zoom(1.0)
    theme().set_mode("light")
    model = ExplorerModel(many_keys())
    widget = VectorCanvas(model)
    widget.resize(800, 600)
    widget.show()
    QTest.qWaitForWindowExposed(widget)
    widget.plot.scene().minDragTime = 0
    # Components 0 and 1, chosen in the plane menu: the tips are then the keys' first two numbers.
    widget.plane_combo.setCurrentIndex(widget.plane_combo.findData("components"))
    widget.fit()
    QApplication.processEvents()
    yield widget
    widget.close()
    widget.deleteLater()
    QApplication.processEvents()


def heaviest_expected(scenario: Scenario, selected: int) -> set[int]:
    """The selected key and the others of the largest softmax(K·q/√d_k), computed here with numpy alone."""
    scores = scenario.keys @ scenario.query / np.sqrt(scenario.d_k)
    weights = np.exp(scores - scores.max())
    weights /= weights.sum()
    others = [int(i) for i in np.argsort(-weights) if i != selected][:MAX_DRAWN_KEYS - 1]
    return {selected, *others}


def drawn(canvas) -> dict[str, tuple[float, float]]:
    """Name → grab-circle position of every key arrow visible on the plot (Q left out)."""
    shown = {}
    for item in canvas.plot.items():
        if isinstance(item, TipHandle) and item.isVisible() and item.arrow.role == "key":
            name = item.arrow.label.textItem.toPlainText()
            assert item.arrow.label.isVisible()
            shown[name] = (item.pos().x(), item.pos().y())
    return shown


def widget_point(canvas, x: float, y: float) -> QPointF:
    return QPointF(canvas.plot.mapFromScene(canvas.view.mapViewToScene(QPointF(x, y))))


def test_at_most_the_limit_is_drawn_the_heaviest_with_the_selected_and_a_note_says_how_many(canvas):
    model = canvas.model
    model.select_key(300)
    shown = drawn(canvas)
    assert 8 <= MAX_DRAWN_KEYS <= 40
    assert len(shown) == MAX_DRAWN_KEYS
    labels = model.scenario.labels
    assert set(shown) == {labels[i] for i in heaviest_expected(model.scenario, 300)}
    assert shown[labels[300]] == pytest.approx(tuple(model.scenario.keys[300][:2]))
    assert canvas.note.isVisible()
    text = canvas.note.text()
    assert text.count("Drawn: the selected key") == 1
    assert f"{MAX_DRAWN_KEYS - 1} heaviest" in text
    assert f"of 512 keys; {512 - MAX_DRAWN_KEYS} more are not drawn" in text
    assert "K301" in canvas.readout.text()  # the numbers beside are the selected key's


def test_selecting_a_hidden_key_draws_it_in_its_colour_and_the_readout_follows(canvas):
    model = canvas.model
    weights = model.result.weights
    hidden = int(np.argsort(weights)[0])  # the lightest key: never among the heaviest
    label = model.scenario.labels[hidden]
    assert label not in drawn(canvas)
    model.select_key(hidden)
    shown = drawn(canvas)
    assert len(shown) == MAX_DRAWN_KEYS
    assert shown[label] == pytest.approx(tuple(model.scenario.keys[hidden][:2]))
    arrow = canvas.arrow_of(hidden)
    assert arrow.label.textItem.font().bold()  # drawn as the selected one
    assert arrow.line.opts["pen"].color().name() == arrow.color.name()
    assert f">{label}<" in canvas.readout.text()


def test_dragging_a_drawn_tip_moves_that_key_and_its_arrow(canvas):
    model = canvas.model
    key = int(np.argmax(model.result.weights))
    model.select_key(key)  # on top of the other arrows: the press grabs it
    others_before = np.delete(model.scenario.keys, key, axis=0).copy()
    start = model.scenario.keys[key][:2].copy()
    end = start * 0.5 + np.array([0.3, 0.4])
    viewport = canvas.plot.viewport()
    QTest.mousePress(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     widget_point(canvas, *start).toPoint())
    for t in (0.25, 0.5, 0.75, 1.0):
        point = widget_point(canvas, *(start + (end - start) * t))
        QApplication.sendEvent(viewport, QMouseEvent(
            QEvent.Type.MouseMove, point, QPointF(viewport.mapToGlobal(point)), Qt.MouseButton.NoButton,
            Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier))
    QTest.mouseRelease(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                       widget_point(canvas, *end).toPoint())
    tolerance = 2 * canvas.view.viewPixelSize()[0]
    assert model.scenario.keys[key][:2] == pytest.approx(end, abs=tolerance)
    np.testing.assert_array_equal(np.delete(model.scenario.keys, key, axis=0), others_before)
    shown = drawn(canvas)
    assert shown[model.scenario.labels[key]] == pytest.approx(tuple(model.scenario.keys[key][:2]))
    assert set(shown) == {model.scenario.labels[i] for i in heaviest_expected(model.scenario, key)}


def test_a_drag_move_in_the_plane_of_q_and_a_key_projects_only_the_drawn_keys(canvas, monkeypatch):
    model = canvas.model
    canvas.plane_combo.setCurrentIndex(canvas.plane_combo.findData("query-key"))
    key = int(np.argmax(model.result.weights))
    model.select_key(key)
    start = np.array(canvas.tip_of("key", key))
    viewport = canvas.plot.viewport()
    QTest.mousePress(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     widget_point(canvas, *start).toPoint())
    projected = []
    original = drawing_plane.plane_tips
    monkeypatch.setattr(drawing_plane, "plane_tips",
                        lambda query, keys, basis: projected.append(keys.shape[0]) or original(query, keys, basis))
    before = model.scenario.keys[key].copy()
    point = widget_point(canvas, *(start * 0.8))
    QApplication.sendEvent(viewport, QMouseEvent(
        QEvent.Type.MouseMove, point, QPointF(viewport.mapToGlobal(point)), Qt.MouseButton.NoButton,
        Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier))
    assert not np.array_equal(model.scenario.keys[key], before)  # the move moved the key
    assert projected and max(projected) == MAX_DRAWN_KEYS
    tip = canvas.tip_of("key", key)
    assert (canvas.arrow_of(key).handle.pos().x(), canvas.arrow_of(key).handle.pos().y()) == pytest.approx(tip)
    QTest.mouseRelease(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point.toPoint())
    canvas.plane_combo.setCurrentIndex(canvas.plane_combo.findData("components"))


def test_with_few_keys_again_every_key_is_drawn_in_order_and_the_note_goes(canvas):
    model = canvas.model
    few = Scenario(query=[1.0, 0.5], keys=[[1.0, 0.0], [0.0, 1.0], [-1.0, 0.2]], values=[[1.0], [2.0], [3.0]])
    model.load_scenario(few)
    assert [arrow.label.textItem.toPlainText() for arrow in canvas._keys] == ["K1", "K2", "K3"]
    assert [arrow.index for arrow in canvas._keys] == [0, 1, 2]
    assert tuple(canvas._keys[2].handle.pos()) == pytest.approx((-1.0, 0.2))
    assert not canvas.note.isVisible()
    model.undo_stack.undo()  # back to 512 keys: the limit again
    assert len(drawn(canvas)) == MAX_DRAWN_KEYS
    assert "heaviest of 512 keys" in canvas.note.text()
