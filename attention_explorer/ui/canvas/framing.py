"""How the canvas frames its view: the disc any rotation sweeps, names beyond it, floating controls kept clear.

Pure numpy on pixels, tested without widgets. Points are view units; a reach is how many pixels a tip's grab
circle and name stretch beyond it (columns left, right, down, up); a covered box is (left, top, right, bottom) in
pixels from the view's top left, y downwards: where a control floats over the plot.
"""

from __future__ import annotations

import math

import numpy as np

from attention_explorer.ui.canvas import label_layout

FIT_PAD_PX = 8  # free pixels around every tip's name and grab circle
COVER_CLEARANCE_PX = 4  # and this many between them and a control floating over the plot
DISC_DIRECTIONS = 32  # where on the disc's rim a tip (and its name) may be framed
MARGIN_SHARE = 0.6  # margins may take at most this share of a side; the rest is for the vectors
LEAST_REACH_SHARE = 0.35  # the longest vector reaches at least this share of the plot's smaller side (the hall
# needs a third; a little more leaves room for the view's rounding)
CONTENT_SHARE = 0.35  # a band clearing the floating controls leaves the vectors at least this share of the height

Range = tuple[float, float, float, float]  # left, right, bottom, top in view units
Covered = tuple[float, float, float, float]


def disc_points(radius: float, count: int = DISC_DIRECTIONS) -> tuple[np.ndarray, np.ndarray]:
    """`count` points evenly round the rim of the disc of `radius` about the origin, the first on the x axis."""
    angles = np.linspace(0.0, 2.0 * math.pi, count, endpoint=False)
    return radius * np.cos(angles), radius * np.sin(angles)


def reaches(xs: np.ndarray, ys: np.ndarray, sizes: list[tuple[float, float]], stacked: list[float],
            handle: float, on_a_line: bool, rim: range) -> np.ndarray:
    """The reach of every point: the first len(sizes) are tips with names of those sizes (moved down by `stacked`
    pixels), the `rim` points get a grab circle and a line of text all round, the others nothing."""
    reach = np.zeros((xs.size, 4))
    for i, (size, shift) in enumerate(zip(sizes, stacked)):
        ux, uy = label_layout.tip_direction(xs[i], ys[i], on_a_line)
        reach[i] = label_layout.label_reach(size, ux, uy, handle, shift)
    # A tip turned to the disc's rim keeps its grab circle and a line of text in view all round: its name, if
    # longer, turns to where it is seen (label_layout.place_name). Its full width all round would leave a narrow
    # plot little room for the vectors.
    reach[rim.start:rim.stop] = handle + max((size[1] for size in sizes), default=0.0)
    return reach


def shown_range(wanted: Range, width_px: float, height_px: float) -> Range:
    """What a view with locked aspect shows when asked for `wanted`: that range, widened about its centre."""
    left, right, bottom, top = wanted
    scale = max((right - left) / width_px, (top - bottom) / height_px)
    centre_x, centre_y = (left + right) / 2, (bottom + top) / 2
    half_w, half_h = scale * width_px / 2, scale * height_px / 2
    return centre_x - half_w, centre_x + half_w, centre_y - half_h, centre_y + half_h


def _fixed_point_range(xs: np.ndarray, ys: np.ndarray, reach: np.ndarray, width_px: float,
                       height_px: float) -> Range:
    """The least range holding every point and its reach: the margins are pixels, whose size the range sets."""
    scale = max(float(np.ptp(xs)) / width_px, float(np.ptp(ys)) / height_px) or 1e-9
    left = right = bottom = top = 0.0
    for _ in range(8):  # margins in pixels grow the range, which shrinks the pixels: settle on a fixed point
        left, right = float(np.min(xs - reach[:, 0] * scale)), float(np.max(xs + reach[:, 1] * scale))
        bottom, top = float(np.min(ys - reach[:, 2] * scale)), float(np.max(ys + reach[:, 3] * scale))
        scale = max((right - left) / width_px, (top - bottom) / height_px)
    return left, right, bottom, top


def _boxes_hit(xs: np.ndarray, ys: np.ndarray, reach: np.ndarray, shown: Range, width_px: float,
               covered: list[Covered]) -> np.ndarray:
    """Which points' boxes (the point and its reach, in pixels) overlap a covered box, the view showing `shown`."""
    left, right, _, top = shown
    scale = (right - left) / width_px
    px, py = (xs - left) / scale, (top - ys) / scale
    boxes = (px - reach[:, 0], py - reach[:, 3], px + reach[:, 1], py + reach[:, 2])
    hit = np.zeros(xs.size, dtype=bool)
    for c_left, c_top, c_right, c_bottom in covered:
        hit |= ((boxes[0] < c_right + COVER_CLEARANCE_PX) & (boxes[2] > c_left - COVER_CLEARANCE_PX)
                & (boxes[1] < c_bottom + COVER_CLEARANCE_PX) & (boxes[3] > c_top - COVER_CLEARANCE_PX))
    return hit


def frame_range(xs: np.ndarray, ys: np.ndarray, reach: np.ndarray, width_px: float, height_px: float,
                covered: list[Covered] | tuple = ()) -> Range:
    """The range to ask for so every point, its reach and FIT_PAD_PX around it are visible, clear of `covered`.

    Boxes that a floating control would cover get a band as tall as the control above them (only those: a control
    in a corner the content leaves free costs nothing), until none is covered.
    """
    reach = np.asarray(reach, dtype=np.float64) + FIT_PAD_PX
    # Margins as wide as the plot would leave the vectors no room (a short plot with big labels, presentation zoom):
    # the range would grow without end and every arrow shrink to a dot.
    for low, high, size in ((0, 1, width_px), (2, 3, height_px)):
        margins = reach[:, low].max() + reach[:, high].max()
        if margins > MARGIN_SHARE * size:
            reach[:, (low, high)] *= MARGIN_SHARE * size / margins
    wanted = _fixed_point_range(xs, ys, reach, width_px, height_px)
    if not covered:
        return wanted
    covered = list(covered)
    moved = _moved_clear(xs, ys, reach, wanted, width_px, height_px, covered)
    if moved is not None:
        return moved
    band = max(box[3] for box in covered) + COVER_CLEARANCE_PX
    # A short plot (question mode at 1280×720) has no room for the whole band: as much of it as leaves the vectors
    # CONTENT_SHARE of the height. Better a name partly covered than arrows shrunk to dots.
    band = min(band, (1.0 - CONTENT_SHARE) * height_px - reach[:, 3].max() - reach[:, 2].max())
    if band <= 0:
        return wanted
    banded = np.zeros(xs.size, dtype=bool)
    for _ in range(xs.size):  # the banded set only grows, so this ends
        hit = _boxes_hit(xs, ys, reach, shown_range(wanted, width_px, height_px), width_px, covered) & ~banded
        if not hit.any():
            break
        banded |= hit
        reach[hit, 3] += band
        wanted = _fixed_point_range(xs, ys, reach, width_px, height_px)
    return wanted


def _moved_clear(xs: np.ndarray, ys: np.ndarray, reach: np.ndarray, wanted: Range, width_px: float,
                 height_px: float, covered: list[Covered]) -> Range | None:
    """The view showing `wanted` with its content moved the least within the slack the aspect leaves (left and
    down: the controls float at the top right) so no box is covered; None where no such move clears them."""
    left, right, bottom, top = shown_range(wanted, width_px, height_px)
    slack_x, slack_y = (right - left) - (wanted[1] - wanted[0]), (top - bottom) - (wanted[3] - wanted[2])
    steps = np.linspace(0.0, 1.0, 9)
    for _, tx, ty in sorted((tx + ty, tx, ty) for tx in steps for ty in steps):
        # tx = 0: centred, 1: the content against the left edge; ty likewise towards the bottom.
        dx, dy = slack_x / 2 * tx, slack_y / 2 * ty
        view = (left + dx, right + dx, bottom + dy, top + dy)
        if not _boxes_hit(xs, ys, reach, view, width_px, covered).any():
            return view
    return None


def points_out_of_view(xs: np.ndarray, ys: np.ndarray, view: Range, pixel: tuple[float, float],
                       covered: list[Covered] | tuple = ()) -> bool:
    """Whether a point lies outside `view`, within half FIT_PAD_PX of its edge, or under a covered box.

    Half the padding a frame leaves: a framed view never counts as out of view.
    """
    left, right, bottom, top = view
    inset_x, inset_y = FIT_PAD_PX / 2 * pixel[0], FIT_PAD_PX / 2 * pixel[1]
    if bool(xs.min() < left + inset_x or xs.max() > right - inset_x
            or ys.min() < bottom + inset_y or ys.max() > top - inset_y):
        return True
    px, py = (xs - left) / pixel[0], (top - ys) / pixel[1]
    return any(bool(np.any((px > c_left) & (px < c_right) & (py > c_top) & (py < c_bottom)))
               for c_left, c_top, c_right, c_bottom in covered)


def keep_reach(view: Range, radius: float, width_px: float, height_px: float,
               share: float = LEAST_REACH_SHARE) -> Range:
    """`view` (as a locked aspect shows it), zoomed in about its centre where the longest vector (`radius`) would
    reach less than `share` of the smaller side: then names and margins give way, never the arrows' length.

    The zoomed view keeps the whole disc of `radius` about the origin: its centre moves towards the origin as far
    as that needs.
    """
    left, right, bottom, top = shown_range(view, width_px, height_px)
    scale = (right - left) / width_px
    least_side = min(width_px, height_px)
    if radius <= 0 or radius / scale >= share * least_side:
        return left, right, bottom, top
    scale = radius / (share * least_side)
    half_w, half_h = scale * width_px / 2, scale * height_px / 2
    centre_x = min(max((left + right) / 2, radius - half_w), half_w - radius)
    centre_y = min(max((bottom + top) / 2, radius - half_h), half_h - radius)
    return centre_x - half_w, centre_x + half_w, centre_y - half_h, centre_y + half_h
