"""In presentation at 1280×720, zoom 1, 1.5 and 2, English and Chinese: no visible label, button or tab is cut."""

from __future__ import annotations

import pytest
from PySide6 import QtGui
from PySide6.QtCore import QEvent, Qt
from PySide6.QtWidgets import QAbstractButton, QApplication, QCheckBox, QLabel, QRadioButton, QStyle, QTabBar

from attention_explorer.ui.style.theme import theme


def _on_screen(widget) -> bool:
    return widget.isVisible() and not widget.visibleRegion().isEmpty()


def _elided_on_purpose(widget, text: str) -> bool:
    return "…" in text and widget.toolTip().replace("&", "") not in ("", text)


def _label_problem(label: QLabel) -> str | None:
    text = label.text()
    if not text.strip() or (label.pixmap() is not None and not label.pixmap().isNull()):
        return None
    room = label.contentsRect()
    if label.wordWrap():
        # Wrapped: every line must fit in the height it is given.
        needed = label.heightForWidth(label.width())
        return None if needed <= label.height() else f"needs {needed} px of height, has {label.height()}"
    if label.textFormat() == Qt.TextFormat.PlainText or not QtGui.Qt.mightBeRichText(text):
        widest = max(label.fontMetrics().horizontalAdvance(line) for line in text.splitlines())
    else:
        widest = label.sizeHint().width() - 2 * label.margin() - (label.width() - room.width())
    if widest <= room.width() or _elided_on_purpose(label, text):
        return None
    return f"needs {widest} px of width, has {room.width()}"


def _button_problem(button: QAbstractButton) -> str | None:
    text = button.text().replace("&&", "\0").replace("&", "").replace("\0", "&")
    if not text:
        return None
    room = button.contentsRect().width()
    if isinstance(button, (QCheckBox, QRadioButton)):
        style = button.style()
        kind = "Indicator" if isinstance(button, QCheckBox) else "ExclusiveIndicator"
        room -= style.pixelMetric(getattr(QStyle.PixelMetric, f"PM_{kind}Width"), None, button)
        room -= style.pixelMetric(QStyle.PixelMetric.PM_CheckBoxLabelSpacing, None, button)
    elif not button.icon().isNull():
        room -= button.iconSize().width()
    widest = button.fontMetrics().horizontalAdvance(text)
    if widest <= room or _elided_on_purpose(button, text):
        return None
    return f"needs {widest} px of width, has {room}"


def _tab_problems(bar: QTabBar) -> list[str]:
    problems = []
    for index in range(bar.count()):
        text = bar.tabText(index).replace("&", "")
        rect = bar.tabRect(index)
        shown = bar.visibleRegion().intersected(rect).boundingRect()
        if shown.width() < rect.width() // 2:
            continue  # scrolled out of view (the bar's arrows reach it), or a hidden group's bar under the canvas
        widest = bar.fontMetrics().horizontalAdvance(text)
        if widest > rect.width() and not _elided_on_purpose(bar, text):
            problems.append(f"tab {text!r} needs {widest} px, has {rect.width()}")
    return problems


def cut_texts(window) -> list[str]:
    """Every visible label, button and tab of the window whose text does not fit, and why."""
    problems = []
    for label in window.findChildren(QLabel):
        if _on_screen(label) and (problem := _label_problem(label)):
            problems.append(f"{label.objectName() or type(label.parent()).__name__} {label.text()[:40]!r}: {problem}")
    for button in window.findChildren(QAbstractButton):
        if _on_screen(button) and (problem := _button_problem(button)):
            problems.append(f"{button.objectName() or type(button).__name__} {button.text()!r}: {problem}")
    for bar in window.findChildren(QTabBar):
        if _on_screen(bar):
            problems += _tab_problems(bar)
    return problems


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_no_text_is_cut_in_presentation_at_any_zoom(make_window, language):
    window = make_window(language=language)
    window.enter_presentation()
    window.resize(1280, 720)  # the offscreen screen is 800 px wide: presenting fitted the window to it
    found = {}
    for zoom in (1.0, 1.5, 2.0):
        theme().set_zoom(zoom)
        for _ in range(2):
            QApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
            QApplication.processEvents()
        assert window.size().toTuple() == (1280, 720)
        if problems := cut_texts(window):
            found[zoom] = problems
    assert not found, found
