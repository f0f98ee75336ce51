"""The hall's layout (issue 36) in a real X11 window (xcb under Xvfb): the same rules as the offscreen
tests/ui/window/test_hall_composition.py, where the platform lays out, activates and delivers input for real."""

from __future__ import annotations

import os

import pytest
from PySide6.QtGui import QGuiApplication

from attention_explorer.ui.i18n.switcher import language_switcher
from attention_explorer.ui.style.theme import theme
from tests.ui import hall_checks as hall

pytestmark = pytest.mark.skipif(
    not (os.environ.get("QT_QPA_PLATFORM") == "xcb" and os.environ.get("DISPLAY")),
    reason="needs a real X11 window: run with DISPLAY set and QT_QPA_PLATFORM=xcb (.ci/run does, under Xvfb)")


@pytest.fixture(scope="module")
def window(make_module_window):
    assert QGuiApplication.platformName() == "xcb"
    return make_module_window(discard_changes=True, activate=True)


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_every_canvas_scene_keeps_the_hall_rules(window, language):
    language_switcher().set_language(language)
    try:
        count = hall.start_lecture(window)
        problems = {index + 1: hall.composition_problems(window) for index in hall.canvas_scenes(window, count)}
        assert len(problems) >= 10
        assert {scene: found for scene, found in problems.items() if found} == {}
    finally:
        window.lessons.end_lecture()
        language_switcher().set_language("en")


def test_zoomed_in_the_plot_keeps_its_share(window):
    count = hall.start_lecture(window)
    try:
        theme().set_zoom(1.5)
        hall.settle()
        shares = {index + 1: hall.canvas_share(window) for index in hall.canvas_scenes(window, count)}
        assert {scene: share for scene, share in shares.items() if share < hall.LEAST_CANVAS_SHARE} == {}
    finally:
        theme().set_zoom(1.0)
        window.lessons.end_lecture()


def test_a_drag_and_a_space_turn_move_neither_the_plot_nor_the_view(window, qtbot):
    hall.start_lecture(window)
    try:
        window.lessons.runner.enter(6)  # the drag-2d example in components 0 and 1
        hall.settle()
        before = window.model.scenario.keys[0].copy()
        seen = hall.drag_geometries(window, 0, hall.turned_target(window, 0, turns=2))
        assert (window.model.scenario.keys[0] * before < 0).all()
        assert seen[1:] == [seen[0]] * (len(seen) - 1)
        window.activateWindow()
        qtbot.waitUntil(window.isActiveWindow, timeout=5000)
        seen = hall.turn_geometries(window)
        assert len(seen) > 20 and window.animator.turned_deg == 360
        assert seen[1:] == [seen[0]] * (len(seen) - 1)
    finally:
        window.lessons.end_lecture()


def test_zoomed_chinese_and_the_labs_tables_compose_in_a_real_window(window):
    """zh_CN at 1.5×: no pin's name is cut at the plot's edge; every zoom step composes at 1280×720; the multi-head
    lab's and scene 17's tables in the hall's number size, whole, nothing cut without a scroll bar."""
    from attention_explorer.ui.labs.registry import page_index

    language_switcher().set_language("zh_CN")
    theme().set_zoom(1.5)
    try:
        count = hall.start_lecture(window)
        problems = {index + 1: hall.pin_names_cut(window)
                    for index in hall.canvas_scenes(window, count)}
        assert {scene: found for scene, found in problems.items() if found} == {}
        theme().set_zoom(theme().MAX_ZOOM)
        window.lessons.runner.enter(2)
        hall.settle()
        hint = window.minimumSizeHint()
        assert hint.width() <= 1280 and hint.height() <= 720 and window.width() <= 1280
        theme().set_zoom(1.0)
        window.show_page(page_index("multi-head"))
        hall.settle()
        for index in (None, 16):
            if index is not None:
                window.lessons.runner.enter(index)
                hall.settle()
            shown = hall.shown_tables(window)
            assert shown and all(table.font().pointSizeF() >= theme().font_pt() for table in shown)
            assert all(hall.table_shows_every_cell(table) for table in shown)
            assert hall.clipped_tables(window) == []
    finally:
        theme().set_zoom(1.0)
        window.lessons.end_lecture()
        language_switcher().set_language("en")
