"""The vector editor, driven like a user: typing into cells, buttons, spin boxes, Ctrl+V."""

import numpy as np
import pytest
from PySide6.QtCore import QEvent, QModelIndex, QObject, QPoint, QRect, Qt
from PySide6.QtGui import QFontMetricsF, QGuiApplication, QImage, QPainter
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QLineEdit, QStyle, QStyleOptionViewItem

from attention_explorer.core.files.presets import load_preset
from attention_explorer.state.explorer import ExplorerModel
from attention_explorer.ui.panels.vector_editor import VectorEditor
from attention_explorer.ui.panels.vector_table import SHOWN_COMPONENTS
from attention_explorer.ui.style.theme import theme
from tests.ui.widget_helpers import press_enter, type_into_cell

Q_ROW, K1_ROW, K2_ROW, K3_ROW = 0, 1, 2, 3
NAME = 0


@pytest.fixture
def editor(qtbot, model):
    """The editor on the drag-2d preset (Q = [1.5, 0.5], K2 = [-0.6, 1.3], V2 = [0.1, 1.0]), shown."""
    panel = VectorEditor(model)
    qtbot.addWidget(panel)
    panel.resize(420, 360)
    panel.show()
    return panel


def _index(editor: VectorEditor, row: int, column: int) -> QModelIndex:
    return editor.table_model.index(row, column)


def _text(editor: VectorEditor, row: int, column: int) -> str:
    return _index(editor, row, column).data(Qt.ItemDataRole.DisplayRole)


def test_the_table_shows_q_then_every_pair_with_three_decimals(editor):
    assert editor.objectName() == "vectorEditor"
    assert editor.table_model.rowCount() == 4 and editor.table_model.columnCount() == 1 + 2 + 2
    headers = [editor.table_model.headerData(c, Qt.Orientation.Horizontal) for c in range(5)]
    assert headers == ["Name", "Q/K 0", "Q/K 1", "V 0", "V 1"]  # numbered from 0, like the canvas axes
    assert [_text(editor, r, NAME) for r in range(4)] == ["Q", "K1", "K2", "K3"]
    assert [_text(editor, Q_ROW, c) for c in (1, 2)] == ["1.500", "0.500"]
    assert [_text(editor, K2_ROW, c) for c in (1, 2, 3, 4)] == ["−0.600", "1.300", "0.100", "1.000"]
    assert _text(editor, Q_ROW, 3) is None  # Q has no value part
    assert not _index(editor, Q_ROW, 3).flags() & Qt.ItemFlag.ItemIsEditable


@pytest.mark.parametrize(("typed", "expected"), [
    ("0.25", 0.25), ("-2", -2.0), ("1e-3", 0.001), (" 3 ", 3.0), ("0,5", 0.5), ("−1.5", -1.5), ("+.5", 0.5),
])
def test_typing_a_number_commits_it(editor, model, typed, expected):
    type_into_cell(editor, K2_ROW, 2, typed)
    assert model.scenario.keys[1][1] == expected
    assert _text(editor, K2_ROW, 2) == f"{expected:.3f}".replace("-", "−")  # shown with the minus sign
    assert model.undo_stack.count() == 1
    assert not editor.message_label.isVisible()


@pytest.mark.parametrize("typed", ["abc", "nan", "inf", "-Infinity", "1e9", "", "0x10", "1_0", "1,2.5"])
def test_typing_a_bad_value_is_refused_visibly_and_the_model_keeps_its_value(editor, model, qtbot, typed):
    with qtbot.waitSignal(editor.hint) as hint:
        type_into_cell(editor, K2_ROW, 2, typed)
    assert model.scenario.keys[1][1] == 1.3
    assert model.undo_stack.count() == 0
    assert _text(editor, K2_ROW, 2) == "1.300"
    message = editor.message_label.text()
    assert editor.message_label.isVisible() and message == hint.args[0]
    assert "key K2 component 1" in message and "kept 1.300" in message
    if typed:
        assert f"“{typed}”" in message
    if typed == "1e9":
        assert "out of range" in message


def test_a_good_edit_after_a_refused_one_clears_the_message(editor, model):
    type_into_cell(editor, Q_ROW, 1, "abc")
    assert editor.message_label.isVisible()
    type_into_cell(editor, Q_ROW, 1, "2")
    assert model.scenario.query.tolist() == [2.0, 0.5]
    assert not editor.message_label.isVisible()


def test_typing_on_a_current_cell_starts_editing_it(editor, model):
    editor.table.setFocus()
    index = _index(editor, K3_ROW, 4)
    editor.table.setCurrentIndex(index)
    QTest.keyClicks(editor.table, "7")  # the first key opens the cell's editor and lands in it
    line = editor.table.indexWidget(index)
    assert line.text() == "7"
    QTest.keyClicks(line, ".5")
    press_enter(line)
    assert model.scenario.values[2].tolist() == [0.6, 7.5]


def test_labels_are_edited_in_the_name_column_and_empty_ones_are_refused(editor, model):
    type_into_cell(editor, K1_ROW, NAME, "Book")
    assert model.scenario.labels == ("Book", "K2", "K3")
    type_into_cell(editor, K1_ROW, NAME, "   ")
    assert model.scenario.labels[0] == "Book"
    assert "empty" in editor.message_label.text() and editor.message_label.isVisible()
    assert not _index(editor, Q_ROW, NAME).flags() & Qt.ItemFlag.ItemIsEditable


def test_an_open_editor_keeps_what_is_typed_while_the_model_changes(editor, model):
    index = _index(editor, K1_ROW, 1)
    editor.table.setCurrentIndex(index)
    editor.table.edit(index)
    line = editor.table.indexWidget(index)
    QTest.keyClick(line, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    QTest.keyClicks(line, "42")
    resets = []
    editor.table_model.modelReset.connect(lambda: resets.append(1))
    model.set_plane_position("key", 2, 0.25, -0.75)  # e.g. a drag on the canvas
    assert line.text() == "42" and editor.table.indexWidget(index) is line
    assert resets == []  # numbers only: no reset
    assert [_text(editor, K3_ROW, c) for c in (1, 2)] == ["0.250", "−0.750"]
    press_enter(line)
    assert model.scenario.keys[0].tolist() == [42.0, 0.9]


def test_more_digits_in_the_tooltip(editor, model):
    model.set_component("value", 0, 1, 1 / 3)
    index = _index(editor, K1_ROW, 4)
    assert index.data() == "0.333"
    assert "0.333333" in index.data(Qt.ItemDataRole.ToolTipRole)  # six digits, not a raw float
    assert "0.3333333333333333" not in index.data(Qt.ItemDataRole.ToolTipRole)
    assert index.data(Qt.ItemDataRole.EditRole) == "0.3333333333333333"  # editing keeps every digit


def test_add_and_remove_pairs_with_the_buttons(editor, model):
    QTest.mouseClick(editor.add_button, Qt.MouseButton.LeftButton)
    assert model.scenario.n == 4 and model.selected_key == 3
    assert editor.table_model.rowCount() == 5 and _text(editor, 4, NAME) == "K4"
    assert [_text(editor, 4, c) for c in (1, 2, 3, 4)] == ["0.000"] * 4
    model.select_key(1)
    assert "K2" in editor.remove_button.text()
    QTest.mouseClick(editor.remove_button, Qt.MouseButton.LeftButton)
    assert model.scenario.labels == ("K1", "K3", "K4")
    for _ in range(2):
        QTest.mouseClick(editor.remove_button, Qt.MouseButton.LeftButton)
    assert model.scenario.n == 1 and editor.table_model.rowCount() == 2
    assert not editor.remove_button.isEnabled()


def test_d_k_and_d_v_spin_boxes_by_keyboard(editor, model):
    editor.d_k_spin.setFocus()
    QTest.keyClick(editor.d_k_spin, Qt.Key.Key_Up)
    new = np.random.default_rng(0).standard_normal(4)  # N(0, 1) by default, seed 0: Q and three keys
    assert model.scenario.d_k == 3 and model.scenario.query.tolist() == [1.5, 0.5, new[0]]
    assert _text(editor, Q_ROW, 3) == f"{new[0]:.3f}" != "0.000"
    assert editor.table_model.columnCount() == 1 + 3 + 2
    assert editor.table_model.headerData(3, Qt.Orientation.Horizontal) == "Q/K 2"
    editor.d_v_spin.setFocus()
    QTest.keyClick(editor.d_v_spin, Qt.Key.Key_Down)
    assert model.scenario.d_v == 1 and editor.table_model.columnCount() == 1 + 3 + 1
    assert not editor.truncation_label.isVisible()


def test_a_typed_huge_d_k_shows_only_the_first_components_and_says_so(editor, model):
    editor.d_k_spin.setFocus()
    editor.d_k_spin.lineEdit().selectAll()
    QTest.keyClicks(editor.d_k_spin, "4096")
    assert model.scenario.d_k == 2  # no keyboard tracking: nothing until Enter
    QTest.keyClick(editor.d_k_spin, Qt.Key.Key_Return)
    assert model.scenario.d_k == 4096 and model.undo_stack.count() == 1
    assert editor.table_model.columnCount() == 1 + SHOWN_COMPONENTS + 2
    assert editor.truncation_label.isVisible()
    assert f"showing {SHOWN_COMPONENTS} of 4096" in editor.truncation_label.text()
    assert _text(editor, Q_ROW, SHOWN_COMPONENTS) == f"{model.scenario.query[SHOWN_COMPONENTS - 1]:.3f}".replace(
        "-", "−")


def test_selecting_a_row_selects_the_key_and_the_selected_row_is_highlighted(editor, model):
    rect = editor.table.visualRect(_index(editor, K3_ROW, 2))
    QTest.mouseClick(editor.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert model.selected_key == 2
    QTest.keyClick(editor.table, Qt.Key.Key_Up)
    assert model.selected_key == 1
    model.select_key(0)  # e.g. a click on the canvas
    assert _index(editor, K1_ROW, 1).data(Qt.ItemDataRole.FontRole).bold()
    assert _index(editor, K1_ROW, 1).data(Qt.ItemDataRole.BackgroundRole) is not None
    assert _index(editor, K2_ROW, 1).data(Qt.ItemDataRole.FontRole) is None
    assert editor.table.currentIndex().row() == K1_ROW


def _paste(editor: VectorEditor, row: int, column: int, text: str) -> None:
    QGuiApplication.clipboard().setText(text)
    editor.table.setFocus()
    editor.table.setCurrentIndex(_index(editor, row, column))
    QTest.keyClick(editor.table, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)


def test_pasting_spreadsheet_rows_is_one_undo_step(editor, model):
    before = model.scenario
    _paste(editor, K1_ROW, 1, "0.1\t0.2\t0.3\t0.4\r\n1\t2\t3\t4\r\n")
    assert model.scenario.keys.tolist() == [[0.1, 0.2], [1.0, 2.0], [0.8, -1.0]]
    assert model.scenario.values.tolist() == [[0.3, 0.4], [3.0, 4.0], [0.6, -0.6]]
    assert [_text(editor, K2_ROW, c) for c in (1, 2, 3, 4)] == ["1.000", "2.000", "3.000", "4.000"]
    assert model.undo_stack.count() == 1
    assert "2 × 4" in editor.message_label.text()
    model.undo_stack.undo()
    assert model.scenario == before


def test_a_paste_starting_mid_row_fills_from_the_current_cell(editor, model):
    _paste(editor, Q_ROW, 2, "9\n8\t7")
    assert model.scenario.query.tolist() == [1.5, 9.0]
    assert model.scenario.keys[0].tolist() == [1.2, 8.0] and model.scenario.values[0].tolist() == [7.0, 0.2]


@pytest.mark.parametrize(("clipboard", "expected"), [
    ("1\t2\nabc\t3", ["row 2, column 1", "“abc”"]),
    ("1\t2\n3\t1e9", ["row 2, column 2", "“1e9”", "out of range"]),
    ("1\t\t2", ["row 1, column 2", "empty"]),
    ("1\t2\t3\t4\t5", ["row 1", "5 numbers", "only 4 fit"]),
    ("1\n2\n3\n4", ["4 rows", "only 3"]),
    ("", ["no numbers"]),
])
def test_a_bad_paste_is_refused_whole_and_named(editor, model, clipboard, expected):
    before = model.scenario
    _paste(editor, K1_ROW, 1, clipboard)
    assert model.scenario == before and model.undo_stack.count() == 0
    message = editor.message_label.text()
    assert editor.message_label.isVisible() and message.startswith("Paste refused")
    for part in expected:
        assert part in message


def test_paste_fills_components_beyond_the_shown_columns(qtbot):
    model = ExplorerModel(load_preset("library"))
    model.set_d_k(40)
    panel = VectorEditor(model)
    qtbot.addWidget(panel)
    panel.show()
    row = "\t".join(str(i) for i in range(40))
    _paste(panel, Q_ROW, 1, f"{row}\n{row}\t0.5\t0.25")
    assert model.scenario.query.tolist() == list(range(40))
    assert model.scenario.keys[0].tolist() == list(range(40))
    assert model.scenario.values[0].tolist() == [0.5, 0.25]
    assert model.undo_stack.count() == 2  # set_d_k, then the whole paste


def test_copy_current_row_round_trips_through_paste(editor, model):
    editor.table.setFocus()
    editor.table.setCurrentIndex(_index(editor, K2_ROW, 1))
    QTest.keyClick(editor.table, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    assert QGuiApplication.clipboard().text() == "-0.6\t1.3\t0.1\t1.0"
    editor.table.setCurrentIndex(_index(editor, K3_ROW, 1))
    QTest.keyClick(editor.table, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    assert np.array_equal(model.scenario.keys[2], model.scenario.keys[1])
    assert np.array_equal(model.scenario.values[2], model.scenario.values[1])


def test_undo_redraws_the_table(editor, model):
    type_into_cell(editor, Q_ROW, 1, "5")
    assert _text(editor, Q_ROW, 1) == "5.000"
    model.undo_stack.undo()
    assert _text(editor, Q_ROW, 1) == "1.500"


# ------------------------------------------------------------ numbers are never cut off


@pytest.fixture(params=["en"])
def window(request, make_window):
    """The main window at the default size 1280×720, on the default example, opened in the language given as
    the fixture's parameter (a window started in Chinese lays its docks out narrower than one switched to it)."""
    return make_window(language=request.param)


def _render_cell(table, index: QModelIndex, elide: Qt.TextElideMode) -> QImage:
    """The cell as the table's own delegate and style paint it, with the given elide mode."""
    option = QStyleOptionViewItem()
    table.initViewItemOption(option)
    option.textElideMode = elide
    option.rect = QRect(QPoint(0, 0), table.visualRect(index).size())  # the cell less its grid line
    image = QImage(option.rect.size(), QImage.Format.Format_ARGB32)
    image.fill(0)
    painter = QPainter(image)
    table.itemDelegate().paint(painter, option, index)
    painter.end()
    return image


def _cut_numbers(editor: VectorEditor) -> list[tuple[int, int, str]]:
    """Number cells whose text the table would elide: painted with "…" they differ from painted whole."""
    cut = []
    for row in range(editor.table_model.rowCount()):
        for column in range(1, editor.table_model.columnCount()):
            index = _index(editor, row, column)
            text = index.data()
            if text is None:
                continue
            shown = _render_cell(editor.table, index, Qt.TextElideMode.ElideRight)
            whole = _render_cell(editor.table, index, Qt.TextElideMode.ElideNone)
            if shown != whole:
                cut.append((row, column, text))
    return cut


def _assert_bold_row_fits(editor: VectorEditor, row: int) -> None:
    """Every number of the bold row fits its column: bold advance plus the style's text margins and grid line."""
    table = editor.table
    margin = table.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, table) + 1
    for column in range(1, editor.table_model.columnCount()):
        index = _index(editor, row, column)
        font = index.data(Qt.ItemDataRole.FontRole)
        assert font is not None and font.bold()  # the selected key's row really is bold
        advance = QFontMetricsF(font.resolve(table.font())).horizontalAdvance(index.data())
        assert advance + 2 * margin + 1 <= table.columnWidth(column), (index.data(), table.columnWidth(column))


@pytest.mark.parametrize(("window", "zoom"), [("en", 1.0), ("zh_CN", 1.0), ("en", 1.5)], indirect=["window"])
def test_no_number_is_cut_off_in_the_bold_selected_row(window, zoom):
    """Seen: with K2 selected its bold -0.600 showed as "-0.6..." in a 1280×720 window."""
    theme().set_zoom(zoom)  # as View ▸ Zoom in does
    editor = window.editor
    window.model.select_key(1)
    QApplication.processEvents()
    assert _text(editor, K2_ROW, 1) == "−0.600"
    assert _cut_numbers(editor) == []
    _assert_bold_row_fits(editor, K2_ROW)
    # Typical typed values, with an ASCII minus: each column widens for its own widest number.
    for column, typed in ((1, "-12.345"), (4, "100")):
        type_into_cell(editor, K2_ROW, column, typed)
    QApplication.processEvents()
    assert window.model.selected_key == 1
    assert [_text(editor, K2_ROW, column) for column in (1, 4)] == ["−12.345", "100.000"]
    assert _cut_numbers(editor) == []
    _assert_bold_row_fits(editor, K2_ROW)


def test_a_cut_number_is_detected(window):
    """The check above sees elision: squeeze the selected key's column and it must report the cell."""
    window.model.select_key(1)
    window.editor.table.setColumnWidth(1, 40)
    assert (K2_ROW, 1, "−0.600") in _cut_numbers(window.editor)


@pytest.mark.parametrize("window", ["en", "zh_CN"], indirect=True)
def test_a_2d_table_fits_its_panel_at_1280x720_without_scrolling(window):
    """A column half past the panel's edge cuts its numbers too (the Chinese UI's narrower panel did)."""
    window.model.select_key(1)
    QApplication.processEvents()
    table = window.editor.table
    last = window.editor.table_model.columnCount() - 1
    assert last == 4  # name, Q/K 0, Q/K 1, V 0, V 1
    assert table.columnViewportPosition(last) + table.columnWidth(last) <= table.viewport().width()
    assert not table.horizontalScrollBar().isVisible()


def test_wide_tables_still_scroll_instead_of_eliding(window):
    window.model.set_d_k(4)
    window.model.set_d_v(4)
    window.model.select_key(1)
    QApplication.processEvents()
    table = window.editor.table
    assert table.horizontalScrollBar().maximum() > 0
    assert _cut_numbers(window.editor) == []


class _PaintedRegions(QObject):
    """Collects the regions a widget is asked to paint."""

    def __init__(self) -> None:
        super().__init__()
        self.regions: list[QRect] = []

    def eventFilter(self, watched, event) -> bool:
        if event.type() == QEvent.Type.Paint:
            self.regions.append(event.region().boundingRect())
        return False


def _row_rect(editor: VectorEditor, row: int, margin: int = 2) -> QRect:
    table = editor.table
    first = table.visualRect(_index(editor, row, 0))
    last = table.visualRect(_index(editor, row, editor.table_model.columnCount() - 1))
    return first.united(last).adjusted(-margin, -margin, margin, margin)  # and the grid lines around it


def test_a_drag_move_repaints_only_the_moved_keys_row_and_nothing_is_left_stale(editor, model, qtbot):
    qtbot.waitExposed(editor)
    viewport = editor.table.viewport()
    QApplication.processEvents()
    painted = _PaintedRegions()
    viewport.installEventFilter(painted)
    for y in (1.1, 1.2, 1.3):  # K2 is dragged (not selected: K1 stays highlighted)
        model.set_vector("key", 1, [-0.6, y])
        qtbot.waitUntil(lambda: bool(painted.regions))
        assert all(_row_rect(editor, K2_ROW).contains(region) for region in painted.regions), painted.regions
        assert _text(editor, K2_ROW, 2) == f"{y:.3f}"
        painted.regions.clear()
    # A new selection repaints the old and the new highlighted rows, and no other.
    model.select_key(2)
    qtbot.waitUntil(lambda: bool(painted.regions))
    both = _row_rect(editor, K1_ROW).united(_row_rect(editor, K3_ROW))
    assert all(both.contains(region) and not _row_rect(editor, Q_ROW, -3).intersects(region)
               for region in painted.regions)
    # What is drawn is what a full repaint from the model draws.
    viewport.removeEventFilter(painted)
    shown = viewport.grab().toImage()
    editor.table_model.refresh_all()
    viewport.repaint()
    assert viewport.grab().toImage() == shown


# ------------------------------------------------------------ d_k = 4: Tab, the names in view, the columns' fit


def _current(editor: VectorEditor) -> tuple[int, int]:
    current = editor.table.currentIndex()
    return current.row(), current.column()


def _tab(widget, back: bool = False) -> None:
    if back:
        QTest.keyClick(widget, Qt.Key.Key_Backtab, Qt.KeyboardModifier.ShiftModifier)
    else:
        QTest.keyClick(widget, Qt.Key.Key_Tab)
    QApplication.processEvents()


def _fully_in_view(editor: VectorEditor, row: int, column: int) -> bool:
    """The cell is drawn whole, right of the name column and inside the viewport."""
    rect = editor.table.visualRect(_index(editor, row, column))
    return rect.left() >= editor.table.names.width() and rect.right() < editor.table.viewport().width()


@pytest.fixture
def library_editor(qtbot, library_model):
    """The editor on the library example (d_k = 4, d_v = 2), as narrow as a 1280×720 window's panel."""
    panel = VectorEditor(library_model)
    qtbot.addWidget(panel)
    panel.resize(400, 300)
    panel.show()
    qtbot.waitExposed(panel)
    panel.activateWindow()  # keyboard focus needs an active window (under xcb)
    qtbot.waitUntil(panel.isActiveWindow, timeout=2000)
    QApplication.processEvents()
    return panel


def test_tab_walks_the_number_cells_only_row_after_row_and_shift_tab_walks_back(library_editor):
    editor = library_editor
    table = editor.table
    table.setFocus()
    table.setCurrentIndex(_index(editor, Q_ROW, 1))
    walked = [_current(editor)]
    for _ in range(4 + 3 * 6):  # Q's four numbers, then K and V of three pairs: back to Q's first
        _tab(table)
        walked.append(_current(editor))
        assert _fully_in_view(editor, *walked[-1]), walked[-1]  # the focused cell is never under the names
    expected = [(Q_ROW, c) for c in range(1, 5)] + [(r, c) for r in (K1_ROW, K2_ROW, K3_ROW) for c in range(1, 7)]
    assert walked == [*expected, (Q_ROW, 1)]  # no name, no empty V cell of Q; the last wraps to the first
    assert table.hasFocus() and not table.names.hasFocus()
    back = [_current(editor)]
    for _ in range(len(expected)):
        _tab(table, back=True)
        back.append(_current(editor))
    assert back == [(Q_ROW, 1), *reversed(expected)]


def test_numbers_typed_cell_after_cell_with_tab_land_where_the_focus_is_drawn(library_editor, library_model):
    """Seen: at d_k = 4 numbers typed with Tab landed in the wrong cells, one in K3's name."""
    editor = library_editor
    table = editor.table
    type_into_cell(editor, K3_ROW, 1, "0.5")  # K3, component 0; then Tab from cell to cell
    table.setCurrentIndex(_index(editor, K3_ROW, 1))
    table.edit(_index(editor, K3_ROW, 1))
    typed = ["0.5", "1", "2", "3", "0.25", "0.75"]  # K3 = [0.5, 1, 2, 3], V3 = [0.25, 0.75]
    for column, text in enumerate(typed, start=1):
        line = table.indexWidget(_index(editor, K3_ROW, column))
        assert isinstance(line, QLineEdit) and line.isVisible(), column  # the editor is open on that cell
        assert _fully_in_view(editor, K3_ROW, column)
        QTest.keyClick(line, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
        QTest.keyClicks(line, text)
        QTest.keyPress(line, Qt.Key.Key_Tab)  # the press alone: the release would reach a deleted editor
        QApplication.processEvents()
    assert library_model.scenario.keys[2].tolist() == [0.5, 1.0, 2.0, 3.0]
    assert library_model.scenario.values[2].tolist() == [0.25, 0.75]
    assert library_model.scenario.labels == ("K1", "K2", "K3")  # no name changed
    assert _current(editor) == (Q_ROW, 1)  # Tab from the last cell wrapped to Q
    assert [_text(editor, K3_ROW, c) for c in range(1, 7)] == ["0.500", "1.000", "2.000", "3.000", "0.250", "0.750"]


def _names_pixels(editor: VectorEditor) -> QImage:
    table = editor.table
    return table.grab(table.names.geometry()).toImage()


def test_the_names_stay_in_view_when_the_numbers_scroll_sideways(library_editor, library_model):
    editor = library_editor
    table = editor.table
    bar = table.horizontalScrollBar()
    assert bar.maximum() > 0  # the table is wider than the panel
    library_model.select_key(1)
    QApplication.processEvents()
    unscrolled = _names_pixels(editor)
    table.setFocus()
    table.setCurrentIndex(_index(editor, K2_ROW, 6))  # V 1 of K2: the table scrolls to it
    QApplication.processEvents()
    assert bar.value() == bar.maximum() > 0
    assert _names_pixels(editor) == unscrolled  # the same names in the same place
    # The column right of the names starts at their edge: no sliver of a cut number beside them.
    first = table.columnAt(table.names.width())
    assert table.columnViewportPosition(first) == table.names.width()
    assert _fully_in_view(editor, K2_ROW, 6)
    # A click on a number seen beside the names, then typing, edits that number.
    rect = table.visualRect(_index(editor, K3_ROW, 5))
    QTest.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert _current(editor) == (K3_ROW, 5)
    QTest.keyClick(table, Qt.Key.Key_0)  # the first key opens the cell's editor with it
    line = table.indexWidget(_index(editor, K3_ROW, 5))
    assert isinstance(line, QLineEdit) and line.text() == "0"
    QTest.keyClicks(line, ".4")
    press_enter(line)
    assert library_model.scenario.values[2].tolist() == [0.4, 0.9]
    # Scrolling by hand stops with a column at the names' edge too.
    bar.setValue(bar.maximum() // 2 + 3)
    first = table.columnAt(table.names.width())
    assert table.columnViewportPosition(first) == table.names.width()


def test_a_click_on_a_name_selects_its_key_typing_renames_it_there_and_tab_goes_to_the_numbers(
        library_editor, library_model):
    editor = library_editor
    table, names = editor.table, editor.table.names
    table.horizontalScrollBar().setValue(table.horizontalScrollBar().maximum())
    QApplication.processEvents()
    rect = names.visualRect(_index(editor, K3_ROW, NAME))
    QTest.mouseClick(names.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    QApplication.processEvents()
    assert library_model.selected_key == 2 and names.hasFocus()
    QTest.keyClick(names, Qt.Key.Key_A)  # typing on the focused name edits it
    line = names.indexWidget(_index(editor, K3_ROW, NAME))
    assert isinstance(line, QLineEdit) and line.isVisible()  # in the name column, where it is seen
    QTest.keyClicks(line, "tlas")
    press_enter(line)
    assert library_model.scenario.labels == ("K1", "K2", "atlas")
    assert library_model.scenario.keys.tolist() == load_preset("library").keys.tolist()  # no number changed
    _tab(names)
    assert table.hasFocus() and _current(editor) == (K3_ROW, 1) and _fully_in_view(editor, K3_ROW, 1)
    QTest.keyClick(table, Qt.Key.Key_Left)  # ← from the first number reaches the name again (Tab never does)
    assert names.hasFocus() and names.currentIndex().row() == K3_ROW


@pytest.mark.parametrize(("size", "presenting"), [((1600, 1000), False), ((1280, 720), False), ((1280, 720), True)])
def test_the_library_table_fits_at_the_desk_and_in_the_hall(make_window, size, presenting):
    """At 1600×1000 the whole d_k = 4, d_v = 2 table shows; at 1280×720 its Q/K block does, V beside the names."""
    window = make_window("library", size=size)
    if presenting:
        window.enter_presentation()
        window.docks["vectorEditor"].show()
    window.docks["vectorEditor"].raise_()
    QApplication.processEvents()
    editor = window.editor
    table = editor.table
    assert _cut_numbers(editor) == []
    last = editor.table_model.columnCount() - 1
    assert last == 6
    if size == (1600, 1000):
        assert table.columnViewportPosition(last) + table.columnWidth(last) <= table.viewport().width()
        assert not table.horizontalScrollBar().isVisible()
        assert window.canvas.width() >= 450  # the canvas keeps room
    else:
        assert table.columnViewportPosition(4) + table.columnWidth(4) <= table.viewport().width()  # Q/K 3 whole
        table.setCurrentIndex(_index(editor, K1_ROW, last))
        QApplication.processEvents()
        assert _fully_in_view(editor, K1_ROW, last) and table.names.isVisible()
        assert table.names.geometry().left() <= table.frameWidth()



def test_the_panel_widened_for_a_wide_table_gives_the_width_back(make_window):
    """At 1600×1000 the library's d_k = 4 table widens the panel; a 2-D example gives the width back to the middle."""
    window = make_window(size=(1600, 1000))
    middle = window.centralWidget()
    before = middle.width()
    window.open_preset("library")
    QApplication.processEvents()
    assert middle.width() < before
    window.docks["vectorEditor"].raise_()
    QApplication.processEvents()
    assert not window.editor.table.horizontalScrollBar().isVisible()  # the whole table shows
    window.open_preset("drag-2d")
    QApplication.processEvents()
    assert middle.width() == before


def test_ctrl_v_on_a_name_fills_that_rows_numbers_or_renames_and_ctrl_c_copies_that_row(library_editor,
                                                                                        library_model):
    """Seen: Ctrl+V on a name pasted at the number cell current in the table below, in another row."""
    editor = library_editor
    table, names = editor.table, editor.table.names
    table.setCurrentIndex(_index(editor, K1_ROW, 3))  # a number of another row is current in the table
    rect = names.visualRect(_index(editor, K2_ROW, NAME))
    QTest.mouseClick(names.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert names.hasFocus()
    key_k1 = library_model.scenario.keys[0].tolist()
    QGuiApplication.clipboard().setText("9\t8\n")
    QTest.keyClick(names, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    assert library_model.scenario.keys[1].tolist()[:2] == [9.0, 8.0]  # from the row's first number on
    assert library_model.scenario.keys[0].tolist() == key_k1
    assert [_text(editor, K2_ROW, c) for c in (1, 2)] == ["9.000", "8.000"]
    assert library_model.scenario.labels[1] == "K2"

    QGuiApplication.clipboard().setText("Paris\n")  # no numbers: a new name
    QTest.keyClick(names, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    assert library_model.scenario.labels == ("K1", "Paris", "K3")
    assert names.model().index(K2_ROW, NAME).data() == "Paris"
    assert library_model.scenario.keys[1].tolist()[:2] == [9.0, 8.0]
    library_model.undo_stack.undo()
    assert library_model.scenario.labels[1] == "K2"

    QTest.keyClick(names, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)  # the name's row, not K1's
    scenario = library_model.scenario
    assert QGuiApplication.clipboard().text() == "\t".join(
        repr(float(x)) for x in [*scenario.keys[1], *scenario.values[1]])

    names.setCurrentIndex(_index(editor, Q_ROW, NAME))  # Q's name is no name to change: text is refused
    QGuiApplication.clipboard().setText("Paris")
    QTest.keyClick(names, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    assert library_model.scenario is scenario and editor.message_label.text().startswith("Paste refused")


def test_scrolled_to_the_end_the_last_column_is_as_wide_as_its_numbers(library_editor):
    """Seen: the scroll's end aligned by widening the last column, up to a column wider than the others."""
    editor = library_editor
    table = editor.table
    last = editor.table_model.columnCount() - 1
    width = table.columnWidth(last)
    assert width == table.columnWidth(last - 1)  # V 1 and V 0 ask for the same width
    room_seen = []
    for panel_width in range(330, 480, 9):
        editor.resize(panel_width, 300)
        QApplication.processEvents()
        bar = table.horizontalScrollBar()
        if bar.maximum() == 0:
            continue
        bar.setValue(bar.maximum())
        QApplication.processEvents()
        assert table.columnWidth(last) == width, panel_width
        first = table.columnAt(table.names.width())
        assert table.columnViewportPosition(first) == table.names.width(), panel_width
        assert _fully_in_view(editor, K1_ROW, last)
        end = table.columnViewportPosition(last) + width
        room_seen.append(table.viewport().width() - end)
        if room_seen[-1] > 2:  # the strip past the last column is empty, like a table narrower than its view
            strip = table.viewport().grab(QRect(end + 1, 0, room_seen[-1] - 1, table.viewport().height())).toImage()
            colours = {strip.pixel(x, y) for x in range(strip.width()) for y in range(0, strip.height(), 3)}
            assert len(colours) == 1, panel_width
    assert max(room_seen) > width // 2  # a width where the old way drew the last column half as wide again
