"""The fields every kind of scenario file shares: the format id, rows of numbers with their place named, the scale.

Used by core/fileformat.py and by each kind's own reader (core/cross_file.py), so those need not import each
other's modules. Pure Python, no Qt.
"""

from __future__ import annotations

import math
from typing import Any

from attention_explorer.core.messages import big_integer_text, number_text, value_kind
from attention_explorer.core.scenario import AUTO_SCALE, MAX_ABS, MAX_DIM, MAX_SCALE, ScenarioError

FORMAT_ID = "attention-explorer/1"


def _number_rows(raw: Any, place: str, width: int | None, width_name: str) -> list[list[float]]:
    if not isinstance(raw, list):
        raise ScenarioError("{0}: expected a list of rows", place)
    rows = []
    for i, row in enumerate(raw):
        rows.append(_number_list(row, f"{place}[{i}]", width, width_name))
        if width is None:
            width = len(rows[0])  # the first row sets the width (d_v) every later row must match
    return rows


def _number_list(raw: Any, place: str, width: int | None, width_name: str) -> list[float]:
    if not isinstance(raw, list):
        raise ScenarioError("{0}: expected a list of numbers, got {1}", place, value_kind(raw))
    if width is not None and len(raw) != width:
        raise ScenarioError("{0}: expected {1} numbers ({2} = {3}), got {4}", place, width, width_name, width, len(raw))
    if not 1 <= len(raw) <= MAX_DIM:  # checked before the walk: a hostile file may hold millions
        raise ScenarioError("{0}: expected 1 to {1} numbers, got {2}", place, MAX_DIM, len(raw))
    out = []
    for j, item in enumerate(raw):
        if isinstance(item, bool) or not isinstance(item, (int, float)):
            raise ScenarioError("{0}[{1}]: expected a number, got {2}", place, j, value_kind(item))
        if isinstance(item, int) and abs(item) > MAX_ABS:  # float() of a 400-digit integer would overflow
            raise ScenarioError(
                "{0}[{1}]: {2} is out of range (|x| must be at most {3:g})",
                place, j, big_integer_text(item), MAX_ABS,
            )
        value = float(item)
        if math.isnan(value):
            raise ScenarioError("{0}[{1}]: NaN is not allowed (every number must be finite)", place, j)
        if math.isinf(value):
            raise ScenarioError("{0}[{1}]: infinity is not allowed (every number must be finite)", place, j)
        if abs(value) > MAX_ABS:
            raise ScenarioError(
                "{0}[{1}]: {2} is out of range (|x| must be at most {3:g})",
                place, j, number_text(value), MAX_ABS,
            )
        out.append(value)
    return out


def scale_from_document(document: dict[str, Any]) -> float | None:
    """The `scale` field of a document (either kind): None for "inv_sqrt_dk" or absent, else the factor."""
    scale_raw = document.get("scale", AUTO_SCALE)
    if scale_raw == AUTO_SCALE:
        return None
    if isinstance(scale_raw, bool) or not isinstance(scale_raw, (int, float)):
        raise ScenarioError('scale: expected "{0}" or a number ≥ 0, got {1}', AUTO_SCALE, value_kind(scale_raw))
    if isinstance(scale_raw, int) and abs(scale_raw) > MAX_SCALE:
        raise ScenarioError("scale: {0} is out of range (0 to {1:g})", big_integer_text(scale_raw), MAX_SCALE)
    return float(scale_raw)


def _rows(document: dict[str, Any], name: str, count: int, count_name: str, width: int | None,
          width_name: str) -> list[list[float]]:
    raw = document[name]
    if not isinstance(raw, list) or len(raw) != count:
        got = len(raw) if isinstance(raw, list) else value_kind(raw)
        raise ScenarioError("{0}: expected {1} rows ({2}), got {3}", name, count, count_name, got)
    return _number_rows(raw, name, width, width_name)
