"""The lecture's Next button stays where it is, scene after scene, whatever shows above the page (step banner,
question, captions of any length): a lecturer or a student clicking it again and again never lands on text."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from attention_explorer.core.teaching.lecture import load_built_in


@pytest.mark.parametrize(("language", "presenting"), [("zh_CN", False), ("zh_CN", True)])
def test_next_keeps_its_place_through_every_scene_of_the_built_in_lecture(make_window, language, presenting):
    window = make_window(language=language, activate=True, discard_changes=True, size=(1280, 720))
    if presenting:
        window.actions_by_name["presentation"].trigger()
        window.resize(1280, 720)  # the projector's size (F5 fitted the window to the offscreen screen)
    window.actions_by_name["lectureBuiltIn"].trigger()
    QApplication.processEvents()
    runner = window.lessons.runner
    button = runner.bar.next_button
    assert button.objectName() == "lectureNext"
    place = button.mapToGlobal(QPoint(0, 0))
    scenes, banners, questions = set(), 0, 0
    for _ in range(120):
        if runner.at_end:
            break
        scenes.add(runner.index)
        banners += window.step_banner.isVisible()
        questions += runner.quiz.panel.isVisible()
        centre = button.rect().center()
        assert button.mapToGlobal(QPoint(0, 0)) == place, (runner.index, window.model.revealed_steps)
        # What is under the pointer there is the button itself, not a caption or a banner laid over it.
        assert window.childAt(window.mapFromGlobal(button.mapToGlobal(centre))) is button
        QTest.mouseClick(button, Qt.MouseButton.LeftButton, pos=centre)
        QApplication.processEvents()
    assert runner.at_end and scenes == set(range(len(load_built_in().scenes)))
    assert banners and questions  # the walk did show step banners and questions below the bar
