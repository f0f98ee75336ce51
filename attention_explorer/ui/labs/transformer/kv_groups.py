"""Grouped-query attention on the page: which query heads share a K/V head, and how the views space and label them.

`kv_heads` is the K/V head of each query head (Analysis.kv_heads): (0, 0, 1, 1) for four query heads on two K/V
heads, (0, 1, 2, 3) without grouping. Without grouping nothing is spaced or labelled (BERT, GPT-2 as before).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QPainter, QPen

from attention_explorer.ui.style.theme import theme

GROUP_GAP_PX = 14  # extra space between two groups of query heads
GROUPS_LISTED = 4  # the caption names this many groups, then "…" and the last


@dataclass(frozen=True)
class HeadGroup:
    """Query heads first … last, which all read K/V head `kv`."""

    kv: int
    first: int
    last: int


def head_groups(kv_heads: Sequence[int]) -> list[HeadGroup]:
    """The runs of query heads sharing a K/V head; [] without grouping (every query head its own K/V head)."""
    if len(set(kv_heads)) == len(kv_heads):
        return []
    groups: list[HeadGroup] = []
    for head, kv in enumerate(kv_heads):
        if groups and groups[-1].kv == kv and groups[-1].last == head - 1:
            groups[-1] = HeadGroup(kv, groups[-1].first, head)
        else:
            groups.append(HeadGroup(kv, head, head))
    return groups


def group_index(kv_heads: Sequence[int], head: int) -> int:
    """How many group gaps lie left of query head `head` (0 without grouping)."""
    groups = head_groups(kv_heads)
    return next((index for index, group in enumerate(groups) if group.first <= head <= group.last), 0)


def draw_group_bracket(painter: QPainter, left: float, right: float, y: float, label: str, below: bool,
                       text_height: float) -> QRectF:
    """A bracket from `left` to `right` at `y`, `label` beyond it (below or above); returns the label's rectangle."""
    pen = QPen(theme().foreground(), 1.5)
    painter.setPen(pen)
    tick = 4 if below else -4
    painter.drawLine(QLineF(QPointF(left, y), QPointF(right, y)))
    painter.drawLine(QLineF(QPointF(left, y - tick), QPointF(left, y)))
    painter.drawLine(QLineF(QPointF(right, y - tick), QPointF(right, y)))
    width = max(right - left, painter.fontMetrics().horizontalAdvance(label) + 4)
    centre = (left + right) / 2
    top = y + 1 if below else y - 1 - text_height
    rect = QRectF(centre - width / 2, top, width, text_height)
    painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, label)
    return rect
