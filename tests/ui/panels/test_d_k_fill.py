"""Growing d_k in a real window: new components are seeded N(0, 1) unless zeros is chosen; the panel says why."""

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest


def _shown_rows(window, first_column: int, last_column: int) -> list[list[str]]:
    """The Vectors table's texts of Q and every key in columns first…last (column 0 is the name)."""
    table = window.editor.table_model
    rows = 1 + window.model.scenario.n
    return [[table.index(row, column).data(Qt.ItemDataRole.DisplayRole) for column in range(first_column,
             last_column + 1)] for row in range(rows)]


def _assert_fits(label) -> None:
    """The wrapped text needs no more height than the label has (a dock squeezed it to one line before)."""
    needed = label.fontMetrics().boundingRect(0, 0, label.contentsRect().width(), 10_000,
                                               Qt.TextFlag.TextWordWrap, label.text()).height()
    assert needed <= label.contentsRect().height(), (needed, label.contentsRect().height())


def _raise_d_k_on_the_slider(window) -> None:
    slider = window.scale_controls.d_k_slider  # a drag by one stop (→ on its own belongs to the canvas)
    slider.setSliderDown(True)
    slider.setValue(slider.value() + 1)  # d_k 2 → 3 on the default example
    slider.setSliderDown(False)


def _type_d_k_in_the_editor(window, d_k: int) -> None:
    spin = window.editor.d_k_spin
    spin.setFocus()
    spin.lineEdit().selectAll()
    QTest.keyClicks(spin, str(d_k))
    QTest.keyClick(spin, Qt.Key.Key_Return)


def test_raising_d_k_on_the_slider_of_a_fresh_window_draws_seeded_normal_components(make_window):
    window = make_window()
    assert window.model.scenario.d_k == 2
    assert window.scale_controls.fill_combo.currentText() == "random N(0,1)"
    _raise_d_k_on_the_slider(window)
    assert window.model.scenario.d_k == 3
    new = _shown_rows(window, 3, 3)
    assert any(text != "0.000" for [text] in new)
    rows = 1 + window.model.scenario.n
    expected = np.random.default_rng(0).standard_normal((rows, 1))  # seed 0 unless the seed box says otherwise
    assert new == [[f"{value:.3f}".replace("-", "−")] for [value] in expected]

    again = make_window()  # a second fresh window: the same seed gives the same numbers
    _raise_d_k_on_the_slider(again)
    assert _shown_rows(again, 3, 3) == new


def test_the_seed_box_changes_the_numbers_and_the_editor_spin_box_follows_it(make_window):
    window = make_window()
    seed = window.scale_controls.seed_spin
    seed.setFocus()
    QTest.keyClick(seed, Qt.Key.Key_Up)  # seed 1
    _type_d_k_in_the_editor(window, 4)
    rows = 1 + window.model.scenario.n
    expected = np.random.default_rng(1).standard_normal((rows, 2))
    assert _shown_rows(window, 3, 4) == [[f"{value:.3f}".replace("-", "−") for value in row] for row in expected]


def test_choosing_zeros_fills_zeros_on_both_d_k_boxes(make_window):
    window = make_window()
    combo = window.scale_controls.fill_combo
    combo.setFocus()
    QTest.keyClick(combo, Qt.Key.Key_Down)  # random → zeros
    assert combo.currentText() == "zeros"
    assert not window.scale_controls.seed_spin.isEnabled()
    _raise_d_k_on_the_slider(window)
    assert _shown_rows(window, 3, 3) == [["0.000"]] * (1 + window.model.scenario.n)
    _type_d_k_in_the_editor(window, 5)
    assert _shown_rows(window, 3, 5) == [["0.000"] * 3] * (1 + window.model.scenario.n)


def test_the_line_under_the_fill_box_says_what_each_fill_shows(make_window):
    window = make_window()
    panel = window.scale_controls
    note = panel.fill_note
    assert note.isVisible()
    assert note.text() == "New components are N(0, 1): q·k spreads like √d_k."
    assert note.geometry().top() >= panel.fill_combo.geometry().bottom()  # under the box, not beside it
    _assert_fits(note)
    panel.fill_combo.setFocus()
    QTest.keyClick(panel.fill_combo, Qt.Key.Key_Down)
    assert note.isVisible()
    assert note.text() == "New components are 0: q·k stays, only the scaling shrinks it."
    _assert_fits(note)
    QTest.keyClick(panel.fill_combo, Qt.Key.Key_Up)
    assert "N(0, 1)" in note.text()



def test_the_fill_line_is_translated(make_window):
    window = make_window(language="zh_CN")
    note = window.scale_controls.fill_note
    assert note.isVisible() and note.text()
    assert "New components" not in note.text()
    _assert_fits(note)
