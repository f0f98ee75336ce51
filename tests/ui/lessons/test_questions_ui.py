"""Question mode as the hall sees it: each kind answered with real clicks, the reveal checked against the core."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from attention_explorer.core.files.presets import load_preset
from attention_explorer.core.teaching import questions as qs
from attention_explorer.ui.labs.registry import page_index
from tests.ui.canvas.test_vector_canvas import drag, widget_point

LEFT, NONE = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier


@pytest.fixture(scope="module")
def window(make_module_window):
    return make_module_window("library", discard_changes=True, instant_drags=True, activate=True)


@pytest.fixture(autouse=True)
def fresh(window):
    """Every test starts on the library example with question mode off and a score of 0 of 0."""
    quiz = window.lessons.quiz
    if quiz.enabled:
        window.actions_by_name["questionMode"].trigger()
    quiz.reset_score()
    window.show_page(0)
    window.document.open_scenario(load_preset("library"))
    window.model.set_step_through(False)
    QApplication.processEvents()
    yield


def panel(window):
    return window.lessons.quiz.panel


def texts(window) -> tuple[str, str, str]:
    """The question, the result and the score, as the panel shows them."""
    shown = panel(window)
    assert shown.isVisible()
    result = shown.result_label.text() if shown.result_label.isVisible() else ""
    return shown.question_label.text(), result, shown.score_label.text()


def press_page_down(window) -> None:
    window.activateWindow()
    QApplication.processEvents()
    QTest.keyClick(window, Qt.Key.Key_PageDown)
    QApplication.processEvents()


def question_mode_until(window, kind: str) -> qs.Question:
    """Question mode on, then Page Down until a question of `kind` is asked (others are revealed unanswered)."""
    window.actions_by_name["questionMode"].trigger()
    for _ in range(24):
        question = window.lessons.quiz.question
        if question is not None and question.kind == kind and not window.lessons.quiz.revealed:
            return question
        if window.model.revealed_steps == window.model.STEP_COUNT:
            QTest.keyClick(window, Qt.Key.Key_T, Qt.KeyboardModifier.ControlModifier)  # step-through off, on:
            QTest.keyClick(window, Qt.Key.Key_T, Qt.KeyboardModifier.ControlModifier)  # a new walk, new questions
        press_page_down(window)
    raise AssertionError(f"no {kind} question was asked")


def click_bar(window, index: int) -> None:
    chart = window.weights_chart
    point = chart.plot.mapFromScene(chart.view_box.mapViewToScene(QPointF(index, 0.3)))
    QTest.mouseClick(chart.plot.viewport(), LEFT, NONE, point)
    QApplication.processEvents()


def test_which_key_gets_the_largest_weight_answered_on_the_weights_chart(window):
    question = question_mode_until(window, qs.LARGEST_WEIGHT)
    assert window.model.revealed_steps == 2  # asked before the softmax is shown
    asked, result, _score = texts(window)
    assert asked.startswith("Which key gets the largest weight?") and result == ""
    click_bar(window, 2)  # K3: wrong in the library example (K1 has 0.506)
    expected = qs.check_key(question, window.model.scenario, 2)
    assert not expected.correct
    _asked, result, score = texts(window)
    assert result == (f"✗ Not quite. You chose K3 ({expected.guess[1]:.3f}). "
                      f"K{expected.truth[0] + 1} gets the largest weight, {expected.truth[1]:.3f}.")
    assert "0.506" in result and score == "Score 0 of 1"
    assert window.model.revealed_steps == 3  # the reveal shows the step the question held back


def test_the_same_question_answered_on_a_keys_arrow_in_the_canvas(window):
    question = question_mode_until(window, qs.LARGEST_WEIGHT)
    canvas = window.canvas
    x, y = canvas.tip_of("key", 0)
    QTest.mouseClick(canvas.plot.viewport(), LEFT, NONE, widget_point(canvas, x, y))
    QApplication.processEvents()
    expected = qs.check_key(question, window.model.scenario, 0)
    assert expected.correct
    _asked, result, score = texts(window)
    assert result == f"✓ Right. K1 gets the largest weight, {expected.truth[1]:.3f}." and score == "Score 1 of 1"


def test_where_will_the_output_land_shows_the_distance(window):
    question = question_mode_until(window, qs.OUTPUT_PLACE)
    view = window.output_view
    assert "?" in view.readout.text()  # the output itself is not shown yet
    point = view.plot.mapFromScene(view.view_box.mapViewToScene(QPointF(0.45, 0.55)))
    clicked = view.view_box.mapSceneToView(view.plot.mapToScene(point))  # before the reveal re-frames the view
    QTest.mouseClick(view.plot.viewport(), LEFT, NONE, point)
    QApplication.processEvents()
    expected = qs.check_point(question, window.model.scenario, clicked.x(), clicked.y())
    truth = np.array(expected.truth)
    assert np.allclose(truth, [0.492, 0.508], atol=5e-4)  # the article's V's in its order, by hand
    _asked, result, _score = texts(window)
    assert f"The output is ({truth[0]:.3f}, {truth[1]:.3f})." in result
    assert f"is {expected.distance:.3f} away (within {question.tolerance:.3f} counts)" in result
    assert result.startswith("✓ Right." if expected.correct else "✗ Not quite.")
    assert window.model.revealed_steps == 4


def test_flatter_or_sharper_with_two_buttons(window):
    question = question_mode_until(window, qs.FLATTER_SHARPER)
    assert window.model.revealed_steps == 1
    asked, _result, _score = texts(window)
    assert f"d_k goes from {question.d_from} to {question.d_to}" in asked
    QTest.mouseClick(panel(window).flatter_button, LEFT)
    QApplication.processEvents()
    answer, before, after = qs.flatter_or_sharper(window.model.scenario, question)
    _asked, result, _score = texts(window)
    word = "sharper" if answer == qs.SHARPER else "flatter"
    assert result.endswith(f"The weights get {word}: entropy {before:.3f} → {after:.3f} bits.")
    assert result.startswith("✓ Right." if answer == qs.FLATTER else "✗ Not quite.")
    assert not panel(window).sharper_button.isVisible()  # answered: the buttons go


def test_drag_a_key_until_its_weight_is_about_one_half_then_check(window):
    window.document.open_scenario(load_preset("drag-2d"))
    QApplication.processEvents()
    question = question_mode_until(window, qs.WEIGHT_HALF)
    scenario = window.model.scenario
    # Along Q, a key's weight is 1/2 where e^(its scaled score) equals the others' sum.
    others = np.delete(scenario.compute().scaled_scores, question.key)
    wanted_score = np.log(np.sum(np.exp(others)))
    target = scenario.query * wanted_score / (scenario.effective_scale * float(scenario.query @ scenario.query))
    canvas = window.canvas
    drag(canvas, canvas.tip_of("key", question.key), tuple(target), steps=6)
    QApplication.processEvents()
    QTest.mouseClick(panel(window).check_button, LEFT)
    QApplication.processEvents()
    expected = qs.check_weight(question, window.model.scenario)
    assert expected.correct
    label = scenario.labels[question.key]
    _asked, result, _score = texts(window)
    assert result == (f"✓ Right. {label}'s weight is {expected.guess[0]:.3f}, {expected.distance:.3f} from the "
                      f"target 0.50 (tolerance ±0.05).")


def test_which_position_a_token_attends_to_most_in_the_self_attention_lab(window):
    window.actions_by_name["questionMode"].trigger()
    window.show_page(page_index("self-attention"))
    QApplication.processEvents()
    quiz = window.lessons.quiz
    question = quiz.question
    assert question.kind == qs.ATTEND_MOST
    lab = window.self_attention_lab
    cover = lab.weight_map.findChild(type(lab.weight_title), "weightsCover")
    assert cover is not None and cover.isVisible()  # the weights wait behind a "?"
    sequence = lab.sequence_model.sequence
    row = question.token
    before = window.model.scenario
    heatmap = lab.score_map
    QTest.mouseClick(heatmap.viewport(), LEFT, NONE, heatmap.cell_center(row, 0).toPoint())
    QApplication.processEvents()
    expected = qs.check_key(question, sequence, 0)
    best = int(expected.truth[0])
    assert best == int(np.argmax(sequence.compute().weights[row]))
    _asked, result, _score = texts(window)
    truth = (f"“{sequence.tokens[row]}” attends most to “{sequence.tokens[best]}” (position {best + 1}), "
             f"weight {expected.truth[1]:.3f}.")
    assert result.endswith(truth) and result.startswith("✓ Right." if expected.correct else "✗ Not quite.")
    assert window.model.scenario is before  # the click answered; it did not make the token the explorer's query
    assert lab.weight_map.findChild(type(lab.weight_title), "weightsCover") is None or not cover.isVisible()


def test_page_down_reveals_unanswered_and_reset_clears_the_score(window):
    question_mode_until(window, qs.LARGEST_WEIGHT)
    click_bar(window, 0)
    press_page_down(window)  # on to step 4: the output question
    assert window.lessons.quiz.question.kind == qs.OUTPUT_PLACE
    press_page_down(window)  # no answer: the truth alone, not counted
    _asked, result, score = texts(window)
    output = window.model.result.output
    assert result == f"No answer. The truth: The output is ({output[0]:.3f}, {output[1]:.3f})."
    assert score == "Score 1 of 1"
    QTest.mouseClick(panel(window).reset_button, LEFT)
    assert texts(window)[2] == "Score 0 of 0"
    window.actions_by_name["questionMode"].trigger()
    assert not panel(window).isVisible()  # question mode off: the panel goes


def test_a_question_that_no_longer_fits_the_scene_goes_away(window):
    window.document.open_scenario(load_preset("drag-2d"))
    question = question_mode_until(window, qs.WEIGHT_HALF)
    assert window.model.scenario.labels[question.key] in texts(window)[0]
    for _ in range(2):  # down to one key: no weight left to drag to one half
        window.model.select_key(window.model.scenario.n - 1)
        window.actions_by_name["removePair"].trigger()
    QApplication.processEvents()
    assert window.lessons.quiz.question is None
    assert texts(window)[0].startswith("Question mode: press → or Page Down")
