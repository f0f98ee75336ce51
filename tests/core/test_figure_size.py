"""An exported PNG's size: the chosen width within 200–8000 pixels, the height in the figure's proportions and
within 8000 too; each limit at its edge (accepted) and one past it (refused, with its message)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attention_explorer.core.files.figure_size import check_export_width, export_height, max_export_width
from attention_explorer.core.limits import MAX_EXPORT_SIDE, MIN_EXPORT_WIDTH
from tests.helpers.limit_edges import Edge, assert_accepted, assert_refused, rows


def _wide(width: int) -> int:
    """A landscape figure, 640 × 360 on screen: its height never binds."""
    check_export_width(width, 640, 360)
    return width


def _tall(width: int) -> int:
    """A portrait figure, 300 × 600: 4000 pixels wide is already 8000 high."""
    check_export_width(width, 300, 600)
    return width


EDGES = rows(
    Edge("png width at least 200", "figure_size.check_export_width", MIN_EXPORT_WIDTH, MIN_EXPORT_WIDTH - 1, _wide,
         "the picture must be 200 to 8\u2009000 pixels wide, not 199"),
    Edge("png width at most 8000", "figure_size.check_export_width", MAX_EXPORT_SIDE, MAX_EXPORT_SIDE + 1, _wide,
         "the picture must be 200 to 8\u2009000 pixels wide, not 8001"),
    Edge("png height at most 8000", "figure_size.check_export_width", 4000, 4001, _tall,
         "at 4001 pixels wide this figure would be 8002 high, more than 8\u2009000: choose at most 4000"),
)


def test_the_limits_are_the_documented_ones():
    assert (MIN_EXPORT_WIDTH, MAX_EXPORT_SIDE) == (200, 8000)


@pytest.mark.parametrize("edge", EDGES)
def test_the_limit_itself_is_accepted(edge):
    assert_accepted(edge)


@pytest.mark.parametrize("edge", EDGES)
def test_one_past_the_limit_is_refused_with_its_message(edge):
    assert_refused(edge)


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 5000), st.integers(1, 5000))
def test_the_widest_width_is_the_last_one_accepted(figure_width, figure_height):
    widest = max_export_width(figure_width, figure_height)
    assert MIN_EXPORT_WIDTH <= widest <= MAX_EXPORT_SIDE
    if export_height(MIN_EXPORT_WIDTH, figure_width, figure_height) > MAX_EXPORT_SIDE:
        return  # a figure over 40 times taller than wide: no width is accepted, the least is offered
    assert check_export_width(widest, figure_width, figure_height) == export_height(widest, figure_width,
                                                                                     figure_height)
    if widest < MAX_EXPORT_SIDE:
        with pytest.raises(ValueError):
            check_export_width(widest + 1, figure_width, figure_height)


@settings(max_examples=40, deadline=None)
@given(st.integers(MIN_EXPORT_WIDTH, MAX_EXPORT_SIDE), st.integers(1, 3000), st.integers(1, 3000))
def test_the_height_keeps_the_proportions_to_half_a_pixel(width, figure_width, figure_height):
    height = export_height(width, figure_width, figure_height)
    assert abs(height - width * figure_height / figure_width) <= 0.5 or height == 1
