"""The History panel, read as the user reads it after real drags and edits: names, final values, language."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, QPoint, QPointF, QSettings, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMessageBox, QSlider, QStyle, QStyleOptionSlider

from attention_explorer.app import create_window
from tests.ui.canvas.test_vector_canvas import drag
from tests.ui.widget_helpers import type_into_cell


@pytest.fixture
def window(qtbot, tmp_path):
    """A main window on the default example, shown at a projector's size."""
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    win = create_window(settings=settings)
    win.ask_unsaved_changes = lambda: QMessageBox.StandardButton.Discard
    qtbot.addWidget(win)
    win.resize(1280, 720)
    win.show()
    qtbot.waitExposed(win)
    win.canvas.plot.scene().minDragTime = 0
    QApplication.processEvents()
    yield win
    win.actions_by_name["lang_en"].trigger()


def history_lines(window) -> list[str]:
    """The lines the History list shows, top to bottom (what its view paints for each row)."""
    view = window.history
    model = view.model()
    QApplication.processEvents()
    return [model.data(model.index(row, 0), Qt.ItemDataRole.DisplayRole) for row in range(model.rowCount())]


def handle_centre(slider: QSlider) -> QPoint:
    """Where the slider's handle is drawn."""
    option = QStyleOptionSlider()
    slider.initStyleOption(option)
    return slider.style().subControlRect(QStyle.ComplexControl.CC_Slider, option,
                                         QStyle.SubControl.SC_SliderHandle, slider).center()


def mouse_drag(widget, start: QPoint, end: QPoint, steps: int = 6) -> None:
    """Press on `start`, move in steps to `end` with the button held, release there."""
    QTest.mousePress(widget, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, start)
    for step in range(1, steps + 1):
        point = QPointF(start + (end - start) * (step / steps))
        QApplication.sendEvent(widget, QMouseEvent(QEvent.Type.MouseMove, point, widget.mapToGlobal(point),
                                                   Qt.MouseButton.NoButton, Qt.MouseButton.LeftButton,
                                                   Qt.KeyboardModifier.NoModifier))
    QTest.mouseRelease(widget, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, end)


def test_dragging_a_key_is_listed_by_its_own_name(window):
    key = window.model.scenario.keys[0]
    drag(window.canvas, tuple(key[:2]), (key[0] * 0.5, key[1] * 0.5 + 0.3))
    assert history_lines(window)[-1] == "Move K1"
    assert window.edit_menu.actions()[0].text() == "&Undo Move K1"


def test_typing_a_key_component_is_listed_by_the_keys_name(window):
    type_into_cell(window.editor, 1, 1, "0.25")
    assert window.model.scenario.keys[0][0] == pytest.approx(0.25)
    assert history_lines(window)[-1] == "Edit K1"


def test_a_scale_drag_is_listed_with_the_value_it_ended_at(window):
    controls = window.scale_controls
    slider = controls.factor_slider
    start = handle_centre(slider)
    mouse_drag(slider, start, QPoint(slider.width() // 6, start.y()))  # far to the left: a small factor
    final = window.model.scenario.scale
    assert final is not None and final < 0.5
    lines = history_lines(window)
    assert lines[-1] == f"Scale × {final:.3g}", lines
    assert sum(line.startswith("Scale") for line in lines) == 1  # one gesture, one line
    window.edit_menu.aboutToShow.emit()
    assert window.actions_by_name["undo"].text() == f"&Undo Scale × {final:.3g}"


def test_history_follows_a_language_switch(window):
    key = window.model.scenario.keys[1]
    drag(window.canvas, tuple(key[:2]), (key[0] + 0.3, key[1] - 0.2))
    assert history_lines(window)[-1] == "Move K2"
    window.actions_by_name["lang_zh_CN"].trigger()
    QApplication.processEvents()
    lines = history_lines(window)
    assert lines[-1] == "移动 K2"
    assert lines[0] != "<opened>"  # the starting state too
    window.actions_by_name["lang_en"].trigger()
    QApplication.processEvents()
    assert history_lines(window)[-1] == "Move K2"
