"""Spot the bug: one scene computed right and through a real, documented bug, side by side, with its symptom.

Study mode names the bug, explains it and says where it was seen. Question mode hides its name and asks "which bug
is this?" with four choices (the bug and three other variants, the decoy among them sometimes); the explanation
comes after the answer. Which bug is shown and the answers given are navigation, not edits of a document: nothing
here is undone or saved. The numbers come from core/teaching/bugs.py; this page only words and draws them.

The question UI is the page's own (ui/labs may not import ui/lessons, and the lessons' panel asks about the
explorer's scene): four buttons, a verdict, the reveal.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QFont, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QCheckBox,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from attention_explorer.core.teaching import bugs as b
from attention_explorer.ui.labs.bugs import texts
from attention_explorer.ui.style.numbers import cell_number
from attention_explorer.ui.style.theme import WEIGHT_MAP_HEX, theme, theme_ink
from attention_explorer.ui.widgets.heatmap import Heatmap, HeatmapLook

WEIGHT_LOOK = HeatmapLook(colours=WEIGHT_MAP_HEX)
LETTERS = "1234"  # the choices' keys: letters would take B (black screen) and S (spotlight) from a presenter
RIGHT_HEX, LINK_HEX = "#1B7F3B", "#1F5FBF"  # a wrong answer and a symptom take the refusals' colour


class BugsLab(QWidget):
    """The right weights and a bug's weights as heatmaps, the symptom, and the study or question panel."""

    hint = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("bugsLab")
        self.cases = {bug_id: b.case(bug_id) for bug_id in b.BUGS}  # eight 4×4 scenes: computed once
        self.question_mode = False
        self.round = 0  # question mode's seed: a new round, a new order and new choices
        self.index = 0  # in the current order
        self.chosen: int | None = None  # the answer given to the question shown (None: not yet)
        self.revealed = False
        self.answered_right = 0
        self.answered = 0
        self._build()
        theme().changed.connect(self._apply_theme)
        self.retranslate()
        self._apply_theme()

    # ------------------------------------------------------------ building

    def _build(self) -> None:
        self.title_label = QLabel(self)
        self.title_label.setObjectName("bugsTitle")
        self.title_label.setTextFormat(Qt.TextFormat.RichText)
        self.title_label.setWordWrap(True)
        self.previous_button = QPushButton(self)
        self.previous_button.setObjectName("bugsPrevious")
        self.next_button = QPushButton(self)
        self.next_button.setObjectName("bugsNext")
        self.counter_label = QLabel(self)
        self.counter_label.setObjectName("bugsCounter")
        self.mode_box = QCheckBox(self)
        self.mode_box.setObjectName("bugsQuestionMode")
        self.score_label = QLabel(self)
        self.score_label.setObjectName("bugsScore")
        self.previous_button.clicked.connect(self.previous_bug)
        self.next_button.clicked.connect(self.next_bug)
        self.mode_box.toggled.connect(self.set_question_mode)

        self.right_title = QLabel(self)
        self.wrong_title = QLabel(self)
        self.right_map = Heatmap(WEIGHT_LOOK, self)
        self.right_map.setObjectName("bugsRightMap")
        self.wrong_map = Heatmap(WEIGHT_LOOK, self)
        self.wrong_map.setObjectName("bugsWrongMap")
        self.right_sums = QLabel(self)
        self.right_sums.setObjectName("bugsRightSums")
        self.wrong_sums = QLabel(self)
        self.wrong_sums.setObjectName("bugsWrongSums")
        for label in (self.right_title, self.wrong_title):
            label.setTextFormat(Qt.TextFormat.RichText)
            label.setWordWrap(True)
            label.setAlignment(Qt.AlignmentFlag.AlignHCenter)
            label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        for label in (self.right_sums, self.wrong_sums):
            label.setAlignment(Qt.AlignmentFlag.AlignHCenter)
            label.setWordWrap(True)
            label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        for heatmap in (self.right_map, self.wrong_map):
            heatmap.setMinimumSize(160, 160)
        self.symptom_label = QLabel(self)
        self.symptom_label.setObjectName("bugsSymptom")
        self.symptom_label.setTextFormat(Qt.TextFormat.RichText)
        self.symptom_label.setWordWrap(True)

        self.panel = QFrame(self)
        self.panel.setObjectName("bugsPanel")
        self.panel.setFrameShape(QFrame.Shape.StyledPanel)
        self.heading_label = QLabel(self.panel)
        self.heading_label.setObjectName("bugsHeading")
        self.heading_label.setWordWrap(True)
        self.heading_label.setTextFormat(Qt.TextFormat.PlainText)
        self.choice_buttons = [QPushButton(self.panel) for _ in LETTERS]
        for index, button in enumerate(self.choice_buttons):
            button.setObjectName(f"bugsChoice{LETTERS[index]}")
            button.clicked.connect(lambda _=False, chosen=index: self.answer(chosen))
            button.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.reveal_button = QPushButton(self.panel)
        self.reveal_button.setObjectName("bugsReveal")
        self.reveal_button.clicked.connect(self.reveal)
        self.verdict_label = QLabel(self.panel)
        self.verdict_label.setObjectName("bugsVerdict")
        self.verdict_label.setTextFormat(Qt.TextFormat.RichText)
        self.verdict_label.setWordWrap(True)
        self.explanation_label = QLabel(self.panel)
        self.explanation_label.setObjectName("bugsExplanation")
        self.explanation_label.setWordWrap(True)
        self.explanation_label.setTextFormat(Qt.TextFormat.PlainText)
        self.code_label = QLabel(self.panel)
        self.code_label.setObjectName("bugsCode")
        self.code_label.setTextFormat(Qt.TextFormat.RichText)
        self.seen_label = QLabel(self.panel)
        self.seen_label.setObjectName("bugsSeen")
        self.seen_label.setTextFormat(Qt.TextFormat.RichText)
        self.seen_label.setWordWrap(True)
        self.seen_label.setOpenExternalLinks(True)

        panel_layout = QVBoxLayout(self.panel)
        panel_layout.setContentsMargins(10, 6, 10, 6)
        panel_layout.setSpacing(4)
        panel_layout.addWidget(self.heading_label)
        for button in self.choice_buttons:
            panel_layout.addWidget(button)
        panel_layout.addWidget(self.reveal_button, 0, Qt.AlignmentFlag.AlignLeft)
        panel_layout.addWidget(self.verdict_label)
        panel_layout.addWidget(self.explanation_label)
        panel_layout.addWidget(self.code_label)
        panel_layout.addWidget(self.seen_label)
        panel_layout.addStretch(1)

        top = QHBoxLayout()
        top.setSpacing(8)
        top.addWidget(self.previous_button)
        top.addWidget(self.next_button)
        top.addWidget(self.counter_label)
        top.addStretch(1)
        top.addWidget(self.score_label)
        top.addWidget(self.mode_box)
        maps = QGridLayout()
        maps.setHorizontalSpacing(10)
        maps.setVerticalSpacing(2)
        maps.addWidget(self.right_title, 0, 0)
        maps.addWidget(self.wrong_title, 0, 1)
        maps.addWidget(self.right_map, 1, 0)
        maps.addWidget(self.wrong_map, 1, 1)
        maps.addWidget(self.right_sums, 2, 0)
        maps.addWidget(self.wrong_sums, 2, 1)
        maps.addWidget(self.symptom_label, 3, 0, 1, 2)
        maps.setRowStretch(1, 1)
        body = QHBoxLayout()
        body.setSpacing(10)
        body.addLayout(maps, 3)
        body.addWidget(self.panel, 2)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 6, 8, 6)
        layout.setSpacing(4)
        layout.addWidget(self.title_label)
        layout.addLayout(top)
        layout.addLayout(body, 1)

        # The page's keys, while it is shown (a hidden page's shortcuts do not fire); letters the window leaves free.
        self.shortcuts: dict[str, QShortcut] = {}
        # Digits 1–4 select the explorer's keys elsewhere; here, where no key is shown, they answer.
        for key, run in (("N", self.next_bug), ("Shift+N", self.previous_bug), ("Q", self.mode_box.toggle),
                         ("R", self.reveal), *((digit, lambda chosen=i: self.answer(chosen))
                                               for i, digit in enumerate(LETTERS))):
            shortcut = QShortcut(QKeySequence(key), self)
            shortcut.setContext(Qt.ShortcutContext.WindowShortcut)
            shortcut.activated.connect(run)
            self.shortcuts[key] = shortcut

    # ------------------------------------------------------------ navigation (not document edits)

    @property
    def order(self) -> tuple[str, ...]:
        """The bugs in the order shown: the list's in study mode, a seeded shuffle per round in question mode."""
        return b.order(self.round) if self.question_mode else b.BUGS

    @property
    def shown(self) -> str:
        """The id of the bug on screen."""
        return self.order[self.index]

    @property
    def asked(self) -> b.BugQuestion:
        """The question about the bug on screen (its four choices)."""
        return b.question(self.shown, self.round)

    @property
    def settled(self) -> bool:
        """True when the bug's name and explanation may show: study mode, or the question answered or revealed."""
        return not self.question_mode or self.chosen is not None or self.revealed

    def show_bug(self, bug_id: str) -> None:
        """Show `bug_id` (in the current mode's order)."""
        self.index = self.order.index(bug_id)
        self._new_bug()

    def next_bug(self) -> None:
        """The next bug; after the last, the first (in question mode a new round: new order, new choices)."""
        self.index += 1
        if self.index == len(self.order):
            self.index = 0
            if self.question_mode:
                self.round += 1
        self._new_bug()

    def previous_bug(self) -> None:
        """The bug before; before the first, the last."""
        self.index = (self.index - 1) % len(self.order)
        self._new_bug()

    def set_question_mode(self, on: bool) -> None:
        """Question mode on (names hidden until answered) or off; the bug shown stays."""
        if on == self.question_mode:
            return
        shown = self.shown
        self.question_mode = on
        if self.mode_box.isChecked() != on:
            self.mode_box.setChecked(on)
        self.index = self.order.index(shown)
        self._new_bug()

    def answer(self, chosen: int) -> None:
        """Choice `chosen` (0–3, shown as 1–4) for the question shown; the first answer counts, later ones not."""
        if not self.question_mode or self.chosen is not None or self.revealed:
            return
        self.chosen = chosen
        self.answered += 1
        self.answered_right += b.is_right(self.asked, chosen)
        self.refresh()

    def reveal(self) -> None:
        """Show the answer without guessing."""
        if self.question_mode and self.chosen is None and not self.revealed:
            self.revealed = True
            self.refresh()

    def _new_bug(self) -> None:
        self.chosen = None
        self.revealed = False
        self.refresh()

    # ------------------------------------------------------------ drawing

    def idle_hint(self) -> str:
        """What the status bar says on this page."""
        return self.tr("N next bug, Shift+N the one before; Q question mode; 1–4 answer, R reveal.")

    def refresh(self) -> None:
        """Every text and both heatmaps from the bug shown and the answer given."""
        case = self.cases[self.shown]
        settled = self.settled
        self.counter_label.setText(self.tr("Bug {0} of {1}").format(self.index + 1, len(self.order)))
        self.score_label.setVisible(self.question_mode and self.answered > 0)
        self.score_label.setText(self.tr("{0} of {1} right").format(self.answered_right, self.answered))
        self.right_title.setText(self.tr("<b>Right</b>: softmax(QKᵀ/√d_k + M)"))
        if settled:
            self.wrong_title.setText(self.tr("<b>With the bug</b>: {0}").format(texts.name(self.shown)))
        else:
            self.wrong_title.setText(self.tr("<b>With a bug</b>: which one?"))
        self._draw(self.right_map, case, case.right)
        self._draw(self.wrong_map, case, case.wrong.weights)
        self.right_sums.setText(texts.row_sums_text(case.right_row_sums))
        self.wrong_sums.setText(texts.row_sums_text(case.symptom.row_sums))
        self.symptom_label.setText(self.tr('<b style="color:{1}">Symptom</b>: {0}').format(
            texts.symptom_html(case), theme_ink(theme().error_hex())))
        self._fill_panel(case, settled)

    def _draw(self, heatmap: Heatmap, case: b.Case, weights: np.ndarray) -> None:
        values = np.asarray(weights, dtype=np.float64)
        cells = ["NaN" if np.isnan(v) else cell_number(float(v)) for v in values.ravel()]
        heatmap.show_matrix(values, (0.0, 1.0), case.scene.tokens, cells, case.scene.blocked)

    def _fill_panel(self, case: b.Case, settled: bool) -> None:
        asking = self.question_mode
        if asking:
            self.heading_label.setText(self.tr("Which bug is this?"))
        else:
            self.heading_label.setText(texts.name(self.shown))
        asked = self.asked if asking else None
        for index, button in enumerate(self.choice_buttons):
            button.setVisible(asking)
            if asked is None:
                continue
            button.setText(f"{LETTERS[index]}   {texts.name(asked.choices[index])}")
            button.setEnabled(not settled)
            mark = ""
            if settled and index == asked.answer:
                mark = theme_ink(RIGHT_HEX)
            elif self.chosen == index:
                mark = theme_ink(theme().error_hex())
            # Answered, the choices stay readable (not greyed) on a projector: only clicks stop.
            ink = theme().foreground().name()
            style = f"QPushButton {{ text-align: left; padding: 3px 8px; }} QPushButton:disabled {{ color: {ink}; }}"
            if mark:
                style += f" QPushButton {{ border: 3px solid {mark}; font-weight: bold; }}"
            button.setStyleSheet(style)
        self.reveal_button.setVisible(asking and not settled)
        if asking and settled:
            right_name = texts.name(self.shown)
            if self.chosen is None:
                verdict = self.tr("Revealed: <b>{0}</b>").format(right_name)
            elif self.chosen == asked.answer:
                verdict = self.tr('<span style="color:{0}">✓ Right</span>: <b>{1}</b>').format(
                    theme_ink(RIGHT_HEX), right_name)
            else:
                verdict = self.tr('<span style="color:{0}">✗ Not quite</span>: this is <b>{1}</b>').format(
                    theme_ink(theme().error_hex()), right_name)
            self.verdict_label.setText(verdict)
        self.verdict_label.setVisible(asking and settled)
        for label in (self.explanation_label, self.code_label, self.seen_label):
            label.setVisible(settled)
        if settled:
            self.explanation_label.setText(texts.explanation(self.shown))
            self.code_label.setText(texts.code_html(self.shown))
            self.seen_label.setText(texts.seen_html(self.shown, theme_ink(LINK_HEX)))

    # ------------------------------------------------------------ language and theme

    def retranslate(self) -> None:
        """Static texts in the current language, then the rest."""
        self.title_label.setText(self.tr(
            "<b>Spot the bug.</b> The same four tokens computed right (left) and through a real bug from a public "
            "issue tracker (right). Read the symptom, then name the bug."))
        self.previous_button.setText(self.tr("◀ Previous"))
        self.previous_button.setToolTip(self.tr("The bug before (Shift+N)"))
        self.next_button.setText(self.tr("Next bug ▶"))
        self.next_button.setToolTip(self.tr("The next bug (N)"))
        self.mode_box.setText(self.tr("Question mode (Q)"))
        self.mode_box.setToolTip(self.tr("Hide the bug's name and ask which bug it is"))
        self.reveal_button.setText(self.tr("Reveal (R)"))
        self.reveal_button.setToolTip(self.tr("Show the answer without guessing"))
        self.refresh()

    def _apply_theme(self) -> None:
        current = theme()
        font = QFont(self.font())
        font.setPointSizeF(current.font_pt())
        for widget in (self.title_label, self.previous_button, self.next_button, self.counter_label, self.mode_box,
                       self.score_label, self.right_title, self.wrong_title, self.right_sums, self.wrong_sums,
                       self.symptom_label, self.reveal_button, self.verdict_label, self.explanation_label,
                       self.seen_label, *self.choice_buttons):
            widget.setFont(font)
        heading = QFont(font)
        heading.setPointSizeF(current.font_pt() * 1.2)
        heading.setBold(True)
        self.heading_label.setFont(heading)
        code = QFont("monospace")
        code.setStyleHint(QFont.StyleHint.Monospace)
        code.setPointSizeF(current.font_pt() * 0.95)
        self.code_label.setFont(code)
        for heatmap in (self.right_map, self.wrong_map):
            heatmap.apply_theme()
        self.refresh()

    def changeEvent(self, event) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)
