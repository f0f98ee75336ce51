"""The positional lab's model: d, the frequency pair shown, the positions m (query) and n (key), and what they give.

The only writer of that state: the lab's controls call its setters and every view redraws on `changed`.
Every change is reported as a LabEdit (`edited`): in a window it is a step of the window's one undo history (a
slider's moves one step) and part of its document (state/workspace.py), its file a `"kind": "positions"` file.
An invalid value raises ScenarioError and changes nothing.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QT_TRANSLATE_NOOP, QObject, Signal

from attention_explorer.core.maths import positional as pos
from attention_explorer.core.scenes.positions.file import PositionalScene
from attention_explorer.core.scenes.query.scene import ScenarioError
from attention_explorer.state.explorer import UndoText
from attention_explorer.state.workspace import LabEdit, step_text

CURVE_STARTS = (0, 16, 32)  # the key positions n of the three curves
MAX_OFFSET = 32  # the curves run over m − n from −32 to +32
MAX_SLIDER = 64  # m and n from the sliders
LAB = UndoText(QT_TRANSLATE_NOOP("ExplorerModel", "Positions"))
_STEP_TEXTS = {
    "d": QT_TRANSLATE_NOOP("ExplorerModel", "Set d = {0}"),
    "pair": QT_TRANSLATE_NOOP("ExplorerModel", "Pair {0}"),
    "m": QT_TRANSLATE_NOOP("ExplorerModel", "Query at m = {0}"),
    "n": QT_TRANSLATE_NOOP("ExplorerModel", "Key at n = {0}"),
    "seed": QT_TRANSLATE_NOOP("ExplorerModel", "Seed {0}"),
}


class PositionalModel(QObject):
    """A fixed seeded pair q, k of width d at positions m and n; both encodings' q·k and the curves over m − n."""

    changed = Signal()
    edited = Signal(object)  # a LabEdit: every change, after `changed`

    def __init__(self, d: int = 8, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._d, self._pair, self._m, self._n, self._seed = d, 0, 5, 2, 0
        self._state = PositionalScene(d, 0, 5, 2, 0)
        self._recompute()

    def _recompute(self) -> None:
        self.q, self.k = pos.seeded_pair(self._d, self._seed)
        self.curves = {method: pos.offset_curves(method, self.q, self.k, CURVE_STARTS, MAX_OFFSET)
                       for method in pos.METHODS}
        self.score = {method: float(pos.scores(method, self.q, self.k, self._m, self._n)) for method in pos.METHODS}
        self.pair_view = pos.pair_view(self.q, self.k, self._m, self._n, self._pair)

    @property
    def d(self) -> int:
        """Width of q and k (even)."""
        return self._d

    @property
    def pair(self) -> int:
        """The frequency pair shown in the plane, from 0 (fastest) to d/2 − 1."""
        return self._pair

    @property
    def m(self) -> int:
        """The query's position."""
        return self._m

    @property
    def n(self) -> int:
        """The key's position."""
        return self._n

    @property
    def seed(self) -> int:
        """Seed of the fixed pair q, k."""
        return self._seed

    @property
    def state(self) -> PositionalScene:
        """The lab's scene now: a new object after every change, the same one put back by an undo."""
        return self._state

    @property
    def scene(self) -> PositionalScene:
        """What the lab's file holds."""
        return self._state

    def restore(self, scene: PositionalScene) -> None:
        """Put back a scene of this lab (undo, redo): no edit of its own."""
        if scene is not self._state:
            self._show(scene)

    def _show(self, scene: PositionalScene) -> None:
        self._state = scene
        self._d, self._pair, self._m, self._n, self._seed = scene.d, scene.pair, scene.m, scene.n, scene.seed
        self._recompute()
        self.changed.emit()

    def load_scene(self, scene: PositionalScene, text: UndoText | str | None = None, opened: bool = True) -> None:
        """Show a whole scene: opened (a file; the lab's saved state), else an edit (a recovered scene)."""
        if not isinstance(scene, PositionalScene):
            raise ScenarioError("expected a positions scene")
        if text is None:
            text = step_text(LAB, QT_TRANSLATE_NOOP("ExplorerModel", "Open {0}"), scene.title or f"d = {scene.d}")
        if scene == self._state:
            if opened:  # the same settings opened: nothing to undo, but this is now the lab's saved state
                self.edited.emit(LabEdit(self._state, self._state, text, opened=True))
            return
        before = self._state
        self._show(scene)
        self.edited.emit(LabEdit(before, scene, text, opened=opened))

    def _set(self, **values: int) -> None:
        before = (self._d, self._pair, self._m, self._n, self._seed)
        d = values.get("d", self._d)
        pos.check_d(d)
        pair = values.get("pair", min(self._pair, d // 2 - 1))  # a narrower d keeps the last pair it still has
        if isinstance(pair, bool) or not isinstance(pair, (int, np.integer)) or not 0 <= pair < d // 2:
            raise ScenarioError("pair: expected 0 to {0}, got {1!r}", d // 2 - 1, pair)
        for name in ("m", "n"):
            pos.check_position(values.get(name, getattr(self, name)), name)
        seed = values.get("seed", self._seed)
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise ScenarioError("seed: expected a whole number ≥ 0, got {0!r}", seed)
        after = (d, int(pair), int(values.get("m", self._m)), int(values.get("n", self._n)), seed)
        if after != before:
            previous = self._state
            self._show(PositionalScene(*after, title=previous.title, description=previous.description))
            (name, value), = values.items()
            # The moves of one slider (m or n) in a row fold into one step, named by where it ended.
            self.edited.emit(LabEdit(previous, self._state, step_text(LAB, _STEP_TEXTS[name], value),
                                     merge=name if name in ("m", "n") else None))

    def set_d(self, d: int) -> None:
        """A new width: a new seeded pair q, k (the pair index kept where it still exists)."""
        self._set(d=d)

    def set_pair(self, pair: int) -> None:
        """Show frequency pair `pair` in the plane."""
        self._set(pair=pair)

    def set_m(self, m: int) -> None:
        """Move the query to position m."""
        self._set(m=m)

    def set_n(self, n: int) -> None:
        """Move the key to position n."""
        self._set(n=n)

    def set_seed(self, seed: int) -> None:
        """Draw another fixed pair q, k."""
        self._set(seed=seed)
