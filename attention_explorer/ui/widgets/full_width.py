"""Spin boxes read what a Chinese input method types: "１６" into d_k is 16.

A QSpinBox validates each character it receives and refuses full-width digits outright, so the text is made
half-width before the spin box sees it: a filter on each spin box's line edit rewrites an input method's commit
string (and a key event's text). Not a filter on the whole application: that would run Python for every event.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QInputMethodEvent, QKeyEvent
from PySide6.QtWidgets import QAbstractSpinBox, QApplication, QLineEdit, QWidget

from attention_explorer.ui.style.numbers import half_width


def _in_a_spin_box(target: QObject) -> bool:
    return isinstance(target, QAbstractSpinBox) or (
        isinstance(target, QLineEdit) and isinstance(target.parent(), QAbstractSpinBox))


class FullWidthToSpinBoxes(QObject):
    """Rewrites full-width digits, signs and points on their way into any spin box."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind == QEvent.Type.InputMethod and _in_a_spin_box(watched):
            text = event.commitString()
            if text and half_width(text) != text:
                QApplication.sendEvent(watched, _commit(half_width(text)))
                return True
        elif kind == QEvent.Type.KeyPress and _in_a_spin_box(watched):
            text = event.text()
            if text and half_width(text) != text:
                QApplication.sendEvent(watched, QKeyEvent(QEvent.Type.KeyPress, 0, event.modifiers(),
                                                          half_width(text)))
                return True
        return False


def _commit(text: str) -> QInputMethodEvent:
    event = QInputMethodEvent()
    event.setCommitString(text)
    return event


_FILTER: list[FullWidthToSpinBoxes] = []  # one filter for every spin box, kept alive here


def accept_full_width(root: QWidget) -> None:
    """Every spin box under `root` (and `root` itself) reads full-width input; installing twice does nothing more."""
    if not _FILTER:
        _FILTER.append(FullWidthToSpinBoxes())
    boxes = root.findChildren(QAbstractSpinBox)
    if isinstance(root, QAbstractSpinBox):
        boxes.append(root)
    for box in boxes:
        box.lineEdit().installEventFilter(_FILTER[0])
