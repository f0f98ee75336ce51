"""The field readers every kind of scenario file shares: numbers, rows of numbers, the format and the scale.

Each check names the place of the first problem ("w_q[2][0]: expected a number, got a string"). The single-query
and sequence kinds (core/scenes/query/file.py) and the multi-head kind (core/scenes/multihead/file.py) read their
fields with
them. Pure Python, no Qt.
"""

from __future__ import annotations

import itertools
import json
import math
from typing import Any

import numpy as np

from attention_explorer.core.files.bulknumbers import NumberRows
from attention_explorer.core.limits import AUTO_SCALE, MAX_ABS, MAX_DIM, MAX_SCALE, ScenarioError
from attention_explorer.core.messages import big_integer_text, number_text, value_kind
from attention_explorer.core.scenes.query.scene import adopt_frozen

FORMAT_ID = "attention-explorer/1"


def check_format(document: dict[str, Any]) -> None:
    """Refuse a `format` other than this program's (a later format is never misread)."""
    if "format" in document and document["format"] != FORMAT_ID:
        raise ScenarioError('format: expected "{0}", got {1}', FORMAT_ID, json.dumps(document["format"])[:40])


def number_rows(raw: Any, place: str, width: int | None, width_name: str) -> np.ndarray | list[list[float]]:
    """Rows of numbers, all as wide as `width` (None: as wide as the first row); a float array when all are good."""
    if not isinstance(raw, list):
        raise ScenarioError("{0}: expected a list of rows", place)
    if isinstance(raw, NumberRows):  # read in bulk: equal rows of finite numbers in range, only the width to check
        if raw.array.shape[1] == (width or raw.array.shape[1]) <= MAX_DIM:
            return adopt_frozen(raw.array)  # the reader made it and keeps no other use of it: no copy
        raw = raw.array.tolist()  # the walk below names the row (its floats give the messages ints would)
    checked = _clean_rows(raw, width)
    if checked is not None:
        return checked
    rows = []
    for i, row in enumerate(raw):
        rows.append(number_list(row, f"{place}[{i}]", width, width_name))
        if width is None:
            width = len(rows[0])  # the first row sets the width (d_v) every later row must match
    return rows


def _clean_rows(raw: list[Any], width: int | None) -> np.ndarray | None:
    """The rows as one float array when nothing in them is wrong, else None (the checks one by one then say what).

    Checked in bulk, in C: every row a list of the same legal length, every item a float or an int (never a bool),
    every number finite and within ±MAX_ABS. A 512 × 4096 matrix takes about 0.1 s instead of 0.5 s item by item.
    """
    if not raw or set(map(type, raw)) != {list}:
        return None
    lengths = set(map(len, raw))
    if len(lengths) != 1 or (width is not None and lengths != {width}) or not 1 <= min(lengths) <= MAX_DIM:
        return None
    if not set(map(type, itertools.chain.from_iterable(raw))) <= _PLAIN_NUMBERS:
        return None
    try:
        array = np.array(raw, dtype=np.float64)
    except (OverflowError, ValueError):  # an integer too large for a float: its message needs the walk
        return None
    if not (array.max() <= MAX_ABS and array.min() >= -MAX_ABS):  # NaN and ±inf fail too
        return None
    return array


_PLAIN_NUMBERS = frozenset((float, int))


def number_list(raw: Any, place: str, width: int | None, width_name: str) -> list[float]:
    """A list of finite numbers with |x| ≤ 1,000,000, `width` of them when given."""
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


def text_fields(document: dict[str, Any]) -> tuple[str, str]:
    """The document's title and description ("" where absent); anything but a string is refused."""
    texts = []
    for name in ("title", "description"):
        text = document.get(name, "")
        if not isinstance(text, str):
            raise ScenarioError("{0}: expected a string, got {1}", name, value_kind(text))
        texts.append(text)
    return texts[0], texts[1]


def causal_flag(document: dict[str, Any]) -> bool:
    """The document's `causal` (False where absent); anything but true or false is refused."""
    causal = document.get("causal", False)
    if not isinstance(causal, bool):
        raise ScenarioError("causal: expected true or false, got {0}", value_kind(causal))
    return causal


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


def matrix_rows(document: dict[str, Any], name: str, count: int, count_name: str, width: int | None,
                width_name: str) -> list[list[float]]:
    """The field `name`: exactly `count` rows of numbers (`count_name` says why)."""
    raw = document[name]
    if not isinstance(raw, list) or len(raw) != count:
        got = len(raw) if isinstance(raw, list) else value_kind(raw)
        raise ScenarioError("{0}: expected {1} rows ({2}), got {3}", name, count, count_name, got)
    return number_rows(raw, name, width, width_name)
