"""The positions lab's scene: d, the frequency pair shown, m, n and the seed, and what it computes from them.

The lab draws everything from these five numbers (its q and k are seeded from d and the seed), so they are the
whole scene; its file is file.py's job, what `compute` prints report.py's. Pure Python and numpy, no Qt.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from attention_explorer.core.limits import ScenarioError
from attention_explorer.core.maths.positional import METHODS, check_d, check_position, scores, seeded_pair


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


@dataclass(frozen=True)
class PositionalScene:
    """What the positions lab shows: q, k of width d (seeded), frequency pair `pair` in the plane, q at m, k at n."""

    d: int = 8
    pair: int = 0
    m: int = 5
    n: int = 2
    seed: int = 0
    title: str = ""
    description: str = ""

    def __post_init__(self) -> None:
        check_d(self.d)
        check_pair(self.pair, self.d)
        check_position(self.m, "m")
        check_position(self.n, "n")
        check_seed(self.seed)
        for name in ("d", "pair", "m", "n", "seed"):
            object.__setattr__(self, name, int(getattr(self, name)))

    def compute(self) -> PositionalResult:
        """The seeded q and k and both encodings' q·k at m and n."""
        q, k = seeded_pair(self.d, self.seed)
        return PositionalResult(q=q, k=k, scores={method: float(scores(method, q, k, self.m, self.n))
                                                  for method in METHODS})


@dataclass(frozen=True)
class PositionalResult:
    """The scene's fixed pair q, k and q·k with sinusoidal encodings added and with RoPE."""

    q: np.ndarray
    k: np.ndarray
    scores: dict[str, float]
