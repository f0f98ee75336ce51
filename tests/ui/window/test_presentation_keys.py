"""Every key sequence belongs to one action only (Qt drops an ambiguous one), Redo has both its keys, F5 presents."""

from __future__ import annotations

from collections import Counter

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence

from attention_explorer.ui.window.actions import ROWS, ActionRow, expanded_shortcuts

PORTABLE = QKeySequence.SequenceFormat.PortableText


def _every_sequence(window) -> Counter:
    """Each key sequence the window's actions answer to, counted once per action row and binding."""
    counts: Counter = Counter()
    for row in ROWS:
        if isinstance(row, ActionRow):
            counts.update(key.toString(PORTABLE) for key in expanded_shortcuts(row))
    for action in window.actions_by_name.values():
        keys = [key.toString(PORTABLE) for key in action.shortcuts()]
        assert len(keys) == len(set(keys)), f"{action.objectName()} has a key twice: {keys}"
    return counts


def test_no_two_actions_nor_one_action_twice_share_a_key_sequence(make_window):
    window = make_window()
    counts = _every_sequence(window)
    assert counts, "no shortcut found at all"
    assert [key for key, count in counts.items() if count > 1] == []


def test_a_standard_key_expands_to_every_binding_the_platform_gives_it():
    undo = next(row for row in ROWS if isinstance(row, ActionRow) and row.name == "undo")
    bindings = QKeySequence.keyBindings(QKeySequence.StandardKey.Undo)
    assert [key.toString() for key in expanded_shortcuts(undo)] == [key.toString() for key in bindings]


def test_redo_answers_to_ctrl_shift_z_and_ctrl_y(make_window, qtbot):
    window = make_window(focus_canvas=True)
    keys = [key.toString(PORTABLE) for key in window.actions_by_name["redo"].shortcuts()]
    assert keys == ["Ctrl+Shift+Z", "Ctrl+Y"]
    for modifiers, key in ((Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier, Qt.Key.Key_Z),
                           (Qt.KeyboardModifier.ControlModifier, Qt.Key.Key_Y)):
        window.model.select_key(1)
        qtbot.keyClick(window.canvas, Qt.Key.Key_Left)
        moved = window.model.scenario.keys[1].copy()
        qtbot.keyClick(window.canvas, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
        assert window.actions_by_name["redo"].isEnabled()
        qtbot.keyClick(window.canvas, key, modifiers)
        assert (window.model.scenario.keys[1] == moved).all()
        assert window.edit_menu.actions()[0].text().startswith("&Undo")


def test_the_first_run_fits_a_1280x720_screen_with_its_frame():
    from PySide6.QtCore import QRect

    from attention_explorer.ui.window.settings import FRAME_SIDE_PX, FRAME_TITLE_PX, first_run_geometry

    screen = QRect(0, 0, 1280, 720)
    geometry = first_run_geometry(screen)
    framed = geometry.adjusted(-FRAME_SIDE_PX, -FRAME_TITLE_PX, FRAME_SIDE_PX, FRAME_SIDE_PX)
    assert screen.contains(framed), framed
    assert geometry.width() >= 1200 and geometry.height() >= 640  # and uses most of it
    assert first_run_geometry(QRect(0, 0, 2560, 1440)).size().toTuple() == (1600, 1000)


def test_a_window_without_saved_geometry_opens_inside_its_screen(qtbot, tmp_path):
    from PySide6.QtCore import QSettings

    from attention_explorer.app import create_window

    window = create_window(None, settings=QSettings(str(tmp_path / "fresh.ini"), QSettings.Format.IniFormat))
    qtbot.addWidget(window)
    window.document.data_dir = tmp_path
    available = window.screen().availableGeometry()
    assert window.width() <= available.width() and window.height() <= available.height()
    assert available.contains(window.geometry()), (window.geometry(), available)
