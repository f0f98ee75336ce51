"""Question mode: before a hidden step is revealed the window asks about it; a click answers, the reveal follows."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QLabel, QWidget

from attention_explorer.core.scenes.query.scene import Scenario
from attention_explorer.core.scenes.sequence.scene import SequenceScenario
from attention_explorer.core.teaching import questions as qs
from attention_explorer.ui.labs.registry import SELF_ATTENTION, page_index
from attention_explorer.ui.lessons.question_panel import QuestionPanel
from attention_explorer.ui.lessons.question_texts import idle_text, question_text, reveal_text, score_text
from attention_explorer.ui.style.theme import theme


class _Cover(QLabel):
    """A "?" over the self-attention lab's weights while its question waits; it swallows clicks."""

    def __init__(self, target: QWidget) -> None:
        super().__init__("?", target)
        self.setObjectName("weightsCover")
        self.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.setAutoFillBackground(True)
        font = QFont(self.font())
        font.setPointSizeF(theme().font_pt() * 4)
        font.setBold(True)
        self.setFont(font)
        target.installEventFilter(self)
        self.setGeometry(target.rect())

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.parentWidget() and event.type() == QEvent.Type.Resize:
            self.setGeometry(self.parentWidget().rect())
        return False

    def mousePressEvent(self, event) -> None:
        event.accept()


class Quiz(QObject):
    """Holds the open question, its verdict and the score (for as long as the window is open; nothing is saved)."""

    changed = Signal()

    def __init__(self, window) -> None:
        super().__init__(window)
        self.window = window
        self.model = window.model
        self.enabled = False  # question mode: a question before each hidden step
        self.question: qs.Question | None = None
        self.verdict: qs.Verdict | None = None
        self.revealed = False  # the open question's truth is shown (answered or skipped)
        self.score = qs.Score()
        self._revealed_scene: Scenario | SequenceScenario | None = None  # what the reveal speaks of, as it was
        self._round = 0  # varies the questions from one walk through the steps to the next
        self._asked_steps: set[int] = set()
        self._cover: _Cover | None = None
        self._lab_connected = False
        self.panel = QuestionPanel()
        self.panel.hide()
        self.panel.choice_made.connect(self.answer_choice)
        self.panel.check_clicked.connect(self.check_weight)
        self.panel.reveal_clicked.connect(self.reveal)
        self.panel.reset_clicked.connect(self.reset_score)
        for view in (window.canvas, window.weights_chart, window.output_view):
            view.key_clicked.connect(self.answer_key)
        window.output_view.clicked_at.connect(self.answer_point)
        self.model.steps_changed.connect(self._steps_changed)
        self.model.opened.connect(self._scene_opened)
        self.model.changed.connect(self._scene_changed)
        window.central_tabs.currentChanged.connect(self._page_changed)
        self.changed.connect(self._show)

    # ------------------------------------------------------------ mode

    def set_enabled(self, enabled: bool) -> None:
        """Question mode on (step-through starts, so there are hidden steps to ask about) or off."""
        self.enabled = enabled
        if enabled:
            self._asked_steps.clear()
            if self.window.central_tabs.currentIndex() == page_index(SELF_ATTENTION):
                self.pose(qs.ATTEND_MOST)
            elif not self.model.step_through:
                self.model.set_step_through(True)
        else:
            self.dismiss()
        self.changed.emit()

    def scene(self) -> Scenario | SequenceScenario:
        """What the open question is about: the scene at its reveal, else the lab's sentence or the explorer's now."""
        if self._revealed_scene is not None:
            return self._revealed_scene
        if self._in_lab():
            return self.window.self_attention_lab.sequence_model.sequence
        return self.model.scenario

    def _in_lab(self) -> bool:
        return self.question is not None and self.question.kind == qs.ATTEND_MOST

    def pose(self, kind: str) -> bool:
        """Ask a question of `kind` about the current scene; False when it does not apply there."""
        self.dismiss()
        scene: Scenario | SequenceScenario = self.model.scenario
        if kind == qs.ATTEND_MOST:
            lab = self.window.self_attention_lab
            scene = lab.sequence_model.sequence
        if not qs.applies(kind, scene):
            self.changed.emit()
            return False
        self._round += 1
        self.question = qs.generate(kind, scene, self.model.selected_key, self._round)
        if kind == qs.ATTEND_MOST:
            self._guard_lab(lab, True)
        self._bring_forward(kind)
        self.changed.emit()
        return True

    def _bring_forward(self, kind: str) -> None:
        """The view a question is answered in comes to the front (a tab behind the four steps would hide it)."""
        dock = {qs.OUTPUT_PLACE: "outputView", qs.LARGEST_WEIGHT: "weightsChart"}.get(kind)
        docks = getattr(self.window, "docks", {})
        if dock in docks and self.window.central_tabs.currentIndex() == 0:
            docks[dock].show()
            docks[dock].raise_()

    def dismiss(self) -> None:
        """Close the open question (its answer no longer asked for)."""
        if self._in_lab():
            self._guard_lab(self.window.self_attention_lab, False)
        self.question, self.verdict, self.revealed, self._revealed_scene = None, None, False, None
        self.changed.emit()

    def _guard_lab(self, lab, waiting: bool) -> None:
        """While the lab's question waits its weights are covered and a click answers instead of choosing a query."""
        lab.query_on_click = not waiting
        if not self._lab_connected:
            for heatmap in (lab.score_map, lab.weight_map):
                heatmap.cell_clicked.connect(self.answer_cell)
            lab.sequence_model.changed.connect(self._sentence_changed)
            self._lab_connected = True
        if waiting and self._cover is None:
            self._cover = _Cover(lab.weight_map)
            self._cover.show()
        elif not waiting and self._cover is not None:
            self._cover.hide()  # gone now, not when the event loop next deletes it (a grab in between showed "?")
            self._cover.deleteLater()
            self._cover = None

    # ------------------------------------------------------------ the clicker

    def advance(self) -> bool:
        """→ / Page Down: reveal the open question, or ask the next one; False leaves the key to step-through."""
        if self.question is not None and not self.revealed:
            self.reveal()  # an answer is a click (Check for the drag): the clicker only shows the truth
            return True
        if not self.enabled:
            return False
        if self.window.central_tabs.currentIndex() == page_index(SELF_ATTENTION):
            return self.pose(qs.ATTEND_MOST)
        step = self.model.revealed_steps + 1
        if not self.model.step_through or step > self.model.STEP_COUNT or step in self._asked_steps:
            return False
        self._asked_steps.add(step)
        kind = self._kind_for_step(step)
        return kind is not None and self.pose(kind)

    def _kind_for_step(self, step: int) -> str | None:
        kinds = [kind for kind in qs.EXPLORER_KINDS
                 if qs.STEP_OF_KIND[kind] == step and qs.applies(kind, self.model.scenario)]
        return kinds[self._round % len(kinds)] if kinds else None

    def waiting_step(self) -> int:
        """The step the open question holds back (0 when none does)."""
        return self.question.step if self.question is not None and not self.revealed else 0

    # ------------------------------------------------------------ answers (what the views forward)

    def answer_key(self, index: int) -> None:
        """A key was clicked: the answer to "which key gets the largest weight?"."""
        if self._waiting(qs.LARGEST_WEIGHT):
            self._finish(qs.check_key(self.question, self.scene(), index))

    def answer_cell(self, _row: int, column: int) -> None:
        """A cell of the lab's maps was clicked: its column is the position chosen."""
        if self._waiting(qs.ATTEND_MOST):
            self._finish(qs.check_key(self.question, self.scene(), column))

    def answer_point(self, x: float, y: float) -> None:
        """A click in the output view: where the learner thinks the output lands."""
        if self._waiting(qs.OUTPUT_PLACE):
            self._finish(qs.check_point(self.question, self.scene(), x, y))

    def answer_choice(self, choice: str) -> None:
        """Flatter or Sharper."""
        if self._waiting(qs.FLATTER_SHARPER):
            self._finish(qs.check_choice(self.question, self.scene(), choice))

    def check_weight(self) -> None:
        """Check: is the dragged key's weight near the target now?"""
        if self._waiting(qs.WEIGHT_HALF):
            self._finish(qs.check_weight(self.question, self.scene()))

    def reveal(self) -> None:
        """The truth without a guess (not counted in the score)."""
        if self.question is not None and not self.revealed:
            self._after_reveal()

    def reset_score(self) -> None:
        """Back to 0 of 0."""
        self.score.reset()
        self.changed.emit()

    def _waiting(self, kind: str) -> bool:
        return self.question is not None and self.question.kind == kind and not self.revealed

    def _finish(self, verdict: qs.Verdict) -> None:
        self.verdict = verdict
        self.score.add(verdict)
        self._after_reveal()

    def _after_reveal(self) -> None:
        """The step the question held back is shown now, next to the answer; the reveal keeps the scene it judged."""
        self._revealed_scene = self.scene()
        self.revealed = True
        if self._in_lab():
            self._guard_lab(self.window.self_attention_lab, False)
        step = self.question.step
        if step and self.model.step_through and self.model.revealed_steps == step - 1:
            self.model.reveal_next_step()
        self.changed.emit()

    # ------------------------------------------------------------ following the window

    def _steps_changed(self) -> None:
        if self.model.revealed_steps <= 1 or not self.model.step_through:
            self._asked_steps.clear()  # a new walk through the steps asks again
        waiting = self.waiting_step()
        if waiting and (not self.model.step_through or self.model.revealed_steps >= waiting):
            self.reveal()  # the step came out some other way (a menu, the mouse): its question is moot

    def _scene_opened(self) -> None:
        self._asked_steps.clear()
        if self.waiting_step():
            self.dismiss()  # another example: the question was about the one before

    def _scene_changed(self) -> None:
        question = self.question
        if question is None or self.revealed or self._in_lab():
            return
        scenario = self.model.scenario
        if not qs.applies(question.kind, scenario) or question.key >= scenario.n:
            self.dismiss()  # a removed key or a d_v that is no longer 2: the question no longer fits
            return
        if question.kind == qs.FLATTER_SHARPER:
            # d_k or the scale changed under the open question: it speaks of the state on screen, never of one gone.
            fresh = qs.generate(question.kind, scenario, self.model.selected_key, self._round)
            if fresh != question:
                self.question = fresh
                self.changed.emit()

    def _sentence_changed(self) -> None:
        if self._in_lab() and not self.revealed:
            self.pose(qs.ATTEND_MOST)  # a new sentence: a new question about it

    def _page_changed(self, index: int) -> None:
        if self._in_lab() and index != page_index(SELF_ATTENTION):
            self.dismiss()
        elif self.enabled and index == page_index(SELF_ATTENTION) and self.question is None:
            self.pose(qs.ATTEND_MOST)

    def _show(self) -> None:
        question = self.question
        if question is None:
            self.panel.setVisible(self.enabled)
            self.panel.show_state(idle_text(), "", score_text(self.score), (False, False, False))
            return
        scene = self.scene()
        result = reveal_text(question, scene, self.verdict) if self.revealed else ""
        waiting = not self.revealed
        self.panel.show_state(question_text(question, scene), result, score_text(self.score), (
            waiting and question.kind == qs.FLATTER_SHARPER, waiting and question.kind == qs.WEIGHT_HALF, waiting))
        self.panel.show()

    def retranslate(self) -> None:
        """The panel's texts again in the current language."""
        self._show()
