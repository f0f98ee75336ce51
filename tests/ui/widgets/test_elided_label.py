"""The one-line label that elides: "…" and the whole text in the tooltip when narrow, never markup."""

from PySide6.QtWidgets import QApplication

from attention_explorer.ui.style.safe_text import literal
from attention_explorer.ui.widgets.elided_label import ElidedLabel


def test_narrow_it_draws_the_start_and_an_ellipsis_and_the_tooltip_holds_the_whole_text(qtbot):
    label = ElidedLabel()
    qtbot.addWidget(label)
    text = "<b>The article's path</b> · Scene 3 of 18"
    label.setText(text)
    label.resize(label.sizeHint().width() + 10, label.sizeHint().height())
    label.show()
    QApplication.processEvents()
    assert label.shown_text() == text and label.toolTip() == ""
    assert label.minimumSizeHint().width() < label.sizeHint().width() // 4  # it never asks a window to widen
    label.resize(120, label.height())
    QApplication.processEvents()
    shown = label.shown_text()
    assert shown.endswith("…") and text.startswith(shown[:-1]) and label.text() == text
    assert label.fontMetrics().horizontalAdvance(shown) <= label.contentsRect().width()
    assert label.toolTip() == literal(text)  # shown as itself: a tooltip would read "<b>" as markup
