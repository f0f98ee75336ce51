"""The plumbing every lab's model shares: its state, undo's restore, and each edit reported as one LabEdit.

A lab's model (ui/labs/<lab>/state.py: self-attention, multi-head, cross, positions) is the only writer of its state,
an immutable object: an edit makes a new one, shows it (`_show`: recompute, then `changed`) and reports the step
(`edited`, a LabEdit) for the window's one undo history; undo and redo put a state back with `restore`.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, Signal

from attention_explorer.state.explorer import UndoText
from attention_explorer.state.workspace import LabEdit


class LabModel(QObject):
    """A lab's model: `state` now, `restore` for undo and redo, `_record` for every edit. A subclass sets
    `_state` and defines `_show(state)`, which makes a state the lab's and emits `changed`."""

    changed = Signal()  # the lab's state (and so what it computes) changed
    edited = Signal(object)  # a LabEdit: every edit, after `changed`

    _state: Any

    @property
    def state(self) -> Any:
        """The lab's state now: a new object after every edit, the same one put back by an undo."""
        return self._state

    def restore(self, state: Any) -> None:
        """Put back a state of this lab (undo, redo): no edit of its own."""
        if state is not self._state:
            self._show(state)

    def _show(self, state: Any) -> None:
        raise NotImplementedError

    def _record(self, unchanged: bool, state: Any, text: UndoText | str, opened: bool = False,
                merge: str | None = None) -> None:
        """Make `state` the lab's, as one edit named `text` reported by `edited`; when nothing changed, only an
        opened scene is reported (nothing to undo, but it is now the lab's saved state)."""
        if unchanged:
            if opened:
                self.edited.emit(LabEdit(self._state, self._state, text, opened=True))
            return
        before = self._state
        self._show(state)
        self.edited.emit(LabEdit(before, self._state, text, merge=merge, opened=opened))


class CellHoverModel(LabModel):
    """A lab's model whose score and weight maps mark the cell (i, j) under the mouse: presentation state, no edit.

    A subclass defines `_cells()`, the (rows, columns) of its maps now, and calls `_keep_hover_inside()` when its
    state changes shape."""

    hover_changed = Signal()  # the hovered cell (or another hovered place of the lab) changed

    _hovered: tuple[int, int] | None = None

    @property
    def hovered(self) -> tuple[int, int] | None:
        """(row, column) of the cell under the mouse, or None."""
        return self._hovered

    def _cells(self) -> tuple[int, int]:
        raise NotImplementedError

    def _inside(self, i: int, j: int) -> bool:
        rows, columns = self._cells()
        return 0 <= i < rows and 0 <= j < columns

    def set_hover(self, cell: tuple[int, int] | None) -> None:
        """Mark the cell (i, j) under the mouse (None, or a cell outside the maps: nothing)."""
        if cell is not None:
            i, j = int(cell[0]), int(cell[1])
            cell = (i, j) if self._inside(i, j) else None
        if cell != self._hovered:
            self._hovered = cell
            self.hover_changed.emit()

    def _keep_hover_inside(self) -> None:
        """Forget the hovered cell when the maps no longer have it (fewer tokens)."""
        if self._hovered is not None and not self._inside(*self._hovered):
            self._hovered = None
            self.hover_changed.emit()
