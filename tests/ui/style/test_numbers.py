"""The one number module: what each formatter shows, and that the parser reads every shown number back."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from attention_explorer.ui.style.numbers import (
    MINUS,
    cell_number,
    compact_html,
    factor_text,
    formatted_number,
    full_precision,
    full_precision_vector,
    number_html,
    parse_number,
    parse_number_rows,
    power_of_ten_html,
    product_factor_html,
    small_number_html,
    square_root_text,
    three_decimals,
    three_decimals_short,
    typographic_minus,
)

# Every number a scenario may hold (|x| ≤ 1e6), as a user could type it.
allowed = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False, allow_infinity=False)
# Below 1e6 three decimals are exact to 5e-4; a float near 1e6 itself is off by up to ~1e-10 more.
HALF_THOUSANDTH = 5e-4 + 1e-9


@given(allowed)
def test_three_decimals_read_back_within_half_a_thousandth(value):
    assert abs(parse_number(three_decimals(value)) - value) <= HALF_THOUSANDTH


@given(allowed)
def test_typographic_three_decimals_read_back_within_half_a_thousandth(value):
    shown = formatted_number("{:.3f}", value)
    assert "-" not in shown
    assert abs(parse_number(shown) - value) <= HALF_THOUSANDTH


@given(st.floats(min_value=-999.0, max_value=999.0), st.integers(min_value=0, max_value=4))
def test_cell_numbers_read_back_within_their_decimals(value, decimals):
    assert abs(parse_number(cell_number(value, decimals)) - value) <= 0.5 * 10.0**-decimals + 1e-12


@given(allowed)
def test_full_precision_reads_back_exactly(value):
    assert parse_number(full_precision(value)) == value


def is_negative_zero(shown: str) -> bool:
    return shown[:1] in ("-", MINUS) and set(shown[1:]) <= set("0.")


@given(st.floats(min_value=-1e-2, max_value=1e-2))
def test_small_values_never_show_a_negative_zero(value):
    for shown in (three_decimals(value), three_decimals_short(value), number_html(value), compact_html(value),
                  formatted_number("{:.3f}", value), cell_number(value), cell_number(value, 3)):
        assert not is_negative_zero(shown), shown


def test_negative_zero_examples():
    assert three_decimals(-0.0001) == "0.000" and three_decimals(-0.0) == "0.000"
    assert three_decimals_short(-0.0004) == "0.000"
    assert number_html(-0.0004) == "0.000" and cell_number(-0.001) == "0.00" and compact_html(-0.0) == "0"
    assert formatted_number("{:.1f}", -0.04) == "0.0"


def test_the_typographic_minus_where_numbers_are_read_not_typed():
    assert number_html(-1.5) == MINUS + "1.500"
    assert cell_number(-2) == MINUS + "2.00" and cell_number(-1234.5) == MINUS + "1.23×10³"
    assert cell_number(-math.inf) == MINUS + "∞" and cell_number(math.inf) == "∞"
    assert compact_html(-0.25) == MINUS + "0.25" and product_factor_html(-0.25) == f"({MINUS}0.25)"
    assert factor_text(1e-5) == "1×10⁻⁵" and typographic_minus("-1e-3") == f"{MINUS}1e{MINUS}3"
    assert full_precision_vector([-0.5, 1 / 3]) == f"[{MINUS}0.5, {1 / 3!r}]"
    # Text the vector editor puts into a cell for editing keeps the ASCII hyphen.
    assert three_decimals(-1.5) == "-1.500" and three_decimals_short(-2e6) == "-2.000e+06"


def test_big_and_tiny_numbers_keep_their_size_visible():
    assert number_html(123456789.0) == "1.235×10<sup>8</sup>"
    assert number_html(-9.9996e6) == f"{MINUS}1.000×10<sup>7</sup>"
    assert power_of_ten_html(2e-7) == f"2.000×10<sup>{MINUS}7</sup>"
    assert small_number_html(2e-7) == f"2.000×10<sup>{MINUS}7</sup>" and small_number_html(0.0) == "0.000"
    assert compact_html(0.5) == "0.5" and compact_html(2.0) == "2" and compact_html(1e-4) == "0.0001"
    assert compact_html(3e6) == "3.000×10<sup>6</sup>"
    assert three_decimals_short(999999.0) == "999999.000" and three_decimals_short(1e6) == "1.000e+06"
    assert number_html(math.inf) == "inf"


def test_factors_and_roots_as_a_lecturer_writes_them():
    assert factor_text(0.125) == "0.125" and factor_text(0.0) == "0.000" and factor_text(0.01) == "0.01"
    assert factor_text(2500.0) == "2\u2009500" and factor_text(math.inf) == "∞"  # no programmer notation
    assert factor_text(1e6) == "1\u2009000\u2009000" and factor_text(0.00125) == "0.00125"
    assert square_root_text(64) == "√64 = 8" and square_root_text(512) == "√512 ≈ 22.6"


@pytest.mark.parametrize(("typed", "value"), [(" 1.5 ", 1.5), ("+2", 2.0), (MINUS + "2", -2.0), ("0,5", 0.5),
                                               ("1e-3", 0.001), (".5", 0.5), ("1e6", 1e6), ("-1000000", -1e6)])
def test_parse_number_accepts_what_people_type(typed, value):
    assert parse_number(typed) == value


@pytest.mark.parametrize(("typed", "message"), [
    ("", "an empty cell is not a number"),
    ("abc", "“abc” is not a number"), ("nan", "“nan” is not a number"), ("inf", "“inf” is not a number"),
    ("0x10", "“0x10” is not a number"), ("1_000", "“1_000” is not a number"), ("1,2.5", "“1,2.5” is not a number"),
    (" 2e6 ", "“2e6” is out of range (|x| must be at most 1 000 000)"),
    ("1e400", "“1e400” is out of range (|x| must be at most 1 000 000)"),
])
def test_parse_number_names_the_problem(typed, message):
    with pytest.raises(ValueError) as error:
        parse_number(typed)
    assert str(error.value) == message


def test_pasted_rows_split_at_tabs_semicolons_commas_or_spaces():
    assert parse_number_rows("1\t2\r\n3\t" + MINUS + "4\n") == [[1, 2], [3, -4]]
    assert parse_number_rows("1;2,5\n\n3;4") == [[1, 2.5], [3, 4]]
    assert parse_number_rows("1, 2\n3 4") == [[1, 2], [3, 4]]


@pytest.mark.parametrize(("text", "message"), [
    ("\n\n", "nothing to paste"), ("1\t2\n3", "the pasted rows have different lengths"),
    ("1\tx", "“x” is not a number"), ("1\t\t2", "an empty cell is not a number"),
    ("1\t2e7", "“2e7” is out of range (|x| must be at most 1 000 000)"),
])
def test_a_bad_paste_names_the_problem(text, message):
    with pytest.raises(ValueError) as error:
        parse_number_rows(text)
    assert str(error.value) == message
