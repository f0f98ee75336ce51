"""A dock whose panel is built the first time the dock is shown or the panel is asked for."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QDockWidget, QWidget


class LazyDock(QDockWidget):
    """A closed-at-start dock (the rotation trace, the scoring functions) costs nothing until it is opened."""

    built = Signal(QWidget)  # the panel, once it exists

    def __init__(self, name: str, factory: Callable[[], QWidget], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName(f"dock_{name}")
        self._factory = factory
        self._panel: QWidget | None = None

    def panel(self) -> QWidget:
        """The dock's panel, built now if this is the first time it is needed."""
        if self._panel is None:
            self._panel = self._factory()
            self.setWidget(self._panel)
            self.built.emit(self._panel)
        return self._panel

    def is_built(self) -> bool:
        """Whether the panel exists yet."""
        return self._panel is not None

    def setVisible(self, visible: bool) -> None:
        # Every way of showing a dock passes here: show(), its menu entry, restoreState of the last session.
        if visible:
            self.panel()
        super().setVisible(visible)
