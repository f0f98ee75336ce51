"""View ▸ Presentation (F5) at a projector's 1280×720: the canvas large, the charts beside it, the desk back after."""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication

from attention_explorer.ui.window.presentation import DESK_ONLY_DOCKS


@pytest.fixture
def window(make_window):
    return make_window(discard_changes=True, focus_canvas=True)


def _shown(window) -> dict[str, bool]:
    """Which docks are on screen (a tab behind another counts as not)."""
    return {name: not dock.visibleRegion().isEmpty() for name, dock in window.docks.items()}


def _geometries(window) -> dict[str, tuple]:
    return {name: dock.geometry().getRect() for name, dock in window.docks.items() if dock.isVisible()}


def _drag(qtbot, slider, fraction: float) -> None:
    """Press on the slider's handle and drag it to `fraction` of its groove."""
    from PySide6.QtWidgets import QStyle, QStyleOptionSlider

    option = QStyleOptionSlider()
    slider.initStyleOption(option)
    handle = slider.style().subControlRect(QStyle.ComplexControl.CC_Slider, option,
                                           QStyle.SubControl.SC_SliderHandle, slider)
    qtbot.mousePress(slider, Qt.MouseButton.LeftButton, pos=handle.center())
    for step in range(1, 6):
        x = handle.center().x() + (slider.width() * fraction - handle.center().x()) * step / 5
        qtbot.mouseMove(slider, QPoint(int(x), handle.center().y()))
    qtbot.mouseRelease(slider, Qt.MouseButton.LeftButton, pos=QPoint(slider.width() - 1, handle.center().y()))


def _readout_pt(window) -> float:
    return float(re.search(r"font-size:([\d.]+)pt", window.canvas.readout.text()).group(1))


def test_f5_gives_the_canvas_half_the_window_and_esc_brings_the_desk_back_exactly(window, qtbot):
    desk_shown, desk_geometries, desk_pt = _shown(window), _geometries(window), _readout_pt(window)
    qtbot.keyClick(window.canvas, Qt.Key.Key_F5)
    QApplication.processEvents()
    assert window.presenting and window.actions_by_name["presentation"].isChecked()
    shown = _shown(window)
    assert not any(shown[name] for name in DESK_ONLY_DOCKS)
    assert shown["weightsChart"] and shown["outputView"]
    assert window.docks["stepsView"] in window.tabifiedDockWidgets(window.docks["outputView"])
    window_area = window.width() * window.height()
    assert window.canvas.width() * window.canvas.height() >= 0.5 * window_area
    assert _readout_pt(window) > desk_pt  # the readout in large type
    assert not window.scale_strip.visibleRegion().isEmpty()
    for name in DESK_ONLY_DOCKS:  # still reachable from View ▸ Panels
        assert window.docks[name].toggleViewAction() in window.panels_menu.actions()
    qtbot.keyClick(window.canvas, Qt.Key.Key_Escape)
    QApplication.processEvents()
    assert not window.presenting and not window.actions_by_name["presentation"].isChecked()
    assert _shown(window) == desk_shown
    for name, (x, y, width, height) in _geometries(window).items():  # Qt's first restore of a tab group moves
        expected = desk_geometries[name]                               # its split a little; nothing else moves
        assert abs(x - expected[0]) + abs(width - expected[2]) == 0, name
        assert abs(y - expected[1]) <= 12 and abs(height - expected[3]) <= 14, name
    desk_geometries = _geometries(window)
    assert window.scale_strip.visibleRegion().isEmpty()
    assert _readout_pt(window) == desk_pt
    qtbot.keyClick(window.canvas, Qt.Key.Key_F5)
    qtbot.keyClick(window.canvas, Qt.Key.Key_F5)  # F5 leaves too
    QApplication.processEvents()
    assert not window.presenting and _geometries(window) == desk_geometries


def test_a_turn_in_presentation_leaves_the_canvas_over_half_the_window_height(window, qtbot):
    window.enter_presentation()
    QApplication.processEvents()
    qtbot.keyClick(window.canvas, Qt.Key.Key_Space)
    QApplication.processEvents()
    assert window.animator.running
    assert not window.docks["rotationTrace"].visibleRegion().isEmpty()  # the trace is in front
    assert window.canvas.view.height() >= 0.5 * window.height()
    (left, right), _ = window.canvas.view.viewRange()
    assert right - left < 6  # not re-framed to a tiny far-off picture
    qtbot.keyClick(window.canvas, Qt.Key.Key_Escape)  # stops the turn first
    assert not window.animator.running and window.presenting
    qtbot.keyClick(window.canvas, Qt.Key.Key_Escape)
    assert not window.presenting


def test_the_strip_sets_d_k_and_the_factor_through_the_model_and_shows_what_the_model_holds(window, qtbot):
    window.enter_presentation()
    strip = window.scale_strip
    assert strip.d_k_value.text() == "2" and strip.auto_box.isChecked()
    groove = strip.d_k_slider.rect()
    qtbot.mouseClick(strip.d_k_slider, Qt.MouseButton.LeftButton, pos=groove.center() + QPoint(groove.width() // 3, 0))
    assert window.model.scenario.d_k > 2 and strip.d_k_value.text() == str(window.model.scenario.d_k)
    assert window.scale_controls.d_k_spin.value() == window.model.scenario.d_k  # the full panel agrees
    qtbot.mouseClick(strip.auto_box, Qt.MouseButton.LeftButton)
    assert window.model.scenario.scale is not None and not strip.auto_box.isChecked()
    _drag(qtbot, strip.factor_slider, 1.0)  # to the right end: the largest factor
    assert window.model.result.scale == pytest.approx(10.0)
    assert strip.factor_value.text() == "× 10.000"
    # The clicker's keys stay the lecture's: the strip never takes the keyboard focus.
    assert QApplication.focusWidget() not in (strip.d_k_slider, strip.factor_slider, strip.auto_box)
    for _ in range(3):  # the drag of the factor, the manual mode, the click on the d_k groove
        window.model.undo_stack.undo()
    assert window.model.scenario.d_k == 2 and strip.d_k_value.text() == "2" and strip.auto_box.isChecked()


def test_a_strip_drag_back_to_where_it_began_leaves_no_undo_step(window, qtbot):
    from PySide6.QtWidgets import QStyle, QStyleOptionSlider

    window.enter_presentation()
    slider = window.scale_strip.d_k_slider
    option = QStyleOptionSlider()
    slider.initStyleOption(option)
    handle = slider.style().subControlRect(QStyle.ComplexControl.CC_Slider, option,
                                           QStyle.SubControl.SC_SliderHandle, slider).center()
    qtbot.mousePress(slider, Qt.MouseButton.LeftButton, pos=handle)
    qtbot.mouseMove(slider, handle + QPoint(slider.width() // 3, 0))
    assert window.model.scenario.d_k > 2 and window.model.undo_stack.count() == 1
    qtbot.mouseMove(slider, handle)
    qtbot.mouseRelease(slider, Qt.MouseButton.LeftButton, pos=handle)
    assert window.model.scenario.d_k == 2 and window.scale_strip.d_k_value.text() == "2"
    assert window.model.undo_stack.count() == 0 and not window.model.undo_stack.canUndo()


def test_step_through_in_presentation_brings_the_steps_forward_and_the_output_at_the_last_step(window, qtbot):
    window.enter_presentation()
    qtbot.keyClick(window.canvas, Qt.Key.Key_T, Qt.KeyboardModifier.ControlModifier)
    QApplication.processEvents()
    assert _shown(window)["stepsView"] and not _shown(window)["outputView"]
    for _ in range(3):
        qtbot.keyClick(window.canvas, Qt.Key.Key_PageDown)
    QApplication.processEvents()
    assert _shown(window)["outputView"]
    qtbot.keyClick(window.canvas, Qt.Key.Key_Escape)  # leaves step-through, the presentation stays
    assert not window.model.step_through and window.presenting


def test_closing_while_presenting_keeps_the_desk_layout_for_the_next_start(make_window, tmp_path):
    from PySide6.QtCore import QSettings

    settings = QSettings(str(tmp_path / "kept.ini"), QSettings.Format.IniFormat)
    window = make_window(settings=settings, discard_changes=True)
    desk = window.saveState()
    window.enter_presentation()
    window._save_layout()
    assert settings.value("windowState") == desk


def test_an_open_scoring_panel_steps_aside_in_presentation_and_is_back_beside_the_steps_after(window, qtbot):
    scoring = window.docks["scoringView"]
    scoring.toggleViewAction().trigger()  # View ▸ Panels ▸ Scoring functions: a tab beside the steps
    QApplication.processEvents()
    assert scoring in window.tabifiedDockWidgets(window.docks["stepsView"])
    desk_shown = _shown(window)
    qtbot.keyClick(window.canvas, Qt.Key.Key_F5)
    QApplication.processEvents()
    assert not scoring.isVisible() and scoring.toggleViewAction() in window.panels_menu.actions()
    assert window.canvas.width() * window.canvas.height() >= 0.5 * window.width() * window.height()
    qtbot.keyClick(window.canvas, Qt.Key.Key_Escape)
    QApplication.processEvents()
    assert _shown(window) == desk_shown and scoring in window.tabifiedDockWidgets(window.docks["stepsView"])


def test_no_hidden_dock_groups_tab_bar_shows_along_the_window_edge_and_the_desk_gets_its_tabs_back(window):
    """High contrast draws tab bars with white borders: a hidden dock group's bar left under the middle showed as
    white marks along the window's left edge in presentation and on wide labs."""
    from PySide6.QtWidgets import QTabBar

    from attention_explorer.ui.labs.registry import page_index
    from attention_explorer.ui.style.theme import theme

    theme().set_mode("contrast")
    window.actions_by_name["presentation"].trigger()
    for page in (0, page_index("saturation"), page_index("self-attention")):
        window.show_page(page)
        QApplication.processEvents()
        image = window.grab().toImage()
        top = window.menuBar().height()
        edge = {image.pixel(x, y) for x in (0, 1) for y in range(top + 40, image.height() - 40)}
        assert len(edge) == 1, f"page {page}: something is drawn on the window's left edge"
    window.show_page(0)
    window.actions_by_name["presentation"].trigger()
    QApplication.processEvents()
    titles = {window.docks[name].windowTitle() for name in ("vectorEditor", "presetInfo", "historyPanel")}
    bars = [bar for bar in window.findChildren(QTabBar) if bar.parent() is window and bar.isVisible()]
    assert any({bar.tabText(index) for index in range(bar.count())} == titles for bar in bars)
