"""Where the output view's value labels may go, and the convex hull of the values (numpy in pixels, no Qt).

Each label has a rectangle on each side of its point; what it covers there decides the side (y points down).
"""

from __future__ import annotations

import numpy as np

# The sides a value label may take around its point, right, left, above, below: (anchor, x and y direction, y up).
LABEL_SIDES = (((0.0, 0.5), 1.0, 0.0), ((1.0, 0.5), -1.0, 0.0), ((0.5, 1.0), 0.0, 1.0), ((0.5, 0.0), 0.0, -1.0))
# What a label covering something costs, per square pixel: the star worst, then another label, then being cut
# off by the plot's edge, then another point (labels are drawn over points, so a covered point still shows).
STAR_COST, LABEL_COST, EDGE_COST, POINT_COST = 8.0, 4.0, 3.0, 1.0
# Pixels of a label's rectangle that two labels may share: most of the empty margin TextItem leaves around a text.
LABEL_MARGIN = 3.0


Rect = tuple[float, float, float, float]  # left, top, right, bottom in pixels, y downwards


def overlap_areas(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Areas shared by each rectangle in `a` with each in `b` (rows: left, top, right, bottom): shape (len a, len b)."""
    width = np.minimum(a[:, None, 2], b[None, :, 2]) - np.maximum(a[:, None, 0], b[None, :, 0])
    height = np.minimum(a[:, None, 3], b[None, :, 3]) - np.maximum(a[:, None, 1], b[None, :, 1])
    return np.maximum(width, 0.0) * np.maximum(height, 0.0)


def shared_area(a: Rect, b: Rect) -> float:
    """The area two rectangles share (plain floats: for a handful of rectangles numpy costs more than it saves)."""
    width = min(a[2], b[2]) - max(a[0], b[0])
    if width <= 0.0:
        return 0.0
    height = min(a[3], b[3]) - max(a[1], b[1])
    return width * height if height > 0.0 else 0.0


def convex_hull(points: np.ndarray) -> np.ndarray:
    """Corners of the convex hull of 2-D points, counter-clockwise (Andrew's monotone chain)."""
    unique = sorted({(float(x), float(y)) for x, y in points})
    if len(unique) <= 2:
        return np.array(unique, dtype=np.float64).reshape(-1, 2)

    def cross(o: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list[tuple[float, float]] = []
    for p in unique:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    upper: list[tuple[float, float]] = []
    for p in reversed(unique):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return np.array(lower[:-1] + upper[:-1], dtype=np.float64)


def side_rects(xs: np.ndarray, ys: np.ndarray, widths: np.ndarray, heights: np.ndarray,
               radii: np.ndarray) -> np.ndarray:
    """Each label's rectangle on each side of its point (in LABEL_SIDES' order): shape (n, 4 sides, 4)."""
    rects = np.empty((len(xs), 4, 4))
    rects[:, 0] = np.column_stack([xs + radii, ys - heights / 2, xs + radii + widths, ys + heights / 2])
    rects[:, 1] = np.column_stack([xs - radii - widths, ys - heights / 2, xs - radii, ys + heights / 2])
    rects[:, 2] = np.column_stack([xs - widths / 2, ys - radii - heights, xs + widths / 2, ys - radii])
    rects[:, 3] = np.column_stack([xs - widths / 2, ys + radii, xs + widths / 2, ys + radii + heights])
    return rects


def costs_without_star(rects: np.ndarray, xs: np.ndarray, ys: np.ndarray, radii: np.ndarray,
                       plot: Rect) -> np.ndarray:
    """What each label covers on each side, the star and other labels apart: points and the plot's edge, (n, 4)."""
    n = len(xs)
    flat = rects.reshape(-1, 4)
    covered_points = overlap_areas(flat, np.column_stack([xs - radii, ys - radii, xs + radii, ys + radii]))
    covered_points[np.arange(4 * n), np.repeat(np.arange(n), 4)] = 0.0  # its own point's edge, by construction
    area = (flat[:, 2] - flat[:, 0]) * (flat[:, 3] - flat[:, 1])
    cut_off = area - overlap_areas(flat, np.array([plot]))[:, 0]
    costs = POINT_COST * covered_points.sum(axis=1) + EDGE_COST * cut_off
    return costs.reshape(n, 4)


def label_crossings(rects: np.ndarray) -> np.ndarray:
    """The area label i on side a shares with label j on side b, as [i, a, j, b]."""
    n = rects.shape[0]
    # Labels may share their empty margins (TextItem leaves a few pixels around the text), not their letters.
    letters = rects.reshape(-1, 4) + np.array([LABEL_MARGIN, LABEL_MARGIN, -LABEL_MARGIN, -LABEL_MARGIN])
    return overlap_areas(letters, letters).reshape(n, 4, n, 4)


class LabelLayout:
    """The labels' rectangles and best sides with the star left out, and the few detours the star then forces."""

    def __init__(self, xs: np.ndarray, ys: np.ndarray, widths: np.ndarray, heights: np.ndarray, radii: np.ndarray,
                 plot: Rect) -> None:
        rects = side_rects(xs, ys, widths, heights, radii)
        self.crossings = label_crossings(rects)  # [i, side, j, side]: area labels i and j would share
        self.candidates: list[list[Rect]] = [[tuple(rect) for rect in sides] for sides in rects.tolist()]
        # Per label and side: what it covers, the star aside.
        self.costs_free: list[list[float]] = costs_without_star(rects, xs, ys, radii, plot).tolist()
        # Outwards first: a label at the right edge would otherwise be cut off by the plot's border.
        middle = (xs.min() + xs.max()) / 2.0
        self.orders = [(0, 1, 2, 3) if x <= middle else (1, 0, 2, 3) for x in xs.tolist()]
        sides: list[int] = []
        for i in range(len(self.candidates)):
            sides.append(self.best_side(i, self.costs_free[i], list(range(i)), sides))
        self.sides_free = sides  # indices into LABEL_SIDES

    def best_side(self, index: int, costs: list[float], others: list[int], sides: list[int]) -> int:
        """Label `index`'s first side (outwards, inwards, above, below) that covers nothing, else its cheapest.

        `others` are the labels it must not cover, `sides` their sides."""
        total = costs
        if others:
            crossed = self.crossings[index][:, others, [sides[j] for j in others]].sum(axis=1)
            total = [cost + LABEL_COST * area for cost, area in zip(costs, crossed.tolist())]
        order = self.orders[index]
        return next((side for side in order if total[side] <= 0.5), min(order, key=total.__getitem__))

    def sides_with_star(self, star: list[Rect]) -> list[int]:
        """The free sides, except that each label the star covers moves to its best side with the star counted."""
        hit = [i for i, (side, candidates) in enumerate(zip(self.sides_free, self.candidates))
               if any(shared_area(candidates[side], rect) > 0.0 for rect in star)]
        sides = list(self.sides_free)
        for i in hit:
            costs = [cost + STAR_COST * sum(shared_area(rect, rect_star) for rect_star in star)
                     for rect, cost in zip(self.candidates[i], self.costs_free[i])]
            sides[i] = self.best_side(i, costs, [j for j in range(len(sides)) if j != i], sides)
        return sides
