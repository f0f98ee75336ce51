"""The command line's limits at their edge: --size from 320x240 to 8000x8000, each side tried at and past its limit."""

from __future__ import annotations

import pytest

from attention_explorer.cli.gui import _parse_size
from attention_explorer.cli.parser import UsageError
from tests.helpers.limit_edges import Edge, assert_accepted, assert_refused, rows


def size_row(name: str, limit: int, past: int, text: str) -> Edge:
    """`text` with {0} for the side tried; the other side stays at a size that is allowed."""
    index = 0 if text.startswith("{0}") else 1

    def check(side: int) -> int:
        return _parse_size(text.format(side))[index]

    return Edge(name, "cli.gui._parse_size", limit, past, check,
                rf"attention-explorer: --size: {text.format(past)} is out of range \(320x240 to 8000x8000\)",
                UsageError)


LIMITS = rows(
    size_row("width 8000", 8000, 8001, "{0}x1000"),
    size_row("height 8000", 8000, 8001, "1600x{0}"),
    size_row("width at least 320", 320, 319, "{0}x1000"),
    size_row("height at least 240", 240, 239, "1600x{0}"),
)


@pytest.mark.parametrize("edge", LIMITS)
def test_the_limit_itself_is_accepted(edge):
    assert_accepted(edge)


@pytest.mark.parametrize("edge", LIMITS)
def test_one_past_the_limit_is_refused_with_its_message(edge):
    assert_refused(edge)
