"""The self-attention lab, driven like a user: heatmaps equal Q·Kᵀ and its row softmax, the mask, hover, row clicks."""

import numpy as np
import pytest
from PySide6.QtCore import QEvent, QPointF, Qt
from PySide6.QtGui import QGuiApplication, QMouseEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from attention_explorer.core.scenes.sequence.scene import SequenceScenario
from attention_explorer.ui.labs.self_attention.lab import CELL_TEXT_MAX_N, SelfAttentionLab

# The preset's numbers, typed in again here so the expectations do not come from the code under test.
X = np.array([[1, 0, 1, 0], [0, 1, 0, 0], [1, 0, 0, 1]], dtype=float)
W_Q = np.array([[0, 1], [1.5, 0], [0, 0.5], [0.5, 0]])
W_K = np.array([[1, 0], [0, 1.5], [0.5, 0], [0, 0]])
W_V = np.array([[0, 0], [0, 1], [1, 0], [0.5, 0.5]])
MINUS = "\u2212"


@pytest.fixture
def lab(qtbot, model):
    """The lab on its default 我 爱 北京 sentence, shown at a realistic size, beside a main explorer model."""
    widget = SelfAttentionLab(model)
    qtbot.addWidget(widget)
    widget.resize(1000, 650)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def texts(heatmap) -> list[str]:
    return [item.toPlainText() for item in heatmap.cell_texts]


def formatted(values) -> list[str]:
    """Two decimals with a typographic minus, as a lecturer reads them."""
    return [f"{v:.2f}".replace("-", MINUS) if f"{v:.2f}" != "-0.00" else "0.00" for v in np.ravel(values)]


def row_softmax(logits: np.ndarray) -> np.ndarray:
    exps = np.exp(logits - logits.max(axis=1, keepdims=True))
    return exps / exps.sum(axis=1, keepdims=True)


def click_cell(heatmap, row: int, column: int) -> None:
    QTest.mouseClick(heatmap.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     heatmap.cell_center(row, column).toPoint())


def hover_cell(heatmap, row: int, column: int) -> None:
    point = heatmap.cell_center(row, column)
    event = QMouseEvent(QEvent.Type.MouseMove, point, heatmap.viewport().mapToGlobal(point),
                        Qt.MouseButton.NoButton, Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(heatmap.viewport(), event)


def type_into(qtbot, line_edit, text: str) -> None:
    """Type a sentence and press Enter (non-Latin text goes in as a paste: QTest cannot type it)."""
    line_edit.setFocus()
    line_edit.selectAll()
    if text.isascii():
        QTest.keyClicks(line_edit, text)
    else:
        line_edit.insert(text)
    QTest.keyClick(line_edit, Qt.Key.Key_Return)


def test_score_heatmap_cells_are_q_times_k_transpose(lab):
    """Image and cell numbers equal (X·W_Q)(X·W_K)ᵀ; tokens label both axes; shapes are written out."""
    expected = (X @ W_Q) @ (X @ W_K).T
    assert np.array_equal(lab.score_map.image.image, expected)
    assert texts(lab.score_map) == ["0.00", "2.25", "0.00", "2.25", "0.00", "1.50", "0.75", "1.50", "0.50"]
    item = lab.score_map.getPlotItem()
    assert [label for _, label in item.getAxis("left")._tickLevels[0]] == ["我", "爱", "北京"]
    assert [label for _, label in item.getAxis("top")._tickLevels[0]] == ["我", "爱", "北京"]
    assert "(3 × 2) · (2 × 3) = <b>3 × 3</b>" in lab.score_title.text()
    assert "<b>3 × 2</b>" in lab.q_caption.text() and "<b>3 × 2</b>" in lab.v_caption.text()
    assert [lab.q_model.data(lab.q_model.index(1, c)) for c in range(2)] == ["1.50", "0.00"]


def test_typed_sentence_gives_its_own_q_k_transpose(lab, qtbot):
    """Six words typed in: a 6×6 map whose cells are X·W_Q·(X·W_K)ᵀ of the lab's X and W's."""
    type_into(qtbot, lab.tokens_edit, "the cat sat on the mat")
    sequence = lab.sequence_model.sequence
    assert sequence.tokens == ("the", "cat", "sat", "on", "the", "mat")
    x = sequence.embeddings
    expected = (x @ sequence.w_q) @ (x @ sequence.w_k).T
    assert lab.score_map.image.image.shape == (6, 6)
    assert np.allclose(lab.score_map.image.image, expected, rtol=0, atol=1e-12)
    assert texts(lab.score_map) == formatted(expected)
    assert np.array_equal(x[0], x[4])  # the same word has the same embedding, so "the" rows match
    assert np.array_equal(lab.score_map.image.image[0], lab.score_map.image.image[4])
    assert "(6 × 2) · (2 × 6)" in lab.score_title.text()


def test_weight_rows_sum_to_one_with_and_without_the_mask(lab, qtbot):
    """Row softmax of the scaled scores; the causal mask shows −∞ and hatching, and gives exactly 0."""
    scores = (X @ W_Q) @ (X @ W_K).T
    weights = lab.weight_map.image.image
    assert np.allclose(weights, row_softmax(scores / np.sqrt(2)))
    assert np.allclose(weights.sum(axis=1), 1.0) and (weights > 0).all()
    assert "Each row sums to 1" in lab.weight_caption.text()
    assert not lab.score_map.mask_hatch.isVisible()

    QTest.mouseClick(lab.causal_check, Qt.MouseButton.LeftButton)
    assert lab.sequence_model.sequence.causal
    upper = np.triu(np.ones((3, 3), dtype=bool), k=1)
    weights = lab.weight_map.image.image
    assert np.allclose(weights.sum(axis=1), 1.0)
    assert (weights[upper] == 0.0).all()
    masked_logits = np.where(upper, -np.inf, scores / np.sqrt(2))
    assert np.allclose(weights, row_softmax(masked_logits))
    assert texts(lab.score_map) == ["0.00", MINUS + "∞", MINUS + "∞", "2.25", "0.00", MINUS + "∞", "0.75", "1.50",
                                    "0.50"]
    assert texts(lab.weight_map)[1:3] == ["0", "0"] and texts(lab.weight_map)[0] == "1.00"
    assert np.isnan(lab.score_map.image.image[upper]).all()  # masked cells carry no colour: hatched grey instead
    assert lab.score_map.mask_hatch.isVisible() and lab.weight_map.mask_fill.isVisible()
    hatched = lab.score_map.mask_hatch.path()
    assert hatched.contains(QPointF(2.5, 0.5)) and hatched.contains(QPointF(2.5, 1.5))
    assert not hatched.contains(QPointF(0.5, 1.5))

    QTest.mouseClick(lab.causal_check, Qt.MouseButton.LeftButton)
    assert (lab.weight_map.image.image > 0).all() and not lab.score_map.mask_hatch.isVisible()


def test_clicking_a_row_makes_that_token_the_explorers_query(lab, model):
    """A real click on row 爱: the main model's query is Q[1], its keys K and values V, labelled by the tokens."""
    click_cell(lab.score_map, 1, 0)
    scenario = model.scenario
    assert scenario.query.tolist() == (X @ W_Q)[1].tolist() == [1.5, 0.0]
    assert scenario.keys.tolist() == (X @ W_K).tolist()
    assert scenario.values.tolist() == (X @ W_V).tolist()
    assert scenario.labels == ("我", "爱", "北京")
    assert "爱" in scenario.title and scenario.scale is None
    assert np.allclose(model.result.weights, lab.weight_map.image.image[1])
    assert "is now the query in the explorer" in lab.message_label.text()


def test_with_the_mask_a_row_brings_only_the_keys_up_to_it(lab, model):
    QTest.mouseClick(lab.causal_check, Qt.MouseButton.LeftButton)
    click_cell(lab.weight_map, 1, 2)
    assert model.scenario.labels == ("我", "爱")
    assert model.scenario.keys.tolist() == (X @ W_K)[:2].tolist()
    assert "causal" in model.scenario.title
    assert np.allclose(model.result.weights, lab.weight_map.image.image[1, :2])


def test_hovering_a_cell_shows_its_dot_product_and_highlights_q_and_k_rows(lab, qtbot):
    with qtbot.waitSignal(lab.hint) as hint:
        hover_cell(lab.score_map, 1, 2)
    assert lab.sequence_model.hovered == (1, 2)
    text = lab.dot_label.text()
    assert "q<sub>爱</sub>" in text and "k<sub>北京</sub>" in text
    assert "1.50×1.00 + 0.00×0.00 = <b>1.500</b>" in text  # q_爱 = [1.5, 0], k_北京 = [1, 0]
    assert "weight <b>0.328</b>" in text
    assert "1.500" in hint.args[0]
    assert lab.q_model.highlighted_row == 1 and lab.k_model.highlighted_row == 2
    assert lab.q_model.data(lab.q_model.index(1, 0), Qt.ItemDataRole.BackgroundRole) is not None
    assert lab.q_model.data(lab.q_model.index(0, 0), Qt.ItemDataRole.BackgroundRole) is None
    assert lab.score_map.hover_box.isVisible() and lab.score_map.hover_box.rect().topLeft() == QPointF(2, 1)
    assert lab.weight_map.hover_box.rect().topLeft() == QPointF(2, 1)
    leave = QEvent(QEvent.Type.Leave)
    QApplication.sendEvent(lab.score_map.viewport(), leave)
    assert lab.sequence_model.hovered is None and not lab.score_map.hover_box.isVisible()
    assert lab.q_model.highlighted_row == -1


def test_bad_tokens_are_shown_and_change_nothing(lab, qtbot):
    before = lab.sequence_model.sequence
    with qtbot.waitSignal(lab.hint) as hint:
        type_into(qtbot, lab.tokens_edit, "我 " + "爱" * 65)
    assert lab.sequence_model.sequence is before
    assert "tokens[1]: 65 characters, at most 64" in lab.message_label.text() and lab.message_label.isVisible()
    assert "65 characters" in hint.args[0]


def test_identity_needs_square_weights_then_q_k_v_equal_x(lab, qtbot):
    QTest.mouseClick(lab.identity_button, Qt.MouseButton.LeftButton)
    assert "an identity W needs d_k = d_v = d_model" in lab.message_label.text()
    assert lab.sequence_model.sequence.w_q.tolist() == W_Q.tolist()
    for name in ("d_k", "d_v"):
        spin = lab.size_spins[name]
        spin.lineEdit().selectAll()
        QTest.keyClicks(spin.lineEdit(), "4")
        QTest.keyClick(spin.lineEdit(), Qt.Key.Key_Return)
    assert (lab.sequence_model.sequence.d_k, lab.sequence_model.sequence.d_v) == (4, 4)
    assert "<b>3 × 4</b>" in lab.q_caption.text()
    QTest.mouseClick(lab.identity_button, Qt.MouseButton.LeftButton)
    assert "⚠" not in lab.message_label.text()
    assert np.array_equal(lab.sequence_model.result.queries, X)
    assert np.array_equal(lab.score_map.image.image, X @ X.T)  # with W = I a token scores |x|² with itself


def test_editing_an_embedding_cell_updates_the_maps(lab, qtbot):
    lab.tabs.setCurrentIndex(1)  # X
    table = lab.edit_tables["embeddings"]
    qtbot.waitExposed(table)
    index = table.model().index(1, 0)
    table.setFocus()
    table.setCurrentIndex(index)
    QTest.keyClicks(table, "2")  # the first key opens the cell's editor and lands in it
    editor = table.indexWidget(index)
    assert editor.text() == "2"
    QTest.keyClick(editor, Qt.Key.Key_Return)
    QApplication.processEvents()  # the delegate commits through a queued call
    x = X.copy()
    x[1, 0] = 2.0
    assert lab.sequence_model.sequence.embeddings.tolist() == x.tolist()
    assert np.array_equal(lab.score_map.image.image, (x @ W_Q) @ (x @ W_K).T)
    assert table.model().data(index) == "2.00"


def test_a_pasted_block_fills_w_q_from_the_current_cell(lab, qtbot):
    lab.tabs.setCurrentIndex(2)  # W_Q
    table = lab.edit_tables["w_q"]
    table.setFocus()
    table.setCurrentIndex(table.model().index(1, 0))
    QGuiApplication.clipboard().setText("1\t2\n3\t" + MINUS + "4\n")
    QTest.keySequence(table, "Ctrl+V")
    assert lab.sequence_model.sequence.w_q.tolist() == [[0, 1], [1, 2], [3, -4], [0.5, 0]]
    QGuiApplication.clipboard().setText("1\t2\n3\t4\n5\t6\n7\t8")
    QTest.keySequence(table, "Ctrl+V")
    assert "does not fit" in lab.message_label.text()
    assert lab.sequence_model.sequence.w_q.tolist() == [[0, 1], [1, 2], [3, -4], [0.5, 0]]


def test_beyond_16_tokens_colour_only_and_items_are_reused(lab, qtbot):
    image_item, bar = lab.score_map.image, lab.score_map.colour_bar
    type_into(qtbot, lab.tokens_edit, " ".join(f"w{i}" for i in range(20)))
    assert lab.score_map.image is image_item and lab.score_map.colour_bar is bar
    assert lab.score_map.cell_texts == [] and lab.weight_map.cell_texts == []
    result = lab.sequence_model.result
    assert np.array_equal(lab.score_map.image.image, result.queries @ result.keys.T)
    assert np.allclose(lab.weight_map.image.image.sum(axis=1), 1.0)
    type_into(qtbot, lab.tokens_edit, " ".join(f"w{i}" for i in range(CELL_TEXT_MAX_N)))
    assert len(lab.score_map.cell_texts) == CELL_TEXT_MAX_N**2


def test_load_sequence_opens_another_sentence(lab):
    sequence = SequenceScenario(tokens=("a", "b"), embeddings=[[1.0], [2.0]], w_q=[[1.0]], w_k=[[3.0]],
                                     w_v=[[1.0]], causal=True, title="two")
    lab.load(sequence)
    assert lab.tokens_edit.text() == "a b" and lab.causal_check.isChecked()
    assert texts(lab.score_map) == ["3.00", MINUS + "∞", "6.00", "12.00"]
    assert lab.size_spins["d_model"].value() == 1


def test_language_change_retranslates_static_texts(lab):
    lab.causal_check.setText("")
    QApplication.sendEvent(lab, QEvent(QEvent.Type.LanguageChange))
    assert lab.causal_check.text() == "Causal mask" and lab.tabs.tabText(3) == "W_K"


@pytest.mark.parametrize(("typed", "message"), [
    ("2e6", "“2e6” is out of range (|x| must be at most 1 000 000)"),
    ("abc", "“abc” is not a number"),
    ("1_0", "“1_0” is not a number"),
])
def test_a_typed_bad_number_is_refused_with_the_vector_editors_message(lab, qtbot, typed, message):
    """The lab reads numbers as the vector editor does: bounded to |x| ≤ 1e6, refusals named the same way."""
    lab.tabs.setCurrentIndex(1)  # X
    table = lab.edit_tables["embeddings"]
    qtbot.waitExposed(table)
    index = table.model().index(1, 0)
    table.setFocus()
    table.setCurrentIndex(index)
    QTest.keyClicks(table, typed[0])  # the first key opens the cell's editor and lands in it
    editor = table.indexWidget(index)
    QTest.keyClicks(editor, typed[1:])
    with qtbot.waitSignal(lab.hint) as hint:
        QTest.keyClick(editor, Qt.Key.Key_Return)
    assert hint.args[0] == message and message in lab.message_label.text()
    assert lab.sequence_model.sequence.embeddings.tolist() == X.tolist()
    assert table.model().data(index) == "0.00"


def test_a_pasted_bad_number_is_refused_and_nothing_changes(lab, qtbot):
    lab.tabs.setCurrentIndex(2)  # W_Q
    table = lab.edit_tables["w_q"]
    table.setFocus()
    table.setCurrentIndex(table.model().index(0, 0))
    QGuiApplication.clipboard().setText("1\t2\n3\t4e6\n")
    with qtbot.waitSignal(lab.hint) as hint:
        QTest.keySequence(table, "Ctrl+V")
    assert hint.args[0] == "“4e6” is out of range (|x| must be at most 1 000 000)"
    assert lab.sequence_model.sequence.w_q.tolist() == W_Q.tolist()


def test_a_refused_paste_is_explained_in_chinese(lab, qtbot):
    from attention_explorer.ui.i18n.switcher import language_switcher

    language_switcher().set_language("zh_CN")
    try:
        lab.tabs.setCurrentIndex(2)  # W_Q
        table = lab.edit_tables["w_q"]
        table.setFocus()
        table.setCurrentIndex(table.model().index(0, 0))
        for text, message in (("1\t4e6", "“4e6”超出范围（|x| 不能超过 1 000 000）"),
                              ("1\t2\n3", "粘贴的各行长度不一致")):
            QGuiApplication.clipboard().setText(text)
            with qtbot.waitSignal(lab.hint) as hint:
                QTest.keySequence(table, "Ctrl+V")
            assert hint.args[0] == message
        assert lab.sequence_model.sequence.w_q.tolist() == W_Q.tolist()
    finally:
        language_switcher().set_language("en")
