"""Label placement on plain numbers, without widgets: names clear of each other, the shafts and the view's edge."""

from __future__ import annotations

import ast
import math
from pathlib import Path

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from attention_explorer.ui.canvas import label_layout
from attention_explorer.ui.canvas.label_layout import (
    ANGLE,
    LABEL_GAP_PX,
    QUERY,
    TEXT_MARGIN_PX,
    angle_arc,
    angle_label_point,
    directions,
    free_top,
    hits_label,
    label_order,
    label_reach,
    obstacle_hits,
    place_beside,
    place_name,
    shaft,
    tip_direction,
)

sizes = st.tuples(st.floats(10, 120), st.floats(10, 40))
VIEW = (-400.0, -300.0, 400.0, 300.0)  # left, top, right, bottom in pixels, the origin in the middle


def overlap(a: tuple, b: tuple) -> bool:
    """Whether two (left, top, width, height) boxes overlap by more than rounding (touching is fine)."""
    return a[0] < b[0] + b[2] - 0.02 and b[0] < a[0] + a[2] - 0.02 and a[1] < b[1] + b[3] - 0.02 \
        and b[1] < a[1] + a[3] - 0.02


def box_of(placement: tuple, size: tuple, pixel: float) -> tuple:
    """The pixel box a placement puts a text of `size` in (the inverse of what the canvas applies)."""
    x, y, (anchor_x, anchor_y) = placement
    return x / pixel - anchor_x * size[0], -y / pixel - anchor_y * size[1], size[0], size[1]


def test_the_module_needs_no_qt():
    tree = ast.parse(Path(label_layout.__file__).read_text(encoding="utf-8"))
    imported = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import)
                for alias in node.names}
    imported |= {node.module.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
                 and node.module}
    assert imported <= {"__future__", "math", "numpy"}


def test_a_name_goes_beyond_its_tip_along_the_arrow():
    placed: list = []
    placement, shift = place_beside((40.0, 20.0), 1.0, 0.0, 1.0, 0.0, 0.01, placed)
    assert shift == 0.0
    assert placement == (1.0, -0.0, (0.0, 0.5))  # anchored on its left edge, at the point
    assert placed == [(100.0, -10.0, 40.0, 20.0)]


def test_a_second_label_on_the_same_spot_moves_to_the_nearest_free_place_and_says_how_far():
    placed: list = []
    place_beside((40.0, 20.0), 0.0, 0.0, 1.0, 0.0, 1.0, placed)
    _, shift = place_beside((40.0, 20.0), 0.0, 0.0, 1.0, 0.0, 1.0, placed, direction=1)
    assert shift == 20.0  # one line below: a stacked label only goes down
    _, shift = place_beside((40.0, 20.0), 0.0, 0.0, 1.0, 0.0, 1.0, placed, direction=-1)
    assert shift == -20.0  # and one only up goes above the first


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.floats(-300, 300), st.floats(-200, 200), sizes, st.sampled_from([-1, 0, 1])),
                min_size=2, max_size=12))
def test_labels_placed_one_after_another_never_overlap(labels):
    placed: list = []
    boxes = []
    for x, y, size, direction in labels:
        ux, uy = tip_direction(x, y, False)
        placement, _ = place_beside(size, x, y, ux, uy, 1.0, placed, direction)
        boxes.append(box_of(placement, size, 1.0))
    np.testing.assert_allclose(boxes, placed, atol=1e-6)  # what was placed is what is shown
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert not overlap(a, b), (a, b)


tips = st.tuples(st.floats(-150, 150), st.floats(-100, 100))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(tips, sizes), min_size=1, max_size=8), st.floats(0.001, 0.1))
def test_names_keep_clear_of_each_other_and_a_name_alone_stays_in_the_view(names, pixel):
    shafts = [shaft(x, y, 1.5) for (x, y), _ in names]
    placed: list = []
    boxes = []
    for owner, ((x, y), size) in enumerate(names):
        ux, uy = tip_direction(x, y, False)
        placement = place_name(size, x * pixel, -y * pixel, ux, -uy if (x, y) != (0, 0) else uy,
                               (x, y) != (0, 0), pixel, placed, shafts, 18.0, VIEW, owner)
        box = box_of(placement, size, pixel)
        boxes.append(box)
        if owner == 0:  # nothing placed yet: inside the view, letters and all (the view has room round every tip)
            left, top, width, height = box
            assert VIEW[0] <= left + TEXT_MARGIN_PX and left + width - TEXT_MARGIN_PX <= VIEW[2]
            assert VIEW[1] <= top + TEXT_MARGIN_PX and top + height - TEXT_MARGIN_PX <= VIEW[3]
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert not overlap(a, b), (a, b)


def test_a_name_that_would_lie_on_another_arrow_turns_round_its_tip():
    # K at (100, 0) px, its name beyond it; a second arrow's shaft runs straight through that place.
    size = (40.0, 20.0)
    shafts = [shaft(100.0, 0.0, 1.5), shaft(200.0, 0.0, 1.5)]
    placement = place_name(size, 100.0, 0.0, 1.0, 0.0, True, 1.0, [], shafts, 18.0, VIEW, 0)
    left, top, width, height = box_of(placement, size, 1.0)
    assert obstacle_hits(left + 4, top + 4, left + width - 4, top + height - 4, shafts, 18.0, 0) == 0
    assert top + height <= 0.0  # on the upper side, as names go first
    free = place_name(size, 100.0, 0.0, 1.0, 0.0, True, 1.0, [], shafts[:1], 18.0, VIEW, 0)
    assert free[2] == (0.0, 0.5)  # with the way clear it stays beyond the tip


def test_shafts_and_grab_circles_count_as_hits_but_the_owners_circle_does_not():
    shafts = [shaft(100.0, 0.0, 1.0)]
    assert obstacle_hits(40, -5, 60, 5, shafts, 10.0, owner=-1) == 1  # across the line
    assert obstacle_hits(40, 5, 60, 15, shafts, 10.0, owner=-1) == 0  # just below it
    assert obstacle_hits(105, -5, 115, 5, shafts, 10.0, owner=-1) == 1  # on the circle round the tip
    assert obstacle_hits(105, -5, 115, 5, shafts, 10.0, owner=0) == 0


def test_free_top_finds_the_nearest_gap_and_touching_is_no_overlap():
    placed = [(0.0, 0.0, 50.0, 20.0), (0.0, 20.0, 50.0, 20.0)]
    assert free_top(10.0, 5.0, 30.0, 20.0, placed) == -20.0  # above is nearer than below the second
    assert free_top(10.0, 5.0, 30.0, 20.0, placed, direction=1) == 40.0
    assert not hits_label(0.0, 40.0, 50.0, 20.0, placed)
    assert hits_label(0.0, 39.0, 50.0, 20.0, placed)


def test_directions_go_along_the_arrow_then_round_the_upper_side_first():
    ways = directions(1.0, 0.0, True)
    assert ways[0] == (1.0, 0.0)
    assert ways[1][1] > 0 and ways[3] == (-0.0, 1.0)  # 45° and 90° up before down
    assert len(directions(0.7071, 0.7071, False)) == 8  # a zero vector tries every way round


def test_tip_direction_of_a_zero_vector_and_on_a_line():
    assert tip_direction(3.0, 4.0, False) == (0.6, 0.8)
    assert tip_direction(0.0, 0.0, False) == (0.7071, 0.7071)
    assert tip_direction(3.0, 4.0, True) == (0.0, 1.0)


def test_label_reach_beyond_a_tip_pointing_right():
    left, right, down, up = label_reach((40.0, 20.0), 1.0, 0.0, 17.0, 0.0)
    assert (left, right) == (17.0, LABEL_GAP_PX + 40.0)  # the handle on the left, the name on the right
    assert down == up == 17.0


def test_label_order_puts_names_by_importance_and_stacks_tips_on_one_point():
    kx, ky = np.array([1.0, 0.0, -1.0]), np.array([0.0, 1.0, 0.0])
    assert label_order(0.5, 0.5, kx, ky, 0.01, 2) == [(QUERY, False, True), (2, False, True), (ANGLE, False, False),
                                                     (0, False, True), (1, False, True)]
    # Q = K1 = K3 on one point (the library example): their names stack, and none of them avoids the shafts.
    kx, ky = np.array([1.0, 0.0, 1.0]), np.array([0.0, 1.0, 0.0])
    # Those on Q's point and the selected key's go first, in the order of the keys, then the angle's number.
    assert label_order(1.0, 0.0, kx, ky, 0.01, 1) == [(QUERY, False, False), (0, True, False), (1, False, True),
                                                     (2, True, False), (ANGLE, False, False)]


def test_the_angle_arc_goes_the_short_way_and_its_number_sits_on_the_bisector_of_a_wide_angle():
    start, sweep, radius = angle_arc(1.0, 0.0, 0.0, -1.0, 0.01)
    assert start == 0.0 and math.isclose(sweep, -math.pi / 2)
    assert radius == 0.4
    x, y = angle_label_point((40.0, 20.0), start, sweep, radius, 1.0, 1.0, 0.01, 17.0, False, (1.0, 1.0))
    assert math.isclose(math.atan2(y, x), -math.pi / 4) and math.hypot(x, y) > radius
    assert angle_arc(0.0, 0.0, 1.0, 0.0, 0.01) is None  # a zero vector has no angle


@settings(max_examples=300, deadline=None)
@given(st.floats(0.02, 0.6), st.floats(0.3, 3.0), st.floats(0.3, 3.0))
def test_the_number_of_a_narrow_angle_keeps_off_both_arrows(sweep, q_len, k_len):
    pixel, size = 0.01, (60.0, 24.0)
    start = 0.3
    arc = angle_arc(q_len * math.cos(start), q_len * math.sin(start), k_len * math.cos(start + sweep),
                    k_len * math.sin(start + sweep), pixel)
    assume(arc is not None)
    x, y = angle_label_point(size, *arc, q_len, k_len, pixel, 17.0, False, (1.5, 1.5))
    half_w, half_h = size[0] / 2 * pixel, size[1] / 2 * pixel
    for direction in (start, start + sweep):
        # The box's nearest approach to the arrow's line: its centre's distance across it, less its half extent.
        across = -math.sin(direction) * x + math.cos(direction) * y
        extent = abs(math.sin(direction)) * half_w + abs(math.cos(direction)) * half_h
        along = math.cos(direction) * x + math.sin(direction) * y
        if along > 0:
            assert abs(across) >= extent - 1e-9
