"""What the built-in lecture's scenes show in presentation mode, as the hall sees it: questions that describe the
screen, captions that follow the steps, the end of the lecture, the presenter's keys."""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from attention_explorer.core.teaching.lecture import load_built_in
from attention_explorer.core.teaching.questions import FLATTER_SHARPER


def press(window, key) -> None:
    QTest.keyClick(window, key)
    QApplication.processEvents()


def lecture_window(make_window, language: str = "en"):
    """A window presenting (F5) the built-in lecture at its first scene."""
    window = make_window(language=language, activate=True, discard_changes=True, size=(1280, 720))
    window.actions_by_name["presentation"].trigger()
    window.actions_by_name["lectureBuiltIn"].trigger()
    QApplication.processEvents()
    return window


def go_to_scene(window, number: int) -> None:
    """Page Down until scene `number` (from 1) is on screen."""
    runner = window.lessons.runner
    for _ in range(80):
        if runner.index == number - 1:
            return
        press(window, Qt.Key.Key_PageDown)
    raise AssertionError(f"scene {number} never came")


def numbers_in(text: str) -> list[str]:
    return re.findall(r"\d+(?:\.\d+)?", text)


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_the_flatter_or_sharper_question_speaks_of_the_scale_the_strip_shows(make_window, language):
    window = lecture_window(make_window, language)
    scene = next(i for i, s in enumerate(load_built_in().scenes) if s.question == FLATTER_SHARPER) + 1
    go_to_scene(window, scene)
    quiz, strip = window.lessons.quiz, window.scale_strip
    assert quiz.question.kind == FLATTER_SHARPER and strip.isVisible()
    asked = quiz.panel.question_label.text()
    d_k_shown = strip.d_k_value.text()
    assert numbers_in(asked)[0] == d_k_shown  # "d_k goes from 4 to 16"
    assert strip.auto_box.isChecked()  # the lecture's library example: Auto 1/√d_k ticked on the strip
    assert ("1/√d_k" in asked) and ("off" not in asked and "关闭" not in asked)
    press(window, Qt.Key.Key_PageDown)  # the reveal, and with it step 2 onward… the weights shown
    revealed = quiz.panel.result_label.text()
    assert quiz.revealed and quiz.panel.result_label.isVisible()
    while not window.model.step_shown(3):
        press(window, Qt.Key.Key_PageDown)
    chart = window.weights_chart.stats_label.text()
    entropy_on_chart = numbers_in(re.sub("<[^>]+>", "", chart))[0]
    assert entropy_on_chart == numbers_in(revealed)[0]  # "entropy 1.472 → 1.281": the chart says 1.472 too


@pytest.mark.parametrize("scale", [None, 1.0, 0.25])
def test_the_question_follows_a_scale_the_lecturer_changed(make_window, scale):
    window = lecture_window(make_window)
    scene = next(i for i, s in enumerate(load_built_in().scenes) if s.question == FLATTER_SHARPER) + 1
    go_to_scene(window, scene)
    window.model.set_scale(scale)  # the lecturer moves the scale while the question is open
    QApplication.processEvents()
    asked = window.lessons.quiz.panel.question_label.text()
    factor = window.scale_strip.factor_value.text()
    if scale is None:
        assert "1/√d_k on" in asked
    elif scale == 1.0:
        assert "scale off" in asked
    else:
        assert f"factor kept at {factor}" in asked


def test_a_live_switch_to_chinese_retranslates_the_mask_caption(make_window):
    window = lecture_window(make_window)
    scene = next(i for i, s in enumerate(load_built_in().scenes) if s.lab == "self-attention") + 1
    go_to_scene(window, scene)
    formula = window.self_attention_lab.formula_label
    assert formula.isVisible() and "M = 0: no mask, every query looks at every key." in formula.text()
    window.actions_by_name["lang_zh_CN"].trigger()
    QApplication.processEvents()
    assert "M = 0：没有掩码，每个查询都关注每个键。" in formula.text()
    assert "no mask" not in formula.text()
