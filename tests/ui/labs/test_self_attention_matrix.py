"""The self-attention lab's whole matrix form, driven like a user: A·V with its shape, hovering an output row, masks."""

import numpy as np
import pytest
from PySide6.QtCore import QEvent, QPoint, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QMouseEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from attention_explorer.core.scenes.sequence.scene import build_sequence
from attention_explorer.ui.labs.self_attention.lab import SelfAttentionLab
from attention_explorer.ui.labs.self_attention.output import WEIGHTED_ROW_HEX

# The preset's numbers typed in again, so the expectations do not come from the code under test.
X = np.array([[1, 0, 1, 0], [0, 1, 0, 0], [1, 0, 0, 1]], dtype=float)
W_Q = np.array([[0, 1], [1.5, 0], [0, 0.5], [0.5, 0]])
W_K = np.array([[1, 0], [0, 1.5], [0.5, 0], [0, 0]])
W_V = np.array([[0, 0], [0, 1], [1, 0], [0.5, 0.5]])
MINUS_INFINITY = "\u2212∞"


@pytest.fixture(scope="module")
def lab(qapp):
    """One lab for the module, on its default 我 爱 北京 sentence at the size it gets in a 1280×720 window."""
    from attention_explorer.state.explorer import ExplorerModel

    widget = SelfAttentionLab(ExplorerModel())
    widget.resize(1264, 640)
    widget.show()
    QTest.qWaitForWindowExposed(widget)
    yield widget
    widget.close()
    widget.deleteLater()


@pytest.fixture(autouse=True)
def fresh(lab):
    """Every test starts on the preset, unmasked, with nothing hovered."""
    lab._load_chinese_example()
    lab.sequence_model.set_output_hover(-1)
    yield


def weights_by_hand(blocked=None) -> np.ndarray:
    logits = (X @ W_Q) @ (X @ W_K).T / np.sqrt(2)
    if blocked is not None:
        logits = np.where(blocked, -np.inf, logits)
    exps = np.exp(logits - logits.max(axis=1, keepdims=True))
    return exps / exps.sum(axis=1, keepdims=True)


def texts(heatmap) -> list[str]:
    return [item.toPlainText() for item in heatmap.cell_texts]


def table_texts(table) -> list[list[str]]:
    model = table.model()
    return [[model.data(model.index(r, c)) for c in range(model.columnCount())] for r in range(model.rowCount())]


def header_texts(table) -> list[str]:
    model = table.model()
    return [model.headerData(r, Qt.Orientation.Vertical) for r in range(model.rowCount())]


def move_mouse(widget, point: QPoint) -> None:
    event = QMouseEvent(QEvent.Type.MouseMove, QPointF(point), QPointF(widget.mapToGlobal(point)),
                        Qt.MouseButton.NoButton, Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(widget, event)


def test_output_is_weights_times_v_with_its_shape(lab):
    """A·V (3 × 2), one row per token, equals the hand-computed softmax times V."""
    expected = weights_by_hand() @ (X @ W_V)
    shown = table_texts(lab.output.output_table)
    assert shown == [[f"{v:.2f}" for v in row] for row in expected]
    assert header_texts(lab.output.output_table) == ["我", "爱", "北京"]
    assert "(3 × 3) · (3 × 2) = <b>3 × 2</b>" in lab.output.title.text()
    assert lab.output.isVisible() and lab.output.output_table.isVisible()


def test_hovering_an_output_row_outlines_its_row_of_a_and_tints_v(lab, qtbot):
    """Mouse over output row 爱: row 1 of A outlined in the weights map, V rows tinted and labelled by a_1j."""
    table = lab.output.output_table
    move_mouse(table.viewport(), table.visualRect(table.model().index(1, 0)).center())
    qtbot.waitUntil(lambda: lab.sequence_model.output_row == 1)
    weights = weights_by_hand()[1]
    mark = lab.weight_map.row_mark
    assert mark.isVisible() and mark.rect() == QRectF(0, 1, 3, 1)
    assert header_texts(lab.output.v_table) == [f"{t} ×{w:.2f}" for t, w in zip(("我", "爱", "北京"), weights)]
    assert "tinted by row “爱” of A" in lab.output.v_caption.text()
    # The drawn tint: the strongest-weighted V row shows the tint nearly fully, the weakest nearly the base colour.
    image = lab.output.v_table.viewport().grab().toImage()
    v_model = lab.output.v_model
    base = QApplication.palette().base().color()
    for row in range(3):
        rect = lab.output.v_table.visualRect(v_model.index(row, 0))
        drawn = image.pixelColor(rect.left() + 3, rect.center().y())
        tint = QColor(WEIGHTED_ROW_HEX)
        expected = [b + (t - b) * weights[row] for b, t in zip((base.red(), base.green(), base.blue()),
                                                               (tint.red(), tint.green(), tint.blue()))]
        assert max(abs(a - b) for a, b in zip((drawn.red(), drawn.green(), drawn.blue()), expected)) <= 6
    sum_text = lab.dot_label.text()
    assert f"{weights[0]:.2f}·v<sub>我</sub>" in sum_text and "o<sub>爱</sub>" in sum_text
    QApplication.sendEvent(table.viewport(), QEvent(QEvent.Type.Leave))
    assert lab.sequence_model.output_row == -1 and not mark.isVisible()
    assert header_texts(lab.output.v_table) == ["我", "爱", "北京"]


def test_padding_switch_shows_minus_infinity_in_its_column_and_m(lab, qtbot):
    """Clicking "Padding mask" pads the last token: its column reads −∞, its weights 0, M is written out."""
    QTest.mouseClick(lab.padding_button, Qt.MouseButton.LeftButton, pos=QPoint(10, lab.padding_button.height() // 2))
    assert lab.sequence_model.sequence.padding == (2,)
    assert texts(lab.score_map)[2::3] == [MINUS_INFINITY] * 3
    assert texts(lab.weight_map)[2::3] == ["0"] * 3
    blocked = np.zeros((3, 3), dtype=bool)
    blocked[:, 2] = True
    assert np.allclose(lab.weight_map.image.image, weights_by_hand(blocked), rtol=0, atol=1e-12)
    formula = lab.formula_label.text()
    assert "softmax(QK<sup>T</sup>/√d<sub>k</sub> + M)·V" in formula
    assert formula.count(MINUS_INFINITY) == 3 + 1 and "“北京”" in formula  # three cells, one in the summary
    assert lab.score_map.mask_hatch.path().contains(QPointF(2.5, 0.5))
    QTest.mouseClick(lab.causal_check, Qt.MouseButton.LeftButton)
    assert texts(lab.score_map) == ["0.00", MINUS_INFINITY, MINUS_INFINITY, "2.25", "0.00", MINUS_INFINITY,
                                    "0.75", "1.50", MINUS_INFINITY]
    assert lab.formula_label.text().count(MINUS_INFINITY) == 4 + 1  # the union: (0, 1) and column 2
    QTest.mouseClick(lab.padding_button, Qt.MouseButton.LeftButton, pos=QPoint(10, lab.padding_button.height() // 2))
    assert lab.sequence_model.sequence.padding == () and texts(lab.score_map)[8] == "0.50"


def test_padding_menu_chooses_tokens_and_refuses_an_empty_row(lab, qtbot):
    """The menu's check boxes pick padded tokens; padding 我 under the causal mask is refused with its reason."""
    menu = lab.padding_button.token_menu
    menu.popup(lab.padding_button.mapToGlobal(QPoint(0, lab.padding_button.height())))
    qtbot.waitUntil(menu.isVisible)
    assert [action.text() for action in menu.actions()] == ["0: 我", "1: 爱", "2: 北京"]
    QTest.mouseClick(menu, Qt.MouseButton.LeftButton, pos=menu.actionGeometry(menu.actions()[1]).center())
    assert lab.sequence_model.sequence.padding == (1,) and lab.padding_button.isChecked()
    assert texts(lab.score_map)[1::3] == [MINUS_INFINITY] * 3
    QTest.mouseClick(lab.causal_check, Qt.MouseButton.LeftButton)
    before = lab.sequence_model.sequence
    menu.popup(lab.padding_button.mapToGlobal(QPoint(0, lab.padding_button.height())))
    qtbot.waitUntil(menu.isVisible)
    QTest.mouseClick(menu, Qt.MouseButton.LeftButton, pos=menu.actionGeometry(menu.actions()[0]).center())
    assert lab.sequence_model.sequence is before
    assert "the first token (position 0) cannot be padded" in lab.message_label.text()


def test_a_longer_sentence_summarises_m_in_words(lab):
    """Six tokens: M is not drawn cell by cell but said in words, naming the padding tokens."""
    lab.load(build_sequence("the cat sat on the mat".split(), 4, 2, 2, causal=True, padding=(4, 5)))
    formula = lab.formula_label.text()
    assert "<table" not in formula
    assert "above the diagonal (causal)" in formula and "“the”, “mat”" in formula
    assert lab.padding_button.isChecked() and "(6 × 6) · (6 × 2) = <b>6 × 2</b>" in lab.output.title.text()


def test_padding_apart_from_other_masked_cells_leaves_the_gap_unhatched(lab):
    """Padding 0 and 2 of three tokens: two hatched columns with the unmasked column 1 between them left clear."""
    lab.load(build_sequence(["a", "b", "c"], 2, 2, 2, padding=(0, 2)))
    hatched = lab.score_map.mask_hatch.path()
    assert hatched.contains(QPointF(0.5, 1.5)) and hatched.contains(QPointF(2.5, 1.5))
    assert not hatched.contains(QPointF(1.5, 1.5))
    assert texts(lab.score_map)[3:6] == [MINUS_INFINITY, texts(lab.score_map)[4], MINUS_INFINITY]
    assert texts(lab.weight_map)[1::3] == ["1.00"] * 3
