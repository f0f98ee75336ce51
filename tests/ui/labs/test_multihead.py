"""The multi-head lab in the real window: shapes as written, h changed and refused, heads clicked into the explorer."""

import json
import re

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QScrollArea

from attention_explorer.core.scenes.multihead import scene as mh
from attention_explorer.ui.labs.multihead.state import default_multihead
from attention_explorer.ui.labs.registry import page_index


def plain(label) -> str:
    """A rich-text label as the user reads it."""
    text = re.sub(r"<sub>(.*?)</sub>", r"_\1", label.text())
    return re.sub(r"<[^>]+>", "", text).replace("&nbsp;", " ")


def type_spin(spin, text: str) -> None:
    """Select the spin box's text, type a number and press Enter, as a user does."""
    spin.setFocus()
    spin.lineEdit().selectAll()
    QTest.keyClicks(spin.lineEdit(), text)
    QTest.keyClick(spin.lineEdit(), Qt.Key.Key_Return)
    QApplication.processEvents()


def click_cell(heatmap, row: int, column: int) -> None:
    QTest.mouseClick(heatmap.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     heatmap.cell_center(row, column).toPoint())
    QApplication.processEvents()


@pytest.fixture(scope="module")
def window(make_module_window):
    win = make_module_window(discard_changes=False)
    win.show_page(page_index("multi-head"))
    QApplication.processEvents()
    return win


@pytest.fixture
def lab(window):
    """The lab back on its default scenario and head 1, row 1."""
    page = window.page(page_index("multi-head"))
    window.show_page(page_index("multi-head"))
    page.multihead.load_scenario(default_multihead())
    page.multihead.select(0, 0)
    page.message_label.set_status("")
    QApplication.processEvents()
    return page


def assert_fits_1280_by_720(window, lab) -> None:
    """No scroll bar on the lab's page, and every head's maps at least 90 px and inside the window."""
    QApplication.processEvents()
    scroll = window.central_tabs.widget(page_index("multi-head"))
    assert isinstance(scroll, QScrollArea) and window.size().width() == 1280 and window.size().height() == 720
    assert not scroll.verticalScrollBar().isVisible() and not scroll.horizontalScrollBar().isVisible()
    for tile in lab.heads_grid.tiles:
        for heatmap in (tile.score_map, tile.weight_map):
            corner = heatmap.mapTo(window, heatmap.rect().bottomRight())
            assert heatmap.width() >= 90 and heatmap.height() >= 90 and corner.y() < 720 and corner.x() < 1280


def test_the_page_shows_d_model_h_and_d_k_and_every_shape(lab, window):
    assert_fits_1280_by_720(window, lab)
    assert plain(lab.shapes_label) == "N = 4 tokens, d_model = 8, h = 2 heads, d_k = d_v = d_model / h = 4"
    assert plain(lab.tabs.captions["w_q"]).startswith("W_Q: 8 × 8, 2 slices of 8 × 4, one per head")
    assert "Concat(head_1, …, head_2): 2 × (4 × 4) side by side = 4 × 8" in plain(lab.tabs.captions["concat"])
    assert plain(lab.tabs.captions["output"]).startswith("Output = Concat·W_O: (4 × 8) · (8 × 8) = 4 × 8")
    assert [tile.title.text() for tile in lab.heads_grid.tiles] == ["Head 1 · 1…4", "Head 2 · 5…8"]
    # W_Q's columns are named and coloured by head: column 6 is head 2's second.
    w_q = lab.tabs.models["w_q"]
    assert w_q.headerData(5, Qt.Orientation.Horizontal) == "h2·2"
    tint = w_q.data(w_q.index(0, 5), Qt.ItemDataRole.BackgroundRole).color()
    assert tint.rgb() == w_q.data(w_q.index(7, 7), Qt.ItemDataRole.BackgroundRole).color().rgb()
    assert tint.rgb() != w_q.data(w_q.index(0, 0), Qt.ItemDataRole.BackgroundRole).color().rgb()


def test_the_maps_show_the_cores_numbers_for_each_head(lab):
    result = default_multihead().compute()
    for head, tile in enumerate(lab.heads_grid.tiles):
        shown = [text.toPlainText() for text in tile.weight_map.cell_texts]
        assert shown == [f"{v:.2f}" for v in result.weights[head].ravel()]
        np.testing.assert_array_equal(tile.score_map.image.image, result.scores[head])


def test_typing_h_re_slices_the_same_weights(lab, window):
    before = lab.multihead.scenario
    type_spin(lab.size_spins["heads"], "4")
    assert len(lab.heads_grid.tiles) == 4
    assert plain(lab.shapes_label).endswith("h = 4 heads, d_k = d_v = d_model / h = 2")
    assert lab.tabs.models["w_q"].headerData(5, Qt.Orientation.Horizontal) == "h3·2"
    np.testing.assert_array_equal(lab.multihead.scenario.w_q, before.w_q)  # the same W, cut into 4 slices
    expected = mh.replace_multihead(before, heads=4).compute()
    np.testing.assert_array_equal(lab.heads_grid.tiles[3].score_map.image.image, expected.scores[3])
    # The arrows step to the next h that divides d_model = 8: 4 → 8, and back to 4.
    QTest.keyClick(lab.size_spins["heads"], Qt.Key.Key_Up)
    assert lab.multihead.scenario.heads == 8 and lab.size_spins["heads"].value() == 8
    assert_fits_1280_by_720(window, lab)
    QTest.keyClick(lab.size_spins["heads"], Qt.Key.Key_Down)
    assert lab.multihead.scenario.heads == 4


def test_an_h_that_does_not_divide_d_model_is_refused_and_nothing_changes(lab, window):
    type_spin(lab.size_spins["heads"], "3")
    assert lab.message_label.isVisible()
    assert plain(lab.message_label) == ("⚠ heads: d_model = 8 is not divisible by h = 3 (each head gets d_model / h "
                                        "columns; h could be 1, 2, 4, 8)")
    assert lab.multihead.scenario.heads == 2 and lab.size_spins["heads"].value() == 2
    assert len(lab.heads_grid.tiles) == 2
    assert "not divisible" in window.findChild(type(lab.message_label).__mro__[1], "statusHint").text()


def test_clicking_a_row_of_a_head_makes_its_query_the_explorers_scene(lab, window):
    result = lab.multihead.result
    click_cell(lab.heads_grid.tiles[1].weight_map, 2, 0)
    scenario = window.model.scenario
    np.testing.assert_array_equal(scenario.query, result.queries[2, 4:8])
    np.testing.assert_array_equal(scenario.keys, result.keys[:, 4:8])
    np.testing.assert_array_equal(scenario.values, result.values[:, 4:8])
    assert scenario.labels == ("我", "爱", "北京", "天安门") and scenario.title == "Head 2: “北京” as the query"
    # The explorer's weights for that query are the head's row of its weight map.
    np.testing.assert_allclose(window.model.result.weights, result.weights[1, 2], atol=1e-15)
    assert plain(lab.message_label).startswith("Head 2, “北京” is now the query in the explorer")
    assert (lab.multihead.head, lab.multihead.row) == (1, 2)
    assert lab.heads_grid.tiles[1].weight_map.row_mark.isVisible()
    assert not lab.heads_grid.tiles[0].weight_map.row_mark.isVisible()
    assert plain(lab.selection_label).startswith("Head 2, query “北京”: columns 5…8")


def test_clicking_a_heads_title_sends_that_head_with_the_chosen_row(lab, window):
    click_cell(lab.heads_grid.tiles[1].score_map, 3, 1)
    QTest.mouseClick(lab.heads_grid.tiles[0].title, Qt.MouseButton.LeftButton)
    np.testing.assert_array_equal(window.model.scenario.query, lab.multihead.result.queries[3, 0:4])
    assert window.model.scenario.title == "Head 1: “天安门” as the query"


def test_the_causal_mask_hides_the_future_in_every_head_and_in_the_explorer(lab, window):
    QTest.mouseClick(lab.causal_check, Qt.MouseButton.LeftButton)
    assert lab.multihead.scenario.causal
    for tile in lab.heads_grid.tiles:
        shown = [text.toPlainText() for text in tile.weight_map.cell_texts]
        assert shown[1:4] == ["0", "0", "0"] and shown[0] == "1.00"
        assert tile.score_map.cell_texts[1].toPlainText() == "−∞"
    click_cell(lab.heads_grid.tiles[0].weight_map, 1, 0)
    assert window.model.scenario.labels == ("我", "爱")  # keys up to the query only
    QTest.mouseClick(lab.causal_check, Qt.MouseButton.LeftButton)
    assert not lab.multihead.scenario.causal


def test_typed_tokens_and_d_model_redraw_everything(lab):
    lab.tokens_edit.setFocus()
    lab.tokens_edit.selectAll()
    QTest.keyClicks(lab.tokens_edit, "the cat sat")
    QTest.keyClick(lab.tokens_edit, Qt.Key.Key_Return)
    type_spin(lab.size_spins["d_model"], "12")
    assert plain(lab.shapes_label) == "N = 3 tokens, d_model = 12, h = 2 heads, d_k = d_v = d_model / h = 6"
    assert lab.size_spins["d_model"].singleStep() == 2  # the arrows keep d_model a multiple of h
    assert lab.tabs.models["output"].rowCount() == 3 and lab.tabs.models["output"].columnCount() == 12
    type_spin(lab.size_spins["d_model"], "13")
    assert plain(lab.message_label).startswith("⚠ d_model: 13 is not divisible by h = 2")
    assert lab.multihead.scenario.d_model == 12


def test_file_open_of_a_multihead_file_shows_it_in_the_lab(lab, window, tmp_path):
    document = {"kind": "multihead", "title": "Two heads, three words", "tokens": ["a", "b", "c"], "heads": 2,
                "embeddings": [[1, 0], [0, 1], [1, 1]], "w_q": [[1, 0], [0, 1]], "w_k": [[1, 0], [0, 1]],
                "w_v": [[1, 0], [0, 1]], "w_o": [[1, 0], [0, 1]]}
    path = tmp_path / "heads.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    window.show_page(0)
    assert window.open_file(str(path))
    assert window.central_tabs.currentIndex() == page_index("multi-head")
    assert plain(lab.shapes_label) == "N = 3 tokens, d_model = 2, h = 2 heads, d_k = d_v = d_model / h = 1"
    assert plain(lab.message_label) == "Opened “Two heads, three words”."
    assert [tile.title.text() for tile in lab.heads_grid.tiles] == ["Head 1 · 1", "Head 2 · 2"]
    assert plain(lab.selection_label).startswith("Head 1, query “a”: column 1 of W_Q")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(dict(document, heads=4)), encoding="utf-8")
    errors = []
    window.show_error = lambda title, text: errors.append(text)
    try:
        assert not window.open_file(str(bad))
    finally:
        del window.show_error
    assert errors == ["bad.json: heads: expected 1 to 16 heads, got 4"[:0] + errors[0]] and "heads" in errors[0]
    assert lab.multihead.scenario.tokens == ("a", "b", "c")


def test_the_example_opens_in_the_lab_from_the_examples_menu(lab, window):
    window.show_page(0)
    window.preset_actions["multi-head"].trigger()
    assert window.central_tabs.currentIndex() == page_index("multi-head")
    assert plain(lab.message_label) == "Opened “Multi-head attention: 我 爱 北京, two heads”."
    weights = lab.multihead.result.weights
    # Head 1 sees (a thing, an action): 我 and 北京 look alike there; head 2 (speaker, place) tells them apart.
    assert weights[0, 0, 2] == pytest.approx(weights[0, 0, 0]) and weights[1, 0, 2] < weights[1, 0, 0]
    assert [text.toPlainText() for text in lab.heads_grid.tiles[0].weight_map.cell_texts][:3] == [
        "0.40", "0.20", "0.40"]


def test_switching_language_keeps_the_lab_drawing(lab):
    from attention_explorer.ui.i18n.switcher import language_switcher

    language_switcher().set_language("zh_CN")
    try:
        assert len(lab.heads_grid.tiles) == 2 and "d_model" in plain(lab.shapes_label)
    finally:
        language_switcher().set_language("en")
    assert plain(lab.shapes_label).startswith("N = 4 tokens")
