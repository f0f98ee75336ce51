"""The assembled window: automation contract, menus, keyboard, files, export, presentation settings."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDockWidget, QLabel, QMessageBox

from attention_explorer.app import create_window
from attention_explorer.core.files.presets import load_preset, preset_names
from attention_explorer.core.scenes.query.file import load as load_scenario_file
from attention_explorer.ui.style.theme import theme

PANELS = ("vectorEditor", "vectorCanvas", "scaleControls", "stepsView", "weightsChart", "outputView")


@pytest.fixture
def settings(tmp_path):
    return QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)


@pytest.fixture(scope="module")
def _shared_window(make_module_window):
    return make_module_window(record_errors=True, discard_changes=True)


@pytest.fixture
def window(request, _shared_window):  # asked for here so it exists before the test's leftover-window check
    """A fresh window; or, for a test marked shared_window, the module's one window put back to its start.

    A shared test may edit the scenario, select keys, switch pages and close docks it reopens; the reset below
    undoes the rest (the labs it built stay built, which is what makes sharing cheap). Tests that depend on a
    first start (panels not yet built, the settings file, recovery, closing) keep their own window.
    """
    if request.node.get_closest_marker("shared_window") is None:
        make_window, settings = request.getfixturevalue("make_window"), request.getfixturevalue("settings")
        yield make_window(settings=settings, record_errors=True, discard_changes=True, focus_canvas=True)
        return
    window = _shared_window
    window.animator.stop()
    theme().set_zoom(1.0)
    theme().set_mode("light")
    window.resize(1280, 720)
    window.show_page(0)
    window.model.load_scenario(load_preset("drag-2d"))
    window.model.undo_stack.clear()
    window.model.undo_stack.setClean()
    window.errors.clear()
    window.activateWindow()  # shortcuts and keys go to the active window only
    assert QTest.qWaitForWindowActive(window)
    window.canvas.setFocus()
    QApplication.processEvents()
    assert window.model.selected_key == 0 and not window.isWindowModified()
    yield window


def key(win, qtbot, key_code, modifier=Qt.KeyboardModifier.NoModifier):
    qtbot.keyClick(win.canvas, key_code, modifier)


@pytest.mark.shared_window
def test_automation_contract(window):
    assert window.objectName() == "mainWindow"
    for name in PANELS:
        assert window.findChild(object, name) is not None, name
    assert len(window.canvas.findChildren(pg.PlotWidget)) + isinstance(window.canvas, pg.PlotWidget) == 1
    assert window.model.scenario == load_preset("drag-2d")
    assert window.windowTitle().endswith("Attention Explorer")


@pytest.mark.shared_window
def test_every_dock_can_be_closed_and_reopened_from_the_view_menu(window):
    for name, dock in window.docks.items():
        toggle = dock.toggleViewAction()
        assert toggle in window.panels_menu.actions()
        if dock.isHidden():
            continue
        toggle.trigger()
        assert dock.isHidden(), name
        toggle.trigger()
        assert not dock.isHidden(), name
        assert dock.features() & QDockWidget.DockWidgetFeature.DockWidgetMovable


@pytest.mark.shared_window
def test_examples_menu_opens_each_preset_and_shows_its_story(window):
    assert [a.objectName() for a in window.examples_menu.actions()] == [f"preset_{n}" for n in preset_names()]
    window.preset_actions["library"].trigger()
    assert window.model.scenario == load_preset("library")
    text = window.preset_info.text_label.text()
    assert "Library lookup" in text and "[1, 0, 1, 0]" in text
    assert not window.docks["presetInfo"].visibleRegion().isEmpty()
    np.testing.assert_allclose(window.model.result.output, [0.492, 0.508], atol=5e-4)


@pytest.mark.shared_window
def test_digit_keys_and_tab_select_keys(window, qtbot):
    key(window, qtbot, Qt.Key.Key_3)
    assert window.model.selected_key == 2
    key(window, qtbot, Qt.Key.Key_Tab)
    assert window.model.selected_key == 0  # wraps around
    key(window, qtbot, Qt.Key.Key_9)  # no ninth key: nothing happens
    assert window.model.selected_key == 0


@pytest.mark.shared_window
def test_arrows_rotate_and_plus_minus_stretch_the_selected_key(window, qtbot):
    before = np.array(window.model.scenario.keys[0])
    key(window, qtbot, Qt.Key.Key_Left)
    after = window.model.scenario.keys[0]
    turned = math.degrees(math.atan2(after[1], after[0]) - math.atan2(before[1], before[0]))
    assert turned == pytest.approx(5.0)
    key(window, qtbot, Qt.Key.Key_Right, Qt.KeyboardModifier.ShiftModifier)
    after = window.model.scenario.keys[0]
    assert math.degrees(math.atan2(after[1], after[0]) - math.atan2(before[1], before[0])) == pytest.approx(4.0)
    length = np.linalg.norm(window.model.scenario.keys[0])
    key(window, qtbot, Qt.Key.Key_Plus)
    assert np.linalg.norm(window.model.scenario.keys[0]) == pytest.approx(length * 1.1)
    key(window, qtbot, Qt.Key.Key_Minus)
    assert np.linalg.norm(window.model.scenario.keys[0]) == pytest.approx(length)
    window.actions_by_name["undo"].trigger()
    window.actions_by_name["undo"].trigger()
    window.actions_by_name["undo"].trigger()
    window.actions_by_name["undo"].trigger()
    np.testing.assert_allclose(window.model.scenario.keys[0], before)


def test_keys_typed_into_the_editor_stay_in_the_editor(window, qtbot):
    from PySide6.QtWidgets import QLineEdit

    field = QLineEdit(window.editor)
    field.show()
    field.setFocus()
    selected = window.model.selected_key
    qtbot.keyClicks(field, "3")
    qtbot.keyClick(field, Qt.Key.Key_Left)
    assert field.text() == "3"
    assert window.model.selected_key == selected
    np.testing.assert_array_equal(window.model.scenario.keys, load_preset("drag-2d").keys)


def test_space_plays_a_full_turn_that_is_one_undo_step_and_esc_stops(window, qtbot):
    start = np.array(window.model.scenario.keys[0])
    count = window.model.undo_stack.count()
    assert not window.docks["rotationTrace"].is_built()  # closed at start: built when first shown
    key(window, qtbot, Qt.Key.Key_Space)
    assert window.animator.running
    assert not window.docks["rotationTrace"].isHidden()
    assert window.rotation_trace.plot.isVisible() and window.rotation_trace.caption.text()
    for _ in range(10):
        window.animator.advance()
    assert window.animator.turned_deg == pytest.approx(30.0)
    after = window.model.scenario.keys[0]
    assert not np.allclose(after, start)
    assert np.linalg.norm(after) == pytest.approx(np.linalg.norm(start))
    key(window, qtbot, Qt.Key.Key_Escape)
    assert not window.animator.running
    assert window.model.undo_stack.count() == count + 1
    window.animator.start()
    while window.animator.running:
        window.animator.advance()
    assert window.animator.turned_deg == pytest.approx(360.0)
    # The trace plot draws the core's sweep: the weight curve at the key's direction equals the model's weight.
    xs, ys = window.rotation_trace.weight_curve.getData()
    direction = math.degrees(math.atan2(window.model.scenario.keys[0][1], window.model.scenario.keys[0][0])) % 360
    assert np.interp(direction, xs, ys) == pytest.approx(window.model.result.weights[0], abs=2e-3)


def test_step_through_reveals_one_step_per_key_press(window, qtbot):
    qtbot.keyClick(window.canvas, Qt.Key.Key_T, Qt.KeyboardModifier.ControlModifier)
    assert window.model.step_through and window.model.revealed_steps == 1
    key(window, qtbot, Qt.Key.Key_Right)
    key(window, qtbot, Qt.Key.Key_PageDown)
    assert window.model.revealed_steps == 3
    key(window, qtbot, Qt.Key.Key_Left)
    assert window.model.revealed_steps == 2
    window.actions_by_name["stepThrough"].trigger()
    assert not window.model.step_through and window.model.revealed_steps == 4


def test_save_and_open_round_trip(window, tmp_path, monkeypatch):
    target = tmp_path / "mine.json"
    window.model.set_vector("key", 1, [0.25, -2.5])
    assert window.document.modified and window.windowTitle().startswith("Drag")
    monkeypatch.setattr(window, "ask_save_path", lambda *args: str(tmp_path / "mine"))
    assert window.save()
    assert not window.document.modified
    assert load_scenario_file(target) == window.model.scenario
    saved = window.model.scenario
    window.preset_actions["library"].trigger()
    monkeypatch.setattr(window, "ask_open_path", lambda: str(target))
    window.actions_by_name["open"].trigger()
    assert window.model.scenario == saved
    assert window.windowTitle().startswith("mine.json")
    assert str(target.resolve()) in window.document.recent_files()
    assert "mine.json" in [a.text() for a in window.recent_menu.actions()]


def test_a_corrupt_file_leaves_the_scenario_untouched(window, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"query": [1, 2], "keys": [[1, 2], [3]], "values": [[1], [2]]}', encoding="utf-8")
    before = window.model.scenario
    depth = window.model.undo_stack.count()
    assert not window.open_file(str(bad))
    assert window.model.scenario == before
    assert window.model.undo_stack.count() == depth
    assert window.errors and "keys[1]: expected 2 numbers" in window.errors[-1][1]


def test_dropping_a_file_opens_it(window, tmp_path):
    from PySide6.QtCore import QMimeData, QPointF, QUrl
    from PySide6.QtGui import QDropEvent

    path = tmp_path / "dropped.json"
    path.write_text(json.dumps({"query": [0, 1], "keys": [[1, 0]], "values": [[2]]}), encoding="utf-8")
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(path))])
    event = QDropEvent(QPointF(100, 100), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                       Qt.KeyboardModifier.NoModifier)
    window.dropEvent(event)
    assert window.model.scenario.n == 1 and window.model.scenario.d_v == 1


def test_unsaved_changes_prompt_can_cancel_closing(window, monkeypatch):
    window.model.set_vector("query", 0, [1.0, 1.0])
    asked = []
    monkeypatch.setattr(window, "ask_unsaved_changes",
                        lambda: asked.append(1) or QMessageBox.StandardButton.Cancel)
    assert not window.close()
    assert asked and window.isVisible()
    monkeypatch.setattr(window, "ask_unsaved_changes", lambda: QMessageBox.StandardButton.Discard)
    assert window.close()


def test_recovery_file_restores_after_an_unclean_exit(qtbot, settings, tmp_path, monkeypatch):
    data_dir = tmp_path / "appdata"
    data_dir.mkdir()
    first = create_window(settings=settings)
    qtbot.addWidget(first)
    first.document.data_dir = data_dir
    first.model.set_vector("query", 0, [-1.0, 0.25])
    first.document.write_recovery()
    crashed_scenario = first.model.scenario
    assert first.document.recovery_path.parent == data_dir  # never next to a user's file
    # The first window "dies": its lock is let go without the clean quit's removal of its files.
    first.document._lock.unlock()
    first.document._lock = None
    first.document.data_dir = tmp_path / "elsewhere"
    second = create_window(settings=settings)
    qtbot.addWidget(second)
    second.document.data_dir = data_dir
    monkeypatch.setattr(second, "ask_restore_recovery", lambda *_args: True)
    second.offer_recovery()
    assert second.model.scenario == crashed_scenario
    assert second.document.modified
    monkeypatch.setattr(second, "ask_unsaved_changes", lambda: QMessageBox.StandardButton.Discard)
    second.close()
    assert list(data_dir.iterdir()) == []


@pytest.mark.shared_window
def test_export_each_plot_and_the_window(window, tmp_path):
    for name in ("canvas", "weights", "output"):
        for fmt in ("png", "svg"):
            path = tmp_path / f"{name}.{fmt}"
            window.export_plot(name, str(path))
            assert path.stat().st_size > 500, path
    assert (tmp_path / "canvas.svg").read_text(encoding="utf-8").lstrip().startswith("<?xml")
    window_png = tmp_path / "window.png"
    window.export_window(str(window_png))
    assert window_png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.shared_window
def test_copy_as_markdown_latex_and_numpy(window):
    window.preset_actions["library"].trigger()
    window.actions_by_name["copy_markdown"].trigger()
    markdown = QApplication.clipboard().text()
    assert "| K1 | 2.000 | 1.000 | 2.718 | 0.506 |" in markdown
    window.actions_by_name["copy_latex"].trigger()
    latex = QApplication.clipboard().text()
    assert r"\begin{tabular}" in latex
    # The body, column by column (score, scaled, e^x, weight), by hand: scores 2, 0, 1 ÷ 2; e, 1, √e over 5.367.
    for row in (r"K1 & 2.000 & 1.000 & 2.718 & 0.506 \\", r"K2 & 0.000 & 0.000 & 1.000 & 0.186 \\",
                r"K3 & 1.000 & 0.500 & 1.649 & 0.307 \\", r"$\sum$ & & & 5.367 & 1.000 \\"):
        assert row in latex.splitlines(), row
    window.actions_by_name["copy_numpy"].trigger()
    namespace: dict = {}
    exec(QApplication.clipboard().text().replace("print(", "(") , namespace)  # our own generated snippet
    np.testing.assert_allclose(namespace["weights"], window.model.result.weights)
    np.testing.assert_allclose(namespace["output"], window.model.result.output)


def test_zoom_theme_and_their_persistence(window, qtbot, settings):
    font_before = QApplication.font().pointSizeF()
    qtbot.keyClick(window.canvas, Qt.Key.Key_Equal, Qt.KeyboardModifier.ControlModifier)
    assert theme().zoom == pytest.approx(1.15)
    assert QApplication.font().pointSizeF() > font_before
    qtbot.keyClick(window.canvas, Qt.Key.Key_0, Qt.KeyboardModifier.ControlModifier)
    assert theme().zoom == 1.0
    window.actions_by_name["theme_contrast"].trigger()
    background = window.weights_chart.findChildren(pg.PlotWidget)[0].backgroundBrush().color()
    assert background.name() == "#000000"
    window.actions_by_name["zoomIn"].trigger()
    assert settings.value("theme") == "contrast"
    assert float(settings.value("zoom")) == pytest.approx(1.15)


def test_f11_toggles_full_screen(window, qtbot):
    window.actions_by_name["fullScreen"].trigger()
    assert window.isFullScreen()
    window.actions_by_name["fullScreen"].trigger()
    assert not window.isFullScreen()


@pytest.mark.shared_window
def test_every_keyboard_action_is_in_a_menu_with_its_shortcut(window):
    in_menus = set()
    from PySide6.QtWidgets import QMenu

    for menu in window.menuBar().findChildren(QMenu):  # every menu of the bar and their submenus, Help too
        in_menus.update(menu.actions())
    for name, action in window.actions_by_name.items():
        if not action.shortcut().isEmpty():
            assert action in in_menus, name


def test_screenshot_command_writes_a_png_of_the_requested_size(tmp_path):
    import subprocess
    import sys

    from PySide6.QtGui import QImage

    out = tmp_path / "shot.png"
    completed = subprocess.run(
        [sys.executable, "-m", "attention_explorer", "--screenshot", str(out), "--size", "1280x720",
         "--preset", "library"],
        capture_output=True, text=True, timeout=60, env={**__import__("os").environ, "QT_QPA_PLATFORM": "offscreen"},
    )
    assert completed.returncode == 0, completed.stderr
    image = QImage(str(out))
    assert (image.width(), image.height()) == (1280, 720)
    assert Path(out).stat().st_size > 10_000


@pytest.mark.shared_window
def test_labs_are_tabs_beside_the_canvas_and_ctrl_digits_switch(window, qtbot):
    tabs = window.central_tabs
    assert tabs.widget(0) is window.canvas
    names = [page.objectName() for page in window.pages]
    assert names[:3] == ["vectorCanvas", "saturationLab", "varianceLab"]
    qtbot.keyClick(window.canvas, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)
    assert window.current_page() is window.saturation_lab
    window.actions_by_name["page1"].trigger()
    assert window.current_page() is window.canvas


@pytest.mark.shared_window
def test_all_pages_button_lists_every_page_when_the_tabs_do_not_fit(window, qtbot):
    """At 1280×720 two or three of eight tabs fit: the button beside them lists every page, the shown one ticked."""
    from PySide6.QtCore import QTimer
    from PySide6.QtGui import QAction
    from PySide6.QtTest import QTest

    tabs, bar, button = window.central_tabs, window.central_tabs.tabBar(), window.page_list_button
    last = tabs.count() - 1
    assert not bar.rect().contains(bar.tabRect(last))  # the last tab is scrolled out of sight
    assert button.isVisible() and button.text() == "All pages"
    corner = button.geometry().translated(button.parentWidget().mapTo(tabs, button.geometry().topLeft())
                                          - button.geometry().topLeft())
    assert corner.left() >= bar.geometry().right() and tabs.rect().contains(corner)  # beside the tabs, in view
    seen: list[list[tuple[str, bool]]] = []

    def choose_cross_attention():
        menu = QApplication.activePopupWidget()
        entries = [action for action in menu.actions() if not action.isSeparator()]
        seen.append([(action.text().replace("&", ""), action.isChecked()) for action in entries])
        for _ in range(7):  # to the seventh entry with the keyboard (the first Down highlights the first)
            QTest.keyClick(menu, Qt.Key.Key_Down)
        QTest.keyClick(menu, Qt.Key.Key_Return)

    QTimer.singleShot(0, choose_cross_attention)
    QTest.mouseClick(button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: QApplication.activePopupWidget() is None)
    assert [text for text, _ in seen[0]] == [tabs.tabText(index) for index in range(tabs.count())]
    assert [checked for _, checked in seen[0]] == [True] + [False] * last  # the canvas was shown
    assert tabs.currentIndex() == 6 and tabs.tabText(6) == "Cross-attention"
    assert bar.rect().contains(bar.tabRect(6))  # its tab scrolled into view
    checked = [action for action in window.pages_menu.actions() if isinstance(action, QAction) and action.isChecked()]
    assert [action.objectName() for action in checked] == ["page7"]
    window.activateWindow()  # the offscreen platform leaves the closed menu active; a real one gives it back
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    qtbot.keyClick(QApplication.focusWidget() or bar, Qt.Key.Key_1, Qt.KeyboardModifier.ControlModifier)
    assert tabs.currentIndex() == 0
    assert window.actions_by_name["page1"].isChecked() and not window.actions_by_name["page7"].isChecked()


def _drag_points(canvas, start, end, steps=4):
    from PySide6.QtCore import QEvent, QPointF
    from PySide6.QtGui import QMouseEvent
    from PySide6.QtTest import QTest

    def point(x, y):
        return canvas.plot.mapFromScene(canvas.view.mapViewToScene(QPointF(x, y)))

    viewport = canvas.plot.viewport()
    QTest.mousePress(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point(*start))
    for step in range(1, steps + 1):
        t = step / steps
        pos = QPointF(point(start[0] + (end[0] - start[0]) * t, start[1] + (end[1] - start[1]) * t))
        event = QMouseEvent(QEvent.Type.MouseMove, pos, QPointF(viewport.mapToGlobal(pos)), Qt.MouseButton.NoButton,
                            Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
        QApplication.sendEvent(viewport, event)
        yield step
    QTest.mouseRelease(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point(*end))


def _panels_text(window) -> str:
    from PySide6.QtWidgets import QTextBrowser

    parts = [label.text() for label in window.findChildren(QLabel)]
    parts += [browser.toPlainText() for browser in window.findChildren(QTextBrowser)]
    return "\n".join(parts)


def test_a_real_drag_moves_the_key_live_and_every_panel_agrees_with_the_core(window):
    from attention_explorer.core.maths.attention import attend

    model = window.model
    start = tuple(model.scenario.keys[1])  # K2 = (-0.6, 1.3)
    end = (1.4, 0.8)
    before = model.scenario
    for step in _drag_points(window.canvas, start, end):
        QApplication.processEvents()
        if step == 2:  # live: the model already moved halfway through the drag
            np.testing.assert_allclose(model.scenario.keys[1], [0.4, 1.05], atol=0.03)
    new_key = np.array(model.scenario.keys[1])
    np.testing.assert_allclose(new_key, end, atol=0.03)
    # Independent numbers for the new K2, from the formula itself.
    query, keys, values = np.array(before.query), np.array(before.keys), np.array(before.values)
    keys[1] = new_key
    scores = keys @ query
    weights = np.exp(scores / np.sqrt(2) - np.max(scores / np.sqrt(2)))
    weights /= weights.sum()
    expected = attend(query, keys, values, 1 / np.sqrt(2))
    np.testing.assert_allclose(expected.weights, weights)
    np.testing.assert_allclose(window.weights_chart.bars.opts["height"], weights)
    text = _panels_text(window)
    for number in (*scores, *weights, *(weights @ values)):
        assert f"{number:.3f}".replace("-", "−") in text or f"{number:.3f}" in text, number
    np.testing.assert_allclose(window.output_view.output_position(), weights @ values)
    window.actions_by_name["undo"].trigger()
    assert model.scenario == before


def test_self_attention_preset_and_files_open_in_their_lab(window, tmp_path):
    from attention_explorer.core.files.anykind import save

    before = window.model.scenario
    window.preset_actions["self-attention"].trigger()
    assert window.current_page() is window.self_attention_lab
    sequence = window.self_attention_lab.sequence_model.sequence
    assert list(sequence.tokens) == ["我", "爱", "北京"]
    assert window.model.scenario == before  # the explorer keeps its own scenario
    path = tmp_path / "sentence.json"
    save(sequence, path)
    window.show_page(0)
    assert window.open_file(str(path))
    assert window.current_page() is window.self_attention_lab
    window.self_attention_lab.use_as_query(1)
    np.testing.assert_allclose(window.model.scenario.query, window.self_attention_lab.sequence_model.result.queries[1])
    assert list(window.model.scenario.labels) == ["我", "爱", "北京"]


def test_command_line_opens_the_self_attention_preset(qtbot, settings):
    win = create_window("self-attention", settings=settings)
    qtbot.addWidget(win)
    assert win.current_page() is win.self_attention_lab


@pytest.mark.shared_window
def test_wide_labs_take_the_whole_window_and_the_docks_come_back(window):
    visible = {name for name, dock in window.docks.items() if not dock.isHidden()}
    window.show_page(window.pages.index(window.self_attention_lab))
    assert all(dock.isHidden() for dock in window.docks.values())
    window.show_page(window.pages.index(window.variance_lab))
    assert all(dock.isHidden() for dock in window.docks.values())
    window.show_page(0)
    assert {name for name, dock in window.docks.items() if not dock.isHidden()} == visible


# What the offscreen platform says each time a window with size constraints is shown: noise, not a problem.
OFFSCREEN_NOTICE = "This plugin does not support propagateSizeHints()"


@pytest.mark.shared_window
@pytest.mark.parametrize("grown_by", ["scoring panel", "zoom"])
def test_the_desk_comes_back_from_a_wide_lab_without_a_qt_warning(window, qtlog, grown_by):
    """A wide lab, the window made smaller than the desk's panels need, then back to the canvas: no Qt warning.

    Qt widens the window while it restores the desk's layout, and the window's own dock sizing then named docks
    not yet back in it ("QMainWidget::resizeDocks: one QDockWidget is not part of the layout", 39 times in a run).
    """
    if grown_by == "zoom":
        window.actions_by_name["zoomIn"].trigger()
    else:
        window.docks["scoringView"].toggleViewAction().trigger()  # View ▸ Panels: at least 403 px wide
    QApplication.processEvents()
    window.show_page(4)  # a wide lab: every dock steps aside
    QApplication.processEvents()
    window.resize(700, 500)
    QApplication.processEvents()
    window.show_page(0)
    QApplication.processEvents()
    assert [record.message for record in qtlog.records if record.message != OFFSCREEN_NOTICE] == []
    assert not window.docks["stepsView"].isHidden() and not window.docks["weightsChart"].isHidden()
    assert window.width() > 700  # the desk got the room it needs
    theme().set_zoom(1.0)


@pytest.mark.shared_window
def test_real_transformer_page_opens_a_model_folder_from_the_file_menu(window, monkeypatch, tmp_path):
    folders = []
    monkeypatch.setattr(window.transformer_lab, "ask_model_folder", lambda: folders.append(1) or "")
    window.actions_by_name["openModel"].trigger()
    assert folders == [1]
    assert window.current_page() is window.transformer_lab
    assert all(dock.isHidden() for dock in window.docks.values())


@pytest.mark.shared_window
def test_every_lab_fits_a_1280x720_window_and_the_status_bar_says_how_to_use_it(window):
    hint = window.findChild(QLabel, "statusHint")
    canvas_hint = hint.text()
    assert canvas_hint.startswith("Drag the tip of Q")
    seen = {canvas_hint}
    for index in range(1, window.central_tabs.count()):
        if not window.central_tabs.isTabVisible(index):
            continue  # a fixed tab index whose lab another branch builds
        window.show_page(index)
        QApplication.processEvents()
        scroll = window.central_tabs.widget(index)
        # The whole lab is in view: no vertical scrolling at the projector size (the matrices were cut off).
        assert scroll.verticalScrollBar().maximum() == 0, window.central_tabs.tabText(index)
        assert scroll.widget().height() == scroll.viewport().height()
        assert hint.text() not in seen  # each page has its own how-to, not the canvas's
        seen.add(hint.text())
    window.show_page(0)
    QApplication.processEvents()
    assert hint.text() == canvas_hint


def test_a_full_turn_is_framed_before_it_starts_and_the_view_never_jumps(window, qtbot):
    window.model.select_key(1)  # K2 = [−0.6, 1.3]: at 180° its tip is left of the origin, at x = −1.43
    radius = float(np.hypot(*window.model.scenario.keys[1]))
    before = window.canvas.view.viewRange()
    canvas_height = window.canvas.view.height()
    assert before[0][0] < -radius  # the disc of the longest vector is framed from the start: the turn fits
    key(window, qtbot, Qt.Key.Key_Space)
    QApplication.processEvents()  # the rotation trace appears below the canvas
    assert window.canvas.view.height() > 0.5 * canvas_height  # and leaves the canvas most of its height
    framed = window.canvas.view.viewRange()
    (left, right), (bottom, top) = framed
    assert left < -radius and right > radius and bottom < -radius and top > radius
    while window.animator.running:
        window.animator.advance()
        QApplication.processEvents()
        assert window.canvas.view.viewRange() == framed
    np.testing.assert_allclose(window.model.scenario.keys[1], [-0.6, 1.3], atol=1e-9)  # a whole turn


def test_a_closed_steps_panel_is_not_rebuilt_and_catches_up_when_opened(window, qtbot):
    steps = window.steps_view
    builds: list[int] = []
    build = steps.html
    steps.html = lambda: builds.append(1) or build()
    window.docks["stepsView"].close()
    QApplication.processEvents()
    for y in (1.0, 1.5, 2.0):
        window.model.set_vector("key", 1, [0.0, y])
        window.update()
        QApplication.processEvents()  # the window paints: the other panels follow
    assert builds == []
    window.docks["stepsView"].show()
    qtbot.waitUntil(lambda: "Q·K = 1.5·0 + 0.5·2" in steps.browser.toPlainText())
    assert len(builds) == 1


def _file_window(qtbot, settings, source, monkeypatch):
    """create_window(source) as `attention-explorer FILE` makes it, shown, with the save dialog watched."""
    win = create_window(source=source, settings=settings)
    qtbot.addWidget(win)
    win.errors = []
    win.asked_for_a_name = []
    monkeypatch.setattr(win, "show_error", lambda title, text: win.errors.append((title, text)))
    monkeypatch.setattr(win, "ask_save_path", lambda *args: win.asked_for_a_name.append(args) or "")
    win.show()
    qtbot.waitExposed(win)
    win.activateWindow()
    qtbot.waitUntil(win.isActiveWindow)
    win.canvas.setFocus()
    return win


def test_a_file_on_the_command_line_is_opened_like_file_open(qtbot, settings, tmp_path, monkeypatch):
    from attention_explorer.core.files.anykind import save as save_scenario_file
    from attention_explorer.core.scenes.query.scene import with_title

    lecture = tmp_path / "lecture.json"
    scenario = with_title(load_preset("drag-2d"), "My lecture")

    save_scenario_file(scenario, lecture)
    win = _file_window(qtbot, settings, str(lecture), monkeypatch)
    win.document.data_dir = tmp_path / "appdata"
    assert win.windowTitle() == "lecture.json — My lecture — Attention Explorer"
    assert [a.text() for a in win.recent_menu.actions()] == ["lecture.json"]
    assert win.recent_menu.actions()[0].toolTip() == str(lecture)
    key(win, qtbot, Qt.Key.Key_Right)
    assert "*" in win.windowTitle()
    qtbot.keyClick(win.canvas, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert win.asked_for_a_name == [] and win.errors == []
    assert load_scenario_file(lecture) == win.model.scenario != scenario
    assert "*" not in win.windowTitle()
    win.document.end_session()


def test_a_self_attention_file_on_the_command_line_joins_open_recent(qtbot, settings, tmp_path, monkeypatch):
    from attention_explorer.core.files.anykind import save as save_scenario_file
    from attention_explorer.core.files.presets import load_preset as preset

    sentence = tmp_path / "sentence.json"
    save_scenario_file(preset("self-attention"), sentence)
    win = _file_window(qtbot, settings, str(sentence), monkeypatch)
    assert win.current_page() is win.self_attention_lab
    assert [a.text() for a in win.recent_menu.actions()] == ["sentence.json"]
    win.document.end_session()


def test_save_through_a_symlink_keeps_the_link_and_writes_its_target(window, qtbot, tmp_path):
    folder, links = tmp_path / "lectures", tmp_path / "desktop"
    folder.mkdir()
    links.mkdir()
    target = folder / "lecture.json"
    from attention_explorer.core.files.anykind import save as save_scenario_file

    save_scenario_file(load_preset("drag-2d"), target)
    link = links / "shortcut.json"
    link.symlink_to(target)
    assert window.open_file(str(link), ask=False)
    assert window.windowTitle().startswith("shortcut.json — ")
    key(window, qtbot, Qt.Key.Key_Right)
    qtbot.keyClick(window.canvas, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert window.errors == []
    assert link.is_symlink() and link.resolve() == target
    assert load_scenario_file(target) == window.model.scenario
    assert sorted(p.name for p in links.iterdir()) == ["shortcut.json"]
    assert "Saved shortcut.json" in window.statusBar().findChild(QLabel, "statusHint").text()


@pytest.mark.parametrize("kind", ["folder", "fifo", "link to a device"])
def test_save_as_onto_something_that_is_not_a_file_is_refused_with_a_message(window, tmp_path, monkeypatch, kind):
    import os

    path = tmp_path / "odd.json"
    {"folder": path.mkdir, "fifo": lambda: os.mkfifo(path),
     "link to a device": lambda: path.symlink_to("/dev/null")}[kind]()
    key_before = os.lstat(path).st_mode
    window.model.set_vector("query", 0, [0.5, 1.5])
    monkeypatch.setattr(window, "ask_save_path", lambda *args: str(path))
    assert not window.save()
    assert len(window.errors) == 1
    title, text = window.errors[0]
    assert title == "Cannot save" and text.startswith("odd.json: ")
    assert "folder" in text or "not a regular file" in text
    assert os.lstat(path).st_mode == key_before
    assert window.document.modified and "*" in window.windowTitle()


def test_closing_the_window_writes_its_layout_to_disk_at_once(window, tmp_path):
    # The command line spares the collector's pass at exit, so nothing may wait for the settings' destructor.
    window.resize(1100, 700)
    assert window.close()
    text = (tmp_path / "settings.ini").read_text(encoding="utf-8")
    assert "windowState=" in text and "geometry=" in text
