"""The History panel: every undo step by name, in the current language, a gesture named by where it ended."""

from __future__ import annotations

from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QUndoView, QWidget

from attention_explorer.state.explorer import ExplorerModel


class HistoryView(QUndoView):
    """The model's undo stack as a list; clicking a line goes back (or forward) to that state."""

    def __init__(self, model: ExplorerModel, parent: QWidget | None = None) -> None:
        super().__init__(model.undo_stack, parent)
        self._model = model
        # A drag renames its step on every move without a stack signal (that would rebuild this list each
        # time): a repaint is enough, as the list reads the names when it paints.
        model.changed.connect(self.viewport().update)
        model.history_dropped.connect(self._show_first_line)
        self._opened_label = self.emptyLabel()
        self.retranslate()

    def setEmptyLabel(self, label: str) -> None:
        """The first line's name while no step has been dropped (the window calls it "<opened>")."""
        self._opened_label = label
        self._show_first_line()

    def _show_first_line(self) -> None:
        # Once the oldest steps are gone, the first line is no longer the opened state: say why.
        label = (self.tr("<older steps dropped to save memory>") if self._model.dropped_steps
                 else self._opened_label)
        super().setEmptyLabel(label)

    def retranslate(self) -> None:
        """The names of the steps in the current language (the window names the starting state)."""
        self._model.retranslate_history()
        self._show_first_line()
        self.viewport().update()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)
