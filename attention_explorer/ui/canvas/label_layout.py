"""Where the canvas puts its names and the angle's number: pure functions on pixels, tested without widgets.

Boxes are (left, top, width, height) in pixels, y downwards, the origin of the plot at (0, 0); a point in the view
is (x, y) in view units, `pixel` view units a pixel. A placement is (x, y, anchor): the view point a text's
anchor goes to, and the anchor as pyqtgraph's TextItem takes it ((0, 0) its top left, (1, 1) its bottom right).
"""

from __future__ import annotations

import math

import numpy as np

LABEL_GAP_PX = 14  # labels sit this far beyond a tip, along the arrow
MAX_AVOIDED_LABELS = 40  # labels beyond this many are not moved apart (checking costs O(n²))
# Names of tips keep off the arrows' shafts and grab circles while there are at most this many arrows: each name
# tests every shaft and circle, on every drag move.
MAX_AVOIDED_ARROWS = 16
TEXT_MARGIN_PX = 4.0  # QTextDocument's default margin: a TextItem's box is this much wider than its letters
SHAFT_CLEARANCE_PX = 1.5  # letters keep this far from an arrow's line, beyond its half width
STACK_PX = 3  # tips in one square this size are drawn on one point: their labels stack in a column
QUERY = -1  # in a label order: Q's name
ANGLE = -2  # in a label order: the angle's number

Box = tuple[float, float, float, float]
Placement = tuple[float, float, tuple[float, float]]
Shaft = tuple[float, float, float, float, float, float, float]
_DIAGONAL = math.sqrt(0.5)


def tip_direction(x: float, y: float, on_a_line: bool) -> tuple[float, float]:
    """The side of the tip at (x, y) its name goes to: along the arrow; up for a zero vector's (no arrow) and on a
    line (d_k = 1), where labels beyond the tips would sit on the other arrows."""
    length = math.hypot(x, y)
    ux, uy = (x / length, y / length) if length > 0 else (0.7071, 0.7071)
    if on_a_line:
        ux, uy = 0.0, 1.0
    return ux, uy


def label_reach(size: tuple[float, float], ux: float, uy: float, handle_radius: float,
                stacked_px: float) -> tuple[float, float, float, float]:
    """Pixels a tip's grab circle and its name beyond it in direction (ux, uy) reach to its left, right, bottom and
    top; `stacked_px`: how far down the name was moved under the names of other tips on its point."""
    width, height = size
    anchor_x, anchor_y = 0.5 - 0.5 * ux, 0.5 + 0.5 * uy
    centre_x, centre_y = ux * LABEL_GAP_PX, uy * LABEL_GAP_PX
    return (max(handle_radius, anchor_x * width - centre_x), max(handle_radius, centre_x + (1 - anchor_x) * width),
            max(handle_radius, (1 - anchor_y) * height - centre_y + stacked_px),
            max(handle_radius, centre_y + anchor_y * height - stacked_px))


def label_order(qx: float, qy: float, kx: np.ndarray, ky: np.ndarray, pixel: float,
                selected: int) -> list[tuple[int, bool, bool]]:
    """In which order the names are placed: (key index, or QUERY / ANGLE; stacked under other names on its point;
    keeping off the shafts and circles), by importance, as each later one moves aside for the earlier ones."""
    # Tips drawn on one point (Q = K1 = K3 in components 0 and 1 of the library example) get their names in one
    # column beside it, each beyond the one before (stacked) and in the order of the keys, so selecting another key
    # never reorders them.
    cell = STACK_PX * pixel
    cells = list(zip(np.round(kx / cell).tolist(), np.round(ky / cell).tolist()))
    q_cell = (round(qx / cell), round(qy / cell))
    distinct = set(cells)
    no_stacks = len(distinct) == len(cells) and q_cell not in distinct
    order = [(QUERY, False, no_stacks or q_cell not in distinct)]
    if selected >= len(cells):
        return order
    if no_stacks:
        return order + [(selected, False, True), (ANGLE, False, False)] + [
            (i, False, True) for i in range(len(cells)) if i != selected]
    # Q's column and the selected key's come before the angle's number, which then cannot come between them.
    # A name heading a column stays beside its point, where the column goes on; only a name alone on its point
    # keeps off the shafts.
    first: dict[tuple, int] = {}  # per point: the first key on it
    tips_on = {q_cell: 1}  # per point: how many tips are drawn on it
    for i, point in enumerate(cells):
        first.setdefault(point, i)
        tips_on[point] = tips_on.get(point, 0) + 1
    entries = [(i, point == q_cell or first[point] != i, tips_on[point] == 1) for i, point in enumerate(cells)]
    early = [point == q_cell or point == cells[selected] for point in cells]
    return order + [entries[i] for i in range(len(cells)) if early[i]] + [(ANGLE, False, False)] + [
        entries[i] for i in range(len(cells)) if not early[i]]


def angle_arc(qx: float, qy: float, x: float, y: float, pixel: float) -> tuple[float, float, float] | None:
    """(start, sweep, radius) of the arc from Q's tip direction to the key's at (x, y), the short way round as θ is
    measured, in radians and view units; None where either is the zero vector."""
    q_len, k_len = math.hypot(qx, qy), math.hypot(x, y)
    if q_len == 0 or k_len == 0:
        return None
    start = math.atan2(qy, qx)
    sweep = math.remainder(math.atan2(y, x) - start, 2 * math.pi)
    radius = min(max(0.4 * min(q_len, k_len), 40 * pixel), 120 * pixel)
    return start, sweep, radius


def angle_label_point(size: tuple[float, float], start: float, sweep: float, radius: float, q_len: float,
                      k_len: float, pixel: float, handle_radius: float, on_a_line: bool,
                      half_widths: tuple[float, float]) -> tuple[float, float]:
    """The view point the angle's number is centred on, for its arc (see `angle_arc`) between a query and a key of
    lengths `q_len` and `k_len` whose lines are `half_widths` pixels wide either side."""
    middle = start + sweep / 2
    ux, uy = math.cos(middle), math.sin(middle)
    # Centre the number on the bisector just outside the arc; in a narrow angle move it out along the
    # bisector to where the wedge is wide enough for it (but not past the shorter arrow's tip).
    half_w, half_h = size[0] / 2 * pixel, size[1] / 2 * pixel
    outside_arc = radius + 4 * pixel + abs(ux) * half_w + abs(uy) * half_h
    half_sweep = abs(sweep) / 2
    fits = math.hypot(half_w, half_h) / math.sin(half_sweep) if half_sweep > 1e-6 else math.inf
    longest_inside = 0.8 * min(q_len, k_len)
    if fits <= longest_inside or half_sweep > math.radians(20):
        # Inside the wedge where it is wide enough; a wide angle may put the number beyond short arrows.
        distance = max(outside_arc, min(fits, longest_inside))
        return distance * ux, distance * uy
    # Too narrow anywhere along the arrows: put the number beside them, on their upper side (lower side
    # on a line, where the labels are above the tips).
    normal_x, normal_y = (-uy, ux) if ux > 0 or (ux == 0 and uy < 0) else (uy, -ux)
    if on_a_line:
        normal_x, normal_y = 0.0, -1.0
    aside = abs(normal_x) * half_w + abs(normal_y) * half_h + 8 * pixel
    # It ends short of the nearer tip: reaching past it, the number sat on the grab circle and took the rows
    # where the labels of tips on one point stack (Q = K1 = K3 in the library example), pushing one far from
    # its tip. An arc thinner than the 8 px aside lies under the gap, so the thinner the arc, the closer to
    # the origin the number may come (continuously: it must not jump while a tip is dragged).
    along_half = abs(ux) * half_w + abs(uy) * half_h
    short_of_tip = min(q_len, k_len) - along_half - handle_radius * pixel
    thin = min(1.0, radius * math.sin(half_sweep) / (8 * pixel))
    nearest = along_half + 4 * pixel + thin * (outside_arc - along_half - 4 * pixel)
    distance = max(nearest, min(max(outside_arc, 0.6 * min(q_len, k_len)), short_of_tip))
    # Clear of the arrow on that side too, which leans out from the bisector by half the angle: measured from the
    # bisector alone, the number lay across that arrow (K1's in the drag-2d example, 18°).
    side_x, side_y, side_half_width = math.cos(start), math.sin(start), half_widths[0]
    if side_x * normal_x + side_y * normal_y < 0:
        side_x, side_y, side_half_width = math.cos(start + sweep), math.sin(start + sweep), half_widths[1]
    across_x, across_y = (-side_y, side_x) if side_x * normal_y - side_y * normal_x >= 0 else (side_y, -side_x)
    reach = abs(across_x) * half_w + abs(across_y) * half_h + (side_half_width + 2) * pixel
    tilt = across_x * normal_x + across_y * normal_y  # cos of half the angle
    if tilt > 0.1:
        aside = max(aside, (reach - distance * (across_x * ux + across_y * uy)) / tilt)
    return distance * ux + aside * normal_x, distance * uy + aside * normal_y


def clear_of_arrows(size: tuple[float, float], x: float, y: float, pixel: float, obstacles, placed: list,
                    search_px: float = 240.0) -> tuple[float, float]:
    """The view point nearest to (x, y) where a box of `size` pixels centred on it crosses no arrow's shaft or grab
    circle (`obstacles`: shafts, grab radius and the view's bounds in pixels, see VectorCanvas.redraw_arrows),
    lies inside the view and on no `placed` label; (x, y) itself where it is clear or nothing near is."""
    shafts, radius, (view_left, view_top, view_right, view_bottom) = obstacles
    half_w, half_h = size[0] / 2, size[1] / 2

    def clear(px: float, py: float) -> bool:
        left, top, right, bottom = px - half_w, py - half_h, px + half_w, py + half_h
        return (view_left <= left and right <= view_right and view_top <= top and bottom <= view_bottom
                and not obstacle_hits(left, top, right, bottom, shafts, radius, -1, True)
                and not hits_label(left, top, size[0], size[1], placed))

    cx, cy = x / pixel, -y / pixel
    if clear(cx, cy):
        return x, y
    for distance in np.arange(8.0, search_px, 8.0):
        for turn in _SEARCH_TURNS:
            px, py = cx + distance * math.cos(turn), cy + distance * math.sin(turn)
            if clear(px, py):
                return px * pixel, -py * pixel
    return x, y


_SEARCH_TURNS = np.linspace(0.0, 2.0 * math.pi, 16, endpoint=False).tolist()


def place_beside(size: tuple[float, float], x: float, y: float, ux: float, uy: float, pixel: float, placed: list,
                 direction: int = 0) -> tuple[Placement, float]:
    """A label of `size` at view point (x, y) on the side direction (ux, uy) points to, clear of the `placed` boxes
    (its own box is added to them), and how many pixels it moved down for that.

    A label that must move goes to the nearest free place above or below; only below if `direction` is 1 (a
    label of tips on one point, stacked), only above if it is -1.
    """
    anchor = (0.5 - 0.5 * ux, 0.5 + 0.5 * uy)
    width, height = size  # in pixels: a TextItem keeps its size whatever the zoom
    left, top = x / pixel - anchor[0] * width, -y / pixel - anchor[1] * height  # pixel space, y downwards
    natural_top = top
    if len(placed) < MAX_AVOIDED_LABELS:  # beyond that the check costs more than crowded labels are worth
        top = free_top(left, top, width, height, placed, direction)
    return _put(left, top, width, height, (ux, uy), pixel, placed), top - natural_top


def place_name(size: tuple[float, float], x: float, y: float, ux: float, uy: float, has_direction: bool,
               pixel: float, placed: list, shafts: list, radius: float, view: Box, owner: int) -> Placement:
    """The name (of `size`) of the tip at view point (x, y) near it, its letters clear of the arrows' `shafts` (see
    `shaft`), their grab circles of `radius` pixels (but the `owner`'s own) and the `placed` boxes.

    Beyond the tip along the arrow (ux, uy), moved up or down clear of the labels, where that crosses no shaft or
    circle, as ever; otherwise the first free place turned 45°, then 90° round the tip (the upper side first),
    inside the `view` (left, top, right, bottom in pixels); a tip without a direction (a zero vector) tries every
    way round. Where none is free, the one of those places crossing the fewest shafts and circles.
    """
    width, height = size
    tip_x, tip_y = x / pixel, -y / pixel
    margin = TEXT_MARGIN_PX

    def crossings(left: float, top: float, first: bool = False) -> int:
        return obstacle_hits(left + margin, top + margin, left + width - margin, top + height - margin, shafts,
                             radius, owner, first)

    def shown(left: float, top: float) -> bool:
        return view[0] <= left + margin and view[1] <= top + margin and left + width - margin <= view[2] \
            and top + height - margin <= view[3]

    # Beyond the tip first, as names went before they kept off the shafts: free for most names, most of the time.
    beyond_left = tip_x + ux * LABEL_GAP_PX - (0.5 - 0.5 * ux) * width
    beyond_top = tip_y - uy * LABEL_GAP_PX - (0.5 + 0.5 * uy) * height
    cleared_top = beyond_top
    if hits_label(beyond_left, beyond_top, width, height, placed):
        cleared_top = free_top(beyond_left, beyond_top, width, height, placed)
    if (cleared_top == beyond_top or shown(beyond_left, cleared_top)) and not crossings(beyond_left, cleared_top,
                                                                                        True):
        return _put(beyond_left, cleared_top, width, height, (ux, uy), pixel, placed)
    places = [(beyond_left, beyond_top, (ux, uy))]
    gap = max(LABEL_GAP_PX, radius - margin + 1)  # clear of its own grab circle, bigger at presentation zoom
    for vx, vy in directions(ux, uy, has_direction)[1:]:
        left = tip_x + vx * gap - (0.5 - 0.5 * vx) * width
        top = tip_y - vy * gap - (0.5 + 0.5 * vy) * height
        if not shown(left, top):
            continue  # fit() leaves room beyond the tip, not round it: a place there could be cut off
        if not hits_label(left, top, width, height, placed) and not crossings(left, top, True):
            return _put(left, top, width, height, (vx, vy), pixel, placed)
        places.append((left, top, (vx, vy)))
    # Nowhere free: beyond the tip clear of the labels as before, or a place moved up or down by about a line
    # clear of them (a label moved further is no longer by its tip); the fewest crossings, then the least moved.
    tries = [(beyond_left, cleared_top, 0.0, (ux, uy))]
    for left, top, direction in places:
        for way in (-1, 1):
            moved = free_top(left, top, width, height, placed, way)
            if abs(moved - top) <= 1.25 * height and shown(left, moved):
                tries.append((left, moved, abs(moved - top), direction))
    _, left, top, direction = min(((crossings(left, top), shift, order), left, top, direction)
                                  for order, (left, top, shift, direction) in enumerate(tries))
    return _put(left, top, width, height, direction, pixel, placed)


def directions(ux: float, uy: float, has_direction: bool) -> list[tuple[float, float]]:
    """Where a name may go from its tip, in order: along the arrow (ux, uy), turned 45° either way, then 90° (the
    upper side first, the right one if level); and a zero vector's, with no arrow to keep off, every other way."""
    turned_left = (_DIAGONAL * (ux - uy), _DIAGONAL * (ux + uy))
    turned_right = (_DIAGONAL * (ux + uy), _DIAGONAL * (uy - ux))
    if (turned_right[1], turned_right[0]) > (turned_left[1], turned_left[0]):
        turned_left, turned_right = turned_right, turned_left
    square_left, square_right = (-uy, ux), (uy, -ux)
    if (square_right[1], square_right[0]) > (square_left[1], square_left[0]):
        square_left, square_right = square_right, square_left
    ways = [(ux, uy), turned_left, turned_right, square_left, square_right]
    if not has_direction:
        ways += [(-turned_right[0], -turned_right[1]), (-turned_left[0], -turned_left[1]), (-ux, -uy)]
    return ways


def _put(left: float, top: float, width: float, height: float, direction: tuple[float, float], pixel: float,
         placed: list) -> Placement:
    """The placement of the box at (left, top) in pixels, anchored on the side facing its point from `direction`;
    the box joins the `placed` ones (while they are few enough to be avoided)."""
    if len(placed) < MAX_AVOIDED_LABELS:
        placed.append((left, top, width, height))
    anchor = (0.5 - 0.5 * direction[0], 0.5 + 0.5 * direction[1])
    return (left + anchor[0] * width) * pixel, -(top + anchor[1] * height) * pixel, anchor


def hits_label(left: float, top: float, width: float, height: float, placed: list) -> bool:
    """Whether a width × height box at (left, top) overlaps one of the `placed` boxes (touching is no overlap)."""
    right, bottom = left + width, top + height
    for box_left, box_top, box_width, box_height in placed:
        if left < box_left + box_width and box_left < right and top < box_top + box_height - 0.01 \
                and box_top + 0.01 < bottom:
            return True
    return False


def shaft(x: float, y: float, half_width: float) -> Shaft:
    """An arrow from the origin to (x, y) in pixels as `obstacle_hits` tests it: the tip, how far letters keep
    from the line's middle, and the bounds of the line so widened (most boxes are clear of those)."""
    half = half_width + SHAFT_CLEARANCE_PX
    return x, y, half, min(0.0, x) - half, max(0.0, x) + half, min(0.0, y) - half, max(0.0, y) + half


def obstacle_hits(left: float, top: float, right: float, bottom: float, shafts: list, radius: float,
                  owner: int, first: bool = False) -> int:
    """How many of the arrows' `shafts` (see `shaft`) and their grab circles of `radius` round each tip (but the
    `owner`'s own) the box from (left, top) to (right, bottom) crosses, in pixels; 0 or 1 if `first`."""
    hits = 0
    for i, (x, y, half, low_x, high_x, low_y, high_y) in enumerate(shafts):
        if i != owner and left - radius < x < right + radius and top - radius < y < bottom + radius:
            near_x = left if x < left else right if x > right else x
            near_y = top if y < top else bottom if y > bottom else y
            if (x - near_x) ** 2 + (y - near_y) ** 2 < radius * radius:
                if first:
                    return 1
                hits += 1
        if low_x > right or high_x < left or low_y > bottom or high_y < top:
            continue
        # The line through the origin and (x, y) crosses the box grown by the half width where the box has
        # corners on both sides of it: x * corner_y - y * corner_x takes both signs over the corners.
        grown_top, grown_bottom = top - half, bottom + half
        grown_left, grown_right = left - half, right + half
        if x >= 0.0:
            low, high = x * grown_top, x * grown_bottom
        else:
            low, high = x * grown_bottom, x * grown_top
        if y >= 0.0:
            low, high = low - y * grown_right, high - y * grown_left
        else:
            low, high = low - y * grown_left, high - y * grown_right
        if low < 0.0 < high:
            if first:
                return 1
            hits += 1
    return hits


def free_top(left: float, top: float, width: float, height: float, placed: list, direction: int = 0) -> float:
    """The top nearest to `top` where a width × height box hits none of the `placed` boxes: moving up or down, only
    down (pixel y grows) if `direction` is 1, only up if it is -1."""
    # Only boxes overlapping this label's columns can be hit, whatever its top: find them once (many keys: O(n²)).
    # Boxes that only touch do not hit (the test shortens each by 0.01 px at both ends): "just above" a box is
    # top - height, and adding height back need not give top again in floating point. Counted as a hit, that
    # place was lost, and a label in a stack on one point could run out of places and overprint the first.
    column = [(box[1], box[1] + box[3], box[1] + 0.01, box[1] + box[3] - 0.01) for box in placed
              if left < box[0] + box[2] and box[0] < left + width]
    candidates, tried = [top], set()
    for _ in range(4 * len(placed) + 2):
        if not candidates:
            break
        candidates.sort(key=lambda t: abs(t - top))
        candidate = candidates.pop(0)
        if candidate in tried:
            continue
        tried.add(candidate)
        bottom = candidate + height
        hit = next(((y0, y1) for y0, y1, inner0, inner1 in column if candidate < inner1 and inner0 < bottom), None)
        if hit is None:
            return candidate
        if direction >= 0:
            candidates.append(hit[1])  # just below it
        if direction <= 0:
            candidates.append(hit[0] - height)  # just above it
    return top
