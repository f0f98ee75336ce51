"""A lecture script walked with the clicker: each scene sets the window up; Page Down shows its steps, then moves on."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt
from PySide6.QtGui import QFont, QPalette
from PySide6.QtWidgets import (
    QApplication,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QToolBar,
    QVBoxLayout,
    QWidget,
)

from attention_explorer.core.files.presets import load_preset
from attention_explorer.core.limits import ScenarioError
from attention_explorer.core.scenes.query.scene import Scenario
from attention_explorer.core.teaching.lecture import Lecture, Scene, text_for
from attention_explorer.core.teaching.questions import ATTEND_MOST, STEP_OF_KIND
from attention_explorer.ui.i18n.preset_labels import translated_labels
from attention_explorer.ui.i18n.switcher import error_text, language_switcher
from attention_explorer.ui.labs.registry import page_index
from attention_explorer.ui.style.safe_text import plain_label
from attention_explorer.ui.style.theme import theme
from attention_explorer.ui.widgets.elided_label import ElidedLabel
from attention_explorer.ui.widgets.presenter_covers import CoverNote
from attention_explorer.ui.widgets.text_inputs import TEXT_INPUTS


class LectureBar(QFrame):
    """While a lecture runs: the scene's caption in large type above the middle, and its controls (back / next /
    end and where we are) in a bar along the window's bottom edge (`controls`).

    The controls keep their place on the screen whatever changes above them: a caption of another length, the step
    banner, a question, a lab that hides the docks, the presentation's strip: clicked again and again, Next never
    lands on text.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("lectureBar")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setAutoFillBackground(True)
        self.setBackgroundRole(QPalette.ColorRole.AlternateBase)  # a role, not a colour: it follows every theme
        self.caption_label = plain_label(QLabel(self))  # a script is a file: its text is never markup
        self.caption_label.setObjectName("lectureCaption")
        self.caption_label.setWordWrap(True)
        self.controls = QToolBar()  # the window puts it at its bottom edge
        self.controls.setObjectName("lectureControls")
        self.controls.setMovable(False)
        self.controls.setFloatable(False)
        self.controls.hide()
        row_widget = QWidget()
        row_widget.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        # one line, "…" when zoomed in too far (the whole text in its tooltip): it never widens the window
        self.place_label = plain_label(ElidedLabel(row_widget))
        self.place_label.setObjectName("lecturePlace")
        self.back_button = QPushButton(row_widget)
        self.back_button.setObjectName("lectureBack")
        self.next_button = QPushButton(row_widget)
        self.next_button.setObjectName("lectureNext")
        self.end_button = QPushButton(row_widget)
        self.end_button.setObjectName("lectureEnd")
        row = QHBoxLayout(row_widget)
        row.setContentsMargins(6, 2, 6, 2)
        for button in (self.back_button, self.next_button, self.end_button):
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # the clicker's keys stay the window's
            row.addWidget(button)
        row.addSpacing(12)
        row.addWidget(self.place_label, 1)  # after the buttons: its text never moves them
        self.controls.addWidget(row_widget)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 4, 10, 4)
        layout.addWidget(self.caption_label)
        theme().changed.connect(self._apply_theme)
        self._apply_theme()
        self.retranslate()

    def setVisible(self, visible: bool) -> None:
        super().setVisible(visible)
        self.controls.setVisible(visible)  # the controls come and go with the caption

    def _apply_theme(self) -> None:
        font = QFont(self.caption_label.font())
        font.setPointSizeF(theme().font_pt() * 1.2)
        self.caption_label.setFont(font)

    def retranslate(self) -> None:
        """The buttons' texts in the current language."""
        self.back_button.setText(self.tr("◀ Back"))
        self.next_button.setText(self.tr("Next ▶"))
        self.end_button.setText(self.tr("End lecture"))
        self.next_button.setToolTip(self.tr("Page Down on a clicker"))
        self.back_button.setToolTip(self.tr("Page Up on a clicker"))

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)


class LectureRunner(QObject):
    """Walks a Lecture's scenes in the window; the Quiz asks a scene's question."""

    def __init__(self, window, quiz) -> None:
        super().__init__(window)
        self.window = window
        self.model = window.model
        self.quiz = quiz
        self.lecture: Lecture | None = None
        self.index = -1
        self.end_screen: CoverNote | None = None  # after the last scene: the lecture is over, what the keys do now
        self.bar = LectureBar()
        self.bar.hide()
        self.bar.back_button.clicked.connect(self.previous)
        self.bar.next_button.clicked.connect(self.next)
        self.bar.end_button.clicked.connect(self.end)
        self.model.steps_changed.connect(self._show_caption)  # a step may have a caption of its own

    @property
    def active(self) -> bool:
        """True while a lecture runs."""
        return self.lecture is not None

    def start(self, lecture: Lecture) -> None:
        """Begin at the first scene (the scenes open examples without asking: unsaved work is asked about first)."""
        if not self.window.maybe_save():
            return
        self.lecture = lecture
        self.bar.show()
        self.enter(0)

    def end(self) -> None:
        """Leave the lecture: the window stays as the last scene left it, all steps shown."""
        if self.lecture is None:
            return
        self._hide_end_screen()
        self.quiz.dismiss()
        self.model.set_step_through(False)
        self.lecture, self.index = None, -1
        self.bar.hide()

    @property
    def at_end(self) -> bool:
        """True while the end screen shows (Page Down went past the last scene)."""
        return self.end_screen is not None and self.end_screen.isVisible()

    def next(self) -> None:
        """Page Down: the open question's answer, the scene's next step, the next scene, else the end screen."""
        if self.at_end:
            return
        if self.quiz.advance():
            return
        if self.model.step_through and self.model.revealed_steps < self._last_steps():
            self.model.reveal_next_step()
        elif self.index + 1 < len(self.lecture.scenes):
            self.enter(self.index + 1)
        else:
            self._show_end_screen()

    def restart(self) -> None:
        """Home: the first scene again."""
        if self.lecture is not None:
            self._hide_end_screen()
            self.enter(0)

    def _show_end_screen(self) -> None:
        if self.end_screen is None:
            self.end_screen = CoverNote(self.window, "lectureEndScreen")
        self._word_end_screen()
        self.end_screen.cover()

    def _hide_end_screen(self) -> None:
        if self.end_screen is not None:
            self.end_screen.hide()

    def _word_end_screen(self) -> None:
        if self.end_screen is None:
            return
        title = text_for(self.lecture.title, language_switcher().language) if self.lecture else ""
        keys = QCoreApplication.translate("LectureBar",
                                          "Esc leaves · Home restarts · Page Up goes back to the last scene")
        self.end_screen.set_texts(QCoreApplication.translate("LectureBar", "End of the lecture"),
                                  f"{title}\n\n{keys}" if title else keys)

    def previous(self) -> None:
        """Page Up: from the end screen the last scene; hide the scene's last step, else go back a scene."""
        if self.at_end:
            self._hide_end_screen()
            return
        if self.model.step_through and self.model.revealed_steps > self._first_steps(self.scene):
            self.model.reveal_previous_step()
        elif self.index > 0:
            self.enter(self.index - 1)

    @property
    def scene(self) -> Scene:
        """The scene on screen."""
        return self.lecture.scenes[self.index]

    def enter(self, index: int) -> None:
        """Set the window up as scene `index` says: example, page, plane, scale, pin, steps, question, caption."""
        self.index = index
        scene = self.scene
        window = self.window
        self.quiz.dismiss()
        if scene.preset:
            loaded = translated_labels(load_preset(scene.preset))
            if isinstance(loaded, Scenario):
                window.document.open_scenario(loaded)
            else:  # a self-attention, multi-head or cross-attention example: into its lab, as Examples ▸ does
                window.open_sequence(loaded)
        if scene.page:  # the script's reading worked it out: the scene's lab, its example's, or the one before's
            window.show_page(page_index(scene.page))
            self._keep_the_clicker()
        if scene.plane:
            combo = window.canvas.plane_combo
            combo.setCurrentIndex(combo.findData(scene.plane))
        if scene.sets_scale:
            self.model.set_scale(scene.scale)
        if scene.pin and scene.pin not in (pin.name for pin in self.model.pins):  # Page Up and back: pinned once
            try:
                self.model.add_pin(scene.pin)
            except ScenarioError as error:  # three pins already: the scene goes on without a fourth
                window._show_hint(error_text(error))
        self._set_steps(self._first_steps(scene))
        if scene.question:
            self.quiz.pose(scene.question)
        self._show_caption()

    def _keep_the_clicker(self) -> None:
        """The clicker's Page Down stays the lecture's: a page just shown never keeps the focus in one of its fields.

        Qt hands the focus of a page that goes to the next widget that takes it: in a lab that is a text field or a
        spin box, which would swallow Page Down (a spin box even steps by ten with it).
        """
        focus = QApplication.focusWidget()
        tabs = self.window.central_tabs
        if isinstance(focus, TEXT_INPUTS) and tabs.isAncestorOf(focus):
            tabs.currentWidget().setFocus(Qt.FocusReason.OtherFocusReason)  # the canvas, or the lab's scroll area

    def _first_steps(self, scene: Scene) -> int:
        """How many steps the scene starts with (0: step-through off); a question holds back the step it asks about."""
        if scene.question and scene.question != ATTEND_MOST:
            return STEP_OF_KIND[scene.question] - 1
        return scene.steps

    def _last_steps(self) -> int:
        """How many steps Page Down reveals in this scene: all four, but never the step the next scene's question
        holds back (scene 3 showed the output that scene 4 then asked the hall to guess)."""
        following = self.index + 1
        if following < len(self.lecture.scenes):
            question = self.lecture.scenes[following].question
            if question in STEP_OF_KIND:
                return max(STEP_OF_KIND[question] - 1, self.model.revealed_steps)
        return self.model.STEP_COUNT

    def _set_steps(self, shown: int) -> None:
        self.model.set_step_through(False)
        if shown:
            self.model.set_step_through(True)
            for _ in range(shown - 1):
                self.model.reveal_next_step()

    def _show_caption(self) -> None:
        if self.lecture is None:
            return
        language = language_switcher().language
        steps = self.model.revealed_steps if self.model.step_through else 0
        self.bar.caption_label.setText(text_for(self.scene.caption_at(steps), language))
        title = text_for(self.lecture.title, language)
        place = QCoreApplication.translate("LectureBar", "Scene {0} of {1}").format(self.index + 1,
                                                                                    len(self.lecture.scenes))
        self.bar.place_label.setText(f"{title} · {place}" if title else place)
        self.bar.back_button.setEnabled(self.index > 0 or self.model.revealed_steps > self._first_steps(self.scene))

    def retranslate(self) -> None:
        """The caption in the language now chosen (a script may carry one per language), and the end screen's words."""
        self._show_caption()
        self._word_end_screen()
