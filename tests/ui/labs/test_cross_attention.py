"""The cross-attention lab in a real window: the N_q × N_k maps, hover, a row click into the explorer, files, sizes."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QLabel

from attention_explorer.ui.labs.cross.heatmap import CELL_TEXT_MAX
from attention_explorer.ui.labs.registry import page_index
from attention_explorer.ui.style.numbers import MINUS

# The preset's numbers typed in again, so that the expectations do not come from the code under test.
Y = np.array([[1.8, 0.3, 0.0], [0.6, 2.0, 0.2], [0.0, 0.2, 2.2]])
X = np.array([[1.6, 0, 0], [0, 1.6, 0], [0, 0, 1.6]])
W = np.array([[1.0, 0.0], [-0.5, 0.866], [-0.5, -0.866]])
W_V = np.array([[0.625, 0.0], [0.0, 0.625], [0.625, 0.625]])


@pytest.fixture(scope="module")
def window(make_module_window):
    window = make_module_window()
    window.open_preset("translation")
    QApplication.processEvents()
    return window


@pytest.fixture
def lab(window):
    lab = window.page(page_index("cross-attention"))
    window.show_page(page_index("cross-attention"))
    lab.example_button.click()  # every test starts from the preset's own numbers
    QApplication.processEvents()
    return lab


def click_cell(heatmap, row: int, column: int) -> None:
    QTest.mouseClick(heatmap.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     heatmap.cell_center(row, column).toPoint())


def hover_cell(heatmap, row: int, column: int) -> None:
    point = heatmap.cell_center(row, column)
    event = QMouseEvent(QEvent.Type.MouseMove, point, heatmap.viewport().mapToGlobal(point),
                        Qt.MouseButton.NoButton, Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(heatmap.viewport(), event)


def row_softmax(logits: np.ndarray) -> np.ndarray:
    exps = np.exp(logits - logits.max(axis=1, keepdims=True))
    return exps / exps.sum(axis=1, keepdims=True)


def test_the_example_opens_in_its_tab_with_the_weights_and_shapes_shown(window, lab):
    assert window.central_tabs.currentIndex() == page_index("cross-attention")
    assert window.central_tabs.tabText(page_index("cross-attention")) == "Cross-attention"
    scores = (Y @ W) @ (X @ W).T
    assert np.allclose(lab.score_map.image.image, scores)
    assert np.allclose(lab.weight_map.image.image, row_softmax(scores / math.sqrt(2)))
    assert [item.toPlainText() for item in lab.weight_map.cell_texts][:3] == ["0.89", "0.07", "0.04"]
    left = lab.weight_map.getPlotItem().getAxis("left")._tickLevels[0]
    top = lab.weight_map.getPlotItem().getAxis("top")._tickLevels[0]
    assert [text for _, text in left] == ["我", "爱", "北京"] and [text for _, text in top] == ["I", "love", "Beijing"]
    assert "(3 × 2) · (2 × 3) = <b>3 × 3</b>" in lab.score_title.text()
    assert "from the target" in lab.shapes_label.text() and "from the source" in lab.shapes_label.text()


def cell_texts(heatmap) -> list[str]:
    return [item.toPlainText() for item in heatmap.cell_texts]


def two_decimals(matrix: np.ndarray) -> list[str]:
    """How a cell writes a number, worked out here: two decimals and a typographic minus."""
    return [f"{value:.2f}".replace("-", MINUS) for value in np.asarray(matrix).ravel()]


def test_each_map_writes_in_its_cells_the_numbers_of_the_matrix_it_colours(lab):
    """"Scores Q·Kᵀ" colours and writes the raw scores; the weights map its weights (issue 34: the scores' cells
    once printed the scaled scores over the raw scores' colours, and only the weights were checked)."""
    scores = (Y @ W) @ (X @ W).T
    scaled = scores / math.sqrt(2)  # the example's scale: 1/√d_k, d_k = 2
    assert "Scores Q·K<sup>T</sup>" in lab.score_title.text()
    assert np.allclose(lab.score_map.image.image, scores)
    assert cell_texts(lab.score_map) == two_decimals(lab.score_map.image.image) == two_decimals(scores)
    assert cell_texts(lab.score_map) != two_decimals(scaled)  # the two differ: a swap would show
    assert np.allclose(lab.weight_map.image.image, row_softmax(scaled))
    assert cell_texts(lab.weight_map) == two_decimals(lab.weight_map.image.image) == two_decimals(row_softmax(scaled))
    lab.scale_check.setChecked(False)  # scale 1: the scaled scores are the raw ones, the weights change
    assert cell_texts(lab.score_map) == two_decimals(lab.score_map.image.image) == two_decimals(scores)
    assert cell_texts(lab.weight_map) == two_decimals(lab.weight_map.image.image) == two_decimals(row_softmax(scores))
    lab.cross_model.set_cell("target_embeddings", 1, 1, -3.0)  # an edit redraws colours and numbers together
    for heatmap in (lab.score_map, lab.weight_map):
        assert cell_texts(heatmap) == two_decimals(heatmap.image.image)
    assert cell_texts(lab.score_map)[3:6] != two_decimals(scores)[3:6]


def test_numbers_are_written_up_to_256_cells_and_not_in_257(lab):
    assert CELL_TEXT_MAX == 256  # 16 × 16
    lab.target_edit.setText(" ".join(f"y{i}" for i in range(16)))
    QTest.keyClick(lab.target_edit, Qt.Key.Key_Return)
    lab.source_edit.setText(" ".join(f"x{i}" for i in range(16)))
    QTest.keyClick(lab.source_edit, Qt.Key.Key_Return)
    for heatmap in (lab.score_map, lab.weight_map):
        assert heatmap.image.image.shape == (16, 16)
        assert cell_texts(heatmap) == two_decimals(heatmap.image.image)  # 256 numbers, each its own cell's
    lab.target_edit.setText(" ".join(f"y{i}" for i in range(1)))
    QTest.keyClick(lab.target_edit, Qt.Key.Key_Return)
    lab.source_edit.setText(" ".join(f"x{i}" for i in range(257)))
    QTest.keyClick(lab.source_edit, Qt.Key.Key_Return)
    assert lab.weight_map.image.image.shape == (1, 257)
    assert lab.score_map.cell_texts == [] and lab.weight_map.cell_texts == []


def test_a_longer_source_gives_a_rectangular_matrix(lab, qtbot):
    lab.source_edit.setText("I love Beijing very much")
    QTest.keyClick(lab.source_edit, Qt.Key.Key_Return)
    assert lab.weight_map.image.image.shape == (3, 5)
    assert np.allclose(lab.weight_map.image.image.sum(axis=1), 1.0)
    assert "(3 × 2) · (2 × 5) = <b>3 × 5</b>" in lab.score_title.text()
    # The three words that were there keep their rows, so their scores are the same as before.
    assert np.allclose(lab.score_map.image.image[:, :3], (Y @ W) @ (X @ W).T)


def test_hovering_a_cell_writes_q_dot_k_out(lab, qtbot):
    with qtbot.waitSignal(lab.hint) as hint:
        hover_cell(lab.score_map, 2, 1)
    text = lab.dot_label.text()
    assert "q<sub>北京</sub>" in text and "k<sub>love</sub>" in text
    expected = float((Y @ W)[2] @ (X @ W)[1])  # (−1.2, −1.732) · (−0.8, 1.3856) = −1.44
    assert f"<b>{expected:.3f}".replace("-", "\u2212") in text
    assert "北京" in hint.args[0]


def test_clicking_a_row_makes_that_target_word_the_explorers_query(window, lab):
    click_cell(lab.weight_map, 1, 2)
    scenario = window.model.scenario
    assert np.allclose(scenario.query, (Y @ W)[1])
    assert np.allclose(scenario.keys, X @ W) and np.allclose(scenario.values, X @ W_V)
    assert scenario.labels == ("I", "love", "Beijing") and "爱" in scenario.title
    assert np.allclose(window.model.result.weights, lab.weight_map.image.image[1])
    names = [arrow.label.textItem.toPlainText() for arrow in window.canvas._keys]
    assert names == ["I", "love", "Beijing"]
    assert "is now the query in the explorer" in lab.message_label.text()
    assert "is now the query" in window.findChild(QLabel, "statusHint").text()


def test_a_typed_number_is_recomputed_and_a_bad_one_is_refused(lab):
    lab.cross_model.set_cell("source_embeddings", 0, 0, 3.2)
    assert lab.score_map.image.image[0, 0] == pytest.approx(2 * 2.64)
    lab.source_edit.setText("   ")
    QTest.keyClick(lab.source_edit, Qt.Key.Key_Return)
    assert "type at least one word" in lab.message_label.text()
    assert lab.source_edit.text() == "I love Beijing"
    assert lab.weight_map.image.image.shape == (3, 3)


def test_file_open_dispatches_a_cross_file_and_refuses_a_bad_one(window, tmp_path, monkeypatch):
    good = tmp_path / "mine.json"
    good.write_text(json.dumps({
        "kind": "cross", "title": "mine", "target_tokens": ["a", "b"], "source_tokens": ["x"],
        "target_embeddings": [[1.0], [2.0]], "source_embeddings": [[1.0]], "w_q": [[1.0]], "w_k": [[1.0]],
        "w_v": [[1.0]]}), encoding="utf-8")
    assert window.open_file(str(good), ask=False)
    lab = window.page(page_index("cross-attention"))
    assert window.central_tabs.currentIndex() == page_index("cross-attention")
    assert lab.weight_map.image.image.tolist() == [[1.0], [1.0]]
    errors = []
    monkeypatch.setattr(window, "show_error", lambda title, text: errors.append(text))
    bad = tmp_path / "bad.json"
    bad.write_text(good.read_text(encoding="utf-8").replace('"source_tokens": ["x"]', '"source_tokens": ["x", "y"]'),
                   encoding="utf-8")
    assert not window.open_file(str(bad), ask=False)
    assert errors == ["bad.json: source_embeddings: expected 2 rows (one per source token), got 1"]
    assert lab.weight_map.image.image.shape == (2, 1)  # what was open stays


def test_the_positions_lab_also_fits_1280x720_with_its_own_hint(window):
    window.show_page(page_index("positions"))
    QApplication.processEvents()
    scroll = window.central_tabs.widget(page_index("positions"))
    assert scroll.verticalScrollBar().maximum() == 0 and scroll.horizontalScrollBar().maximum() == 0
    assert window.central_tabs.tabText(page_index("positions")) == "Positions and q·k"
    assert window.findChild(QLabel, "statusHint").text().startswith("Move m and n")


def test_fits_1280x720_and_follows_the_dark_theme(window, lab):
    scroll = window.central_tabs.widget(page_index("cross-attention"))
    assert scroll.verticalScrollBar().maximum() == 0 and scroll.horizontalScrollBar().maximum() == 0
    window.set_theme("dark")
    QApplication.processEvents()
    try:
        assert lab.palette().window().color().lightness() < 100
        lab.target_edit.setText("")
        QTest.keyClick(lab.target_edit, Qt.Key.Key_Return)
        assert "#FF8A65" in lab.message_label.text()  # the error colour that reads on a dark background
    finally:
        window.set_theme("light")


def test_zoom_in_enlarges_the_labels_and_numbers_of_the_maps(window, lab):
    def sizes():
        axis_font = lab.weight_map.getPlotItem().getAxis("left").style["tickFont"]
        return axis_font.pointSizeF(), lab.weight_map.cell_texts[0].textItem.font().pointSizeF()

    before = sizes()
    window.actions_by_name["zoomIn"].trigger()
    QApplication.processEvents()
    try:
        after = sizes()
        assert after[0] > before[0] and after[1] > before[1]
    finally:
        window.actions_by_name["zoomReset"].trigger()
        QApplication.processEvents()
    assert sizes() == before


def test_a_token_with_markup_is_shown_as_text(lab, qtbot):
    lab.target_edit.setText("<b>x</b> <img")
    QTest.keyClick(lab.target_edit, Qt.Key.Key_Return)
    with qtbot.waitSignal(lab.hint) as hint:
        hover_cell(lab.score_map, 1, 0)
    assert "q<sub>&lt;img</sub>" in lab.dot_label.text()
    assert "“<img” (target)" in hint.args[0]
    click_cell(lab.score_map, 0, 0)
    assert "&lt;b&gt;x&lt;/b&gt;" in lab.message_label.text()
    rows = [text for _, text in lab.score_map.getPlotItem().getAxis("left")._tickLevels[0]]
    assert rows[0].startswith("<b>x") and rows[1] == "<img"  # the characters themselves (a long one elided)
