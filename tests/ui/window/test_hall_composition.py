"""The hall's layout (issue 36), offscreen: the built-in lecture's canvas scenes in presentation at 1280×720, in
English and Chinese; a drag and a Space turn that move nothing but the vectors. The rules: tests/ui/hall_checks.py
(the same checks run in a real X11 window in tests/ui/realwindow/test_hall_composition.py)."""

from __future__ import annotations

import pytest

from attention_explorer.ui.style.theme import theme
from tests.ui import hall_checks as hall


@pytest.fixture(scope="module")
def window(make_module_window):
    """One window for the module: a scene change reuses it (a window costs ~0.5 s)."""
    return make_module_window(discard_changes=True)


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_every_canvas_scene_of_the_lecture_keeps_the_hall_rules(window, language):
    from attention_explorer.ui.i18n.switcher import language_switcher

    language_switcher().set_language(language)
    try:
        count = hall.start_lecture(window)
        problems = {index + 1: hall.composition_problems(window) for index in hall.canvas_scenes(window, count)}
        assert len(problems) >= 10  # the lecture's canvas scenes were all walked
        assert {scene: found for scene, found in problems.items() if found} == {}
    finally:
        window.lessons.end_lecture()
        language_switcher().set_language("en")


def test_zoomed_in_the_plot_keeps_its_share(window):
    count = hall.start_lecture(window)
    try:
        # Four Ctrl+= steps are 1.75× (1.15 each): the bars above the page then scroll, the plot keeps its share.
        theme().set_zoom(1.15 ** 4)
        hall.settle()
        # The scenes before the labs' (15 on): the canvas scenes with the tallest bars above them (questions).
        shares = {index + 1: hall.canvas_share(window) for index in hall.canvas_scenes(window, min(count, 14))}
        assert len(shares) >= 10
        assert window.height() == 720
        assert {scene: share for scene, share in shares.items() if share < hall.LEAST_CANVAS_SHARE} == {}
    finally:
        theme().set_zoom(1.0)
        window.lessons.end_lecture()


def test_a_drag_moves_neither_the_plot_nor_the_view(window):
    count = hall.start_lecture(window)
    try:
        runner = window.lessons.runner
        runner.enter(6)  # "Why the dot product? … Drag a key": the drag-2d example in components 0 and 1
        hall.settle()
        assert window.central_tabs.currentIndex() == 0 and count > 6
        before = window.model.scenario.keys[0].copy()
        seen = hall.drag_geometries(window, 0, hall.turned_target(window, 0, turns=2))
        assert (window.model.scenario.keys[0] * before < 0).all()  # both components changed sign: a real drag
        assert seen[1:] == [seen[0]] * (len(seen) - 1)
    finally:
        window.lessons.end_lecture()


def test_a_space_turn_moves_neither_the_plot_nor_the_view(window):
    hall.start_lecture(window)
    try:
        window.lessons.runner.enter(6)
        hall.settle()
        seen = hall.turn_geometries(window, frames=30)  # a quarter turn crosses an axis: a sign changes
        assert len(seen) > 20 and window.animator.turned_deg >= 90
        assert seen[1:] == [seen[0]] * (len(seen) - 1)
    finally:
        window.lessons.end_lecture()


def test_p_in_presentation_puts_the_pins_behind_the_output_and_they_go_with_the_last_pin(window, qtbot):
    """P at the hall: the charts keep their size and nothing lies over them; the table is a tab of the output's
    group, and when the pins are removed it goes (an empty panel stayed for the rest of the lecture)."""
    from PySide6.QtCore import Qt

    window.open_preset("library")
    window.enter_presentation()
    window.resize(1280, 720)
    hall.settle()
    charts = {name: hall.window_rect(window.docks[name]) for name in ("weightsChart", "outputView")}
    in_front = window._shown_tab(window.docks["outputView"])
    window.activateWindow()
    window.canvas.setFocus()
    qtbot.keyClick(window.canvas, Qt.Key.Key_P)
    hall.settle()
    pins = window.docks["pinsTable"]
    try:
        assert len(window.model.pins) == 1
        assert pins in window.tabifiedDockWidgets(window.docks["outputView"])
        assert {name: hall.window_rect(window.docks[name]) for name in charts} == charts
        assert window._shown_tab(window.docks["outputView"]) is in_front  # the tab in front stays in front
        assert hall.labels_over_plots(window) == []
        window.actions_by_name["removePins"].trigger()
        hall.settle()
        assert len(window.model.pins) == 0
        assert not pins.isVisible()
    finally:
        window.model.clear_pins()
        window.leave_presentation()


def test_an_example_opened_in_presentation_leaves_its_story_in_the_menu(window):
    window.enter_presentation()
    window.resize(1280, 720)
    hall.settle()
    try:
        width = window.canvas.width()
        window.open_preset("orthogonal")
        hall.settle()
        assert not window.docks["presetInfo"].isVisible()
        assert window.canvas.width() == width
    finally:
        window.leave_presentation()
    window.open_preset("aligned")  # at the desk the story comes with the example, as before
    hall.settle()
    assert window.docks["presetInfo"].isVisible()


def test_in_high_contrast_k3_is_readable_on_the_black_plot(window):
    """Issue 36: K3's teal (#009E73) was dark on black; its name on the canvas and in the readout are 7:1."""
    import re

    from PySide6.QtGui import QColor

    from attention_explorer.ui.style.theme import contrast_ratio

    window.open_preset("library")
    theme().set_mode("contrast")
    try:
        window.model.select_key(2)
        hall.settle()
        black = theme().background()
        named = re.search(r"color:(#[0-9A-Fa-f]{6})'>K3<", window.canvas.readout.text())
        assert named is not None and contrast_ratio(QColor(named.group(1)), black) >= 7.0
        label = window.canvas.arrow_of(2).label
        assert label.textItem.toPlainText() == "K3"
        assert contrast_ratio(label.textItem.defaultTextColor(), black) >= 7.0
    finally:
        theme().set_mode("light")


def test_with_k1_along_q_the_plane_shows_k2_perpendicular_and_k3_apart(window):
    """The library example, d_k = 4, K1 = Q: any plane through Q holds K1. The one drawn shows K2 (at 90° to Q, as
    the caption says) perpendicular, not as a dot at the origin, and K3 (45°) apart from Q's line."""
    import math

    window.open_preset("library")
    window.canvas.plane_combo.setCurrentIndex(window.canvas.plane_combo.findData("query-key"))
    window.model.select_key(0)
    hall.settle()
    qx, qy, kx, ky = window.canvas._tips()
    assert (kx[0], ky[0]) == pytest.approx((qx, qy))  # K1 = Q
    assert qx * kx[1] + qy * ky[1] == pytest.approx(0.0, abs=1e-9)  # K2 perpendicular
    assert math.hypot(kx[1], ky[1]) >= 0.5 * math.hypot(qx, qy)  # and seen
    k3_drawn = math.degrees(abs(math.atan2(qx * ky[2] - qy * kx[2], qx * kx[2] + qy * ky[2])))
    assert 20 <= k3_drawn <= 45  # apart from Q's line, at most its true 45°
    assert window.canvas.arc_label.textItem.toPlainText().startswith("0.0°")


def test_the_labs_tables_in_presentation_are_large_and_whole_or_scroll_visibly(window):
    """Multi-head: the W tables were cut both ways in ~12 px type; scene 17: the Q, K, V tables cut 北京's row.
    In presentation the multi-head tables' numbers are the hall's number size (the self-attention lab's, which
    shares its height with a lecture's caption and question, the text size), each table shows all its cells (its
    page scrolls, with a scroll bar, when the tables do not fit), and nothing is cut without a scroll bar."""
    from attention_explorer.ui.labs.registry import page_index

    count = hall.start_lecture(window)
    try:
        window.show_page(page_index("multi-head"))
        hall.settle()
        lab = window.page(page_index("multi-head"))
        tables = [lab.tabs.tables[name] for name in ("w_q", "w_k", "w_v")]
        assert all(table.isVisible() for table in tables)
        assert all(table.font().pointSizeF() >= theme().number_pt() for table in tables)
        assert all(hall.table_shows_every_cell(table) for table in tables)
        assert hall.clipped_tables(window) == []
        page = lab.tabs.currentWidget()  # the W page's scroll area: the three tables do not fit in 720 px
        assert page.verticalScrollBar().isVisible()
        # The heads' maps keep the rest of the width, their numbers at least the text size (head 2's "−16.15"
        # shrank every number of its map to ~11 px beside tables that took 42 % of the width).
        assert lab.heads_grid.width() >= 0.55 * lab.width()
        numbers = [text for tile in lab.heads_grid.tiles for heatmap in (tile.score_map, tile.weight_map)
                   for text in heatmap.cell_texts]
        assert len(numbers) == 2 * 2 * 16 and all(text.isVisible() for text in numbers)
        assert min(text.textItem.font().pointSizeF() for text in numbers) >= theme().font_pt()
        for index in (15, 16):  # self-attention, then the question on 北京's row
            window.lessons.runner.enter(index)
            hall.settle()
            self_attention = window.page(page_index("self-attention"))
            shown = hall.shown_tables(window)
            assert self_attention.tabs.q_table in shown and count > index
            assert all(table.font().pointSizeF() >= theme().font_pt() for table in shown)
            assert all(hall.table_shows_every_cell(table) for table in shown)
            assert hall.clipped_tables(window) == []
        # Page Down reveals the answer: the "?" over the weights goes at once (it stayed until the event loop ran).
        from PySide6.QtWidgets import QLabel

        assert [cover for cover in window.findChildren(QLabel, "weightsCover") if cover.isVisible()]
        window.lessons.runner.next()
        assert not any(cover.isVisible() for cover in window.findChildren(QLabel, "weightsCover"))
    finally:
        window.lessons.end_lecture()
        window.leave_presentation()
    assert all(table.font().pointSizeF() == theme().font_pt() for table in tables)  # the desk's size again


def test_every_zoom_step_fits_the_projector(window):
    """Ctrl+= from 1× to the most the app offers: at each step the window composes at 1280×720 (at 2× it asked for
    1 359 px of width) and the canvas keeps its share, in the scene with the tallest bars (question and steps)."""
    count = hall.start_lecture(window)
    try:
        window.lessons.runner.enter(2)
        zooms = []
        while not zooms or theme().zoom > zooms[-1]:
            zooms.append(theme().zoom)
            hall.settle()
            hint = window.minimumSizeHint()
            assert hint.width() <= 1280 and hint.height() <= 720, (zooms[-1], hint)
            assert window.width() == 1280 and hall.canvas_share(window) >= hall.LEAST_CANVAS_SHARE, zooms[-1]
            window.actions_by_name["zoomIn"].trigger()
        assert len(zooms) >= 7 and zooms[-1] == theme().MAX_ZOOM and count > 2
    finally:
        theme().set_zoom(1.0)
        window.lessons.end_lecture()


def test_at_the_desk_the_vector_table_shows_every_row_at_1264_by_672(window):
    """The desk's first layout at a projector's 1264×672 work area: K3's row of the vector table was cut."""
    window.leave_presentation()
    window.open_preset("library")
    window.docks["vectorEditor"].raise_()
    window.resize(1264, 672)
    hall.settle()
    table = window.editor.table
    assert table.model().rowCount() == 4  # Q, K1, K2, K3
    assert table.verticalHeader().length() <= table.viewport().height()
