"""The four-steps panel shows the current numbers as a lecturer would write them, and follows every edit."""

import numpy as np
import pytest
from PySide6.QtCore import QEvent, QObject, QPoint, QRect, Qt
from PySide6.QtGui import QFont, QFontMetrics, QFontMetricsF, QTextDocument, QTextTable
from PySide6.QtTest import QTest

from attention_explorer.core.files.presets import load_preset
from attention_explorer.core.scenes.query.scene import Scenario
from attention_explorer.ui.panels.steps_view import MAX_ROWS, StepsView
from attention_explorer.ui.style.theme import theme
from tests.ui.widget_helpers import show_widget


@pytest.fixture
def make_view(qtbot):
    """A shown StepsView at a realistic dock size."""

    def make(model, width=480, height=900):
        return show_widget(qtbot, StepsView(model), (width, height))

    return make


def find(view, text):
    """A cursor selecting the first occurrence of `text` in the panel (fails the test if absent)."""
    cursor = view.document().find(text)
    assert not cursor.isNull(), f"{text!r} not shown in:\n{view.plain_text()}"
    return cursor


def test_library_steps_show_the_articles_numbers(library_model, make_view):
    text = make_view(library_model).plain_text()
    # Step 1: raw scores written out product by product, Q = [1, 0, 1, 0].
    assert "Q·K = 1·1 + 0·0 + 1·1 + 0·0" in text
    for score in ("= 2.000", "= 0.000", "= 1.000"):
        assert score in text
    # Step 2: auto scale ÷ √4 = ÷ 2.
    assert "÷ √4" in text and "2.000 ÷ 2" in text and "= 0.500" in text
    # Step 3: e^1 = 2.718, e^0.5 = 1.649, Σ = 5.367, weights 0.506 / 0.186 / 0.307.
    assert "= 2.718" in text and "= 1.649" in text
    assert "Σ = 2.718 + 1.000 + 1.649 = 5.367" in text
    for weight in ("/ 5.367 = 0.506", "/ 5.367 = 0.186", "/ 5.367 = 0.307"):
        assert weight in text
    # Step 4: the terms w_i × V_i with the article's V's in the article's order, and the output [0.492, 0.508].
    assert "0.506 × [0.8, 0.2]" in text and "= [0.405, 0.101]" in text
    assert "0.186 × [0.3, 0.7]" in text and "0.307 × [0.1, 0.9]" in text
    assert "= [0.492, 0.508]" in text
    assert "nan" not in text.lower()


def test_numbers_show_more_decimals_on_hover(library_model, make_view):
    """Six significant digits, as a reader wants them: not the raw float 2.718281828459045."""
    view = make_view(library_model)
    assert find(view, "2.718").charFormat().toolTip() == "2.71828"
    assert find(view, "5.367").charFormat().toolTip() == "5.367"  # e + 1 + √e = 5.3670000…


def test_manual_scale_is_written_as_a_factor(model, make_view):
    view = make_view(model)
    model.load_scenario(load_preset("saturation-small"))
    text = view.plain_text()
    # Scores [2, 1, 0] times the manual factor 1, not divided by √2.
    assert "manual factor f = 1" in text
    assert "2.000 × 1" in text and "1.000 × 1" in text and "0.000 × 1" in text
    assert "2.000 ÷" not in text
    # softmax([2, 1, 0]) = [0.665, 0.245, 0.090], by hand: e^2 / (e^2 + e + 1) = 7.389 / 11.107.
    assert "Σ = 7.389 + 2.718 + 1.000 = 11.107" in text
    for weight in ("= 0.665", "= 0.245", "= 0.090"):
        assert weight in text


def test_overflowing_exponentials_use_the_stable_form(model, make_view):
    view = make_view(model)
    model.load_scenario(load_preset("saturation-large"))
    model.set_scale(100.0)  # scaled scores 2000, 1000, 0: e^2000 overflows a float64
    assert model.result.exp_shifted
    text = view.plain_text()
    assert "Stable form" in text
    assert "2000 − 2000" in text and "1000 − 2000" in text
    assert "= 1.000" in text
    assert "nan" not in text.lower() and "inf" not in text.lower()


def test_selected_row_is_tinted_and_bold_and_follows_selection(library_model, make_view):
    view = make_view(library_model)
    k3_scores = "1·1 + 0·0 + 1·0 + 0·0"  # K3's raw-score row

    def looks_selected():
        cursor = find(view, k3_scores)
        cell = cursor.currentTable().cellAt(cursor)
        return cursor.charFormat().fontWeight() == QFont.Weight.Bold, cell.format().background().style()

    bold, background = looks_selected()
    assert not bold and background == Qt.BrushStyle.NoBrush
    library_model.select_key(2)
    bold, background = looks_selected()
    assert bold and background != Qt.BrushStyle.NoBrush


def test_clicking_a_key_label_selects_it(library_model, make_view):
    view = make_view(library_model)
    cursor = find(view, "K2")
    cursor.setPosition(cursor.selectionStart() + 1)
    point = view.browser.cursorRect(cursor).center()
    QTest.mouseClick(view.browser.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point)
    assert library_model.selected_key == 1


def test_law_of_cosines_derivation_with_current_numbers(model, make_view):
    # drag-2d: Q = [1.5, 0.5], K1 = [1.2, 0.9]. By hand: Q − K = [0.3, −0.4], |Q − K|² = 0.25, |Q|² = 2.5,
    # |K|² = 2.25, |Q| = 1.581, |K| = 1.5, Q·K = 2.25, cos θ = 2.25 / (1.581 × 1.5) = 0.949.
    text = make_view(model).plain_text()
    assert "|Q − K|² = |Q|² + |K|² − 2|Q||K| cos θ" in text
    assert "0.250 = 2.500 + 2.250 − 2 × 1.581 × 1.500 × 0.949" in text
    assert "0.250 = 2.500 − 2 × 2.250 + 2.250" in text
    assert "−4.500 = −2 × 1.581 × 1.500 × 0.949" in text
    assert "2.250 = 1.581 × 1.500 × 0.949" in text


def test_derivation_follows_selection_and_edits(model, make_view):
    view = make_view(model)
    model.select_key(1)  # K2 = [−0.6, 1.3]: Q − K = [2.1, −0.8], |Q − K|² = 5.05, |K|² = 2.05, Q·K = −0.25
    text = view.plain_text()
    assert "5.050 = 2.500 − 2 × (−0.250) + 2.050" in text
    model.set_vector("key", 1, [0.0, 2.0])  # now Q − K = [1.5, −1.5]: 4.5; |K|² = 4; Q·K = 1
    text = view.plain_text()
    assert "4.500 = 2.500 − 2 × 1.000 + 4.000" in text
    assert "Q·K = 1.5·0 + 0.5·2" in text


def test_zero_query_says_theta_is_undefined(model, make_view):
    view = make_view(model)
    model.set_vector("query", 0, [0, 0])
    text = view.plain_text()
    assert "θ undefined" in text
    assert "Q is the zero vector" in text
    assert "nan" not in text.lower()
    # The weights are uniform: every score is 0.
    assert text.count("= 0.333") == 3


def test_many_keys_show_a_capped_number_of_rows(model, make_view):
    rng = np.random.default_rng(7)
    n = 40
    model.load_scenario(Scenario(query=rng.standard_normal(8), keys=rng.standard_normal((n, 8)),
                                 values=rng.standard_normal((n, 3))))
    weights = model.result.weights
    lightest = int(np.argmin(weights))
    model.select_key(lightest)
    view = make_view(model)
    text = view.plain_text()
    assert f"… and {n - MAX_ROWS} more keys" in text
    # The heaviest key and the selected (lightest) key both have a row in step 1's table of MAX_ROWS rows.
    labels = model.scenario.labels
    document = view.document()
    heaviest = document.find(labels[int(np.argmax(weights))], 0, QTextDocument.FindFlag.FindWholeWords)
    assert heaviest.currentTable().rows() == MAX_ROWS
    selected = document.find(labels[lightest], 0, QTextDocument.FindFlag.FindWholeWords)
    assert selected.currentTable() == heaviest.currentTable()
    assert "Σ of 8 products" not in text and "sum of 8 products" in text


def test_hover_on_a_key_label_gives_a_hint(library_model, make_view, qtbot):
    view = make_view(library_model)
    cursor = find(view, "K3")
    cursor.setPosition(cursor.selectionStart() + 1)
    with qtbot.waitSignal(view.hint) as blocker:
        QTest.mouseMove(view.browser.viewport(), view.browser.cursorRect(cursor).center())
    assert blocker.args[0].startswith("K3")


def test_the_painted_text_follows_edits_and_is_rebuilt_once_per_frame(model, make_view, qtbot):
    view = make_view(model)
    builds = []
    build = view.html
    view.html = lambda: builds.append(1) or build()
    for y in (1.0, 1.5, 2.0):  # three drag moves between two frames
        model.set_vector("key", 1, [0.0, y])
    assert builds == []  # nothing laid out yet: the moves came faster than frames
    # The window's next paint brings the shown text up to date, with no one reading it through the view.
    qtbot.waitUntil(lambda: "Q·K = 1.5·0 + 0.5·2" in view.browser.toPlainText())
    assert len(builds) == 1


class _Paints(QObject):
    """Counts the Paint events a widget receives."""

    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def eventFilter(self, watched, event) -> bool:
        if event.type() == QEvent.Type.Paint:
            self.count += 1
        return False


def test_the_scroll_bar_is_repainted_only_when_the_text_changes_its_length(model, make_view, qtbot):
    view = make_view(model, height=300)  # the text is longer than the panel: the bar has a range
    bar = view.browser.verticalScrollBar()
    bar.setValue(bar.maximum() // 2)
    place = bar.value()
    qtbot.wait(20)
    paints = _Paints()
    bar.installEventFilter(paints)
    for y in (1.0, 1.2, 1.4, 1.6):  # a drag: four frames, each with new numbers, the same length
        model.set_vector("key", 1, [0.0, y])
        qtbot.waitUntil(lambda y=y: f"0.5·{y:g}" in view.browser.toPlainText())
        view.browser.viewport().repaint()
    assert paints.count == 0  # before, every replaced text repainted the bar twice (range 0 and back)
    assert bar.value() == place > 0  # and the reader's place is kept
    # More keys make the text longer: the bar is repainted, with the new range.
    rng = np.random.default_rng(3)
    model.load_scenario(Scenario(query=[1.0, 0.0], keys=rng.standard_normal((6, 2)),
                                 values=rng.standard_normal((6, 2))))
    qtbot.waitUntil(lambda: "K6" in view.browser.toPlainText())
    qtbot.waitUntil(lambda: paints.count > 0)
    document_height = view.browser.document().size().height()
    assert bar.maximum() == round(document_height) - view.browser.viewport().height() > place


@pytest.mark.parametrize("mode", ["light", "dark", "contrast"])
def test_the_scroll_bar_paints_nothing_under_it_and_looks_the_same(model, make_view, qtbot, mode):
    theme().set_mode(mode)
    try:
        view = make_view(model, height=300)
        bar = view.browser.verticalScrollBar()
        qtbot.wait(20)
        under = _Paints()
        bar.parentWidget().installEventFilter(under)
        view.installEventFilter(under)
        bar.repaint()
        assert under.count == 0  # opaque: Qt does not paint its container and the panel first
        place = QRect(bar.mapTo(view, QPoint(0, 0)), bar.size())
        shown = view.grab().copy(place).toImage()
        bar.setAutoFillBackground(False)  # what a transparent bar shows over its container
        assert view.grab().copy(place).toImage() == shown
    finally:
        theme().set_mode("light")


def test_a_click_right_after_an_edit_brings_the_text_up_to_date_first(library_model, make_view):
    view = make_view(library_model)
    cursor = find(view, "K2")
    cursor.setPosition(cursor.selectionStart() + 1)
    point = view.browser.cursorRect(cursor).center()
    library_model.set_label(0, "a much longer first label")  # the next click comes before any repaint
    QTest.mouseClick(view.browser.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point)
    assert "a much longer first label" in view.browser.toPlainText()


# ------------------------------------------------------------ long labels

def step_tables(view):
    """The tables of steps 1 to 4, top to bottom (the derivation's table comes after them)."""
    frames = view.document().rootFrame().childFrames()
    return [frame for frame in frames if isinstance(frame, QTextTable)][:4]


def cell_lines(table, row, column):
    """How many lines the text of a cell is laid out on."""
    return table.cellAt(row, column).firstCursorPosition().block().layout().lineCount()


def label_column_px(view, table, row=0):
    """Width of the label cell of `row` as laid out: from its left edge to the next cell's."""
    layout = view.document().documentLayout()
    edges = []
    for column in (0, 1):
        cell = table.cellAt(row, column)
        text = layout.blockBoundingRect(cell.firstCursorPosition().block())
        edges.append(text.x() - cell.format().toTableCellFormat().leftPadding())
    return edges[1] - edges[0]


def number_font(table, bold=False):
    """The font of the numbers in `table`, as drawn (bold like the labels if asked)."""
    font = QFont(table.cellAt(0, 1).firstCursorPosition().charFormat().font())
    font.setBold(bold)
    return font


def test_long_labels_wrap_so_each_raw_score_takes_two_lines(model, make_view):
    # code-review in a 400-px dock (1280 × 720): labels like "shared state" wrap at their space, and each
    # d_k = 4 product sum "Q·K = 2·1.9 + 1·0.28 + 0.5·0 + (−1)·0" takes two lines, not four.
    model.load_scenario(load_preset("code-review"))
    view = make_view(model, 400, 700)
    scores = step_tables(view)[0]
    assert scores.rows() == 4
    label_font = QFontMetricsF(number_font(scores, bold=True))
    for row, label in enumerate(model.scenario.labels):
        assert cell_lines(scores, row, 1) <= 2, f"Q·K of {label!r} on {cell_lines(scores, row, 1)} lines"
        assert cell_lines(scores, row, 0) <= 2
        # Narrower than "shared state" on one line, and at most a quarter of the table.
        width = label_column_px(view, scores, row)
        assert width < label_font.horizontalAdvance("shared state")
        assert width <= view.document().documentLayout().frameBoundingRect(scores).width() / 4
    # So the table is four rows of two lines (plus the cells' 4 px padding above and below), with half a line to
    # spare; with the whole label's width the column took 140 px and step 1 was 312 px high, over 16 lines.
    line = QFontMetricsF(number_font(scores)).lineSpacing()
    height = view.document().documentLayout().frameBoundingRect(scores).height()
    assert height <= 4 * (2.5 * line + 8)
    # The column is as wide in every step, so the steps still line up.
    widths = {round(label_column_px(view, table)) for table in step_tables(view)}
    assert len(widths) == 1


def test_a_label_of_short_words_wraps_onto_two_lines_at_most(library_model, make_view):
    # Two lines, not "the" / "main" / "loop"; and a label as short as "key 2" stays on one.
    library_model.set_label(0, "the main loop")
    library_model.set_label(1, "key 2")
    view = make_view(library_model, 400, 700)
    assert cell_lines(step_tables(view)[0], 0, 0) == 2
    assert cell_lines(step_tables(view)[0], 1, 0) == 1


@pytest.mark.parametrize("preset", ["library", "drag-2d"])
@pytest.mark.parametrize("size", [(400, 700), (480, 900)])
def test_short_labels_keep_their_column_and_number_size(model, make_view, preset, size):
    # K1, K2, K3: the label column is the widest label + 20 px in every step, as before long labels wrapped, and
    # the numbers shrink below 440 px of panel exactly as before.
    theme().set_zoom(1.0)
    model.load_scenario(load_preset(preset))
    view = make_view(model, *size)
    tables = step_tables(view)
    # By hand, at zoom 1 (numbers 15 pt, text 12 pt): 480 px leaves over 440 px beside the scroll bar, so the
    # numbers are full size; at 400 px they get (400 − a scroll bar of ~16 px) / 440 of 15 pt = 13.1, so 13 pt
    # in half points (any scroll bar from 8 to 26 px gives 13).
    expected_pt = {(480, 900): 15.0, (400, 700): 13.0}[size]
    assert number_font(tables[0]).pointSizeF() == expected_pt
    widest = max(QFontMetrics(number_font(tables[0], bold=True)).horizontalAdvance(label)
                 for label in model.scenario.labels)
    for table in tables:
        assert label_column_px(view, table) == widest + 20
        assert cell_lines(table, 0, 0) == 1
