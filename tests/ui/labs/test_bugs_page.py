"""The Spot-the-bug page driven like a user: each bug's symptom drawn with its numbers, answers checked by clicks and
keys, Chinese, and presentation at 1280×720 with every text whole and every widget inside the window."""

from __future__ import annotations

import math

import numpy as np
import pytest
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtGui import QTextDocument
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QAbstractButton, QApplication, QLabel

from attention_explorer.core.teaching import bugs as b
from attention_explorer.ui.i18n.switcher import language_switcher
from attention_explorer.ui.labs.bugs.texts import name
from attention_explorer.ui.labs.registry import page_index
from attention_explorer.ui.style.numbers import cell_number


@pytest.fixture(scope="module")
def window(make_module_window):
    win = make_module_window(activate=True)
    win.show_page(page_index("bugs"))
    QApplication.processEvents()
    return win


@pytest.fixture
def lab(window):
    page = window.current_page()
    page.set_question_mode(False)
    page.show_bug(b.BUGS[0])
    return page


def shown(label: QLabel) -> str:
    """What a label shows, as plain text."""
    if label.textFormat() == Qt.TextFormat.PlainText:
        return label.text()
    document = QTextDocument()
    document.setHtml(label.text())
    return document.toPlainText()


def cell_texts(heatmap) -> list[str]:
    return [text.textItem.toPlainText() for text in heatmap.cell_texts]


def click(widget) -> None:
    QTest.mouseClick(widget, Qt.MouseButton.LeftButton)
    QApplication.processEvents()


SYMPTOM_WORDS = {
    b.WRONG_AXIS: "Every column sums to 1 instead", b.SCALE_D_MODEL: "flatter weights",
    b.MASK_AFTER_SOFTMAX: "not 1", b.MASK_WITH_ZERO: "Masked keys get weight", b.ALL_MASKED_NAN: "NaN in row 3",
    b.NO_MAX_SHIFT: "overflows to inf", b.K_NOT_TRANSPOSED: "shape error", b.SCALE_Q_FIRST: "None",
}


def test_every_bugs_symptom_and_numbers_are_drawn(lab):
    seen = []
    for _ in b.BUGS:
        bug_id = lab.shown
        seen.append(bug_id)
        case = b.case(bug_id)
        symptom = shown(lab.symptom_label)
        assert SYMPTOM_WORDS[bug_id] in symptom, symptom
        wrong = ["NaN" if math.isnan(v) else cell_number(v) for v in case.wrong.weights.ravel()]
        assert cell_texts(lab.wrong_map) == wrong
        assert cell_texts(lab.right_map) == [cell_number(v) for v in case.right.ravel()]
        assert np.array_equal(lab.wrong_map.image.image, case.wrong.weights, equal_nan=True)  # the colours' data
        assert b.BUG_INFO[bug_id].seen == () or b.BUG_INFO[bug_id].seen[0].label in shown(lab.seen_label)
        assert "which one" not in shown(lab.wrong_title)  # study mode names the bug
        click(lab.next_button)
    assert seen == list(b.BUGS) and lab.shown == b.BUGS[0]  # round the list and back to the first

    lab.show_bug(b.NO_MAX_SHIFT)
    symptom = b.case(b.NO_MAX_SHIFT).symptom
    assert f"{symptom.largest_score:.1f}" in shown(lab.symptom_label)
    assert shown(lab.wrong_sums).count("NaN") == 4
    lab.show_bug(b.MASK_AFTER_SOFTMAX)
    sums = b.case(b.MASK_AFTER_SOFTMAX).symptom.row_sums
    assert cell_number(sums[0], 3) in shown(lab.symptom_label)
    assert shown(lab.wrong_sums).endswith(" · ".join(cell_number(s, 2) for s in sums))
    lab.show_bug(b.SCALE_D_MODEL)
    assert "0.354" in shown(lab.symptom_label)  # × 1/√8: d_k 4 of d_model 32


def test_question_mode_checks_a_wrong_and_a_right_answer(window, lab):
    click(lab.mode_box)
    assert lab.question_mode and "which one" in shown(lab.wrong_title)
    assert not lab.explanation_label.isVisible() and not lab.seen_label.isVisible()
    asked = lab.asked
    assert [button.isVisible() for button in lab.choice_buttons] == [True] * 4
    assert [button.text().split("   ", 1)[1] for button in lab.choice_buttons] == [name(c) for c in asked.choices]
    wrong = (asked.answer + 1) % 4
    click(lab.choice_buttons[wrong])
    verdict = shown(lab.verdict_label)
    assert verdict.startswith("✗ Not quite") and lab.choice_buttons[asked.answer].text().split("   ")[1] in verdict
    assert lab.explanation_label.isVisible() and lab.seen_label.isVisible()
    click(lab.choice_buttons[asked.answer])  # a second click does not change the answer
    assert shown(lab.verdict_label) == verdict

    QTest.keyClick(window, Qt.Key.Key_N)  # the next bug, by key
    QApplication.processEvents()
    assert not lab.verdict_label.isVisible()
    QTest.keyClick(window, getattr(Qt.Key, f"Key_{lab.asked.answer + 1}"))  # the answer's number key
    QApplication.processEvents()
    assert shown(lab.verdict_label).startswith("✓ Right")
    assert shown(lab.score_label) == "1 of 2 right"

    QTest.keyClick(window, Qt.Key.Key_N)
    QTest.keyClick(window, Qt.Key.Key_R)  # reveal, without an answer
    QApplication.processEvents()
    assert shown(lab.verdict_label).startswith("Revealed") and shown(lab.score_label) == "1 of 2 right"
    assert not any(button.isEnabled() for button in lab.choice_buttons)
    QTest.keyClick(window, Qt.Key.Key_Q)
    QApplication.processEvents()
    assert not lab.question_mode and not window.isWindowModified()  # navigation, not an edit


def test_the_pages_keys_do_nothing_on_another_page_and_leave_the_presenters_keys(window, lab):
    lab.set_question_mode(True)
    window.model.set_step_through(True)
    QTest.keyClick(window, Qt.Key.Key_B)  # the black screen, as on every page in step-through
    QApplication.processEvents()
    assert window._blank.isVisible() and lab.chosen is None
    QTest.keyClick(window, Qt.Key.Key_B)
    window.model.set_step_through(False)
    lab.set_question_mode(False)
    window.show_page(page_index("variance"))
    QApplication.processEvents()
    QTest.keyClick(window, Qt.Key.Key_N)
    QApplication.processEvents()
    assert lab.shown == b.BUGS[0]
    window.show_page(page_index("bugs"))
    QApplication.processEvents()


def inside(widget, window) -> bool:
    rect = QRect(widget.mapTo(window, QPoint(0, 0)), widget.size())
    return window.rect().contains(rect)


def whole(widget) -> bool:
    """The widget's text fits it: one line within its width, or wrapped within its height."""
    if isinstance(widget, QAbstractButton):
        return (widget.fontMetrics().horizontalAdvance(widget.text()) < widget.width()
                and widget.sizeHint().width() <= widget.width())
    if widget.wordWrap():
        return widget.heightForWidth(widget.width()) <= widget.height() + 1
    return widget.sizeHint().width() <= widget.width() + 1


@pytest.mark.parametrize("language", ["zh_CN", "en"])
def test_presentation_fits_1280_by_720_in_both_languages(window, lab, language):
    language_switcher().set_language(language)
    window.enter_presentation()
    window.resize(1280, 720)
    window.show_page(page_index("bugs"))
    try:
        for bug_id, mode in ((b.ALL_MASKED_NAN, False), (b.SCALE_D_MODEL, True), (b.WRONG_AXIS, True)):
            lab.set_question_mode(mode)
            lab.show_bug(bug_id)
            if mode:
                lab.answer((lab.asked.answer + 1) % 4)  # the longest state: verdict, explanation, code, sources
            QApplication.processEvents()
            widgets = [w for w in (*lab.findChildren(QLabel), *lab.findChildren(QAbstractButton))
                       if w.isVisible() and w.text()]
            assert len(widgets) >= (20 if mode else 14)
            for widget in widgets:
                assert inside(widget, window), (widget.objectName(), widget.text())
                assert whole(widget), (widget.objectName(), widget.text())
            for heatmap in (lab.right_map, lab.wrong_map):
                assert inside(heatmap, window) and heatmap.height() > 200
        if language == "zh_CN":
            assert shown(lab.symptom_label).startswith("症状：") and "第 " in shown(lab.counter_label)
            assert "出现于：" in shown(lab.seen_label) and "。" in shown(lab.explanation_label)
    finally:
        window.leave_presentation()
        language_switcher().set_language("en")
