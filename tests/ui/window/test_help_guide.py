"""Help ▸ Guide (F1): every Try it opens what its section speaks of, in both languages; glossary, keys, About."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QLabel

from attention_explorer import __version__
from attention_explorer.core.files.presets import load_preset
from attention_explorer.ui.i18n.switcher import language_switcher
from attention_explorer.ui.labs.registry import page_index
from attention_explorer.ui.window.help_dialog import guide


@pytest.fixture(scope="module")
def shared_window(make_module_window):
    return make_module_window(discard_changes=True)


@pytest.fixture(params=["en", "zh_CN"])
def window(request, shared_window):
    """One window for the module, in each language in turn (switched live: the open guide is rebuilt)."""
    language_switcher().set_language(request.param)
    shared_window.activateWindow()
    QApplication.processEvents()
    yield shared_window
    language_switcher().set_language("en")
    QApplication.processEvents()


def open_guide(window):
    window.actions_by_name["guide"].trigger()
    QApplication.processEvents()
    return window.help_dialog


def test_f1_opens_the_guide(window):
    assert window.actions_by_name["guide"].shortcut().toString() == "F1"
    dialog = open_guide(window)
    assert dialog.isVisible() and dialog.tabs.currentIndex() == 0
    language = language_switcher().language
    titles = [label.text() for label in dialog.tabs.widget(0).findChildren(QLabel)]
    for section in guide()["sections"]:
        assert section["title"][language] in titles


def test_every_try_it_opens_its_example_or_page(window):
    dialog = open_guide(window)
    sections = guide()["sections"]
    assert len(dialog.try_buttons) == len(sections)
    for button, section in zip(dialog.try_buttons, sections):
        window.show_page(0)
        QTest.mouseClick(button, Qt.MouseButton.LeftButton)
        QApplication.processEvents()
        spec = section["try"]
        if "lecture" in spec:  # the built-in lecture as self-study: it starts, and its own button ends it
            runner = window.lessons.runner
            assert runner.active and runner.index == 0 and runner.bar.next_button.isVisible()
            QTest.mouseClick(runner.bar.end_button, Qt.MouseButton.LeftButton)
            assert not runner.active
        if "page" in spec:
            assert window.central_tabs.currentIndex() == page_index(spec["page"]), spec
        if "preset" in spec:
            loaded = load_preset(spec["preset"])
            if hasattr(loaded, "query"):
                assert window.model.scenario.title == loaded.title, spec
            else:  # a lab's example opens in its lab, which becomes the page shown
                assert window.central_tabs.currentIndex() != 0, spec
        assert dialog.isVisible()  # the guide stays beside the window


def test_glossary_keys_and_about(window):
    dialog = open_guide(window)
    chinese = language_switcher().language == "zh_CN"
    glossary = " ".join(label.text() for label in dialog.tabs.widget(1).findChildren(QLabel))
    for term in ("熵（比特）", "温度", "‖J‖", "d_k", "缩放因子", "损失", "学习率", "Adam") if chinese else (
            "Entropy (bits)", "Temperature", "‖J‖", "d_k", "Scale factor", "Loss", "Learning rate", "Adam"):
        assert term in glossary
    # The training lab's terms point to their glossary entries from where the lab shows them.
    window.show_page(page_index("training"))
    lab = window.page(page_index("training"))
    glossary_tab = dialog.tabs.tabText(1)
    for widget, terms in ((lab.spins["lr"], ("学习率", "Adam") if chinese else ("Learning rate", "Adam")),
                          (lab.titles["loss"], ("损失",) if chinese else ("Loss",))):
        tip = widget.toolTip()
        assert glossary_tab in tip and "F1" in tip and all(term in tip for term in terms), tip
    window.show_page(0)
    keys = [label.text() for label in dialog.tabs.widget(2).findChildren(QLabel)]
    assert any(text.startswith("F1\t") for text in keys) and any(text.startswith("F5\t") for text in keys)
    window.actions_by_name["about"].trigger()
    QApplication.processEvents()
    assert dialog.tabs.currentIndex() == 3
    about = dialog.findChild(QLabel, "aboutTitle")
    assert about.text() == f"Attention Explorer {__version__}"
    assert dialog.findChild(QLabel, "aboutLicence").text() == ("许可证：MIT" if chinese else "Licence: MIT")
    assert dialog.tabs.tabText(0) == ("指南" if chinese else "Guide")
