"""The positional lab's model: d, the frequency pair shown, the positions m (query) and n (key), and what they give.

The only writer of that state: the lab's controls call its setters and every view redraws on `changed`.
Every change is reported as a LabEdit (`edited`): in a window it is a step of the window's one undo history (a
slider's moves one step) and part of its document (state/workspace.py), its file a `"kind": "positions"` file.
An invalid value raises ScenarioError and changes nothing.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QT_TRANSLATE_NOOP, QObject

from attention_explorer.core.limits import ScenarioError
from attention_explorer.core.maths import positional as pos
from attention_explorer.core.scenes.positions.scene import PositionalScene
from attention_explorer.state.explorer import UndoText
from attention_explorer.state.labmodel import LabModel
from attention_explorer.state.workspace import step_text

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


class PositionalModel(LabModel):
    """A fixed seeded pair q, k of width d at positions m and n; both encodings' q·k and the curves over m − n."""

    def __init__(self, d: int = 8, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._state = PositionalScene(d, 0, 5, 2, 0)
        self._recompute()

    def _recompute(self) -> None:
        scene = self._state
        self.q, self.k = scene.vectors()
        base = scene.base
        self.curves = {method: pos.offset_curves(method, self.q, self.k, CURVE_STARTS, MAX_OFFSET, base)
                       for method in pos.METHODS}
        self.score = {method: float(pos.scores(method, self.q, self.k, scene.m, scene.n, base))
                      for method in pos.METHODS}
        self.pair_view = pos.pair_view(self.q, self.k, scene.m, scene.n, scene.pair, base)

    @property
    def d(self) -> int:
        """Width of q and k (even)."""
        return self._state.d

    @property
    def pair(self) -> int:
        """The frequency pair shown in the plane, from 0 (fastest) to d/2 − 1."""
        return self._state.pair

    @property
    def m(self) -> int:
        """The query's position."""
        return self._state.m

    @property
    def n(self) -> int:
        """The key's position."""
        return self._state.n

    @property
    def seed(self) -> int:
        """Seed of the fixed pair q, k."""
        return self._state.seed

    @property
    def given(self) -> bool:
        """True while q and k are given (a real model's head) rather than seeded."""
        return self._state.given

    @property
    def base(self) -> float:
        """RoPE's base θ: pair i turns by base^(−2i/d) per position."""
        return self._state.base

    @property
    def scene(self) -> PositionalScene:
        """What the lab's file holds."""
        return self._state

    def _show(self, scene: PositionalScene) -> None:
        self._state = scene
        self._recompute()
        self.changed.emit()

    def load_scene(self, scene: PositionalScene, text: UndoText | str | None = None, opened: bool = True) -> None:
        """Show a whole scene: opened (a file; the lab's saved state), else an edit (a recovered scene)."""
        if not isinstance(scene, PositionalScene):
            raise ScenarioError("expected a positions scene")
        if text is None:
            text = step_text(LAB, QT_TRANSLATE_NOOP("ExplorerModel", "Open {0}"), scene.title or f"d = {scene.d}")
        self._record(scene == self._state, scene, text, opened)

    def load_given(self, scene: PositionalScene) -> None:
        """Show a scene with given q and k (a real head's, from the transformer page) as one edit of the lab."""
        self.load_scene(scene, step_text(LAB, QT_TRANSLATE_NOOP("ExplorerModel", "Load {0}"),
                                         scene.title or f"d = {scene.d}"), opened=False)

    def _set(self, **values: int) -> None:
        before = (self.d, self.pair, self.m, self.n, self.seed)
        d = values.get("d", self.d)
        pos.check_d(d)
        pair = values.get("pair", min(self.pair, d // 2 - 1))  # a narrower d keeps the last pair it still has
        if isinstance(pair, bool) or not isinstance(pair, (int, np.integer)) or not 0 <= pair < d // 2:
            raise ScenarioError("pair: expected 0 to {0}, got {1!r}", d // 2 - 1, pair)
        for name in ("m", "n"):
            pos.check_position(values.get(name, getattr(self, name)), name)
        seed = values.get("seed", self.seed)
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise ScenarioError("seed: expected a whole number ≥ 0, got {0!r}", seed)
        after = (d, int(pair), int(values.get("m", self.m)), int(values.get("n", self.n)), seed)
        if after != before:
            previous = self._state
            (name, value), = values.items()
            if name in ("d", "seed") and previous.given:  # seeded vectors again: the given ones and their name go
                scene = PositionalScene(*after)
            else:
                scene = PositionalScene(*after, title=previous.title, description=previous.description, q=previous.q,
                                        k=previous.k, base=previous.base)
            # The moves of one slider (m or n) in a row fold into one step, named by where it ended.
            self._record(False, scene, step_text(LAB, _STEP_TEXTS[name], value),
                         merge=name if name in ("m", "n") else None)

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
