"""The window's lessons: question mode and lecture scripts, placed above the middle and driven by the clicker's keys."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QEvent, QObject
from PySide6.QtWidgets import QFileDialog

from attention_explorer.core.lecture import Lecture, load_built_in, load_lecture
from attention_explorer.core.scenario import ScenarioError
from attention_explorer.ui.i18n.switcher import error_text
from attention_explorer.ui.lessons.lecture_runner import LectureRunner
from attention_explorer.ui.lessons.quiz import Quiz

_translate = QCoreApplication.translate  # lupdate: -tr-function-alias translate+=_translate
LECTURE_FILTER = QT_TRANSLATE_NOOP("MainWindow", "Attention Explorer lecture script (*.json);;All files (*)")


class Lessons(QObject):
    """Owns the Quiz and the LectureRunner of one window; the action table calls its methods."""

    def __init__(self, window) -> None:
        super().__init__(window)
        self.window = window
        self.quiz = Quiz(window)
        self.runner = LectureRunner(window, self.quiz)
        middle = window.centralWidget().layout()
        banner_at = middle.indexOf(window.step_banner)
        middle.insertWidget(banner_at + 1, self.runner.bar)
        middle.insertWidget(banner_at + 2, self.quiz.panel)
        for widget in (self.quiz.panel, self.runner.bar):
            widget.installEventFilter(self)

    @property
    def lecture_active(self) -> bool:
        """True while a lecture script runs (Page Down then walks its scenes)."""
        return self.runner.active

    def next(self) -> None:
        """→ / Page Down: the lecture's next scene or step, the open question's reveal, else the next step."""
        if self.runner.active:
            self.runner.next()
        elif not self.quiz.advance():
            self.window.model.reveal_next_step()

    def previous(self) -> None:
        """← / Page Up: back a step (or, in a lecture, a scene)."""
        if self.runner.active:
            self.runner.previous()
        else:
            self.window.model.reveal_previous_step()

    def toggle_questions(self) -> None:
        """View ▸ Question mode: ask before each hidden step, or stop asking."""
        self.quiz.set_enabled(not self.quiz.enabled)
        self.window.actions_by_name["questionMode"].setChecked(self.quiz.enabled)

    def start_lecture(self, lecture: Lecture) -> None:
        """Walk `lecture` from its first scene."""
        self.runner.start(lecture)

    def open_built_in_lecture(self) -> None:
        """Lecture ▸ The article's path: the built-in script."""
        self.start_lecture(load_built_in())

    def open_lecture_file(self, path: str) -> bool:
        """Read a lecture script and start it; a bad file shows the loader's first problem and nothing changes."""
        try:
            lecture = load_lecture(path)
        except ScenarioError as error:
            self.window.show_error(_translate("MainWindow", "Cannot open the lecture script"),
                                   f"{Path(path).name}: {error_text(error)}")
            return False
        self.start_lecture(lecture)
        return True

    def open_lecture_dialog(self) -> None:
        """Lecture ▸ Open lecture script…"""
        path, _ = QFileDialog.getOpenFileName(self.window, _translate("MainWindow", "Open lecture script"),
                                              self.window._dialog_folder(), _translate("MainWindow", LECTURE_FILTER))
        if path:
            self.open_lecture_file(path)

    def end_lecture(self) -> None:
        """Lecture ▸ End the lecture."""
        self.runner.end()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.LanguageChange:
            self.quiz.retranslate() if watched is self.quiz.panel else self.runner.retranslate()
        return False
