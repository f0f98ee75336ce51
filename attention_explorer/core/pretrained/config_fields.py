"""config.json's fields read strictly: CheckpointError, and whole numbers, strings, flags and epsilons checked."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from attention_explorer.core.files.jsonrules import parse_json
from attention_explorer.core.limits import ScenarioError
from attention_explorer.core.messages import TemplateError, big_integer_text, number_text, value_kind

_MAX_CONFIG_BYTES = 1024 * 1024


class CheckpointError(TemplateError):
    """A model folder cannot be used; the message is one line naming the file and the problem."""


def _one_line(error: BaseException) -> str:
    text = " ".join(str(error).split())
    return text[:300] or type(error).__name__



def _config_document(path: Path) -> Any:
    """config.json parsed by the scenario files' rules (duplicate keys, giant integers, deep nesting refused)."""
    try:
        size = path.stat().st_size
        if size > _MAX_CONFIG_BYTES:
            raise CheckpointError("{0}: {1} bytes is far too large for a config.json", path, size)
        data = path.read_bytes()
    except FileNotFoundError:
        raise CheckpointError("{0}: no such file", path) from None
    except OSError as error:
        raise CheckpointError("{0}: cannot read it ({1})", path, error.strerror or error) from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise CheckpointError("{0}: not UTF-8 text", path) from None
    try:
        return parse_json(text)
    except ScenarioError as error:
        raise CheckpointError("{0}: {1}", path, error) from None


def _whole(document: dict, key: str, place: str, largest: int) -> int:
    """A size field: an int (true/false and 32.0 are not), from 1 to `largest`."""
    value = document[key]
    if isinstance(value, bool) or not isinstance(value, int):
        raise CheckpointError("{0}: expected a whole number, got {1}", f"{place}: {key}", value_kind(value))
    if not 1 <= value <= largest:
        raise CheckpointError("{0}: {1} is out of range ({2} to {3})", f"{place}: {key}", big_integer_text(value), 1,
                              largest)
    return value


def _text(document: dict, key: str, place: str, default: str | None = None) -> str | None:
    """A string field (absent: the default)."""
    value = document.get(key, default)
    if value is not default and not isinstance(value, str):
        raise CheckpointError("{0}: expected a string, got {1}", f"{place}: {key}", value_kind(value))
    return value


def _flag(document: dict, key: str, place: str) -> bool:
    """A true/false field (absent or null: false)."""
    value = document.get(key)
    if value is not None and not isinstance(value, bool):
        raise CheckpointError("{0}: expected true or false, got {1}", f"{place}: {key}", value_kind(value))
    return bool(value)


def _norm_epsilon(document: dict, place: str, key: str = "layer_norm_eps") -> float:
    """A LayerNorm epsilon: a finite number above 0 and below 1."""
    value = document[key]
    where = f"{place}: {key}"
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise CheckpointError("{0}: expected a number, got {1}", where, value_kind(value))
    if isinstance(value, int) and abs(value) >= 10**15:  # float() of a 400-digit integer would overflow
        raise CheckpointError("{0}: {1} is out of range (expected a small positive number below 1)", where,
                              big_integer_text(value))
    value = float(value)
    if math.isnan(value):
        raise CheckpointError("{0}: NaN is not allowed (every number must be finite)", where)
    if not 0 < value < 1:
        raise CheckpointError("{0}: {1} is out of range (expected a small positive number below 1)", where,
                         number_text(value))
    return value
