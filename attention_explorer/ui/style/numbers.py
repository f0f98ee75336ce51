"""Every number the UI shows, formatted in one place, and the one parser of numbers a user types or pastes."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

import numpy as np
from PySide6.QtCore import QCoreApplication

from attention_explorer.core.limits import MAX_ABS

_translate = QCoreApplication.translate  # lupdate: -tr-function-alias translate+=_translate

MINUS = "\u2212"  # the typographic minus sign: as wide as "+", unlike the hyphen
HUGE = 1e6  # from here on a number is shown with an exponent, so a cell or readout stays short
TINY = 5e-4  # below this (and non-zero) 3 decimals would show 0.000: the size is kept as an exponent
FULL_VECTOR_COMPONENTS = 16  # a full-precision vector (for tooltips) is cut after this many components

_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")


# ---------------------------------------------------------------- plain text


def typographic_minus(text: str) -> str:
    """`text` with the typographic minus sign instead of each hyphen."""
    return text.replace("-", MINUS)


def three_decimals(value: float) -> str:
    """Three decimals with '.' and a hyphen for negatives (text a user may edit and type back); never "-0.000"."""
    text = f"{value:.3f}"
    return "0.000" if text == "-0.000" else text


def three_decimals_short(value: float) -> str:
    """`three_decimals`, but 1.000e+06 from HUGE on, so a readout on the canvas stays short."""
    return three_decimals(value) if abs(value) < HUGE else f"{value:.3e}"


def formatted_number(number_format: str, value: float) -> str:
    """`value` in `number_format` (e.g. "{:.2f}") with the typographic minus, and never a negative zero."""
    text = number_format.format(value)
    if text.startswith("-") and float(text) == 0.0:
        text = text[1:]
    return typographic_minus(text)


def cell_number(value: float, decimals: int = 2) -> str:
    """A matrix cell: fixed decimals below 1000, else 3 significant digits; typographic minus; ±∞."""
    if math.isinf(value):
        return MINUS + "∞" if value < 0 else "∞"
    if abs(value) < 1000:
        return formatted_number(f"{{:.{decimals}f}}", value)
    mantissa, exponent = f"{value:.2e}".split("e")  # 1.23×10³, never 1.23e+03
    return typographic_minus(mantissa) + "×10" + str(int(exponent)).translate(_SUPERSCRIPT)


def factor_text(value: float) -> str:
    """A factor as a lecturer reads it: 3 decimals for ordinary sizes, 3 significant digits otherwise; '∞'."""
    if math.isinf(value):
        return "∞"
    if value == 0 or 0.1 <= abs(value) < 1000:
        return f"{value:.3f}"
    if 1000 <= abs(value) < 1e15 and float(f"{value:.3g}") == round(float(f"{value:.3g}")):
        return grouped_integer(int(float(f"{value:.3g}")))  # 2 500, 1 000 000: never 2.5e+03
    if 1e-3 <= abs(value) < 0.1:
        return typographic_minus(f"{value:.3g}")  # 0.01, 0.00125
    return tooltip_number(float(f"{value:.3g}"))  # 1×10⁻⁵


def square_root_text(d_k: int) -> str:
    """√d_k as a lecturer writes it: "√64 = 8", "√512 ≈ 22.6"."""
    root = math.sqrt(d_k)
    if root == int(root):
        return f"√{d_k} = {int(root)}"
    return f"√{d_k} ≈ {root:.1f}"


def full_precision(value: float) -> str:
    """Every digit of `value` (the shortest text that reads back exactly), typographic minus: for tooltips."""
    return typographic_minus(repr(float(value)))


_SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


def tooltip_number(value: float) -> str:
    """A number as a tooltip shows it to a reader: 6 significant digits (0.722159, not 0.7221586142601905), the
    typographic minus, and a power of ten written as people write it (4.54×10⁻⁵, 2×10⁶), never 1e+06."""
    value = float(value)
    if math.isnan(value):
        return "—"
    if math.isinf(value):
        return MINUS + "∞" if value < 0 else "∞"
    if value == 0.0:
        return "0"
    if 1e-4 <= abs(value) < HUGE:
        return typographic_minus(f"{value:.6g}")
    mantissa, exponent = f"{value:.5e}".split("e")
    mantissa = mantissa.rstrip("0").rstrip(".")
    return typographic_minus(mantissa) + "×10" + str(int(exponent)).translate(_SUPERSCRIPT)


def tooltip_vector(values: Sequence[float] | np.ndarray) -> str:
    """[a, b, …] with `tooltip_number` components (long vectors cut)."""
    values = np.asarray(values, dtype=np.float64)
    text = ", ".join(tooltip_number(float(v)) for v in values[:FULL_VECTOR_COMPONENTS])
    return f"[{text}{', …' if values.shape[0] > FULL_VECTOR_COMPONENTS else ''}]"


def full_precision_vector(values: Sequence[float] | np.ndarray) -> str:
    """[a, b, …] with every component at full precision (for tooltips; long vectors cut)."""
    values = np.asarray(values, dtype=np.float64)
    text = ", ".join(full_precision(float(v)) for v in values[:FULL_VECTOR_COMPONENTS])
    return f"[{text}{', …' if values.shape[0] > FULL_VECTOR_COMPONENTS else ''}]"


def table_value(value: float, decimals: int = 3, unit: str = "") -> str:
    """A number in a comparison table: fixed decimals (an exponent from HUGE on), "—" where it is undefined."""
    if not math.isfinite(value):
        return "—"
    number_format = "{:.3e}" if abs(value) >= HUGE else f"{{:.{decimals}f}}"
    return formatted_number(number_format, value) + unit


def signed_difference(value: float, decimals: int = 3, unit: str = "") -> str:
    """A difference with its sign, "+0.125" or "−0.125"; "0.000" (no sign) when it rounds to zero; "—" if undefined."""
    if not math.isfinite(value):
        return "—"
    number_format = "{:+.3e}" if abs(value) >= HUGE else f"{{:+.{decimals}f}}"
    text = number_format.format(value)
    if float(text) == 0.0:
        text = f"{0.0:.{decimals}f}"
    return typographic_minus(text) + unit


# ---------------------------------------------------------------- rich text (an exponent is a <sup>)


def power_of_ten_html(value: float) -> str:
    """`value` as 1.234×10<sup>8</sup> (3 decimals in the mantissa), typographic minus."""
    exponent = math.floor(math.log10(abs(value)))
    mantissa = value / 10.0**exponent
    if round(abs(mantissa), 3) >= 10.0:
        mantissa /= 10.0
        exponent += 1
    return f"{typographic_minus(f'{mantissa:.3f}')}×10<sup>{typographic_minus(str(exponent))}</sup>"


def number_html(value: float) -> str:
    """A result as the user reads it: 3 decimals (no "−0.000"); from HUGE on as a × 10^b."""
    if not math.isfinite(value):
        return str(value)
    if abs(value) >= HUGE:
        return power_of_ten_html(value)
    return formatted_number("{:.3f}", value)


def small_number_html(value: float) -> str:
    """`number_html`, but tiny non-zero values (e^x far below 1) keep their size visible as a × 10^−b."""
    if value != 0.0 and abs(value) < TINY:
        return power_of_ten_html(value)
    return number_html(value)


def compact_html(value: float) -> str:
    """An input component or factor as a lecturer writes it: up to 3 decimals, no trailing zeros."""
    if abs(value) >= HUGE:
        return power_of_ten_html(value)
    if value != 0.0 and abs(value) < TINY:
        return typographic_minus(f"{value:.3g}")
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else typographic_minus(text)


def weight_html(value: float) -> str:
    """A softmax weight with the digits it needs: 0.66524, 0.99995 (never a rounded 1.0000 beside a non-zero
    weight), and from below 0.001 on as 4.54×10<sup>−5</sup>, so a small weight is never shown as 0.0000."""
    if value == 0.0 or value >= 1e-3:
        return formatted_number("{:.5f}", value)
    mantissa, exponent = f"{value:.2e}".split("e")
    return f"{mantissa}×10<sup>{typographic_minus(str(int(exponent)))}</sup>"


def parenthesized_if_negative(value: float, shown: str) -> str:
    """`shown` (the text of `value`) in parentheses when negative, as a factor in a product."""
    return f"({shown})" if value < 0 else shown


def product_factor_html(value: float) -> str:
    """`compact_html` for a factor inside a product: negative ones in parentheses."""
    return parenthesized_if_negative(value, compact_html(value))


# ---------------------------------------------------------------- parsing


# What a Chinese (or Japanese) input method types for a number: full-width digits, signs, point, e and spaces.
_HALF_WIDTH = {**{0xFF10 + d: str(d) for d in range(10)}, 0xFF0E: ".", 0xFF0B: "+", 0xFF0D: "-", 0xFF45: "e",
               0xFF25: "E", 0x3000: " ", 0x2012: "-", 0x2013: "-", 0xFE63: "-", 0x3002: "."}
# Commas that separate numbers in a Chinese row ("２，３", "2、3"): never a decimal comma.
_LIST_COMMAS = {0xFF0C: ",", 0x3001: ",", 0xFE50: ",", 0xFE51: ","}


def half_width(text: str) -> str:
    """`text` with full-width digits, signs, decimal point and spaces made ordinary ("－１．５" → "-1.5")."""
    return text.translate(_HALF_WIDTH)


def list_separators(text: str) -> str:
    """`text` made half-width, with the commas a Chinese row uses between numbers ("２，３", "2、3") as ", "."""
    return half_width(text).translate({code: ", " for code in _LIST_COMMAS})


_ROW_CELLS = re.compile(r"\s*;\s*|,\s+|\s+")


def row_cells(line: str) -> list[str]:
    """One row of numbers as text cells: tabs split it if it has any, else semicolons, a comma followed by a space
    and spaces ("0.8, 0.2" as the article writes a vector, "２，３" and "２、３" as a Chinese input method types a
    row); a lone "0,5" stays one cell with a decimal comma. Empty cells at the end are dropped."""
    line = list_separators(line)
    cells = line.split("\t") if "\t" in line else _ROW_CELLS.split(line.strip())
    while cells and not cells[-1].strip():
        cells.pop()
    return cells


def parse_number(text: str) -> float:
    """A finite number with |x| ≤ MAX_ABS from what a user typed; ValueError names the problem (translated).

    Accepts surrounding spaces, exponents ("1e-3"), a leading "+", the typographic minus "−", a single
    decimal comma ("0,5") and what a Chinese input method types ("－１．５"); refuses empty text, nan, inf, hex,
    digit separators, two numbers ("２，３") and anything else.
    """
    cleaned = half_width(text).strip().replace(MINUS, "-")
    if not cleaned:
        raise ValueError(_translate("Numbers", "an empty cell is not a number"))
    if cleaned.count(",") == 1 and "." not in cleaned:
        cleaned = cleaned.replace(",", ".")
    if not _NUMBER.fullmatch(cleaned):
        raise ValueError(_translate("Numbers", "“{0}” is not a number").format(text.strip()))
    value = float(cleaned)
    if not math.isfinite(value) or abs(value) > MAX_ABS:
        raise ValueError(
            _translate("Numbers", "“{0}” is out of range (|x| must be at most {1:g})").format(text.strip(), MAX_ABS)
        )
    return value


def parse_number_rows(text: str) -> list[list[float]]:
    """Equally long rows of numbers from pasted text: lines, cells split by tabs (or semicolons, commas, spaces)."""
    rows = []
    text = list_separators(text)  # "１，２、３" as an input method types it is "1, 2, 3"
    for line in text.strip("\r\n").splitlines():
        if not line.strip():
            continue
        separator = "\t" if "\t" in line else (";" if ";" in line else None)
        cells = line.split(separator) if separator else line.replace(",", " ").split()
        rows.append([parse_number(cell) for cell in cells])
    if not rows:
        raise ValueError(_translate("Numbers", "nothing to paste"))
    if len({len(row) for row in rows}) != 1:
        raise ValueError(_translate("Numbers", "the pasted rows have different lengths"))
    return rows


def grouped_integer(number: int) -> str:
    """12 800: a whole number with thin spaces between its thousands (the same in every language)."""
    return f"{int(number):,}".replace(",", "\u2009")
