"""Languages: the catalogue is complete and compiled, and the window switches to Chinese live."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pyqtgraph as pg
import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QDockWidget,
    QGraphicsView,
    QGroupBox,
    QLabel,
    QMenu,
    QTabBar,
    QTextEdit,
    QWidget,
)

from attention_explorer.app import create_window
from attention_explorer.core.limits import ScenarioError
from attention_explorer.core.scenes.query.file import FORMAT_ID
from attention_explorer.ui.i18n.switcher import CORE_MESSAGES, catalogue_path, error_text, language_switcher

ROOT = Path(__file__).resolve().parents[3]
TS = catalogue_path("zh_CN").with_suffix(".ts")
# Words that stay as they are in Chinese text: names, formats, symbols of the formula.
KEEP_IN_ENGLISH = {
    "attention", "explorer", "numpy", "latex", "markdown", "png", "svg", "pdf", "english", "softmax", "exp", "max",
    "sum", "log", "cos", "nan", "float", "transformer", "bert", "rope", "shift",
}
# Terms and names of more than one word that Chinese texts use as they are (the article keeps "one-hot" too).
KEEP_PHRASES = ("one-hot", "hugging face", "i love beijing")  # the last: the translation example's source
# File names (config.json, model.safetensors) are names too, and so are symbols with a subscript (d_model, W_Q).
_FILE_NAME = re.compile(r"\b[\w-]+\.(?:json|safetensors|txt|png|svg)\b")
_SYMBOL = re.compile(r"\b[A-Za-z]+_[A-Za-z0-9]+\b")
# Widgets whose text is English on purpose: the self-attention lab's English example sentence (data, not UI).
ENGLISH_BY_DESIGN = {"englishExample", "translationExample",  # and the cross lab's "I love Beijing → 我 爱 北京"
                     "bugsCode", "bugsSeen"}  # Spot the bug: a line of code, and the repositories it was seen in
_HAN = re.compile(r"[\u4e00-\u9fff]")


def _messages():
    tree = ET.parse(TS)
    for context in tree.getroot().iter("context"):
        name = context.findtext("name")
        for message in context.iter("message"):
            yield name, message.findtext("source"), message.find("translation")


def _lrelease() -> str:
    return shutil.which("pyside6-lrelease", path=str(Path(sys.executable).parent)) or "pyside6-lrelease"


def _lupdate() -> str:
    return shutil.which("pyside6-lupdate", path=str(Path(sys.executable).parent)) or "pyside6-lupdate"


def test_every_catalogue_entry_is_translated():
    unfinished = [
        (context, source) for context, source, translation in _messages()
        if translation is None or translation.get("type") in ("unfinished", "vanished", "obsolete")
        or not (translation.text or "").strip()
    ]
    assert not unfinished, f"{len(unfinished)} unfinished, e.g. {unfinished[:5]}"


def test_translations_keep_their_placeholders():
    for context, source, translation in _messages():
        wanted = sorted(re.findall(r"\{\d*(?::[^}]*)?\}", source))
        got = sorted(re.findall(r"\{\d*(?::[^}]*)?\}", translation.text or ""))
        assert wanted == got, (context, source, translation.text)


def test_compiled_catalogue_is_current(tmp_path):
    fresh = tmp_path / "fresh.qm"
    subprocess.run([_lrelease(), str(TS), "-qm", str(fresh)], check=True, capture_output=True)
    assert fresh.read_bytes() == catalogue_path("zh_CN").read_bytes(), "run tools/update_translations.py"


def test_catalogue_has_every_string_in_the_sources(tmp_path):
    copy = tmp_path / TS.name
    shutil.copy(TS, copy)
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import update_translations as tool
    finally:
        sys.path.pop(0)
    generated = ROOT / "attention_explorer/ui/i18n/preset_texts.py"
    assert generated.read_text(encoding="utf-8") == tool.preset_texts_source()
    completed = subprocess.run(
        [_lupdate(), "-no-obsolete", "-locations", "none", "-tr-function-alias", "translate+=_translate",
         *tool.sources(), "-ts", str(copy)],
        cwd=ROOT, check=True, capture_output=True, text=True,
    )
    assert "0 new" in completed.stdout or "(0 new" in completed.stdout, completed.stdout


@pytest.fixture
def window(make_window):
    return make_window()


def _visible_texts(win) -> list[str]:
    texts = [dock.windowTitle() for dock in win.findChildren(QDockWidget)]
    for menu in win.findChildren(QMenu):
        texts.append(menu.title())
        texts += [action.text() for action in menu.actions() if action.text()]
    for widget in win.findChildren(QLabel) + win.findChildren(QAbstractButton) + win.findChildren(QGroupBox):
        if not widget.isVisibleTo(win) or widget.objectName() in ENGLISH_BY_DESIGN:
            continue
        text = widget.title() if isinstance(widget, QGroupBox) else widget.text()
        texts.append(text)
    for browser in win.findChildren(QTextEdit):
        if browser.isVisibleTo(win):
            # The HTML, not the plain text: sub/superscripts (e<sup>x<sub>i</sub></sup>) would merge into "exi".
            texts.append(re.sub(r"(?s)<head>.*?</head>", " ", browser.toHtml()))
    for bar in win.findChildren(QTabBar):
        if bar.isVisibleTo(win):
            texts += [bar.tabText(i) for i in range(bar.count())]
    for combo in win.findChildren(QComboBox):
        if combo.isVisibleTo(win):
            texts += [combo.itemText(i) for i in range(combo.count())]
    for spin in win.findChildren(QAbstractSpinBox):
        if spin.isVisibleTo(win) and hasattr(spin, "prefix"):
            texts += [spin.prefix(), spin.suffix()]
    for view in win.findChildren(QAbstractItemView):
        model = view.model()
        if view.isVisibleTo(win) and model is not None:
            texts += [str(model.headerData(c, Qt.Orientation.Horizontal) or "") for c in range(model.columnCount())]
    for graphics in win.findChildren(QGraphicsView):
        if not graphics.isVisibleTo(win) or graphics.scene() is None:
            continue
        for item in graphics.scene().items():
            if not item.isVisible():
                continue
            if isinstance(item, pg.TextItem):
                texts.append(item.textItem.toPlainText())
            elif isinstance(item, pg.LabelItem):
                texts.append(item.text)
            elif isinstance(item, pg.AxisItem) and item.label.isVisible():
                texts.append(item.labelText)
    return [t for t in texts if t]


def _english_words(text: str) -> list[str]:
    plain = re.sub(r"\w+<sub>[^<]*</sub>", " ", text)  # a symbol with a subscript written in markup (d<sub>model</sub>)
    plain = re.sub(r"<[^>]+>", " ", plain)
    plain = re.sub(r"&\w+;", " ", plain)
    plain = _FILE_NAME.sub(" ", plain)
    plain = _SYMBOL.sub(" ", plain)
    for phrase in KEEP_PHRASES:
        plain = re.sub(re.escape(phrase), " ", plain, flags=re.IGNORECASE)
    return [w for w in re.findall(r"[A-Za-z]{3,}", plain) if w.lower() not in KEEP_IN_ENGLISH]


def test_switching_to_chinese_changes_the_menus_live(window):
    assert window.file_menu.title() == "&File"
    window.actions_by_name["lang_zh_CN"].trigger()
    QApplication.processEvents()  # Qt posts LanguageChange to the widgets: it arrives with the next events
    assert _HAN.search(window.file_menu.title())
    assert _HAN.search(window.docks["stepsView"].windowTitle())
    assert _HAN.search(window.actions_by_name["open"].text())
    window.actions_by_name["lang_en"].trigger()
    QApplication.processEvents()
    assert window.file_menu.title() == "&File"


def _leftovers(window) -> list[tuple[str, list[str]]]:
    """English words on every page of the central tabs (the canvas and each lab), each text once."""
    tabs = getattr(window, "central_tabs", None)
    pages = range(tabs.count()) if tabs is not None else [None]
    found: dict[str, list[str]] = {}
    for page in pages:
        if page is not None:
            tabs.setCurrentIndex(page)
            QApplication.processEvents()
        for text in _visible_texts(window):
            if text[-120:] not in found and (words := _english_words(text)):
                found[text[-120:]] = words
    if tabs is not None:
        tabs.setCurrentIndex(0)
    return list(found.items())


def test_no_english_is_left_in_the_chinese_window(window):
    window.actions_by_name["lang_zh_CN"].trigger()
    QApplication.processEvents()
    leftovers = _leftovers(window)
    assert not leftovers, leftovers[:10]


def test_a_window_opened_in_chinese_shows_no_english(qtbot, tmp_path):
    language_switcher().set_language("zh_CN")
    try:
        settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
        win = create_window(settings=settings)
        qtbot.addWidget(win)
        win.resize(1280, 720)
        win.show()
        QApplication.processEvents()
        leftovers = _leftovers(win)
    finally:
        language_switcher().set_language("en")
    assert not leftovers, leftovers[:10]


def test_panels_switch_back_to_english_live(window):
    scale = window.findChild(QWidget, "scaleControls")
    chart = window.findChild(QWidget, "weightsChart")
    editor = window.findChild(QWidget, "vectorEditor")
    window.actions_by_name["lang_zh_CN"].trigger()
    QApplication.processEvents()
    assert _HAN.search(scale.auto_radio.text()) and _HAN.search(scale.temperature_label.text())
    assert _HAN.search(chart.stats_label.text()) and _HAN.search(editor.add_button.text())
    window.actions_by_name["lang_en"].trigger()
    QApplication.processEvents()
    assert scale.auto_radio.text() == "Auto 1/√d_k"
    assert scale.temperature_label.text().startswith("T = 1/factor = ")
    assert chart.stats_label.text().startswith("Entropy")
    assert editor.add_button.text() == "+ Add pair"
    assert editor.table_model.headerData(0, Qt.Orientation.Horizontal) == "Name"


def test_numbers_keep_a_decimal_point_in_chinese(window):
    window.actions_by_name["lang_zh_CN"].trigger()
    window.preset_actions["library"].trigger()
    QApplication.processEvents()
    text = _all_text(window)
    assert "0.506" in text and "0,506" not in text


def _all_text(window) -> str:
    from PySide6.QtWidgets import QTextBrowser

    parts = [label.text() for label in window.findChildren(QLabel)]
    parts += [browser.toPlainText() for browser in window.findChildren(QTextBrowser)]
    return "\n".join(parts)


def _update_tool():
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import update_translations as tool
    finally:
        sys.path.pop(0)
    return tool


def test_core_messages_are_marked_for_translation_from_the_core():
    tool = _update_tool()
    assert (ROOT / "attention_explorer/ui/i18n/core_texts.py").read_text(encoding="utf-8") == tool.core_texts_source()
    messages = tool.core_messages()
    assert "{0}: NaN is not allowed (every number must be finite)" in messages
    assert "a string" in messages  # a Phrase


def test_core_message_translations_keep_every_placeholder():
    placeholder = re.compile(r"\{[^{}]*\}")
    checked = 0
    for context in ET.parse(TS).getroot().iter("context"):
        if context.findtext("name") != CORE_MESSAGES:
            continue
        for message in context.iter("message"):
            source, translation = message.findtext("source"), message.findtext("translation")
            assert sorted(placeholder.findall(source)) == sorted(placeholder.findall(translation)), source
            checked += 1
    assert checked == len(_update_tool().core_messages())


def test_a_refused_file_is_explained_in_chinese(window, tmp_path, _no_modal_dialogs):
    bad = tmp_path / "bad.json"
    document = {"format": FORMAT_ID, "query": [1, "x"], "keys": [[1, 0]], "values": [[1]]}
    bad.write_text(json.dumps(document), encoding="utf-8")
    window.actions_by_name["lang_zh_CN"].trigger()
    QApplication.processEvents()
    before = window.model.scenario
    assert not window.open_file(str(bad), ask=False)
    title, text = _no_modal_dialogs[-1]
    assert _HAN.search(title)
    # The core's message, in Chinese, with its place (a field name of the file format) kept as it is.
    assert "bad.json" in text and "query[1]" in text and "应为数字" in text and "字符串" in text
    assert "expected" not in text and "string" not in text
    assert window.model.scenario is before


def test_error_text_falls_back_to_english_for_errors_without_a_template():
    assert error_text(OSError("disk full")) == "disk full"
    assert error_text(ScenarioError("{0}: no such file", "a.json")) == "a.json: no such file"  # English session
