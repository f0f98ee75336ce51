"""In Chinese, a lab that opens an example names it by its Chinese title, as the Examples menu does."""

from __future__ import annotations

from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QApplication

from attention_explorer.ui.labs.registry import page_index


def shown_text(label) -> str:
    """What a rich-text label shows, as plain text."""
    document = QTextDocument()
    document.setHtml(label.text())
    return document.toPlainText()


def test_the_labs_status_line_names_the_example_in_chinese(make_window):
    window = make_window(language="zh_CN", discard_changes=True)
    for preset, page, lab, title in (
            ("multi-head", page_index("multi-head"), lambda: window.page(page_index("multi-head")),
             "多头注意力：我 爱 北京，两个头"),
            ("self-attention", page_index("self-attention"), lambda: window.self_attention_lab, None)):
        window.preset_actions[preset].trigger()
        QApplication.processEvents()
        assert window.central_tabs.currentIndex() == page
        menu_title = window.preset_actions[preset].text()  # the Examples menu's (translated) name of it
        status = shown_text(lab().message_label)
        assert status == f"已打开“{menu_title}”。", status
        assert title is None or menu_title == title
        assert "Multi-head" not in status and "Self-attention" not in status
