"""Pins through the real window: P pins, the ghosts are drawn, the Pins panel shows signed differences, undo, files."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from PySide6.QtCore import QEvent, QPoint, QPointF, Qt
from PySide6.QtGui import QColor, QMouseEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QLabel, QPushButton

from attention_explorer.core.files.presets import DEFAULT_PRESET, load_preset
from attention_explorer.ui.style.pin_style import PIN_HEX


@pytest.fixture(scope="module")
def shared_window(make_module_window):
    """One window for the module (a window costs about a second to build)."""
    return make_module_window(record_errors=True, discard_changes=True)


@pytest.fixture
def window(shared_window, qtbot):
    """The shared window on a fresh default example: no pins, no history, no errors, the Pins panel closed."""
    shared_window.document.open_scenario(load_preset(DEFAULT_PRESET))
    shared_window.model.undo_stack.clear()
    shared_window.model.set_step_through(False)
    shared_window.pinning.dock.hide()
    shared_window.errors.clear()
    shared_window.activateWindow()  # plain keys (P, Page Down) act in the active window only
    qtbot.waitUntil(shared_window.isActiveWindow, timeout=2000)
    shared_window.canvas.setFocus()
    return shared_window


def status(window) -> str:
    return window.findChild(QLabel, "statusHint").text()


def table_rows(window) -> dict[str, list[str]]:
    """The Pins panel's visible texts: row name → the other cells of its row (once it shows the latest edit)."""
    for _ in range(200):  # at most the table's update interval, 50 ms
        if not window.pinning.table.update_pending():
            break
        QTest.qWait(5)
    model = window.pinning.table.comparison
    rows = {}
    for row in range(model.rowCount()):
        cells = [model.index(row, column).data() for column in range(model.columnCount())]
        rows[cells[0]] = cells[1:]
    return rows


def header(window) -> list[str]:
    model = window.pinning.table.comparison
    return [model.headerData(c, Qt.Orientation.Horizontal) for c in range(model.columnCount())]


def press_p(qtbot, window) -> None:
    qtbot.keyClick(window.canvas, Qt.Key.Key_P)


def colour_pixels(image, hex_colour: str, tolerance: int = 40) -> int:
    """How many pixels of `image` are close to `hex_colour`."""
    image = image.convertToFormat(image.Format.Format_RGB32)
    width, height = image.width(), image.height()
    data = np.frombuffer(image.constBits(), dtype=np.uint8, count=image.bytesPerLine() * height)
    pixels = data.reshape(height, image.bytesPerLine())[:, : width * 4].reshape(height, width, 4)
    colour = QColor(hex_colour)
    target = np.array([colour.blue(), colour.green(), colour.red()])
    return int(np.sum(np.all(np.abs(pixels[:, :, :3].astype(int) - target) <= tolerance, axis=2)))


def drag_tip(window, start: tuple[float, float], end: tuple[float, float]) -> None:
    """Drag on the canvas from the tip at `start` to `end` (view coordinates), in a few moves."""
    canvas = window.canvas
    viewport = canvas.plot.viewport()

    def point(x, y) -> QPoint:
        return canvas.plot.mapFromScene(canvas.view.mapViewToScene(QPointF(x, y)))

    QTest.mousePress(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point(*start))
    for step in range(1, 5):
        t = step / 4
        pos = QPointF(point(start[0] + (end[0] - start[0]) * t, start[1] + (end[1] - start[1]) * t))
        QApplication.sendEvent(viewport, QMouseEvent(QEvent.Type.MouseMove, pos, QPointF(viewport.mapToGlobal(pos)),
                                                     Qt.MouseButton.NoButton, Qt.MouseButton.LeftButton,
                                                     Qt.KeyboardModifier.NoModifier))
    QTest.mouseRelease(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point(*end))


def softmax(scores: list[float]) -> list[float]:
    top = max(scores)
    exps = [math.exp(s - top) for s in scores]
    return [e / sum(exps) for e in exps]


def test_p_pins_the_scene_and_every_view_draws_its_ghost(qtbot, window):
    model = window.model
    assert not window.pinning.dock.isVisible()
    press_p(qtbot, window)
    assert [pin.number for pin in model.pins] == [1]
    assert status(window).startswith("Pinned as Pin 1")
    qtbot.waitUntil(window.pinning.dock.isVisible)
    # The chart: pin 1's outlined bars, at the pinned weights, visible on screen in the pin's colour.
    weights_ghosts = window.pinning.ghosts[1]
    assert weights_ghosts.bars[0].isVisible()
    assert weights_ghosts.bars[0].opts["height"].tolist() == model.pins[0].result.weights.tolist()
    assert weights_ghosts.legend.isVisible() and "Pin 1" in weights_ghosts.legend.text()
    assert colour_pixels(window.weights_chart.plot.grab().toImage(), PIN_HEX[0]) > 20
    # The output view: a hollow star at the pinned output, named.
    output_ghosts = window.pinning.ghosts[2]
    x, y = output_ghosts.stars[0].getData()
    assert (float(x[0]), float(y[0])) == tuple(model.pins[0].result.output.tolist())
    assert output_ghosts.names[0].isVisible() and output_ghosts.names[0].textItem.toPlainText() == "Pin 1"
    # The canvas: Q and the keys as faded shafts; the pinned key K2 is moved away, so its ghost shows by itself.
    k2 = tuple(model.scenario.keys[1].tolist())
    drag_tip(window, k2, (-1.5, -0.5))
    assert model.scenario.keys[1].tolist() != list(k2)
    assert model.pins[0].scenario.keys[1].tolist() == list(k2)  # the drag moved the live key, not the pin
    shafts = window.pinning.ghosts[0].shafts[0]
    xs, ys = shafts.getData()
    assert (float(xs[5]), float(ys[5])) == pytest.approx(k2)  # pairs: origin→Q, origin→K1, origin→K2
    assert colour_pixels(window.canvas.plot.grab().toImage(), PIN_HEX[0], tolerance=70) > 20


def test_the_pins_panel_shows_signed_differences_computed_here(qtbot, window):
    model = window.model
    scenario = model.scenario
    press_p(qtbot, window)
    window.scale_controls.findChild(QPushButton, "noScalingButton").click()  # factor 1 instead of 1/√2
    query, keys = scenario.query.tolist(), scenario.keys.tolist()
    scores = [sum(q * k for q, k in zip(query, key)) for key in keys]
    before = softmax([s / math.sqrt(2) for s in scores])
    after = softmax(scores)
    rows = table_rows(window)
    assert header(window) == ["", "now", "Pin 1", "now − Pin 1"]
    assert rows["scale factor"] == ["1.000", f"{1 / math.sqrt(2):.3f}", f"+{1 - 1 / math.sqrt(2):.3f}"]
    assert rows["q·k K1"][2] == "0.000"  # the raw scores do not change with the scale
    for i, label in enumerate(scenario.labels):
        delta = after[i] - before[i]
        sign = "+" if delta > 0 else "\u2212"
        assert rows[f"weight {label}"] == [f"{after[i]:.3f}", f"{before[i]:.3f}", f"{sign}{abs(delta):.3f}"]
    entropy_after = -sum(w * math.log2(w) for w in after)
    entropy_before = -sum(w * math.log2(w) for w in before)
    assert rows["entropy (bits)"][0] == f"{entropy_after:.3f}"
    assert rows["entropy (bits)"][2].startswith("\u2212" if entropy_after < entropy_before else "+")
    assert "output 1" in rows and rows["θ K1"][2] == "0.0°"


def test_pins_are_undone_and_redone_from_the_keyboard_and_listed_in_history(qtbot, window):
    model = window.model
    press_p(qtbot, window)
    press_p(qtbot, window)
    assert [pin.number for pin in model.pins] == [1, 2]
    history = window.history.model()
    names = [history.index(row, 0).data() for row in range(history.rowCount())]
    assert names[-2:] == ["Pin 1", "Pin 2"]
    qtbot.keyClick(window.canvas, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert [pin.number for pin in model.pins] == [1]
    assert not window.pinning.ghosts[1].bars[1].isVisible()
    qtbot.keyClick(window.canvas, Qt.Key.Key_Y, Qt.KeyboardModifier.ControlModifier)
    assert [pin.number for pin in model.pins] == [1, 2]
    assert window.pinning.ghosts[1].bars[1].isVisible()
    assert header(window)[4:] == ["Pin 2", "now − Pin 2"]


def test_a_fourth_pin_is_refused_in_the_status_bar_and_a_pin_is_removed_by_its_button(qtbot, window):
    model = window.model
    for _ in range(3):
        press_p(qtbot, window)
    count = model.undo_stack.count()
    press_p(qtbot, window)
    assert len(model.pins) == 3 and model.undo_stack.count() == count
    assert status(window).startswith("Three pins at most")
    window.pinning.table.findChild(QPushButton, "removePin0").click()
    assert [pin.number for pin in model.pins] == [2, 3]
    press_p(qtbot, window)  # the free number comes back first
    assert [pin.number for pin in model.pins] == [2, 3, 1]
    window.actions_by_name["removePins"].trigger()
    assert model.pins == () and not window.pinning.ghosts[1].legend.isVisible()


def test_pins_survive_save_and_open(qtbot, window, tmp_path):
    model = window.model
    press_p(qtbot, window)
    model.set_scale(1.0)
    model.add_pin("no scaling")
    model.set_vector("key", 0, [0.25, -2.0])
    saved_scenario, saved_pins, shown = model.scenario, model.pins, table_rows(window)
    path = tmp_path / "pinned.json"
    window.document.save(path)
    assert [pin["number"] for pin in json.loads(path.read_text(encoding="utf-8"))["pins"]] == [1, 2]
    window.open_preset(DEFAULT_PRESET)
    assert model.pins == () and not window.pinning.ghosts[1].bars[0].isVisible()
    assert window.open_file(str(path), ask=False)
    assert model.pins == saved_pins and model.scenario == saved_scenario
    assert header(window) == ["", "now", "Pin 1", "now − Pin 1", "no scaling", "now − no scaling"]
    assert table_rows(window) == shown
    assert window.pinning.ghosts[1].bars[1].isVisible() and "no scaling" in window.pinning.ghosts[1].legend.text()


def test_a_file_with_hostile_pins_is_refused_with_its_place_and_nothing_changes(window, tmp_path):
    before = window.model.scenario
    document = {"query": [1, 0], "keys": [[1, 0]], "values": [[1, 0]],
                "pins": [{"query": [1, 0], "keys": [[1, 0, 5]], "values": [[1, 0]]}]}
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    assert not window.open_file(str(path), ask=False)
    assert window.errors[-1][1] == "hostile.json: pins[0].keys[0]: expected 2 numbers (d_k = 2), got 3"
    assert window.model.scenario is before


def test_step_through_hides_the_pinned_weights_and_output_until_their_steps(qtbot, window):
    press_p(qtbot, window)
    qtbot.keyClick(window.canvas, Qt.Key.Key_T, Qt.KeyboardModifier.ControlModifier)
    weights, output = window.pinning.ghosts[1], window.pinning.ghosts[2]
    assert not weights.bars[0].isVisible() and not output.stars[0].isVisible()
    for _ in range(2):
        qtbot.keyClick(window.canvas, Qt.Key.Key_PageDown)
    assert weights.bars[0].isVisible() and not output.stars[0].isVisible()
    qtbot.keyClick(window.canvas, Qt.Key.Key_PageDown)
    assert output.stars[0].isVisible()


def test_a_drag_leaves_the_ghost_items_alone(qtbot, window, monkeypatch):
    press_p(qtbot, window)
    calls = []
    for ghosts in window.pinning.ghosts[1:]:
        for item in ghosts.bars:
            monkeypatch.setattr(item, "setOpts", lambda *a, **k: calls.append(a))
    shafts = window.pinning.ghosts[0].shafts[0]
    monkeypatch.setattr(shafts, "setData", lambda *a, **k: calls.append(a))
    k1 = tuple(window.model.scenario.keys[0].tolist())
    drag_tip(window, k1, (0.2, 1.4))
    assert window.model.scenario.keys[0].tolist() != list(k1) and calls == []
