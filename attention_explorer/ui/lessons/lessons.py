"""The window's lessons: question mode and lecture scripts, placed above the middle and driven by the clicker's keys."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QEvent, QObject, Qt
from PySide6.QtWidgets import QFileDialog

from attention_explorer.core.limits import ScenarioError
from attention_explorer.ui.i18n.switcher import error_text

if TYPE_CHECKING:  # built, and so imported, the first time a question or a lecture is wanted (start-up skips them)
    from attention_explorer.core.teaching.lecture import Lecture
    from attention_explorer.ui.lessons.lecture_runner import LectureRunner
    from attention_explorer.ui.lessons.quiz import Quiz

_translate = QCoreApplication.translate  # lupdate: -tr-function-alias translate+=_translate
LECTURE_FILTER = QT_TRANSLATE_NOOP("MainWindow", "Attention Explorer lecture script (*.json);;All files (*)")


class Lessons(QObject):
    """Owns the Quiz and the LectureRunner of one window; the action table calls its methods."""

    def __init__(self, window) -> None:
        super().__init__(window)
        self.window = window
        self._quiz: Quiz | None = None
        self._runner: LectureRunner | None = None

    @property
    def quiz(self) -> Quiz:
        """Question mode (built with the lecture runner the first time either is needed)."""
        self._build()
        return self._quiz

    @property
    def runner(self) -> LectureRunner:
        """The lecture script's walk (built with the quiz the first time either is needed)."""
        self._build()
        return self._runner

    def _build(self) -> None:
        """The quiz and the lecture runner, their bars put above the middle (below the step banner)."""
        if self._quiz is not None:
            return
        from attention_explorer.ui.lessons.lecture_runner import LectureRunner
        from attention_explorer.ui.lessons.quiz import Quiz

        window = self.window
        self._quiz = Quiz(window)
        self._runner = LectureRunner(window, self._quiz)
        middle = window.centralWidget().layout()
        banner_at = middle.indexOf(window.step_banner)
        middle.insertWidget(banner_at + 1, self._runner.bar)
        middle.insertWidget(banner_at + 2, self._quiz.panel)
        # The lecture's buttons along the window's bottom edge: nothing above them moves them.
        window.addToolBar(Qt.ToolBarArea.BottomToolBarArea, self._runner.bar.controls)
        for widget in (self._quiz.panel, self._runner.bar):
            widget.installEventFilter(self)

    @property
    def lecture_active(self) -> bool:
        """True while a lecture script runs (Page Down then walks its scenes)."""
        return self._runner is not None and self._runner.active

    def next(self) -> None:
        """→ / Page Down: the lecture's next scene or step, the open question's reveal, else the next step."""
        if self.lecture_active:
            self._runner.next()
        elif self._quiz is None or not self._quiz.advance():  # no quiz yet: no question is open or wanted
            self.window.model.reveal_next_step()

    def previous(self) -> None:
        """← / Page Up: back a step (or, in a lecture, a scene)."""
        if self.lecture_active:
            self._runner.previous()
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
        from attention_explorer.core.teaching.lecture import load_built_in

        self.start_lecture(load_built_in())

    def open_lecture_file(self, path: str) -> bool:
        """Read a lecture script and start it; a bad file shows the loader's first problem and nothing changes."""
        from attention_explorer.core.teaching.lecture import load_lecture

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

    @property
    def lecture_at_end(self) -> bool:
        """True while the lecture's end screen shows."""
        return self.lecture_active and self._runner.at_end

    def restart_lecture(self) -> None:
        """Home in a lecture: its first scene again."""
        if self.lecture_active:
            self._runner.restart()

    def end_lecture(self) -> None:
        """Lecture ▸ End the lecture."""
        if self._runner is not None:
            self._runner.end()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.LanguageChange:
            self.quiz.retranslate() if watched is self.quiz.panel else self.runner.retranslate()
        return False
