"""The pixel size of an exported PNG figure: the chosen width, the height that keeps the figure's proportions.

Pure Python, no Qt. The width is MIN_EXPORT_WIDTH to MAX_EXPORT_SIDE pixels, and the height that follows from it
must not pass MAX_EXPORT_SIDE either (a tall figure's widest PNG is narrower).
"""

from __future__ import annotations

from attention_explorer.core.limits import MAX_EXPORT_SIDE, MIN_EXPORT_WIDTH, ScenarioError
from attention_explorer.core.messages import Limit


def export_height(width: int, figure_width: int, figure_height: int) -> int:
    """The height of a `width`-pixel picture of a figure shown at figure_width × figure_height (at least 1)."""
    return max(1, round(width * figure_height / max(figure_width, 1)))


def max_export_width(figure_width: int, figure_height: int) -> int:
    """The widest PNG of this figure whose height stays within MAX_EXPORT_SIDE (MIN_EXPORT_WIDTH for a figure so
    tall that none does)."""
    figure_width, figure_height = max(figure_width, 1), max(figure_height, 1)
    # A height that rounds to at most the limit is below limit + ½: no wider width can do, a few narrower may not.
    widest = min(MAX_EXPORT_SIDE, int((MAX_EXPORT_SIDE + 0.5) * figure_width / figure_height) + 1)
    while widest > MIN_EXPORT_WIDTH and export_height(widest, figure_width, figure_height) > MAX_EXPORT_SIDE:
        widest -= 1
    return max(widest, MIN_EXPORT_WIDTH)


def check_export_width(width: int, figure_width: int, figure_height: int) -> int:
    """The PNG's height for `width`; raises ScenarioError for a width or a resulting height out of the limits."""
    if not MIN_EXPORT_WIDTH <= width <= MAX_EXPORT_SIDE:
        raise ScenarioError("the picture must be {0} to {1} pixels wide, not {2}", Limit(MIN_EXPORT_WIDTH),
                            Limit(MAX_EXPORT_SIDE), width)
    height = export_height(width, figure_width, figure_height)
    if height > MAX_EXPORT_SIDE:
        raise ScenarioError("at {0} pixels wide this figure would be {1} high, more than {2}: choose at most {3}",
                            width, height, Limit(MAX_EXPORT_SIDE), max_export_width(figure_width, figure_height))
    return height
