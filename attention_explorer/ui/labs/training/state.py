"""The training lab's model: d_k, steps, learning rate and seed — the settings of its two runs.

The only writer of that state: the lab's controls call its setters and the lab starts its runs afresh on `changed`.
Every change is reported as a LabEdit (`edited`): in a window it is a step of the window's one undo history and part
of its document (state/workspace.py), its file a `"kind": "training"` file. An invalid value raises ScenarioError and
changes nothing. The runs themselves (what the steps measured) are not the document's: they follow from the settings.
"""

from __future__ import annotations

import dataclasses

from PySide6.QtCore import QT_TRANSLATE_NOOP, QObject

from attention_explorer.core.limits import ScenarioError
from attention_explorer.core.scenes.training.scene import TrainingScene
from attention_explorer.state.explorer import UndoText
from attention_explorer.state.labmodel import LabModel
from attention_explorer.state.workspace import step_text

LAB = UndoText(QT_TRANSLATE_NOOP("ExplorerModel", "Training"))
_STEP_TEXTS = {
    "d_k": QT_TRANSLATE_NOOP("ExplorerModel", "Set d_k = {0}"),
    "steps": QT_TRANSLATE_NOOP("ExplorerModel", "{0} steps"),
    "lr": QT_TRANSLATE_NOOP("ExplorerModel", "Learning rate {0}"),
    "seed": QT_TRANSLATE_NOOP("ExplorerModel", "Seed {0}"),
}


class TrainingModel(LabModel):
    """The settings both runs share."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._state = TrainingScene()

    @property
    def scene(self) -> TrainingScene:
        """What the lab's file holds."""
        return self._state

    def _show(self, scene: TrainingScene) -> None:
        self._state = scene
        self.changed.emit()

    def load_scene(self, scene: TrainingScene, text: UndoText | str | None = None, opened: bool = True) -> None:
        """Show a whole scene: opened (a file; the lab's saved state), else an edit (a recovered scene)."""
        if not isinstance(scene, TrainingScene):
            raise ScenarioError("expected a training scene")
        if text is None:
            text = step_text(LAB, QT_TRANSLATE_NOOP("ExplorerModel", "Open {0}"), scene.title or f"d_k = {scene.d_k}")
        self._record(scene == self._state, scene, text, opened)

    def _set(self, name: str, value: object) -> None:
        scene = dataclasses.replace(self._state, **{name: value})  # checked: an invalid value raises here
        if scene != self._state:
            shown = f"{scene.lr:g}" if name == "lr" else getattr(scene, name)
            self._record(False, scene, step_text(LAB, _STEP_TEXTS[name], shown))

    def set_d_k(self, d_k: int) -> None:
        """Width of q and k, 16 to 512."""
        self._set("d_k", d_k)

    def set_steps(self, steps: int) -> None:
        """How many steps each run takes, 1 to 2000."""
        self._set("steps", steps)

    def set_lr(self, lr: float) -> None:
        """Adam's learning rate, 0.00001 to 0.1."""
        self._set("lr", lr)

    def set_seed(self, seed: int) -> None:
        """The seed of the data, the probe and the initial weights."""
        self._set("seed", seed)
