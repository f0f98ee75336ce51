"""Help ▸ Guide (F1): the article's path in sections with Try it buttons, a glossary, the keys and About.

The texts ship in resources/help/guide.json in both languages.
"""

from __future__ import annotations

import json
from functools import cache

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QFont, QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QMainWindow,
    QPushButton,
    QScrollArea,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from attention_explorer.core.files.presets import resources_dir
from attention_explorer.ui.i18n.switcher import language_switcher
from attention_explorer.ui.labs.registry import page_index
from attention_explorer.ui.window.actions import ROWS
from attention_explorer.version import __version__

# A guide section's "Try it" names a page by its registry id (ui/labs/registry.py).


@cache
def guide() -> dict:
    """The guide's sections and glossary (read once)."""
    return json.loads((resources_dir() / "help" / "guide.json").read_text(encoding="utf-8"))


def in_language(texts: dict) -> str:
    """A {"en": …, "zh_CN": …} text in the window's language."""
    return texts.get(language_switcher().language, texts["en"])


def _label(text: str, bold: bool = False) -> QLabel:
    label = QLabel(text)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setWordWrap(True)
    if bold:
        font = QFont(label.font())
        font.setBold(True)
        label.setFont(font)
    return label


class HelpDialog(QDialog):
    """Guide, Glossary, Keys and About as tabs; rebuilt in the new language on a language switch."""

    def __init__(self, window: QMainWindow) -> None:  # the main window: its pages, examples and actions
        super().__init__(window)
        self.setObjectName("helpDialog")
        self.window_ = window
        self.resize(720, 560)
        self.tabs = QTabWidget(self)
        self.tabs.setObjectName("helpTabs")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.tabs)
        layout.addWidget(buttons)
        self.try_buttons: list[QPushButton] = []
        self.build()

    def build(self) -> None:
        """Every tab from the guide, in the current language."""
        current = self.tabs.currentIndex()
        while self.tabs.count():  # the old pages go (clear() would keep them as hidden children)
            page = self.tabs.widget(0)
            self.tabs.removeTab(0)
            page.setParent(None)
            page.deleteLater()
        self.try_buttons = []
        self.setWindowTitle(self.tr("Attention Explorer guide"))
        self.tabs.addTab(self._scrolled(self._guide_page()), self.tr("Guide"))
        self.tabs.addTab(self._scrolled(self._glossary_page()), self.tr("Glossary"))
        self.tabs.addTab(self._scrolled(self._keys_page()), self.tr("Keyboard"))
        self.tabs.addTab(self._about_page(), self.tr("About"))
        self.tabs.setCurrentIndex(max(current, 0))

    def _scrolled(self, page: QWidget) -> QScrollArea:
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(page)
        return scroll

    def _guide_page(self) -> QWidget:
        page = QWidget()
        layout = QVBoxLayout(page)
        for index, section in enumerate(guide()["sections"]):
            layout.addWidget(_label(in_language(section["title"]), bold=True))
            layout.addWidget(_label(in_language(section["text"])))
            button = QPushButton(self.tr("Try it"))
            button.setObjectName(f"tryIt{index}")
            button.setToolTip(in_language(section["title"]))
            button.clicked.connect(lambda _=False, spec=section["try"]: self.try_it(spec))
            layout.addWidget(button, 0, Qt.AlignmentFlag.AlignLeft)
            self.try_buttons.append(button)
        layout.addStretch(1)
        return page

    def _glossary_page(self) -> QWidget:
        page = QWidget()
        layout = QVBoxLayout(page)
        for entry in guide()["glossary"]:
            layout.addWidget(_label(in_language(entry["term"]), bold=True))
            layout.addWidget(_label(in_language(entry["text"])))
        layout.addStretch(1)
        return page

    def _keys_page(self) -> QWidget:
        """Every menu command that has a key, with its key as this platform writes it."""
        page = QWidget()
        layout = QVBoxLayout(page)
        actions = self.window_.actions_by_name
        for row in ROWS:
            action = actions.get(getattr(row, "name", ""))
            if action is None or not getattr(row, "shortcuts", ()):
                continue
            keys = ", ".join(key.toString(QKeySequence.SequenceFormat.NativeText) for key in action.shortcuts())
            name = action.text().replace("&&", "\0").replace("&", "").replace("\0", "&")
            if keys and name:
                layout.addWidget(_label(f"{keys}\t{name}"))
        layout.addWidget(_label(self.tr(
            "On the canvas: keys 1–9 select a key vector, the arrow keys rotate it, Space turns it through 360°.")))
        layout.addStretch(1)
        return page

    def _about_page(self) -> QWidget:
        page = QWidget()
        layout = QVBoxLayout(page)
        title = _label(self.tr("Attention Explorer {0}").format(__version__), bold=True)
        title.setObjectName("aboutTitle")
        layout.addWidget(title)
        layout.addWidget(_label(self.tr(
            "See scaled dot-product attention, softmax(Q·Kᵀ/√d_k)·V, step by step, as the article explains it.")))
        licence = _label(self.tr("Licence: MIT"))
        licence.setObjectName("aboutLicence")
        layout.addWidget(licence)
        layout.addStretch(1)
        return page

    def try_it(self, spec: dict) -> None:
        """Open the section's example or page in the window, or start the built-in lecture (the guide stays open
        beside it)."""
        if "lecture" in spec:
            self.window_.actions_by_name["lectureBuiltIn"].trigger()
        if "preset" in spec:
            self.window_.open_preset(spec["preset"])
        if "page" in spec:
            self.window_.show_page(page_index(spec["page"]))

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.build()
        super().changeEvent(event)
