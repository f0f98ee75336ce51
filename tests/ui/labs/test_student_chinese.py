"""A Chinese student alone with the article: its numbers, typed the way a Chinese input method types them.

Chinese text reaches the widgets as an input method's commit (QLineEdit.insert or a QInputMethodEvent), never
through QTest.keyClicks, which aborts on characters beyond Latin-1.
"""

from __future__ import annotations

import html
import re

import numpy as np
import pytest
from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QGuiApplication, QInputMethodEvent, QTextDocument
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QLineEdit

from attention_explorer.core.files.presets import load_preset
from attention_explorer.ui.i18n.core_texts import CORE_TEXTS
from attention_explorer.ui.i18n.switcher import language_switcher
from attention_explorer.ui.labs.registry import page_index
from attention_explorer.ui.style.numbers import MINUS, parse_number, parse_number_rows

# Names that stay as they are in a Chinese sentence: symbols, functions, models and file field names.
NAMES = {"softmax", "rope", "bert", "q", "k", "v", "d_k", "d_v", "d_model", "inf", "nan"}
_HAN = re.compile(r"[\u4e00-\u9fff]")


def english_words(text: str) -> list[str]:
    """Latin words of 3+ letters in `text` that are not names (markup and quoted input left out)."""
    plain = re.sub(r"<[^>]+>", " ", text)
    plain = re.sub(r"“[^”]*”", " ", plain)  # what the user typed, quoted
    return [w for w in re.findall(r"[A-Za-z_]{3,}", plain) if w.lower() not in NAMES]


def commit(line: QLineEdit, text: str) -> None:
    """`text` committed into `line` as an input method does, replacing what was there."""
    line.setFocus()
    line.selectAll()
    event = QInputMethodEvent()
    event.setCommitString(text)
    QApplication.sendEvent(line, event)
    assert line.text() == text


def plain(rich: str) -> str:
    document = QTextDocument()
    document.setHtml(rich)
    return document.toPlainText().replace("\u00a0", " ")


@pytest.fixture(scope="module")
def window(make_module_window):
    window = make_module_window(language="zh_CN")
    yield window
    language_switcher().set_language("en")


@pytest.fixture(autouse=True)
def chinese(window):
    language_switcher().set_language("zh_CN")
    QApplication.processEvents()


# ------------------------------------------------------------------ the article's numbers


def test_the_library_example_in_chinese_gives_both_sets_of_numbers(window):
    window.open_preset("library")
    QApplication.processEvents()
    assert window.model.scenario.values.tolist() == [[0.8, 0.2], [0.3, 0.7], [0.1, 0.9]]  # the article's order
    text = plain(window.preset_info.text_label.text())
    assert "图书馆检索" in text
    for said in ("[0.492, 0.508]", "[0.516, 0.483]", "1.0、0.5、0.0", "1.0、0.0、0.5",
                 "文章的第三步：分数 1.0、0.5、0.0"):
        assert said in text
    np.testing.assert_allclose(window.model.result.output, [0.492, 0.508], atol=5e-4)
    readout = window.output_view.readout.text()
    assert "0.492" in readout and "0.508" in readout


def test_the_articles_step_3_opens_from_the_menu_with_its_output(window):
    action = window.preset_actions["article-step3"]
    assert action.text().replace("&", "") == "文章的第三步：分数 1.0、0.5、0.0"
    action.trigger()
    QApplication.processEvents()
    result = window.model.result
    assert result.scaled_scores.tolist() == [1.0, 0.5, 0.0]
    assert np.round(result.weights, 3).tolist() == [0.506, 0.307, 0.186]
    assert "[0.516, 0.484]" in plain(window.output_view.readout.text())
    text = plain(window.preset_info.text_label.text())
    assert "[0.516, 0.483]" in text and "0.101 + 0.215 + 0.167 = 0.483" in text


@pytest.mark.parametrize(("typed", "scores", "shown"), [
    ("２，１，０", [2.0, 1.0, 0.0], "softmax(2, 1, 0) = [0.66524, 0.24473, 0.09003]"),
    ("20、10、0", [20.0, 10.0, 0.0], "softmax(20, 10, 0) = [0.99995, 4.54×10−5, 2.06×10−9]"),
])
def test_the_saturation_lab_takes_the_articles_scores_as_typed(window, typed, scores, shown):
    """The article gives softmax of scores, not vectors: they are typed as scores, small weights stay visible."""
    window.show_page(page_index("saturation"))
    lab = window.page(page_index("saturation"))
    QApplication.processEvents()
    assert lab.scores_title.text() == "分数："
    commit(lab.scores_edit, typed)
    QTest.keyClick(lab.scores_edit, Qt.Key.Key_Return)
    QApplication.processEvents()
    assert window.model.result.scores.tolist() == scores
    assert window.model.result.scale == 1.0
    assert plain(lab.scores_weights.text()) == shown
    assert not lab.message_label.isVisible()
    # The example's title is Chinese too: its list takes 、 (seen: 分数 20, 10, 0).
    title = "分数 " + "、".join(f"{x:g}" for x in scores)
    assert window.model.scenario.title == title
    assert plain(window.preset_info.text_label.text()).startswith(title)
    _assert_unbroken_words(window.weights_chart.stats_label, ("上限", "比特", "最大权重"))


def _lines(label, width: int) -> list[str]:
    """The lines a rich-text label lays its text out in, in its font, at `width` pixels."""
    document = QTextDocument()
    document.setDefaultFont(label.font())
    document.setDocumentMargin(0)
    document.setHtml(label.text())
    document.setTextWidth(width)
    document.size()  # lays the text out
    lines = []
    block = document.begin()
    while block.isValid():
        layout = block.layout()
        for i in range(layout.lineCount()):
            line = layout.lineAt(i)
            lines.append(block.text()[line.textStart():line.textStart() + line.textLength()])
        block = block.next()
    return lines


def _assert_unbroken_words(label, words) -> None:
    """At any width a narrow dock may give it, no line of the label ends inside one of `words` (seen: 上 at the end
    of a line, 限 at the start of the next; Qt breaks Chinese between any two characters)."""
    for width in range(150, 400, 5):
        for line in _lines(label, width):
            for word in words:
                for cut in range(1, len(word)):
                    assert not line.rstrip().endswith(word[:cut]), (width, _lines(label, width))


def test_a_refused_score_is_chinese_and_goes_at_the_next_edit_or_example(window):
    window.show_page(page_index("saturation"))
    lab = window.page(page_index("saturation"))
    commit(lab.scores_edit, "inf")
    QTest.keyClick(lab.scores_edit, Qt.Key.Key_Return)
    assert lab.message_label.isVisible() and lab.message_label.text() == "“inf”不是数字"
    QTest.keyClick(lab.scores_edit, Qt.Key.Key_Backspace)  # the next edit
    assert not lab.message_label.isVisible() and lab.message_label.text() == ""
    commit(lab.scores_edit, "1 2\n3")
    QTest.keyClick(lab.scores_edit, Qt.Key.Key_Return)
    assert lab.message_label.isVisible()
    window.preset_actions["saturation-small"].trigger()  # an example opens
    QApplication.processEvents()
    assert not lab.message_label.isVisible()


# ------------------------------------------------------------------ full-width numbers


@pytest.mark.parametrize(("typed", "value"), [
    ("１．５", 1.5), ("－２", -2.0), ("＋３", 3.0), ("０．２５", 0.25), ("１。５", 1.5), ("　７　", 7.0),
    ("１ｅ３", 1000.0),
])
def test_what_a_chinese_input_method_types_is_a_number(typed, value):
    assert parse_number(typed) == value


@pytest.mark.parametrize(("pasted", "rows"), [
    ("２，３", [[2.0, 3.0]]), ("０．８，０．２", [[0.8, 0.2]]), ("1、2、3", [[1.0, 2.0, 3.0]]),
    ("１　２\n３　４", [[1.0, 2.0], [3.0, 4.0]]),
])
def test_a_pasted_chinese_row_is_its_numbers(pasted, rows):
    assert parse_number_rows(pasted) == rows


def test_two_numbers_in_one_cell_are_refused_not_read_as_a_decimal_comma():
    with pytest.raises(ValueError):
        parse_number("２，３")
    assert parse_number("0,5") == 0.5  # an ASCII decimal comma still reads as before


def test_full_width_typed_into_a_vector_cell_is_the_number(window):
    window.open_preset("library")
    window.show_page(0)
    QApplication.processEvents()
    editor = window.editor
    index = editor.table_model.index(0, 1)  # Q, component 0
    editor.table.setFocus()
    editor.table.setCurrentIndex(index)
    editor.table.edit(index)
    line = editor.table.indexWidget(index)
    commit(line, "－１．５")
    QTest.keyPress(line, Qt.Key.Key_Return)  # the press alone: the release would reach a deleted editor
    QApplication.processEvents()
    assert window.model.scenario.query.tolist() == [-1.5, 0.0, 1.0, 0.0]
    assert index.data() == MINUS + "1.500"  # one minus sign, the typographic one
    assert not editor.message_label.isVisible()
    window.model.undo_stack.undo()


def test_a_chinese_row_pasted_into_the_vector_table_fills_the_row(window):
    window.open_preset("library")
    window.show_page(0)
    QApplication.processEvents()
    editor = window.editor
    QGuiApplication.clipboard().setText("０．８，０．２，０．１，０．９")
    editor.table.setFocus()
    editor.table.setCurrentIndex(editor.table_model.index(3, 1))  # K3, component 0
    QTest.keyClick(editor.table, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    QApplication.processEvents()
    assert window.model.scenario.keys[2].tolist() == [0.8, 0.2, 0.1, 0.9]
    window.model.undo_stack.undo()


def _cell_editor(editor, row: int, column: int) -> QLineEdit:
    index = editor.table_model.index(row, column)
    view = editor.table.names if column == 0 else editor.table
    line = view.indexWidget(index)
    assert isinstance(line, QLineEdit) and line.isVisible(), (row, column)
    return line


def _open_library_table(window):
    window.open_preset("library")
    window.show_page(0)
    window.docks["vectorEditor"].raise_()
    window.activateWindow()  # keyboard focus needs an active window (under xcb)
    QApplication.processEvents()
    return window.editor


def test_numbers_typed_with_tab_in_chinese_land_in_the_focused_cells(window):
    """At d_k = 4 in the 1280×720 window: Tab from cell to cell, each number committed by an input method in full
    width; the names stay in view and no number lands in a name."""
    editor = _open_library_table(window)
    table = editor.table
    start = editor.table_model.index(3, 1)  # K3, component 0
    table.setFocus()
    table.setCurrentIndex(start)
    table.edit(start)
    for column, typed in enumerate(["０．５", "１", "－２", "３", "０．２５", "０．７５"], start=1):
        line = _cell_editor(editor, 3, column)
        rect = table.visualRect(editor.table_model.index(3, column))
        assert rect.left() >= table.names.width() and rect.right() < table.viewport().width()  # seen whole
        commit(line, typed)
        QTest.keyPress(line, Qt.Key.Key_Tab)
        QApplication.processEvents()
    assert window.model.scenario.keys[2].tolist() == [0.5, 1.0, -2.0, 3.0]
    assert window.model.scenario.values[2].tolist() == [0.25, 0.75]
    assert window.model.scenario.labels == ("K1", "K2", "K3")
    assert table.names.isVisible() and table.names.geometry().left() <= table.frameWidth()
    assert [editor.table_model.index(3, c).data() for c in (1, 3)] == ["0.500", MINUS + "2.000"]
    assert not editor.message_label.isVisible()
    table.closePersistentEditor(table.currentIndex())
    window.model.undo_stack.clear()
    window.open_preset("library")


def test_a_name_is_renamed_in_chinese_in_the_name_column(window):
    editor = _open_library_table(window)
    names = editor.table.names
    index = editor.table_model.index(2, 0)
    QTest.mouseClick(names.viewport(), Qt.MouseButton.LeftButton, pos=names.visualRect(index).center())
    assert window.model.selected_key == 1 and names.hasFocus()
    QTest.keyClick(names, Qt.Key.Key_F2)  # F2 edits the focused name where it is drawn
    line = _cell_editor(editor, 2, 0)
    commit(line, "第二本书")
    QTest.keyPress(line, Qt.Key.Key_Return)
    QApplication.processEvents()
    assert window.model.scenario.labels == ("K1", "第二本书", "K3")
    assert names.visualRect(index).isValid() and index.data() == "第二本书"
    window.model.undo_stack.undo()


@pytest.mark.parametrize("typed", ["２，３", "2, 3", "２、３"])
def test_a_row_typed_into_one_cell_fills_it_and_the_cells_to_its_right(window, typed):
    """Decided: several numbers typed into a cell are a row that starts there (one undo step)."""
    editor = _open_library_table(window)
    index = editor.table_model.index(2, 5)  # V 0 of K2
    editor.table.setFocus()
    editor.table.setCurrentIndex(index)
    editor.table.edit(index)
    line = _cell_editor(editor, 2, 5)
    commit(line, typed)
    QTest.keyPress(line, Qt.Key.Key_Return)
    QApplication.processEvents()
    assert window.model.scenario.values[1].tolist() == [2.0, 3.0]
    assert [editor.table_model.index(2, c).data() for c in (5, 6)] == ["2.000", "3.000"]
    assert editor.message_label.isVisible()
    assert editor.message_label.text() == "输入了 2 个数：从这一格起向右依次填入（一步撤销）。"
    window.model.undo_stack.undo()
    assert window.model.scenario.values[1].tolist() == [0.3, 0.7]


def test_a_typed_row_too_long_for_the_cells_to_its_right_is_refused_in_chinese(window):
    editor = _open_library_table(window)
    index = editor.table_model.index(0, 4)  # Q's last component: one number fits
    editor.table.setFocus()
    editor.table.setCurrentIndex(index)
    editor.table.edit(index)
    line = _cell_editor(editor, 0, 4)
    commit(line, "２，３")
    QTest.keyPress(line, Qt.Key.Key_Return)
    QApplication.processEvents()
    assert window.model.scenario.query.tolist() == [1.0, 0.0, 1.0, 0.0]
    message = editor.message_label.text()
    assert editor.message_label.isVisible() and message == "输入了 2 个数，但从这一格到行尾只能放下 1 个：没有改动。"
    assert not english_words(message)


# ------------------------------------------------------------------ Chinese sentences


def test_an_unspaced_chinese_sentence_is_one_token_per_character(window):
    window.show_page(page_index("self-attention"))
    lab = window.page(page_index("self-attention"))
    QApplication.processEvents()
    assert "不带空格的中文" in lab.tokens_edit.placeholderText()
    assert "按字切分" in lab.tokens_edit.toolTip()
    commit(lab.tokens_edit, "我爱北京天安门")
    QTest.keyClick(lab.tokens_edit, Qt.Key.Key_Return)
    QApplication.processEvents()
    assert list(lab.sequence_model.sequence.tokens) == list("我爱北京天安门")
    assert lab.sequence_model.result.weights.shape == (7, 7)
    commit(lab.tokens_edit, "我 爱 北京")  # spaces: the user's own words
    QTest.keyClick(lab.tokens_edit, Qt.Key.Key_Return)
    assert list(lab.sequence_model.sequence.tokens) == ["我", "爱", "北京"]


def test_an_unspaced_target_in_the_cross_lab_is_split_too(window):
    window.open_preset("translation")
    window.show_page(page_index("cross-attention"))
    lab = window.page(page_index("cross-attention"))
    QApplication.processEvents()
    commit(lab.target_edit, "我爱北京")
    QTest.keyClick(lab.target_edit, Qt.Key.Key_Return)
    QApplication.processEvents()
    assert list(lab.cross_model.cross.target_tokens) == ["我", "爱", "北", "京"]
    assert lab.cross_model.result.weights.shape == (4, 3)
    assert "按字切分" in lab.target_edit.toolTip()


@pytest.mark.parametrize(("page", "edit"), [
    (page_index("self-attention"), "tokens_edit"), (page_index("cross-attention"), "target_edit"),
    (page_index("cross-attention"), "source_edit"),
])
def test_an_empty_sentence_is_refused_in_chinese(window, page, edit):
    window.show_page(page)
    lab = window.page(page)
    QApplication.processEvents()
    line = getattr(lab, edit)
    commit(line, "　")  # an ideographic space: nothing typed
    QTest.keyClick(line, Qt.Key.Key_Return)
    QApplication.processEvents()
    message = lab.message_label.text()
    assert "请至少输入一个词" in message
    assert not english_words(message), message


# ------------------------------------------------------------------ translated texts


def test_the_code_review_keys_have_chinese_names(window):
    window.preset_actions["code-review"].trigger()
    QApplication.processEvents()
    assert window.model.scenario.labels == ("调用链", "共享状态", "配置", "其他测试")
    names = [window.editor.table_model.index(row, 0).data() for row in range(1, 5)]
    assert names == ["调用链", "共享状态", "配置", "其他测试"]


def test_every_core_message_has_a_chinese_translation_without_english_prose():
    """Every template the core and the state layer can raise: Chinese words, and only the names it had in English
    (field names such as labels or d_k, file names, models) stay Latin."""
    for template in CORE_TEXTS:
        translated = QCoreApplication.translate("CoreMessages", template)
        if not re.search(r"[A-Za-z]{3,}", re.sub(r"\{[^}]*\}", "", template)):
            continue  # nothing to translate ("{0}: {1}")
        source_words = {w.lower() for w in re.findall(r"[A-Za-z_][A-Za-z0-9_.]*", html.unescape(template))}
        if source_words <= {"null", "true", "false", "sha"}:
            continue  # a value, not a sentence
        assert _HAN.search(translated), f"not translated: {template!r}"
        latin = re.findall(r"[A-Za-z_][A-Za-z0-9_.]*", re.sub(r"\{[^}]*\}", "", translated))
        strays = [w for w in latin if w.lower() not in source_words and w.lower() not in NAMES]
        assert not strays, (template, translated, strays)


@pytest.mark.parametrize(("context", "source", "chinese"), [
    ("presets", "Perpendicular: cos θ = 0", "正交：cos θ = 0"),  # the article's 正交, not 垂直
    ("MainWindow", "Make key longer", "加长键向量"),  # a key vector, not a keyboard key
    ("MainWindow", "Select key {0}", "选择键向量 {0}"),
    ("MainWindow", "Drag the tip of Q or of a key. Keys 1–9 select, arrows rotate, Space plays a full turn.",
     "拖动 Q 或键向量的箭头尖端。按键 1–9 选择键向量，方向键旋转，空格键转一整圈。"),
])
def test_the_articles_terms_are_used(context, source, chinese):
    from PySide6.QtCore import QTranslator

    from attention_explorer.ui.i18n.switcher import catalogue_path

    catalogue = QTranslator()  # the shipped catalogue itself, whatever language another test left installed
    assert catalogue.load(str(catalogue_path("zh_CN")))
    assert catalogue.translate(context, source) == chinese


def test_no_translation_says_perpendicular_or_leaves_key_ambiguous():
    from attention_explorer.ui.i18n.switcher import catalogue_path

    catalogue = catalogue_path("zh_CN").with_suffix(".ts").read_text(encoding="utf-8")
    translations = re.findall(r"<translation>([^<]*)</translation>", catalogue)
    assert not [t for t in translations if "垂直" in t]
    assert not [t for t in translations if "数字键" in t]
    bare = [t for t in translations if re.search(r"(?<!方向)(?<!空格)(?<!按)(?<!快捷)(?<!任意)键(?!向量|值对|词元)", t)]
    assert not bare, bare[:5]


@pytest.mark.parametrize("width", [900, 560, 420, 300])
def test_the_step_banner_breaks_only_between_its_parts(window, width):
    """Seen: a narrow banner left 示 alone on its last line."""
    from attention_explorer.ui.widgets.step_banner import StepBanner

    banner = StepBanner(window.model)
    window.model.set_step_through(True)
    try:
        banner.resize(width, 200)
        banner.show()
        QApplication.processEvents()
        lines = banner.text().split("\n")
        assert "".join(lines).replace(" · ", "").replace(" ", "") == (
            "第1步，共4步—点积→下一步，←上一步，Esc退出逐步演示")
        metrics = banner.fontMetrics()
        room = banner.contentsRect().width()
        for line in lines:
            assert len(line.strip()) > 1
            assert metrics.horizontalAdvance(line) <= room or " " not in line.strip(), line
    finally:
        window.model.set_step_through(False)
        banner.deleteLater()


def test_the_status_bar_tells_a_cells_value_after_it_changes(window):
    """Hovering a cell tells its value; an edit of that cell updates the status bar, which never keeps the old one."""
    window.open_preset("library")
    window.show_page(0)
    QApplication.processEvents()
    editor = window.editor
    hints = []
    editor.hint.connect(hints.append)
    try:
        index = editor.table_model.index(0, 1)
        editor.table.entered.emit(index)  # the mouse rests on Q, component 0
        assert hints[-1].startswith("Q") and "= 1" in hints[-1]
        window.model.set_component("query", 0, 0, -2.5)
        assert "= " + MINUS + "2.5" in hints[-1], hints[-1]
    finally:
        editor.hint.disconnect(hints.append)
        window.model.undo_stack.undo()


def test_a_refused_cell_clears_when_an_example_opens(window):
    window.open_preset("library")
    window.show_page(0)
    QApplication.processEvents()
    editor = window.editor
    index = editor.table_model.index(0, 1)
    editor.table.setFocus()
    editor.table.setCurrentIndex(index)
    editor.table.edit(index)
    line = editor.table.indexWidget(index)
    commit(line, "inf")
    QTest.keyPress(line, Qt.Key.Key_Return)
    QApplication.processEvents()
    assert editor.message_label.isVisible() and "“inf”不是数字" in editor.message_label.text()
    window.preset_actions["article-step3"].trigger()
    QApplication.processEvents()
    assert not editor.message_label.isVisible() and editor.message_label.text() == ""


def test_a_chinese_story_names_other_examples_by_their_chinese_titles():
    from attention_explorer.core.files.presets import preset_names

    titles = {QCoreApplication.translate("presets", load_preset(name).title) for name in preset_names()}
    for name in preset_names():
        story = QCoreApplication.translate("presets", load_preset(name).description)
        for quoted in re.findall(r"“([^”]+)”", story):
            if "：" in quoted or ":" in quoted:
                assert quoted in titles, (name, quoted)


def test_full_width_digits_typed_into_a_spin_box_are_the_number(window):
    """d_k typed as an input method types it: "１６" then Enter."""
    window.open_preset("library")
    window.show_page(0)
    QApplication.processEvents()
    spin = window.editor.d_k_spin
    line = spin.lineEdit()
    line.setFocus()
    line.selectAll()
    event = QInputMethodEvent()
    event.setCommitString("１６")
    QApplication.sendEvent(line, event)
    assert spin.text() == "16"
    QTest.keyClick(spin, Qt.Key.Key_Return)
    assert window.model.scenario.d_k == 16
    window.model.undo_stack.undo()
    assert window.model.scenario.d_k == 4


def test_full_width_digits_reach_a_lab_spin_box(window):
    window.show_page(page_index("self-attention"))
    lab = window.page(page_index("self-attention"))
    QApplication.processEvents()
    spin = lab.size_spins["seed"]
    line = spin.lineEdit()
    line.setFocus()
    line.selectAll()
    event = QInputMethodEvent()
    event.setCommitString("７")
    QApplication.sendEvent(line, event)
    assert spin.text() == "7"
