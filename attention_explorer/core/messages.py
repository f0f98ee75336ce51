"""Error messages as a template and its values, so that a window can show them in the user's language.

Also the few ways a value is written inside such a message: a float, a huge integer, the kind of a JSON value.
"""

from __future__ import annotations

import math
from typing import Any


class Phrase(str):
    """A word or phrase inside an error message ("a string", "null") that is translated along with it."""

    __slots__ = ()


class TemplateError(ValueError):
    """An error whose message is `template.format(*values)`: the template is English, the values are data."""

    def __init__(self, template: str, *values: Any) -> None:
        super().__init__(template.format(*values) if values else template)
        self.template = template
        self.values = values


_SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")
_GROUPED_BELOW = 1e15  # whole numbers up to here are written out with their thousands grouped


def grouped(number: int) -> str:
    """A whole number with thin spaces between its thousands, the same in every language: 2 000 000."""
    return f"{number:,}".replace(",", "\u2009")


def number_text(value: float) -> str:
    """The shortest text that reads back as the same float, written as a person writes it, never in programmer
    notation: 0.1, 1000000.1 near a limit (not 1e+06), 2 000 000 (not 2e+06), 1.5×10⁻⁷ (not 1.5e-07)."""
    value = float(value)
    if not math.isfinite(value):
        return str(value)  # nan, inf: what the file or the call said
    for digits in range(1, 18):
        text = f"{value:.{digits}g}"
        if float(text) == value:
            break
    else:
        text = repr(value)
    if "e" not in text:
        return text
    if value == int(value) and abs(value) < _GROUPED_BELOW:
        return grouped(int(value))
    mantissa, exponent = text.split("e")
    return f"{mantissa}×10{str(int(exponent)).translate(_SUPERSCRIPT)}"


class Limit(float):
    """A limit a message states ("at most {0:g}"): written out as a person writes it, 1 000 000 (thin spaces between
    the thousands, the same in every language), never 1e+06; in arithmetic it is the plain float it is."""

    def __format__(self, spec: str) -> str:
        if spec in ("", "g") and self == int(self):
            return grouped(int(self))
        return super().__format__(spec)


def big_integer_text(number: int) -> str:
    """A huge integer, shortened for a one-line message."""
    digits = str(abs(number))
    sign = "-" if number < 0 else ""
    return f"{sign}{digits}" if len(digits) <= 15 else f"{sign}{digits[:3]}… ({len(digits)} digits)"


def value_kind(value: Any) -> str:
    """What a JSON value is, for a message: "a string", "null", "true/false", … (translated as a Phrase)."""
    if isinstance(value, bool):
        return Phrase("true/false")
    if value is None:
        return Phrase("null")
    if isinstance(value, str):
        return Phrase("a string")
    if isinstance(value, list):
        return Phrase("a list")
    if isinstance(value, dict):
        return Phrase("an object")
    return type(value).__name__


def field_name_text(name: str) -> str:
    """A field name as it goes between quotes in a message: its quotes and backslashes escaped, so it stays readable.

    Control characters are left to the one who shows the message (the CLI writes them as \\xNN).
    """
    return name.replace("\\", "\\\\").replace('"', '\\"')[:40]
