"""The cross-attention lab's own model: the target and source sentences, their result and the hovered cell.

Like SequenceModel it is the only writer: the lab's views call its edit methods and redraw on `changed`.
Every edit is reported as a LabEdit (`edited`): in a window it is a step of the window's one undo history and part
of its document (state/workspace.py). An invalid edit raises ScenarioError and changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QT_TRANSLATE_NOOP, QObject

from attention_explorer.core.files.presets import load_preset
from attention_explorer.core.limits import ScenarioError
from attention_explorer.core.scenes.cross import scene as cx
from attention_explorer.core.scenes.cross.scene import CrossResult, CrossScenario
from attention_explorer.core.scenes.sequence.tokens import split_tokens
from attention_explorer.state.explorer import UndoText
from attention_explorer.state.labmodel import CellHoverModel
from attention_explorer.state.workspace import scale_text, shortened, step_text

DEFAULT_PRESET = "translation"
LAB = UndoText(QT_TRANSLATE_NOOP("ExplorerModel", "Cross-attention"))
MATRIX_NAMES = {"target_embeddings": "Y", "source_embeddings": "X", "w_q": "W_Q", "w_k": "W_K", "w_v": "W_V"}


def default_cross() -> CrossScenario:
    """The "I love Beijing → 我 爱 北京" preset."""
    preset = load_preset(DEFAULT_PRESET)
    if not isinstance(preset, CrossScenario):
        raise ScenarioError("the {0} preset is not a cross-attention file", DEFAULT_PRESET)
    return preset


class CrossModel(CellHoverModel):
    """Holds the CrossScenario and its CrossResult; emits `changed` after every edit."""


    def __init__(self, cross: CrossScenario | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._cross = self._state = cross if cross is not None else default_cross()  # the scenario is the state
        self._result = self._cross.compute()

    @property
    def cross(self) -> CrossScenario:
        """The current (immutable) cross-attention scenario."""
        return self._cross

    @property
    def scene(self) -> CrossScenario:
        """What the lab's file holds."""
        return self._cross

    @property
    def result(self) -> CrossResult:
        """Q, K, V, the scores, the weights and the output of the current scenario."""
        return self._result

    def _cells(self) -> tuple[int, int]:
        """The maps: (target row, source column), N_q × N_k."""
        return self._cross.n_q, self._cross.n_k

    def _apply(self, cross: CrossScenario, text: UndoText, opened: bool = False) -> None:
        """Make `cross` the lab's scenario: one edit named `text`, reported by `edited`."""
        self._record(cross == self._cross, cross, text, opened)

    def _show(self, cross: CrossScenario) -> None:
        self._cross = self._state = cross
        self._result = cross.compute()
        self._keep_hover_inside()
        self.changed.emit()

    def load_cross(self, cross: CrossScenario) -> None:
        """Open a whole scenario (a file or the preset): the lab's saved state."""
        self.load_scene(cross)

    def use_example(self, cross: CrossScenario) -> None:
        """The lab's example button: the example's scenario, as an edit (Ctrl+Z brings the sentences back)."""
        self.load_scene(cross, opened=False)

    def load_scene(self, cross: CrossScenario, text: UndoText | str | None = None, opened: bool = True) -> None:
        """Replace the whole scenario: opened (a file, a preset; the lab's saved state), else an edit (the example
        button, a recovered scenario); named `text` (default: Open or Example and its title)."""
        if not isinstance(cross, CrossScenario):
            raise ScenarioError("expected a cross-attention scenario")
        if text is None:
            source = (QT_TRANSLATE_NOOP("ExplorerModel", "Open {0}") if opened
                      else QT_TRANSLATE_NOOP("ExplorerModel", "Example {0}"))
            text = step_text(LAB, source, cross.title or " ".join(cross.target_tokens), translated_args="presets")
        self._apply(cross, text, opened=opened)

    def set_tokens_text(self, side: str, text: str) -> None:
        """The target or the source sentence from typed words (split at spaces); new words get seeded rows."""
        tokens = split_tokens(text)
        if not tokens:
            if side == "target_tokens":
                raise ScenarioError("the target sentence is empty: type at least one word")
            raise ScenarioError("the source sentence is empty: type at least one word")
        self.set_tokens(side, tokens)

    def set_tokens(self, side: str, tokens: Sequence[str]) -> None:
        """New target ("target_tokens") or source ("source_tokens") words."""
        sentence = shortened(" ".join(tokens))
        text = (step_text(LAB, QT_TRANSLATE_NOOP("ExplorerModel", "Source “{0}”"), sentence)
                if side == "source_tokens" else step_text(LAB, QT_TRANSLATE_NOOP("ExplorerModel", "Target “{0}”"),
                                                          sentence))
        self._apply(cx.cross_with_tokens(self._cross, side, tuple(tokens)), text)

    def set_cell(self, matrix: str, row: int, column: int, value: float) -> None:
        """Edit one number of Y, X, W_Q, W_K or W_V."""
        edited = cx.with_cross_cell(self._cross, matrix, row, column, value)
        self._apply(edited, step_text(LAB, QT_TRANSLATE_NOOP("ExplorerModel", "Edit {0}[{1}, {2}]"),
                                      MATRIX_NAMES.get(matrix, matrix), row + 1, column + 1))

    def set_scale(self, scale: float | None) -> None:
        """None: the automatic 1/√d_k; a number ≥ 0: a manual factor on Q·Kᵀ."""
        self._apply(cx.replace_cross(self._cross, scale=scale), scale_text(LAB, scale))
