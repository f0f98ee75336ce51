"""The question panel above the middle: the question and its reveal in large type, the answer buttons, the score."""

from __future__ import annotations

from PySide6.QtCore import QEvent, Signal
from PySide6.QtGui import QFont, QPalette
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from attention_explorer.ui.style.safe_text import plain_label
from attention_explorer.ui.style.theme import theme


class QuestionPanel(QFrame):
    """Shows what the Quiz holds; its buttons only forward (flatter/sharper, check, reveal, reset)."""

    choice_made = Signal(str)  # "flatter" or "sharper"
    check_clicked = Signal()
    reveal_clicked = Signal()
    reset_clicked = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("questionPanel")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setAutoFillBackground(True)
        self.setBackgroundRole(QPalette.ColorRole.AlternateBase)  # a role, not a colour: it follows every theme
        self.question_label = plain_label(QLabel(self))
        self.question_label.setObjectName("questionText")
        self.result_label = plain_label(QLabel(self))
        self.result_label.setObjectName("questionResult")
        for label in (self.question_label, self.result_label):
            label.setWordWrap(True)
        self.flatter_button = QPushButton(self)
        self.flatter_button.setObjectName("flatterButton")
        self.sharper_button = QPushButton(self)
        self.sharper_button.setObjectName("sharperButton")
        self.check_button = QPushButton(self)
        self.check_button.setObjectName("checkButton")
        self.reveal_button = QPushButton(self)
        self.reveal_button.setObjectName("revealButton")
        self.score_label = plain_label(QLabel(self))
        self.score_label.setObjectName("scoreLabel")
        self.reset_button = QPushButton(self)
        self.reset_button.setObjectName("resetScoreButton")
        self.flatter_button.clicked.connect(lambda: self.choice_made.emit("flatter"))
        self.sharper_button.clicked.connect(lambda: self.choice_made.emit("sharper"))
        self.check_button.clicked.connect(self.check_clicked)
        self.reveal_button.clicked.connect(self.reveal_clicked)
        self.reset_button.clicked.connect(self.reset_clicked)

        # Text over a row of buttons: beside them, a word-wrapped question in the narrow middle took one word a line.
        row = QHBoxLayout()
        for button in (self.flatter_button, self.sharper_button, self.check_button, self.reveal_button):
            row.addWidget(button)
        row.addStretch(1)
        row.addWidget(self.score_label)
        row.addWidget(self.reset_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 4, 10, 4)
        layout.setSpacing(2)
        layout.addWidget(self.question_label)
        layout.addWidget(self.result_label)
        layout.addLayout(row)
        theme().changed.connect(self._apply_theme)
        self._apply_theme()
        self.retranslate()

    def show_state(self, question: str, result: str, score: str, buttons: tuple[bool, bool, bool]) -> None:
        """The texts to show and which answer buttons apply: (flatter/sharper, check, reveal)."""
        self.question_label.setText(question)
        self.result_label.setText(result)
        self.result_label.setVisible(bool(result))
        self.score_label.setText(score)
        choice, check, reveal = buttons
        self.flatter_button.setVisible(choice)
        self.sharper_button.setVisible(choice)
        self.check_button.setVisible(check)
        self.reveal_button.setVisible(reveal)

    def _apply_theme(self) -> None:
        for label, factor, bold in ((self.question_label, 1.3, True), (self.result_label, 1.2, False),
                                    (self.score_label, 1.0, True)):
            font = QFont(label.font())
            font.setPointSizeF(theme().font_pt() * factor)
            font.setBold(bold)
            label.setFont(font)

    def retranslate(self) -> None:
        """The buttons' texts in the current language."""
        self.flatter_button.setText(self.tr("Flatter"))
        self.sharper_button.setText(self.tr("Sharper"))
        self.check_button.setText(self.tr("Check"))
        self.reveal_button.setText(self.tr("Reveal"))
        self.reveal_button.setToolTip(self.tr("Show the answer without guessing (→ or Page Down)"))
        self.reset_button.setText(self.tr("Reset score"))

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)
