"""The cross-attention lab's own model: the target and source sentences, their result and the hovered cell.

Like SequenceModel it is the only writer: the lab's views call its edit methods and redraw on `changed`.
Edits are not undoable (the lab is a playground beside the explorer). An invalid edit raises ScenarioError
and changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QObject, Signal

from attention_explorer.core import cross as cx
from attention_explorer.core.cross import CrossResult, CrossScenario
from attention_explorer.core.presets import load_preset
from attention_explorer.core.scenario import ScenarioError

DEFAULT_PRESET = "translation"


def default_cross() -> CrossScenario:
    """The "I love Beijing → 我 爱 北京" preset."""
    preset = load_preset(DEFAULT_PRESET)
    if not isinstance(preset, CrossScenario):
        raise ScenarioError("the {0} preset is not a cross-attention file", DEFAULT_PRESET)
    return preset


class CrossModel(QObject):
    """Holds the CrossScenario and its CrossResult; emits `changed` after every edit."""

    changed = Signal()
    hover_changed = Signal()

    def __init__(self, cross: CrossScenario | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._cross = cross if cross is not None else default_cross()
        self._result = self._cross.compute()
        self._hovered: tuple[int, int] | None = None

    @property
    def cross(self) -> CrossScenario:
        """The current (immutable) cross-attention scenario."""
        return self._cross

    @property
    def result(self) -> CrossResult:
        """Q, K, V, the scores, the weights and the output of the current scenario."""
        return self._result

    @property
    def hovered(self) -> tuple[int, int] | None:
        """(target row, source column) of the cell under the mouse, or None."""
        return self._hovered

    def set_hover(self, cell: tuple[int, int] | None) -> None:
        """Mark the cell (i, j) under the mouse (None: nothing)."""
        if cell is not None:
            i, j = int(cell[0]), int(cell[1])
            cell = (i, j) if 0 <= i < self._cross.n_q and 0 <= j < self._cross.n_k else None
        if cell != self._hovered:
            self._hovered = cell
            self.hover_changed.emit()

    def _apply(self, cross: CrossScenario) -> None:
        if cross == self._cross:
            return
        self._cross = cross
        self._result = cross.compute()
        if self._hovered is not None and (self._hovered[0] >= cross.n_q or self._hovered[1] >= cross.n_k):
            self._hovered = None
            self.hover_changed.emit()
        self.changed.emit()

    def load_cross(self, cross: CrossScenario) -> None:
        """Replace the whole scenario (a file or the preset)."""
        if not isinstance(cross, CrossScenario):
            raise ScenarioError("expected a cross-attention scenario")
        self._apply(cross)

    def set_tokens_text(self, side: str, text: str) -> None:
        """The target or the source sentence from typed words (split at spaces); new words get seeded rows."""
        tokens = text.split()
        if not tokens:
            raise ScenarioError("{0}: type at least one word", side)
        self.set_tokens(side, tokens)

    def set_tokens(self, side: str, tokens: Sequence[str]) -> None:
        """New target ("target_tokens") or source ("source_tokens") words."""
        self._apply(cx.cross_with_tokens(self._cross, side, tuple(tokens)))

    def set_cell(self, matrix: str, row: int, column: int, value: float) -> None:
        """Edit one number of Y, X, W_Q, W_K or W_V."""
        self._apply(cx.with_cross_cell(self._cross, matrix, row, column, value))

    def set_scale(self, scale: float | None) -> None:
        """None: the automatic 1/√d_k; a number ≥ 0: a manual factor on Q·Kᵀ."""
        self._apply(cx.replace_cross(self._cross, scale=scale))
