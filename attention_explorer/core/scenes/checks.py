"""What the scenes of every kind check alike, and the base their projected scenes share.

The scale, the title and description, a matrix's shape, the bound on the scores, and the equality and widths of
a scene whose queries, keys and values are projections (sequence, multi-head, cross). Pure numpy, no Qt.
"""

from __future__ import annotations

import math
from typing import Any, ClassVar

import numpy as np

from attention_explorer.core.limits import (
    AUTO_SCALE,
    MAX_DESCRIPTION,
    MAX_DIM,
    MAX_SCALE,
    MAX_SCORE,
    MAX_TITLE,
    ScenarioError,
)
from attention_explorer.core.maths.attention import inv_sqrt_scale
from attention_explorer.core.messages import number_text


def check_text(text: str, place: str) -> None:
    """Raise ScenarioError when `text` cannot be written back as UTF-8."""
    # JSON's "\ud800" escape yields a lone surrogate: Python accepts it, but it cannot be written
    # back as UTF-8 (saving or printing would fail later), so it is refused here.
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        raise ScenarioError(
            "{0}: character {1} is not valid Unicode (a lone surrogate)",
            place, error.start + 1,
        ) from None


def check_scale(scale: Any) -> None:
    """Raise ScenarioError unless `scale` is None (automatic) or a finite number from 0 to MAX_SCALE."""
    if scale is not None:
        if isinstance(scale, bool) or not isinstance(scale, (int, float)) or not math.isfinite(scale):
            raise ScenarioError('scale: expected "{0}" or a finite number', AUTO_SCALE)
        if not 0 <= scale <= MAX_SCALE:
            raise ScenarioError("scale: {0} is out of range (0 to {1:g})", number_text(scale), MAX_SCALE)


def check_texts(scene: Any) -> None:
    """Raise ScenarioError unless the scene's title and description are strings within their limits."""
    for name, limit in (("title", MAX_TITLE), ("description", MAX_DESCRIPTION)):
        text = getattr(scene, name)
        if not isinstance(text, str) or len(text) > limit:
            raise ScenarioError("{0}: expected a string of at most {1} characters", name, limit)
        check_text(text, name)


def check_shape(array: np.ndarray, name: str, rows: int, rows_name: str, width: int | None, width_name: str) -> None:
    """Raise ScenarioError unless `array` has `rows` rows of `width` (None: any, 1 to MAX_DIM) numbers."""
    if array.ndim != 2:
        raise ScenarioError("{0}: expected {1} rows of numbers ({2})", name, rows, rows_name)
    if array.shape[0] != rows:
        raise ScenarioError("{0}: expected {1} rows ({2}), got {3}", name, rows, rows_name, array.shape[0])
    if width is not None and array.shape[1] != width:
        raise ScenarioError(
            "{0}: expected rows of {1} numbers ({2} = {3}), got {4}",
            name, width, width_name, width, array.shape[1],
        )
    if not 1 <= array.shape[1] <= MAX_DIM:
        raise ScenarioError(
            "{0}: expected rows of 1 to {1} numbers ({2}), got {3}",
            name, MAX_DIM, width_name, array.shape[1],
        )


def projected_score_bound(scene: ProjectedScene, queries_from: np.ndarray, keys_from: np.ndarray) -> float:
    """An upper bound on |scale · q_i·k_j| from the largest numbers and the dimensions (no projection needed):
    the queries are rows of `queries_from`·W_Q, the keys rows of `keys_from`·W_K."""
    d_model = queries_from.shape[1]
    largest_q = float(np.max(np.abs(queries_from)))
    largest_k = largest_q if keys_from is queries_from else float(np.max(np.abs(keys_from)))
    query_bound = d_model * largest_q * float(np.max(np.abs(scene.w_q)))
    key_bound = d_model * largest_k * float(np.max(np.abs(scene.w_k)))
    return scene.d_k * query_bound * key_bound * max(scene.effective_scale, 1.0)


def check_score_bound(bound: float) -> None:
    """Raise ScenarioError when the scores could reach `bound`, past what float64 computes safely."""
    if not bound <= MAX_SCORE:
        raise ScenarioError("the scores could reach {0}, too large to compute safely; use smaller numbers",
                            number_text(float(f"{bound:.3g}")))


class ProjectedScene:
    """The base of a scene whose Q, K and V are projections by its w_q, w_k, w_v: its widths, its scale, equality.

    A subclass (a frozen dataclass with eq=False) names its fields compared as they are (`PLAIN_FIELDS`) and its
    matrices (`MATRIX_FIELDS`), compared number for number.
    """

    PLAIN_FIELDS: ClassVar[tuple[str, ...]] = ()
    MATRIX_FIELDS: ClassVar[tuple[str, ...]] = ()
    w_q: np.ndarray
    w_v: np.ndarray
    scale: float | None

    @property
    def d_k(self) -> int:
        """Width of every query and key (the columns of W_Q and W_K)."""
        return int(self.w_q.shape[1])

    @property
    def d_v(self) -> int:
        """Width of every value (the columns of W_V)."""
        return int(self.w_v.shape[1])

    @property
    def effective_scale(self) -> float:
        """The factor actually applied to Q·Kᵀ."""
        return inv_sqrt_scale(self.d_k) if self.scale is None else float(self.scale)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return (all(getattr(self, name) == getattr(other, name) for name in self.PLAIN_FIELDS)
                and all(np.array_equal(getattr(self, name), getattr(other, name)) for name in self.MATRIX_FIELDS))

    __hash__ = None  # type: ignore[assignment]
