"""Side panel with the scenario's title and its explanation (the presets' one-paragraph stories)."""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QCoreApplication, QEvent, Qt, Signal
from PySide6.QtWidgets import QLabel, QScrollArea, QVBoxLayout, QWidget

from attention_explorer.state.explorer import ExplorerModel
from attention_explorer.ui.style.safe_text import escaped
from attention_explorer.ui.style.theme import theme


def translated_scenario_text(text: str) -> str:
    """A preset's title or description in the current language (unknown texts pass through)."""
    return QCoreApplication.translate("presets", text) if text else text


def example_name(title: str, tokens: Iterable[str]) -> str:
    """How a lab names an example it opened: its title in the current language, or else its words."""
    return translated_scenario_text(title) or " ".join(tokens)


class PresetInfo(QWidget):
    """Shows what the current example is about; redraws when the scenario changes."""

    hint = Signal(str)

    def __init__(self, model: ExplorerModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("presetInfo")
        self.model = model
        self.text_label = QLabel()
        self.text_label.setObjectName("presetText")
        self.text_label.setWordWrap(True)
        self.text_label.setTextFormat(Qt.TextFormat.RichText)
        self.text_label.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.text_label.setMargin(8)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        scroll.setWidget(self.text_label)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(scroll)
        model.changed.connect(self.refresh)
        theme().changed.connect(self.refresh)
        self.refresh()

    def refresh(self) -> None:
        """Rewrite the text from the model's scenario."""
        scenario = self.model.scenario
        title = translated_scenario_text(scenario.title) or self.tr("Your own scenario")
        description = translated_scenario_text(scenario.description) or self.tr(
            "Edit Q, the keys and the values, or drag their tips on the canvas. "
            "Examples from the lecture are in the Examples menu."
        )
        size = theme().font_pt()
        self.text_label.setText(
            f"<div style='font-size:{size * 1.25:.1f}pt; font-weight:600'>{escaped(title)}</div>"
            f"<p style='font-size:{size:.1f}pt; line-height:140%'>{escaped(description)}</p>"
        )

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.refresh()
        super().changeEvent(event)
