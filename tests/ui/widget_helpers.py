"""What several UI test modules do the same way: show a widget, type into a table cell as a user does."""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QLineEdit, QWidget


def show_widget(qtbot, widget: QWidget, size: tuple[int, int] = (800, 600)) -> QWidget:
    """`widget` shown at `size`, exposed, its pending events processed (and closed by qtbot afterwards)."""
    qtbot.addWidget(widget)
    widget.resize(*size)
    widget.show()
    qtbot.waitExposed(widget)
    QApplication.processEvents()
    return widget


def type_text(widget: QWidget, text: str) -> None:
    """Key presses for `text`; QTest's keyClicks aborts on non-ASCII, so those characters go as text events."""
    for character in text:
        if character.isascii():
            QTest.keyClicks(widget, character)
        else:
            for kind in (QEvent.Type.KeyPress, QEvent.Type.KeyRelease):
                QApplication.sendEvent(widget, QKeyEvent(kind, 0, Qt.KeyboardModifier.NoModifier, character))


def press_enter(line: QLineEdit) -> None:
    """Press Enter in a cell editor; the delegate commits through a queued call, so let it run."""
    QTest.keyClick(line, Qt.Key.Key_Return)
    QApplication.processEvents()


def type_into_cell(editor, row: int, column: int, typed: str) -> None:
    """In a VectorEditor: make the cell current, open its editor, replace the text by `typed`, press Enter."""
    index = editor.table_model.index(row, column)
    editor.table.setFocus()
    editor.table.setCurrentIndex(index)
    editor.table.edit(index)
    view = editor.table.names if column == 0 else editor.table  # a name is edited in the column laid over it
    line = view.indexWidget(index)
    assert isinstance(line, QLineEdit)
    QTest.keyClick(line, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    QTest.keyClick(line, Qt.Key.Key_Delete)
    type_text(line, typed)
    press_enter(line)
    assert view.indexWidget(index) is None  # the editor closed
