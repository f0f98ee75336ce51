"""What the built-in lecture's scenes show in presentation mode, as the hall sees it: questions that describe the
screen, captions that follow the steps, the end of the lecture, the presenter's keys."""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtGui import QCursor, QFontMetrics
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from attention_explorer.core.teaching.lecture import load_built_in
from attention_explorer.core.teaching.questions import FLATTER_SHARPER, LARGEST_WEIGHT, OUTPUT_PLACE
from attention_explorer.ui.labs.registry import page_index


def press(window, key) -> None:
    QTest.keyClick(window, key)
    QApplication.processEvents()


def lecture_window(make_window, language: str = "en"):
    """A window presenting (F5) the built-in lecture at its first scene."""
    window = make_window(language=language, activate=True, discard_changes=True, size=(1280, 720))
    window.actions_by_name["presentation"].trigger()
    window.resize(1280, 720)  # the projector's size (the offscreen screen is smaller: F5 fitted the window to it)
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
    assert "M = 0：没有掩码，每个查询都关注每个键向量。" in formula.text()
    assert "no mask" not in formula.text()


@pytest.mark.parametrize(("language", "title", "keys"), [
    ("en", "End of the lecture", "Esc leaves · Home restarts · Page Up goes back to the last scene"),
    ("zh_CN", "讲解结束", "Esc 退出 · Home 从头开始 · Page Up 回到最后一个场景"),
])
def test_page_down_past_the_last_scene_shows_the_end_then_home_restarts(make_window, language, title, keys):
    window = lecture_window(make_window, language)
    scenes = len(load_built_in().scenes)
    go_to_scene(window, scenes)
    runner = window.lessons.runner
    for _ in range(8):
        press(window, Qt.Key.Key_PageDown)
        if runner.at_end:
            break
    end = runner.end_screen
    assert end.isVisible() and end.geometry() == window.rect()
    shown = end.visible_texts()
    assert shown[0] == title and keys in shown[-1]
    press(window, Qt.Key.Key_PageDown)  # nothing past the end
    assert end.isVisible() and runner.index == scenes - 1
    press(window, Qt.Key.Key_PageUp)  # back to the last scene as it was left
    assert not end.isVisible() and runner.index == scenes - 1
    press(window, Qt.Key.Key_PageDown)
    assert end.isVisible()
    press(window, Qt.Key.Key_Home)
    assert not end.isVisible() and runner.index == 0 and window.lessons.lecture_active
    go_to_scene(window, 3)
    press(window, Qt.Key.Key_Home)  # from any scene
    assert runner.index == 0


def test_esc_on_the_end_screen_leaves_the_lecture_and_the_presentation(make_window):
    window = lecture_window(make_window)
    go_to_scene(window, len(load_built_in().scenes))
    runner = window.lessons.runner
    while not runner.at_end:
        press(window, Qt.Key.Key_PageDown)
    press(window, Qt.Key.Key_Escape)
    assert not window.lessons.lecture_active and not window.presenting
    assert not runner.end_screen.isVisible() and not runner.bar.isVisible()


@pytest.mark.parametrize(("language", "title", "spotlight"), [
    ("en", "Presentation keys", "Hold for a spotlight: a bright circle on the mouse pointer"),
    ("zh_CN", "演示按键", "按住显示聚光灯：鼠标指针处一个明亮的圆圈"),
])
def test_question_mark_lists_the_presentation_keys_and_any_key_closes_it(make_window, language, title, spotlight):
    window = lecture_window(make_window, language)
    go_to_scene(window, 2)
    QTest.keyClick(window, Qt.Key.Key_Question, Qt.KeyboardModifier.ShiftModifier, )
    QApplication.processEvents()
    assert window.keys_list_shown
    cover = window._keys_list
    assert cover.geometry() == window.rect() and not cover.visibleRegion().isEmpty()
    shown = cover.visible_texts()
    assert shown[0] == title
    for key in ("Page Down  →", "Page Up  ←", "Home", "B", "S", "F5", "Esc", "?"):
        assert key in shown
    assert spotlight in shown
    for label in (cover.title_label, *(label for row in cover.rows for label in row)):
        if label.isVisible():  # nothing cut: every line fits its label, a wrapped one in its height
            if label.wordWrap():
                assert label.heightForWidth(label.contentsRect().width()) <= label.contentsRect().height()
            else:
                assert label.fontMetrics().horizontalAdvance(label.text()) <= label.contentsRect().width()
            assert window.rect().contains(label.geometry().translated(label.mapTo(window, QPoint(0, 0)) - label.pos()))
    steps = window.model.revealed_steps
    press(window, Qt.Key.Key_PageDown)  # closes the list and does nothing else
    assert not window.keys_list_shown and window.model.revealed_steps == steps and window.lessons.runner.index == 1


def brightness(image, x: int, y: int) -> int:
    colour = image.pixelColor(x, y)
    return colour.red() + colour.green() + colour.blue()


def test_holding_s_dims_all_but_a_circle_round_the_pointer(make_window):
    window = lecture_window(make_window)
    centre = window.rect().center()
    QCursor.setPos(window.mapToGlobal(centre))
    far = centre + QPoint(int(window.width() * 0.4), int(window.height() * 0.35))
    before = window.grab().toImage()
    QTest.keyPress(window, Qt.Key.Key_S)
    QApplication.processEvents()
    assert window.spotlight_shown
    spot = window._spotlight
    spot.centre = QPoint()  # the offscreen pointer may not move: put the circle where the test says
    spot.follow_pointer()
    if spot.centre != centre:
        spot.centre = centre
        spot.update()
    lit = window.grab().toImage()
    assert brightness(lit, centre.x(), centre.y()) == brightness(before, centre.x(), centre.y())  # inside: as it was
    assert brightness(lit, far.x(), far.y()) < 0.5 * brightness(before, far.x(), far.y())  # outside: dimmed
    QTest.keyRelease(window, Qt.Key.Key_S)
    QApplication.processEvents()
    assert not window.spotlight_shown
    after = window.grab().toImage()
    assert brightness(after, far.x(), far.y()) == brightness(before, far.x(), far.y())


def test_s_types_an_s_in_a_field_and_does_nothing_outside_presentation(make_window):
    window = make_window(activate=True, discard_changes=True)
    QTest.keyPress(window, Qt.Key.Key_S)
    QApplication.processEvents()
    assert not window.spotlight_shown
    QTest.keyRelease(window, Qt.Key.Key_S)


@pytest.mark.parametrize("kind", [OUTPUT_PLACE, LARGEST_WEIGHT])
def test_a_question_brings_forward_the_view_it_is_answered_in(make_window, kind):
    window = lecture_window(make_window)
    scene = next(i for i, s in enumerate(load_built_in().scenes) if s.question == kind) + 1
    go_to_scene(window, scene)
    assert window.lessons.quiz.question.kind == kind and window.lessons.quiz.panel.isVisible()
    view = window.output_view if kind == OUTPUT_PLACE else window.weights_chart
    assert view.isVisible() and not view.plot.viewport().visibleRegion().isEmpty()
    if kind == OUTPUT_PLACE:  # what the question asks for: a click in the output view answers it
        QTest.mouseClick(view.plot.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                         view.plot.viewport().rect().center())
        QApplication.processEvents()
        assert window.lessons.quiz.verdict is not None


def drawn_fragments(browser) -> list[str]:
    """The steps panel's text as drawn: fragments whose colour is not transparent (and not blank)."""
    shown = []
    block = browser.document().begin()
    while block.isValid():
        iterator = block.begin()
        while not iterator.atEnd():
            fragment = iterator.fragment()
            text = fragment.text().replace("\u2007", "").replace("\u2008", "").strip()
            if text and fragment.charFormat().foreground().color().alpha() != 0:
                shown.append(text)
            iterator += 1
        block = block.next()
    return shown


def test_hidden_steps_draw_nothing_but_their_titles(make_window):
    window = lecture_window(make_window)
    go_to_scene(window, 2)  # step 1 shown, steps 2–4 hidden
    assert window.model.step_through and window.model.revealed_steps == 1
    steps = window.docks["stepsView"].widget()
    drawn = drawn_fragments(steps.browser)
    second = next(i for i, text in enumerate(drawn) if text == "2" and drawn[i + 1].startswith("·"))  # "2 · Scaling"
    derivation = next(i for i, text in enumerate(drawn) if text.startswith("Why"))  # always shown, under the steps
    hidden = drawn[second:derivation]
    labels = set(window.model.scenario.labels)
    for text in hidden:  # "2 · Scale", "K1"…: no "e =", no "× [ , = [ ,"
        assert text in labels or not re.search(r"[=×\[\]/,·]\s*$|^[=×\[\],]", text), text
    assert not any(re.fullmatch(r"[\s=×\[\],/()e]+", text) for text in hidden)
    press(window, Qt.Key.Key_PageDown)  # step 2 shown: its numbers are drawn
    assert any(re.search(r"\d", text) for text in drawn_fragments(steps.browser)[second:second + 6])


STEP_WORDS = {"en": ("Step 1", "Step 2", "Step 3", "Step 4"), "zh_CN": ("第一步", "第二步", "第三步", "第四步")}


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_the_caption_follows_the_steps_the_banner_shows(make_window, language):
    window = lecture_window(make_window, language)
    go_to_scene(window, 2)
    caption = window.lessons.runner.bar.caption_label
    seen = []
    # Scene 2 shows steps 1 and 2: step 3 is what scene 3's question asks the hall to guess.
    for step in range(1, 3):
        assert window.model.revealed_steps == step and window.lessons.runner.index == 1
        assert caption.isVisible() and caption.text().startswith(STEP_WORDS[language][step - 1])
        for other in STEP_WORDS[language]:  # no other step named beside the one shown
            assert other == STEP_WORDS[language][step - 1] or other not in caption.text()
        seen.append(caption.text())
        press(window, Qt.Key.Key_PageDown)
    assert len(set(seen)) == 2
    assert window.lessons.runner.index == 2 and window.model.revealed_steps == 2  # scene 3 asks before step 3
    press(window, Qt.Key.Key_PageUp)  # back to scene 2, as it starts
    assert window.lessons.runner.index == 1 and window.model.revealed_steps == 1
    assert caption.text() == seen[0]  # its step's caption back


def test_the_scale_strip_shows_only_on_pages_of_the_explorers_d_k(make_window):
    window = lecture_window(make_window)
    strip = window.presentation_bar
    shown = {}
    for number, scene in enumerate(load_built_in().scenes, start=1):
        go_to_scene(window, number)
        shown[scene.page] = strip.isVisible()
        if strip.isVisible():  # the d_k it shows is the one of the scene on screen
            assert window.scale_strip.d_k_value.text() == str(window.model.scenario.d_k)
    assert shown == {"vectors": True, "saturation": True, "variance": False, "self-attention": False}
    window.actions_by_name["presentation"].trigger()  # the desk never shows the strip
    assert not strip.isVisible()
    window.actions_by_name["presentation"].trigger()  # back in presentation on the last scene's page
    assert strip.isVisible() == (load_built_in().scenes[-1].page in ("vectors", "saturation"))


def window_rect(widget) -> QRect:
    return QRect(widget.mapTo(widget.window(), QPoint(0, 0)), widget.size())


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_the_self_attention_notes_sit_under_their_maps_and_the_maps_fit(make_window, language):
    window = lecture_window(make_window, language)
    lab = window.self_attention_lab
    for number, scene in enumerate(load_built_in().scenes, start=1):
        if scene.page != "self-attention":
            continue
        go_to_scene(window, number)
        page = window_rect(window.central_tabs.currentWidget())
        for heatmap, caption in ((lab.score_map, lab.score_caption), (lab.weight_map, lab.weight_caption)):
            assert caption.isVisible() and caption.text()
            plot = window_rect(heatmap.viewport())
            note = window_rect(caption)
            assert not plot.intersects(note), (number, plot, note)  # "Row = query token…" under the map, not on it
            assert note.top() >= plot.bottom()
            assert page.contains(plot) and page.contains(note)  # nothing past the bottom of the page
            last_row = heatmap.cell_center(2, 0)  # 北京's row, the one scene 17 asks about
            assert heatmap.viewport().rect().contains(last_row.toPoint())


@pytest.mark.parametrize(("language", "heads"), [("en", 2), ("zh_CN", 2), ("en", 4), ("zh_CN", 4)])
def test_the_multi_head_maps_name_every_token_along_the_top(make_window, language, heads):
    window = make_window(language=language, activate=True, discard_changes=True)
    window.actions_by_name["presentation"].trigger()
    window.resize(1280, 720)
    window.show_page(page_index("multi-head"))
    QApplication.processEvents()
    lab = window.page(page_index("multi-head"))
    lab.size_spins["heads"].setValue(heads)  # more heads: narrower tiles
    QApplication.processEvents()
    assert len(lab.heads_grid.tiles) == heads
    tokens = list(lab.multihead.scenario.tokens)
    assert len(tokens) >= 4 and any(len(token) >= 3 for token in tokens)  # 我 爱 北京 天安门
    for tile in lab.heads_grid.tiles:
        for heatmap in (tile.score_map, tile.weight_map):
            assert heatmap.isVisible()
            top = heatmap.getPlotItem().getAxis("top")
            labels = [label for _value, label in top._tickLevels[0]]
            assert len(labels) == len(tokens)  # every column named
            for label, token in zip(labels, tokens):  # in full, or (4 narrower heads) its first letters at least
                assert label == token or (heads > 2 and label.rstrip("…") and token.startswith(label.rstrip("…")))
            if heads == 2:
                assert labels == tokens
            font = QFontMetrics(top.style["tickFont"])
            cell = heatmap.view_box.width() / len(tokens)
            assert all(font.horizontalAdvance(label) <= cell for label in labels)  # neighbours never overlap
