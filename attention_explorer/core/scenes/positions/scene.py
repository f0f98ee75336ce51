"""The positions lab's scene: d, the frequency pair shown, m, n and the seed, and what it computes from them.

The lab draws everything from these five numbers (its q and k are seeded from d and the seed), so they are the
whole scene; its file is file.py's job, what `compute` prints report.py's. Pure Python and numpy, no Qt.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from attention_explorer.core.limits import MAX_ABS, ScenarioError
from attention_explorer.core.maths.positional import (
    METHODS,
    ROPE_BASE,
    check_base,
    check_d,
    check_position,
    scores,
    seeded_pair,
)


def _whole(value: Any) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def check_pair(pair: Any, d: int) -> None:
    """Raise ScenarioError unless `pair` is one of the d/2 frequency pairs (0 fastest)."""
    if not _whole(pair) or not 0 <= pair < d // 2:
        raise ScenarioError("pair: expected 0 to {0}, got {1!r}", d // 2 - 1, pair)


def check_seed(seed: Any) -> None:
    """Raise ScenarioError unless `seed` is a whole number ≥ 0."""
    if not _whole(seed) or seed < 0:
        raise ScenarioError("seed: expected a whole number ≥ 0, got {0!r}", seed)


def check_vector(vector: Any, name: str, d: int) -> None:
    """Raise ScenarioError unless `vector` holds d finite numbers with |x| ≤ MAX_ABS."""
    if len(vector) != d:
        raise ScenarioError("{0}: expected {1} numbers (d = {1}), got {2}", name, d, len(vector))
    for j, value in enumerate(vector):
        if not math.isfinite(value) or abs(value) > MAX_ABS:
            raise ScenarioError("{0}[{1}]: expected a finite number with |x| at most {2:g}, got {3!r}", name, j,
                                MAX_ABS, value)


@dataclass(frozen=True)
class PositionalScene:
    """What the positions lab shows: q, k of width d (seeded, or given: a real head's, before RoPE), frequency pair
    `pair` in the plane, q at m, k at n; RoPE turns pair i by θ_i = base^(−2i/d)."""

    d: int = 8
    pair: int = 0
    m: int = 5
    n: int = 2
    seed: int = 0
    title: str = ""
    description: str = ""
    q: tuple[float, ...] = ()  # () for the seeded pair; else q and k both given, d numbers each
    k: tuple[float, ...] = ()
    base: float = ROPE_BASE

    def __post_init__(self) -> None:
        check_d(self.d)
        check_pair(self.pair, self.d)
        check_position(self.m, "m")
        check_position(self.n, "n")
        check_seed(self.seed)
        check_base(self.base)
        for name in ("d", "pair", "m", "n", "seed"):
            object.__setattr__(self, name, int(getattr(self, name)))
        object.__setattr__(self, "base", float(self.base))
        for name in ("q", "k"):
            object.__setattr__(self, name, tuple(float(value) for value in getattr(self, name)))
        if bool(self.q) != bool(self.k):
            raise ScenarioError("q and k: give both or neither")
        if self.q:
            check_vector(self.q, "q", self.d)
            check_vector(self.k, "k", self.d)

    @property
    def given(self) -> bool:
        """True when q and k are given (a real head's) rather than seeded."""
        return bool(self.q)

    def vectors(self) -> tuple[np.ndarray, np.ndarray]:
        """q and k: the given ones, or the seeded pair of width d."""
        if self.given:
            return np.array(self.q), np.array(self.k)
        return seeded_pair(self.d, self.seed)

    def compute(self) -> PositionalResult:
        """q and k and both encodings' q·k at m and n."""
        q, k = self.vectors()
        return PositionalResult(q=q, k=k, scores={method: float(scores(method, q, k, self.m, self.n, self.base))
                                                  for method in METHODS})


@dataclass(frozen=True)
class PositionalResult:
    """The scene's fixed pair q, k and q·k with sinusoidal encodings added and with RoPE."""

    q: np.ndarray
    k: np.ndarray
    scores: dict[str, float]
