"""Indented JSON written piece by piece, numpy arrays row by row: the text of json.dumps(indent=2), without its cost.

json.dumps with an indent runs its pure-Python encoder and holds the whole text: for a self-attention report at
N = 512, d = 4096 (8 million numbers) that is 12 s and 1.5 GB. Here a matrix row becomes one string of float
reprs joined in C, and the text is handed on in pieces, so memory stays near the arrays themselves.
Pure Python and numpy, no Qt.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

_INDENT = "  "


def _number(value: float) -> str:
    """A float as json writes it (repr; NaN and infinities as json's own words)."""
    if math.isfinite(value):
        return float.__repr__(value)
    if math.isnan(value):
        return "NaN"
    return "Infinity" if value > 0 else "-Infinity"


def _row_text(row: list[Any], pad: str) -> str:
    """One flat list of numbers (None as null) at the given padding, as json's indented encoder lays it out."""
    if not row:
        return "[]"
    items = []
    for value in row:
        if value is None:
            items.append("null")
        elif type(value) is float:
            items.append(_number(value))
        else:
            items.append(json.dumps(value))
    inner = pad + _INDENT
    return "[\n" + inner + (",\n" + inner).join(items) + "\n" + pad + "]"


def _finite_row_text(row: np.ndarray, pad: str, masked_as_null: bool) -> str:
    """A row of a float array: reprs joined in C when every number is finite (the usual case)."""
    if row.size == 0:
        return "[]"
    values = row.tolist()
    if not np.isfinite(row).all():
        return _row_text([None if masked_as_null and math.isinf(v) and v < 0 else v for v in values], pad)
    inner = pad + _INDENT
    return "[\n" + inner + (",\n" + inner).join(map(float.__repr__, values)) + "\n" + pad + "]"


class NullMasked:
    """A float array whose −inf entries (masked scores) are written as null: JSON has no infinity."""

    def __init__(self, array: np.ndarray) -> None:
        self.array = np.asarray(array, dtype=np.float64)


def _array_chunks(array: np.ndarray, pad: str, masked_as_null: bool) -> Iterator[str]:
    if array.ndim == 1:
        yield _finite_row_text(array, pad, masked_as_null)
        return
    if array.shape[0] == 0:
        yield "[]"
        return
    inner = pad + _INDENT
    yield "[\n" + inner
    for index, row in enumerate(array):
        if index:
            yield ",\n" + inner
        yield from _array_chunks(row, inner, masked_as_null)
    yield "\n" + pad + "]"


def iter_json(document: Any, text: Callable[[str], str] = lambda s: s, pad: str = "") -> Iterator[str]:
    """The pieces of json.dumps(document, ensure_ascii=False, indent=2); numpy arrays are written as lists.

    `text` post-processes every string's JSON text (the terminal-safe escaping of control characters).
    """
    if isinstance(document, NullMasked):
        yield from _array_chunks(document.array, pad, True)
    elif isinstance(document, np.ndarray):
        yield from _array_chunks(np.asarray(document, dtype=np.float64), pad, False)
    elif isinstance(document, dict):
        if not document:
            yield "{}"
            return
        inner = pad + _INDENT
        yield "{"
        for index, (name, value) in enumerate(document.items()):
            yield ("," if index else "") + "\n" + inner + text(json.dumps(name, ensure_ascii=False)) + ": "
            yield from iter_json(value, text, inner)
        yield "\n" + pad + "}"
    elif isinstance(document, (list, tuple)):
        if not document:
            yield "[]"
            return
        inner = pad + _INDENT
        yield "["
        for index, value in enumerate(document):
            yield ("," if index else "") + "\n" + inner
            yield from iter_json(value, text, inner)
        yield "\n" + pad + "]"
    elif isinstance(document, str):
        yield text(json.dumps(document, ensure_ascii=False))
    elif type(document) is float:
        yield _number(document)
    else:
        yield json.dumps(document)
