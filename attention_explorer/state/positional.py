"""The positional lab's model: d, the frequency pair shown, the positions m (query) and n (key), and what they give.

The only writer of that state: the lab's controls call its setters and every view redraws on `changed`.
An invalid value raises ScenarioError and changes nothing.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QObject, Signal

from attention_explorer.core import positional as pos
from attention_explorer.core.scenario import ScenarioError

CURVE_STARTS = (0, 16, 32)  # the key positions n of the three curves
MAX_OFFSET = 32  # the curves run over m − n from −32 to +32
MAX_SLIDER = 64  # m and n from the sliders


class PositionalModel(QObject):
    """A fixed seeded pair q, k of width d at positions m and n; both encodings' q·k and the curves over m − n."""

    changed = Signal()

    def __init__(self, d: int = 8, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._d, self._pair, self._m, self._n, self._seed = d, 0, 5, 2, 0
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
            self._d, self._pair, self._m, self._n, self._seed = after
            self._recompute()
            self.changed.emit()

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
