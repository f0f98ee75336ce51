"""The built-in lecture walked from its first scene to its last with Page Down alone, as a clicker does."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from attention_explorer.core.files.presets import load_preset, preset_names
from attention_explorer.core.teaching.lecture import LABS, load_built_in, text_for
from attention_explorer.core.teaching.questions import ATTEND_MOST, STEP_OF_KIND


def press_page_down(window) -> None:
    QTest.keyClick(window, Qt.Key.Key_PageDown)
    QApplication.processEvents()


def on_screen(window) -> tuple[str, str, int, str, bool, int]:
    """What the hall sees: caption, place, page, window title, whether a question is shown, steps shown."""
    bar = window.lessons.runner.bar
    assert bar.isVisible()
    steps = window.model.revealed_steps if window.model.step_through else 0
    return (bar.caption_label.text(), bar.place_label.text(), window.central_tabs.currentIndex(), window.windowTitle(),
            window.lessons.quiz.panel.isVisible(), steps)


def test_the_built_in_script_runs_start_to_end_on_page_down(make_window):
    window = make_window(activate=True, discard_changes=True)
    lecture = load_built_in()
    window.actions_by_name["lectureBuiltIn"].trigger()
    QApplication.processEvents()
    seen = []
    captions_seen: set[tuple[int, int]] = set()
    title = text_for(lecture.title, "en")
    page, preset = 0, ""
    for index, scene in enumerate(lecture.scenes):
        caption, place, shown_page, window_title, asking, steps = on_screen(window)
        assert caption == text_for(scene.caption_at(steps), "en")
        assert place == f"{title} · Scene {index + 1} of {len(lecture.scenes)}"
        page = LABS.index(scene.lab) if scene.lab else (3 if scene.preset == "self-attention" else page)
        assert shown_page == page
        preset = scene.preset or preset
        if preset != "self-attention" and shown_page == 0:
            assert load_preset(preset).title in window_title
        assert asking == bool(scene.question)
        if scene.pin:
            assert scene.pin in [pin.name for pin in window.model.pins]
        if scene.plane:
            assert window.canvas.plane_combo.currentData() == scene.plane
        if scene.sets_scale:
            assert window.model.scenario.scale == scene.scale
        if scene.question and scene.question != ATTEND_MOST:
            assert steps == STEP_OF_KIND[scene.question] - 1  # the question holds its step back
        seen.append((caption, place))
        captions_seen.add((index, steps))
        # A question is never answered on screen before it is asked: this scene stops short of the step that the
        # next one holds back (scene 3 showed the output that scene 4 then asked the hall to guess).
        following = lecture.scenes[index + 1].question if index + 1 < len(lecture.scenes) else None
        held = STEP_OF_KIND.get(following, 5)
        # Page Down until the next scene (the question's truth and the remaining steps come first).
        for _ in range(8):
            press_page_down(window)
            if window.lessons.runner.index != index:
                break
            shown_steps = on_screen(window)[5]
            assert on_screen(window)[0] == text_for(scene.caption_at(shown_steps), "en")  # the step's, or the scene's
            captions_seen.add((index, shown_steps))
            assert shown_steps < held
            if shown_steps:
                assert window.step_banner.text().startswith(f"Step {shown_steps} of 4")
        assert window.lessons.runner.index == min(index + 1, len(lecture.scenes) - 1)
    assert len(set(seen)) == len(lecture.scenes)  # every scene looked different
    # Every step caption of the script is reached (none written for a step the walk never shows).
    assert {(index, step) for index, scene in enumerate(lecture.scenes)
            for step, _texts in scene.step_captions} <= captions_seen
    window.actions_by_name["lectureEnd"].trigger()
    assert not window.lessons.runner.bar.isVisible() and not window.model.step_through


def test_a_chinese_window_shows_the_chinese_captions(make_window):
    window = make_window(language="zh_CN", activate=True, discard_changes=True)
    window.actions_by_name["lectureBuiltIn"].trigger()
    lecture = load_built_in()
    assert window.lessons.runner.bar.caption_label.text() == dict(lecture.scenes[0].caption)["zh_CN"]
    press_page_down(window)
    assert window.lessons.runner.bar.caption_label.text() == dict(lecture.scenes[1].caption)["zh_CN"]


def test_a_bad_lecture_file_names_its_first_problem_and_changes_nothing(make_window, tmp_path):
    window = make_window(record_errors=True, discard_changes=True)
    path = tmp_path / "talk.json"
    path.write_text('{"kind": "lecture", "scenes": [{"preset": "library"}, {"lab": "kitchen"}]}', encoding="utf-8")
    before = window.model.scenario
    assert not window.open_file(str(path))
    assert window.errors == [("Cannot open the file", "talk.json: scenes[1].lab: expected one of vectors, "
                              "saturation, variance, self-attention, transformer, multi-head, cross-attention, "
                              "positions, bugs, training, got \"kitchen\"")]
    assert window.model.scenario is before and not window.lessons.runner.bar.isVisible()
    path.write_text('{"kind": "lecture", "title": "Mine", "scenes": [{"preset": "aligned", "caption": "Look"}]}',
                    encoding="utf-8")
    assert window.open_file(str(path))
    assert window.lessons.runner.bar.caption_label.text() == "Look"
    assert window.lessons.runner.bar.place_label.text() == "Mine · Scene 1 of 1"


def test_the_command_lines_file_may_be_a_lecture_script(make_window, tmp_path):
    path = tmp_path / "talk.json"
    path.write_text('{"kind": "lecture", "scenes": [{"preset": "orthogonal", "caption": "θ = 90°"}]}',
                    encoding="utf-8")
    window = make_window(str(path), discard_changes=True)
    assert window.lessons.runner.bar.caption_label.text() == "θ = 90°"
    assert load_preset("orthogonal").title in window.windowTitle()


def test_switching_the_language_mid_lecture_switches_the_caption(make_window):
    window = make_window(activate=True, discard_changes=True)
    window.actions_by_name["lectureBuiltIn"].trigger()
    first = load_built_in().scenes[0].caption
    window.actions_by_name["lang_zh_CN"].trigger()
    QApplication.processEvents()
    assert window.lessons.runner.bar.caption_label.text() == dict(first)["zh_CN"]
    window.actions_by_name["lang_en"].trigger()
    QApplication.processEvents()
    assert window.lessons.runner.bar.caption_label.text() == dict(first)["en"]


def test_the_caption_reads_in_every_theme(make_window):
    from attention_explorer.ui.style.theme import theme

    window = make_window(discard_changes=True)
    window.actions_by_name["lectureBuiltIn"].trigger()
    bar = window.lessons.runner.bar
    for mode in ("light", "dark", "contrast"):
        theme().set_mode(mode)
        QApplication.processEvents()
        image = bar.grab().toImage()
        label = bar.caption_label.geometry()
        ground = image.pixelColor(label.right() - 2, label.bottom() - 1).lightnessF()  # past the end of the text
        inks = [image.pixelColor(x, y).lightnessF() for x in range(label.left(), label.left() + 200)
                for y in range(label.top(), label.bottom())]
        assert max(abs(ink - ground) for ink in inks) > 0.5, mode  # some text pixel stands out from the ground


# The tab each built-in example opens in: its lab, or the vectors page for a single-query example.
PRESET_PAGE_INDEX = {"self-attention": 3, "multi-head": 5, "translation": 6}


def test_every_page_a_script_names_is_a_page_of_the_window(make_window):
    """The registry's ids are the names a script uses, in the window's tab order, each with its own tab."""
    from attention_explorer.ui.labs.registry import PAGES, page_index

    assert tuple(spec.id for spec in PAGES) == LABS
    window = make_window()
    assert window.central_tabs.count() == len(PAGES)
    assert [window.central_tabs.tabText(page_index(name)) for name in ("multi-head", "cross-attention", "positions")] \
        == ["Multi-head attention", "Cross-attention", "Positions and q·k"]


@pytest.mark.parametrize("name", preset_names())
def test_a_lecture_scene_opens_every_built_in_example_in_its_page(make_window, tmp_path, name):
    from PySide6.QtWidgets import QLabel

    from attention_explorer.core.scenes.query.scene import Scenario

    window = make_window(record_errors=True, discard_changes=True, activate=True)
    path = tmp_path / "talk.json"
    path.write_text(json.dumps({"kind": "lecture", "scenes": [
        {"lab": "positions", "caption": "Where we start"}, {"preset": name, "caption": f"The example {name}"},
        {"caption": "Still here"}]}), encoding="utf-8")
    explorer_before = window.model.scenario
    assert window.open_file(str(path))  # File ▸ Open with a lecture script
    assert window.central_tabs.currentIndex() == 7
    press_page_down(window)
    page = PRESET_PAGE_INDEX.get(name, 0)
    assert window.lessons.runner.index == 1 and window.central_tabs.currentIndex() == page
    assert window.lessons.runner.bar.caption_label.text() == f"The example {name}"
    assert isinstance(window.model.scenario, Scenario)  # the explorer only ever holds a single query
    title = load_preset(name).title
    if page == 0:
        assert window.model.scenario.title == title and title in window.windowTitle()
    else:  # the lab says what it opened; the explorer keeps its own example
        assert window.model.scenario is explorer_before
        lab = window.current_page()
        assert any(f"Opened “{title}”" in label.text() for label in lab.findChildren(QLabel) if label.isVisible())
    press_page_down(window)
    assert window.lessons.runner.index == 2 and window.central_tabs.currentIndex() == page  # the page stays
    QTest.keyClick(window, Qt.Key.Key_PageUp)
    QTest.keyClick(window, Qt.Key.Key_PageUp)
    QApplication.processEvents()
    assert window.lessons.runner.index == 0 and window.central_tabs.currentIndex() == 7  # back where it started
    assert window.errors == []
