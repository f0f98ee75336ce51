"""Status-bar hints for plain widgets: the text of the widget under the mouse goes out through a signal."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, SignalInstance
from PySide6.QtWidgets import QWidget


class HoverHints(QObject):
    """Remembers one hint per widget (also its tooltip) and emits it on Enter, "" on Leave."""

    def __init__(self, hint: SignalInstance, parent: QObject) -> None:
        super().__init__(parent)
        self._hint = hint
        self._texts: dict[QObject, str] = {}

    def describe(self, widget: QWidget, text: str) -> None:
        """Set (or, on a language change, replace) the hint and tooltip of `widget`."""
        if widget not in self._texts:
            widget.installEventFilter(self)
        widget.setToolTip(text)
        self._texts[widget] = text

    def text(self, widget: QWidget) -> str:
        """The hint given to `widget`."""
        return self._texts[widget]

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched in self._texts:
            if event.type() == QEvent.Type.Enter:
                self._hint.emit(self._texts[watched])
            elif event.type() == QEvent.Type.Leave:
                self._hint.emit("")
        return super().eventFilter(watched, event)
