"""Which keys the canvas draws, and the pool of arrows drawing them: each arrow moved to another key in place."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pyqtgraph as pg
from PySide6.QtGui import QFont

from attention_explorer.ui.canvas.arrow_item import ArrowItem
from attention_explorer.ui.style.theme import key_color

# At most this many key arrows: a name is about 30 × 18 px, and in the canvas of the desk layout at 1280×720
# (about 500 × 400 px) more than some thirty names cover each other and the arrows; it also keeps every name
# among those moved clear of the others (label_layout.MAX_AVOIDED_LABELS, Q and the angle included).
MAX_DRAWN_KEYS = 32


def keys_to_draw(n: int, selected: int, weights: np.ndarray, limit: int = MAX_DRAWN_KEYS) -> np.ndarray:
    """The indices of the keys drawn, ascending: all n up to `limit`; beyond it `selected` and the limit − 1
    others of the largest `weights` (equal weights: the lower index first)."""
    if n <= limit:
        return np.arange(n)
    heaviest = np.argsort(-np.asarray(weights[:n], dtype=np.float64), kind="stable")
    others = heaviest[heaviest != selected][:limit - 1]
    return np.sort(np.append(others, min(max(selected, 0), n - 1)))


class KeyPool:
    """The key arrows on the plot; `arrows[i]` is key i's while every key is drawn (n ≤ MAX_DRAWN_KEYS).

    Beyond that, an arrow keeps its key for as long as the key stays drawn (a drag never sees its arrow move to
    another key); an arrow freed by a key no longer drawn takes a newly drawn one, with its colour and name.
    """

    def __init__(self, plot: pg.PlotWidget, make_arrow: Callable[[int], ArrowItem]) -> None:
        self.plot = plot
        self._make_arrow = make_arrow
        self.arrows: list[ArrowItem] = []
        self.n = 0  # keys in the scenario last drawn
        self._names: list[str | None] = []  # the name each arrow shows
        self._by_key: dict[int, ArrowItem] = {}
        self.indices = np.zeros(0, dtype=np.intp)  # the keys drawn, ascending
        self.in_key_order: list[ArrowItem] = []  # their arrows, in that order

    @property
    def hidden(self) -> int:
        """How many keys are not drawn."""
        return self.n - len(self.arrows)

    def arrow_of(self, index: int) -> ArrowItem | None:
        """The arrow drawing key `index`, or None where that key is not drawn."""
        return self._by_key.get(index)

    def position(self, index: int) -> int | None:
        """Where key `index` is among the drawn keys (`indices`), or None where it is not drawn."""
        position = int(np.searchsorted(self.indices, index))
        return position if position < self.indices.size and self.indices[position] == index else None

    def sync(self, labels: tuple[str, ...], selected: int, weights: np.ndarray) -> bool:
        """Point the arrows at the keys to draw (see `keys_to_draw`) with their names; whether an arrow now shows
        another key (its style must then be set again)."""
        n = len(labels)
        wanted = keys_to_draw(n, selected, weights)
        while len(self.arrows) > wanted.size:
            self.arrows.pop().remove_from(self.plot)
            self._names.pop()
        while len(self.arrows) < wanted.size:
            self.arrows.append(self._make_arrow(len(self.arrows)))
            self._names.append(None)
        moved = False
        for arrow, index in zip(self.arrows, self._assign(wanted, n <= MAX_DRAWN_KEYS)):
            if arrow.index != index:
                arrow.show_key(index, key_color(index))
                moved = True
        for slot, arrow in enumerate(self.arrows):
            if self._names[slot] != labels[arrow.index]:
                arrow.set_name(labels[arrow.index])
                self._names[slot] = labels[arrow.index]
        self.n = n
        self._by_key = {arrow.index: arrow for arrow in self.arrows}
        self.indices = wanted
        self.in_key_order = [self._by_key[index] for index in wanted.tolist()]
        return moved

    def _assign(self, wanted: np.ndarray, every_key: bool) -> list[int]:
        """The key each arrow draws: arrow i key i while all are drawn; else an arrow keeps a key still drawn."""
        if every_key:
            return wanted.tolist()
        wanted_keys = set(wanted.tolist())
        assigned: list[int | None] = []
        for arrow in self.arrows:
            keep = arrow.index in wanted_keys
            assigned.append(arrow.index if keep else None)
            wanted_keys.discard(arrow.index)
        free = iter(sorted(wanted_keys))
        return [index if index is not None else next(free) for index in assigned]

    def forget_names(self) -> None:
        """Set every name again at the next `sync` (a new language may change nothing, a relabel does)."""
        self._names = [None] * len(self.arrows)

    def restyle(self, selected: int, base_font: QFont, force: bool = False) -> None:
        """The selected key's arrow emphasised and on top; the others by their key, K1 lowest."""
        for arrow in self.arrows:
            emphasised = arrow.index == selected
            arrow.set_selected(emphasised, 40 if emphasised else 10 + arrow.index * 0.01, base_font, force)

    def needs_style(self) -> bool:
        """Whether some arrow has not been styled since it was made or moved to another key."""
        return any(arrow.emphasised is None for arrow in self.arrows)
